//! The layout of a pattern evaluation's weights for lookups without bounds checks.
//!
//! Each phase's weights are followed by zeros up to the largest instance offset plus 65,536,
//! so every instance offset plus any `u16` index stays inside its phase: the evaluations read
//! a phase as a fixed-size array and index it unchecked (see their `SAFETY:` comments).
//!
//! ```
//! use virada_engine::eval::lookup::{padded_table, phase_stride};
//! let stride = phase_stride(&[0, 10], 12);
//! assert_eq!(stride, 10 + 65_536);
//! let table = padded_table(&[1, 2, 3, 4], 2, 4);
//! assert_eq!(&table[..], &[1, 2, 0, 0, 3, 4, 0, 0]);
//! ```

/// Entries between the starts of two phases for instance table offsets `offsets` and
/// `weights_per_phase` weights a phase.
pub const fn phase_stride(offsets: &[u32], weights_per_phase: usize) -> usize {
    let mut max = 0;
    let mut k = 0;
    while k < offsets.len() {
        if offsets[k] as usize > max {
            max = offsets[k] as usize;
        }
        k += 1;
    }
    let end = max + u16::MAX as usize + 1;
    if end > weights_per_phase {
        end
    } else {
        weights_per_phase
    }
}

/// `weights` (phase after phase, `per_phase` entries each) with each phase padded with zeros
/// to `stride` entries.
pub fn padded_table(weights: &[i16], per_phase: usize, stride: usize) -> Box<[i16]> {
    let phases = weights.len() / per_phase;
    let mut table = vec![0i16; phases * stride].into_boxed_slice();
    for (q, phase) in weights.chunks_exact(per_phase).enumerate() {
        table[q * stride..q * stride + per_phase].copy_from_slice(phase);
    }
    table
}
