//! The solver's tree search: principal-variation search at PV nodes, null-window search with a
//! transposition table, enhanced transposition cutoffs and stability cutoffs elsewhere, and
//! parallel split points (young brothers wait) when several threads are available.
//!
//! Two tables: positions with up to `NEAR_TT_MAX` empties, the most numerous, go to a small
//! table of each thread's own that stays in its core's cache; the others to the large shared
//! one.
//! Up to `SHALLOW_MAX` empties the table-free code of [`super::last`] takes over.
//!
//! Scores are final WOF disc differences from the side to move's view (always even, -64..=64).
//! Every search is fail-soft: a result `v <= alpha` is an upper bound, `v >= beta` a lower bound.
//! An interrupted search returns garbage; callers check [`Searcher::aborted`] before using (or
//! storing) any result.

use super::last::{game_over_score, solve_small, NEG_INF};
use super::order::{fastest_first, MoveList};
use super::stability::stability_cutoff;
use crate::eval::Gen3Eval;
use crate::time::Stopwatch;
use crate::tt::{TranspositionTable, TtData, EXACT_SELECTIVITY};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use virada_rules::movegen::{flips, legal_moves};
use virada_rules::Board;

mod parallel;

pub(crate) use parallel::{with_pool, Pool};
use parallel::{SplitNode, SplitPoint, PV_SPLIT_MIN, SPLIT_MIN};

/// Up to this many empties the table-free code of [`super::last`] runs.
pub(crate) const SHALLOW_MAX: u32 = 5;
/// From this many empties, nodes probe and store the transposition table.
const TT_MIN: u32 = 7;
/// From this many empties, children are probed for enhanced transposition cutoffs.
const ETC_MIN: u32 = 10;
/// From this many empties, moves are ordered by a shallow evaluated search.
const DEEP_ORDER_MIN: u32 = 16;
/// The same for principal-variation nodes.
const PV_DEEP_ORDER_MIN: u32 = 10;
/// Nodes between two checks of the clock, node limit and stop flag.
const POLL_INTERVAL: u64 = 1 << 16;

/// State shared by every thread of one solve.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub eval: &'a Gen3Eval,
    /// Set when the solve must end (limit reached or stop requested).
    pub stop: AtomicBool,
    pub external_stop: Option<&'a AtomicBool>,
    /// The solve's clock, and the time on it at which the solve stops.
    pub clock: Stopwatch,
    pub deadline: Option<Duration>,
    pub node_limit: Option<u64>,
    /// Nodes flushed by all threads so far.
    pub nodes: AtomicU64,
    /// The threads' shared work (split points).
    pub pool: Pool,
}

/// Positions with up to this many empties go to a small table of the searching thread's own
/// (see [`Searcher::table`]); subtrees this small are nearly always searched by one thread
/// (split points start at [`SPLIT_MIN`] empties), so sharing their entries gains little.
/// Measured, one thread, interleaved runs, 1 MiB table: FFO #45-#52 up to 8 empties
/// 55.3 / 54.3 s, 1,282 M nodes; 9: 52.1 s, 1,296 M; 10: 50.8 / 49.0 / 48.9 s, 1,313 M;
/// 11: 49.0 s; 12: 48.8 s, 1,350 M. #53: 8: 42.7 s; 10: 39.6 s; 12: 38.3 / 39.3 s, 1,354 M
/// nodes (2 MiB: 38.3 s, 1,345 M); 14: 39.4 s, 1,402 M. #53-#54 with 2 threads, 8 -> 12:
/// 71.0 / 71.9 s -> 66.8 / 65.6 s (4.62 G -> 4.82 G nodes).
pub(crate) const NEAR_TT_MAX: u32 = 12;
/// Size of that table, in MiB (768 KiB of whole buckets: it stays in a core's 1 MiB L2 cache).
/// Before, one table of 8 MiB per solve, shared by its threads, held positions with up to 8
/// empties; the first step was 1 MiB per solve: FFO #45-#52 one thread 55.6 s -> 52.9 s
/// (+0.6% nodes), #53 46.6 s -> 43.9 s, and with 2 threads 23.2 s -> 22.5 s; then one table per
/// thread: #53 with 2 threads 24.0 s -> 23.3 s.
pub(crate) const NEAR_TT_MIB: usize = 1;

