//! The shipped puzzles re-proven by the exact solver (a deterministic sample here: every
//! puzzle is re-proven by `virada puzzles verify`, see docs/PUZZLES.md), and the finder and
//! verifier checked on positions solved here.

use virada_engine::puzzles::{
    parse_puzzle_file, shipped, verify, Finder, FinderConfig, Puzzle, PuzzleKind, VerifyError,
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
    for p in shipped().iter().step_by(10) {
        if p.kind == PuzzleKind::Endgame {
            verify(p, &mut finder).unwrap_or_else(|e| panic!("{}: {e}", p.id));
        }
    }
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
