//! XOT opening lists: one opening a line, 8 moves from the standard start written as 16
//! characters (`f5d6c4d3c2b3b4b5`). Blank lines and lines starting with `#` or `%` are skipped.
//!
//! ```
//! use virada_rules::formats::xot::{read_xot, write_xot};
//! use virada_rules::Color;
//! let list = read_xot("f5d6c4d3c2b3b4b5\n# comment\nf5f4g3g6f3g4e3e2\n").unwrap();
//! assert_eq!(list.len(), 2);
//! let p = list[0].position();
//! assert_eq!((p.black().count() + p.white().count(), p.side_to_move()), (12, Color::Black));
//! assert_eq!(write_xot(&list), "f5d6c4d3c2b3b4b5\nf5f4g3g6f3g4e3e2\n");
//! ```

use super::transcript::Transcript;
use super::{Format, FormatError};
use crate::{Game, Move, Position, Square};
use std::fmt;
use std::str::FromStr;

/// Number of moves in an XOT opening.
pub const XOT_PLIES: usize = 8;

/// An 8-move opening from the standard start, known to be legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct XotOpening {
    moves: [Square; XOT_PLIES],
    position: Position,
}

impl XotOpening {
    /// The opening of these 8 moves, if they are legal from the start without a pass.
    pub fn new(moves: [Square; XOT_PLIES]) -> Result<XotOpening, FormatError> {
        let mut pos = Position::start();
        for (i, sq) in moves.iter().enumerate() {
            pos = pos
                .play(Move::Play(*sq))
                .map_err(|e| FormatError::new(Format::Xot, format!("{sq}: {e}")).at_ply(i + 1))?;
        }
        Ok(XotOpening {
            moves,
            position: pos,
        })
    }

    /// The 8 moves.
    pub fn moves(&self) -> &[Square; XOT_PLIES] {
        &self.moves
    }

    /// The position after the opening (Black to move, unless a pass is due).
    pub fn position(&self) -> Position {
        self.position
    }

    /// A game from the standard start with the 8 moves played.
    pub fn game(&self) -> Game {
        Game::from_moves(Position::start(), self.moves.map(Move::Play))
            .expect("checked when the opening was made")
    }
}

impl fmt::Display for XotOpening {
    /// The 16-character form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.moves.iter().try_for_each(|sq| write!(f, "{sq}"))
    }
}

impl FromStr for XotOpening {
    type Err = FormatError;

    /// Any transcript spelling of exactly 8 legal moves without passes.
    fn from_str(s: &str) -> Result<XotOpening, FormatError> {
        let t: Transcript = s.parse().map_err(|e: FormatError| FormatError {
            format: Format::Xot,
            ..e
        })?;
        let squares: Vec<Square> = t.moves().iter().filter_map(|m| m.square()).collect();
        if squares.len() != t.len() {
            return Err(FormatError::new(
                Format::Xot,
                "an XOT opening has no passes",
            ));
        }
        let moves: [Square; XOT_PLIES] = squares.try_into().map_err(|v: Vec<Square>| {
            FormatError::new(
                Format::Xot,
                format!("an XOT opening has {XOT_PLIES} moves, found {}", v.len()),
            )
        })?;
        XotOpening::new(moves)
    }
}

/// Reads an opening list; errors name the line (and the ply or column within it).
pub fn read_xot(text: &str) -> Result<Vec<XotOpening>, FormatError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with('%') {
            continue;
        }
        out.push(line.parse::<XotOpening>().map_err(|e| e.at_line(i + 1))?);
    }
    Ok(out)
}

/// Writes one opening a line.
pub fn write_xot(openings: &[XotOpening]) -> String {
    let mut s = String::with_capacity(openings.len() * 17);
    for o in openings {
        s.push_str(&o.to_string());
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_lines() {
        let e = read_xot("f5d6c4d3c2b3b4b5\nf5d6c4d3c2b3b4\n").unwrap_err();
        assert_eq!(e.location.line, Some(2));
        let e = read_xot("f5d6c4d3c2b3b4a1").unwrap_err();
        assert_eq!((e.location.line, e.location.ply), (Some(1), Some(8)));
        let e = read_xot("f5d6c4d3c2b3b4b5pa").unwrap_err();
        assert!(e.message.contains("passes"));
        let e = read_xot("f5d6c4d3c2b3b4b?").unwrap_err();
        assert_eq!(e.location.column, Some(16));
    }
}
