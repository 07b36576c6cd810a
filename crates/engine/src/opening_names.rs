//! The names Othello players give to openings ("Tiger", "Rose", "Buffalo", ...), recognised in
//! any of the board's 8 orientations and by position, so transpositions count too.
//!
//! The list is ours: each line is written from the standard start with Black's first move on
//! `f5` (the orientation of most published opening lists); a test replays every line and checks
//! that each name is found in all 8 images of its position. English names are the ones players
//! use worldwide; Portuguese-speaking players use most of them as they are (Tiger, Rose,
//! Buffalo), so only the descriptive names are translated ("Paralela", "Variante Iwasaki").
//!
//! A game's opening is the deepest named position it has passed through: after
//! `f5d6c3d3c4f4f6` the game is in the Stephenson, not merely the Tiger or the Perpendicular.
//!
//! ```
//! use virada_engine::opening_names;
//! use virada_rules::formats::transcript::Transcript;
//! use virada_rules::Position;
//! let game = "f5d6c5f4e3c6d3f6e6d7".parse::<Transcript>().unwrap().replay(Position::start()).unwrap();
//! let found = opening_names::recognize(game.positions()).unwrap();
//! assert_eq!(found.name.en, "Rose");
//! assert_eq!(found.ply, 10);
//! // The same opening turned by 90 degrees (first move d3) is still the Rose.
//! let turned = "d3c5d6e3f4c6f5c3c4b5".parse::<Transcript>().unwrap().replay(Position::start()).unwrap();
//! assert_eq!(opening_names::recognize(turned.positions()).unwrap().name.id, "rose");
//! ```

use std::collections::HashMap;
use std::sync::OnceLock;
use virada_rules::symmetry::canonical;
use virada_rules::{Color, Move, Position, Square};

/// A named opening: an identifier for programs, its names, and the moves that reach it.
#[derive(Debug, PartialEq, Eq)]
pub struct OpeningName {
    /// Stable lower-case identifier (`"leaders-tiger"`), for programs and the API.
    pub id: &'static str,
    /// The English name.
    pub en: &'static str,
    /// The name Portuguese-speaking players use.
    pub pt: &'static str,
    /// The moves from the standard start, Black first, compact (`f5d6c3d3c4`).
    pub line: &'static str,
}

/// Every named opening (`crates/engine/data/opening_names.txt`, read once), grouped by the
/// first two moves (perpendicular `f5d6`, diagonal `f5f6`, parallel `f5f4`).
pub fn opening_names() -> &'static [OpeningName] {
    static NAMES: OnceLock<Vec<OpeningName>> = OnceLock::new();
    NAMES.get_or_init(|| {
        parse_names(include_str!("../data/opening_names.txt"))
            .unwrap_or_else(|e| panic!("crates/engine/data/opening_names.txt: {e}"))
    })
}

/// The list's lines: `id | English | Portuguese | moves`; `#` starts a comment line.
fn parse_names(text: &'static str) -> Result<Vec<OpeningName>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let fields: Vec<&'static str> = l.split('|').map(str::trim).collect();
            match fields[..] {
                [id, en, pt, line] if !id.is_empty() && !line.is_empty() => {
                    Ok(OpeningName { id, en, pt, line })
                }
                _ => Err(format!(
                    "line {}: expected `id | English | Portuguese | moves`",
                    i + 1
                )),
            }
        })
        .collect()
}

/// A game's opening: the deepest named position it reached, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recognized {
    pub name: &'static OpeningName,
    /// The game ply (moves from the game's start) at which the named position stood on the
    /// board.
    pub ply: usize,
}

/// Why a line of [`opening_names`] cannot be played (found by the tests, never at run time).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLine {
    pub id: &'static str,
    pub reason: String,
}

/// The moves of `line` played from the standard start: every position, the start first.
pub fn replay(line: &str) -> Result<Vec<Position>, String> {
    if !line.len().is_multiple_of(2) {
        return Err(format!("{line:?} has an odd number of characters"));
    }
    let mut pos = Position::start();
    let mut positions = vec![pos];
    for (i, chunk) in line.as_bytes().chunks(2).enumerate() {
        let text = std::str::from_utf8(chunk).map_err(|e| e.to_string())?;
        let sq: Square = text
            .parse()
            .map_err(|e| format!("move {}: {text:?}: {e}", i + 1))?;
        pos = pos
            .play(Move::Play(sq))
            .map_err(|e| format!("move {} ({sq}): {e}", i + 1))?;
        positions.push(pos);
    }
    Ok(positions)
}

/// The lookup key of a position: its canonical image and whose turn it is.
fn key(pos: &Position) -> (u64, u64, Color) {
    let (c, _) = canonical(pos.board());
    (c.player, c.opponent, pos.side_to_move())
}

/// The named positions by key, and the most discs any of them has.
struct Table {
    names: HashMap<(u64, u64, Color), &'static OpeningName>,
    max_discs: u32,
}

/// Every line checked and keyed (built once). Lines that cannot be played are left out here
/// and reported by [`check_lines`].
fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Table {
            names: HashMap::with_capacity(opening_names().len()),
            max_discs: 0,
        };
        for o in opening_names() {
            if let Some(last) = replay(o.line).ok().and_then(|p| p.last().copied()) {
                t.names.entry(key(&last)).or_insert(o);
                t.max_discs = t.max_discs.max(discs(&last));
            }
        }
        t
    })
}

fn discs(pos: &Position) -> u32 {
    pos.black().count() + pos.white().count()
}

