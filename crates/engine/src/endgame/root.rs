//! The root of a solve: options, results, the root move loop and the principal variation.

use super::last::game_over_score;
use super::order::MoveList;
use super::search::{with_pool, Pool};
use super::search::{Searcher, Shared};
use crate::eval::Gen3Eval;
use crate::observer::{Iteration, Observer, Unobserved};
use crate::time::{Stopwatch, TimeSource};
use crate::tt::TranspositionTable;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use virada_rules::movegen::legal_moves;
use virada_rules::{Board, Move, Square};

/// What a solve proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SolveMode {
    /// The exact final disc difference.
    #[default]
    Exact,
    /// Only win, draw or loss (a null window around 0: much faster).
    Wld,
}

/// How to solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    pub mode: SolveMode,
    /// Score every legal move, not only the best one.
    pub all_moves: bool,
    /// Search threads (1 = single-threaded). Results do not depend on it.
    pub threads: usize,
    /// Stop after this long (the result is then incomplete).
    pub time_limit: Option<Duration>,
    /// Stop after about this many nodes (the result is then incomplete).
    pub node_limit: Option<u64>,
    /// Stop when this flag becomes true (the result is then incomplete).
    pub stop: Option<Arc<AtomicBool>>,
    /// Transposition-table size for [`super::solve`], in MiB.
    pub tt_mib: usize,
    /// Where `time_limit` reads the time (default: the system clock; tests simulate it).
    pub time_source: TimeSource,
}

impl Default for SolveOptions {
    /// Exact, best move only, all cores, no limits, 128 MiB table.
    fn default() -> Self {
        SolveOptions {
            mode: SolveMode::Exact,
            all_moves: false,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            time_limit: None,
            node_limit: None,
            stop: None,
            tt_mib: 128,
            time_source: TimeSource::System,
        }
    }
}

/// Proven bounds on a score: `lower <= score <= upper` (exact when equal).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreBound {
    pub lower: i32,
    pub upper: i32,
}

impl ScoreBound {
    /// Nothing proven: -64..=64.
    pub const UNKNOWN: ScoreBound = ScoreBound {
        lower: -64,
        upper: 64,
    };

    /// An exact score.
    pub const fn exact(score: i32) -> ScoreBound {
        ScoreBound {
            lower: score,
            upper: score,
        }
    }

    pub const fn is_exact(&self) -> bool {
        self.lower == self.upper
    }

    /// The exact score, if known.
    pub const fn value(&self) -> Option<i32> {
        if self.is_exact() {
            Some(self.lower)
        } else {
            None
        }
    }

    /// +1 (proven win), 0 (proven draw), -1 (proven loss), or `None` if not proven.
    pub const fn wld(&self) -> Option<i32> {
        if self.lower > 0 {
            Some(1)
        } else if self.upper < 0 {
            Some(-1)
        } else if self.lower == 0 && self.upper == 0 {
            Some(0)
        } else {
            None
        }
    }

    /// The bound from a fail-soft result `v` of a search with window `(alpha, beta)`.
    pub(crate) fn from_window(v: i32, alpha: i32, beta: i32) -> ScoreBound {
        if v <= alpha {
            ScoreBound {
                lower: -64,
                upper: v.clamp(-64, 64),
            }
        } else if v >= beta {
            ScoreBound {
                lower: v.clamp(-64, 64),
                upper: 64,
            }
        } else {
            ScoreBound::exact(v)
        }
    }

    /// The weakest bound with the same win/draw/loss meaning (wins `>= +2`, losses `<= -2`;
    /// scores are even): WLD results then do not depend on how far a search overshot.
    pub(crate) fn wld_normalized(&self) -> ScoreBound {
        match self.wld() {
            Some(1) => ScoreBound {
                lower: 2,
                upper: 64,
            },
            Some(-1) => ScoreBound {
                lower: -64,
                upper: -2,
            },
            _ => *self,
        }
    }

    /// The bound seen from the other side.
    pub const fn negate(&self) -> ScoreBound {
        ScoreBound {
            lower: -self.upper,
            upper: -self.lower,
        }
    }

    /// Ranking key for listing moves: a higher tuple is better.
    fn key(&self) -> (i32, i32) {
        (self.lower, self.upper)
    }
}

