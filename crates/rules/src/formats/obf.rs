//! OBF (Othello Board Format): one position a line, with scored moves.
//!
//! `<64 squares> <side>; <MOVE>:<score>; <MOVE>:<score>; ...` where the squares run a1..h8
//! (`X` black, `O` white, `-` empty), the side is `X` or `O`, and each score is the exact final
//! disc difference for the side to move after that move. `%` starts a comment.
//!
//! ```
//! use virada_rules::formats::obf::{read_obf, ObfEntry};
//! let text = "% a comment\n\
//!     ---------------------------OX------XO--------------------------- X; F5:+0; D3:+0;\n";
//! let entries = read_obf(text).unwrap();
//! assert_eq!(entries.len(), 1);
//! assert_eq!(entries[0].best_score(), Some(0));
//! assert_eq!(entries[0].to_string(), text.lines().nth(1).unwrap());
//! ```

use super::{Format, FormatError};
use crate::formats::board_string::{parse_board_and_side, parse_squares, trailing_side};
use crate::{Color, Move, Position};
use std::fmt;
use std::str::FromStr;

/// A move of an OBF line with its score, if the line gives one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ObfMove {
    pub mv: Move,
    /// Final disc difference for the side to move (WOF scoring), -64..=64.
    pub score: Option<i32>,
}

/// One OBF line: a position and its listed moves (best first in the FFO files).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ObfEntry {
    pub position: Position,
    pub moves: Vec<ObfMove>,
}

impl ObfEntry {
    /// A position with no listed moves.
    pub fn new(position: Position) -> ObfEntry {
        ObfEntry {
            position,
            moves: Vec::new(),
        }
    }

    /// The highest listed score.
    pub fn best_score(&self) -> Option<i32> {
        self.moves.iter().filter_map(|m| m.score).max()
    }

    /// The moves that reach the highest listed score.
    pub fn best_moves(&self) -> Vec<Move> {
        match self.best_score() {
            Some(best) => self
                .moves
                .iter()
                .filter(|m| m.score == Some(best))
                .map(|m| m.mv)
                .collect(),
            None => Vec::new(),
        }
    }
}

fn column_of(line: &str, byte: usize) -> usize {
    line[..byte].chars().count() + 1
}

fn obf_error(message: impl Into<String>, line: &str, byte: usize) -> FormatError {
    FormatError::new(Format::Obf, message).at_column(column_of(line, byte))
}

/// Parses `MOVE` or `MOVE:score` found at byte `at` of `line`.
fn parse_field(field: &str, line: &str, at: usize) -> Result<ObfMove, FormatError> {
    let (mv_text, score_text) = match field.split_once(':') {
        Some((m, s)) => (m.trim_end(), Some(s)),
        None => (field, None),
    };
    let mv = Move::from_str(mv_text).map_err(|e| obf_error(e.to_string(), line, at))?;
    let score = match score_text {
        None => None,
        Some(s) => {
            let at = at + field.len() - s.len();
            let t = s.trim();
            let digits = t.strip_prefix('+').unwrap_or(t);
            let value: i32 = digits.parse().map_err(|_| {
                obf_error(
                    format!("score {t:?} is not a number like +4 or -12"),
                    line,
                    at,
                )
            })?;
            if !(-64..=64).contains(&value) {
                return Err(obf_error(
                    format!("score {value} is outside -64..=64"),
                    line,
                    at,
                ));
            }
            Some(value)
        }
    };
    Ok(ObfMove { mv, score })
}

/// The squares and a side written without a space before it (or a missing or bad side).
fn parse_attached_side(content: &str, line: &str) -> Result<(u64, u64, Color, usize), FormatError> {
    let (black, white, after) = parse_squares(content).map_err(FormatError::from)?;
    let rest = &content[after..];
    let side_start = after + (rest.len() - rest.trim_start().len());
    let side_end = content[side_start..]
        .find(|c: char| c == ';' || c.is_whitespace())
        .map_or(content.len(), |i| side_start + i);
    let side_text = &content[side_start..side_end];
    if side_text.is_empty() {
        return Err(obf_error("missing side to move (X or O)", line, side_start));
    }
    let side = match side_text {
        "X" | "x" | "*" | "B" | "b" => Color::Black,
        "O" | "o" | "W" | "w" => Color::White,
        _ => {
            return Err(obf_error(
                format!("side to move {side_text:?} is not X or O"),
                line,
                side_start,
            ))
        }
    };
    Ok((black, white, side, side_end))
}

impl FromStr for ObfEntry {
    type Err = FormatError;

