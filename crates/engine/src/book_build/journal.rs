//! The build journal: every analysis a build made, appended and flushed one line at a time, so
//! an interrupted build resumes where it stopped (`virada book build` reads it back as a cache
//! of finished searches).
//!
//! A text file, one analysis per line after a header:
//!
//! ```text
//! virada-book-journal 1 evaluator=gen3-G05
//! 0000000810000000 0000001008000000 12 c4:-150:12:0 d3:-150:12:0 e6:-150:12:0 f5:-150:12:0
//! ```
//!
//! Each line: the canonical board (side to move's discs, then the opponent's, hex), the depth
//! asked, then each move as `square:value:depth:exact` (value in hundredths of a disc). A last
//! line without its newline (the build was killed while writing it) is ignored; any other
//! damage is refused with its line number.

use crate::book::{BookError, LeafMove, MAX_VALUE};
use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use virada_rules::symmetry::canonical;
use virada_rules::{Board, Square};

const HEADER: &str = "virada-book-journal 1";

/// Finished analyses by (canonical board, depth asked).
pub type Analyses = HashMap<(Board, u32), Vec<LeafMove>>;

/// An open journal: what it held when opened, and the file to append to.
pub struct Journal {
    path: PathBuf,
    file: File,
    /// Lines read back when the journal was opened.
    pub resumed: usize,
}

impl Journal {
    /// Opens (or creates) the journal at `path` for an engine evaluating with `evaluator`, and
    /// returns the analyses it already holds. A journal made with another evaluation is refused:
    /// its values would not be this engine's.
    pub fn open(path: &Path, evaluator: &str) -> Result<(Journal, Analyses), BookError> {
        let io = |e: std::io::Error| BookError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        };
        let header = format!("{HEADER} evaluator={evaluator}");
        let mut analyses = Analyses::new();
        let mut resumed = 0;
        let exists = path.exists();
        if exists {
            let text = std::fs::read_to_string(path).map_err(io)?;
            let complete = match text.rfind('\n') {
                Some(end) => &text[..end],
                None => "",
            };
            let mut lines = complete.lines().enumerate();
            match lines.next() {
                Some((_, first)) if first == header => {}
                Some((_, first)) => {
                    return Err(BookError::Journal {
                        line: 1,
                        reason: format!(
                            "header {first:?} does not match {header:?} (another evaluation or \
                             format); use another journal file"
                        ),
                    }
                    .in_file(path))
                }
                None => {}
            }
            for (i, line) in lines {
                let (key, depth, moves) = parse_line(line).map_err(|reason| {
                    BookError::Journal {
                        line: i + 1,
                        reason,
                    }
                    .in_file(path)
                })?;
                analyses.insert((key, depth), moves);
                resumed += 1;
            }
            // Drop a half-written last line so appends start on a fresh line.
            if complete.len() + 1 != text.len() && !text.is_empty() {
                let keep = if complete.is_empty() {
                    0
                } else {
                    complete.len() + 1
                };
                let f = OpenOptions::new().write(true).open(path).map_err(io)?;
                f.set_len(keep as u64).map_err(io)?;
            }
        }
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(io)?;
        if std::fs::metadata(path).map_err(io)?.len() == 0 {
            writeln!(file, "{header}").map_err(io)?;
        }
        Ok((
            Journal {
                path: path.to_path_buf(),
                file,
                resumed,
            },
            analyses,
        ))
    }

    /// Appends one analysis and flushes it to the file.
    pub fn record(&mut self, key: Board, depth: u32, moves: &[LeafMove]) -> Result<(), BookError> {
        let mut line = format!("{:016x} {:016x} {depth}", key.player, key.opponent);
        for m in moves {
            line.push_str(&format!(
                " {}:{}:{}:{}",
                m.square, m.value, m.depth, m.exact as u8
            ));
        }
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|e| BookError::Io {
                path: self.path.display().to_string(),
                message: e.to_string(),
            })
    }
}

fn parse_line(line: &str) -> Result<(Board, u32, Vec<LeafMove>), String> {
    let mut parts = line.split_ascii_whitespace();
    let mut hex = |what: &str| {
        let s = parts.next().ok_or(format!("missing {what}"))?;
        u64::from_str_radix(s, 16).map_err(|_| format!("{what} {s:?} is not hexadecimal"))
    };
    let key = Board::new(hex("player discs")?, hex("opponent discs")?);
    if !key.is_valid() || canonical(key).0 != key {
        return Err("the board is not a canonical position".into());
    }
    let depth_text = parts.next().ok_or("missing depth")?;
    let depth: u32 = depth_text
        .parse()
        .map_err(|_| format!("depth {depth_text:?} is not a number"))?;
    let mut moves = Vec::new();
    for item in parts {
        let bad = || format!("move {item:?} is not square:value:depth:exact");
        let mut f = item.split(':');
        let square: Square = f.next().ok_or_else(bad)?.parse().map_err(|_| bad())?;
        let value: i16 = f.next().ok_or_else(bad)?.parse().map_err(|_| bad())?;
        let depth: u8 = f.next().ok_or_else(bad)?.parse().map_err(|_| bad())?;
        let exact = match f.next() {
            Some("0") => false,
            Some("1") => true,
            _ => return Err(bad()),
        };
        if f.next().is_some() || !(-MAX_VALUE..=MAX_VALUE).contains(&value) {
            return Err(bad());
        }
        if !key.is_legal(square) {
            return Err(format!("{square} is not legal in that position"));
        }
        moves.push(LeafMove {
            square,
            value,
            depth,
            exact,
        });
    }
    if moves.is_empty() {
        return Err("no moves".into());
    }
    Ok((key, depth, moves))
}
