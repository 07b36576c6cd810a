//! The `.vpw` container of a weights file: header checks, checksum, writing. The evaluation's
//! own layout and payload are in [`crate::eval::gen3::weights`], which documents the header
//! field by field.
//!
//! Every field is checked on load and each failure says what is wrong, so a damaged or stale
//! file is refused with a reason instead of producing a silently wrong evaluation.

use crate::checksum::fnv1a64;
use std::fmt;

/// File magic.
pub const MAGIC: &[u8; 8] = b"VIRADAPW";
/// Header size in bytes.
pub const HEADER_LEN: usize = 64;
/// Length of the generation name field.
pub const NAME_LEN: usize = 24;

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
    /// A format version this build does not read (version 1 was the retired gen2 evaluation).
    UnsupportedVersion {
        found: u32,
        supported: u32,
    },
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
            WeightsError::UnsupportedVersion { found, supported } => write!(
                f,
                "weights file format version {found} is not supported (this build reads {supported})"
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
    /// The payload encoding written at offset 28.
    pub encoding: u32,
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
        return Err(WeightsError::UnsupportedVersion {
            found: version,
            supported: layout.version,
        });
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
    let encoding = u32_at(bytes, 28);
    if !encodings.contains(&encoding) {
        return Err(WeightsError::Mismatch {
            field: "payload encoding",
            expected: encodings.first().copied().unwrap_or(0),
            found: encoding,
        });
    }
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
