//! The root of the search: iterative deepening, aspiration windows, threads, limits and the
//! hand-off to the exact search.

use super::handoff;
use super::order::{Candidate, MoveList};
use super::selectivity::Selectivity;
use super::setup::SearchSetup;
use super::tree::{SearchShared, Worker, DEPTH_TO_END, INF};
use super::{Iteration, Limits, Observer, SearchResult, DEFAULT_DEPTH, DEFAULT_EXACT_EMPTIES};
use crate::eval::SCALE;
use crate::time::{self, MoveBudget, Stopwatch};
use crate::tt::{TranspositionTable, TtData};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use virada_rules::{Board, Move, Square};

/// One step of iterative deepening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    pub depth: i32,
    pub selectivity: Selectivity,
}

/// The iterations a search will run for `board` with the midgame selectivity `sel`,
/// shallowest first.
pub(crate) fn schedule(empties: u32, limits: &Limits, sel: Selectivity) -> Vec<Step> {
    let e = empties as i32;
    let exact_empties = limits.exact_empties.unwrap_or(DEFAULT_EXACT_EMPTIES) as i32;
    let open_ended = limits.time.is_some() || limits.clock.is_some() || limits.nodes.is_some();
    let max_depth = match limits.depth {
        Some(d) => d as i32,
        None if open_ended => 60,
        None => DEFAULT_DEPTH as i32,
    };
    // Solve when few empties are left, or when the caller asked for a depth reaching the end.
    // An open-ended search (time, clock or nodes, no depth) deepens selectively instead: going
    // straight to an exact solve of a midgame position would spend its whole budget on a proof
    // it cannot finish.
    let depth_reaches_end = limits.depth.is_some_and(|d| d as i32 >= e);
    let mut steps = Vec::new();
    if e <= exact_empties || depth_reaches_end || (max_depth >= e && !open_ended) {
        // Solve: a few selective iterations fill the table with good move ordering, then the
        // exact search to the end.
        let pre = (e / 2).clamp(1, 12).min(e - 1);
        for d in 1..=pre {
            steps.push(Step {
                depth: d,
                selectivity: sel.min(Selectivity::DEFAULT),
            });
        }
        steps.push(Step {
            depth: e,
            selectivity: Selectivity::EXACT,
        });
    } else {
        for d in 1..=max_depth.min(e).max(1) {
            steps.push(Step {
                depth: d,
                selectivity: sel,
            });
        }
    }
    steps
}

/// The time budget of one move under `limits` with `empties` empty squares: a fixed time wins
/// over a game clock; `None` when neither is set.
pub(crate) fn move_budget(limits: &Limits, empties: u32) -> Option<MoveBudget> {
    match (limits.time, &limits.clock) {
        (Some(t), _) => Some(match limits.last_iteration_start {
            Some(share) => time::fixed_with_last_start(t, share),
            None => time::fixed(t),
        }),
        (None, Some(c)) => Some(time::budget(c, empties)),
        (None, None) => None,
    }
}

/// Whether an iteration that finished `elapsed` into a move with `budget` leaves time for a
/// deeper one ([`MoveBudget::last_start`]).
pub(crate) fn time_for_another_iteration(budget: Option<MoveBudget>, elapsed: Duration) -> bool {
    budget.is_none_or(|b| elapsed < b.last_start)
}

/// A root move of a search or an analysis and its latest value.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RootMove {
    pub cand: Candidate,
    /// Latest value (evaluation units, side to move's view); meaningful once `searched`.
    pub value: i32,
    /// Depth of the iteration that gave `value`.
    pub depth: i32,
    /// `value` is proven.
    pub exact: bool,
    pub searched: bool,
}

/// The legal moves of `board`, in the search's move order.
pub(crate) fn root_moves(board: &Board) -> Vec<RootMove> {
    let list = MoveList::new(board, board.moves());
    list.as_slice()
        .iter()
        .map(|&cand| RootMove {
            cand,
            value: 0,
            depth: 0,
            exact: false,
            searched: false,
        })
        .collect()
}

