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
//! ```

use super::{Format, FormatError};
use crate::{Color, Position, Square};
use std::fmt;
use std::str::FromStr;

/// A malformed board string, with the 1-based character column of the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePositionError {
    /// 1-based character column of the problem in the input.
    pub column: usize,
    pub message: String,
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "board string, column {}: {}", self.column, self.message)
    }
}

impl std::error::Error for ParsePositionError {}

impl From<ParsePositionError> for FormatError {
    fn from(e: ParsePositionError) -> FormatError {
        FormatError::new(Format::BoardString, e.message).at_column(e.column)
    }
}

/// Parses the 64 squares of a board string starting at the beginning of `s`; returns the
/// (black, white) bitboards and the byte offset just after the 64th square. Whitespace between
/// squares is skipped. `X`/`x`/`*`/`b`/`B` are black, `O`/`o`/`0`/`w`/`W` white,
/// `-`/`.`/`_`/`e`/`E` empty.
pub fn parse_squares(s: &str) -> Result<(u64, u64, usize), ParsePositionError> {
    let mut black = 0u64;
    let mut white = 0u64;
    let mut n = 0usize;
    for (i, ch) in s.char_indices() {
        if n == 64 {
            return Ok((black, white, i));
        }
        match ch {
            'X' | 'x' | '*' | 'b' | 'B' => black |= 1u64 << n,
            'O' | 'o' | 'w' | 'W' | '0' => white |= 1u64 << n,
            '-' | '.' | '_' | 'e' | 'E' => {}
            c if c.is_whitespace() => continue,
            c => {
                return Err(ParsePositionError {
                    column: s[..i].chars().count() + 1,
                    message: format!(
                        "unexpected {c:?} at square {}: use X/*/x/b for black, O/o/w for white, -/. for empty",
                        Square::from_index_unchecked(n as u8)
                    ),
                })
            }
        }
        n += 1;
    }
    if n == 64 {
        Ok((black, white, s.len()))
    } else {
        Err(ParsePositionError {
            column: s.chars().count() + 1,
            message: format!("expected 64 squares, found {n}"),
        })
    }
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
        let (black, white, rest_at) = parse_squares(s)?;
        let rest = s[rest_at..].trim();
        let side = if rest.is_empty() {
            Color::Black
        } else {
            Color::from_side_token(rest).ok_or_else(|| ParsePositionError {
                column: s[..rest_at].chars().count()
                    + 1
                    + (s[rest_at..].chars().count() - s[rest_at..].trim_start().chars().count()),
                message: format!("side to move {rest:?} is not X/O/black/white"),
            })?
        };
        // The parser sets each square in exactly one of the two masks.
        match Position::from_colors(black, white, side) {
            Some(p) => Ok(p),
            None => Err(ParsePositionError {
                column: 1,
                message: "a square holds two discs".into(),
            }),
        }
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
}
