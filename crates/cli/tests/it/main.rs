//! The command line's integration tests, one binary (one link instead of one per file); most
//! run the `virada` binary cargo built for them.

mod common;

mod admin;
mod bench_signature;
mod book;
mod coach;
mod db;
mod default_evaluation;
mod gtp;
mod match_external;
mod multi_instance;
mod nboard;
mod position_args;
mod serve_kill;
mod show_replay;
