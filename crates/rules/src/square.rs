//! Squares of the board, `a1` (top-left) to `h8` (bottom-right).

use std::fmt;
use std::str::FromStr;

/// One of the 64 squares. Index = `row * 8 + column`, so `a1` = 0, `h1` = 7, `a8` = 56, `h8` = 63.
///
/// ```
/// use virada_rules::Square;
/// let sq: Square = "d3".parse().unwrap();
/// assert_eq!(sq.column(), 3);
/// assert_eq!(sq.row(), 2);
/// assert_eq!(sq.to_string(), "d3");
/// assert_eq!("D3".parse::<Square>().unwrap(), sq);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    pub const A1: Square = Square(0);
    pub const H1: Square = Square(7);
    pub const A8: Square = Square(56);
    pub const H8: Square = Square(63);

    /// The square with this index (0..64), or `None`.
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with this index. The caller guarantees `index < 64` (checked in debug builds).
    #[inline]
    pub const fn from_index(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index & 63)
    }

    /// The square at `column` (0 = a) and `row` (0 = row 1, the top), or `None` if off the board.
    pub const fn from_coords(column: u8, row: u8) -> Option<Square> {
        if column < 8 && row < 8 {
            Some(Square(row * 8 + column))
        } else {
            None
        }
    }

    /// Index 0..64.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Column 0..8 (`a` = 0).
    #[inline]
    pub const fn column(self) -> u8 {
        self.0 & 7
    }

    /// Row 0..8 (row `1`, the top, = 0).
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 >> 3
    }

    /// The single-bit mask of this square.
    #[inline]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// All 64 squares in index order (a1, b1, ..., h1, a2, ..., h8).
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// Column letter, `'a'..='h'`.
    pub const fn column_char(self) -> char {
        (b'a' + self.column()) as char
    }

    /// Row digit, `'1'..='8'`.
    pub const fn row_char(self) -> char {
        (b'1' + self.row()) as char
    }

    /// Parses exactly two bytes like `d3` / `D3`.
    pub fn from_ascii(s: &[u8]) -> Result<Square, ParseSquareError> {
        if s.len() != 2 {
            return Err(ParseSquareError {
                input: String::from_utf8_lossy(s).into_owned(),
            });
        }
        let c = s[0].to_ascii_lowercase();
        let r = s[1];
        if (b'a'..=b'h').contains(&c) && (b'1'..=b'8').contains(&r) {
            Ok(Square((r - b'1') * 8 + (c - b'a')))
        } else {
            Err(ParseSquareError {
                input: String::from_utf8_lossy(s).into_owned(),
            })
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.column_char(), self.row_char())
    }
}

/// A square name that is not `a1`..`h8`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError {
    pub input: String,
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a square: expected a column a-h and a row 1-8, like d3",
            self.input
        )
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::from_ascii(s.trim().as_bytes())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Square {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Square, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_all_squares() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>().unwrap(), sq);
        }
        assert_eq!(Square::A1.to_string(), "a1");
        assert_eq!(Square::H8.to_string(), "h8");
        assert_eq!(Square::H1.to_string(), "h1");
    }

    #[test]
    fn rejects_bad_names() {
        for bad in ["", "a", "a0", "a9", "i1", "aa", "d33", "3d"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }
}
