//! The root of the search: iterative deepening, aspiration windows, threads, limits and the
//! hand-off to the exact search.

use super::handoff;
use super::order::{Candidate, MoveList};
use super::selectivity::Selectivity;
use super::tree::{SearchShared, Worker, DEPTH_TO_END, INF};
use super::{Limits, SearchResult, DEFAULT_DEPTH, DEFAULT_EXACT_EMPTIES};
use crate::eval::{Evaluator, SCALE};
use crate::time::{self, MoveBudget, Stopwatch, TimeSource};
use crate::tt::{TranspositionTable, TtData};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use virada_rules::{Board, Move, Square};

/// The long-lived resources a search uses.
pub struct SearchSetup<'a> {
    pub tt: &'a TranspositionTable,
    pub eval: &'a dyn Evaluator,
    /// Search threads (1 = single-threaded and deterministic).
    pub threads: usize,
    /// Where time limits read the time.
    pub time_source: TimeSource,
}

/// One step of iterative deepening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    pub depth: i32,
    pub selectivity: Selectivity,
}

/// The iterations a search will run for `board`, shallowest first.
pub(crate) fn schedule(empties: u32, limits: &Limits) -> Vec<Step> {
    let e = empties as i32;
    let exact_empties = limits.exact_empties.unwrap_or(DEFAULT_EXACT_EMPTIES) as i32;
    let sel = limits.selectivity.unwrap_or(Selectivity::DEFAULT);
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

/// A root move and its latest value.
#[derive(Clone, Copy, Debug)]
struct RootMove {
    cand: Candidate,
}

/// Searches `board` within `limits`. `stop`, when set by another thread, ends the search at
/// once with the best move found so far. The first iteration always completes, so a move is
/// always returned.
pub fn search(
    board: Board,
    limits: &Limits,
    setup: &SearchSetup,
    stop: Option<&Arc<AtomicBool>>,
) -> SearchResult {
    let clock = Stopwatch::start(setup.time_source);
    let moves = board.moves();
    if moves == 0 {
        return search_pass(board, limits, setup, stop, clock);
    }
    setup.tt.new_search();
    let empties = board.empty_count();
    let budget = if let Some(t) = limits.time {
        Some(time::fixed(t))
    } else {
        limits.clock.as_ref().map(|c| time::budget(c, empties))
    };
    let mut steps = schedule(empties, limits);
    if moves.count_ones() == 1 && limits.clock.is_some() {
        // A forced move in a timed game: save the clock, search just enough for a score.
        steps.truncate(2);
    }

    let internal_stop = AtomicBool::new(false);
    let nodes = AtomicU64::new(0);
    let shared = SearchShared {
        tt: setup.tt,
        eval: setup.eval,
        stop: &internal_stop,
        user_stop: stop.map(|s| &**s),
        clock,
        deadline: budget.map(|b| b.hard),
        node_limit: limits.nodes,
        nodes: &nodes,
    };

    let outcome = std::thread::scope(|scope| {
        for id in 1..setup.threads.max(1) {
            let shared = &shared;
            let steps = &steps;
            scope.spawn(move || helper_thread(shared, board, steps, id));
        }
        let outcome = main_thread(&shared, setup, stop, board, &steps, budget);
        internal_stop.store(true, Ordering::Relaxed);
        outcome
    });

    let pv = match &outcome.pv {
        Some(pv) => pv.clone(),
        None => {
            let mut pv = vec![Move::Play(outcome.best)];
            pv.extend(pv_from_tt(
                setup.tt,
                outcome.best_child(&board),
                outcome.depth.max(1) as usize - 1,
            ));
            pv
        }
    };
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
    let sub = search(other, limits, setup, stop);
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
    fn best_child(&self, board: &Board) -> Board {
        board.play_unchecked(self.best)
    }
}

fn root_moves(board: &Board) -> Vec<RootMove> {
    let list = MoveList::new(board, board.moves());
    list.as_slice()
        .iter()
        .map(|&cand| RootMove { cand })
        .collect()
}

fn main_thread(
    shared: &SearchShared,
    setup: &SearchSetup,
    stop: Option<&Arc<AtomicBool>>,
    board: Board,
    steps: &[Step],
    budget: Option<MoveBudget>,
) -> Outcome {
    let mut worker = Worker::new(shared, steps[0].selectivity);
    let mut root = root_moves(&board);
    let mut outcome: Option<Outcome> = None;
    let empties = board.empty_count() as i32;
    for step in steps {
        if outcome.is_some() && step.selectivity.is_exact() && step.depth >= empties {
            // The final exact iteration goes to the solver. Helpers stop first: the solver
            // runs its own threads.
            worker.flush_nodes();
            if shared.must_stop() || !handoff::node_budget_allows(shared) {
                break;
            }
            shared.stop.store(true, Ordering::Relaxed);
            if let Some((mv, score, pv)) = handoff::solve_best(board, setup, shared, stop) {
                if let Some(sq) = mv.square() {
                    outcome = Some(Outcome {
                        best: sq,
                        value: score * SCALE,
                        depth: empties,
                        selectivity: Selectivity::EXACT,
                        proven: true,
                        pv: Some(pv),
                    });
                }
            }
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
                outcome = Some(Outcome {
                    best: Square::from_index(m.cand.square),
                    value,
                    depth: step.depth,
                    selectivity: step.selectivity,
                    proven,
                    pv: None,
                });
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
                    o.best = Square::from_index(root[best].cand.square);
                    o.value = value;
                    o.proven = false;
                }
                break;
            }
        }
        if let Some(b) = budget {
            // The next iteration takes a few times longer than this one: do not start it
            // when it cannot finish within the budget.
            if shared.elapsed() >= b.soft.mul_f32(time::LAST_ITERATION_START) {
                break;
            }
        }
        if shared.must_stop() {
            break;
        }
    }
    worker.flush_nodes();
    outcome.expect("the first iteration is never interrupted")
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
    let mut delta = 2 * SCALE;
    let (mut alpha, mut beta) = match prev {
        Some(v) if depth > 2 => ((v - delta).max(-INF), (v + delta).min(INF)),
        _ => (-INF, INF),
    };
    loop {
        match root_iteration(worker, board, root, depth, alpha, beta) {
            IterationResult::Complete {
                value,
                best,
                proven,
            } => {
                if value <= alpha && alpha > -INF {
                    alpha = (value - delta).max(-INF);
                } else if value >= beta && beta < INF {
                    beta = (value + delta).min(INF);
                } else {
                    return IterationResult::Complete {
                        value,
                        best,
                        proven,
                    };
                }
                delta *= 2;
            }
            interrupted => return interrupted,
        }
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
            Some(Square::from_index(root[best_idx].cand.square)),
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
        let steps = schedule(40, &Limits::time(Duration::from_secs(1)));
        assert!(steps.iter().all(|s| !s.selectivity.is_exact()));
        assert_eq!(steps.len(), 40);
        assert_eq!(steps.last().unwrap().depth, 40);
    }

    #[test]
    fn few_empties_or_a_depth_to_the_end_solve_exactly() {
        let time = schedule(14, &Limits::time(Duration::from_secs(1)));
        let last = time.last().unwrap();
        assert!(last.selectivity.is_exact() && last.depth == 14);
        let deep = schedule(30, &Limits::depth(30));
        assert!(deep.last().unwrap().selectivity.is_exact());
        let shallow = schedule(30, &Limits::depth(12));
        assert_eq!(shallow.len(), 12);
        assert!(shallow.iter().all(|s| !s.selectivity.is_exact()));
    }
}
