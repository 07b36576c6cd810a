//! virada-engine (under construction).

pub mod tt;
pub mod endgame;
