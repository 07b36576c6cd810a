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

const fn name(
    id: &'static str,
    en: &'static str,
    pt: &'static str,
    line: &'static str,
) -> OpeningName {
    OpeningName { id, en, pt, line }
}

/// Every named opening, grouped by the first two moves (perpendicular `f5d6`, diagonal
/// `f5f6`, parallel `f5f4`).
pub const OPENING_NAMES: &[OpeningName] = &[
    // The three answers to the first move.
    name("perpendicular", "Perpendicular", "Perpendicular", "f5d6"),
    name("diagonal", "Diagonal", "Diagonal", "f5f6"),
    name("parallel", "Parallel", "Paralela", "f5f4"),
    name("mouse", "Mouse", "Mouse", "f5f4e3"),
    // Perpendicular, 3. c3: the Tiger family.
    name("tiger", "Tiger", "Tiger", "f5d6c3d3c4"),
    name("aubrey", "Aubrey", "Aubrey", "f5d6c3d3c4b3"),
    name("berg-tiger", "Berg Tiger", "Berg Tiger", "f5d6c3d3c4b5"),
    name("rose-bill", "Rose-Bill", "Rose-Bill", "f5d6c3d3c4f4c5b3c2"),
    name("tamenori", "Tamenori", "Tamenori", "f5d6c3d3c4f4c5b3c2e6"),
    name("ishii", "Ishii", "Ishii", "f5d6c3d3c4f4c5b4b5c6f3e6e3"),
    name(
        "mainline-tiger",
        "Mainline Tiger",
        "Tiger, linha principal",
        "f5d6c3d3c4f4c5b4b5c6f3e6e3g6f6g5d7g3",
    ),
    name("brightwell", "Brightwell", "Brightwell", "f5d6c3d3c4f4e3"),
    name(
        "leaders-tiger",
        "Leader's Tiger",
        "Leader's Tiger",
        "f5d6c3d3c4f4e6",
    ),
    name("stephenson", "Stephenson", "Stephenson", "f5d6c3d3c4f4f6"),
    name("kung", "Kung", "Kung", "f5d6c3d3c4f4f6b4"),
    name("compoth", "COMP'OTH", "COMP'OTH", "f5d6c3d3c4f4f6f3"),
    name(
        "lightning-bolt",
        "Lightning Bolt",
        "Lightning Bolt",
        "f5d6c3d3c4f4f6f3e3",
    ),
    name("no-kung", "No-Kung", "No-Kung", "f5d6c3d3c4f4f6g5"),
    name(
        "no-kung-continuation",
        "No-Kung, continuation",
        "No-Kung, continuação",
        "f5d6c3d3c4f4f6g5e3f3g4h3g3f2",
    ),
    name("ganglion", "Ganglion", "Ganglion", "f5d6c3g5"),
    // Perpendicular, 3. c4: the Cat family.
    name("cat", "Cat", "Cat", "f5d6c4d3c5"),
    name("berner", "Berner", "Berner", "f5d6c4d3c5f4e3f3c2b4b3"),
    name(
        "sakaguchi",
        "Sakaguchi",
        "Sakaguchi",
        "f5d6c4d3c5f4e3f3c2c6",
    ),
    name("italian", "Italian", "Italiana", "f5d6c4d3e6"),
    name("no-cat", "No-Cat", "No-Cat", "f5d6c4g5"),
    name("swallow", "Swallow", "Swallow", "f5d6c4g5c6"),
    name(
        "no-cat-continuation",
        "No-Cat, continuation",
        "No-Cat, continuação",
        "f5d6c4g5c6c5d7d3b4c3e3f3",
    ),
    // Perpendicular, 3. c5: the Rabbit and Rose family.
    name("horse", "Horse", "Horse", "f5d6c5f4d3"),
    name("rabbit", "Rabbit", "Rabbit", "f5d6c5f4e3"),
    name("mimura", "Mimura", "Mimura", "f5d6c5f4e3d3"),
    name("shaman", "Shaman", "Shaman", "f5d6c5f4e3c6f3"),
    name("inoue", "Inoue", "Inoue", "f5d6c5f4e3c6e6"),
    name("iago", "IAGO", "IAGO", "f5d6c5f4e3c6e6f6"),
    name("bhagat", "Bhagat", "Bhagat", "f5d6c5f4e3c6d7"),
    name("ralle", "Ralle", "Ralle", "f5d6c5f4e3c6d3f3"),
    name("rose", "Rose", "Rose", "f5d6c5f4e3c6d3f6e6d7"),
    name(
        "greenberg",
        "Greenberg",
        "Greenberg",
        "f5d6c5f4e3c6d3f6e6d7e7",
    ),
    name("flat", "Flat", "Flat", "f5d6c5f4e3c6d3f6e6d7g4"),
    name(
        "rotating-flat",
        "Rotating Flat",
        "Rotating Flat",
        "f5d6c5f4e3c6d3f6e6d7g4c4",
    ),
    name(
        "murakami",
        "Murakami variation",
        "Variante Murakami",
        "f5d6c5f4e3c6d3f6e6d7g4c4g6",
    ),
    name(
        "rotating-flat-kling",
        "Rotating Flat, Kling continuation",
        "Rotating Flat, continuação Kling",
        "f5d6c5f4e3c6d3f6e6d7g4c4g5c3f7d2e7f2",
    ),
    name(
        "rose-birth",
        "Rose-Birth",
        "Rose-Birth",
        "f5d6c5f4e3c6d3f6e6d7g3c4",
    ),
    name(
        "rose-birdie",
        "Rose-Birdie",
        "Rose-Birdie",
        "f5d6c5f4e3c6d3f6e6d7g3c4b4",
    ),
    name(
        "rose-tamenori-kling",
        "Rose-Tamenori-Kling",
        "Rose-Tamenori-Kling",
        "f5d6c5f4e3c6d3f6e6d7g3c4b4c3",
    ),
    name(
        "brightstein",
        "Brightstein",
        "Brightstein",
        "f5d6c5f4e3c6d3f6e6d7g3c4g5c3b4e2",
    ),
    // Diagonal.
    name("wing", "Wing variation", "Variante da asa", "f5f6d3f4"),
    name(
        "semi-wing",
        "Semi-wing variation",
        "Variante da semiasa",
        "f5f6c4f4",
    ),
    name("buffalo", "Buffalo", "Buffalo", "f5f6e6f4c3"),
    name(
        "hokuriku-buffalo",
        "Hokuriku Buffalo",
        "Hokuriku Buffalo",
        "f5f6e6f4c3c4",
    ),
    name(
        "maruoka-buffalo",
        "Maruoka Buffalo",
        "Maruoka Buffalo",
        "f5f6e6f4c3d7f3",
    ),
    name(
        "tanida-buffalo",
        "Tanida Buffalo",
        "Tanida Buffalo",
        "f5f6e6f4c3d6f3c4c5b4",
    ),
    name("cow", "Cow", "Cow", "f5f6e6f4e3"),
    name("chimney", "Chimney", "Chimney", "f5f6e6f4e3d6"),
    name(
        "rose-v-toth",
        "Rose-v-Toth",
        "Rose-v-Toth",
        "f5f6e6f4e3c5c4",
    ),
    name("landau", "Landau", "Landau", "f5f6e6f4e3c5c4d3c3"),
    name("maruoka", "Maruoka", "Maruoka", "f5f6e6f4e3c5c4d3f3e2"),
    name("tanida", "Tanida", "Tanida", "f5f6e6f4e3c5c4e7"),
    name("aircraft", "Aircraft", "Aircraft", "f5f6e6f4e3c5c4e7g4"),
    name("sailboat", "Sailboat", "Sailboat", "f5f6e6f4e3c5c4e7b5e2"),
    name("bat", "Bat", "Bat", "f5f6e6f4e3c5g5"),
    name(
        "bat-kling-alternative",
        "Bat, Kling alternative",
        "Bat, alternativa Kling",
        "f5f6e6f4e3c5g5d6g6",
    ),
    name("melnikov", "Melnikov", "Melnikov", "f5f6e6f4e3c5g5g3g4f3c4"),
    name(
        "bat-piau",
        "Bat, Piau continuation",
        "Bat, continuação Piau",
        "f5f6e6f4e3c5g5g3g4f3g6",
    ),
    name(
        "bat-kling",
        "Bat, Kling continuation",
        "Bat, continuação Kling",
        "f5f6e6f4e3c5g5f3g4g6g3d6f7h5h4h3e7",
    ),
    name("lollipop", "Lollipop", "Lollipop", "f5f6e6f4g3d6"),
    name("hamilton", "Hamilton", "Hamilton", "f5f6e6f4g3f3g4"),
    name("raccoon-dog", "Raccoon Dog", "Raccoon Dog", "f5f6e6f4g4"),
    name("heath", "Heath", "Heath", "f5f6e6f4g5"),
    name(
        "heath-chimney",
        "Heath-Chimney",
        "Heath-Chimney",
        "f5f6e6f4g5d6",
    ),
    name("heath-bat", "Heath-Bat", "Heath-Bat", "f5f6e6f4g5e7e3"),
    name(
        "iwasaki",
        "Iwasaki variation",
        "Variante Iwasaki",
        "f5f6e6f4g5e7d7",
    ),
    name(
        "mimura-2",
        "Mimura variation II",
        "Variante Mimura II",
        "f5f6e6f4g5e7f7c5e3f3c4d3c2",
    ),
    name("snake", "Snake", "Snake", "f5f6e6f4g6"),
    name("pyramid", "Pyramid", "Pyramid", "f5f6e6f4g6c5g4g5f3e3c4"),
];

