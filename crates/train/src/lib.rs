//! virada-train (under construction).
