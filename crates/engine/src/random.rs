//! A seeded 64-bit mixer: the engine's deterministic randomness (level mistakes, book choices,
//! the book builder's order), the same on every platform.

/// A 64-bit mixer used as a seeded random number (SplitMix64's output function).
pub(crate) fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}
