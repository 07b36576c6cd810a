//! The compact payload of a gen3 weights file (payload encoding 1).
//!
//! Most of gen3's 18.3 million entries are either copies (configurations that are mirror images
//! inside a symmetric pattern share one weight, see [`tie_maps`]) or zero (configurations no
//! training position showed), and neighbouring phases are smoothed towards each other. The
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
    &ties(DigitOrder::Decreasing).0
}

/// For the digit order `order`: the representative entries of a phase in stream order, and
/// for every entry of a phase the offset of its representative.
fn ties(order: DigitOrder) -> &'static (Vec<u32>, Vec<u32>) {
    static DECREASING: OnceLock<(Vec<u32>, Vec<u32>)> = OnceLock::new();
    static INCREASING: OnceLock<(Vec<u32>, Vec<u32>)> = OnceLock::new();
    let cell = match order {
        DigitOrder::Decreasing => &DECREASING,
        DigitOrder::Increasing => &INCREASING,
    };
    cell.get_or_init(|| {
        let maps = tie_maps_in(order);
        let mut reps = Vec::new();
        let mut of: Vec<u32> = (0..WEIGHTS_PER_PHASE as u32).collect();
        for (p, map) in maps.iter().enumerate().take(PATTERNS.len()) {
            for (i, &m) in map.iter().enumerate() {
                if m as usize == i {
                    reps.push((TABLE_OFFSETS[p] + i) as u32);
                }
                of[TABLE_OFFSETS[p] + i] = (TABLE_OFFSETS[p] + m as usize) as u32;
            }
        }
        reps.extend(TABLE_OFFSETS[PATTERNS.len()] as u32..WEIGHTS_PER_PHASE as u32);
        (reps, of)
    })
}

fn put_varint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn get_varint(bytes: &[u8], at: &mut usize) -> Result<u32, CompactError> {
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
    let (reps, of) = ties(order);
    for phase in weights.chunks_exact(WEIGHTS_PER_PHASE) {
        if phase.iter().zip(of).any(|(&w, &r)| w != phase[r as usize]) {
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
    let (reps, of) = ties(order);
    let per = reps.len();
    let total = NUM_PHASES * per;
    // Differences in stream order, then summed phase after phase.
    let mut diffs = vec![0i64; total];
    let (mut at, mut pos) = (0usize, 0usize);
    loop {
        let token = at;
        let run = get_varint(bytes, &mut at)? as usize;
        pos = pos
            .checked_add(run)
            .filter(|&p| p <= total)
            .ok_or(CompactError::Malformed(token, "run past the last phase"))?;
        if pos == total {
            break;
        }
        let value_at = at;
        let z = get_varint(bytes, &mut at)?;
        if z == 0 {
            return Err(CompactError::Malformed(value_at, "zero difference"));
        }
        diffs[pos] = ((z >> 1) as i64) ^ -((z & 1) as i64);
        pos += 1;
    }
    if at != bytes.len() {
        return Err(CompactError::TrailingBytes(bytes.len() - at));
    }
    let mut weights = vec![0i16; NUM_PHASES * WEIGHTS_PER_PHASE];
    let mut acc = vec![0i64; per];
    for q in 0..NUM_PHASES {
        let phase = &mut weights[q * WEIGHTS_PER_PHASE..(q + 1) * WEIGHTS_PER_PHASE];
        for (k, &r) in reps.iter().enumerate() {
            acc[k] += diffs[q * per + k];
            phase[r as usize] = i16::try_from(acc[k])
                .map_err(|_| CompactError::Malformed(0, "weight outside the i16 range"))?;
        }
        for i in 0..WEIGHTS_PER_PHASE {
            phase[i] = phase[of[i] as usize];
        }
    }
    Ok(weights)
}
