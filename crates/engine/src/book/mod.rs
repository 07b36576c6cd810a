//! The opening book: positions our engine has searched, keyed by their canonical symmetry, each
//! with the values of its searched moves and the negamax value of its best continuation.
//!
//! A book position ([`BookEntry`]) stores, in its canonical orientation, every move searched so
//! far with the value and depth of that search (the *leaf* values). A move whose resulting
//! position is itself in the book takes that position's value instead (negated: it is the
//! opponent's view), so the value of a position is the best of its moves all the way down
//! (negamax). [`Book::fix`] recomputes that after changes; [`Book::check_negamax`] verifies it.
//!
//! Lookups ([`Book::probe`], [`Book::choose`]) accept any of the 8 images of a position and
//! answer in the asked orientation. Values are final disc differences for the side to move
//! (WOF scoring), like the search's.
//!
//! ```
//! use virada_engine::book::{Book, BookEntry, LeafMove};
//! use virada_rules::{Position, Square, Symmetry};
//! // A tiny book: the start position with its 4 moves searched (all equal by symmetry).
//! let start = Position::start();
//! let moves = start.legal_moves().iter().map(|sq| LeafMove::new(sq, -1.0, 10, false));
//! let mut book = Book::new();
//! book.insert(start.board(), moves.collect());
//! book.fix();
//! let probe = book.probe(&start).unwrap();
//! assert_eq!(probe.value, -1.0);
//! assert_eq!(probe.moves.len(), 4);
//! // The same answer for a rotated start, with the moves rotated.
//! let rotated = Symmetry::Rotate90.apply_board(start.board());
//! assert!(book.probe_board(rotated).is_some());
//! let pick = book.choose(&start, 0.0, 7).unwrap();
//! assert!(start.legal_moves().contains(pick));
//! ```

mod edax;
mod error;
mod format;
mod info;
mod negamax;

pub use edax::{read_edax, write_edax};
pub use error::BookError;
pub use format::{FORMAT_VERSION, MAGIC};
pub use info::BookInfo;
pub use negamax::Inconsistency;

use crate::random::splitmix64;
use std::collections::HashMap;
use std::path::Path;
use std::sync::OnceLock;
use virada_rules::symmetry::canonical;
use virada_rules::{Board, Position, Square, Symmetry};

/// The default book, built by `virada book build` (see `docs/BOOK.md`) and embedded.
const SHIPPED_BYTES: &[u8] = include_bytes!("../../data/book.vbk");

/// Hundredths of a disc per disc in stored values.
pub const UNITS_PER_DISC: f32 = 100.0;

/// Largest value magnitude a book may hold (64 discs, in hundredths).
pub const MAX_VALUE: i16 = 6400;

/// One searched move of a book position: its square (in the entry's canonical orientation) and
/// the value the search gave it, for the side to move of the entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeafMove {
    pub square: Square,
    /// Hundredths of a disc, side to move's view, within `-MAX_VALUE..=MAX_VALUE`.
    pub value: i16,
    /// Plies of the search behind the value, this move included.
    pub depth: u8,
    /// The value is proven (searched to the end without selective pruning).
    pub exact: bool,
}

impl LeafMove {
    /// A searched move with its value in discs (rounded to hundredths, clamped to ±64).
    pub fn new(square: Square, value_discs: f32, depth: u8, exact: bool) -> LeafMove {
        LeafMove {
            square,
            value: to_units(value_discs),
            depth,
            exact,
        }
    }
}

/// A book position in its canonical orientation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// The searched moves, sorted by square.
    pub(crate) moves: Vec<LeafMove>,
    /// Negamax value of the best continuation (hundredths of a disc).
    pub(crate) value: i16,
    /// Depth behind `value` (plies from this position).
    pub(crate) depth: u8,
    /// `value` is proven.
    pub(crate) exact: bool,
}

impl BookEntry {
    /// The searched moves (canonical orientation), sorted by square.
    pub fn leaf_moves(&self) -> &[LeafMove] {
        &self.moves
    }

