//! Analysis: a value for every legal move (the hint display), and the mistakes of a game.

use crate::eval::SCALE;
use crate::search::handoff;
use crate::search::order::{Candidate, MoveList};
use crate::search::root::{schedule, Step};
use crate::search::tree::{SearchShared, Worker, INF};
use crate::search::{pv_from_tt, Limits, SearchSetup};
use crate::time::{self, Stopwatch};
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
#[derive(Clone, Copy, Debug, PartialEq)]
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
}

/// The latest value of one root move.
#[derive(Clone, Copy, Debug)]
struct Scored {
    cand: Candidate,
    value: i32,
    depth: i32,
    exact: bool,
    searched: bool,
}

/// Values of all legal moves of `board` within `limits` (see [`crate::Engine::analyze`]).
pub fn analyze(
    board: Board,
    limits: &Limits,
    setup: &SearchSetup,
    stop: Option<&Arc<AtomicBool>>,
) -> Analysis {
    let start = Instant::now();
    let clock = Stopwatch::start(setup.time_source);
    let moves = board.moves();
    if moves == 0 {
        let other = board.pass();
        if other.moves() == 0 {
            return Analysis {
                elapsed: start.elapsed(),
                ..Analysis::default()
            };
        }
        let sub = analyze(other, limits, setup, stop);
        let best = sub.best().map_or(0.0, |m| m.value);
        let exact = sub.best().is_some_and(|m| m.exact);
        let depth = sub.best().map_or(0, |m| m.depth);
        let mut pv = vec![Move::Pass];
        pv.extend(sub.pv);
        return Analysis {
            moves: vec![MoveValue {
                mv: Move::Pass,
                value: -best,
                exact,
                depth,
            }],
            pv,
            nodes: sub.nodes,
            elapsed: start.elapsed(),
        };
    }
    setup.tt.new_search();
    let empties = board.empty_count();
    let budget = match (limits.time, &limits.clock) {
        (Some(t), _) => Some(time::fixed(t)),
        (None, Some(c)) => Some(time::budget(c, empties)),
        _ => None,
    };
    let steps = schedule(empties, limits);
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
    let list = MoveList::new(&board, moves);
    let scored = Mutex::new(
        list.as_slice()
            .iter()
            .map(|&cand| Scored {
                cand,
                value: 0,
                depth: 0,
                exact: false,
                searched: false,
            })
            .collect::<Vec<_>>(),
    );
    for (i, step) in steps.iter().enumerate() {
        let first = i == 0;
        if !first && step.selectivity.is_exact() && step.depth >= empties as i32 {
            // The exact iteration goes to the solver, which scores every move.
            if !handoff::node_budget_allows(&shared) {
                break;
            }
            let (scores, _complete) = handoff::solve_all(board, setup, &shared, stop);
            let mut s = scored.lock().unwrap_or_else(|e| e.into_inner());
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
            break;
        }
        let complete = iteration(&shared, &board, &scored, *step, first, setup.threads);
        if !complete || shared.must_stop() {
            break;
        }
        if budget.is_some_and(|b| shared.elapsed() >= b.soft.mul_f32(time::LAST_ITERATION_START)) {
            break;
        }
    }
    let mut scored = scored.into_inner().unwrap_or_else(|e| e.into_inner());
    // Best first; equal values keep square order so output is deterministic.
    scored.sort_by(|a, b| {
        b.value
            .cmp(&a.value)
            .then(a.cand.square.cmp(&b.cand.square))
    });
    let moves: Vec<MoveValue> = scored
        .iter()
        .filter(|s| s.searched)
        .map(|s| MoveValue {
            mv: Move::Play(Square::from_index(s.cand.square)),
            value: s.value as f32 / SCALE as f32,
            exact: s.exact,
            depth: s.depth as u32,
        })
        .collect();
    let mut pv = Vec::new();
    if let Some(best) = scored.first() {
        pv.push(Move::Play(Square::from_index(best.cand.square)));
        pv.extend(pv_from_tt(
            setup.tt,
            best.cand.child(&board),
            best.depth.max(1) as usize - 1,
        ));
    }
    Analysis {
        moves,
        pv,
        nodes: nodes.load(Ordering::Relaxed),
        elapsed: start.elapsed(),
    }
}

/// Searches every root move at `step` with a full window (aspiration around its previous
/// value). Threads take moves from a shared counter. Returns false when interrupted; moves
/// finished before the interruption keep their new values.
fn iteration(
    shared: &SearchShared,
    board: &Board,
    scored: &Mutex<Vec<Scored>>,
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
            let value = full_window_value(&mut worker, &child, step.depth - 1, prev);
            let proven = !worker.heuristic;
            if worker.aborted {
                interrupted.store(true, Ordering::Relaxed);
                break;
            }
            let mut s = scored.lock().unwrap_or_else(|e| e.into_inner());
            s[i].value = value;
            s[i].depth = step.depth;
            s[i].exact = proven;
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

/// The exact minimax value of the move leading to `child` (side-to-move view of the parent),
/// searched with an aspiration window around `prev`.
fn full_window_value(worker: &mut Worker, child: &Board, depth: i32, prev: Option<i32>) -> i32 {
    let mut delta = 2 * SCALE;
    let (mut alpha, mut beta) = match prev {
        Some(v) => ((v - delta).max(-INF), (v + delta).min(INF)),
        None => (-INF, INF),
    };
    loop {
        let v = -worker.pvs(child, -beta, -alpha, depth);
        if worker.aborted {
            return 0;
        }
        if v <= alpha && alpha > -INF {
            alpha = (v - delta).max(-INF);
        } else if v >= beta && beta < INF {
            beta = (v + delta).min(INF);
        } else {
            return v;
        }
        delta *= 2;
    }
}

/// Judges every move of `game` (see [`crate::Engine::analyze_game`]). Passes are skipped.
pub fn analyze_game(
    game: &Game,
    limits: &Limits,
    setup: &SearchSetup,
    stop: Option<&Arc<AtomicBool>>,
) -> Vec<PlyAnalysis> {
    let mut out = Vec::new();
    for (ply, (&mv, pos)) in game.moves().iter().zip(game.positions()).enumerate() {
        if mv == Move::Pass {
            continue;
        }
        if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            break;
        }
        let a = analyze(pos.board(), limits, setup, stop);
        let (Some(best), Some(played)) = (a.best(), a.value_of(mv)) else {
            continue;
        };
        out.push(PlyAnalysis {
            ply,
            color: pos.side_to_move(),
            played: mv,
            played_value: played.value,
            best_move: best.mv,
            best_value: best.value,
            loss: (best.value - played.value).max(0.0),
            exact: best.exact && played.exact,
        });
    }
    out
}
