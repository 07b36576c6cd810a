//! The shipped puzzles re-proven by the exact solver (a deterministic sample here: every
//! puzzle is re-proven by `virada puzzles verify`, see docs/PUZZLES.md), and the finder and
//! verifier checked on positions solved here.

use virada_engine::puzzles::{
    parse_puzzle_file, shipped, verify, Finder, FinderConfig, MidgameConfig, MidgameFinder,
    MidgameVerifyError, Puzzle, PuzzleKind, VerifyError,
};
use virada_rules::Position;

/// Every shipped puzzle: unique best move first, every legal move listed, the text round-trips.
#[test]
fn shipped_puzzles_are_well_formed() {
    let all = shipped();
    for p in all {
        assert!(p.scores.len() >= 2, "{}", p.id);
        assert!(
            p.scores[1..].iter().all(|&(_, s)| s < p.best_score()),
            "{}",
            p.id
        );
        assert_eq!(p.to_string().parse::<Puzzle>().as_ref(), Ok(p));
        assert_eq!(p.id, Puzzle::id_for(p.kind, &p.start));
    }
    let mut ids: Vec<&str> = all.iter().map(|p| p.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), all.len(), "ids repeat");
}

/// A deterministic sample (every 10th puzzle, the first included) re-proven with the solver.
#[test]
fn shipped_sample_reproves() {
    let mut finder = Finder::new(FinderConfig::default());
    let endgame = shipped().iter().filter(|p| p.kind == PuzzleKind::Endgame);
    for p in endgame.step_by(10) {
        verify(p, &mut finder).unwrap_or_else(|e| panic!("{}: {e}", p.id));
    }
}

/// Midgame puzzles are shipped, and a sample (every 10th) gives the same values when its
/// depth-16 search is run again, with the solution ahead by the margin.
#[test]
fn shipped_midgame_sample_searches_the_same() {
    let midgame: Vec<&Puzzle> = shipped()
        .iter()
        .filter(|p| p.kind == PuzzleKind::Midgame)
        .collect();
    assert!(midgame.len() >= 100, "{} midgame puzzles", midgame.len());
    let mut finder = MidgameFinder::new(MidgameConfig::default());
    for p in midgame.into_iter().step_by(10) {
        assert!(p.empties() >= 24, "{}", p.id);
        assert!(p.best_score() - p.scores[1].1 >= 6, "{}", p.id);
        finder.verify(p).unwrap_or_else(|e| panic!("{}: {e}", p.id));
    }
}

/// The midgame finder singles out the one move that avoids a disaster, repeats its values, and
/// catches a tampered score or a margin too small.
#[test]
fn midgame_finder_and_verifier() {
    // 30 empties, Black to move, from a WTHOR game: b1 keeps the loss small, every other move
    // gives away 20 discs or more.
    let pos: Position = "--OOXXX---OOOX---OOOXOX--OOXOXXX-OXXXXX-O--OOOX--------X-------- X"
        .parse()
        .unwrap();
    let config = MidgameConfig {
        depth: 10,
        ladder: vec![6, 8],
        ..MidgameConfig::default()
    };
    let mut finder = MidgameFinder::new(config.clone());
    let p = finder.midgame(pos).expect("a midgame puzzle");
    assert_eq!(p.kind, PuzzleKind::Midgame);
    assert_eq!(p.line.len(), 1);
    assert_eq!(p.solution().to_string(), "b1");
    assert!(p.best_score() - p.scores[1].1 >= 6);
    assert_eq!(p.scores.len() as u32, pos.board().legal_moves().count());
    finder.verify(&p).unwrap();
    // Verification does not depend on the finder's table: a fresh finder agrees.
    MidgameFinder::new(config.clone()).verify(&p).unwrap();
    let mut wrong = p.clone();
    wrong.scores[3].1 -= 1;
    assert!(matches!(
        finder.verify(&wrong),
        Err(MidgameVerifyError::Score { .. })
    ));
    let mut strict = MidgameFinder::new(MidgameConfig {
        min_margin: 100,
        ..config
    });
    assert!(matches!(
        strict.verify(&p),
        Err(MidgameVerifyError::Margin { .. })
    ));
    assert!(strict.midgame(pos).is_none());
    // An endgame puzzle is not re-searched as a midgame one.
    let endgame = shipped()
        .iter()
        .find(|p| p.kind == PuzzleKind::Endgame)
        .unwrap();
    assert_eq!(finder.verify(endgame), Err(MidgameVerifyError::NotMidgame));
}

/// The finder's puzzle verifies; the same puzzle with a wrong score or a second best move
/// does not.
#[test]
fn found_puzzles_verify_and_tampering_is_caught() {
    // 12 empties, Black to move, from a WTHOR game: h2 loses by 18, every other move by 28.
    let pos: Position = "---XXXOXX-XXXOO-XXOXOOO-XOXOOOOOXXOXOXOXXXXOXOOX--XXOOO---XXXXX- X"
        .parse()
        .unwrap();
    let mut finder = Finder::new(FinderConfig::default());
    let p = finder.endgame(pos).expect("a puzzle");
    assert_eq!(p.line[0].to_string(), "h2");
    assert_eq!(p.best_score(), -18);
    verify(&p, &mut finder).unwrap();
    let mut wrong = p.clone();
    wrong.scores[1].1 += 2;
    assert!(matches!(
        verify(&wrong, &mut finder),
        Err(VerifyError::Score { .. }) | Err(VerifyError::NotUnique { .. })
    ));
    let text = format!("{p}\n");
    assert_eq!(parse_puzzle_file(&text).unwrap(), vec![p]);
}
