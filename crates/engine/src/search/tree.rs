//! The principal variation search below the root: alpha-beta with null windows, the shared
//! transposition table, move ordering and Multi-ProbCut.
//!
//! The tree search keeps the evaluation's pattern indices incrementally ([`IncrementalEval`]):
//! each node derives its state from its parent's and the move played (copy-make), so leaves do
//! not extract the pattern indices from scratch. A node receives its parent's state and the
//! move ([`Pending`]) and applies the move only when it needs the state: nodes cut by the
//! transposition table never pay for it, and a leaf only computes the view it evaluates.

use super::order::{mobility_key, ordering_depth, MoveList};
use super::probcut_log::{CutSide, ProbcutLog};
use super::selectivity::Selectivity;
use super::setup::SearchSetup;
use super::Limits;
use crate::eval::incremental::IncrementalEval;
use crate::eval::mpc::{self, MpcModel};
use crate::eval::{final_value, Gen3Eval};
use crate::time::{MoveBudget, Stopwatch};
use crate::tt::{TranspositionTable, TtData, EXACT_SELECTIVITY};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use virada_rules::movegen::legal_moves;
use virada_rules::{Board, Square};

/// A bound above every score (evaluations and exact values are within ±6400).
pub const INF: i32 = 6500;

pub(crate) use crate::tt::DEPTH_TO_END;

/// How often (in nodes) a worker looks at the stop flags and the clock.
const POLL_INTERVAL: u64 = 1024;

/// Nodes at least this deep look up every child in the table before searching any
/// ([`Worker::enhanced_cutoff`]). Measured on `bench search --depth 14 --sample 200`: from 5,
/// 2.3% fewer nodes and 4% less time; from 3, 4 or 7 about the same; shallower nodes are too
/// cheap to repay the lookups.
const ETC_MIN_DEPTH: i32 = 5;

/// Multi-ProbCut tries a probe (a shallow null-window search) only when the node's static
/// evaluation lies at most this far (4 discs) on the wrong side of the probe's threshold.
/// Measured on `bench depths --depth 16` (diag50, 73%): 0 (no slack) 526,004 nodes a position
/// at depth 16, 2 discs 403,957, 3 discs 399,486, 4 discs 377,603, 5 discs 386,761, 8 discs
/// 414,801, no precheck 421,886; then a node-limited match against NTest (docs/STRENGTH.md).
const PROBE_EVAL_SLACK: i32 = 4 * crate::eval::SCALE;

/// What all threads of one search share.
pub struct SearchShared<'a> {
    pub tt: &'a TranspositionTable,
    pub eval: &'a Gen3Eval,
    /// Set by the caller (user stop) or by the search itself (time, nodes, main thread done).
    pub stop: &'a AtomicBool,
    /// The caller's stop flag, if any.
    pub user_stop: Option<&'a AtomicBool>,
    /// The search's clock.
    pub clock: Stopwatch,
    /// Stop when the clock reaches this.
    pub deadline: Option<Duration>,
    /// An exact solve at the root may run until this (at least `deadline`; later on a game
    /// clock, [`crate::time::MoveBudget::solve`]).
    pub solve_deadline: Option<Duration>,
    /// Stop after this many nodes (all threads together).
    pub node_limit: Option<u64>,
    /// Nodes of all threads (updated every [`POLL_INTERVAL`] nodes).
    pub nodes: &'a AtomicU64,
    /// Where Multi-ProbCut's decisions are recorded, if anywhere (a measurement).
    pub probcut_log: Option<&'a ProbcutLog>,
}

impl<'a> SearchShared<'a> {
    /// The state every thread of one search from the root shares: `setup`'s table and
    /// evaluation, the search's own `stop` flag and the caller's, the deadline of `budget` and
    /// the node limit of `limits`.
    pub fn for_root(
        setup: &SearchSetup<'a>,
        limits: &Limits,
        budget: Option<&MoveBudget>,
        clock: Stopwatch,
        stop: &'a AtomicBool,
        user_stop: Option<&'a Arc<AtomicBool>>,
        nodes: &'a AtomicU64,
    ) -> SearchShared<'a> {
        SearchShared {
            tt: setup.tt,
            eval: setup.eval,
            stop,
            user_stop: user_stop.map(|s| &**s),
            clock,
            deadline: budget.map(|b| b.hard),
            solve_deadline: budget.map(|b| b.solve.max(b.hard)),
            node_limit: limits.nodes,
            nodes,
            probcut_log: setup.probcut_log,
        }
    }
}

