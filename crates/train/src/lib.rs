//! # virada-train
//!
//! Training of the engine's pattern evaluation: labelled positions (from WTHOR tournament games,
//! self-play and our own exact solver), their binary file format, and the least-squares fitter
//! that produces the weights file shipped in `crates/engine/weights/`. See `docs/TRAINING.md`.
#![forbid(unsafe_code)]

pub mod accuracy;
pub mod datagen;
pub mod dataset;
pub mod fit3;
pub mod mpc_fit;
pub mod progress;
pub mod samples;
pub mod wthor;