/// The aspiration loop shared by the search (one window for the whole root) and the analysis
/// (one window per root move): `search(alpha, beta)` runs with a window of 2 discs around
/// `prev` (the full window without one), widened on the failing side and doubled until the
/// value falls inside. `None` as soon as `search` is interrupted (returns `None`).
pub(crate) fn aspiration_loop<T>(
    prev: Option<i32>,
    value_of: impl Fn(&T) -> i32,
    mut search: impl FnMut(i32, i32) -> Option<T>,
) -> Option<T> {
    let mut delta = 2 * SCALE;
    let (mut alpha, mut beta) = match prev {
        Some(v) => ((v - delta).max(-INF), (v + delta).min(INF)),
        None => (-INF, INF),
    };
    loop {
        let r = search(alpha, beta)?;
        let v = value_of(&r);
        if v <= alpha && alpha > -INF {
            alpha = (v - delta).max(-INF);
        } else if v >= beta && beta < INF {
            beta = (v + delta).min(INF);
        } else {
            return Some(r);
        }
        delta *= 2;
    }
}

/// Searches `board` within `limits`. `stop`, when set by another thread, ends the search at
/// once with the best move found so far. The first iteration always completes, so a move is
/// always returned. `observer` sees every completed iteration (and the solver's result when
/// the search ends with an exact solve).
pub fn search(
    board: Board,
    limits: &Limits,
    setup: &SearchSetup,
    stop: Option<&Arc<AtomicBool>>,
    observer: &mut dyn Observer,
) -> SearchResult {
    let clock = Stopwatch::start(setup.time_source);
    let moves = board.moves();
    if moves == 0 {
        return search_pass(board, limits, setup, stop, clock, observer);
    }
    setup.tt.new_search();
    let empties = board.empty_count();
    let budget = move_budget(limits, empties);
    let mut steps = schedule(empties, limits, limits.search_selectivity());
    if moves.count_ones() == 1 && limits.clock.is_some() {
        // A forced move in a timed game: save the clock, search just enough for a score.
        steps.truncate(2);
    }

    let internal_stop = AtomicBool::new(false);
    let nodes = AtomicU64::new(0);
    let shared = SearchShared::for_root(
        setup,
        limits,
        budget.as_ref(),
        clock,
        &internal_stop,
        stop,
        &nodes,
    );

    let outcome = std::thread::scope(|scope| {
        for id in 1..setup.threads.max(1) {
            let shared = &shared;
            let steps = &steps;
            scope.spawn(move || helper_thread(shared, board, steps, id));
        }
        let outcome = main_thread(
            &shared, limits, setup, stop, board, &steps, budget, observer,
        );
        internal_stop.store(true, Ordering::Relaxed);
        outcome
    });

    let pv = outcome.pv(setup.tt, &board);
    SearchResult {
        best_move: Move::Play(outcome.best),
        score: outcome.value as f32 / SCALE as f32,
        depth: outcome.depth as u32,
        selectivity: outcome.selectivity.percent(),
        exact: outcome.proven,
        pv,
        nodes: nodes.load(Ordering::Relaxed),
        elapsed: shared.elapsed(),
    }
}

/// The side to move must pass (or the game is over).
fn search_pass(
    board: Board,
    limits: &Limits,
    setup: &SearchSetup,
    stop: Option<&Arc<AtomicBool>>,
    clock: Stopwatch,
    observer: &mut dyn Observer,
) -> SearchResult {
    let other = board.pass();
    if other.moves() == 0 {
        return SearchResult {
            best_move: Move::Pass,
            score: board.final_score() as f32,
            depth: 0,
            selectivity: 100,
            exact: true,
            pv: Vec::new(),
            nodes: 1,
            elapsed: clock.elapsed(1),
        };
    }
    // The observer sees the pass, then the other side's line, from this side's view.
    let mut passed = |it: &Iteration| {
        let mut pv = vec![Move::Pass];
        pv.extend(&it.pv);
        observer.iteration(&Iteration {
            best_move: Move::Pass,
            value: -it.value,
            pv,
            ..it.clone()
        })
    };
    let sub = search(other, limits, setup, stop, &mut passed);
    let mut pv = vec![Move::Pass];
    pv.extend(sub.pv);
    SearchResult {
        best_move: Move::Pass,
        score: -sub.score,
        pv,
        elapsed: clock.elapsed(sub.nodes),
        ..sub
    }
}

/// The result of the main thread's iterations.
struct Outcome {
    best: Square,
    value: i32,
    depth: i32,
    selectivity: Selectivity,
    proven: bool,
    /// The principal variation when it does not come from the table (the solver's).
    pv: Option<Vec<Move>>,
}

