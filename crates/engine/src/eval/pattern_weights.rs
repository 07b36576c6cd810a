//! The weights file of the trained evaluation: reading, checking and writing.
//!
//! Layout (all integers little-endian):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `VIRADAPW` |
//! | 8 | 4 | format version (u32, currently 1) |
//! | 12 | 4 | pattern set id (u32, [`PATTERN_SET_ID`]) |
//! | 16 | 4 | number of phases (u32, [`NUM_PHASES`]) |
//! | 20 | 4 | weights per phase (u32, [`WEIGHTS_PER_PHASE`]) |
//! | 24 | 4 | units per disc of the weights (u32, 100 = hundredths of a disc) |
//! | 28 | 4 | reserved, 0 |
//! | 32 | 8 | FNV-1a 64 checksum of everything after the header |
//! | 40 | 24 | generation name, UTF-8, NUL-padded (e.g. `gen1-wthor`) |
//! | 64 | 2·phases·weights | the weights, i16, phase after phase |
//!
//! Every field is checked on load and each failure says what is wrong, so a damaged or stale
//! file is refused with a reason instead of producing a silently wrong evaluation.

use crate::eval::pattern::{NUM_PHASES, PATTERN_SET_ID, WEIGHTS_PER_PHASE};
use std::fmt;

/// File magic.
pub const MAGIC: &[u8; 8] = b"VIRADAPW";
/// Current format version.
pub const FORMAT_VERSION: u32 = 1;
/// Header size in bytes.
pub const HEADER_LEN: usize = 64;
/// Length of the generation name field.
pub const NAME_LEN: usize = 24;

/// Weights of all phases, ready for evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternWeights {
    /// Generation name from the file header.
    pub name: String,
    /// Units per disc of the stored weights.
    pub units_per_disc: u32,
    /// `NUM_PHASES * WEIGHTS_PER_PHASE` weights, phase after phase.
    pub weights: Vec<i16>,
}

/// Why a weights file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsError {
    /// Shorter than the header or than the header says.
    Truncated {
        expected: usize,
        found: usize,
    },
    /// Longer than the header says.
    TrailingBytes {
        expected: usize,
        found: usize,
    },
    BadMagic,
    UnsupportedVersion(u32),
    /// Made for another pattern set or phase scheme.
    Mismatch {
        field: &'static str,
        expected: u32,
        found: u32,
    },
    BadChecksum {
        expected: u64,
        found: u64,
    },
    BadName,
    /// The payload does not decode (an encoded payload whose checksum matched).
    BadPayload(String),
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::Truncated { expected, found } => write!(
                f,
                "weights file truncated: {found} bytes, expected {expected}"
            ),
            WeightsError::TrailingBytes { expected, found } => write!(
                f,
                "weights file has {found} bytes, expected exactly {expected}"
            ),
            WeightsError::BadMagic => f.write_str("not a Virada weights file (bad magic)"),
            WeightsError::UnsupportedVersion(v) => write!(
                f,
                "weights file format version {v} is not supported (this build reads {FORMAT_VERSION})"
            ),
            WeightsError::Mismatch {
                field,
                expected,
                found,
            } => write!(
                f,
                "weights file made for another evaluation: {field} is {found}, this build needs {expected}"
            ),
            WeightsError::BadChecksum { expected, found } => write!(
                f,
                "weights file corrupt: checksum {found:016x}, header says {expected:016x}"
            ),
            WeightsError::BadName => f.write_str("weights file header: name is not UTF-8"),
            WeightsError::BadPayload(why) => write!(f, "weights file corrupt: {why}"),
        }
    }
}

impl std::error::Error for WeightsError {}

/// FNV-1a 64-bit hash of `bytes` (the file checksum).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

pub(crate) fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// What the header of one generation's weights file must say (the container is shared by every
/// generation; the version tells them apart).
pub(crate) struct Layout {
    pub version: u32,
    pub set_id: u32,
    pub phases: usize,
    pub per_phase: usize,
    /// The payload encoding written at offset 28, and whether a reader checks it (gen2 wrote 0
    /// there as a reserved field and never read it).
    pub encoding: u32,
    pub check_encoding: bool,
}