impl Shared<'_> {
    /// Checks the limits; sets `stop` when one is reached.
    fn poll(&self) {
        let over_nodes = self
            .node_limit
            .is_some_and(|l| self.nodes.load(Ordering::Relaxed) >= l);
        let over_time = self
            .deadline
            .is_some_and(|d| self.clock.elapsed(self.nodes.load(Ordering::Relaxed)) >= d);
        let external = self
            .external_stop
            .is_some_and(|s| s.load(Ordering::Relaxed));
        if over_nodes || over_time || external {
            self.stop.store(true, Ordering::Relaxed);
        }
    }
}

/// One thread's search.
pub(crate) struct Searcher<'a> {
    pub shared: &'a Shared<'a>,
    /// Nodes not yet flushed to `shared.nodes`.
    pub nodes: u64,
    next_poll: u64,
    /// Cut flags of the split points this thread works under.
    pub(super) chain: Vec<Arc<AtomicBool>>,
    /// The innermost split point this thread works at.
    pub(super) split_point: Option<Arc<SplitPoint>>,
    /// Table selectivity code of the current pass ([`EXACT_SELECTIVITY`] = a proof).
    pub sel: u8,
    /// Multi-ProbCut confidence of the current pass, in standard deviations (infinite = off).
    pub mpc_t: f32,
    /// This thread's table of positions with at most [`NEAR_TT_MAX`] empties.
    near_tt: TranspositionTable,
}