    /// Negamax value in discs.
    pub fn value(&self) -> f32 {
        self.value as f32 / UNITS_PER_DISC
    }

    /// Depth behind the value (plies).
    pub fn depth(&self) -> u8 {
        self.depth
    }

    /// Shallowest search depth among the leaf moves (how well this position was searched).
    pub fn search_depth(&self) -> u8 {
        self.moves.iter().map(|m| m.depth).min().unwrap_or(0)
    }
}

/// A move of a probed position, in the asked position's orientation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BookMove {
    pub square: Square,
    /// Expected final disc difference for the side to move after this move (WOF scoring).
    pub value: f32,
    /// Plies of search behind the value (through the book's own positions when `in_book`).
    pub depth: u8,
    /// The value is proven.
    pub exact: bool,
    /// The position after the move is itself in the book (its value is the negamax of its own
    /// moves, not a single search).
    pub in_book: bool,
}

/// What the book knows about a position.
#[derive(Clone, Debug, PartialEq)]
pub struct BookProbe {
    /// Value of the best continuation for the side to move, in discs.
    pub value: f32,
    /// Plies of search behind `value`.
    pub depth: u8,
    pub exact: bool,
    /// The searched moves, best first (ties by square), in the asked orientation.
    pub moves: Vec<BookMove>,
}

impl BookProbe {
    /// The best move.
    pub fn best(&self) -> Option<&BookMove> {
        self.moves.first()
    }

    /// The entry of `square`, if it was searched.
    pub fn value_of(&self, square: Square) -> Option<&BookMove> {
        self.moves.iter().find(|m| m.square == square)
    }
}

/// Where a move leads, for the book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Child {
    /// A position with a move for its side to move; `same_side` when reached through the
    /// opponent's forced pass (the mover moves again, so no negation).
    Node { board: Board, same_side: bool },
    /// The game ends: the final score for the mover, in hundredths.
    End(i16),
}

/// The position after `sq` on `board`, passes resolved.
pub(crate) fn child_of(board: Board, sq: Square) -> Child {
    let after = board.play_unchecked(sq);
    if after.moves() != 0 {
        Child::Node {
            board: after,
            same_side: false,
        }
    } else {
        let passed = after.pass();
        if passed.moves() != 0 {
            Child::Node {
                board: passed,
                same_side: true,
            }
        } else {
            Child::End(-(after.final_score() as i16) * 100)
        }
    }
}

/// Discs to hundredths, clamped.
pub(crate) fn to_units(discs: f32) -> i16 {
    (discs * UNITS_PER_DISC)
        .round()
        .clamp(-(MAX_VALUE as f32), MAX_VALUE as f32) as i16
}

/// An opening book (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Book {
    /// Positions by canonical board (the builder, `crate::book_build`, walks and grows them).
    pub(crate) entries: HashMap<Board, BookEntry>,
    /// Free text describing how the book was made (`key=value` lines).
    meta: String,
}

impl Book {
    /// An empty book.
    pub fn new() -> Book {
        Book::default()
    }

