//! virada-engine (under construction).
pub mod explain;
