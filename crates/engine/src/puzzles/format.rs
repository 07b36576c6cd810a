//! The shipped puzzle file: one puzzle a line, eight fields separated by spaces.
//!
//! ```text
//! <id> <64 squares> <side> <kind> <line> <scores> <themes> <rating>/<rd>/<volatility>
//! e12-0123456789 --XXO...(64) X endgame g2,h1,a8 g2:+6,a1:+2,b7:-4 corner,parity 1480/300/0.06
//! ```
//!
//! - squares a1..h8 (`X` black, `O` white, `-` empty), side `X` or `O`, as in OBF;
//! - line: moves separated by commas (`pass` for a forced pass), the solver's first;
//! - scores: every legal move of the start with its score for the solver, the solution first,
//!   then best to worst;
//! - themes: names separated by commas, or `-` for none.
//!
//! Lines starting with `#` and blank lines are ignored. Errors say the field, the column and
//! (for a file) the line.

use super::puzzle::{Puzzle, PuzzleKind, Theme};
use crate::glicko::Rating;
use std::fmt;
use std::str::FromStr;
use virada_rules::{Move, Position, Square};

/// What is wrong with a puzzle line, where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePuzzleError {
    /// The field's name (`id`, `position`, `kind`, `line`, `scores`, `themes`, `rating`).
    pub field: &'static str,
    /// 1-based column (characters) where the problem starts.
    pub column: usize,
    pub message: String,
}

impl fmt::Display for ParsePuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "column {} ({}): {}",
            self.column, self.field, self.message
        )
    }
}

impl std::error::Error for ParsePuzzleError {}

/// A puzzle file's error: the 1-based line and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleFileError {
    pub line: usize,
    pub error: ParsePuzzleError,
}

impl fmt::Display for PuzzleFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, {}", self.line, self.error)
    }
}

impl std::error::Error for PuzzleFileError {}

fn join<T>(items: &[T], f: impl Fn(&T) -> String) -> String {
    items.iter().map(f).collect::<Vec<_>>().join(",")
}

impl fmt::Display for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let themes = if self.themes.is_empty() {
            "-".to_string()
        } else {
            join(&self.themes, |t| t.as_str().to_string())
        };
        write!(
            f,
            "{} {} {} {} {} {} {:.0}/{:.0}/{:.4}",
            self.id,
            self.start,
            self.kind.as_str(),
            join(&self.line, |m| m.to_string()),
            join(&self.scores, |(sq, s)| format!("{sq}:{s:+}")),
            themes,
            self.rating.rating,
            self.rating.rd,
            self.rating.volatility
        )
    }
}

