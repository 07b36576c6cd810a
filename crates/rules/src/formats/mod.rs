//! Text and binary formats: transcripts, board strings, OBF, GGF, WTHOR and XOT lists, and
//! [`position_input`], which reads whichever of them a person pastes.
//!
//! Every reader returns a [`FormatError`] that says what is wrong and where (line, column,
//! game, ply or byte); no input makes a reader panic.

pub mod board_string;
pub mod error;
pub mod ggf;
pub mod obf;
pub mod position_input;
pub mod transcript;
pub mod wthor;
pub mod xot;

pub use error::{Format, FormatError, Location};
pub use position_input::{InputKind, ParseInputError, PositionInput};