/// Checks every line: legal from the start, and no two lines ending in the same position up
/// to symmetry (one name per position).
pub fn check_lines() -> Vec<BadLine> {
    let mut bad = Vec::new();
    let mut seen: HashMap<(u64, u64, Color), &str> = HashMap::new();
    for o in opening_names() {
        match replay(o.line) {
            Err(reason) => bad.push(BadLine { id: o.id, reason }),
            Ok(positions) => {
                let last = positions.last().expect("the start is always there");
                if let Some(other) = seen.insert(key(last), o.id) {
                    bad.push(BadLine {
                        id: o.id,
                        reason: format!("reaches the same position as {other}"),
                    });
                }
            }
        }
    }
    bad
}

/// The name of this very position, in any orientation.
pub fn name_of(pos: &Position) -> Option<&'static OpeningName> {
    table().names.get(&key(pos)).copied()
}

/// The opening of a game given its positions (start first, as [`virada_rules::Game::positions`]):
/// the deepest named one. `None` when the game has passed through no named position.
pub fn recognize(positions: &[Position]) -> Option<Recognized> {
    // Beyond the fullest named position nothing can match: a long game only looks up its
    // opening.
    let max = table().max_discs;
    positions
        .iter()
        .enumerate()
        .filter(|(_, p)| discs(p) <= max)
        .rev()
        .find_map(|(ply, p)| name_of(p).map(|name| Recognized { name, ply }))
}

/// The opening named by an identifier.
pub fn by_id(id: &str) -> Option<&'static OpeningName> {
    opening_names().iter().find(|o| o.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use virada_rules::Symmetry;

    #[test]
    fn every_line_is_legal_and_names_one_position() {
        assert_eq!(check_lines(), Vec::new());
        assert!(opening_names().len() >= 70);
        let mut ids = std::collections::HashSet::new();
        for o in opening_names() {
            assert!(ids.insert(o.id), "{} twice", o.id);
            assert!(!o.en.is_empty() && !o.pt.is_empty(), "{}", o.id);
            assert_eq!(by_id(o.id), Some(o));
        }
    }

    #[test]
    fn the_list_format_is_checked() {
        let ok = parse_names("# a comment\n\nrose | Rose | Rosa | f5d6\n").unwrap();
        assert_eq!(ok.len(), 1);
        assert_eq!((ok[0].id, ok[0].pt, ok[0].line), ("rose", "Rosa", "f5d6"));
        let err = parse_names("# c\nrose | Rose | f5d6\n").unwrap_err();
        assert!(err.starts_with("line 2:"), "{err}");
        assert!(parse_names(" | Rose | Rosa | f5d6").is_err());
    }

    /// Each line played in each of the 8 orientations (its moves transformed square by
    /// square) is recognised as itself, at its last ply.
    #[test]
    fn every_name_is_recognised_in_all_eight_images() {
        for o in opening_names() {
            let moves = o.line.len() / 2;
            for s in Symmetry::ALL {
                let turned: String = o
                    .line
                    .as_bytes()
                    .chunks(2)
                    .map(|c| {
                        let sq: Square = std::str::from_utf8(c).unwrap().parse().unwrap();
                        s.apply_square(sq).to_string()
                    })
                    .collect();
                // Not every image of the line is playable from the start (the start is only
                // symmetric under 4 of the 8), so transform the positions instead when the
                // moves do not replay.
                let found = match replay(&turned) {
                    Ok(positions) => recognize(&positions),
                    Err(_) => {
                        let positions: Vec<Position> = replay(o.line)
                            .unwrap()
                            .iter()
                            .map(|p| {
                                Position::from_board(s.apply_board(p.board()), p.side_to_move())
                            })
                            .collect();
                        recognize(&positions)
                    }
                };
                let found = found.unwrap_or_else(|| panic!("{} not found under {s:?}", o.id));
                assert_eq!(found.name.id, o.id, "{s:?} of {}", o.line);
                assert_eq!(found.ply, moves, "{s:?} of {}", o.line);
            }
        }
    }

    #[test]
    fn the_deepest_name_wins_and_it_stays_after_the_line_ends() {
        let positions = replay("f5d6c3d3c4f4f6").unwrap();
        assert_eq!(recognize(&positions).unwrap().name.id, "stephenson");
        assert_eq!(recognize(&positions[..6]).unwrap().name.id, "tiger");
        assert_eq!(recognize(&positions[..5]).unwrap().name.id, "perpendicular");
        assert_eq!(recognize(&positions[..2]), None);
        // Leaving the named lines keeps the last name reached.
        let on = replay("f5d6c3d3c4f4f6f3e6").unwrap();
        let r = recognize(&on).unwrap();
        assert_eq!((r.name.id, r.ply), ("compoth", 8));
    }

    /// A position reached by another move order has the same name (the Tiger's c3 and c4
    /// played the other way round, with d3 between).
    #[test]
    fn transpositions_are_recognised() {
        let tiger = replay("f5d6c3d3c4").unwrap();
        let other = replay("f5d6c4d3c3").unwrap();
        assert_eq!(tiger.last().unwrap(), other.last().unwrap());
        assert_eq!(recognize(&other).unwrap().name.id, "tiger");
    }

    #[test]
    fn bad_lines_are_reported() {
        assert!(replay("f5f5").unwrap_err().contains("move 2"));
        assert!(replay("f5d").is_err());
        assert!(replay("z9").is_err());
    }
}
