//! Puzzles: positions from real and self-played games where exactly one move keeps the best
//! result, proven by the exact solver (endgame) or by a deep search with a margin (midgame).
//!
//! - [`Puzzle`]: the start position, the solution line, the score of every legal move (solution
//!   first), kind, themes and a Glicko-2 [`Rating`];
//! - [`find`]: finding endgame puzzles in a game's positions ([`Finder`]);
//! - [`midgame`]: finding midgame puzzles by a deep search with a margin ([`MidgameFinder`]);
//! - [`themes`]: themes named by the coach ([`crate::coach`]) comparing the runner-up move with
//!   the solution;
//! - [`difficulty`]: the initial rating model; [`glicko`]: the Glicko-2 rating system (the
//!   engine's [`crate::glicko`], shared with the server's player ratings);
//! - [`format`]: the one-line text format of the shipped file, with a parser;
//! - [`verify`]: re-proving a puzzle with the solver;
//! - [`selfplay`]: self-played games to draw more positions from.

pub mod difficulty;
pub mod find;
pub mod format;
pub use crate::glicko;
pub mod midgame;
mod puzzle;
pub mod selfplay;
pub mod themes;
pub mod verify;

pub use find::{Finder, FinderConfig};
pub use format::{parse_puzzle_file, ParsePuzzleError, PuzzleFileError};
pub use glicko::Rating;
pub use midgame::{MidgameConfig, MidgameFinder, MidgameVerifyError};
pub use puzzle::{Puzzle, PuzzleKind, Theme};
pub use verify::{verify, VerifyError};

/// The shipped puzzles: endgame ones (`crates/engine/data/puzzles.txt`) then midgame ones
/// (`crates/engine/data/puzzles-midgame.txt`), parsed once.
pub fn shipped() -> &'static [Puzzle] {
    static LOADED: std::sync::OnceLock<Vec<Puzzle>> = std::sync::OnceLock::new();
    LOADED.get_or_init(|| {
        let mut all = parse_puzzle_file(include_str!("../../data/puzzles.txt"))
            .unwrap_or_else(|e| panic!("crates/engine/data/puzzles.txt: {e}"));
        all.extend(
            parse_puzzle_file(include_str!("../../data/puzzles-midgame.txt"))
                .unwrap_or_else(|e| panic!("crates/engine/data/puzzles-midgame.txt: {e}")),
        );
        all
    })
}
