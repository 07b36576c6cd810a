//! Position evaluation: the [`Evaluator`] interface and the hand-written evaluation v1.
//!
//! Every evaluator scores a [`Board`] from the side to move's point of view in **hundredths of a
//! disc** ([`SCALE`] units per disc): a value of `+350` predicts that the side to move finishes
//! 3.5 discs ahead (WOF final disc difference). Exact endgame scores use the same scale
//! (`disc difference * SCALE`), so search can mix heuristic and proven values.
//!
//! The search only sees `Arc<dyn Evaluator>`: a trained pattern evaluation can replace
//! [`v1::EvalV1`] without touching search, and v1 stays as fallback and baseline.

use std::sync::Arc;
use virada_rules::Board;

pub mod features;
pub mod gen3;
pub mod incremental;
pub mod lookup;
pub mod pattern;
pub mod pattern_eval;
pub mod pattern_state;
pub mod pattern_weights;
pub mod v1;

pub use v1::EvalV1;

/// Evaluation units per disc of final disc difference.
pub const SCALE: i32 = 100;

/// The largest value an evaluator may return (in absolute value): one unit below a proven
/// 64-disc win, so heuristic values never look like perfect wins.
pub const MAX_EVAL: i32 = 64 * SCALE - 1;

/// A static evaluation of positions.
///
/// Implementations must be pure (same board, same value), cheap (called at every leaf of the
/// search) and thread-safe (the search shares one evaluator among its threads).
///
/// ```
/// use virada_engine::eval::{Evaluator, EvalV1, SCALE};
/// use virada_rules::Board;
/// let eval = EvalV1::new();
/// let v = eval.evaluate(&Board::start());
/// assert!(v.abs() < 2 * SCALE); // the start is balanced
/// ```
pub trait Evaluator: Send + Sync {
    /// A short name for reports ("v1", "pattern-2026-11", ...).
    fn name(&self) -> &str;

    /// The value of `board` for the side to move, in [`SCALE`] units per disc, within
    /// `-MAX_EVAL..=MAX_EVAL`. The board may be one where the side to move must pass; it is
    /// never called on finished games (search scores those exactly).
    fn evaluate(&self, board: &Board) -> i32;

    /// This evaluator as the trained pattern evaluation, if it is one: the search then keeps
    /// the pattern indices incrementally ([`incremental::IncrementalEval`]) instead of calling
    /// [`Evaluator::evaluate`] at its leaves. The default, `None`, is right for every other
    /// evaluator, including wrappers that change the value.
    fn as_pattern_eval(&self) -> Option<&pattern_eval::PatternEval> {
        None
    }

    /// This evaluator as the gen3 evaluation, if it is one (the search then keeps its indices
    /// incrementally, like [`Evaluator::as_pattern_eval`]). Default `None`.
    fn as_gen3_eval(&self) -> Option<&gen3::Gen3Eval> {
        None
    }
}

/// The evaluator the engine uses when none is given: the best one available.
///
/// The weights file named by `VIRADA_WEIGHTS` when it is set (gen2 or gen3, told apart by the
/// header; e.g. to time or compare weights in `virada bench search`), else the shipped gen3
/// weights ([`gen3::shipped`]). Each step that cannot load falls back to the next, with a
/// message on standard error saying why (once per process): the file, the shipped gen3
/// weights, the shipped gen2 weights ([`pattern_eval::PatternEval::embedded`]), [`EvalV1`].
pub fn default_evaluator() -> Arc<dyn Evaluator> {
    static LOADED: std::sync::OnceLock<Arc<dyn Evaluator>> = std::sync::OnceLock::new();
    LOADED
        .get_or_init(|| {
            let Some(path) = std::env::var_os(pattern_eval::WEIGHTS_ENV) else {
                return gen3::shipped();
            };
            match gen3::load_weights_file(std::path::Path::new(&path)) {
                Ok(e) => e,
                Err(why) => {
                    eprintln!(
                        "virada: {}: {why}; using the shipped evaluation",
                        pattern_eval::WEIGHTS_ENV
                    );
                    gen3::shipped()
                }
            }
        })
        .clone()
}

/// The shipped gen2 evaluation, or [`EvalV1`] if its weights are refused (with a message on
/// standard error saying why): the last steps of [`default_evaluator`]'s fallback.
pub(crate) fn gen2_or_v1() -> Arc<dyn Evaluator> {
    match pattern_eval::PatternEval::embedded() {
        Ok(e) => Arc::new(e),
        Err(why) => {
            eprintln!("virada: shipped gen2 weights: {why}; using evaluation v1");
            Arc::new(EvalV1::new())
        }
    }
}

/// The exact value of a finished board (neither side can move), in evaluation units.
#[inline]
pub fn final_value(board: &Board) -> i32 {
    board.final_score() * SCALE
}
