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
/// The trained pattern evaluation ([`pattern_eval::trained`]: the shipped weights, or the
/// file named by `VIRADA_WEIGHTS`; a gen3 file there selects gen3, e.g. to time it in
/// `virada bench search`); if the weights cannot be loaded, [`EvalV1`], with a message on
/// standard error saying why (once per process).
pub fn default_evaluator() -> Arc<dyn Evaluator> {
    let loaded: Result<Arc<dyn Evaluator>, String> = match gen3_from_env() {
        Some(r) => r,
        None => pattern_eval::trained().map(|e| e as Arc<dyn Evaluator>),
    };
    match loaded {
        Ok(e) => e,
        Err(why) => {
            static WARNED: std::sync::Once = std::sync::Once::new();
            WARNED.call_once(|| {
                eprintln!("virada: trained evaluation unavailable ({why}); using evaluation v1")
            });
            Arc::new(EvalV1::new())
        }
    }
}

/// The gen3 evaluation of the file `VIRADA_WEIGHTS` names, if it names a gen3 file (loaded
/// once per process); `None` when the variable is unset or names another generation's file.
fn gen3_from_env() -> Option<Result<Arc<dyn Evaluator>, String>> {
    static LOADED: std::sync::OnceLock<Option<Result<Arc<dyn Evaluator>, String>>> =
        std::sync::OnceLock::new();
    LOADED
        .get_or_init(|| {
            let path = std::env::var_os(pattern_eval::WEIGHTS_ENV)?;
            // Unreadable: the gen2 loader reports it.
            let Ok(bytes) = std::fs::read(&path) else {
                return None;
            };
            (gen3::weights::header_version(&bytes) == Some(gen3::weights::FORMAT_VERSION)).then(
                || {
                    gen3::weights::Gen3Weights::from_bytes(&bytes)
                        .map(|w| Arc::new(gen3::Gen3Eval::new(w)) as Arc<dyn Evaluator>)
                        .map_err(|e| format!("{}: {e}", pattern_eval::WEIGHTS_ENV))
                },
            )
        })
        .clone()
}

/// The exact value of a finished board (neither side can move), in evaluation units.
#[inline]
pub fn final_value(board: &Board) -> i32 {
    board.final_score() * SCALE
}