impl fmt::Display for ScoreBound {
    /// `+12`, `-4`, `0` when exact; `>= +2`, `<= -2` or `-6..+10` otherwise.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = |v: i32| {
            if v > 0 {
                format!("+{v}")
            } else {
                v.to_string()
            }
        };
        if self.is_exact() {
            f.write_str(&s(self.lower))
        } else if self.upper == 64 {
            write!(f, ">= {}", s(self.lower))
        } else if self.lower == -64 {
            write!(f, "<= {}", s(self.upper))
        } else {
            write!(f, "{}..{}", s(self.lower), s(self.upper))
        }
    }
}

/// What a solve found.
#[derive(Clone, Debug)]
pub struct SolveResult {
    /// Best moves: one (the first found in a thread-independent order) unless `all_moves` was
    /// asked, then every move with the best score, in square order. `Pass` when the side to
    /// move must pass; empty when the game is over.
    pub best_moves: Vec<Move>,
    /// The position's score (side to move's view): exact in a complete exact solve; in WLD
    /// mode a bound that decides win/draw/loss; otherwise the bounds proven before stopping.
    pub score: ScoreBound,
    /// Principal variation (both sides' best play; passes included). In WLD mode only the
    /// first move.
    pub pv: Vec<Move>,
    /// With `all_moves`: every legal move and its bound, best first (ties in square order).
    pub move_scores: Vec<(Move, ScoreBound)>,
    pub nodes: u64,
    pub elapsed: Duration,
    /// False if the solve was stopped before proving its result.
    pub complete: bool,
    /// Empty squares of the solved position.
    pub empties: u32,
}

/// Solves `board` with a caller-provided table and move-ordering evaluation.
///
/// The table is used as is (call [`TranspositionTable::new_search`] or `clear` between
/// unrelated solves if you like; stale exact entries are still correct).
pub fn solve_with_table(
    board: Board,
    opts: &SolveOptions,
    tt: &TranspositionTable,
    eval: &Gen3Eval,
) -> SolveResult {
    solve_observed(board, opts, tt, eval, &mut Unobserved)
}

/// [`solve_with_table`], telling `observer` about each completed pass: from 20 empties the
/// selective passes (depth = empties, selectivity 73%, 95%, 99%; their best move and estimated
/// score), then the proven result of a complete exact solve (selectivity 100%; none when the
/// solve is interrupted or in WLD mode).
pub fn solve_observed(
    board: Board,
    opts: &SolveOptions,
    tt: &TranspositionTable,
    eval: &Gen3Eval,
    observer: &mut dyn Observer,
) -> SolveResult {
    let clock = Stopwatch::start(opts.time_source);
    let shared = Shared {
        tt,
        eval,
        stop: AtomicBool::new(false),
        external_stop: opts.stop.as_deref(),
        clock,
        deadline: opts.time_limit,
        node_limit: opts.node_limit,
        nodes: AtomicU64::new(0),
        pool: Pool::new(opts.threads),
    };
    let mut report =
        |s: &Searcher<'_>, depth_sel: u8, score: i32, best: Option<Move>, pv: &[Move]| {
            let Some(best) = best else { return };
            observer.iteration(&Iteration {
                depth: board.empty_count(),
                selectivity: depth_sel,
                value: score as f32,
                exact: depth_sel == 100,
                best_move: best,
                pv: if pv.is_empty() {
                    vec![best]
                } else {
                    pv.to_vec()
                },
                nodes: s.shared.nodes.load(Ordering::Relaxed) + s.nodes,
                elapsed: s
                    .shared
                    .clock
                    .elapsed(s.shared.nodes.load(Ordering::Relaxed) + s.nodes),
            });
        };
    let mut result = with_pool(&shared, opts.threads, |s| {
        solve_root(s, board, opts, &mut report)
    });
    result.nodes = shared.nodes.load(Ordering::Relaxed);
    result.elapsed = clock.elapsed(result.nodes);
    result.empties = board.empty_count();
    result
}

fn empty_result() -> SolveResult {
    SolveResult {
        best_moves: Vec::new(),
        score: ScoreBound::UNKNOWN,
        pv: Vec::new(),
        move_scores: Vec::new(),
        nodes: 0,
        elapsed: Duration::ZERO,
        complete: false,
        empties: 0,
    }
}

