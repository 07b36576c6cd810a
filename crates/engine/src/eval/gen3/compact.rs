//! The compact payload of a gen3 weights file (payload encoding 1).
//!
//! Most of gen3's 18.3 million entries are either copies (configurations that are mirror images
//! inside a symmetric pattern share one weight, see
//! [`tie_maps`](super::patterns::tie_maps)) or zero (configurations no training position
//! showed), and neighbouring phases are smoothed towards each other. The
//! compact payload stores, for every phase, only the **representative** entries (an entry
//! whose tie map points to itself, plus the global features), as the **difference from the
//! same entry of the previous phase** (phase 0: from 0), in one stream over all phases:
//!
//! - a token is `run` (LEB128 varint): that many zero differences, then, unless the stream is
//!   complete, one non-zero difference as a zigzag LEB128 varint;
//! - the stream ends exactly after the run that completes the last phase; any byte after it is
//!   refused, and so are an over-long varint, a run past the end, a zero where a non-zero value
//!   belongs, and a sum that leaves the i16 range.
//!
//! Decoding copies each representative back to the entries tied to it, so the result is the
//! raw table exactly; the encoder refuses weights that do not respect the ties (write them
//! raw instead).

use super::patterns::{
    tie_maps_in, DigitOrder, NUM_PHASES, PATTERNS, TABLE_OFFSETS, WEIGHTS_PER_PHASE,
};
use std::sync::OnceLock;

/// Why a compact payload was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompactError {
    /// The stream ends inside a token or before the last phase is complete.
    Truncated,
    /// Bytes after the end of the stream.
    TrailingBytes(usize),
    /// A malformed token (its byte offset and what is wrong).
    Malformed(usize, &'static str),
}

impl std::fmt::Display for CompactError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CompactError::Truncated => f.write_str("compact payload truncated"),
            CompactError::TrailingBytes(n) => {
                write!(f, "compact payload has {n} bytes after its end")
            }
            CompactError::Malformed(at, what) => {
                write!(f, "compact payload malformed at byte {at}: {what}")
            }
        }
    }
}

/// The representative entries of a phase (offsets inside the phase), in stream order.
pub fn representatives() -> &'static [u32] {
    &ties(DigitOrder::Decreasing).reps
}

/// The ties of a phase in one digit order.
struct Ties {
    /// The representative entries (offsets inside a phase), in stream order.
    reps: Vec<u32>,
    /// For every entry of a phase, the rank of its representative in `reps`.
    rank: Vec<u32>,
}

/// The ties of the digit order `order`, computed once per process.
fn ties(order: DigitOrder) -> &'static Ties {
    static DECREASING: OnceLock<Ties> = OnceLock::new();
    static INCREASING: OnceLock<Ties> = OnceLock::new();
    let cell = match order {
        DigitOrder::Decreasing => &DECREASING,
        DigitOrder::Increasing => &INCREASING,
    };
    cell.get_or_init(|| {
        let maps = tie_maps_in(order);
        let mut reps = Vec::new();
        let mut rank = vec![0u32; WEIGHTS_PER_PHASE];
        for (p, map) in maps.iter().enumerate().take(PATTERNS.len()) {
            let o = TABLE_OFFSETS[p];
            for (i, &m) in map.iter().enumerate() {
                // A representative is the smallest index of its class, so it comes first.
                if m as usize == i {
                    rank[o + i] = reps.len() as u32;
                    reps.push((o + i) as u32);
                } else {
                    rank[o + i] = rank[o + m as usize];
                }
            }
        }
        let globals = TABLE_OFFSETS[PATTERNS.len()]..WEIGHTS_PER_PHASE;
        for (global, r) in globals.clone().zip(&mut rank[globals]) {
            *r = reps.len() as u32;
            reps.push(global as u32);
        }
        Ties { reps, rank }
    })
}

fn put_varint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

#[inline]
fn get_varint(bytes: &[u8], at: &mut usize) -> Result<u32, CompactError> {
    // Most tokens are one byte.
    if let Some(&b) = bytes.get(*at) {
        if b < 0x80 {
            *at += 1;
            return Ok(b as u32);
        }
    }
    get_long_varint(bytes, at)
}

