//! Seeded randomness, the same on every platform: a 64-bit mixer (level mistakes, book choices,
//! the book builder's order) and the SplitMix64 sequence built on it (self-play openings,
//! puzzle and data generation, drawn samples).

/// A 64-bit mixer used as a seeded random number (SplitMix64's output function).
pub fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The SplitMix64 sequence from a seed: small, fast and deterministic (not for secrets).
///
/// ```
/// use virada_engine::random::SplitMix;
/// let mut a = SplitMix(7);
/// let mut b = SplitMix(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(a.below(10) < 10);
/// ```
#[derive(Clone, Debug)]
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next_u64(&mut self) -> u64 {
        let out = splitmix64(self.0);
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        out
    }

    /// Uniform in `0..n` (`n > 0`; the modulo bias is negligible for small `n`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published SplitMix64 sequence from seed 0.
    #[test]
    fn the_published_sequence() {
        let mut r = SplitMix(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }
}