/// Tells the observer about a pass of the solve: (searcher, selectivity in percent, score,
/// best move, principal variation).
type Report<'r> = dyn FnMut(&Searcher<'_>, u8, i32, Option<Move>, &[Move]) + 'r;

fn solve_root(
    s: &mut Searcher<'_>,
    board: Board,
    opts: &SolveOptions,
    report: &mut Report<'_>,
) -> SolveResult {
    let (p, o) = (board.player, board.opponent);
    let moves = legal_moves(p, o);
    if moves == 0 {
        if legal_moves(o, p) == 0 {
            // Finished game: the score is simply counted.
            return SolveResult {
                score: ScoreBound::exact(game_over_score(p, o)),
                complete: true,
                ..empty_result()
            };
        }
        // Forced pass: solve the other side's position (the observer sees it from this side).
        let mut passed = |s: &Searcher<'_>, sel: u8, score: i32, _: Option<Move>, pv: &[Move]| {
            let mut line = vec![Move::Pass];
            line.extend(pv);
            report(s, sel, -score, Some(Move::Pass), &line)
        };
        let inner = solve_root(s, board.pass(), opts, &mut passed);
        let score = inner.score.negate();
        let mut pv = vec![Move::Pass];
        pv.extend(inner.pv);
        return SolveResult {
            best_moves: vec![Move::Pass],
            score,
            pv,
            move_scores: if opts.all_moves {
                vec![(Move::Pass, score)]
            } else {
                Vec::new()
            },
            complete: inner.complete,
            ..empty_result()
        };
    }
    let (alpha0, beta0) = match opts.mode {
        SolveMode::Exact => (-64, 64),
        SolveMode::Wld => (-1, 1),
    };
    let selective = opts.mode == SolveMode::Exact && board.empty_count() >= SELECTIVE_MIN;
    if selective {
        selective_passes(s, p, o, report);
        if s.aborted() {
            return empty_result();
        }
    }
    // The evaluated order does not depend on the table (shared with other threads, so filled
    // differently from run to run): among moves with the best score, the best move is the first
    // in this order, whatever order the moves are searched in.
    let mut list = MoveList::new(p, o, moves);
    s.order(&mut list, p, o, board.empty_count(), None, true, None);
    let mut items: Vec<_> = list.as_slice().to_vec();
    // Each move's place in that order: among equal moves, the first in it is the best move.
    let mut det_order: Vec<usize> = (0..items.len()).collect();
    if selective && !opts.all_moves {
        // The selective passes' best move is searched first: it is the best move far more often
        // than the first in the evaluated order, and the others are then only refuted.
        if let Some(m) = s.shared.tt.probe(&board).and_then(|e| e.best_move) {
            if let Some(j) = items.iter().position(|it| it.sq == m.index() as u8) {
                let it = items.remove(j);
                items.insert(0, it);
                det_order.remove(j);
                det_order.insert(0, j);
            }
        }
    }
    let mut bounds = vec![ScoreBound::UNKNOWN; items.len()];
    let mut alpha = alpha0;
    let mut best_index: Option<usize> = None;
    let mut complete = true;
    // What makes a move better: its proven lower bound, or in WLD mode only its class (fail-soft
    // bounds beyond the window depend on the table, hence on thread timing).
    let rank = |b: &ScoreBound| match opts.mode {
        SolveMode::Exact => b.lower,
        SolveMode::Wld => b.lower.clamp(-1, 1),
    };
    for (i, item) in items.iter().enumerate() {
        let (cp, co) = item.child(p, o);
        if opts.all_moves || i == 0 {
            match aspiration_search(s, cp, co, alpha0, beta0) {
                Some(b) => bounds[i] = b,
                None => {
                    complete = false;
                    break;
                }
            }
        } else {
            // A move before the best one in the evaluated order must only equal it to take its
            // place (so the best move does not depend on the search order); the others must
            // beat it. Scores are even, so `alpha - 1` separates "equal or better" from worse.
            let earlier = best_index.is_some_and(|b| det_order[i] < det_order[b]);
            if alpha >= beta0 && !earlier {
                // Already proven best (a WLD win, or +64): the other moves cannot beat it, and
                // the remaining ones all come later in the evaluated order.
                break;
            }
            let test = if earlier { alpha - 1 } else { alpha };
            let v = -s.nws(cp, co, -test - 1);
            if s.aborted() {
                complete = false;
                break;
            }
            bounds[i] = ScoreBound::from_window(v, test, test + 1);
            if v > test && v < beta0 {
                // At least as good as the best so far: find out by how much.
                let a = (v - 1).max(test);
                let v = -s.pvs(cp, co, -beta0, -a);
                if s.aborted() {
                    complete = false;
                    break;
                }
                bounds[i] = ScoreBound::from_window(v, a, beta0);
            }
        }
        if opts.mode == SolveMode::Wld {
            bounds[i] = bounds[i].wld_normalized();
        }
        let better = |b: usize| match rank(&bounds[i]).cmp(&rank(&bounds[b])) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Equal => det_order[i] < det_order[b],
            std::cmp::Ordering::Less => false,
        };
        if best_index.is_none_or(better) {
            best_index = Some(i);
        }
        alpha = alpha.max(bounds[i].lower.min(beta0));
    }

    // The position's bound: the best lower bound, and the best upper bound over all moves
    // (unsearched moves count as unknown).
    let mut score = ScoreBound {
        lower: bounds.iter().map(|b| b.lower).max().unwrap_or(-64),
        upper: bounds.iter().map(|b| b.upper).max().unwrap_or(64),
    };
    if !complete {
        score.upper = 64;
    }
    if complete && opts.mode == SolveMode::Exact && !opts.all_moves {
        // Moves after the first were only proven <= the best (alpha), which makes it exact.
        score = ScoreBound::exact(score.lower);
    }

    let mut result = empty_result();
    result.complete = complete;
    result.score = score;
    let to_move = |sq: u8| Move::Play(Square::from_index_unchecked(sq));
    if opts.all_moves {
        let mut scored: Vec<(Move, ScoreBound)> = items
            .iter()
            .zip(&bounds)
            .map(|(item, b)| (to_move(item.sq), *b))
            .collect();
        scored.sort_by(|a, b| {
            b.1.key()
                .cmp(&a.1.key())
                .then(a.0.square().cmp(&b.0.square()))
        });
        if complete {
            let top = scored[0].1;
            result.best_moves = scored
                .iter()
                .filter(|(_, b)| match opts.mode {
                    SolveMode::Exact => *b == top,
                    SolveMode::Wld => b.wld() == top.wld(),
                })
                .map(|(m, _)| *m)
                .collect();
        }
        result.move_scores = scored;
    } else if let Some(i) = best_index {
        if complete || bounds[i].lower > -64 || items.len() == 1 {
            result.best_moves = vec![to_move(items[i].sq)];
        }
    }
    if complete {
        if let Some(&first) = result.best_moves.first() {
            result.pv = match (opts.mode, score.value()) {
                (SolveMode::Exact, Some(v)) => principal_variation(s, board, first, v),
                _ => vec![first],
            };
            if let (SolveMode::Exact, Some(v)) = (opts.mode, score.value()) {
                report(s, 100, v, Some(first), &result.pv);
            }
        }
    }
    result
}