impl Outcome {
    /// The principal variation: the solver's, or the best move and the table's line after it.
    fn pv(&self, tt: &TranspositionTable, board: &Board) -> Vec<Move> {
        match &self.pv {
            Some(pv) => pv.clone(),
            None => {
                let mut pv = vec![Move::Play(self.best)];
                pv.extend(pv_from_tt(
                    tt,
                    board.play_unchecked(self.best),
                    self.depth.max(1) as usize - 1,
                ));
                pv
            }
        }
    }

    /// What an observer is told about this outcome.
    fn iteration(
        &self,
        tt: &TranspositionTable,
        board: &Board,
        nodes: u64,
        elapsed: Duration,
    ) -> Iteration {
        Iteration {
            depth: self.depth as u32,
            selectivity: self.selectivity.percent(),
            value: self.value as f32 / SCALE as f32,
            exact: self.proven,
            best_move: Move::Play(self.best),
            pv: self.pv(tt, board),
            nodes,
            elapsed,
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn main_thread(
    shared: &SearchShared,
    limits: &Limits,
    setup: &SearchSetup,
    stop: Option<&Arc<AtomicBool>>,
    board: Board,
    steps: &[Step],
    budget: Option<MoveBudget>,
    observer: &mut dyn Observer,
) -> Outcome {
    let mut worker = Worker::new(shared, steps[0].selectivity);
    let mut root = root_moves(&board);
    let mut outcome: Option<Outcome> = None;
    let empties = board.empty_count() as i32;
    // A search ended by time, a clock or nodes alone solves beyond its exact-solve threshold
    // when the solver is expected to finish in what is left (after the usual selective
    // iterations that order its moves): a move with time left should not throw away an
    // endgame it can solve.
    let early_solve = limits.depth.is_none()
        && limits.exact_empties != Some(0)
        && steps.last().is_some_and(|s| !s.selectivity.is_exact());
    let pre_solve_depth = (empties / 2).clamp(1, 12);
    for (i, step) in steps.iter().enumerate() {
        if outcome.is_some() && step.selectivity.is_exact() && step.depth >= empties {
            solve_at_root(
                &mut worker,
                shared,
                setup,
                stop,
                board,
                &mut outcome,
                observer,
            );
            break;
        }
        worker.selectivity = step.selectivity;
        worker.interruptible = outcome.is_some();
        let prev = outcome.as_ref().map(|o| o.value);
        let result = aspiration(&mut worker, &board, &mut root, step.depth, prev);
        match result {
            IterationResult::Complete {
                value,
                best,
                proven,
            } => {
                let m = root.remove(best);
                root.insert(0, m);
                let done = Outcome {
                    best: Square::from_index_unchecked(m.cand.square),
                    value,
                    depth: step.depth,
                    selectivity: step.selectivity,
                    proven,
                    pv: None,
                };
                // Flushed here so the report and the decision to start another iteration
                // read this thread's exact count (simulated time is counted in nodes).
                worker.flush_nodes();
                let nodes = shared.nodes.load(Ordering::Relaxed);
                observer.iteration(&done.iteration(setup.tt, &board, nodes, shared.elapsed()));
                outcome = Some(done);
                if proven {
                    // Every line reached the end of the game: deeper iterations cannot change
                    // the value.
                    break;
                }
            }
            IterationResult::Interrupted { improved } => {
                // A move proven better than the previous best inside the window is played, with
                // the previous iteration's depth.
                if let (Some((value, best)), Some(o)) = (improved, outcome.as_mut()) {
                    o.best = Square::from_index_unchecked(root[best].cand.square);
                    o.value = value;
                    o.proven = false;
                }
                break;
            }
        }
        if early_solve
            && step.depth >= pre_solve_depth
            && handoff::solve_fits(empties as u32, shared)
        {
            solve_at_root(
                &mut worker,
                shared,
                setup,
                stop,
                board,
                &mut outcome,
                observer,
            );
            break;
        }
        // The next iteration takes a few times longer than this one: do not start it when it
        // cannot finish within the budget. The exact solve starts all the same when it is
        // expected to finish.
        let next_is_solve = steps
            .get(i + 1)
            .is_some_and(|s| s.selectivity.is_exact() && s.depth >= empties);
        let go_on = time_for_another_iteration(budget, shared.elapsed())
            || (next_is_solve && handoff::solve_fits(empties as u32, shared));
        if !go_on {
            break;
        }
        if shared.must_stop() {
            break;
        }
    }
    worker.flush_nodes();
    outcome.expect("the first iteration is never interrupted")
}

/// The final exact iteration, handed to the solver: `outcome` becomes its proven result when
/// it finishes, and stays the selective one otherwise. Helpers stop first: the solver runs its
/// own threads.
fn solve_at_root(
    worker: &mut Worker,
    shared: &SearchShared,
    setup: &SearchSetup,
    stop: Option<&Arc<AtomicBool>>,
    board: Board,
    outcome: &mut Option<Outcome>,
    observer: &mut dyn Observer,
) {
    worker.flush_nodes();
    if shared.must_stop() || !handoff::node_budget_allows(shared) {
        return;
    }
    shared.stop.store(true, Ordering::Relaxed);
    let Some((mv, score, pv)) = handoff::solve_best(board, setup, shared, stop) else {
        return;
    };
    if let Some(sq) = mv.square() {
        let solved = Outcome {
            best: sq,
            value: score * SCALE,
            depth: board.empty_count() as i32,
            selectivity: Selectivity::EXACT,
            proven: true,
            pv: Some(pv),
        };
        let nodes = shared.nodes.load(Ordering::Relaxed);
        observer.iteration(&solved.iteration(setup.tt, &board, nodes, shared.elapsed()));
        *outcome = Some(solved);
    }
}

/// Lazy SMP helper: runs the same iterations on the shared table (odd helpers one ply ahead)
/// so the main thread finds more cutoffs; its own results are discarded.
fn helper_thread(shared: &SearchShared, board: Board, steps: &[Step], id: usize) {
    let mut worker = Worker::new(shared, steps[0].selectivity);
    worker.interruptible = true;
    let mut root = root_moves(&board);
    // A different root order makes the helper explore other subtrees first.
    let n = root.len();
    root.rotate_left(id % n);
    let mut prev = None;
    for step in steps.iter().skip(id % 2) {
        worker.selectivity = step.selectivity;
        match aspiration(&mut worker, &board, &mut root, step.depth, prev) {
            IterationResult::Complete { value, .. } => prev = Some(value),
            IterationResult::Interrupted { .. } => break,
        }
        if shared.stop.load(Ordering::Relaxed) {
            break;
        }
    }
    worker.flush_nodes();
}

enum IterationResult {
    Complete {
        value: i32,
        best: usize,
        /// No heuristic value entered the result: it is exact.
        proven: bool,
    },
    Interrupted {
        /// A move other than the first one, proven better than it: (value, index in root).
        improved: Option<(i32, usize)>,
    },
}

/// One iteration with an aspiration window around the previous value, widened on failure.
fn aspiration(
    worker: &mut Worker,
    board: &Board,
    root: &mut [RootMove],
    depth: i32,
    prev: Option<i32>,
) -> IterationResult {
    let mut interrupted = None;
    let complete = aspiration_loop(
        prev.filter(|_| depth > 2),
        |&(value, _, _)| value,
        |alpha, beta| match root_iteration(worker, board, root, depth, alpha, beta) {
            IterationResult::Complete {
                value,
                best,
                proven,
            } => Some((value, best, proven)),
            stopped => {
                interrupted = Some(stopped);
                None
            }
        },
    );
    match (complete, interrupted) {
        (Some((value, best, proven)), _) => IterationResult::Complete {
            value,
            best,
            proven,
        },
        (None, Some(stopped)) => stopped,
        (None, None) => IterationResult::Interrupted { improved: None },
    }
}

fn root_iteration(
    worker: &mut Worker,
    board: &Board,
    root: &mut [RootMove],
    depth: i32,
    alpha0: i32,
    beta: i32,
) -> IterationResult {
    let mut alpha = alpha0;
    let mut best = -INF;
    let mut best_idx = 0;
    worker.heuristic = false;
    for (i, rm) in root.iter().enumerate() {
        let child = rm.cand.child(board);
        let v = if i == 0 {
            -worker.pvs(&child, -beta, -alpha, depth - 1)
        } else {
            let mut v = -worker.pvs(&child, -alpha - 1, -alpha, depth - 1);
            if v > alpha && v < beta && !worker.aborted {
                v = -worker.pvs(&child, -beta, -alpha, depth - 1);
            }
            v
        };
        if worker.aborted {
            let improved = (best_idx > 0 && best > alpha0).then_some((best, best_idx));
            return IterationResult::Interrupted { improved };
        }
        if v > best {
            best = v;
            best_idx = i;
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
    }
    let empties = board.empty_count() as i32;
    let depth_code = if depth >= empties {
        DEPTH_TO_END
    } else {
        depth as u8
    };
    worker.shared.tt.store(
        board,
        TtData::from_search(
            best,
            alpha0,
            beta,
            depth_code,
            worker.selectivity.tt_code(),
            Some(Square::from_index_unchecked(root[best_idx].cand.square)),
        ),
    );
    IterationResult::Complete {
        value: best,
        best: best_idx,
        proven: !worker.heuristic,
    }
}

/// The principal variation from `board`, following best moves stored in the table (at most
/// `max_len` moves; passes included).
pub fn pv_from_tt(tt: &TranspositionTable, mut board: Board, max_len: usize) -> Vec<Move> {
    let mut pv = Vec::new();
    while pv.len() < max_len {
        let moves = board.moves();
        if moves == 0 {
            if board.pass().moves() == 0 {
                break;
            }
            pv.push(Move::Pass);
            board = board.pass();
            continue;
        }
        let Some(sq) = tt.probe(&board).and_then(|h| h.best_move) else {
            break;
        };
        if moves & sq.bit() == 0 {
            break;
        }
        pv.push(Move::Play(sq));
        board = board.play_unchecked(sq);
    }
    pv
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_time_limited_midgame_search_deepens_instead_of_solving() {
        let limits = Limits::time(Duration::from_secs(1));
        let steps = schedule(40, &limits, limits.search_selectivity());
        assert!(steps
            .iter()
            .all(|s| s.selectivity == Selectivity::TIME_LIMITED));
        assert_eq!(steps.len(), 40);
        assert_eq!(steps.last().unwrap().depth, 40);
    }

    /// No iteration starts after 60% of a fixed time a move, nor after 45% of a clock move's
    /// aim (the rule the search and the analysis share), checked without a clock.
    #[test]
    fn no_iteration_starts_late_in_the_budget() {
        let ms = Duration::from_millis;
        let budget = Some(time::fixed(ms(1000)));
        assert!(time_for_another_iteration(budget, ms(599)));
        assert!(!time_for_another_iteration(budget, ms(601)));
        let clock = time::Clock {
            remaining: Duration::from_secs(60),
            increment: Duration::ZERO,
        };
        let on_clock = time::budget(&clock, 30);
        let aim = on_clock.soft;
        assert!(time_for_another_iteration(
            Some(on_clock),
            aim.mul_f32(0.44)
        ));
        assert!(!time_for_another_iteration(
            Some(on_clock),
            aim.mul_f32(0.46)
        ));
        assert!(time_for_another_iteration(None, Duration::from_secs(3600)));
    }

    /// Time, clock or nodes alone: 73%; a depth (with or without time): 95%; a named one wins.
    #[test]
    fn a_move_search_limited_only_by_time_is_bolder() {
        let second = Duration::from_secs(1);
        assert_eq!(
            Limits::time(second).search_selectivity(),
            Selectivity::TIME_LIMITED
        );
        let nodes = Limits {
            nodes: Some(1000),
            ..Limits::default()
        };
        assert_eq!(nodes.search_selectivity(), Selectivity::TIME_LIMITED);
        let clock = Limits {
            clock: Some(crate::time::Clock {
                remaining: Duration::from_secs(60),
                increment: Duration::ZERO,
            }),
            ..Limits::default()
        };
        assert_eq!(clock.search_selectivity(), Selectivity::TIME_LIMITED);
        assert_eq!(Limits::depth(12).search_selectivity(), Selectivity::DEFAULT);
        let capped = Limits {
            time: Some(second),
            ..Limits::depth(16)
        };
        assert_eq!(capped.search_selectivity(), Selectivity::DEFAULT);
        assert_eq!(Limits::default().search_selectivity(), Selectivity::DEFAULT);
        let named = Limits {
            selectivity: Some(Selectivity::EXACT),
            ..Limits::time(second)
        };
        assert_eq!(named.search_selectivity(), Selectivity::EXACT);
    }

    #[test]
    fn few_empties_or_a_depth_to_the_end_solve_exactly() {
        let time = schedule(
            14,
            &Limits::time(Duration::from_secs(1)),
            Selectivity::DEFAULT,
        );
        let last = time.last().unwrap();
        assert!(last.selectivity.is_exact() && last.depth == 14);
        let deep = schedule(30, &Limits::depth(30), Selectivity::DEFAULT);
        assert!(deep.last().unwrap().selectivity.is_exact());
        let shallow = schedule(30, &Limits::depth(12), Selectivity::DEFAULT);
        assert_eq!(shallow.len(), 12);
        assert!(shallow.iter().all(|s| !s.selectivity.is_exact()));
    }
}