fn get_long_varint(bytes: &[u8], at: &mut usize) -> Result<u32, CompactError> {
    let start = *at;
    let mut v: u64 = 0;
    for shift in (0..35).step_by(7) {
        let &b = bytes.get(*at).ok_or(CompactError::Truncated)?;
        *at += 1;
        v |= ((b & 0x7F) as u64) << shift;
        if b & 0x80 == 0 {
            return u32::try_from(v).map_err(|_| CompactError::Malformed(start, "varint overflow"));
        }
    }
    Err(CompactError::Malformed(start, "varint longer than 5 bytes"))
}

/// The compact payload of `weights` (`NUM_PHASES * WEIGHTS_PER_PHASE` entries), or `None` if
/// some entry differs from its representative (the ties do not hold).
pub fn encode(weights: &[i16]) -> Option<Vec<u8>> {
    encode_in(weights, DigitOrder::Decreasing)
}

/// [`encode`] for weights whose tables use the digit order `order`.
pub fn encode_in(weights: &[i16], order: DigitOrder) -> Option<Vec<u8>> {
    assert_eq!(weights.len(), NUM_PHASES * WEIGHTS_PER_PHASE);
    let Ties { reps, rank } = ties(order);
    for phase in weights.chunks_exact(WEIGHTS_PER_PHASE) {
        if phase
            .iter()
            .zip(rank)
            .any(|(&w, &r)| w != phase[reps[r as usize] as usize])
        {
            return None;
        }
    }
    let mut out = Vec::new();
    let mut run = 0u32;
    for q in 0..NUM_PHASES {
        let cur = &weights[q * WEIGHTS_PER_PHASE..(q + 1) * WEIGHTS_PER_PHASE];
        for &r in reps {
            let prev = if q == 0 {
                0
            } else {
                weights[(q - 1) * WEIGHTS_PER_PHASE + r as usize] as i32
            };
            let d = cur[r as usize] as i32 - prev;
            if d == 0 {
                run += 1;
            } else {
                put_varint(&mut out, run);
                put_varint(&mut out, ((d << 1) ^ (d >> 31)) as u32);
                run = 0;
            }
        }
    }
    put_varint(&mut out, run);
    Some(out)
}

/// The weights (`NUM_PHASES * WEIGHTS_PER_PHASE` entries) of a compact payload.
pub fn decode(bytes: &[u8]) -> Result<Vec<i16>, CompactError> {
    decode_in(bytes, DigitOrder::Decreasing)
}

/// [`decode`] for a payload whose tables use the digit order `order` (the weights keep it).
pub fn decode_in(bytes: &[u8], order: DigitOrder) -> Result<Vec<i16>, CompactError> {
    let per = ties(order).reps.len();
    let mut acc = vec![0i16; per];
    let mut weights = vec![0i16; NUM_PHASES * WEIGHTS_PER_PHASE];
    let mut cursor = Cursor::START;
    for (q, phase) in weights.chunks_exact_mut(WEIGHTS_PER_PHASE).enumerate() {
        cursor = advance(bytes, cursor, (q + 1) * per, per, &mut acc)?;
        expand_phase_in(&acc, phase, order);
    }
    finish(bytes, cursor, NUM_PHASES * per)?;
    Ok(weights)
}

/// Where decoding a stream resumes: the byte offset of the next token and the stream position
/// (phase * representatives + rank) where its run of zero differences starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cursor {
    at: usize,
    pos: usize,
}

impl Cursor {
    const START: Cursor = Cursor { at: 0, pos: 0 };
}

/// Applies the differences of `bytes` from `cursor` up to (not including) stream position
/// `end` to `acc`, the representative entries of the phase being decoded (`per` of them; a
/// phase starts from the previous phase's values, so one array follows the stream through
/// every phase). Returns the cursor of the first token whose difference lies at `end` or
/// later (or that ends the stream).
fn advance(
    bytes: &[u8],
    mut cursor: Cursor,
    end: usize,
    per: usize,
    acc: &mut [i16],
) -> Result<Cursor, CompactError> {
    let total = NUM_PHASES * per;
    loop {
        let mut at = cursor.at;
        let run = get_varint(bytes, &mut at)? as usize;
        let pos =
            cursor
                .pos
                .checked_add(run)
                .filter(|&p| p <= total)
                .ok_or(CompactError::Malformed(
                    cursor.at,
                    "run past the last phase",
                ))?;
        if pos >= end {
            return Ok(cursor);
        }
        let value_at = at;
        let z = get_varint(bytes, &mut at)?;
        if z == 0 {
            return Err(CompactError::Malformed(value_at, "zero difference"));
        }
        let diff = ((z >> 1) as i64) ^ -((z & 1) as i64);
        let w = &mut acc[pos % per];
        *w = i16::try_from(*w as i64 + diff)
            .map_err(|_| CompactError::Malformed(0, "weight outside the i16 range"))?;
        cursor = Cursor { at, pos: pos + 1 };
    }
}