/// The principal variation starting with `first` from `board` whose exact score is `score`:
/// at each position, the first move in a table-independent order that keeps the score
/// (verified by null-window searches, cheap with the table filled by the solve).
fn principal_variation(s: &mut Searcher<'_>, board: Board, first: Move, score: i32) -> Vec<Move> {
    let mut pv = vec![first];
    let Move::Play(sq) = first else {
        return pv;
    };
    let mut b = board.play_unchecked(sq);
    let mut score = -score;
    loop {
        let (p, o) = (b.player, b.opponent);
        let moves = legal_moves(p, o);
        if moves == 0 {
            if legal_moves(o, p) == 0 {
                return pv;
            }
            pv.push(Move::Pass);
            b = b.pass();
            score = -score;
            continue;
        }
        let mut list = MoveList::new(p, o, moves);
        s.order(&mut list, p, o, b.empty_count(), None, false, None);
        let mut found = None;
        for item in list.as_slice() {
            let (cp, co) = item.child(p, o);
            // The move keeps the score iff the child's score is <= -score.
            let v = s.nws(cp, co, -score);
            if s.aborted() {
                return pv;
            }
            if v <= -score {
                found = Some(item.sq);
                break;
            }
        }
        let Some(sq) = found else {
            // Cannot happen with a correct score; stop rather than report a wrong line.
            return pv;
        };
        let sq = Square::from_index_unchecked(sq);
        pv.push(Move::Play(sq));
        b = b.play_unchecked(sq);
        score = -score;
    }
}

