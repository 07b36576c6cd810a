//! What the stores keep of accounts, sessions and game ratings (the [`super::Store`] methods
//! under "accounts and ratings"), and the SQL both stores share word for word.

use super::StoreFuture;
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

/// Accounts, sessions and sign-in failures (ratings are written with a game's end,
/// [`crate::GameStore::save`]).
pub trait AccountStore: Send + Sync {
    /// Stores a new account with its first session and gives it the games of the guest browser
    /// `guest` (the ones it owns or holds a seat in). 409 `username_taken` if the name's key is
    /// taken. Returns the ids of the games moved (their actors must reload them).
    fn create_account(
        &self,
        account: NewAccount,
        session: SessionRow,
        guest: BrowserId,
    ) -> StoreFuture<'_, Vec<String>>;
    /// The account whose username has the key `key` (lower case).
    fn account_by_name(&self, key: &str) -> StoreFuture<'_, Option<AccountRow>>;
    /// The account with identity `holder`.
    fn account_by_holder(&self, holder: BrowserId) -> StoreFuture<'_, Option<AccountRow>>;
    /// Counts a wrong password for `holder`: at `max_failures` in a row the account is locked
    /// until `now + lock_ms` and the count starts again.
    fn login_failed(
        &self,
        holder: BrowserId,
        now: i64,
        max_failures: u32,
        lock_ms: i64,
    ) -> StoreFuture<'_, ()>;
    /// A successful sign-in: clears the failures, stores `session` and gives the account the
    /// games of the guest browser `guest` (as [`AccountStore::create_account`]); the games moved.
    fn sign_in(
        &self,
        holder: BrowserId,
        session: SessionRow,
        guest: BrowserId,
    ) -> StoreFuture<'_, Vec<String>>;
    /// The account (identity, username) of the unexpired session whose token hashes to `hash`.
    fn session(&self, hash: &str, now: i64) -> StoreFuture<'_, Option<(BrowserId, String)>>;
    /// Ends a session; whether it existed.
    fn delete_session(&self, hash: &str) -> StoreFuture<'_, bool>;
    /// Sets a new password hash (and, for a reset, a new recovery code hash), ends every
    /// session of the account, clears the failures and stores `session`.
    fn set_password(
        &self,
        holder: BrowserId,
        password_hash: String,
        recovery_hash: Option<String>,
        session: SessionRow,
    ) -> StoreFuture<'_, ()>;
    /// Deletes an account (sessions, ratings, history). Its games against others stay, with its
    /// seats anonymised (name [`accounts::ANONYMOUS`], no holder) and owned by `tombstone` (an
    /// identity nobody holds); its games on one device are deleted. Returns the ids of every
    /// game touched (their actors must reload them). `Ok(None)`: no such account.
    fn delete_account(
        &self,
        holder: BrowserId,
        tombstone: BrowserId,
    ) -> StoreFuture<'_, Option<Vec<String>>>;
    /// A player's public profile by username key: name, creation time, ratings per category.
    fn player(&self, key: &str) -> StoreFuture<'_, Option<Player>>;
}
