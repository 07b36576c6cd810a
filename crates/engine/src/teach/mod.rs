//! The facts every teaching sentence is written from, and the words that say them.
//!
//! Lessons, the coach and puzzle feedback quote counts about a move: the discs it flips, the
//! opponent's moves after it, the frontier it makes, the stable discs it adds, the size and
//! parity of the empty region it is played in, whether the opponent must pass. [`MoveFacts`]
//! counts them once with the rules; [`lang`] holds the plural rule and the words shared by every
//! sentence ("1 move"/"2 moves", "passa" in a pt-BR line); [`lesson`] writes the strategy lessons'
//! feedback, choosing "only", "odd", "even", "no move" from the facts and never from a template.

pub mod facts;
pub mod lang;
pub mod lesson;
pub mod puzzle;

pub use facts::MoveFacts;
pub use lang::Lang;
