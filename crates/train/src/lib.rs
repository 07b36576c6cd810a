//! # virada-train
//!
//! Training of the engine's evaluation (gen3): labelled positions (self-play games labelled by
//! our own exact solver and searches, WTHOR tournament games), their binary data-set format,
//! the minibatch fitter that produces the weights file shipped in `crates/engine/weights/`, the
//! accuracy benchmarks and the Multi-ProbCut fit. See `docs/TRAINING.md`.
#![forbid(unsafe_code)]

pub mod accuracy;
pub mod datagen;
pub mod dataset;
pub mod explorer_build;
pub mod fit3;
pub mod mpc_fit;
pub mod progress;
pub mod samples;
pub mod wthor;