/// The fields of a line with their 1-based columns.
fn fields(s: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in s.char_indices() {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(b)) => {
                out.push((b, &s[b..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(b) = start {
        out.push((b, &s[b..]));
    }
    out.into_iter()
        .map(|(b, f)| (s[..b].chars().count() + 1, f))
        .collect()
}

fn err(field: &'static str, column: usize, message: impl Into<String>) -> ParsePuzzleError {
    ParsePuzzleError {
        field,
        column,
        message: message.into(),
    }
}

/// Comma-separated parts of a field with their columns.
fn parts(text: &str, column: usize) -> impl Iterator<Item = (usize, &str)> {
    let mut col = column;
    text.split(',').map(move |p| {
        let c = col;
        col += p.chars().count() + 1;
        (c, p)
    })
}

impl FromStr for Puzzle {
    type Err = ParsePuzzleError;

    fn from_str(s: &str) -> Result<Puzzle, ParsePuzzleError> {
        let f = fields(s);
        const NAMES: [&str; 9] = [
            "id", "position", "side", "kind", "line", "scores", "themes", "rating", "",
        ];
        if f.len() != 8 {
            let column = f.get(8).map_or(s.chars().count() + 1, |x| x.0);
            let missing = NAMES.get(f.len()).copied().unwrap_or("");
            return Err(err(
                if f.len() < 8 {
                    NAMES[f.len()]
                } else {
                    "rating"
                },
                column,
                if f.len() < 8 {
                    format!("expected 8 fields, found {} ({missing} missing)", f.len())
                } else {
                    format!("expected 8 fields, found {}", f.len())
                },
            ));
        }
        let id = f[0].1;
        if !id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(err(
                "id",
                f[0].0,
                format!("id {id:?} has characters other than letters, digits, - and _"),
            ));
        }
        let start: Position = format!("{} {}", f[1].1, f[2].1).parse().map_err(
            |e: virada_rules::ParsePositionError| {
                err("position", f[1].0 + e.column - 1, e.message.clone())
            },
        )?;
        let kind = PuzzleKind::parse(f[3].1).ok_or_else(|| {
            err(
                "kind",
                f[3].0,
                format!("kind {:?} is not endgame or midgame", f[3].1),
            )
        })?;
        // The line, replayed.
        let mut line = Vec::new();
        let mut pos = start;
        for (col, p) in parts(f[4].1, f[4].0) {
            let mv: Move = p
                .parse()
                .map_err(|e: virada_rules::ParseMoveError| err("line", col, e.to_string()))?;
            pos.check(mv).map_err(|e| err("line", col, e.to_string()))?;
            pos = pos.play_unchecked(mv);
            line.push(mv);
        }
        if line.first().and_then(|m| m.square()).is_none() {
            return Err(err(
                "line",
                f[4].0,
                "the line must start with the solver's move",
            ));
        }
        // Scores: every legal move once, solution first, the rest best to worst.
        let mut scores: Vec<(Square, i32)> = Vec::new();
        for (col, p) in parts(f[5].1, f[5].0) {
            let (m, v) = p
                .split_once(':')
                .ok_or_else(|| err("scores", col, format!("{p:?} is not MOVE:score")))?;
            let sq: Square = m
                .parse()
                .map_err(|e: virada_rules::ParseSquareError| err("scores", col, e.to_string()))?;
            if !start.board().is_legal(sq) {
                return Err(err("scores", col, format!("{sq} is not a legal move")));
            }
            if scores.iter().any(|&(q, _)| q == sq) {
                return Err(err("scores", col, format!("{sq} is listed twice")));
            }
            let value: i32 = v
                .strip_prefix('+')
                .unwrap_or(v)
                .parse()
                .ok()
                .filter(|v| (-64..=64).contains(v))
                .ok_or_else(|| {
                    err(
                        "scores",
                        col,
                        format!("score {v:?} is not a number in -64..=64"),
                    )
                })?;
            if scores.len() >= 2 && value > scores[scores.len() - 1].1 {
                return Err(err(
                    "scores",
                    col,
                    "scores after the solution must go from best to worst",
                ));
            }
            scores.push((sq, value));
        }
        let legal = start.board().legal_moves().count() as usize;
        if scores.len() != legal {
            return Err(err(
                "scores",
                f[5].0,
                format!(
                    "{} moves listed, the position has {legal} legal moves",
                    scores.len()
                ),
            ));
        }
        if Some(scores[0].0) != line[0].square() {
            return Err(err(
                "scores",
                f[5].0,
                "the first move listed must be the line's first move",
            ));
        }
        let mut themes = Vec::new();
        if f[6].1 != "-" {
            for (col, p) in parts(f[6].1, f[6].0) {
                themes.push(
                    Theme::parse(p)
                        .ok_or_else(|| err("themes", col, format!("unknown theme {p:?}")))?,
                );
            }
        }
        themes.sort();
        themes.dedup();
        let nums: Vec<&str> = f[7].1.split('/').collect();
        let parsed: Option<Vec<f64>> = nums.iter().map(|n| n.parse().ok()).collect();
        let rating = match parsed.as_deref() {
            Some(&[r, rd, vol]) if r.is_finite() && rd > 0.0 && vol > 0.0 => {
                Rating::new(r, rd, vol)
            }
            _ => {
                return Err(err(
                    "rating",
                    f[7].0,
                    format!(
                        "{:?} is not rating/deviation/volatility (e.g. 1500/300/0.06)",
                        f[7].1
                    ),
                ))
            }
        };
        Ok(Puzzle {
            id: id.to_string(),
            start,
            kind,
            line,
            scores,
            themes,
            rating,
        })
    }
}

/// Every puzzle of a file (see the module's format), or the first error with its line.
pub fn parse_puzzle_file(text: &str) -> Result<Vec<Puzzle>, PuzzleFileError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| {
            l.parse()
                .map_err(|error| PuzzleFileError { line: i + 1, error })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Puzzle {
        let start: Position = "OOOOOOOOOOXXXXOOOXXOOXOOOXXXXOOOOXXXXOOO--XXXX-O--XXX-----XX--X- O"
            .parse()
            .unwrap();
        let moves: Vec<Square> = start.board().legal_moves().into_iter().collect();
        let scores = moves
            .iter()
            .enumerate()
            .map(|(i, &sq)| (sq, 10 - 2 * i as i32))
            .collect();
        Puzzle {
            id: Puzzle::id_for(PuzzleKind::Endgame, &start),
            start,
            kind: PuzzleKind::Endgame,
            line: vec![Move::Play(moves[0])],
            scores,
            themes: vec![Theme::Corner, Theme::Parity],
            rating: Rating::new(1480.0, 300.0, 0.06),
        }
    }

    #[test]
    fn round_trip() {
        let p = sample();
        let text = p.to_string();
        assert_eq!(text.parse::<Puzzle>().unwrap(), p);
        assert!(
            text.contains(" endgame ") && text.contains(" corner,parity "),
            "{text}"
        );
    }

    #[test]
    fn errors_name_the_field_and_column() {
        let text = sample().to_string();
        let e = "x".parse::<Puzzle>().unwrap_err();
        assert_eq!(e.field, "position");
        let bad_kind = text.replace("endgame", "opening");
        let e = bad_kind.parse::<Puzzle>().unwrap_err();
        assert_eq!(
            (e.field, e.column),
            ("kind", bad_kind.find("opening").unwrap() + 1)
        );
        let bad_rating = text.replace("1480/300/0.0600", "1480/abc");
        let e = bad_rating.parse::<Puzzle>().unwrap_err();
        assert_eq!(e.field, "rating");
        assert!(e.to_string().contains("rating/deviation/volatility"), "{e}");
        let bad_theme = text.replace("corner,parity", "corner,luck");
        let e = bad_theme.parse::<Puzzle>().unwrap_err();
        assert_eq!(
            (e.field, e.column),
            ("themes", bad_theme.find("luck").unwrap() + 1)
        );
        let p = sample();
        let swapped = text.replacen(&p.scores[0].0.to_string(), "zz", 1);
        assert!(swapped.parse::<Puzzle>().is_err());
    }

    #[test]
    fn file_errors_give_the_line() {
        let text = format!("# comment\n\n{}\nnot a puzzle\n", sample());
        let e = parse_puzzle_file(&text).unwrap_err();
        assert_eq!(e.line, 4);
        assert_eq!(
            parse_puzzle_file(&format!("{}\n", sample())).unwrap().len(),
            1
        );
    }
}