/// The checked contents of a weights file.
pub(crate) struct Contents {
    pub name: String,
    pub units_per_disc: u32,
    pub weights: Vec<i16>,
}

/// Reads and checks a weights file laid out as `layout` says (raw i16 payload).
pub(crate) fn read_container(bytes: &[u8], layout: &Layout) -> Result<Contents, WeightsError> {
    let (name, units_per_disc, _, payload) = read_checked(bytes, layout, &[layout.encoding])?;
    let weights = payload
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect();
    Ok(Contents {
        name,
        units_per_disc,
        weights,
    })
}

/// Checks a weights file's header and checksum; `encodings` are the payload encodings the
/// caller reads (0 = raw i16, whose length is checked here; another encoding's payload is the
/// caller's to decode). Returns the name, units per disc, encoding and payload.
pub(crate) fn read_checked<'a>(
    bytes: &'a [u8],
    layout: &Layout,
    encodings: &[u32],
) -> Result<(String, u32, u32, &'a [u8]), WeightsError> {
    if bytes.len() < HEADER_LEN {
        return Err(WeightsError::Truncated {
            expected: HEADER_LEN,
            found: bytes.len(),
        });
    }
    if &bytes[0..8] != MAGIC {
        return Err(WeightsError::BadMagic);
    }
    let version = u32_at(bytes, 8);
    if version != layout.version {
        return Err(WeightsError::UnsupportedVersion(version));
    }
    let expect = |field, at, want: u32| {
        let found = u32_at(bytes, at);
        if found == want {
            Ok(())
        } else {
            Err(WeightsError::Mismatch {
                field,
                expected: want,
                found,
            })
        }
    };
    expect("pattern set id", 12, layout.set_id)?;
    expect("number of phases", 16, layout.phases as u32)?;
    expect("weights per phase", 20, layout.per_phase as u32)?;
    let encoding = if layout.check_encoding {
        let found = u32_at(bytes, 28);
        if !encodings.contains(&found) {
            return Err(WeightsError::Mismatch {
                field: "payload encoding",
                expected: encodings.first().copied().unwrap_or(0),
                found,
            });
        }
        found
    } else {
        layout.encoding
    };
    let units_per_disc = u32_at(bytes, 24);
    if units_per_disc == 0 {
        return Err(WeightsError::Mismatch {
            field: "units per disc",
            expected: 100,
            found: 0,
        });
    }
    if encoding == 0 {
        let total = HEADER_LEN + 2 * layout.phases * layout.per_phase;
        if bytes.len() < total {
            return Err(WeightsError::Truncated {
                expected: total,
                found: bytes.len(),
            });
        }
        if bytes.len() > total {
            return Err(WeightsError::TrailingBytes {
                expected: total,
                found: bytes.len(),
            });
        }
    }
    let stored = u64::from_le_bytes(bytes[32..40].try_into().unwrap_or([0; 8]));
    let actual = fnv1a64(&bytes[HEADER_LEN..]);
    if stored != actual {
        return Err(WeightsError::BadChecksum {
            expected: stored,
            found: actual,
        });
    }
    let name_field = &bytes[40..40 + NAME_LEN];
    let name_end = name_field.iter().position(|&c| c == 0).unwrap_or(NAME_LEN);
    let name = std::str::from_utf8(&name_field[..name_end])
        .map_err(|_| WeightsError::BadName)?
        .to_string();
    Ok((name, units_per_disc, encoding, &bytes[HEADER_LEN..]))
}

/// The file bytes of `weights` laid out as `layout` says (the name is cut to 24 bytes at a
/// character boundary).
pub(crate) fn write_container(
    layout: &Layout,
    name: &str,
    units_per_disc: u32,
    weights: &[i16],
) -> Vec<u8> {
    let mut payload = Vec::with_capacity(2 * weights.len());
    for w in weights {
        payload.extend_from_slice(&w.to_le_bytes());
    }
    write_container_payload(layout, name, units_per_disc, &payload)
}

