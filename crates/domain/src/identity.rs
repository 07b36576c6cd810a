//! Who plays: a browser (or an account's identity) as the SHA-256 of its secret token. The
//! cookies that carry the token are the server's (`virada_server::identity`); the games, seats
//! and ratings here only ever see the hash.

use sha2::{Digest, Sha256};
use std::fmt;

/// A browser, as the SHA-256 of its secret token; `Display` gives 64 hex digits (what the
/// database stores).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct BrowserId([u8; 32]);

impl BrowserId {
    /// The id of the browser holding `token`.
    pub fn of_token(token: &str) -> BrowserId {
        BrowserId(Sha256::digest(token.as_bytes()).into())
    }

    /// Reads the 64-hex-digit form written by `Display`.
    pub fn from_hex(hex: &str) -> Option<BrowserId> {
        if hex.len() != 64 {
            return None;
        }
        let mut bytes = [0u8; 32];
        for (i, byte) in bytes.iter_mut().enumerate() {
            *byte = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
        }
        Some(BrowserId(bytes))
    }
}

impl fmt::Display for BrowserId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

impl fmt::Debug for BrowserId {
    // Short on purpose: enough to tell ids apart in logs and test failures.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "BrowserId({:02x}{:02x}{:02x}{:02x}..)",
            self.0[0], self.0[1], self.0[2], self.0[3]
        )
    }
}
