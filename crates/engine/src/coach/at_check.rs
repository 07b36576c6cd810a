//! Test: every claim's squares mean something on the board it is drawn on. Games of seeded
//! random moves are reviewed by the engine and explained; each explanation's board is rebuilt
//! here from the game alone (the position before the move, then the line the claim names,
//! replayed by the rules' checked `Position::play`, not by the coach's `Lines`), and each square
//! must hold a disc there, or be the empty square the claim is about: a legal move of the side to
//! move (mobility; a corner or a wipe-out offered at once), the empty corner next to the X- or
//! C-square, the empty region (parity), the wedge's gap.

use super::corner::nearest_corner;
use super::{explain_game, Explanation, Kind, LineKind};
use crate::random::SplitMix;
use crate::{Engine, EngineConfig, Limits};
use virada_rules::{Bitboard, Game, Move, Position, Square};

/// A game of `plies` random legal moves (passes as the rules force them).
fn random_game(seed: u64, plies: usize) -> Game {
    let mut rng = SplitMix(seed);
    let mut game = Game::new();
    for _ in 0..plies {
        let pos = game.position();
        if pos.is_game_over() {
            break;
        }
        let mv = if pos.must_pass() {
            Move::Pass
        } else {
            let moves: Vec<Square> = pos.legal_moves().iter().collect();
            Move::Play(moves[rng.below(moves.len())])
        };
        game.play(mv).expect("a legal move");
    }
    game
}

/// The line the claim is drawn on, as the analysis object gives it to the page: the played
/// move, forced passes, the next position's best line; or the review's best line.
fn line_of(game: &Game, review: &crate::GameAnalysis, ply: usize, which: LineKind) -> Vec<Move> {
    let moves = game.moves();
    match which {
        LineKind::Before => Vec::new(),
        LineKind::Best => review.ply(ply).expect("judged").pv.clone(),
        LineKind::Played => {
            let mut line = vec![moves[ply]];
            let mut next = ply + 1;
            while next < moves.len() && moves[next] == Move::Pass {
                line.push(Move::Pass);
                next += 1;
            }
            if let Some(r) = review.ply(next) {
                line.extend(&r.pv);
            }
            line
        }
    }
}

/// Why square `sq` of `e` is fine on `pos` (the claim's board), or `Err` saying why not.
fn check_square(e: &Explanation, pos: &Position, sq: Square) -> Result<(), String> {
    let occupied = pos.color_at(sq).is_some();
    let legal = pos.legal_moves().contains(sq);
    let ok = match e.kind {
        _ if occupied => true,
        Kind::Mobility => legal,
        Kind::CornerGiven | Kind::WipeoutRisk => e.at.ply == 1 && legal,
        Kind::XSquare | Kind::CSquare => sq == nearest_corner(e.played),
        Kind::Parity => e.at.line == LineKind::Before,
        Kind::Wedge => Bitboard::EDGES.contains(sq),
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{} of {:?} at {:?}: {sq} is empty and no move there",
            e.played, e.kind, e.at
        ))
    }
}

#[test]
fn every_claims_squares_are_on_the_board_it_holds_on() {
    let mut engine = Engine::new(EngineConfig {
        tt_mb: 4,
        threads: 1,
        ..EngineConfig::default()
    });
    let limits = Limits {
        depth: Some(4),
        exact_empties: Some(10),
        ..Limits::default()
    };
    let (mut claims, mut squares, mut later) = (0, 0, 0);
    let mut kinds = std::collections::BTreeSet::new();
    for seed in 1..=6u64 {
        let game = random_game(seed, 60);
        let review = engine.analyze_game(&game, &limits, None, None);
        for p in explain_game(&game, &review) {
            let before = game.positions()[p.ply];
            for e in &p.explanations {
                let line = line_of(&game, &review, p.ply, e.at.line);
                assert!(
                    e.at.ply <= line.len(),
                    "{:?} beyond its line {line:?}",
                    e.at
                );
                assert_eq!(e.at.line == LineKind::Before, e.at.ply == 0, "{:?}", e.at);
                let mut pos = before;
                for &mv in &line[..e.at.ply] {
                    pos = pos
                        .play(mv)
                        .unwrap_or_else(|err| panic!("{mv} in {line:?}: {err}"));
                }
                if e.at.line == LineKind::Played && e.at.ply >= 1 {
                    assert_eq!(line[0], Move::Play(e.played));
                }
                for &sq in &e.squares {
                    if let Err(why) = check_square(e, &pos, sq) {
                        panic!("game {seed}, ply {}: {why}", p.ply);
                    }
                    squares += 1;
                }
                claims += 1;
                later += usize::from(e.at.ply > 1);
                kinds.insert(e.kind);
            }
        }
    }
    // Enough claims of enough kinds, some of them deeper than the move itself, were checked.
    assert!(claims >= 60, "{claims} claims");
    assert!(squares >= 150, "{squares} squares");
    assert!(later >= 5, "{later} claims beyond the move");
    assert!(kinds.len() >= 8, "{kinds:?}");
}
