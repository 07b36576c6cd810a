//! Virada's book file (`.vbk`): versioned, checksummed, every field checked on load.
//!
//! Layout (integers little-endian):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `VIRADABK` |
//! | 8 | 2 | format version (u16, currently 1) |
//! | 10 | 2 | flags (u16, 0) |
//! | 12 | 4 | number of positions (u32) |
//! | 16 | 4 | length of the description (u32) |
//! | 20 | 4 | length of everything after the header (u32) |
//! | 24 | 8 | FNV-1a 64 checksum of everything after the header |
//! | 32 | m | description: UTF-8 `key=value` lines (how the book was made) |
//! | 32+m | ... | positions, sorted by (player, opponent) |
//!
//! A position: `player` u64, `opponent` u64 (the canonical image of the board, side to move's
//! discs first, bit 0 = a1), negamax value i16 (hundredths of a disc), its depth u8, flags u8
//! (bit 0: exact), move count u8 (at least 1), then per move: square u8 (0 = a1 ... 63 = h8,
//! canonical orientation), leaf value i16, depth u8, flags u8 (bit 0: exact); moves sorted by
//! square.

use super::{Book, BookEntry, BookError, LeafMove, MAX_VALUE};
use crate::checksum::fnv1a64;
use virada_rules::symmetry::canonical;
use virada_rules::{Board, Square};

/// File magic.
pub const MAGIC: &[u8; 8] = b"VIRADABK";
/// Current format version.
pub const FORMAT_VERSION: u16 = 1;
const HEADER_LEN: usize = 32;
const ENTRY_FIXED: usize = 16 + 2 + 1 + 1 + 1;
const MOVE_LEN: usize = 5;

pub(super) fn write(book: &Book) -> Vec<u8> {
    let mut payload = Vec::with_capacity(book.len() * 64 + book.meta.len());
    payload.extend_from_slice(book.meta.as_bytes());
    for (key, e) in book.sorted() {
        payload.extend_from_slice(&key.player.to_le_bytes());
        payload.extend_from_slice(&key.opponent.to_le_bytes());
        payload.extend_from_slice(&e.value.to_le_bytes());
        payload.push(e.depth);
        payload.push(e.exact as u8);
        payload.push(e.moves.len() as u8);
        for m in &e.moves {
            payload.push(m.square.index() as u8);
            payload.extend_from_slice(&m.value.to_le_bytes());
            payload.push(m.depth);
            payload.push(m.exact as u8);
        }
    }
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&(book.len() as u32).to_le_bytes());
    out.extend_from_slice(&(book.meta.len() as u32).to_le_bytes());
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&fnv1a64(&payload).to_le_bytes());
    out.extend_from_slice(&payload);
    out
}

/// A little-endian reader over the payload that reports truncation.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], BookError> {
        let end = self.at + n;
        if end > self.bytes.len() {
            return Err(BookError::Truncated {
                expected: HEADER_LEN + end,
                found: HEADER_LEN + self.bytes.len(),
            });
        }
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8, BookError> {
        Ok(self.take(1)?[0])
    }
    fn i16(&mut self) -> Result<i16, BookError> {
        let b = self.take(2)?;
        Ok(i16::from_le_bytes([b[0], b[1]]))
    }
    fn u64(&mut self) -> Result<u64, BookError> {
        let b = self.take(8)?;
        Ok(u64::from_le_bytes(b.try_into().expect("8 bytes")))
    }
}

fn u32_at(b: &[u8], at: usize) -> usize {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]) as usize
}

