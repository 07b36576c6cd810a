//! Move transcripts: the move lists players write and paste.
//!
//! Accepted: compact `f5d6c3d3c4` (any case), moves separated by spaces, commas or semicolons,
//! explicit passes `pa` / `ps` / `pass` / `--`, and numbered lists such as `1. f5 2. d6` or
//! `1.f5 d6 2.c3` (the numbers are skipped). [`Transcript`] prints the compact form.
//!
//! ```
//! use virada_rules::formats::transcript::Transcript;
//! use virada_rules::Position;
//! let t: Transcript = "1. F5 2. d6, 3.c3".parse().unwrap();
//! assert_eq!(t.to_string(), "f5d6c3");
//! let game = t.replay(Position::start()).unwrap();
//! assert_eq!(game.ply(), 3);
//! let e = "f5 d6 x9".parse::<Transcript>().unwrap_err();
//! assert_eq!(e.to_string(), "transcript column 7: 'x' is not a column letter a-h or a pass");
//! ```

use super::{Format, FormatError};
use crate::{Game, IllegalMove, Move, Position, Square};
use std::fmt;
use std::str::FromStr;

/// A list of moves as written: squares and any explicit passes, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Transcript {
    moves: Vec<Move>,
}

impl Transcript {
    /// A transcript of these moves.
    pub fn new(moves: Vec<Move>) -> Transcript {
        Transcript { moves }
    }

    /// The squares a game played, without its passes (they are implied by the rules).
    pub fn from_game(game: &Game) -> Transcript {
        Transcript {
            moves: game
                .moves()
                .iter()
                .filter(|m| **m != Move::Pass)
                .copied()
                .collect(),
        }
    }

    /// The moves as written.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Number of moves written (explicit passes included).
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether no move is written.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Plays the moves from `start`. A pass the rules force is inserted when the transcript
    /// omits it; an explicit pass when a move exists, or an illegal square, is an error naming
    /// the game ply (passes included) and the move's number in the transcript.
    pub fn replay(&self, start: Position) -> Result<Game, FormatError> {
        let mut game = Game::from_position(start);
        for (i, &mv) in self.moves.iter().enumerate() {
            let err = |ply: usize, reason: IllegalMove| {
                FormatError::new(
                    Format::Transcript,
                    format!("move {} ({mv}): {reason}", i + 1),
                )
                .at_ply(ply)
            };
            if mv == Move::Pass {
                game.play(Move::Pass).map_err(|e| err(e.ply, e.reason))?;
            } else {
                game.pass_if_forced();
                game.play(mv).map_err(|e| err(e.ply, e.reason))?;
            }
        }
        Ok(game)
    }
}

impl fmt::Display for Transcript {
    /// Compact form: `f5d6c3`; explicit passes print as `pa`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for mv in &self.moves {
            match mv {
                Move::Play(sq) => write!(f, "{sq}")?,
                Move::Pass => f.write_str("pa")?,
            }
        }
        Ok(())
    }
}

fn error_at(column: usize, message: impl Into<String>) -> FormatError {
    FormatError::new(Format::Transcript, message).at_column(column)
}

impl FromStr for Transcript {
    type Err = FormatError;

    /// Parses any accepted spelling; errors carry the 1-based character column.
    fn from_str(s: &str) -> Result<Transcript, FormatError> {
        let chars: Vec<char> = s.chars().collect();
        let mut moves = Vec::new();
        let mut i = 0;
        let lower = |j: usize| chars.get(j).map(|c| c.to_ascii_lowercase());
        while i < chars.len() {
            let c = chars[i].to_ascii_lowercase();
            if c.is_whitespace() || c == ',' || c == ';' {
                i += 1;
            } else if c.is_ascii_digit() {
                // A move number: digits, then dots or ')' (or a separator / the end).
                let start = i;
                while lower(i).is_some_and(|d| d.is_ascii_digit()) {
                    i += 1;
                }
                let before_dots = i;
                while matches!(lower(i), Some('.') | Some(')')) {
                    i += 1;
                }
                let ends = match lower(i) {
                    None => true,
                    Some(n) => n.is_whitespace() || n == ',' || n == ';',
                };
                if i == before_dots && !ends {
                    return Err(error_at(
                        start + 1,
                        "a number here must be a move number like \"12.\"",
                    ));
                }
            } else if ('a'..='h').contains(&c) {
                match lower(i + 1) {
                    Some(r @ '1'..='8') => {
                        let row = r as u8 - b'1';
                        let col = c as u8 - b'a';
                        let sq = Square::from_coords(col, row).expect("a-h and 1-8 are on board");
                        moves.push(Move::Play(sq));
                        i += 2;
                    }
                    Some(r) => {
                        return Err(error_at(
                            i + 2,
                            format!("{r:?} after column {c:?} is not a row 1-8"),
                        ))
                    }
                    None => {
                        return Err(error_at(
                            i + 2,
                            format!("column {c:?} at the end lacks a row 1-8"),
                        ))
                    }
                }
            } else if c == 'p' {
                let word: String = chars[i..].iter().take(4).collect::<String>().to_lowercase();
                let len = if word == "pass" {
                    4
                } else if word.starts_with("pa") || word.starts_with("ps") {
                    2
                } else {
                    return Err(error_at(i + 1, "expected a pass: pa, ps or pass"));
                };
                moves.push(Move::Pass);
                i += len;
            } else if c == '-' {
                if lower(i + 1) != Some('-') {
                    return Err(error_at(i + 1, "a pass is written \"--\""));
                }
                moves.push(Move::Pass);
                i += 2;
            } else {
                return Err(error_at(
                    i + 1,
                    format!("{:?} is not a column letter a-h or a pass", chars[i]),
                ));
            }
        }
        Ok(Transcript { moves })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Vec<String> {
        let t: Transcript = s.parse().unwrap();
        t.moves().iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn spellings() {
        assert_eq!(parse("f5d6C3"), ["f5", "d6", "c3"]);
        assert_eq!(parse(" f5, d6 ; c3 "), ["f5", "d6", "c3"]);
        assert_eq!(parse("1. f5 2. d6 3. c3"), ["f5", "d6", "c3"]);
        assert_eq!(parse("1.f5 d6 2.c3"), ["f5", "d6", "c3"]);
        assert_eq!(parse("1) f5 10... d6"), ["f5", "d6"]);
        assert_eq!(
            parse("f5 PA ps -- Pass"),
            ["f5", "pass", "pass", "pass", "pass"]
        );
        assert_eq!(parse(""), Vec::<String>::new());
    }

    #[test]
    fn errors_name_the_column() {
        let col = |s: &str| s.parse::<Transcript>().unwrap_err().location.column;
        assert_eq!(col("f5d9"), Some(4));
        assert_eq!(col("f5 z"), Some(4));
        assert_eq!(col("f5d"), Some(4));
        assert_eq!(col("f5 12x"), Some(4));
        assert_eq!(col("f5 -"), Some(4));
        assert_eq!(col("f5 px"), Some(4));
    }

    #[test]
    fn replay_inserts_forced_passes_and_rejects_free_ones() {
        let t: Transcript = "f5 pa".parse().unwrap();
        let e = t.replay(Position::start()).unwrap_err();
        assert_eq!(e.location.ply, Some(2));
        assert!(e.message.contains("cannot pass"), "{e}");
        let e = "f5d6f5"
            .parse::<Transcript>()
            .unwrap()
            .replay(Position::start());
        assert_eq!(e.unwrap_err().location.ply, Some(3));
    }
}