/// A game's opening: the deepest named position it reached, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recognized {
    pub name: &'static OpeningName,
    /// The game ply (moves from the game's start) at which the named position stood on the
    /// board.
    pub ply: usize,
}

/// Why a line of [`OPENING_NAMES`] cannot be played (found by the tests, never at run time).
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
            names: HashMap::with_capacity(OPENING_NAMES.len()),
            max_discs: 0,
        };
        for o in OPENING_NAMES {
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
    for o in OPENING_NAMES {
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
    OPENING_NAMES.iter().find(|o| o.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use virada_rules::Symmetry;

    #[test]
    fn every_line_is_legal_and_names_one_position() {
        assert_eq!(check_lines(), Vec::new());
        assert!(OPENING_NAMES.len() >= 70);
        let mut ids = std::collections::HashSet::new();
        for o in OPENING_NAMES {
            assert!(ids.insert(o.id), "{} twice", o.id);
            assert!(!o.en.is_empty() && !o.pt.is_empty(), "{}", o.id);
            assert_eq!(by_id(o.id), Some(o));
        }
    }

    /// Each line played in each of the 8 orientations (its moves transformed square by
    /// square) is recognised as itself, at its last ply.
    #[test]
    fn every_name_is_recognised_in_all_eight_images() {
        for o in OPENING_NAMES {
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
