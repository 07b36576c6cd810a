//! The pattern part of an evaluation: the sum of a phase table's entries at the 72 instance
//! offsets plus indices.
//!
//! Two paths give the same `i32` sum: AVX2 gathers (eight lookups an instruction: the indices
//! widened to 32 bits, the instance offsets added, each lane reading the 32 bits at its entry
//! and keeping the low, sign-extended 16) when the CPU has AVX2, and plain loads otherwise. A
//! build for the machine (`-C target-cpu=native`, the workspace's setting) decides at compile
//! time; another build asks the CPU once (the standard library caches the answer).
//!
//! ```
//! use virada_engine::eval::gen3::patterns::{INSTANCE_OFFSETS, NUM_INSTANCES};
//! use virada_engine::eval::gen3::sum::{pattern_sum, pattern_sum_portable};
//! use virada_engine::eval::gen3::PHASE_STRIDE;
//! let table: Vec<i16> = (0..PHASE_STRIDE).map(|i| (i % 601) as i16 - 300).collect();
//! let table: &[i16; PHASE_STRIDE] = table.as_slice().try_into().unwrap();
//! let f = [7u16; NUM_INSTANCES];
//! let want: i32 = INSTANCE_OFFSETS.iter().map(|&o| table[o as usize + 7] as i32).sum();
//! assert_eq!(pattern_sum(table, &f), want);
//! assert_eq!(pattern_sum_portable(table, &f), want);
//! ```

use super::patterns::{Indices, INSTANCE_OFFSETS, NUM_INSTANCES};
use super::table::PhaseTable;

/// Whether [`pattern_sum`] uses the AVX2 path on this CPU.
#[inline]
pub fn avx2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        cfg!(target_feature = "avx2") || std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The sum of `w`'s entries at every instance offset plus its index in `f`.
#[inline]
pub fn pattern_sum(w: &PhaseTable, f: &Indices) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if avx2_available() {
        // SAFETY: the CPU has AVX2 (checked just above).
        return unsafe { avx2::pattern_sum(w, f) };
    }
    pattern_sum_portable(w, f)
}

/// [`pattern_sum`] with plain loads, for every CPU.
#[inline]
pub fn pattern_sum_portable(w: &PhaseTable, f: &Indices) -> i32 {
    let mut sum = 0i32;
    for k in 0..NUM_INSTANCES {
        let at = INSTANCE_OFFSETS[k] as usize + f[k] as usize;
        // SAFETY: `at` is at most the largest instance offset plus `u16::MAX`, which is
        // below `PHASE_STRIDE` = `w.len()` by the definition of `PHASE_STRIDE`.
        sum += unsafe { *w.get_unchecked(at) } as i32;
    }
    sum
}

/// [`pattern_sum`] with AVX2 gathers, or `None` when the CPU has no AVX2 (for tests comparing
/// the two paths).
pub fn pattern_sum_simd(w: &PhaseTable, f: &Indices) -> Option<i32> {
    #[cfg(target_arch = "x86_64")]
    if avx2_available() {
        // SAFETY: the CPU has AVX2 (checked just above).
        return Some(unsafe { avx2::pattern_sum(w, f) });
    }
    let _ = (w, f);
    None
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::super::patterns::{Indices, INSTANCE_OFFSETS, NUM_INSTANCES};
    use super::super::table::PhaseTable;
    use std::arch::x86_64::*;

    const _: () = assert!(
        NUM_INSTANCES.is_multiple_of(8),
        "whole groups of eight lanes"
    );

    /// The instance offsets as 32-bit lanes, aligned for vector loads.
    #[repr(C, align(32))]
    struct Offsets([i32; NUM_INSTANCES]);

    static OFFSETS: Offsets = {
        let mut o = [0i32; NUM_INSTANCES];
        let mut k = 0;
        while k < NUM_INSTANCES {
            o[k] = INSTANCE_OFFSETS[k] as i32;
            k += 1;
        }
        Offsets(o)
    };

    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn pattern_sum(w: &PhaseTable, f: &Indices) -> i32 {
        let base = w.as_ptr() as *const i32;
        let mut acc = _mm256_setzero_si256();
        for g in 0..NUM_INSTANCES / 8 {
            // SAFETY: lanes 8g..8g+8 are inside `f` (72 = 9 * 8 entries) and inside
            // `OFFSETS` (aligned to 32 bytes, 8g * 4 bytes in).
            let (idx, off) = unsafe {
                (
                    _mm_loadu_si128(f.as_ptr().add(8 * g) as *const __m128i),
                    _mm256_load_si256(OFFSETS.0.as_ptr().add(8 * g) as *const __m256i),
                )
            };
            let at = _mm256_add_epi32(_mm256_cvtepu16_epi32(idx), off);
            // SAFETY: each lane reads the 4 bytes at entry `at` (at most the largest instance
            // offset plus `u16::MAX`), that is entries `at` and `at + 1`, both below
            // `PHASE_STRIDE` = `w.len()`, which keeps one entry beyond every such `at` for
            // these reads.
            let v = unsafe { _mm256_i32gather_epi32::<2>(base, at) };
            // Little-endian: the entry is the low half of the 32 bits read.
            let v = _mm256_srai_epi32::<16>(_mm256_slli_epi32::<16>(v));
            acc = _mm256_add_epi32(acc, v);
        }
        let s = _mm_add_epi32(
            _mm256_castsi256_si128(acc),
            _mm256_extracti128_si256::<1>(acc),
        );
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        _mm_cvtsi128_si32(s)
    }
}