impl<'a> Searcher<'a> {
    pub fn new(shared: &'a Shared<'a>) -> Searcher<'a> {
        Searcher {
            shared,
            nodes: 0,
            next_poll: POLL_INTERVAL,
            chain: Vec::new(),
            split_point: None,
            sel: EXACT_SELECTIVITY,
            mpc_t: f32::INFINITY,
            near_tt: TranspositionTable::new(NEAR_TT_MIB),
        }
    }

    /// The table for positions with `n` empties. The many nodes near the leaves, whose entries
    /// are reused only within a small subtree (searched by one thread), go to a small table of
    /// the thread's own that stays in its core's caches; the large shared table keeps the rest,
    /// whose probes would otherwise wait on memory.
    #[inline]
    pub(crate) fn table(&self, n: u32) -> &TranspositionTable {
        if n <= NEAR_TT_MAX {
            &self.near_tt
        } else {
            self.shared.tt
        }
    }

    /// Moves this thread's node count into the shared total.
    pub fn flush_nodes(&mut self) {
        self.shared.nodes.fetch_add(self.nodes, Ordering::Relaxed);
        self.nodes = 0;
        self.next_poll = POLL_INTERVAL;
    }

    /// Whether the current search must be abandoned (its results are meaningless).
    #[inline]
    pub fn aborted(&self) -> bool {
        self.shared.stop.load(Ordering::Relaxed)
            || self.chain.iter().any(|c| c.load(Ordering::Relaxed))
    }

    #[inline]
    fn maybe_poll(&mut self) {
        if self.nodes >= self.next_poll {
            self.flush_nodes();
            self.shared.poll();
        }
    }

    /// Exact-score null-window search: is the score of (player, opponent) above `alpha`?
    pub fn nws(&mut self, player: u64, opponent: u64, alpha: i32) -> i32 {
        let n = (!(player | opponent)).count_ones();
        if n <= SHALLOW_MAX {
            return solve_small(player, opponent, alpha, &mut self.nodes);
        }
        if n < TT_MIN {
            return self.nws_plain(player, opponent, alpha, n);
        }
        self.nodes += 1;
        self.maybe_poll();
        if self.aborted() {
            return 0;
        }
        let depth = n as u8;
        let board = Board::new(player, opponent);

        // Stability cutoff: the opponent's stable discs cap our score.
        if let Some(cap) = stability_cutoff(player, opponent, alpha, n) {
            return cap;
        }

        let entry = self.table(n).probe_discs(&board);
        let mut hint = None;
        if let Some(e) = entry {
            if e.covers(depth, self.sel) {
                if e.lower > alpha {
                    return e.lower;
                }
                if e.upper <= alpha {
                    return e.upper;
                }
            }
            hint = e.best_move.map(|s| s.index() as u8);
        }

        if self.mpc_t.is_finite() && n >= MPC_MIN {
            if let Some(v) = self.probcut(player, opponent, alpha, n) {
                return v;
            }
        }

        let moves = legal_moves(player, opponent);
        if moves == 0 {
            if legal_moves(opponent, player) == 0 {
                return game_over_score(player, opponent);
            }
            return -self.nws(opponent, player, -alpha - 1);
        }
        let hint = hint.filter(|&h| moves & (1u64 << h) != 0);

        // Below the ETC depth nothing needs the other moves before the table's move is
        // searched, and that move usually cuts: search it before paying for the move list
        // (the flips of every move and the children's prefetches).
        let mut hint_done = None;
        if n < ETC_MIN {
            if let Some(h) = hint {
                let f = flips(player, opponent, usize::from(h));
                let v = -self.nws(opponent & !f, player | f | 1u64 << h, -alpha - 1);
                if self.aborted() {
                    return 0;
                }
                if v > alpha || moves & (moves - 1) == 0 {
                    self.store(&board, v, alpha, depth, Some(h));
                    return v;
                }
                hint_done = Some(v);
            }
        }

        let mut list = MoveList::empty();
        list.fill(player, opponent, moves);

        // The children probe the table (here for ETC, or first thing when searched): start
        // fetching their buckets now, so the memory latency overlaps the work until then.
        if n > TT_MIN {
            for item in list.as_slice() {
                let (cp, co) = item.child(player, opponent);
                self.table(n - 1).prefetch(&Board::new(cp, co));
            }
        }

        // Enhanced transposition cutoff: a child already known to be bad enough for the
        // opponent proves the fail-high without searching.
        if n >= ETC_MIN {
            for item in list.as_slice() {
                let (cp, co) = item.child(player, opponent);
                if let Some(e) = self.table(n - 1).probe_discs(&Board::new(cp, co)) {
                    if e.covers(depth - 1, self.sel) && -e.upper > alpha {
                        let v = -e.upper;
                        self.store(&board, v, alpha, depth, Some(item.sq));
                        return v;
                    }
                }
            }
        }

        let mut best = NEG_INF;
        let mut best_sq = list.as_slice()[0].sq;
        // The table's move first, before paying for the ordering of the others: it usually
        // cuts at once.
        if let (Some(h), Some(v)) = (hint, hint_done) {
            list.remove(h);
            best = v;
            best_sq = h;
        } else if let Some(h) = hint {
            let item = list.remove(h);
            let (cp, co) = item.child(player, opponent);
            let v = -self.nws(cp, co, -alpha - 1);
            if self.aborted() {
                return 0;
            }
            best = v;
            best_sq = h;
            if v > alpha || list.len == 0 {
                self.store(&board, best, alpha, depth, Some(best_sq));
                return best;
            }
        }
        let searched = usize::from(hint.is_some());

        self.order(&mut list, player, opponent, n, None, false, Some(alpha));

        let items = list.as_slice();
        for (i, item) in items.iter().enumerate() {
            // Young brothers wait: after the first move, share the rest with idle threads.
            if searched + i >= 1
                && n >= SPLIT_MIN
                && items.len() - i >= 2
                && self.shared.pool.has_idle()
            {
                let (v, sq) = self.split(SplitNode {
                    moves: &items[i..],
                    player,
                    opponent,
                    empties: n,
                    alpha,
                    beta: alpha + 1,
                    pv: false,
                    best,
                    best_sq,
                });
                if self.aborted() {
                    return 0;
                }
                best = v;
                best_sq = sq;
                break;
            }
            let (cp, co) = item.child(player, opponent);
            let v = -self.nws(cp, co, -alpha - 1);
            if self.aborted() {
                return 0;
            }
            if v > best {
                best = v;
                best_sq = item.sq;
                if v > alpha {
                    break;
                }
            }
        }
        self.store(&board, best, alpha, depth, Some(best_sq));
        best
    }

    /// Null-window search between the shallow code and the table (no table, fastest first).
    fn nws_plain(&mut self, player: u64, opponent: u64, alpha: i32, n: u32) -> i32 {
        self.nodes += 1;
        if let Some(cap) = stability_cutoff(player, opponent, alpha, n) {
            return cap;
        }
        let moves = legal_moves(player, opponent);
        if moves == 0 {
            if legal_moves(opponent, player) == 0 {
                return game_over_score(player, opponent);
            }
            return -self.nws(opponent, player, -alpha - 1);
        }
        let mut list = MoveList::empty();
        list.fill(player, opponent, moves);
        fastest_first(&mut list, player, opponent, None);
        let mut best = NEG_INF;
        for item in list.as_slice() {
            let (cp, co) = item.child(player, opponent);
            let v = -self.nws(cp, co, -alpha - 1);
            if v > best {
                best = v;
                if v > alpha {
                    break;
                }
            }
        }
        let _ = n;
        best
    }

    #[inline]
    fn store(&self, board: &Board, v: i32, alpha: i32, depth: u8, sq: Option<u8>) {
        self.store_window(board, v, alpha, alpha + 1, depth, sq);
    }

    #[inline]
    fn store_window(
        &self,
        board: &Board,
        v: i32,
        alpha: i32,
        beta: i32,
        depth: u8,
        sq: Option<u8>,
    ) {
        let best_move = sq.map(virada_rules::Square::from_index_unchecked);
        self.table(u32::from(depth)).store_discs(
            board,
            TtData::from_search(v, alpha, beta, depth, self.sel, best_move),
        );
    }

    /// Orders `list` for a node with `n` empties; `pv` nodes (few, and each one expensive)
    /// get a deeper ordering search. With the node's `alpha`, the ordering search of a move
    /// stops as soon as it shows the move at or below alpha (the move sorts late whatever its
    /// exact value), which saves most of the ordering work at nodes where every move fails low.
    /// Measured (1 thread, nodes and CPU time), at null-window nodes: FFO #45-#49 801 M -> 760 M
    /// nodes, 29.0 s -> 26.7 s; #50-#52 1,576 M -> 1,417 M, 63.6 s -> 54.9 s (a floor 2 or 4
    /// discs lower gave the same tree with more ordering work; 2 discs higher, more nodes); then
    /// at PV nodes too: #45-#52 1,794 M -> 1,784 M, 61.9 s -> 60.0 s; #53-#54 80.5 s -> 77.1 s.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn order(
        &mut self,
        list: &mut MoveList,
        player: u64,
        opponent: u64,
        n: u32,
        hint: Option<u8>,
        pv: bool,
        alpha: Option<i32>,
    ) {
        let deep_min = if pv {
            PV_DEEP_ORDER_MIN
        } else {
            DEEP_ORDER_MIN
        };
        if n < deep_min {
            fastest_first(list, player, opponent, hint);
            return;
        }
        let depth = shallow_depth(n) + u32::from(pv);
        let floor = alpha.map_or(-i32::MAX, |a| 100 * a);
        self.order_by_search(list, player, opponent, depth, hint, floor);
    }

    /// Full-window principal-variation search (exact score when it lands inside the window).
    pub fn pvs(&mut self, player: u64, opponent: u64, alpha: i32, beta: i32) -> i32 {
        if beta == alpha + 1 {
            return self.nws(player, opponent, alpha);
        }
        let n = (!(player | opponent)).count_ones();
        if n == 0 {
            self.nodes += 1;
            return game_over_score(player, opponent);
        }
        self.nodes += 1;
        self.maybe_poll();
        if self.aborted() {
            return 0;
        }
        let depth = n as u8;
        let board = Board::new(player, opponent);
        let mut alpha = alpha;
        let mut beta = beta;
        let mut hint = None;
        if let Some(e) = self.table(n).probe_discs(&board) {
            if e.covers(depth, self.sel) {
                if e.lower >= beta || e.lower == e.upper {
                    return e.lower;
                }
                if e.upper <= alpha {
                    return e.upper;
                }
                alpha = alpha.max(e.lower - 1);
                beta = beta.min(e.upper + 1);
            }
            hint = e.best_move.map(|s| s.index() as u8);
        }
        let moves = legal_moves(player, opponent);
        if moves == 0 {
            if legal_moves(opponent, player) == 0 {
                return game_over_score(player, opponent);
            }
            return -self.pvs(opponent, player, -beta, -alpha);
        }
        let mut list = MoveList::empty();
        list.fill(player, opponent, moves);
        let floor_alpha = (alpha > -64).then_some(alpha);
        self.order(&mut list, player, opponent, n, hint, true, floor_alpha);
        let window_alpha = alpha;
        let mut best = NEG_INF;
        let mut best_sq = list.as_slice()[0].sq;
        let items = list.as_slice();
        for (i, item) in items.iter().enumerate() {
            if i >= 1 && n >= PV_SPLIT_MIN && items.len() - i >= 2 && self.shared.pool.has_idle() {
                let (v, sq) = self.split(SplitNode {
                    moves: &items[i..],
                    player,
                    opponent,
                    empties: n,
                    alpha,
                    beta,
                    pv: true,
                    best,
                    best_sq,
                });
                if self.aborted() {
                    return 0;
                }
                best = v;
                best_sq = sq;
                break;
            }
            let (cp, co) = item.child(player, opponent);
            let v = if i == 0 {
                -self.pvs(cp, co, -beta, -alpha)
            } else {
                let mut v = -self.nws(cp, co, -alpha - 1);
                if v > alpha && v < beta && !self.aborted() {
                    v = -self.pvs(cp, co, -beta, -(v - 1).max(alpha));
                }
                v
            };
            if self.aborted() {
                return 0;
            }
            if v > best {
                best = v;
                best_sq = item.sq;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        self.store_window(&board, best, window_alpha, beta, depth, Some(best_sq));
        best
    }

    /// Multi-ProbCut: a shallow evaluated search predicting, with the pass's confidence, that
    /// the exact score is above `alpha` (returns `alpha + 1`) or at most `alpha` (returns
    /// `alpha`). Only in selective passes; their results are stored with a lower selectivity.
    fn probcut(&mut self, player: u64, opponent: u64, alpha: i32, n: u32) -> Option<i32> {
        let depth = mpc_depth(n);
        let margin = (self.mpc_t * MPC_SIGMA) as i32;
        let hi = 100 * (alpha + 1) + margin;
        if hi < 6400 && self.eval_search(player, opponent, depth, hi - 1, hi) >= hi {
            return Some(alpha + 1);
        }
        let lo = 100 * alpha - margin;
        if lo > -6400 && self.eval_search(player, opponent, depth, lo, lo + 1) <= lo {
            return Some(alpha);
        }
        None
    }
}

/// From this many empties, selective passes try Multi-ProbCut.
const MPC_MIN: u32 = 12;

/// Plies of the Multi-ProbCut search at a node with `n` empties: 2 plies at 12 empties up
/// to 6 at 26 (measured on FFO #45-#49: 910 M nodes, against 1,003 M with 2 plies less).
fn mpc_depth(n: u32) -> u32 {
    (n.saturating_sub(2) / 4).max(1)
}

/// Standard deviation (hundredths of a disc) assumed for the exact score around the
/// [`mpc_depth`] search value. Not fitted: chosen by the solver's total node count (400,
/// 500, 600 and 700 tried on FFO #40-#44 and #45-#49; 500 was best or near it).
const MPC_SIGMA: f32 = 500.0;

/// Plies of the ordering search at a node with `n` empties.
fn shallow_depth(n: u32) -> u32 {
    // Measured on FFO #26-#37: two plies more than 1-2-3-4 cut the tree by 25%. Once the
    // ordering searches stopped at alpha and replies weighed more, 2 plies at 16-19 empties
    // (not 3) took FFO #45-#52 from 1,922 M nodes, 68.8 s to 1,794 M, 62.1 s (1 thread) and #56
    // from 1,094 M to 901 M (2 threads); 1 ply, or one less at 20-23 or 24-27 or 28+, or one
    // more at 28+, was no better.
    match n {
        0..=19 => 2,
        20..=23 => 4,
        24..=27 => 5,
        _ => 6,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tt::TtData;
    use virada_rules::Square;

    fn xorshift(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    /// Exact score by plain alpha-beta without ordering or table (fail-hard).
    fn reference(p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
        let moves = legal_moves(p, o);
        if moves == 0 {
            if legal_moves(o, p) == 0 {
                return game_over_score(p, o);
            }
            return -reference(o, p, -beta, -alpha);
        }
        let mut alpha = alpha;
        let mut m = moves;
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            let f = flips(p, o, sq);
            let v = -reference(o & !f, p | f | 1 << sq, -beta, -alpha);
            if v >= beta {
                return beta;
            }
            alpha = alpha.max(v);
        }
        alpha
    }

    /// A position with `empties` empty squares reached by random play from the start, with the
    /// side to move able to move.
    fn random_position(s: &mut u64, empties: u32) -> Board {
        loop {
            let mut b = Board::start();
            while !b.is_game_over() && b.empty_count() > empties {
                let m = b.moves();
                if m == 0 {
                    b = b.pass();
                    continue;
                }
                let mut pick = m;
                for _ in 0..xorshift(s) % u64::from(m.count_ones()) {
                    pick &= pick - 1;
                }
                b = b.play_unchecked(Square::lowest_of(pick));
            }
            if b.empty_count() == empties && b.moves() != 0 {
                return b;
            }
        }
    }

    /// Stores a move-only entry (a depth-limited midgame result: the solver takes only its
    /// move) with a random legal move for `b` and, recursively, its descendants `plies` deep.
    fn plant_hints(tt: &TranspositionTable, s: &mut u64, b: Board, plies: u32) {
        let moves = legal_moves(b.player, b.opponent);
        if moves == 0 {
            return;
        }
        let mut pick = moves;
        for _ in 0..xorshift(s) % u64::from(moves.count_ones()) {
            pick &= pick - 1;
        }
        let hint = Square::from_index_unchecked(pick.trailing_zeros() as u8);
        tt.store(
            &b,
            TtData::from_search(0, -1, 1, 1, EXACT_SELECTIVITY, Some(hint)),
        );
        if plies == 0 {
            return;
        }
        let mut m = moves;
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            let f = flips(b.player, b.opponent, sq);
            let child = Board::new(b.opponent & !f, b.player | f | 1 << sq);
            plant_hints(tt, s, child, plies - 1);
        }
    }

    /// The table's move is searched before the move list exists below the ETC depth: with a
    /// table full of arbitrary move hints (good and bad ones), every null-window answer is
    /// still a correct fail-soft bound of the exact score.
    #[test]
    fn arbitrary_table_moves_leave_null_window_results_exact() {
        let eval = crate::eval::default_evaluator();
        let tt = TranspositionTable::new(1);
        let shared = Shared {
            tt: &tt,
            eval: &eval,
            stop: AtomicBool::new(false),
            external_stop: None,
            clock: Stopwatch::start(crate::time::TimeSource::System),
            deadline: None,
            node_limit: None,
            nodes: AtomicU64::new(0),
            pool: Pool::new(1),
        };
        let mut rng = 0x0DDB_1A5E_5BAD_5EEDu64;
        let mut hinted_cuts = 0;
        for i in 0..24 {
            let empties = 7 + i % 4;
            let b = random_position(&mut rng, empties);
            let exact = reference(b.player, b.opponent, -65, 65);
            for alpha in [exact - 3, exact - 2, exact - 1, exact, exact + 1] {
                let mut s = Searcher::new(&shared);
                plant_hints(&s.near_tt, &mut rng, b, 3);
                let before = s.nodes;
                let v = s.nws(b.player, b.opponent, alpha);
                if v > alpha {
                    assert!(exact >= v, "{b:?} alpha {alpha}: {v} > exact {exact}");
                } else {
                    assert!(exact <= v, "{b:?} alpha {alpha}: {v} < exact {exact}");
                }
                // Without hints the same answer (fail-soft values may differ; the side of
                // alpha may not).
                let mut plain = Searcher::new(&shared);
                let w = plain.nws(b.player, b.opponent, alpha);
                assert_eq!(v > alpha, w > alpha, "{b:?} alpha {alpha}");
                if s.nodes - before < plain.nodes {
                    hinted_cuts += 1;
                }
            }
        }
        // Some hints are good moves that save work (the path is really exercised).
        assert!(hinted_cuts > 0);
    }
}
