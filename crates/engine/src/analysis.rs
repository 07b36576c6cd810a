//! Analysis: a value for every legal move (the hint display), and the mistakes of a game.

pub(crate) mod book_values;
pub(crate) mod review;

use crate::book::Book;
use crate::eval::SCALE;
use crate::search::handoff;
use crate::search::root::{
    aspiration_loop, move_budget, root_moves, schedule, time_for_another_iteration, RootMove, Step,
};
use crate::search::tree::{SearchShared, Worker};
use crate::search::{
    pv_from_tt, Iteration, Limits, Observer, SearchSetup, Selectivity, Unobserved,
};
use crate::time::{self, Stopwatch};
use book_values::book_analysis;
pub use review::ReviewEffort;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use virada_rules::{Board, Color, Game, Move, Square};

/// The value of one legal move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveValue {
    pub mv: Move,
    /// Expected final disc difference for the side to move after playing `mv` (WOF scoring).
    pub value: f32,
    /// The value is proven (searched to the end without selective pruning).
    pub exact: bool,
    /// Depth of the search that produced the value (plies including this move).
    pub depth: u32,
    /// The value is the opening book's (a deep search minimaxed through the book), not a
    /// search of this analysis.
    pub book: bool,
}

/// Every legal move with its value, best first, and the best line.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Analysis {
    /// Every legal move (or a single `Pass`), best first.
    pub moves: Vec<MoveValue>,
    /// Principal variation from the best move.
    pub pv: Vec<Move>,
    /// Nodes searched.
    pub nodes: u64,
    pub elapsed: Duration,
    /// Every move was searched as deep as `limits` asked (or its value is proven). False when a
    /// stop, the time or the node limit cut the analysis short: the values are then those of
    /// a shallower search (and a move may be missing if even the first iteration was cut).
    pub complete: bool,
}

impl Analysis {
    /// The value of `mv`, if it is a legal move of the analysed position.
    pub fn value_of(&self, mv: Move) -> Option<&MoveValue> {
        self.moves.iter().find(|m| m.mv == mv)
    }

    /// The best move's entry (None only for a finished game).
    pub fn best(&self) -> Option<&MoveValue> {
        self.moves.first()
    }
}

/// One played move of a game, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct PlyAnalysis {
    /// Index of the move in the game (0 = the first move).
    pub ply: usize,
    /// Who played it.
    pub color: Color,
    pub played: Move,
    /// Value of the played move for its player.
    pub played_value: f32,
    pub best_move: Move,
    pub best_value: f32,
    /// Discs lost by the played move compared with the best one (0 for the best move).
    pub loss: f32,
    /// Both values are proven.
    pub exact: bool,
    /// Depth of the shallower of the two values.
    pub depth: u32,
    /// Both values are the opening book's: the loss is the one theory gives.
    pub book: bool,
    /// The best line from the position before the move, starting with `best_move` (as deep as
    /// the analysis knows it; the coach reads corners, passes and stable discs from it).
    pub pv: Vec<Move>,
}

/// The review of a game: its played moves judged, in game order.
#[derive(Clone, Debug, PartialEq)]
pub struct GameAnalysis {
    /// One entry per played move (passes are not judged: they are forced).
    pub plies: Vec<PlyAnalysis>,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Every played move is judged and every judgement is complete ([`Analysis::complete`]).
    /// False when the stop flag or the budget cut the review short: some plies are missing or
    /// shallower than `limits` asked. Never store a partial review as if it were complete.
    pub complete: bool,
}

impl GameAnalysis {
    /// The judgement of the move at `ply` (0 = the first move), if it was judged.
    pub fn ply(&self, ply: usize) -> Option<&PlyAnalysis> {
        self.plies.iter().find(|p| p.ply == ply)
    }
}

/// Values of all legal moves of `board` within `limits` (see [`crate::Engine::analyze`]).
/// `observer` sees each completed iteration (its best move and value so far).
pub(crate) fn analyze(
    board: Board,
    limits: &Limits,
    setup: &SearchSetup,
    stop: Option<&Arc<AtomicBool>>,
    observer: &mut dyn Observer,
) -> Analysis {
    analyze_moves(board, limits, setup, stop, observer, None)
}

