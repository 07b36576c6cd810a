//! The gen3 weights file: the `.vpw` container ([`crate::eval::weights_file`]) at format
//! version 2.
//!
//! Layout (integers little-endian), 64-byte header then the payload:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `VIRADAPW` |
//! | 8 | 4 | format version (u32, [`FORMAT_VERSION`] = 2) |
//! | 12 | 4 | pattern set id (u32, [`SET_ID`] = 5; [`INCREASING_SET_ID`] = 3 is read too) |
//! | 16 | 4 | number of phases (u32, [`NUM_PHASES`]) |
//! | 20 | 4 | weights per phase (u32, [`WEIGHTS_PER_PHASE`]) |
//! | 24 | 4 | units per disc of the weights (u32, declared scale, e.g. 100) |
//! | 28 | 4 | payload encoding (u32, 0 = raw i16, 1 = compact, see [`super::compact`]) |
//! | 32 | 8 | FNV-1a 64 checksum of the payload |
//! | 40 | 24 | generation name, UTF-8, NUL-padded |
//! | 64 | | raw: the weights, i16, phase after phase (2·phases·weights bytes); compact: the stream of [`super::compact`] |
//!
//! Every field is checked and a refused file says why (version 1, the retired gen2 evaluation's
//! files, among them). A file of set 3 (the same patterns with their digits in increasing square order, the
//! files written before 2026-12-01 evening) is read and its tables reordered to the current
//! digit order ([`DigitOrder`]): the same evaluation.

use super::compact;
use super::patterns::{
    DigitOrder, INCREASING_SET_ID, NUM_PHASES, PATTERNS, SET_ID, TABLE_OFFSETS, WEIGHTS_PER_PHASE,
};
use crate::eval::weights_file::{
    read_checked, u32_at, write_container, write_container_payload, Layout, WeightsError,
    HEADER_LEN, MAGIC,
};
use std::borrow::Cow;

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

/// A gen3 weights file as the evaluation takes it ([`Gen3Weights::load`]).
pub(crate) enum Loaded {
    /// Every weight.
    Weights(Gen3Weights),
    /// A compact payload, checked, its phases decoded on demand.
    Compact {
        name: String,
        units_per_disc: u32,
        decoder: compact::PhaseDecoder,
    },
}

/// The gen3 file's layout in the shared container.
const GEN3_LAYOUT: Layout = Layout {
    version: FORMAT_VERSION,
    set_id: SET_ID,
    phases: NUM_PHASES,
    per_phase: WEIGHTS_PER_PHASE,
    encoding: ENCODING_RAW,
};

/// The layout of set 3 files (digits in increasing square order).
const INCREASING_LAYOUT: Layout = Layout {
    set_id: INCREASING_SET_ID,
    ..GEN3_LAYOUT
};

