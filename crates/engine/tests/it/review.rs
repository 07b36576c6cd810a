//! The review of a game (`Engine::review_game`): exact from 20 empties, and a flagged loss
//! re-checked deeper before it is reported. The positions are test data from tournament games
//! where the old review (every position at depth 8, exact from 14 empties) flagged a move that
//! is no mistake; `virada bench review --review depth8` found them (WTHOR 1980-2015, seed 1).

use virada_engine::endgame::{solve, SolveOptions};
use virada_engine::{Engine, EngineConfig, GameAnalysis, Limits, ReviewEffort};
use virada_rules::{Board, Game, Move, Position};

/// WTH_2005.wtb #769, White to play move 44 (17 empties): White played c2. At depth 8 (exact
/// from 14) c2 is worth -0.1 and c1 +9.1, a "loss" of 9.2; solved, c2 is worth +8 and c1 +6.
const EXACT_CASE: &str = "---O-X--X--XXX-XXOXXXOX-XOOOOOOOXOOOOXOOXXOOOOOO--XXXO-O--XXXX-- O";

/// WTH_2006.wtb #255, Black to play move 37 (24 empties): Black played f1. At depth 8, f1 is
/// worth -1.3 and g7 +5.3, a "loss" of 6.6; at depth 16 (exact from 20) f1 is -3.2 and g7
/// -4.8: the played move is the better one.
const RECHECK_CASE: &str = "---O------XOOO--XXXXOOOOXOXOXOOOXOOXXOOOXOOOOOXO---OOX---------- X";

fn engine() -> Engine {
    Engine::new(EngineConfig {
        tt_mb: 64,
        threads: 1,
        ..EngineConfig::default()
    })
}

/// The game of one move: `mv` played from `pos`.
fn one_move(pos: &str, mv: &str) -> Game {
    let start: Position = pos.parse().expect("test position");
    let mut game = Game::from_position(start);
    game.play(mv.parse().expect("test move")).expect("legal");
    game
}

fn only_ply(review: &GameAnalysis) -> &virada_engine::PlyAnalysis {
    assert_eq!(review.plies.len(), 1, "{review:?}");
    &review.plies[0]
}

/// Every legal move's exact value for the side to move, from the solver on each child
/// position on its own (not the review's all-moves solve).
fn exact_values(board: Board) -> Vec<(Move, i32)> {
    board
        .legal_moves()
        .iter()
        .map(|sq| {
            let child = board.play_unchecked(sq);
            let r = solve(
                child,
                &SolveOptions {
                    threads: 1,
                    ..SolveOptions::default()
                },
            );
            let v = r.score.value().expect("solved");
            (Move::Play(sq), -v)
        })
        .collect()
}

#[test]
fn from_20_empties_the_review_is_exact_where_depth_8_was_wrong() {
    let game = one_move(EXACT_CASE, "c2");
    let board = game.positions()[0].board();
    assert_eq!(board.empty_count(), 17);
    let mut e = engine();
    // The old review flags c2 and suggests c1.
    let old = Limits {
        depth: Some(8),
        exact_empties: Some(14),
        ..Limits::default()
    };
    let before = e.analyze_game(&game, &old, None, None);
    let p = only_ply(&before);
    assert!(p.loss >= 2.0 && !p.exact, "depth 8 flags c2: {p:?}");
    assert_eq!(p.best_move.to_string(), "c1");

    let exact = exact_values(board);
    let best = exact.iter().map(|&(_, v)| v).max().unwrap();
    let value = |mv: &str| exact.iter().find(|(m, _)| m.to_string() == mv).unwrap().1;
    assert_eq!((value("c2"), value("c1")), (8, 6));

    let review = e.review_game(&game, &ReviewEffort::STANDARD, None);
    let p = only_ply(&review);
    assert!(review.complete && p.exact, "{p:?}");
    assert_eq!(p.played_value, value("c2") as f32);
    assert_eq!(p.best_value, best as f32);
    assert_eq!(p.loss, (best - value("c2")) as f32);
    assert!(p.loss < 2.0, "not a mistake: {p:?}");
}

#[test]
fn a_flagged_loss_is_re_checked_deeper_before_it_is_reported() {
    let game = one_move(RECHECK_CASE, "f1");
    assert_eq!(game.positions()[0].board().empty_count(), 24);
    // A first pass at depth 8 with nodes to spare, as the old review saw it.
    let first_pass_only = ReviewEffort {
        nodes: 2_000_000_000,
        max_depth: 8,
        recheck_loss: f32::INFINITY,
        ..ReviewEffort::STANDARD
    };
    let mut e = engine();
    let p = only_ply(&e.review_game(&game, &first_pass_only, None)).clone();
    assert_eq!((p.depth, p.best_move.to_string()), (8, "g7".to_string()));
    assert!(p.loss >= 2.0, "the first pass flags f1: {p:?}");

    // The re-check searches f1 and g7 8 plies deeper: f1 is no mistake.
    let rechecked = ReviewEffort {
        recheck_loss: 2.0,
        recheck_plies: 8,
        ..first_pass_only
    };
    let mut e = engine();
    let review = e.review_game(&game, &rechecked, None);
    let p = only_ply(&review);
    assert!(review.complete, "{review:?}");
    assert_eq!(p.depth, 16, "{p:?}");
    assert!(p.loss < 1.0, "f1 is not a mistake at depth 16: {p:?}");
    assert!(review.nodes <= rechecked.nodes, "{}", review.nodes);
}

#[test]
fn a_review_keeps_to_its_node_budget_and_is_repeatable() {
    let game = one_move(RECHECK_CASE, "f1");
    let effort = ReviewEffort::with_nodes(3_000_000);
    let a = engine().review_game(&game, &effort, None);
    let b = engine().review_game(&game, &effort, None);
    assert_eq!(
        a,
        GameAnalysis {
            elapsed: a.elapsed,
            ..b.clone()
        }
    );
    // The first iteration always finishes and an iteration may overrun what is left of its
    // share by what it started with; the budget is never exceeded by more than that.
    assert!(a.nodes <= 3_000_000 + 1_000_000, "{}", a.nodes);
    let p = only_ply(&a);
    assert!(p.depth >= 4, "{p:?}");
}
