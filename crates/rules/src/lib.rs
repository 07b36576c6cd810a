//! # virada-rules
//!
//! The complete rules of Reversi/Othello as played by the World Othello Federation, built on
//! 64-bit bitboards: squares (`a1` top-left), moves and flips, forced passes, the end of the game,
//! disc-count and WOF scoring, the 8 symmetries, hashing, perft, and the text and binary formats
//! that players and engines use.
//!
//! ```
//! use virada_rules::{Game, Move};
//! let mut game = Game::new();
//! for mv in ["f5", "d6", "c3"] {
//!     game.play(mv.parse::<Move>().unwrap()).unwrap();
//! }
//! assert_eq!(game.position().legal_moves().count(), 4);
//! ```

pub mod bitboard;
pub mod board;
pub mod color;
pub mod formats;
pub mod game;
pub mod hash;
pub mod masks;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod position;
pub mod score;
pub mod square;
pub mod symmetry;

pub use bitboard::Bitboard;
pub use board::Board;
pub use color::Color;
pub use game::{Game, PlayError, Status};
pub use moves::{Move, ParseMoveError};
pub use perft::{perft, perft_with, PerftMode};
pub use position::{IllegalMove, ParsePositionError, Position};
pub use score::{GameResult, Scoring};
pub use square::{ParseSquareError, Square};
pub use symmetry::Symmetry;
