//! The two players.

use std::fmt;
use std::ops::Not;

/// Black or White. Black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Color {
    Black,
    White,
}

impl Color {
    /// The other player.
    #[inline]
    pub const fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `"Black"` or `"White"`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "Black",
            Color::White => "White",
        }
    }

    /// The board-string character: `X` for Black, `O` for White.
    pub const fn disc_char(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }

    /// Parses a side-to-move token: `X`, `*`, `B`, `black` / `O`, `W`, `white` (any case).
    pub fn from_side_token(s: &str) -> Option<Color> {
        match s.to_ascii_lowercase().as_str() {
            "x" | "*" | "b" | "black" => Some(Color::Black),
            "o" | "w" | "white" => Some(Color::White),
            _ => None,
        }
    }
}

impl Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        self.opposite()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
