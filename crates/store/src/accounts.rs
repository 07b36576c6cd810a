//! What the stores keep of accounts, sessions and game ratings (the [`super::Store`] methods
//! under "accounts and ratings"), and the SQL both stores share word for word.

use virada_domain::identity::BrowserId;
use virada_domain::rating::{Category, PlayerRating};

/// The name an anonymised seat shows (a deleted account's games).
pub const ANONYMOUS: &str = "anonymous";

/// Most rating history entries a profile lists (the newest).
pub const HISTORY_SHOWN: usize = 200;

/// A new account.
#[derive(Clone, Debug)]
pub struct NewAccount {
    /// The account's identity: what its browsers act as (its games' owner, its seats' holder).
    pub holder: BrowserId,
    pub username: String,
    /// The PHC string of its argon2id password hash.
    pub password_hash: String,
    /// SHA-256 (hex) of its recovery code.
    pub recovery_hash: String,
    pub created_at: i64,
}

/// A stored account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountRow {
    pub holder: BrowserId,
    pub username: String,
    pub password_hash: String,
    pub recovery_hash: String,
    pub created_at: i64,
    /// Wrong passwords in a row since the last sign-in or lock.
    pub failed_logins: u32,
    /// Locked until then (Unix ms; `None` or past: not locked).
    pub locked_until: Option<i64>,
}

/// A session: its token's SHA-256 (hex; the token is never stored), its account and expiry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionRow {
    pub hash: String,
    pub holder: BrowserId,
    pub created_at: i64,
    pub expires_at: i64,
}

/// One rating change: after game `game`, in `category`.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryEntry {
    pub category: Category,
    pub game: String,
    pub rating: f64,
    pub deviation: f64,
    /// Unix ms.
    pub at: i64,
}

/// A player's public profile.
#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    pub username: String,
    pub created_at: i64,
    /// Every category the player has a rated game in.
    pub ratings: Vec<(Category, PlayerRating)>,
    /// The newest rating changes first (at most [`HISTORY_SHOWN`]).
    pub history: Vec<HistoryEntry>,
}

/// The username's key: names are unique without regard to case (they are ASCII).
pub fn name_key(username: &str) -> String {
    username.to_ascii_lowercase()
}
