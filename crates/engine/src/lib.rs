//! virada-engine: evaluation, search, endgame solver, levels and analysis.
//!
//! The [`Engine`] facade is what applications use; the modules below are its parts.

mod analysis;
pub mod book;
pub mod book_build;
pub mod checksum;
pub mod coach;
pub mod endgame;
mod engine;
pub mod eval;
pub mod glicko;
pub mod levels;
mod observer;
pub mod random;
pub mod search;
pub mod teach;
pub mod time;
pub mod tt;

pub use analysis::{Analysis, GameAnalysis, MoveValue, PlyAnalysis, ReviewEffort};
pub use book::{Book, BookError, BookMove, BookProbe};
pub use engine::{Engine, EngineConfig};
pub use eval::{default_evaluator, Gen3Eval};
pub use levels::{BookUse, Level};
pub use search::{Iteration, Limits, Observer, SearchResult, Selectivity};
pub use time::Clock;
pub mod explorer;
pub mod opening_names;
pub mod openings;
pub mod puzzles;
