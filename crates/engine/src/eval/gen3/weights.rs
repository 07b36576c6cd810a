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
//! | 28 | 4 | payload encoding (u32, 0 = raw i16, 1 = compact, see [`super::compact`]) |
//! | 32 | 8 | FNV-1a 64 checksum of the payload |
//! | 40 | 24 | generation name, UTF-8, NUL-padded |
//! | 64 | | raw: the weights, i16, phase after phase (2·phases·weights bytes); compact: the stream of [`super::compact`] |
//!
//! The version tells a gen2 file (version 1) from a gen3 file, so one loader
//! ([`super::load_weights_file`]) accepts both; every field is checked and a refused file says
//! why.

use super::compact;
use super::patterns::{NUM_PHASES, SET_ID, WEIGHTS_PER_PHASE};
use crate::eval::pattern_weights::{
    read_checked, u32_at, write_container, write_container_payload, Layout, WeightsError, MAGIC,
};

/// Format version of gen3 files.
pub const FORMAT_VERSION: u32 = 2;
/// Payload encoding: raw little-endian i16.
pub const ENCODING_RAW: u32 = 0;
/// Payload encoding: representative entries as phase-to-phase differences, zero runs and
/// varints ([`super::compact`]).
pub const ENCODING_COMPACT: u32 = 1;

/// Gen3 weights, phase after phase.
#[derive(Clone, Debug, PartialEq)]
pub struct Gen3Weights {
    pub name: String,
    /// Units per disc of the stored weights (the declared scale).
    pub units_per_disc: u32,
    /// `NUM_PHASES * WEIGHTS_PER_PHASE` weights.
    pub weights: Vec<i16>,
}

/// The gen3 file's layout in the shared container.
const GEN3_LAYOUT: Layout = Layout {
    version: FORMAT_VERSION,
    set_id: SET_ID,
    phases: NUM_PHASES,
    per_phase: WEIGHTS_PER_PHASE,
    encoding: ENCODING_RAW,
    check_encoding: true,
};

/// The compact file's layout.
const GEN3_COMPACT_LAYOUT: Layout = Layout {
    encoding: ENCODING_COMPACT,
    ..GEN3_LAYOUT
};

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

    /// Reads and checks a gen3 weights file (either payload encoding).
    pub fn from_bytes(bytes: &[u8]) -> Result<Gen3Weights, WeightsError> {
        let (name, units_per_disc, encoding, payload) =
            read_checked(bytes, &GEN3_LAYOUT, &[ENCODING_RAW, ENCODING_COMPACT])?;
        let weights = if encoding == ENCODING_COMPACT {
            compact::decode(payload).map_err(|e| WeightsError::BadPayload(e.to_string()))?
        } else {
            payload
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect()
        };
        Ok(Gen3Weights {
            name,
            units_per_disc,
            weights,
        })
    }

    /// The file bytes with the raw payload (the name is cut to 24 bytes at a character
    /// boundary).
    pub fn to_bytes(&self) -> Vec<u8> {
        write_container(&GEN3_LAYOUT, &self.name, self.units_per_disc, &self.weights)
    }

    /// The file bytes with the compact payload, or `None` if the weights do not respect the
    /// pattern ties (every fitted file does; write other weights with [`Self::to_bytes`]).
    pub fn to_bytes_compact(&self) -> Option<Vec<u8>> {
        let payload = compact::encode(&self.weights)?;
        Some(write_container_payload(
            &GEN3_COMPACT_LAYOUT,
            &self.name,
            self.units_per_disc,
            &payload,
        ))
    }
}
