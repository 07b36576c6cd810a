//! virada-engine: evaluation, search, endgame solver, levels and analysis.

pub mod eval;
pub mod tt;

pub use eval::{default_evaluator, Evaluator};
