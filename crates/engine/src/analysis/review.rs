//! The review of a game within a node budget (the server's analysis and `virada analyze
//! --game`): what a learner is told is a mistake must be one.
//!
//! Three passes share one budget of nodes, so the review of a game is the same on any machine
//! (one thread) and its cost is bounded:
//! 1. **Exact:** every position with at most [`ReviewEffort::exact_empties`] empty squares is
//!    solved, every move (game order; the table carries the solves over to the next ply).
//! 2. **First pass:** every other position out of the book gets every move valued by iterative
//!    deepening, its share of the budget weighted like a game clock (the late midgame most).
//! 3. **Re-check:** a move that lost [`ReviewEffort::recheck_loss`] discs or more in the first
//!    pass is searched again with the better move only, [`ReviewEffort::recheck_plies`] plies
//!    deeper; the loss reported is the re-check's (none when the played move is as good).
//!
//! Book positions are judged by the book and cost nothing.

use super::book_values::book_analysis;
use super::{analyze_moves, Analysis, GameAnalysis, PlyAnalysis};
use crate::book::Book;
use crate::search::{Limits, SearchSetup, Selectivity, Unobserved};
use crate::time;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use virada_rules::{Board, Color, Game, Move};

/// How hard a review looks: the budget of the whole game and how it is spent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReviewEffort {
    /// Nodes for a whole game of 60 moves (exact solves, first pass and re-checks together);
    /// a shorter game gets its share a move.
    pub nodes: u64,
    /// Positions with at most this many empty squares are solved exactly.
    pub exact_empties: u32,
    /// The first pass searches no deeper than this.
    pub max_depth: u32,
    /// A first-pass loss of at least this many discs is re-checked before it is reported.
    pub recheck_loss: f32,
    /// The re-check searches this many plies deeper than the first pass.
    pub recheck_plies: u32,
}

impl ReviewEffort {
    /// The server's review and `virada analyze --game`'s: 400 million nodes for a game of 60
    /// moves, proportionally fewer for a shorter one
    /// (docs/SECURITY.md says what that costs), exact from 20 empties, losses of 2 discs or
    /// more re-checked 4 plies deeper.
    pub const STANDARD: ReviewEffort = ReviewEffort {
        nodes: 400_000_000,
        exact_empties: 20,
        max_depth: 24,
        recheck_loss: 2.0,
        recheck_plies: 4,
    };

    /// A review with `nodes` for the whole game, otherwise [`ReviewEffort::STANDARD`].
    pub fn with_nodes(nodes: u64) -> ReviewEffort {
        ReviewEffort {
            nodes,
            ..ReviewEffort::STANDARD
        }
    }
}

/// Share of the budget (after the exact solves) the first pass may use; the re-checks get the
/// rest and whatever the first pass left.
const FIRST_PASS_SHARE: f64 = 0.5;

/// Share of the budget the exact solves may use at most (a solve the rest of it cannot
/// finish keeps its selective values).
const EXACT_SHARE: f64 = 0.4;

/// The moves of a game played to its end with every square filled: the length the budget of
/// [`ReviewEffort::nodes`] is for.
const FULL_GAME_MOVES: u64 = 60;

/// One played move to judge.
struct Ply {
    ply: usize,
    mv: Move,
    board: Board,
    color: Color,
}

/// Spends the budget: `left` nodes, shared out by the passes.
struct Budget {
    total: u64,
    used: u64,
}

impl Budget {
    fn left(&self) -> u64 {
        self.total.saturating_sub(self.used)
    }
}

