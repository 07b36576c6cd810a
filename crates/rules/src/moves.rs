//! A move: a square or a pass.

use crate::Square;
use std::fmt;
use std::str::FromStr;

/// A move: put a disc on a square, or pass (only when no square is legal).
///
/// ```
/// use virada_rules::Move;
/// assert_eq!("d3".parse::<Move>().unwrap().to_string(), "d3");
/// assert_eq!("PA".parse::<Move>().unwrap(), Move::Pass);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    Play(Square),
    Pass,
}

impl Move {
    /// The square, if this is not a pass.
    pub const fn square(self) -> Option<Square> {
        match self {
            Move::Play(sq) => Some(sq),
            Move::Pass => None,
        }
    }
}

/// Moves (or squares) as one line of text, space-separated, passes as `pass`.
///
/// ```
/// use virada_rules::{moves::spaced, Move};
/// let line: Vec<Move> = vec!["d3".parse().unwrap(), Move::Pass, "c5".parse().unwrap()];
/// assert_eq!(spaced(&line), "d3 pass c5");
/// ```
pub fn spaced<T: fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    let mut out = String::new();
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&item.to_string());
    }
    out
}

impl From<Square> for Move {
    fn from(sq: Square) -> Move {
        Move::Play(sq)
    }
}

impl fmt::Display for Move {
    /// A square like `d3`, or `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Play(sq) => write!(f, "{sq}"),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// Text that is neither a square nor a pass token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError {
    pub input: String,
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a move: expected a square like d3, or pass (pa, ps, --)",
            self.input
        )
    }
}

impl std::error::Error for ParseMoveError {}

/// Whether `s` is one of the pass spellings: `pass`, `pa`, `ps`, `--`, `@@` (any case).
pub fn is_pass_token(s: &str) -> bool {
    matches!(
        s.to_ascii_lowercase().as_str(),
        "pass" | "pa" | "ps" | "--" | "@@"
    )
}

impl FromStr for Move {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let t = s.trim();
        if is_pass_token(t) {
            return Ok(Move::Pass);
        }
        t.parse::<Square>()
            .map(Move::Play)
            .map_err(|_| ParseMoveError {
                input: s.to_string(),
            })
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Move {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Move {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Move, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}
