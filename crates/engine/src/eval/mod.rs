//! Position evaluation: the gen3 pattern evaluation ([`gen3::Gen3Eval`]), the only one the
//! engine has.
//!
//! An evaluation scores a [`Board`] from the side to move's point of view in **hundredths of a
//! disc** ([`SCALE`] units per disc): a value of `+350` predicts that the side to move finishes
//! 3.5 discs ahead (WOF final disc difference). Exact endgame scores use the same scale
//! (`disc difference * SCALE`), so search can mix heuristic and proven values.
//!
//! ```
//! use virada_engine::eval::{default_evaluator, SCALE};
//! use virada_rules::Board;
//! let v = default_evaluator().evaluate(&Board::start());
//! assert!(v.abs() < 2 * SCALE); // the start is balanced
//! ```

use std::sync::Arc;
use virada_rules::Board;

pub mod gen3;
pub mod incremental;
pub mod mpc;
pub mod weights_file;

pub use gen3::Gen3Eval;

/// Evaluation units per disc of final disc difference.
pub const SCALE: i32 = 100;

/// The largest value an evaluation may return (in absolute value): one unit below a proven
/// 64-disc win, so heuristic values never look like perfect wins.
pub const MAX_EVAL: i32 = 64 * SCALE - 1;

/// Environment variable naming a gen3 weights file to use instead of the shipped weights.
pub const WEIGHTS_ENV: &str = "VIRADA_WEIGHTS";

/// The evaluation the engine uses when none is given, loaded once per process: the gen3
/// weights file named by `VIRADA_WEIGHTS` when it is set (e.g. to time or compare weights in
/// `virada bench search`), else the shipped weights ([`gen3::shipped`]). A file that cannot be
/// used is reported on standard error (once per process, saying why) and the shipped weights
/// are used.
pub fn default_evaluator() -> Arc<Gen3Eval> {
    static LOADED: std::sync::OnceLock<Arc<Gen3Eval>> = std::sync::OnceLock::new();
    LOADED
        .get_or_init(|| {
            let Some(path) = std::env::var_os(WEIGHTS_ENV) else {
                return gen3::shipped();
            };
            match Gen3Eval::from_file(std::path::Path::new(&path)) {
                Ok(e) => Arc::new(e),
                Err(why) => {
                    eprintln!("virada: {WEIGHTS_ENV}: {why}; using the shipped evaluation");
                    gen3::shipped()
                }
            }
        })
        .clone()
}

/// The exact value of a finished board (neither side can move), in evaluation units.
#[inline]
pub fn final_value(board: &Board) -> i32 {
    board.final_score() * SCALE
}
