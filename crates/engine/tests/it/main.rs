//! The engine's integration tests, one binary (one link instead of one per file).

mod common;

mod book_levels;
mod endgame;
mod endgame_threads;
mod gen3_search;
mod puzzle_feedback;
mod puzzles;
mod review;
mod search;
