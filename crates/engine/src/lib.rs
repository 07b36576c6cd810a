//! virada-engine (under construction).

// Temporary home until eval/mod.rs lands on main.
#[path = "eval/pattern.rs"]
pub mod pattern;
#[path = "eval/pattern_weights.rs"]
pub mod pattern_weights;
#[path = "eval/pattern_eval.rs"]
pub mod pattern_eval;