impl SearchShared<'_> {
    /// Whether the search must stop now; sets the internal stop flag when a limit is hit.
    pub fn must_stop(&self) -> bool {
        if self.stop.load(Ordering::Relaxed) {
            return true;
        }
        let hit = self.user_stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| self.elapsed() >= d)
            || self
                .node_limit
                .is_some_and(|n| self.nodes.load(Ordering::Relaxed) >= n);
        if hit {
            self.stop.store(true, Ordering::Relaxed);
        }
        hit
    }

    /// Time since the search started (nodes flushed so far, for simulated time).
    pub fn elapsed(&self) -> Duration {
        self.clock.elapsed(self.nodes.load(Ordering::Relaxed))
    }
}

/// The evaluation state of a node not computed yet: a state and the move (square, flips) to
/// apply to it, if any.
#[derive(Clone, Copy)]
struct Pending<'s, S> {
    base: &'s S,
    mv: Option<(Square, u64)>,
}

impl<'s, S: Copy> Pending<'s, S> {
    /// A node whose state is `state`.
    #[inline]
    fn ready(state: &'s S) -> Self {
        Pending {
            base: state,
            mv: None,
        }
    }

    /// The child of the node whose state is `state`, reached by `sq` flipping `flips`.
    #[inline]
    fn after(state: &'s S, sq: u8, flips: u64) -> Self {
        Pending {
            base: state,
            mv: Some((Square::from_index_unchecked(sq), flips)),
        }
    }

    /// The node's state.
    #[inline(always)]
    fn resolve<E: IncrementalEval<State = S> + ?Sized>(self, ev: &E) -> S {
        match self.mv {
            Some((sq, flips)) => ev.play(self.base, sq, flips),
            None => *self.base,
        }
    }
}

/// One search thread's state.
pub struct Worker<'a> {
    pub shared: &'a SearchShared<'a>,
    /// Nodes not yet added to the shared counter.
    pending_nodes: u64,
    /// Nodes searched by this worker.
    pub nodes: u64,
    /// The search was interrupted: values computed since are meaningless.
    pub aborted: bool,
    /// Whether interruptions are honoured (off for the first iteration, which must finish).
    pub interruptible: bool,
    pub selectivity: Selectivity,
    /// The evaluation's Multi-ProbCut model.
    mpc: &'a MpcModel,
    /// Some value since the last reset rests on a heuristic (an evaluation, a selective cut
    /// or a table entry that is not a proof). When false after a search, its value is exact.
    pub heuristic: bool,
}

