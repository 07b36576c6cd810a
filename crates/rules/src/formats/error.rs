//! The error type shared by every format reader: what went wrong and where.

use crate::Square;
use std::fmt;

/// The file or text format an error comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// A move list such as `f5d6c3` or `1. f5 2. d6`.
    Transcript,
    /// The 64-character board string plus side to move.
    BoardString,
    /// Othello Board Format lines (`<board> <side>; MOVE:score; ...`).
    Obf,
    /// Generic Game Format records `(;GM[Othello]...;)`.
    Ggf,
    /// The WTHOR binary database (`.wtb`, `WTH.JOU`, `WTH.TRN`).
    Wthor,
    /// XOT opening lists, one opening a line.
    Xot,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Transcript => "transcript",
            Format::BoardString => "board string",
            Format::Obf => "OBF",
            Format::Ggf => "GGF",
            Format::Wthor => "WTHOR",
            Format::Xot => "XOT",
        })
    }
}

/// Where in the input a problem is. Every field is 1-based; unknown parts are `None`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Location {
    /// Game (record) number in a file holding several games.
    pub game: Option<usize>,
    /// Line number in a text file.
    pub line: Option<usize>,
    /// Character column within the line (or within the whole text when there are no lines).
    pub column: Option<usize>,
    /// The square of a board whose character is wrong.
    pub square: Option<Square>,
    /// Ply of the game (passes included).
    pub ply: Option<usize>,
    /// Byte offset in a binary file (0-based, like a hex dump).
    pub byte: Option<usize>,
}

impl Location {
    /// Whether nothing is known about the place.
    pub fn is_unknown(&self) -> bool {
        *self == Location::default()
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts = [
            self.game.map(|g| format!("game {g}")),
            self.line.map(|l| format!("line {l}")),
            self.column.map(|c| format!("column {c}")),
            self.square.map(|s| format!("square {s}")),
            self.ply.map(|p| format!("ply {p}")),
            self.byte.map(|b| format!("byte {b}")),
        ];
        let mut first = true;
        for p in parts.into_iter().flatten() {
            if !first {
                f.write_str(", ")?;
            }
            f.write_str(&p)?;
            first = false;
        }
        Ok(())
    }
}

/// A malformed or illegal input, with the format, the place and a readable message.
///
/// ```
/// use virada_rules::formats::{Format, FormatError};
/// let e = FormatError::new(Format::Obf, "missing side to move").at_line(3).at_column(66);
/// assert_eq!(e.to_string(), "OBF line 3, column 66: missing side to move");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    pub format: Format,
    pub location: Location,
    pub message: String,
}

impl FormatError {
    /// An error with no location yet.
    pub fn new(format: Format, message: impl Into<String>) -> FormatError {
        FormatError {
            format,
            location: Location::default(),
            message: message.into(),
        }
    }

    /// Sets the game (record) number, 1-based.
    pub fn at_game(mut self, game: usize) -> FormatError {
        self.location.game = Some(game);
        self
    }

    /// Sets the line number, 1-based.
    pub fn at_line(mut self, line: usize) -> FormatError {
        self.location.line = Some(line);
        self
    }

    /// Sets the character column, 1-based.
    pub fn at_column(mut self, column: usize) -> FormatError {
        self.location.column = Some(column);
        self
    }

    /// Sets the square of a board whose character is wrong.
    pub fn at_square(mut self, square: Square) -> FormatError {
        self.location.square = Some(square);
        self
    }

    /// Sets the ply, 1-based.
    pub fn at_ply(mut self, ply: usize) -> FormatError {
        self.location.ply = Some(ply);
        self
    }

    /// Sets the byte offset, 0-based.
    pub fn at_byte(mut self, byte: usize) -> FormatError {
        self.location.byte = Some(byte);
        self
    }

    /// Shifts the column by `offset` characters (for a field parsed out of a longer line).
    pub fn shift_column(mut self, offset: usize) -> FormatError {
        if let Some(c) = self.location.column.as_mut() {
            *c += offset;
        }
        self
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.location.is_unknown() {
            write!(f, "{}: {}", self.format, self.message)
        } else {
            write!(f, "{} {}: {}", self.format, self.location, self.message)
        }
    }
}

impl std::error::Error for FormatError {}
