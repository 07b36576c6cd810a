//! Small helpers: wall-clock times, ISO-8601 formatting, non-cryptographic randomness, game ids.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};

pub use virada_domain::dates::{iso8601, now_millis};

/// A random 64-bit number (not for cryptography): SipHash with a fresh random key over a
/// process-wide counter and the clock.
pub fn random_u64() -> u64 {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut h = RandomState::new().build_hasher();
    h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    h.write_i64(now_millis());
    h.finish()
}

/// A fresh game id: `g_` and 12 hex digits.
pub fn new_game_id() -> String {
    format!("g_{:012x}", random_u64() & 0xffff_ffff_ffff)
}

/// Whether `s` looks like a game id (so junk never reaches the database layer).
pub fn is_valid_game_id(s: &str) -> bool {
    s.len() <= 64
        && s.starts_with("g_")
        && s[2..].bytes().all(|b| b.is_ascii_alphanumeric())
        && s.len() > 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids() {
        let a = new_game_id();
        let b = new_game_id();
        assert_ne!(a, b);
        assert!(is_valid_game_id(&a));
        assert!(!is_valid_game_id("g_"));
        assert!(!is_valid_game_id("x'; drop table"));
    }
}