impl<'a> Worker<'a> {
    /// A worker with the given selectivity.
    pub fn new(shared: &'a SearchShared<'a>, selectivity: Selectivity) -> Worker<'a> {
        Worker {
            shared,
            pending_nodes: 0,
            nodes: 0,
            aborted: false,
            interruptible: false,
            selectivity,
            mpc: shared.eval.mpc(),
            heuristic: false,
        }
    }

    /// Adds the pending node count to the shared counter.
    pub fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.pending_nodes, Ordering::Relaxed);
        self.pending_nodes = 0;
    }

    #[inline]
    fn count_node(&mut self) -> bool {
        self.nodes += 1;
        self.pending_nodes += 1;
        if self.pending_nodes >= POLL_INTERVAL {
            self.flush_nodes();
            if self.interruptible && self.shared.must_stop() {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// The TT depth code of a search of `depth` plies with `empties` empty squares.
    #[inline]
    fn depth_code(depth: i32, empties: u32) -> u8 {
        if depth >= empties as i32 {
            DEPTH_TO_END
        } else {
            depth.clamp(0, DEPTH_TO_END as i32 - 1) as u8
        }
    }

    /// The value of `board` searched `depth` plies deep, within the window `(alpha, beta)`
    /// (fail-soft). A pass does not use a ply; finished games score exactly.
    pub fn pvs(&mut self, board: &Board, alpha: i32, beta: i32, depth: i32) -> i32 {
        let eval = self.shared.eval;
        let state = eval.state(board);
        self.node(eval, board, Pending::ready(&state), alpha, beta, depth)
    }

    /// [`Worker::pvs`] with the evaluation `ev` and the (pending) state of `board`.
    fn node<E: IncrementalEval + ?Sized>(
        &mut self,
        ev: &E,
        board: &Board,
        pending: Pending<'_, E::State>,
        mut alpha: i32,
        beta: i32,
        depth: i32,
    ) -> i32 {
        if self.count_node() {
            return 0;
        }
        let moves = board.moves();
        if moves == 0 {
            if legal_moves(board.opponent, board.player) == 0 {
                return final_value(board);
            }
            let passed = ev.pass(&pending.resolve(ev));
            return -self.node(
                ev,
                &board.pass(),
                Pending::ready(&passed),
                -beta,
                -alpha,
                depth,
            );
        }
        if depth <= 0 {
            self.heuristic = true;
            // A leaf needs only the side to move's view: no whole state is built for it.
            return ev.evaluate_leaf(board, pending.base, pending.mv, moves);
        }

        let empties = board.empty_count();
        let depth_code = Self::depth_code(depth, empties);
        let sel_code = self.selectivity.tt_code();
        let mut tt_move = None;
        if let Some(hit) = self.shared.tt.probe(board) {
            if hit.covers(depth_code, sel_code)
                && (hit.lower >= beta || hit.upper <= alpha || hit.lower == hit.upper)
            {
                if !(hit.depth == DEPTH_TO_END && hit.selectivity == EXACT_SELECTIVITY) {
                    self.heuristic = true;
                }
                return if hit.lower >= beta || hit.lower == hit.upper {
                    hit.lower
                } else {
                    hit.upper
                };
            }
            tt_move = hit.best_move;
        }

        let state = &pending.resolve(ev);
        if depth >= self.mpc.min_depth() && !self.selectivity.is_exact() && depth < empties as i32 {
            let before = self.heuristic;
            let cut = self.probcut(ev, board, state, alpha, beta, depth, empties);
            if let Some(log) = self.shared.probcut_log {
                if !self.aborted && self.mpc.line(depth, empties).is_some() {
                    let side = cut.map(|v| {
                        if v >= beta {
                            CutSide::High
                        } else {
                            CutSide::Low
                        }
                    });
                    log.record(board, alpha, beta, depth, side);
                }
            }
            if let Some(v) = cut {
                self.heuristic = true;
                return v;
            }
            // A failed probe only spent nodes: it does not make this node's value heuristic.
            self.heuristic = before;
        }

        let mut list = MoveList::new(board, moves);
        if depth >= ETC_MIN_DEPTH {
            if let Some(v) = self.enhanced_cutoff(board, &list, beta, depth, empties, sel_code) {
                return v;
            }
        }
        // The hash move goes first and the others are ranked only if it does not cut: at a
        // node the table already knows, the hash move usually refutes it, and ranking the
        // others (a move generation each, and a shallow search each at depth 4 and more) would
        // be spent for nothing.
        let mut rank_later =
            list.len() >= 2 && tt_move.is_some_and(|sq| list.bring_to_front(sq.index() as u8));
        if !rank_later {
            self.order(ev, board, state, &mut list, 0, depth);
        }

        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = None;
        for i in 0..list.len() {
            if rank_later && i == 1 {
                self.order(ev, board, state, &mut list, 1, depth);
                rank_later = false;
            }
            let c = list.as_slice()[i];
            let child = c.child(board);
            let cs = Pending::after(state, c.square, c.flips);
            let v = if i == 0 {
                -self.node(ev, &child, cs, -beta, -alpha, depth - 1)
            } else {
                let mut v = -self.node(ev, &child, cs, -alpha - 1, -alpha, depth - 1);
                if v > alpha && v < beta && !self.aborted {
                    v = -self.node(ev, &child, cs, -beta, -alpha, depth - 1);
                }
                v
            };
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(Square::from_index_unchecked(c.square));
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        self.shared.tt.store(
            board,
            TtData::from_search(best, alpha0, beta, depth_code, sel_code, best_move),
        );
        best
    }

    /// Enhanced transposition cutoff: if the table already proves that some child refutes
    /// this node (a child's upper bound, from a search at least as deep and as safe as this
    /// node's children need, at or below `-beta`), returns that fail-high value and stores it,
    /// without searching anything. It catches cutoffs that transpositions make available
    /// before the move ordering finds them.
    fn enhanced_cutoff(
        &mut self,
        board: &Board,
        list: &MoveList,
        beta: i32,
        depth: i32,
        empties: u32,
        sel_code: u8,
    ) -> Option<i32> {
        let child_code = Self::depth_code(depth - 1, empties - 1);
        for c in list.as_slice() {
            let Some(hit) = self.shared.tt.probe(&c.child(board)) else {
                continue;
            };
            if hit.covers(child_code, sel_code) && -hit.upper >= beta {
                let value = -hit.upper;
                if !(hit.depth == DEPTH_TO_END && hit.selectivity == EXACT_SELECTIVITY) {
                    self.heuristic = true;
                }
                let code = Self::depth_code(depth, empties);
                let best = Some(Square::from_index_unchecked(c.square));
                self.shared.tt.store(
                    board,
                    TtData::from_search(value, value - 1, beta, code, sel_code, best),
                );
                return Some(value);
            }
        }
        None
    }

    /// Orders the moves of `list` from position `start` on (those before it stay first) by
    /// shallow value and mobility.
    fn order<E: IncrementalEval + ?Sized>(
        &mut self,
        ev: &E,
        board: &Board,
        state: &E::State,
        list: &mut MoveList,
        start: usize,
        depth: i32,
    ) {
        if list.len() < start + 2 {
            return;
        }
        let shallow = ordering_depth(depth);
        let before = self.heuristic;
        for i in start..list.len() {
            let c = list.as_slice()[i];
            let child = c.child(board);
            let mut key = mobility_key(&child, c.square);
            if let Some(d) = shallow {
                // Selectivity stays as configured: ordering searches are hints only.
                let cs = Pending::after(state, c.square, c.flips);
                key += -self.node(ev, &child, cs, -INF, INF, d) * 2;
            }
            list.as_mut_slice()[i].key = key;
        }
        list.sort_from(start);
        // Ordering searches only rank moves: they do not make the node's value heuristic.
        self.heuristic = before;
    }

    /// Multi-ProbCut: if a shallow search says the deep value is outside `(alpha, beta)` with
    /// the configured confidence, returns the bound to fail with.
    #[allow(clippy::too_many_arguments)]
    fn probcut<E: IncrementalEval + ?Sized>(
        &mut self,
        ev: &E,
        board: &Board,
        state: &E::State,
        alpha: i32,
        beta: i32,
        depth: i32,
        empties: u32,
    ) -> Option<i32> {
        let p = self.mpc.line(depth, empties)?;
        let shallow = mpc::shallow_depth(depth);
        let margin = self.selectivity.t() * p.sigma;
        // deep ≈ a * shallow + b: deep >= beta is likely when shallow >= (beta + margin - b) / a.
        let high = ((beta as f32 + margin - p.b) / p.a).ceil() as i32;
        let low = ((alpha as f32 - margin - p.b) / p.a).floor() as i32;
        if shallow == 0 {
            // The shallow search is the static evaluation: one value answers both tests.
            let v = self.node(ev, board, Pending::ready(state), low, high, 0);
            return if v >= high {
                Some(beta)
            } else if v <= low {
                Some(alpha)
            } else {
                None
            };
        }
        // A probe's shallow search runs only when the node's static evaluation is within
        // PROBE_EVAL_SLACK of its threshold: most probes far from it fail (a low probe cuts
        // about once in a hundred tries), and the shallow search they cost buys nothing.
        let eval0 = ev.evaluate_with(board, state);
        if high < INF - 1 && eval0 >= high - PROBE_EVAL_SLACK {
            let v = self.node(ev, board, Pending::ready(state), high - 1, high, shallow);
            if self.aborted {
                return Some(0);
            }
            if v >= high {
                return Some(beta);
            }
        }
        if low > -INF + 1 && eval0 <= low + PROBE_EVAL_SLACK {
            let v = self.node(ev, board, Pending::ready(state), low, low + 1, shallow);
            if self.aborted {
                return Some(0);
            }
            if v <= low {
                return Some(alpha);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::gen3::weights::Gen3Weights;
    use crate::time::TimeSource;
    use crate::tt::VALUE_MIN;

    /// A midgame position (after f5 d6 c3 d3 c4) and its last legal move's child.
    fn position() -> (Board, Square, Board) {
        let mut board = Board::start();
        for m in ["f5", "d6", "c3", "d3", "c4"] {
            board = board.play_unchecked(m.parse().unwrap());
        }
        let list = MoveList::new(&board, board.moves());
        let last = list.as_slice()[list.len() - 1];
        (
            board,
            Square::from_index_unchecked(last.square),
            last.child(&board),
        )
    }

    /// Searches `board` at depth `ETC_MIN_DEPTH` without selectivity (so no Multi-ProbCut
    /// probe runs first) in the window (100, 200), after storing `child_entry` for `child`.
    /// Returns the value, the nodes searched, the table's entry for the position and the
    /// child's move.
    fn search_with(child_entry: TtData) -> (i32, u64, Option<TtData>, Square) {
        let (board, last, child) = position();
        let tt = TranspositionTable::new(1);
        tt.store(&child, child_entry);
        // A flat evaluation: the test is about the table, not the values.
        let eval = Gen3Eval::new(Gen3Weights::zeros("flat", 100));
        let (stop, nodes) = (AtomicBool::new(false), AtomicU64::new(0));
        let shared = SearchShared {
            tt: &tt,
            eval: &eval,
            stop: &stop,
            user_stop: None,
            clock: Stopwatch::start(TimeSource::System),
            deadline: None,
            solve_deadline: None,
            node_limit: None,
            nodes: &nodes,
            probcut_log: None,
        };
        let mut worker = Worker::new(&shared, Selectivity::EXACT);
        let v = worker.pvs(&board, 100, 200, ETC_MIN_DEPTH);
        (v, worker.nodes, tt.probe(&board), last)
    }

    fn upper_bound(upper: i32, depth: i32) -> TtData {
        TtData {
            lower: VALUE_MIN,
            upper,
            depth: depth as u8,
            selectivity: EXACT_SELECTIVITY,
            best_move: None,
        }
    }

    #[test]
    fn a_child_refuted_in_the_table_cuts_the_node_before_any_search() {
        let (v, nodes, entry, last) = search_with(upper_bound(-300, ETC_MIN_DEPTH - 1));
        assert_eq!((v, nodes), (300, 1));
        let entry = entry.expect("the cutoff is stored");
        assert_eq!((entry.lower, entry.best_move), (300, Some(last)));
        assert_eq!(entry.depth, ETC_MIN_DEPTH as u8);
    }

    #[test]
    fn a_shallower_or_insufficient_child_bound_does_not_cut() {
        // Searched one ply too shallow for the child: not a proof at this depth.
        let (_, nodes, ..) = search_with(upper_bound(-300, ETC_MIN_DEPTH - 2));
        assert!(nodes > 1, "{nodes}");
        // Deep enough, but the child's bound (at most -150) only proves this node at least
        // 150, inside the window: the node must be searched.
        let (_, nodes, ..) = search_with(upper_bound(-150, ETC_MIN_DEPTH - 1));
        assert!(nodes > 1, "{nodes}");
    }
}