    /// The default book shipped with Virada, or `None` if this build ships none (an empty
    /// file). Parsed once, on first use.
    pub fn shipped() -> Option<&'static Book> {
        static SHIPPED: OnceLock<Option<Book>> = OnceLock::new();
        SHIPPED
            .get_or_init(|| {
                let book = Book::from_bytes(SHIPPED_BYTES).expect("the shipped book is valid");
                (!book.is_empty()).then_some(book)
            })
            .as_ref()
    }

    /// The bytes of the shipped book file (for `virada book export` of the default book).
    pub fn shipped_bytes() -> &'static [u8] {
        SHIPPED_BYTES
    }

    /// Reads a book in Virada's format (see [`format`](self) and `docs/BOOK.md`).
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        format::read(bytes)
    }

    /// The book in Virada's format.
    pub fn to_bytes(&self) -> Vec<u8> {
        format::write(self)
    }

    /// Reads a book file: Virada's format, or Edax's `book.dat` (recognised by its header).
    pub fn open(path: impl AsRef<Path>) -> Result<Book, BookError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|e| BookError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        let result = if edax::looks_like_edax(&bytes) {
            read_edax(&bytes)
        } else {
            Book::from_bytes(&bytes)
        };
        result.map_err(|e| e.in_file(path))
    }

    /// Writes the book in Virada's format, atomically (a temporary file renamed into place, so
    /// an interruption never leaves a half-written book).
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), BookError> {
        write_atomically(path.as_ref(), &self.to_bytes())
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// How the book was made (`key=value` lines).
    pub fn meta(&self) -> &str {
        &self.meta
    }

    pub fn set_meta(&mut self, meta: impl Into<String>) {
        self.meta = meta.into();
    }

    /// The entry of `board` (any orientation) and the symmetry taking `board` to the entry's
    /// canonical orientation.
    pub fn entry(&self, board: Board) -> Option<(&BookEntry, Symmetry)> {
        let (key, sym) = canonical(board);
        self.entries.get(&key).map(|e| (e, sym))
    }

    /// Whether `board` (any orientation) is in the book.
    pub fn contains(&self, board: Board) -> bool {
        self.entries.contains_key(&canonical(board).0)
    }

    /// All positions, canonical orientation, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&Board, &BookEntry)> {
        self.entries.iter()
    }

    /// Positions sorted by canonical key (a deterministic order).
    pub fn sorted(&self) -> Vec<(&Board, &BookEntry)> {
        let mut v: Vec<_> = self.entries.iter().collect();
        v.sort_unstable_by_key(|(b, _)| (b.player, b.opponent));
        v
    }

    /// Adds or replaces the searched moves of `board` (any orientation; squares in that
    /// orientation). Illegal squares and duplicates are dropped; a board without moves is not
    /// stored. The negamax values are stale until [`Book::fix`].
    pub fn insert(&mut self, board: Board, moves: Vec<LeafMove>) -> bool {
        let legal = board.moves();
        if legal == 0 || !board.is_valid() {
            return false;
        }
        let (key, sym) = canonical(board);
        let mut moves: Vec<LeafMove> = moves
            .into_iter()
            .filter(|m| legal & m.square.bit() != 0)
            .map(|m| LeafMove {
                square: sym.apply_square(m.square),
                value: m.value.clamp(-MAX_VALUE, MAX_VALUE),
                ..m
            })
            .collect();
        moves.sort_by_key(|m| m.square);
        moves.dedup_by_key(|m| m.square);
        if moves.is_empty() {
            return false;
        }
        let best = moves.iter().max_by_key(|m| m.value).expect("not empty");
        let entry = BookEntry {
            value: best.value,
            depth: best.depth,
            exact: best.exact,
            moves,
        };
        self.entries.insert(key, entry);
        true
    }

    /// Inserts an entry already in canonical form (format readers; checked by them).
    pub(crate) fn insert_canonical(&mut self, key: Board, entry: BookEntry) {
        self.entries.insert(key, entry);
    }

    /// Removes a position (any orientation).
    pub fn remove(&mut self, board: Board) -> bool {
        self.entries.remove(&canonical(board).0).is_some()
    }

    /// The value of `sq` in entry `e` at `key`: from the book when the child is a book
    /// position, else the leaf value. (value, depth, exact, in_book)
    pub(crate) fn move_value(&self, key: Board, m: &LeafMove) -> (i16, u8, bool, bool) {
        match child_of(key, m.square) {
            Child::End(v) => (v, 1, true, false),
            Child::Node { board, same_side } => match self.entry(board) {
                Some((c, _)) => {
                    let v = if same_side { c.value } else { -c.value };
                    (v, c.depth.saturating_add(1), c.exact, true)
                }
                None => (m.value, m.depth, m.exact, false),
            },
        }
    }

    /// What the book knows about `position`, in its orientation.
    pub fn probe(&self, position: &Position) -> Option<BookProbe> {
        self.probe_board(position.board())
    }

    /// [`Book::probe`] on a board seen from the side to move.
    pub fn probe_board(&self, board: Board) -> Option<BookProbe> {
        let (key, sym) = canonical(board);
        let entry = self.entries.get(&key)?;
        let back = sym.inverse();
        let mut moves: Vec<BookMove> = entry
            .moves
            .iter()
            .map(|m| {
                let (value, depth, exact, in_book) = self.move_value(key, m);
                BookMove {
                    square: back.apply_square(m.square),
                    value: value as f32 / UNITS_PER_DISC,
                    depth,
                    exact,
                    in_book,
                }
            })
            .collect();
        moves.sort_by(|a, b| b.value.total_cmp(&a.value).then(a.square.cmp(&b.square)));
        Some(BookProbe {
            value: entry.value as f32 / UNITS_PER_DISC,
            depth: entry.depth,
            exact: entry.exact,
            moves,
        })
    }

    /// A book move for `position`: drawn (deterministically from `seed`) among the moves whose
    /// value is within `tolerance_discs` of the best, each as likely as the others. `None` if
    /// the position is not in the book. The draw is made in the canonical orientation, so the
    /// 8 images of a position with the same seed get the same (transformed) move.
    pub fn choose(&self, position: &Position, tolerance_discs: f32, seed: u64) -> Option<Square> {
        self.choose_board(position.board(), tolerance_discs, seed)
    }

    /// [`Book::choose`] on a board seen from the side to move.
    pub fn choose_board(&self, board: Board, tolerance_discs: f32, seed: u64) -> Option<Square> {
        let (key, sym) = canonical(board);
        let entry = self.entries.get(&key)?;
        let values: Vec<(Square, i16)> = entry
            .moves
            .iter()
            .map(|m| (m.square, self.move_value(key, m).0))
            .collect();
        let best = values.iter().map(|v| v.1).max()?;
        let tolerance = to_units(tolerance_discs.max(0.0));
        let candidates: Vec<Square> = values
            .iter()
            .filter(|v| v.1 as i32 >= best as i32 - tolerance as i32)
            .map(|v| v.0)
            .collect();
        let pick = splitmix64(seed ^ key.hash()) % candidates.len() as u64;
        Some(sym.inverse().apply_square(candidates[pick as usize]))
    }

    /// Recomputes every position's value as the best of its moves, children first (see the
    /// module documentation). Returns how many positions changed value.
    pub fn fix(&mut self) -> usize {
        negamax::fix(self)
    }

    /// The positions whose stored value is not the best of their moves' values.
    pub fn check_negamax(&self) -> Vec<Inconsistency> {
        negamax::check(self)
    }

    /// Counts and distributions (`virada book info`).
    pub fn info(&self) -> BookInfo {
        BookInfo::of(self)
    }

    /// Merges `other` into this book: positions it has and this book lacks are added; for
    /// positions in both, each move keeps the deeper search (ties: this book's). Values are
    /// stale until [`Book::fix`]. Returns the positions added.
    pub fn merge(&mut self, other: &Book) -> usize {
        let mut added = 0;
        for (key, theirs) in &other.entries {
            match self.entries.get_mut(key) {
                None => {
                    self.entries.insert(*key, theirs.clone());
                    added += 1;
                }
                Some(ours) => {
                    for m in &theirs.moves {
                        match ours.moves.iter_mut().find(|o| o.square == m.square) {
                            Some(o) if o.depth < m.depth => *o = *m,
                            Some(_) => {}
                            None => ours.moves.push(*m),
                        }
                    }
                    ours.moves.sort_by_key(|m| m.square);
                }
            }
        }
        added
    }
}

/// Writes `bytes` to `path` through a temporary file in the same directory.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), BookError> {
    let io = |e: std::io::Error| BookError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    };
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    std::fs::write(&tmp, bytes).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)
}

#[cfg(test)]
pub(crate) mod tests;