/// An iteration that used `n` nodes is followed by one of about `n * NODE_GROWTH` nodes (every
/// move searched one ply deeper with a full window, 95% selectivity: about 2-3 times more at
/// 20-40 empties). Under a node limit a deeper iteration starts only when it is expected to
/// fit, so that the limit rarely cuts one short.
const NODE_GROWTH: u64 = 3;

/// [`analyze`], restricted to the legal moves in `only` when given (a re-check of a few moves:
/// the others are not searched and not in the answer).
///
/// Under a node limit ([`Limits::nodes`]) every move keeps the value of the last iteration
/// that finished for all of them: an iteration the limit cuts short is dropped, so the values
/// compared are of one depth (an odd and an even depth disagree by about a disc).
pub(crate) fn analyze_moves(
    board: Board,
    limits: &Limits,
    setup: &SearchSetup,
    stop: Option<&Arc<AtomicBool>>,
    observer: &mut dyn Observer,
    only: Option<&[Move]>,
) -> Analysis {
    let start = Instant::now();
    let clock = Stopwatch::start(setup.time_source);
    let moves = board.moves();
    if moves == 0 {
        return analyze_pass(board, limits, setup, stop, observer, start);
    }
    setup.tt.new_search();
    let empties = board.empty_count();
    let budget = move_budget(limits, empties);
    // Every move's value: the named selectivity or 95%, whatever ends the analysis.
    let steps = schedule(
        empties,
        limits,
        limits.selectivity.unwrap_or(Selectivity::DEFAULT),
    );
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
    let mut roots = root_moves(&board);
    if let Some(only) = only {
        roots.retain(|r| only.contains(&Move::Play(Square::from_index_unchecked(r.cand.square))));
    }
    let scored = Mutex::new(roots);
    // Whether the last scheduled iteration finished for every move (or the values are proven).
    let mut complete = false;
    // Under a node limit: the values after the last finished iteration, and its nodes.
    let mut finished_values: Option<Vec<RootMove>> = None;
    let mut nodes_before = 0u64;
    for (i, step) in steps.iter().enumerate() {
        let first = i == 0;
        let last = i + 1 == steps.len();
        if !first && step.selectivity.is_exact() && step.depth >= empties as i32 {
            // The exact iteration goes to the solver, which scores every move.
            if !handoff::node_budget_allows(&shared) {
                break;
            }
            let (scores, solved) = handoff::solve_all(board, setup, &shared, stop);
            let mut s = scored.lock().unwrap_or_else(|e| e.into_inner());
            if !solved {
                if let Some(values) = finished_values.take() {
                    // Proven bounds of some moves beside selective values of others would
                    // mix two kinds of value: keep the last selective iteration's.
                    *s = values;
                    drop(s);
                    break;
                }
            }
            for (mv, bound) in scores {
                let (Some(sq), Some(v)) = (mv.square(), bound.value()) else {
                    continue;
                };
                if let Some(x) = s.iter_mut().find(|x| x.cand.square as usize == sq.index()) {
                    x.value = v * SCALE;
                    x.depth = empties as i32;
                    x.exact = true;
                    x.searched = true;
                }
            }
            drop(s);
            complete = solved;
            if solved {
                let n = nodes.load(Ordering::Relaxed);
                observer.iteration(&best_iteration(&scored, &board, setup, step, n, start));
            }
            break;
        }
        let finished = iteration(&shared, &board, &scored, *step, first, setup.threads);
        if !finished {
            if let Some(values) = finished_values.take() {
                *scored.lock().unwrap_or_else(|e| e.into_inner()) = values;
            }
            break;
        }
        let n = nodes.load(Ordering::Relaxed);
        observer.iteration(&best_iteration(&scored, &board, setup, step, n, start));
        let proven = {
            let s = scored.lock().unwrap_or_else(|e| e.into_inner());
            s.iter().all(|m| m.exact)
        };
        if last || proven {
            // Every line reached the end of the game: deeper iterations change nothing.
            complete = true;
            break;
        }
        if let Some(limit) = limits.nodes {
            finished_values = Some(scored.lock().unwrap_or_else(|e| e.into_inner()).clone());
            let this_iteration = n.saturating_sub(nodes_before);
            nodes_before = n;
            // The solve has its own estimate (`handoff`); a deeper selective iteration is
            // expected to cost NODE_GROWTH times this one.
            let next_is_solve = steps
                .get(i + 1)
                .is_some_and(|s| s.selectivity.is_exact() && s.depth >= empties as i32);
            if !next_is_solve
                && n.saturating_add(this_iteration.saturating_mul(NODE_GROWTH)) > limit
            {
                break;
            }
        }
        if shared.must_stop() || !time_for_another_iteration(budget, shared.elapsed()) {
            break;
        }
    }
    let scored = sorted(scored.into_inner().unwrap_or_else(|e| e.into_inner()));
    let moves: Vec<MoveValue> = scored
        .iter()
        .filter(|s| s.searched)
        .map(|s| MoveValue {
            mv: Move::Play(Square::from_index_unchecked(s.cand.square)),
            value: s.value as f32 / SCALE as f32,
            exact: s.exact,
            depth: s.depth as u32,
            book: false,
        })
        .collect();
    let pv = scored
        .first()
        .map(|best| principal_variation(setup, &board, best))
        .unwrap_or_default();
    Analysis {
        moves,
        pv,
        nodes: nodes.load(Ordering::Relaxed),
        elapsed: start.elapsed(),
        complete,
    }
}