/// The file bytes of an already encoded payload laid out as `layout` says (its `encoding`).
pub(crate) fn write_container_payload(
    layout: &Layout,
    name: &str,
    units_per_disc: u32,
    payload: &[u8],
) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(MAGIC);
    for v in [
        layout.version,
        layout.set_id,
        layout.phases as u32,
        layout.per_phase as u32,
        units_per_disc,
        layout.encoding,
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&fnv1a64(payload).to_le_bytes());
    let mut field = [0u8; NAME_LEN];
    let mut cut = name.len().min(NAME_LEN);
    while !name.is_char_boundary(cut) {
        cut -= 1;
    }
    field[..cut].copy_from_slice(&name.as_bytes()[..cut]);
    out.extend_from_slice(&field);
    out.extend_from_slice(payload);
    out
}

/// The gen2 file's layout.
const GEN2_LAYOUT: Layout = Layout {
    version: FORMAT_VERSION,
    set_id: PATTERN_SET_ID,
    phases: NUM_PHASES,
    per_phase: WEIGHTS_PER_PHASE,
    encoding: 0,
    check_encoding: false,
};

impl PatternWeights {
    /// All-zero weights (an evaluation that returns 0 everywhere) named `name`.
    pub fn zeros(name: &str) -> PatternWeights {
        PatternWeights {
            name: name.to_string(),
            units_per_disc: 100,
            weights: vec![0; NUM_PHASES * WEIGHTS_PER_PHASE],
        }
    }

    /// The weights of one phase.
    pub fn phase(&self, phase: usize) -> &[i16] {
        &self.weights[phase * WEIGHTS_PER_PHASE..(phase + 1) * WEIGHTS_PER_PHASE]
    }

    /// Reads and checks a weights file.
    pub fn from_bytes(bytes: &[u8]) -> Result<PatternWeights, WeightsError> {
        let c = read_container(bytes, &GEN2_LAYOUT)?;
        Ok(PatternWeights {
            name: c.name,
            units_per_disc: c.units_per_disc,
            weights: c.weights,
        })
    }

    /// The file bytes of these weights (the name is cut to 24 bytes at a character boundary).
    pub fn to_bytes(&self) -> Vec<u8> {
        write_container(&GEN2_LAYOUT, &self.name, self.units_per_disc, &self.weights)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> PatternWeights {
        let mut w = PatternWeights::zeros("test-gen");
        for (i, x) in w.weights.iter_mut().enumerate() {
            *x = (i as i64 * 7919 % 2001 - 1000) as i16;
        }
        w
    }

    #[test]
    fn round_trip() {
        let w = sample();
        let bytes = w.to_bytes();
        assert_eq!(bytes.len(), HEADER_LEN + 2 * NUM_PHASES * WEIGHTS_PER_PHASE);
        assert_eq!(PatternWeights::from_bytes(&bytes).unwrap(), w);
    }

    #[test]
    fn damage_is_detected_with_a_reason() {
        let bytes = sample().to_bytes();
        let mut flipped = bytes.clone();
        flipped[HEADER_LEN + 12345] ^= 1;
        assert!(matches!(
            PatternWeights::from_bytes(&flipped),
            Err(WeightsError::BadChecksum { .. })
        ));
        assert!(matches!(
            PatternWeights::from_bytes(&bytes[..bytes.len() - 2]),
            Err(WeightsError::Truncated { .. })
        ));
        assert!(matches!(
            PatternWeights::from_bytes(&bytes[..10]),
            Err(WeightsError::Truncated { .. })
        ));
        let mut magic = bytes.clone();
        magic[0] = b'X';
        assert_eq!(
            PatternWeights::from_bytes(&magic),
            Err(WeightsError::BadMagic)
        );
        let mut set = bytes.clone();
        set[12] = 9;
        let err = PatternWeights::from_bytes(&set).unwrap_err();
        assert!(err.to_string().contains("pattern set id is 9"), "{err}");
        let mut long = bytes;
        long.push(0);
        assert!(matches!(
            PatternWeights::from_bytes(&long),
            Err(WeightsError::TrailingBytes { .. })
        ));
    }

    #[test]
    fn fnv_known_values() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
