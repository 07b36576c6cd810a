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
use std::time::Duration;
use virada_rules::{Board, Move};

/// Estimated nodes of an exact solve at 20 empties, one thread. Game positions are easier than
/// FFO's (chosen hard): the 60 positions with 20 empties of
/// `crates/train/bench/wthor-heldout-20.obf` took 1.94 M nodes median, 3.46 M mean (cold
/// table; FFO #20-#39 1.2-14.6 M). Measured as an estimate on those 60 positions at
/// `nodes=650000` (docs/STRENGTH.md): 2 M solved 45 of them exactly and lost 0.23 discs a
/// position where 8 M solved none and lost 0.53, at the same CPU time.
const SOLVE_NODES_AT_20: f64 = 2.0e6;

/// How much an exact solve grows with each more empty square (FFO #40-#58: about 8 M nodes at
/// 20 empties, 100-400 M at 24-26).
const SOLVE_GROWTH: f64 = 2.0;

/// The solver searches this many times more nodes a second than the midgame iterations before
/// it (on the loaded development machine, one thread: 12 M against 1.1-2.9 M), so a solve's
/// time is estimated from the rate measured in those iterations.
const SOLVER_SPEED: f64 = 5.0;

/// A solve starts early only when its estimated cost with this margin fits in what is left:
/// an interrupted solve wastes the move's time (the selective iterations before it stand).
const SOLVE_SAFETY: f64 = 1.25;

/// The estimated nodes of an exact solve with `empties` empty squares.
pub(crate) fn estimated_solve_nodes(empties: u32) -> f64 {
    SOLVE_NODES_AT_20 * SOLVE_GROWTH.powi(empties as i32 - 20)
}

/// A solve that does not fit in the move's own time (its deadline, with [`SOLVE_SAFETY`]) may
/// still start when it fits with this wider margin in the time a solve may stretch to
/// ([`crate::time::MoveBudget::solve`], on a game clock): the estimate is a median (the 90th
/// percentile of the 60 game positions at 20 empties was 4.4 times it) and a stopped solve
/// wastes what it used.
const STRETCH_SAFETY: f64 = 4.0;

/// Whether an exact solve with `empties` empty squares is expected to finish within what is
/// left of the search's deadline (or, with a wider margin, of the later deadline a solve may
/// stretch to) and node limit, its time estimated from the node rate of the iterations so
/// far. A node limit bounds work: a solver node counts as `1 / SOLVER_SPEED` of a midgame node
/// (what it costs), so a search limited by nodes spends its budget on the endgame as one
/// limited by time does. False when neither limit is set (a search to a depth solves only
/// where its limits say).
pub(crate) fn solve_fits(empties: u32, shared: &SearchShared) -> bool {
    if shared.deadline.is_none() && shared.node_limit.is_none() {
        return false;
    }
    let done = shared.nodes.load(Ordering::Relaxed);
    let estimate = estimated_solve_nodes(empties);
    if let Some(limit) = shared.node_limit {
        if estimate * SOLVE_SAFETY / SOLVER_SPEED > limit.saturating_sub(done) as f64 {
            return false;
        }
    }
    if let Some(deadline) = shared.deadline {
        let stretch = shared.solve_deadline.unwrap_or(deadline);
        if !solve_fits_in_time(estimate, done, shared.elapsed(), deadline, stretch) {
            return false;
        }
    }
    true
}

/// Whether a solve of `estimate` solver nodes, started `elapsed` into a move whose iterations
/// searched `done` nodes, fits before the move's `deadline` (with [`SOLVE_SAFETY`]) or before
/// the `stretch` a solve may run to (with [`STRETCH_SAFETY`]), at the node rate of those
/// iterations times [`SOLVER_SPEED`].
fn solve_fits_in_time(
    estimate: f64,
    done: u64,
    elapsed: Duration,
    deadline: Duration,
    stretch: Duration,
) -> bool {
    let rate = done as f64 / elapsed.max(Duration::from_millis(1)).as_secs_f64();
    let solver_nodes_until =
        |until: Duration| until.saturating_sub(elapsed).as_secs_f64() * rate * SOLVER_SPEED;
    estimate * SOLVE_SAFETY <= solver_nodes_until(deadline)
        || estimate * STRETCH_SAFETY <= solver_nodes_until(stretch)
}

/// The solver's node budget: what is left of the search's node limit, in solver nodes
/// (`SOLVER_SPEED` of them for one midgame node, see [`solve_fits`]).
fn solver_node_limit(shared: &SearchShared) -> Option<u64> {
    shared.node_limit.map(|n| {
        let left = n.saturating_sub(shared.nodes.load(Ordering::Relaxed));
        ((left as f64 * SOLVER_SPEED) as u64).max(1)
    })
}

/// The solver looks at its limits every 65,536 nodes per thread: a node budget smaller than
/// that would be overrun, so the hand-off is skipped and the selective result stands.
pub(crate) fn node_budget_allows(shared: &SearchShared) -> bool {
    solver_node_limit(shared).is_none_or(|n| n >= 1 << 16)
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
        // A solve, once started, may run to the stretched deadline: stopping it wastes it all.
        time_limit: shared
            .solve_deadline
            .or(shared.deadline)
            .map(|d| d.saturating_sub(shared.elapsed())),
        time_source: setup.time_source,
        node_limit: solver_node_limit(shared),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// 1 M midgame nodes in 1 s: the solver is expected to search 5 M nodes a second. An exact
    /// solve at 20 empties (2 M nodes estimated) needs 0.5 s before the deadline, or 1.6 s
    /// before the stretch.
    #[test]
    fn a_solve_starts_when_its_estimate_fits_the_move_or_its_stretch() {
        let s = Duration::from_secs_f64;
        let at_20 = estimated_solve_nodes(20);
        assert_eq!(at_20, 2.0e6);
        let fits = |deadline: f64, stretch: f64| {
            solve_fits_in_time(at_20, 1_000_000, s(1.0), s(deadline), s(stretch))
        };
        assert!(fits(1.5, 1.5), "0.5 s left before the deadline");
        assert!(!fits(1.49, 1.49), "just short, no stretch");
        assert!(!fits(1.49, 2.59), "the stretch needs the wider margin");
        assert!(fits(1.2, 2.7), "fits the stretch with its margin");
        assert!(!fits(0.5, 0.5), "the deadline has passed");
        // Each empty square more doubles the estimate.
        assert_eq!(estimated_solve_nodes(22), 8.0e6);
        assert!(!solve_fits_in_time(
            estimated_solve_nodes(22),
            1_000_000,
            s(1.0),
            s(2.5),
            s(3.0)
        ));
    }
}
