//! virada-engine (under construction).
