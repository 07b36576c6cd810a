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
    /// The square with this index (0..64), or `None` for any other index (in every build).
    ///
    /// ```
    /// use virada_rules::Square;
    /// assert_eq!(Square::from_index(63), Some(Square::H8));
    /// assert_eq!(Square::from_index(64), None);
    /// ```
    #[inline]
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with this index, for hot paths where the index comes from a bit scan of a
    /// non-empty mask. The caller guarantees `index < 64`: a debug build panics otherwise, and
    /// a release build keeps the low six bits (a wrong square, never undefined behaviour).
    #[inline]
    pub const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!(index < 64, "square index out of range");
        Square(index & 63)
    }

    /// The lowest square of a non-empty mask (the caller guarantees `mask != 0`; an empty mask
    /// gives `a1` in a release build and panics in a debug build).
    #[inline]
    pub const fn lowest_of(mask: u64) -> Square {
        debug_assert!(mask != 0, "lowest square of an empty mask");
        Square(mask.trailing_zeros() as u8 & 63)
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

/// Declares `Square::A1` ... `Square::H8`.
macro_rules! square_consts {
    ($($name:ident = $index:expr,)*) => {
        impl Square {
            $(
                #[doc = concat!("The square ", stringify!($name), ".")]
                pub const $name: Square = Square($index);
            )*
        }
    };
}

square_consts! {
    A1 = 0,
    B1 = 1,
    C1 = 2,
    D1 = 3,
    E1 = 4,
    F1 = 5,
    G1 = 6,
    H1 = 7,
    A2 = 8,
    B2 = 9,
    C2 = 10,
    D2 = 11,
    E2 = 12,
    F2 = 13,
    G2 = 14,
    H2 = 15,
    A3 = 16,
    B3 = 17,
    C3 = 18,
    D3 = 19,
    E3 = 20,
    F3 = 21,
    G3 = 22,
    H3 = 23,
    A4 = 24,
    B4 = 25,
    C4 = 26,
    D4 = 27,
    E4 = 28,
    F4 = 29,
    G4 = 30,
    H4 = 31,
    A5 = 32,
    B5 = 33,
    C5 = 34,
    D5 = 35,
    E5 = 36,
    F5 = 37,
    G5 = 38,
    H5 = 39,
    A6 = 40,
    B6 = 41,
    C6 = 42,
    D6 = 43,
    E6 = 44,
    F6 = 45,
    G6 = 46,
    H6 = 47,
    A7 = 48,
    B7 = 49,
    C7 = 50,
    D7 = 51,
    E7 = 52,
    F7 = 53,
    G7 = 54,
    H7 = 55,
    A8 = 56,
    B8 = 57,
    C8 = 58,
    D8 = 59,
    E8 = 60,
    F8 = 61,
    G8 = 62,
    H8 = 63,
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
    fn from_index_checks_the_range() {
        for i in 0..=255u8 {
            assert_eq!(Square::from_index(i).is_some(), i < 64, "{i}");
        }
        assert_eq!(Square::from_index_unchecked(27).to_string(), "d4");
        assert_eq!(Square::lowest_of(0b1000), Square::from_index(3).unwrap());
    }

    #[test]
    fn rejects_bad_names() {
        for bad in ["", "a", "a0", "a9", "i1", "aa", "d33", "3d"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }
}