    /// Parses one OBF line (a trailing `%` comment is ignored). Errors carry the column.
    fn from_str(line: &str) -> Result<ObfEntry, FormatError> {
        let content = match line.find('%') {
            Some(i) => &line[..i],
            None => line,
        };
        let head = &content[..content.find(';').unwrap_or(content.len())];
        let (black, white, side, side_end) = if trailing_side(head).is_some() {
            // `<squares> <side>` before the first ';': the side is never taken as a square.
            let (black, white, side) = parse_board_and_side(head).map_err(FormatError::from)?;
            let side = side.expect("a trailing side was found");
            (black, white, side, head.trim_end().len())
        } else {
            parse_attached_side(content, line)?
        };
        let position = Position::from_colors(black, white, side)
            .ok_or_else(|| obf_error("a square holds two discs", line, 0))?;
        let tail = &content[side_end..];
        let tail_trim = tail.trim_start();
        let mut moves = Vec::new();
        if !tail_trim.is_empty() {
            let semi_at = side_end + (tail.len() - tail_trim.len());
            let Some(list) = tail_trim.strip_prefix(';') else {
                return Err(obf_error(
                    "expected ';' after the side to move",
                    line,
                    semi_at,
                ));
            };
            let mut at = semi_at + 1;
            for field in list.split(';') {
                let trimmed = field.trim();
                if !trimmed.is_empty() {
                    let lead = field.len() - field.trim_start().len();
                    moves.push(parse_field(trimmed, line, at + lead)?);
                }
                at += field.len() + 1;
            }
        }
        Ok(ObfEntry { position, moves })
    }
}

impl fmt::Display for ObfEntry {
    /// The FFO layout: `<squares> X; G8:+18; H1:+12;` (no `;` when no move is listed).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.position)?;
        if self.moves.is_empty() {
            return Ok(());
        }
        f.write_str(";")?;
        for m in &self.moves {
            let name = match m.mv {
                Move::Play(sq) => sq.to_string().to_ascii_uppercase(),
                Move::Pass => "PA".to_string(),
            };
            match m.score {
                Some(s) => write!(f, " {name}:{s:+};")?,
                None => write!(f, " {name};")?,
            }
        }
        Ok(())
    }
}

/// Reads every position of an OBF file, skipping blank lines and `%` comment lines.
pub fn read_obf(text: &str) -> Result<Vec<ObfEntry>, FormatError> {
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('%') {
            continue;
        }
        entries.push(line.parse::<ObfEntry>().map_err(|e| e.at_line(i + 1))?);
    }
    Ok(entries)
}

/// Writes entries one a line (the inverse of [`read_obf`]).
pub fn write_obf(entries: &[ObfEntry]) -> String {
    let mut s = String::new();
    for e in entries {
        s.push_str(&e.to_string());
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_column() {
        let board = "-".repeat(64);
        let e = format!("{board} X; G8:+1x;")
            .parse::<ObfEntry>()
            .unwrap_err();
        assert_eq!(e.location.column, Some(72));
        let e = format!("{board} X; Z9:+1;")
            .parse::<ObfEntry>()
            .unwrap_err();
        assert_eq!(e.location.column, Some(69));
        let e = format!("{board} Q;").parse::<ObfEntry>().unwrap_err();
        assert_eq!(e.location.column, Some(66));
        let e = format!("{board} X G8:+1").parse::<ObfEntry>().unwrap_err();
        assert_eq!(e.location.column, Some(68));
        let e = format!("{board} X; G8:+99;")
            .parse::<ObfEntry>()
            .unwrap_err();
        assert!(e.message.contains("outside"));
    }

    #[test]
    fn a_side_is_never_a_square() {
        let start = Position::start().to_string();
        let e = format!("{}; F5:+0;", &start[1..])
            .parse::<ObfEntry>()
            .unwrap_err();
        assert_eq!(e.format, Format::BoardString);
        assert!(e.message.contains("found 63"), "{e}");
        let e: ObfEntry = format!("{start}; F5:+0;").parse().unwrap();
        assert_eq!(e.position, Position::start());
        let e: ObfEntry = format!("{}X;F5:+0", &start[..64]).parse().unwrap();
        assert_eq!(e.moves.len(), 1);
    }

    #[test]
    fn bare_moves_and_passes() {
        let board = "-".repeat(64);
        let e: ObfEntry = format!("{board} O; a1; PA:-3").parse().unwrap();
        assert_eq!(e.moves.len(), 2);
        assert_eq!(e.moves[0].score, None);
        assert_eq!(e.moves[1].mv, Move::Pass);
        assert_eq!(e.to_string(), format!("{board} O; A1; PA:-3;"));
    }
}