/// From this many empties, an exact solve starts with [`selective_passes`].
const SELECTIVE_MIN: u32 = 20;

/// Multi-ProbCut confidence (standard deviations) of each selective pass, the table's
/// selectivity code for its results (the midgame search's code for the same confidence: 73%,
/// 95% and 99%, so either search reads the other's entries right), and that confidence in
/// percent for observers. Measured with 1 thread
/// (nodes, the exact pass searching the passes' best root move first): FFO #40-#49 985 M ->
/// 874 M, #51-#52 614 M -> 480 M against one pass at 1.1 with the evaluated root order. The
/// later passes cost a few percent of the solve and leave best moves deep in the tree.
const SELECTIVE_PASSES: [(f32, u8, u8); 3] = [(1.1, 1, 73), (2.0, 3, 95), (2.6, 4, 99)];

/// Selective passes before the exact solve: Multi-ProbCut searches of the whole position at
/// increasing confidence. Each leaves best moves in the table for the next, and an estimate of
/// the score. Results are stored with a selectivity below the exact one, so the exact pass uses
/// them only to order moves and to centre its aspiration windows.
fn selective_passes(s: &mut Searcher<'_>, p: u64, o: u64, report: &mut Report<'_>) {
    let mut guess = {
        let e = s.eval_search(p, o, 4, -i32::MAX, i32::MAX);
        ((e / 200) * 2).clamp(-64, 64)
    };
    for &(t, code, percent) in &SELECTIVE_PASSES {
        s.sel = code;
        s.mpc_t = t;
        let width = 4;
        let (mut a, mut b) = ((guess - width).max(-64), (guess + width).min(64));
        loop {
            let v = s.pvs(p, o, a, b);
            if s.aborted() {
                break;
            }
            guess = v.clamp(-64, 64);
            if v <= a && a > -64 {
                a = (v - width).max(-64);
                b = v + 1;
            } else if v >= b && b < 64 {
                b = (v + width).min(64);
                a = v - 1;
            } else {
                break;
            }
        }
        if s.aborted() {
            break;
        }
        let board = Board::new(p, o);
        let best = s.shared.tt.probe(&board).and_then(|e| e.best_move);
        report(s, percent, guess, best.map(Move::Play), &[]);
    }
    s.sel = crate::tt::EXACT_SELECTIVITY;
    s.mpc_t = f32::INFINITY;
}

/// The score of the move leading to the child (cp, co), searched first with a narrow window
/// around an evaluated estimate and widened on failure: a narrow window prunes much more than
/// the full one. `None` if the search was interrupted.
fn aspiration_search(
    s: &mut Searcher<'_>,
    cp: u64,
    co: u64,
    alpha0: i32,
    beta0: i32,
) -> Option<ScoreBound> {
    // Measured on FFO #26-#37: 3% fewer nodes than a full window.
    let width = 8;
    let (mut a, mut b) = (alpha0, beta0);
    if width > 0 && beta0 - alpha0 > 2 * width {
        // The selective pass left bounds on this move in the table: centre on them.
        let from_table = s
            .shared
            .tt
            .probe_discs(&virada_rules::Board::new(cp, co))
            .filter(|e| e.depth == crate::tt::DEPTH_TO_END)
            .and_then(|e| {
                if e.lower >= -64 {
                    Some(-e.lower)
                } else if e.upper <= 64 {
                    Some(-e.upper)
                } else {
                    None
                }
            });
        let estimate = match from_table {
            Some(v) => v * 100,
            None => -s.eval_search(cp, co, 4, -i32::MAX, i32::MAX),
        };
        // Scores are even: centre on an even guess.
        let guess = ((estimate / 200) * 2).clamp(alpha0 + width, beta0 - width);
        a = guess - width;
        b = guess + width;
    }
    loop {
        let v = -s.pvs(cp, co, -b, -a);
        if s.aborted() {
            return None;
        }
        if v <= a && a > alpha0 {
            b = v + 1;
            a = alpha0;
        } else if v >= b && b < beta0 {
            a = v - 1;
            b = beta0;
        } else {
            return Some(ScoreBound::from_window(v, a.max(alpha0), b.min(beta0)));
        }
    }
}
