//! virada-engine (under construction).

pub mod tt;