/// The side to move must pass (or the game is over).
fn analyze_pass(
    board: Board,
    limits: &Limits,
    setup: &SearchSetup,
    stop: Option<&Arc<AtomicBool>>,
    observer: &mut dyn Observer,
    start: Instant,
) -> Analysis {
    let other = board.pass();
    if other.moves() == 0 {
        return Analysis {
            elapsed: start.elapsed(),
            complete: true,
            ..Analysis::default()
        };
    }
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
    let sub = analyze(other, limits, setup, stop, &mut passed);
    let best = sub.best().map_or(0.0, |m| m.value);
    let exact = sub.best().is_some_and(|m| m.exact);
    let depth = sub.best().map_or(0, |m| m.depth);
    let mut pv = vec![Move::Pass];
    pv.extend(sub.pv);
    Analysis {
        moves: vec![MoveValue {
            mv: Move::Pass,
            value: -best,
            exact,
            depth,
            book: false,
        }],
        pv,
        nodes: sub.nodes,
        elapsed: start.elapsed(),
        complete: sub.complete,
    }
}

/// Best first; equal values keep square order so output is deterministic.
fn sorted(mut moves: Vec<RootMove>) -> Vec<RootMove> {
    moves.sort_by(|a, b| {
        b.searched
            .cmp(&a.searched)
            .then(b.value.cmp(&a.value))
            .then(a.cand.square.cmp(&b.cand.square))
    });
    moves
}

/// The best move and the table's line after it.
fn principal_variation(setup: &SearchSetup, board: &Board, best: &RootMove) -> Vec<Move> {
    let mut pv = vec![Move::Play(Square::from_index_unchecked(best.cand.square))];
    pv.extend(pv_from_tt(
        setup.tt,
        best.cand.child(board),
        best.depth.max(1) as usize - 1,
    ));
    pv
}

/// The best move after a finished iteration, as an observer sees it.
fn best_iteration(
    scored: &Mutex<Vec<RootMove>>,
    board: &Board,
    setup: &SearchSetup,
    step: &Step,
    nodes: u64,
    start: Instant,
) -> Iteration {
    let s = sorted(scored.lock().unwrap_or_else(|e| e.into_inner()).clone());
    let best = s[0];
    Iteration {
        depth: step.depth as u32,
        selectivity: step.selectivity.percent(),
        value: best.value as f32 / SCALE as f32,
        exact: best.exact,
        best_move: Move::Play(Square::from_index_unchecked(best.cand.square)),
        pv: principal_variation(setup, board, &best),
        nodes,
        elapsed: start.elapsed(),
    }
}

