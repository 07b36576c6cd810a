//! Hand-off to the exact endgame solver (`crate::endgame`) for the final, exact iteration.
//!
//! The solver shares the midgame search's table (through `probe_discs` / `store_discs`, which
//! convert its whole discs): it finds the best moves the iterations before it stored, and the
//! midgame search reads its results as exact values. It orders moves with the engine's
//! evaluation. Limits carry over: what is left of the deadline and the node budget, and the
//! caller's stop flag.

use super::setup::SearchSetup;
use super::tree::SearchShared;
use crate::endgame::{solve_with_table, ScoreBound, SolveMode, SolveOptions, SolveResult};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use virada_rules::{Board, Move};

/// The solver looks at its limits every 65,536 nodes per thread: a node budget smaller than
/// that would be overrun, so the hand-off is skipped and the selective result stands.
pub(crate) fn node_budget_allows(shared: &SearchShared) -> bool {
    match shared.node_limit {
        Some(n) => n.saturating_sub(shared.nodes.load(Ordering::Relaxed)) >= 1 << 16,
        None => true,
    }
}

fn solve(
    board: Board,
    setup: &SearchSetup,
    shared: &SearchShared,
    stop: Option<&Arc<AtomicBool>>,
    all_moves: bool,
) -> SolveResult {
    let opts = SolveOptions {
        mode: SolveMode::Exact,
        all_moves,
        threads: setup.threads,
        time_limit: shared.deadline.map(|d| d.saturating_sub(shared.elapsed())),
        time_source: setup.time_source,
        node_limit: shared.node_limit.map(|n| {
            n.saturating_sub(shared.nodes.load(Ordering::Relaxed))
                .max(1)
        }),
        stop: stop.cloned(),
        ..SolveOptions::default()
    };
    let r = solve_with_table(board, &opts, setup.tt, setup.eval);
    shared.nodes.fetch_add(r.nodes, Ordering::Relaxed);
    r
}

/// A proven best move, its exact score (discs) and the solver's principal variation; `None`
/// when the solve was interrupted before proving its result.
pub(crate) fn solve_best(
    board: Board,
    setup: &SearchSetup,
    shared: &SearchShared,
    stop: Option<&Arc<AtomicBool>>,
) -> Option<(Move, i32, Vec<Move>)> {
    let r = solve(board, setup, shared, stop, false);
    let score = r.score.value().filter(|_| r.complete)?;
    let best = *r.best_moves.first()?;
    Some((best, score, r.pv))
}

/// Every legal move with its proven bounds (exact where the solve finished), and whether the
/// whole solve completed.
pub(crate) fn solve_all(
    board: Board,
    setup: &SearchSetup,
    shared: &SearchShared,
    stop: Option<&Arc<AtomicBool>>,
) -> (Vec<(Move, ScoreBound)>, bool) {
    let r = solve(board, setup, shared, stop, true);
    (r.move_scores, r.complete)
}
