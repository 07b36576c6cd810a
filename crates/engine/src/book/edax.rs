//! Edax's `book.dat`: a reader so users can bring their Edax books, and a writer (used to test
//! the reader, and to give Edax users our book).
//!
//! Written from the public description of the format (field list of Edax's book structures), not
//! from Edax's code. All integers little-endian:
//!
//! - header: `EDAX` and `BOOK` as two 32-bit integers (on disk `XADE` `KOOB`), the date
//!   (i16 year, then month, day, hour, minute, second as one byte each), the options (i32 level,
//!   i32 endgame empties, i32 midgame error, i32 endgame error, i32 verbosity), then i32 the
//!   number of positions;
//! - each position: u64 player discs, u64 opponent discs (bit 0 = a1), u32 wins, draws, losses
//!   and lines (game statistics), i16 score value, lower and upper bound, u8 number of links,
//!   u8 search level, then each link (i8 score, u8 move), then the leaf (i8 score, u8 move:
//!   the best move not linked; 65 when there is none).
//!
//! A link's score, like the leaf's, is the value of that move for the side to move, in discs.
//! On import every link and the leaf become searched moves of the position at the position's
//! level (their values are then negamaxed through our own positions; Edax's bounds and game
//! statistics are not used). On export each book position becomes an Edax position: moves to
//! book positions are links, the best other move is the leaf (Edax keeps one), values rounded
//! to whole discs.

use super::{Book, BookError, LeafMove};
use virada_rules::{Board, Square};

const EDAX: u32 = 0x4544_4158; // "EDAX"
const BOOK: u32 = 0x424F_4F4B; // "BOOK"
const HEADER_LEN: usize = 8 + 7 + 20 + 4;
const POSITION_FIXED: usize = 16 + 16 + 6 + 2;
/// The leaf move of a position whose moves are all linked.
const NO_MOVE: u8 = 65;
const PASS: u8 = 64;

/// Whether `bytes` start like an Edax book.
pub(super) fn looks_like_edax(bytes: &[u8]) -> bool {
    bytes.len() >= 8
        && u32::from_le_bytes(bytes[0..4].try_into().expect("4 bytes")) == EDAX
        && u32::from_le_bytes(bytes[4..8].try_into().expect("4 bytes")) == BOOK
}

/// Reads an Edax `book.dat` into a (negamaxed) book.
pub fn read_edax(bytes: &[u8]) -> Result<Book, BookError> {
    if !looks_like_edax(bytes) {
        return Err(BookError::BadMagic);
    }
    if bytes.len() < HEADER_LEN {
        return Err(BookError::Truncated {
            expected: HEADER_LEN,
            found: bytes.len(),
        });
    }
    let i32_at = |at: usize| i32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    let level = i32_at(15);
    let count = i32_at(35);
    let bad_header = |reason: String| BookError::BadEntry { index: 0, reason };
    if count < 0 || count as usize > (bytes.len() - HEADER_LEN) / (POSITION_FIXED + 2) {
        return Err(bad_header(format!(
            "Edax header announces {count} positions, the file has room for at most {}",
            (bytes.len() - HEADER_LEN) / (POSITION_FIXED + 2)
        )));
    }
    let mut at = HEADER_LEN;
    let mut take = |n: usize| -> Result<&[u8], BookError> {
        if at + n > bytes.len() {
            return Err(BookError::Truncated {
                expected: at + n,
                found: bytes.len(),
            });
        }
        at += n;
        Ok(&bytes[at - n..at])
    };
    let mut book = Book::new();
    for index in 0..count as usize {
        let bad = |reason: String| BookError::BadEntry {
            index,
            reason: format!("Edax position: {reason}"),
        };
        let fixed = take(POSITION_FIXED)?;
        let u64_at = |o: usize| u64::from_le_bytes(fixed[o..o + 8].try_into().expect("8 bytes"));
        let board = Board::new(u64_at(0), u64_at(8));
        let n_link = fixed[38] as usize;
        let depth = fixed[39];
        let links = take(2 * n_link)?.to_vec();
        let leaf = take(2)?;
        let (leaf_score, leaf_move) = (leaf[0] as i8, leaf[1]);
        if !board.is_valid() {
            return Err(bad("a square holds discs of both sides".into()));
        }
        let legal = board.moves();
        let mut moves = Vec::with_capacity(n_link + 1);
        let mut square_of = |score: i8, mv: u8| -> Result<(), BookError> {
            let sq = Square::from_index(mv)
                .filter(|sq| legal & sq.bit() != 0)
                .ok_or_else(|| bad(format!("move {mv} is not legal there")))?;
            if !(-64..=64).contains(&score) {
                return Err(bad(format!("score {score} is beyond ±64")));
            }
            if moves.iter().any(|m: &LeafMove| m.square == sq) {
                return Err(bad(format!("{sq} appears twice")));
            }
            moves.push(LeafMove::new(sq, score as f32, depth, false));
            Ok(())
        };
        for l in links.chunks_exact(2) {
            square_of(l[0] as i8, l[1])?;
        }
        match leaf_move {
            NO_MOVE | PASS => {}
            mv => square_of(leaf_score, mv)?,
        }
        if legal == 0 {
            // A position where the side to move passes: nothing for our book (we store the
            // position after the pass), but it must not claim moves.
            if !moves.is_empty() {
                return Err(bad("moves in a position without legal moves".into()));
            }
            continue;
        }
        if !moves.is_empty() {
            book.insert(board, moves);
        }
    }
    if at != bytes.len() {
        return Err(BookError::TrailingBytes {
            expected: at,
            found: bytes.len(),
        });
    }
    book.fix();
    book.set_meta(format!("imported=edax\nedax_level={level}\n"));
    Ok(book)
}