pub(super) fn read(bytes: &[u8]) -> Result<Book, BookError> {
    if bytes.len() < 8 || &bytes[..8] != MAGIC {
        return Err(BookError::BadMagic);
    }
    if bytes.len() < HEADER_LEN {
        return Err(BookError::Truncated {
            expected: HEADER_LEN,
            found: bytes.len(),
        });
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != FORMAT_VERSION {
        return Err(BookError::UnsupportedVersion(version));
    }
    let flags = u16::from_le_bytes([bytes[10], bytes[11]]);
    if flags != 0 {
        return Err(BookError::BadEntry {
            index: 0,
            reason: format!("unknown header flags {flags:#06x} (this Virada knows none)"),
        });
    }
    let count = u32_at(bytes, 12);
    let meta_len = u32_at(bytes, 16);
    let payload_len = u32_at(bytes, 20);
    let expected = HEADER_LEN + payload_len;
    if bytes.len() < expected {
        return Err(BookError::Truncated {
            expected,
            found: bytes.len(),
        });
    }
    if bytes.len() > expected {
        return Err(BookError::TrailingBytes {
            expected,
            found: bytes.len(),
        });
    }
    let payload = &bytes[HEADER_LEN..];
    let stored = u64::from_le_bytes(bytes[24..32].try_into().expect("8 bytes"));
    let found = fnv1a64(payload);
    if stored != found {
        return Err(BookError::BadChecksum {
            expected: stored,
            found,
        });
    }
    let mut r = Reader {
        bytes: payload,
        at: 0,
    };
    let meta = std::str::from_utf8(r.take(meta_len)?)
        .map_err(|_| BookError::BadEntry {
            index: 0,
            reason: "the description is not UTF-8".into(),
        })?
        .to_string();
    // Each entry takes at least this much: a count beyond it is a lie, not an allocation.
    if count > payload.len() / (ENTRY_FIXED + MOVE_LEN) {
        return Err(BookError::Truncated {
            expected: HEADER_LEN + meta_len + count * (ENTRY_FIXED + MOVE_LEN),
            found: bytes.len(),
        });
    }
    let mut book = Book::new();
    book.meta = meta;
    let mut previous: Option<(u64, u64)> = None;
    for index in 0..count {
        let bad = |reason: String| BookError::BadEntry { index, reason };
        let key = Board::new(r.u64()?, r.u64()?);
        let value = r.i16()?;
        let depth = r.u8()?;
        let exact = r.u8()?;
        let n = r.u8()? as usize;
        if !key.is_valid() {
            return Err(bad("a square holds discs of both sides".into()));
        }
        if previous.is_some_and(|p| p >= (key.player, key.opponent)) {
            return Err(bad("positions out of order or repeated".into()));
        }
        previous = Some((key.player, key.opponent));
        if canonical(key).0 != key {
            return Err(bad(
                "the position is not in its canonical orientation".into()
            ));
        }
        check_value(value).map_err(&bad)?;
        if exact > 1 {
            return Err(bad(format!("unknown flags {exact:#x}")));
        }
        let legal = key.moves();
        if n == 0 {
            return Err(bad("a position without moves".into()));
        }
        let mut moves = Vec::with_capacity(n);
        for _ in 0..n {
            let sq = r.u8()?;
            let value = r.i16()?;
            let depth = r.u8()?;
            let flags = r.u8()?;
            let square = Square::from_index(sq).ok_or_else(|| bad(format!("square {sq}")))?;
            if legal & square.bit() == 0 {
                return Err(bad(format!("{square} is not a legal move there")));
            }
            if moves.last().is_some_and(|m: &LeafMove| m.square >= square) {
                return Err(bad("moves out of order or repeated".into()));
            }
            check_value(value).map_err(&bad)?;
            if flags > 1 {
                return Err(bad(format!("unknown move flags {flags:#x}")));
            }
            moves.push(LeafMove {
                square,
                value,
                depth,
                exact: flags == 1,
            });
        }
        book.insert_canonical(
            key,
            BookEntry {
                moves,
                value,
                depth,
                exact: exact == 1,
            },
        );
    }
    if r.at != payload.len() {
        return Err(BookError::TrailingBytes {
            expected: HEADER_LEN + r.at,
            found: bytes.len(),
        });
    }
    Ok(book)
}

fn check_value(v: i16) -> Result<(), String> {
    if (-MAX_VALUE..=MAX_VALUE).contains(&v) {
        Ok(())
    } else {
        Err(format!("value {v} is beyond ±{MAX_VALUE} hundredths"))
    }
}