/// Judges every move of `game` within `effort` (see the module documentation).
pub(crate) fn review_game(
    game: &Game,
    effort: &ReviewEffort,
    setup: &SearchSetup,
    book: Option<&Book>,
    stop: Option<&Arc<AtomicBool>>,
) -> GameAnalysis {
    let start = Instant::now();
    let plies: Vec<Ply> = game
        .moves()
        .iter()
        .zip(game.positions())
        .enumerate()
        .filter(|(_, (&mv, _))| mv != Move::Pass)
        .map(|(ply, (&mv, pos))| Ply {
            ply,
            mv,
            board: pos.board(),
            color: pos.side_to_move(),
        })
        .collect();
    // `effort.nodes` is for a whole game of 60 moves; a shorter game (resigned, lost on time)
    // gets its share a move, so a review costs about the same a move whatever the length.
    let moves = (plies.len() as u64).min(FULL_GAME_MOVES);
    let mut budget = Budget {
        total: effort.nodes / FULL_GAME_MOVES * moves,
        used: 0,
    };
    let mut judged: Vec<Option<Analysis>> = plies
        .iter()
        .map(|p| book.and_then(|b| book_analysis(b, p.board)))
        .collect();
    let stopped = || stop.is_some_and(|s| s.load(Ordering::Relaxed));
    let mut complete = true;

    // 1. Exact solves, game order.
    let exact_pool = (effort.nodes as f64 * EXACT_SHARE) as u64;
    for (k, p) in plies.iter().enumerate() {
        if judged[k].is_some() || p.board.empty_count() > effort.exact_empties {
            continue;
        }
        if stopped() {
            complete = false;
            break;
        }
        let limits = Limits {
            exact_empties: Some(effort.exact_empties),
            nodes: Some(exact_pool.saturating_sub(budget.used)),
            ..Limits::default()
        };
        let a = analyze_moves(p.board, &limits, setup, stop, &mut Unobserved, None);
        budget.used += a.nodes;
        judged[k] = Some(a);
    }

    // 2. The first pass, game order, each ply a share of what is left weighted by its phase.
    let pool_total = (budget.left() as f64 * FIRST_PASS_SHARE) as u64;
    let mut pool_used = 0u64;
    let open: Vec<usize> = (0..plies.len()).filter(|&k| judged[k].is_none()).collect();
    let weights: Vec<f64> = open
        .iter()
        .map(|&k| time::weight(plies[k].board.empty_count()))
        .collect();
    for (i, &k) in open.iter().enumerate() {
        if stopped() {
            complete = false;
            break;
        }
        let p = &plies[k];
        let left = pool_total.saturating_sub(pool_used);
        let share = (left as f64 * weights[i] / weights[i..].iter().sum::<f64>()) as u64;
        let a = analyze_moves(
            p.board,
            &midgame_limits(effort, p.board, effort.max_depth, share),
            setup,
            stop,
            &mut Unobserved,
            None,
        );
        pool_used += a.nodes;
        budget.used += a.nodes;
        judged[k] = Some(a);
    }

    // 3. Re-checks of the first pass's mistakes, game order, the rest of the budget shared
    // evenly.
    let flagged: Vec<usize> = open
        .iter()
        .copied()
        .filter(|&k| {
            judged[k].as_ref().is_some_and(|a| {
                first_pass_loss(a, plies[k].mv).is_some_and(|l| l >= effort.recheck_loss)
            })
        })
        .collect();
    let mut recheck: Vec<Option<Analysis>> = plies.iter().map(|_| None).collect();
    for (i, &k) in flagged.iter().enumerate() {
        if stopped() {
            complete = false;
            break;
        }
        let p = &plies[k];
        let Some(first) = judged[k].as_ref() else {
            continue;
        };
        let (Some(best), Some(played)) = (first.best(), first.value_of(p.mv)) else {
            continue;
        };
        if best.exact && played.exact {
            continue;
        }
        let depth = best.depth.min(played.depth) + effort.recheck_plies;
        let share = budget.left() / (flagged.len() - i) as u64;
        let a = analyze_moves(
            p.board,
            &midgame_limits(effort, p.board, depth, share),
            setup,
            stop,
            &mut Unobserved,
            Some(&[best.mv, p.mv]),
        );
        budget.used += a.nodes;
        let deep_enough = a.moves.len() == 2
            && a.moves
                .iter()
                .all(|m| m.exact || m.depth >= best.depth.min(played.depth));
        if deep_enough {
            recheck[k] = Some(a);
        }
    }

    let mut out = GameAnalysis {
        plies: Vec::with_capacity(plies.len()),
        nodes: budget.used,
        elapsed: Duration::ZERO,
        complete,
    };
    for (k, p) in plies.iter().enumerate() {
        let Some(a) = judged[k].as_ref() else {
            out.complete = false;
            continue;
        };
        // The re-check's values replace the first pass's for its two moves.
        let source = recheck[k].as_ref().unwrap_or(a);
        let (Some(best), Some(played)) = (source.best(), source.value_of(p.mv)) else {
            out.complete = false;
            continue;
        };
        let pv = if source.pv.first() == Some(&best.mv) {
            source.pv.clone()
        } else {
            vec![best.mv]
        };
        out.plies.push(PlyAnalysis {
            ply: p.ply,
            color: p.color,
            played: p.mv,
            played_value: played.value,
            best_move: best.mv,
            best_value: best.value,
            loss: (best.value - played.value).max(0.0),
            exact: best.exact && played.exact,
            depth: best.depth.min(played.depth),
            book: best.book && played.book,
            pv,
        });
    }
    out.complete &= !stopped();
    out.elapsed = start.elapsed();
    out
}

/// The first pass's loss of `mv` (`None` when it has no value).
fn first_pass_loss(a: &Analysis, mv: Move) -> Option<f32> {
    let best = a.best()?;
    let played = a.value_of(mv)?;
    (!best.book || !played.book).then_some(best.value - played.value)
}

/// Limits of a selective search of `board` to `depth` within `nodes` (never a solve of a
/// position with more empties than the review solves: its depth stops one short of the end).
fn midgame_limits(effort: &ReviewEffort, board: Board, depth: u32, nodes: u64) -> Limits {
    let short_of_end = board.empty_count().saturating_sub(1).max(1);
    Limits {
        depth: Some(depth.min(short_of_end)),
        nodes: Some(nodes),
        exact_empties: Some(effort.exact_empties),
        selectivity: Some(Selectivity::DEFAULT),
        ..Limits::default()
    }
}