/// Searches every root move at `step` with a full window (aspiration around its previous
/// value). Threads take moves from a shared counter. Returns false when interrupted; moves
/// finished before the interruption keep their new values.
fn iteration(
    shared: &SearchShared,
    board: &Board,
    scored: &Mutex<Vec<RootMove>>,
    step: Step,
    first: bool,
    threads: usize,
) -> bool {
    let n = scored.lock().map(|s| s.len()).unwrap_or(0);
    let next = AtomicUsize::new(0);
    let interrupted = AtomicBool::new(false);
    let run = || {
        let mut worker = Worker::new(shared, step.selectivity);
        worker.interruptible = !first;
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= n {
                break;
            }
            let (cand, prev) = {
                let s = scored.lock().unwrap_or_else(|e| e.into_inner());
                (s[i].cand, s[i].searched.then_some(s[i].value))
            };
            let child = cand.child(board);
            worker.heuristic = false;
            let value = aspiration_loop(
                prev,
                |&v| v,
                |alpha, beta| {
                    let v = -worker.pvs(&child, -beta, -alpha, step.depth - 1);
                    (!worker.aborted).then_some(v)
                },
            );
            let Some(value) = value else {
                interrupted.store(true, Ordering::Relaxed);
                break;
            };
            let mut s = scored.lock().unwrap_or_else(|e| e.into_inner());
            s[i].value = value;
            s[i].depth = step.depth;
            s[i].exact = !worker.heuristic;
            s[i].searched = true;
        }
        worker.flush_nodes();
    };
    std::thread::scope(|scope| {
        for _ in 1..threads.max(1).min(n) {
            scope.spawn(run);
        }
        run();
    });
    !interrupted.load(Ordering::Relaxed)
}

/// Judges every move of `game` (see [`crate::Engine::analyze_game`]). Passes are skipped.
pub(crate) fn analyze_game(
    game: &Game,
    limits: &Limits,
    budget: Option<Duration>,
    setup: &SearchSetup,
    book: Option<&Book>,
    stop: Option<&Arc<AtomicBool>>,
) -> GameAnalysis {
    let start = Instant::now();
    let played: Vec<(usize, Move, Board, Color)> = game
        .moves()
        .iter()
        .zip(game.positions())
        .enumerate()
        .filter(|(_, (&mv, _))| mv != Move::Pass)
        .map(|(ply, (&mv, pos))| (ply, mv, pos.board(), pos.side_to_move()))
        .collect();
    // Each ply's share of the budget follows where games are decided (the weights of the time
    // manager), recomputed from what is left so that time a ply did not use goes to the next.
    let weights: Vec<f64> = played
        .iter()
        .map(|(_, _, b, _)| time::weight(b.empty_count()))
        .collect();
    let mut out = GameAnalysis {
        plies: Vec::with_capacity(played.len()),
        nodes: 0,
        elapsed: Duration::ZERO,
        complete: true,
    };
    for (k, &(ply, mv, board, color)) in played.iter().enumerate() {
        if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            out.complete = false;
            break;
        }
        let ply_limits = match budget {
            Some(total) => {
                let left = total.saturating_sub(start.elapsed());
                let share = left.mul_f64(weights[k] / weights[k..].iter().sum::<f64>());
                Limits {
                    time: Some(limits.time.map_or(share, |t| t.min(share))),
                    ..limits.clone()
                }
            }
            None => limits.clone(),
        };
        // A book position is judged by the book's values (no search, no time spent), so an
        // opening error shows the loss theory gives.
        let a = match book.and_then(|b| book_analysis(b, board)) {
            Some(a) => a,
            None => analyze(board, &ply_limits, setup, stop, &mut Unobserved),
        };
        out.nodes += a.nodes;
        out.complete &= a.complete;
        let (Some(best), Some(played)) = (a.best(), a.value_of(mv)) else {
            out.complete = false;
            continue;
        };
        out.plies.push(PlyAnalysis {
            ply,
            color,
            played: mv,
            played_value: played.value,
            best_move: best.mv,
            best_value: best.value,
            loss: (best.value - played.value).max(0.0),
            exact: best.exact && played.exact,
            depth: best.depth.min(played.depth),
            book: best.book && played.book,
            pv: a.pv.clone(),
        });
    }
    out.elapsed = start.elapsed();
    out
}