/// Checks that the token at `cursor` ends the stream exactly: its run reaches `total` and no
/// byte follows.
fn finish(bytes: &[u8], cursor: Cursor, total: usize) -> Result<(), CompactError> {
    let mut at = cursor.at;
    let run = get_varint(bytes, &mut at)? as usize;
    if cursor.pos.checked_add(run) != Some(total) {
        return Err(CompactError::Malformed(
            cursor.at,
            "run past the last phase",
        ));
    }
    if at != bytes.len() {
        return Err(CompactError::TrailingBytes(bytes.len() - at));
    }
    Ok(())
}

/// Phases between two of [`PhaseDecoder`]'s resumption points.
pub const SNAPSHOT_EVERY: usize = 5;

/// A compact payload (in the current digit order) checked once, whose phases are then decoded
/// one at a time on demand: it keeps the stream and, every [`SNAPSHOT_EVERY`] phases, the
/// representative entries and cursor where the phase starts, so a phase costs the decoding of
/// at most that many phases of the stream and its expansion, and a program holds 5 MB instead
/// of every phase's 23 MB of representatives.
#[derive(Debug)]
pub struct PhaseDecoder {
    bytes: std::borrow::Cow<'static, [u8]>,
    /// Where the payload starts in `bytes`.
    start: usize,
    /// For phases 0, [`SNAPSHOT_EVERY`], ...: the cursor where the phase starts and the
    /// representative entries before it (the previous phase's).
    snapshots: Vec<(Cursor, Vec<i16>)>,
}

impl PhaseDecoder {
    /// Checks the whole payload `bytes[start..]` (as [`decode`] does) and keeps what decoding a
    /// phase needs.
    pub fn new(
        bytes: std::borrow::Cow<'static, [u8]>,
        start: usize,
    ) -> Result<PhaseDecoder, CompactError> {
        let payload = &bytes[start..];
        let per = ties(DigitOrder::Decreasing).reps.len();
        let mut acc = vec![0i16; per];
        let mut cursor = Cursor::START;
        let mut snapshots = Vec::new();
        for phase in (0..NUM_PHASES).step_by(SNAPSHOT_EVERY) {
            cursor = advance(payload, cursor, phase * per, per, &mut acc)?;
            snapshots.push((cursor, acc.clone()));
        }
        cursor = advance(payload, cursor, NUM_PHASES * per, per, &mut acc)?;
        finish(payload, cursor, NUM_PHASES * per)?;
        Ok(PhaseDecoder {
            bytes,
            start,
            snapshots,
        })
    }

    /// Writes the weights of phase `phase` into `out` (at least `WEIGHTS_PER_PHASE` entries;
    /// the rest is left alone).
    pub fn phase(&self, phase: usize, out: &mut [i16]) {
        let per = ties(DigitOrder::Decreasing).reps.len();
        let (cursor, before) = &self.snapshots[phase / SNAPSHOT_EVERY];
        let mut acc = before.clone();
        advance(
            &self.bytes[self.start..],
            *cursor,
            (phase + 1) * per,
            per,
            &mut acc,
        )
        .expect("the payload was checked whole when the decoder was made");
        expand_phase(&acc, out);
    }
}

/// Writes the weights of one phase into `phase` (at least `WEIGHTS_PER_PHASE` entries; the
/// rest is left alone) from its representative entries `reps` ([`representatives`] order):
/// every entry takes its representative's value.
pub fn expand_phase(reps: &[i16], phase: &mut [i16]) {
    expand_phase_in(reps, phase, DigitOrder::Decreasing)
}

/// [`expand_phase`] for tables in the digit order `order`.
pub fn expand_phase_in(reps: &[i16], phase: &mut [i16], order: DigitOrder) {
    let rank = &ties(order).rank;
    for (w, &r) in phase[..WEIGHTS_PER_PHASE].iter_mut().zip(rank) {
        *w = reps[r as usize];
    }
}