/// Writes `book` as an Edax `book.dat` (see the module documentation for what is kept).
pub fn write_edax(book: &Book) -> Vec<u8> {
    let discs = |v: i16| ((v as f32) / 100.0).round().clamp(-64.0, 64.0) as i8;
    let sorted = book.sorted();
    let max_level = sorted
        .iter()
        .map(|(_, e)| e.search_depth())
        .max()
        .unwrap_or(0);
    let max_ply = sorted
        .iter()
        .map(|(k, _)| 60 - k.empty_count())
        .max()
        .unwrap_or(0);
    let mut out = Vec::with_capacity(HEADER_LEN + sorted.len() * 64);
    out.extend_from_slice(&EDAX.to_le_bytes());
    out.extend_from_slice(&BOOK.to_le_bytes());
    out.extend_from_slice(&[0; 7]); // date unknown
    for option in [max_level as i32, 60 - max_ply as i32, 2, 4, 1] {
        out.extend_from_slice(&option.to_le_bytes());
    }
    out.extend_from_slice(&(sorted.len() as i32).to_le_bytes());
    for (key, e) in sorted {
        let mut links = Vec::new();
        let mut leaf: Option<(i16, Square)> = None;
        for m in &e.moves {
            let (value, _, _, in_book) = book.move_value(*key, m);
            if in_book {
                links.push((discs(value), m.square));
            } else if leaf.is_none_or(|(v, _)| value > v) {
                leaf = Some((value, m.square));
            }
        }
        out.extend_from_slice(&key.player.to_le_bytes());
        out.extend_from_slice(&key.opponent.to_le_bytes());
        out.extend_from_slice(&[0; 16]); // wins, draws, losses, lines: no game statistics
        out.extend_from_slice(&(discs(e.value) as i16).to_le_bytes());
        out.extend_from_slice(&(-64i16).to_le_bytes());
        out.extend_from_slice(&64i16.to_le_bytes());
        out.push(links.len() as u8);
        out.push(e.search_depth());
        for (score, sq) in links {
            out.push(score as u8);
            out.push(sq.index() as u8);
        }
        match leaf {
            Some((v, sq)) => {
                out.push(discs(v) as u8);
                out.push(sq.index() as u8);
            }
            None => out.extend_from_slice(&[0, NO_MOVE]),
        }
    }
    out
}