/// The weights with every pattern table's entries moved to the other digit order (the
/// global features stay where they are).
fn reorder(weights: &[i16]) -> Vec<i16> {
    let mut out = weights.to_vec();
    for (q, phase) in weights.chunks_exact(WEIGHTS_PER_PHASE).enumerate() {
        let base = q * WEIGHTS_PER_PHASE;
        for (p, pattern) in PATTERNS.iter().enumerate() {
            let o = TABLE_OFFSETS[p];
            for i in 0..pattern.size() {
                out[base + o + pattern.reorder_index(i)] = phase[o + i];
            }
        }
    }
    out
}

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

    /// Reads and checks a gen3 weights file (either payload encoding; set 3 files are
    /// reordered to the current digit order).
    pub fn from_bytes(bytes: &[u8]) -> Result<Gen3Weights, WeightsError> {
        let (layout, order) = if bytes.len() >= 16 && u32_at(bytes, 12) == INCREASING_SET_ID {
            (&INCREASING_LAYOUT, DigitOrder::Increasing)
        } else {
            (&GEN3_LAYOUT, DigitOrder::Decreasing)
        };
        let (name, units_per_disc, encoding, payload) =
            read_checked(bytes, layout, &[ENCODING_RAW, ENCODING_COMPACT])?;
        let mut weights = if encoding == ENCODING_COMPACT {
            compact::decode_in(payload, order)
                .map_err(|e| WeightsError::BadPayload(e.to_string()))?
        } else {
            payload
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect()
        };
        if order != DigitOrder::Decreasing {
            weights = reorder(&weights);
        }
        Ok(Gen3Weights {
            name,
            units_per_disc,
            weights,
        })
    }

    /// Reads and checks a gen3 weights file as the evaluation takes it: a compact payload is
    /// checked whole and kept for decoding a phase at a time ([`compact::PhaseDecoder`]), any
    /// other file decoded completely ([`Gen3Weights::from_bytes`]).
    pub(crate) fn load(bytes: Cow<'static, [u8]>) -> Result<Loaded, WeightsError> {
        if bytes.len() >= 16 && u32_at(&bytes, 12) == INCREASING_SET_ID {
            return Gen3Weights::from_bytes(&bytes).map(Loaded::Weights);
        }
        let (name, units_per_disc, encoding, _) =
            read_checked(&bytes, &GEN3_LAYOUT, &[ENCODING_RAW, ENCODING_COMPACT])?;
        if encoding != ENCODING_COMPACT {
            return Gen3Weights::from_bytes(&bytes).map(Loaded::Weights);
        }
        let decoder = compact::PhaseDecoder::new(bytes, HEADER_LEN)
            .map_err(|e| WeightsError::BadPayload(e.to_string()))?;
        Ok(Loaded::Compact {
            name,
            units_per_disc,
            decoder,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::gen3::patterns::{
        global_offsets, instance_index_slow_in, phase_of_empties, tie_maps_in,
    };
    use crate::eval::gen3::Gen3Eval;
    use virada_rules::Board;

    /// Pseudo-random weights in increasing digit order that respect that order's ties.
    fn increasing_weights(seed: u64) -> Vec<i16> {
        let mut x = seed;
        let mut w: Vec<i16> = (0..NUM_PHASES * WEIGHTS_PER_PHASE)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((x >> 33) % 2001) as i16 - 1000
            })
            .collect();
        let maps = tie_maps_in(DigitOrder::Increasing);
        for q in 0..NUM_PHASES {
            for (p, map) in maps.iter().enumerate() {
                let o = q * WEIGHTS_PER_PHASE + TABLE_OFFSETS[p];
                for (i, &m) in map.iter().enumerate() {
                    w[o + i] = w[o + m as usize];
                }
            }
        }
        w
    }

    /// Boards along a few pseudo-random games.
    fn boards() -> Vec<Board> {
        let mut out = Vec::new();
        let mut x = 99u64;
        for _ in 0..6 {
            let mut b = Board::start();
            while !b.is_game_over() {
                let m = b.moves();
                if m == 0 {
                    b = b.pass();
                    continue;
                }
                out.push(b);
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let mut pick = m;
                for _ in 0..(x >> 33) % m.count_ones() as u64 {
                    pick &= pick - 1;
                }
                b = b.play_unchecked(virada_rules::Square::from_index_unchecked(
                    pick.trailing_zeros() as u8,
                ));
            }
        }
        out
    }

    #[test]
    fn set_3_files_are_reordered_to_the_same_evaluation() {
        let increasing = increasing_weights(7);
        let raw = write_container(&INCREASING_LAYOUT, "set3", 100, &increasing);
        let compact_layout = Layout {
            encoding: ENCODING_COMPACT,
            ..INCREASING_LAYOUT
        };
        let payload = compact::encode_in(&increasing, DigitOrder::Increasing).expect("tied");
        let packed = write_container_payload(&compact_layout, "set3", 100, &payload);
        let boards = boards();
        assert!(boards.len() > 300);
        for bytes in [raw, packed] {
            assert_eq!(u32_at(&bytes, 12), INCREASING_SET_ID);
            let w = Gen3Weights::from_bytes(&bytes).expect("set 3 files load");
            let eval = Gen3Eval::new(w.clone());
            for b in &boards {
                // The earlier definition, square by square, on the file's own tables.
                let t = &increasing[phase_of_empties(b.empty_count()) * WEIGHTS_PER_PHASE..];
                let mut want = 0i32;
                for (p, pattern) in PATTERNS.iter().enumerate() {
                    for sym in pattern.instances() {
                        let i = instance_index_slow_in(b, pattern, sym, DigitOrder::Increasing);
                        want += t[TABLE_OFFSETS[p] + i as usize] as i32;
                    }
                }
                want += global_offsets(b, b.moves())
                    .iter()
                    .map(|&o| t[o] as i32)
                    .sum::<i32>();
                assert_eq!(eval.evaluate_centidiscs(b), want);
            }
            // Written again, the file is of the current set and reads back the same.
            let again = w
                .to_bytes_compact()
                .expect("the reordered weights keep their ties");
            assert_eq!(u32_at(&again, 12), SET_ID);
            assert_eq!(Gen3Weights::from_bytes(&again).unwrap(), w);
            // Reordered back, the weights are the file's own.
            assert_eq!(reorder(&w.weights), increasing);
        }
    }
}
