//! The gen3 weights file: the `.vpw` container of gen2 at format version 2.
//!
//! Layout (integers little-endian), 64-byte header then the payload:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `VIRADAPW` |
//! | 8 | 4 | format version (u32, [`FORMAT_VERSION`] = 2) |
//! | 12 | 4 | pattern set id (u32, [`SET_ID`] = 3) |
//! | 16 | 4 | number of phases (u32, [`NUM_PHASES`]) |
//! | 20 | 4 | weights per phase (u32, [`WEIGHTS_PER_PHASE`]) |
//! | 24 | 4 | units per disc of the weights (u32, declared scale, e.g. 100) |
//! | 28 | 4 | payload encoding (u32, 0 = raw i16) |
//! | 32 | 8 | FNV-1a 64 checksum of the payload |
//! | 40 | 24 | generation name, UTF-8, NUL-padded |
//! | 64 | 2·phases·weights | the weights, i16, phase after phase |
//!
//! The version tells a gen2 file (version 1) from a gen3 file, so one loader
//! ([`super::load_weights_file`]) accepts both; every field is checked and a refused file says
//! why.

use super::patterns::{NUM_PHASES, SET_ID, WEIGHTS_PER_PHASE};
use crate::eval::pattern_weights::{fnv1a64, WeightsError, HEADER_LEN, MAGIC, NAME_LEN};

/// Format version of gen3 files.
pub const FORMAT_VERSION: u32 = 2;
/// Payload encoding: raw little-endian i16.
pub const ENCODING_RAW: u32 = 0;

/// Gen3 weights, phase after phase.
#[derive(Clone, Debug, PartialEq)]
pub struct Gen3Weights {
    pub name: String,
    /// Units per disc of the stored weights (the declared scale).
    pub units_per_disc: u32,
    /// `NUM_PHASES * WEIGHTS_PER_PHASE` weights.
    pub weights: Vec<i16>,
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// The format version of a weights file's header, if it has the magic.
pub fn header_version(bytes: &[u8]) -> Option<u32> {
    (bytes.len() >= 12 && &bytes[..8] == MAGIC).then(|| u32_at(bytes, 8))
}

impl Gen3Weights {
    /// All zero, `units_per_disc` units per disc.
    pub fn zeros(name: &str, units_per_disc: u32) -> Gen3Weights {
        Gen3Weights {
            name: name.to_string(),
            units_per_disc,
            weights: vec![0; NUM_PHASES * WEIGHTS_PER_PHASE],
        }
    }

    /// The weights of one phase.
    pub fn phase(&self, phase: usize) -> &[i16] {
        &self.weights[phase * WEIGHTS_PER_PHASE..(phase + 1) * WEIGHTS_PER_PHASE]
    }

    /// Reads and checks a gen3 weights file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Gen3Weights, WeightsError> {
        if bytes.len() < HEADER_LEN {
            return Err(WeightsError::Truncated {
                expected: HEADER_LEN,
                found: bytes.len(),
            });
        }
        if &bytes[..8] != MAGIC {
            return Err(WeightsError::BadMagic);
        }
        let version = u32_at(bytes, 8);
        if version != FORMAT_VERSION {
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
        expect("pattern set id", 12, SET_ID)?;
        expect("number of phases", 16, NUM_PHASES as u32)?;
        expect("weights per phase", 20, WEIGHTS_PER_PHASE as u32)?;
        expect("payload encoding", 28, ENCODING_RAW)?;
        let units_per_disc = u32_at(bytes, 24);
        if units_per_disc == 0 {
            return Err(WeightsError::Mismatch {
                field: "units per disc",
                expected: 100,
                found: 0,
            });
        }
        let total = HEADER_LEN + 2 * NUM_PHASES * WEIGHTS_PER_PHASE;
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
        let mut stored = [0u8; 8];
        stored.copy_from_slice(&bytes[32..40]);
        let stored = u64::from_le_bytes(stored);
        let actual = fnv1a64(&bytes[HEADER_LEN..]);
        if stored != actual {
            return Err(WeightsError::BadChecksum {
                expected: stored,
                found: actual,
            });
        }
        let field = &bytes[40..40 + NAME_LEN];
        let end = field.iter().position(|&c| c == 0).unwrap_or(NAME_LEN);
        let name = std::str::from_utf8(&field[..end])
            .map_err(|_| WeightsError::BadName)?
            .to_string();
        let weights = bytes[HEADER_LEN..]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        Ok(Gen3Weights {
            name,
            units_per_disc,
            weights,
        })
    }

    /// The file bytes (the name is cut to 24 bytes at a character boundary).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_LEN + 2 * self.weights.len());
        out.extend_from_slice(MAGIC);
        for v in [
            FORMAT_VERSION,
            SET_ID,
            NUM_PHASES as u32,
            WEIGHTS_PER_PHASE as u32,
            self.units_per_disc,
            ENCODING_RAW,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let mut payload = Vec::with_capacity(2 * self.weights.len());
        for w in &self.weights {
            payload.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&fnv1a64(&payload).to_le_bytes());
        let mut name = [0u8; NAME_LEN];
        let mut cut = self.name.len().min(NAME_LEN);
        while !self.name.is_char_boundary(cut) {
            cut -= 1;
        }
        name[..cut].copy_from_slice(&self.name.as_bytes()[..cut]);
        out.extend_from_slice(&name);
        out.extend_from_slice(&payload);
        out
    }
}
