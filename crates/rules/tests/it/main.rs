//! The rules crate's integration tests, one binary (one link instead of one per file).

mod common;

mod data_ffo;
mod data_wthor;
mod data_xot;
mod differential;
mod no_panic;
mod perft;
mod position_input;
mod properties;
mod roundtrip;
