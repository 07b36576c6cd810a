//! The 64-character board string: squares a1, b1, ..., h1, a2, ..., h8, then the side to move.
//!
//! ```
//! use virada_rules::{Color, Position};
//! let p: Position = "---------------------------OX------XO--------------------------- X"
//!     .parse()
//!     .unwrap();
//! assert_eq!(p, Position::start());
//! let e = "---OX".parse::<Position>().unwrap_err();
//! assert_eq!(e.to_string(), "board string, column 6: expected 64 squares, found 5");
//! // A side after a space is the side: 63 squares and a side are not 64 squares.
//! let e = "---------------------------OX------XO-------------------------- X"
//!     .parse::<Position>()
//!     .unwrap_err();
//! assert!(e.to_string().contains("expected 64 squares before the side to move, found 63"));
//! ```

use super::{Format, FormatError};
use crate::{Color, Position, Square};
use std::fmt;
use std::str::FromStr;

/// A malformed board string, with the 1-based character column of the problem and, for a bad
/// square, which square it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePositionError {
    /// 1-based character column of the problem in the input.
    pub column: usize,
    /// The square whose character is wrong, if the problem is one square.
    pub square: Option<Square>,
    pub message: String,
}

impl ParsePositionError {
    fn at(column: usize, message: impl Into<String>) -> ParsePositionError {
        ParsePositionError {
            column,
            square: None,
            message: message.into(),
        }
    }

