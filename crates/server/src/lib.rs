//! virada-server (under construction).