    /// Moves the column by `offset` characters (for a board parsed out of a longer line).
    pub fn shift_column(mut self, offset: usize) -> ParsePositionError {
        self.column += offset;
        self
    }
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "board string, column {}", self.column)?;
        if let Some(sq) = self.square {
            write!(f, ", square {sq}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ParsePositionError {}

impl From<ParsePositionError> for FormatError {
    fn from(e: ParsePositionError) -> FormatError {
        let err = FormatError::new(Format::BoardString, e.message).at_column(e.column);
        match e.square {
            Some(sq) => err.at_square(sq),
            None => err,
        }
    }
}

/// What a board-string character stands for, if it is one.
fn square_char(ch: char) -> Option<Option<Color>> {
    match ch {
        'X' | 'x' | '*' | 'b' | 'B' => Some(Some(Color::Black)),
        'O' | 'o' | 'w' | 'W' | '0' => Some(Some(Color::White)),
        '-' | '.' | '_' | 'e' | 'E' => Some(None),
        _ => None,
    }
}

/// Parses the 64 squares of a board string starting at the beginning of `s`; returns the
/// (black, white) bitboards and the byte offset just after the 64th square. Whitespace between
/// squares is skipped. `X`/`x`/`*`/`b`/`B` are black, `O`/`o`/`0`/`w`/`W` white,
/// `-`/`.`/`_`/`e`/`E` empty.
pub fn parse_squares(s: &str) -> Result<(u64, u64, usize), ParsePositionError> {
    let mut black = 0u64;
    let mut white = 0u64;
    let mut n = 0u8;
    for (i, ch) in s.char_indices() {
        if n == 64 {
            return Ok((black, white, i));
        }
        if ch.is_whitespace() {
            continue;
        }
        match square_char(ch) {
            Some(Some(Color::Black)) => black |= 1u64 << n,
            Some(Some(Color::White)) => white |= 1u64 << n,
            Some(None) => {}
            None => {
                return Err(ParsePositionError {
                    column: s[..i].chars().count() + 1,
                    square: Square::from_index(n),
                    message: format!(
                    "{ch:?} is not X, O or - (black, white, empty; also *, x, b / o, w, 0 / ., _)"
                ),
                })
            }
        }
        n += 1;
    }
    if n == 64 {
        Ok((black, white, s.len()))
    } else {
        Err(ParsePositionError::at(
            s.chars().count() + 1,
            format!("expected 64 squares, found {n}"),
        ))
    }
}

/// Where the side to move is written: a last word after a space that names a side (`X`, `O`,
/// `black`, ...). Returns the byte offset of that word and the side.
pub(crate) fn trailing_side(s: &str) -> Option<(usize, Color)> {
    let trimmed = s.trim_end();
    let (space_at, space) = trimmed.char_indices().rfind(|(_, c)| c.is_whitespace())?;
    let word_at = space_at + space.len_utf8();
    let word = &trimmed[word_at..];
    let side = Color::from_side_token(word)?;
    // Only a word after the squares: something must come before it.
    (!trimmed[..word_at].trim().is_empty()).then_some((word_at, side))
}

/// Parses a whole board string: 64 squares, then the side to move if it is written. A side
/// written after a space is always the side, never a 64th square: 63 squares and ` X` is an
/// error, not a board with a black disc on h8.
pub fn parse_board_and_side(s: &str) -> Result<(u64, u64, Option<Color>), ParsePositionError> {
    if let Some((word_at, side)) = trailing_side(s) {
        let squares = &s[..word_at];
        let (black, white, end) = parse_squares(squares).map_err(|e| {
            if e.square.is_none() {
                let found = e.message.trim_start_matches("expected 64 squares, found ");
                ParsePositionError::at(
                    e.column,
                    format!(
                        "expected 64 squares before the side to move, found {found} \
                         (a board string is 64 squares a1..h8, a space, then X or O)"
                    ),
                )
            } else {
                e
            }
        })?;
        let extra = squares[end..].trim_start();
        if !extra.is_empty() {
            let at = squares.len() - extra.len();
            return Err(ParsePositionError::at(
                squares[..at].chars().count() + 1,
                "more than 64 squares before the side to move",
            ));
        }
        return Ok((black, white, Some(side)));
    }
    let (black, white, rest_at) = parse_squares(s)?;
    let rest = s[rest_at..].trim();
    if rest.is_empty() {
        return Ok((black, white, None));
    }
    let lead = s[rest_at..].len() - s[rest_at..].trim_start().len();
    let column = s[..rest_at + lead].chars().count() + 1;
    if let Some(side) = Color::from_side_token(rest) {
        // Written straight after the 64th square, like `...--X`.
        return Ok((black, white, Some(side)));
    }
    let message = if rest
        .chars()
        .all(|c| square_char(c).is_some() || c.is_whitespace())
    {
        "more than 64 squares".to_string()
    } else {
        format!("side to move {rest:?} is not X/O/black/white")
    };
    Err(ParsePositionError::at(column, message))
}

/// Writes the 64 squares with the given characters for black, white and empty.
pub fn write_squares(pos: &Position, black: char, white: char, empty: char) -> String {
    Square::all()
        .map(|sq| match pos.color_at(sq) {
            Some(Color::Black) => black,
            Some(Color::White) => white,
            None => empty,
        })
        .collect()
}

impl fmt::Display for Position {
    /// `X` black, `O` white, `-` empty, a space, then `X` or `O` for the side to move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&write_squares(self, 'X', 'O', '-'))?;
        write!(f, " {}", self.side_to_move().disc_char())
    }
}

impl FromStr for Position {
    type Err = ParsePositionError;

    /// 64 squares then the side to move (`X`/`O`/`black`/`white`...). A missing side means Black.
    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        let (black, white, side) = parse_board_and_side(s)?;
        // The parser sets each square in exactly one of the two masks.
        Position::from_colors(black, white, side.unwrap_or(Color::Black))
            .ok_or_else(|| ParsePositionError::at(1, "a square holds two discs"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_say_where() {
        let e = "--------?".parse::<Position>().unwrap_err();
        assert_eq!(e.column, 9);
        let s = format!("{} Q", "-".repeat(64));
        let e = s.parse::<Position>().unwrap_err();
        assert_eq!(e.column, 66);
        let s = format!("{}  white", "-".repeat(64));
        assert_eq!(s.parse::<Position>().unwrap().side_to_move(), Color::White);
    }

    #[test]
    fn a_side_after_a_space_is_never_a_square() {
        let start = Position::start().to_string();
        // Drop a1: 63 squares, a space, X.
        let short = &start[1..];
        let e = short.parse::<Position>().unwrap_err();
        assert!(e.message.contains("found 63"), "{e}");
        let e = format!("-{start}").parse::<Position>().unwrap_err();
        assert!(e.message.contains("more than 64"), "{e}");
        // Rows separated by spaces still read, with or without a side.
        let rows: Vec<&str> = (0..8).map(|r| &start[r * 8..r * 8 + 8]).collect();
        assert_eq!(
            rows.join(" ").parse::<Position>().unwrap(),
            Position::start()
        );
        let white = format!("{} O", rows.join("\n"));
        assert_eq!(
            white.parse::<Position>().unwrap().side_to_move(),
            Color::White
        );
        // The side may follow the squares without a space.
        assert_eq!(
            start.replace(' ', "").parse::<Position>().unwrap(),
            Position::start()
        );
    }

    #[test]
    fn a_bad_square_is_named() {
        let mut s = Position::start().to_string();
        s.replace_range(9..10, "Z");
        let e = s.parse::<Position>().unwrap_err();
        assert_eq!(e.square, Some(Square::B2));
        assert_eq!(e.column, 10);
        assert!(
            e.to_string()
                .starts_with("board string, column 10, square b2: 'Z' is not X, O or -"),
            "{e}"
        );
    }
}
