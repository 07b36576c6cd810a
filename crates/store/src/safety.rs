//! What the stores keep for players' safety (the server's `safety`): blocks between accounts, reports
//! kept for review, the admin role, bans and the chat-off setting. [`SafetyStore`] is reached
//! through [`super::Store::safety`]; both stores implement it with the statements of
//! `queries::safety`, each method one transaction.

use super::StoreFuture;
use virada_domain::identity::BrowserId;

/// One blocked account, as its blocker's list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockRow {
    pub username: String,
    /// Unix ms.
    pub at: i64,
}

/// What [`SafetyStore::block`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Blocked {
    /// Blocked now (or already): the account's username.
    Done(String),
    /// No account has that name.
    NoSuchPlayer,
    /// The blocker already blocks the most accounts allowed.
    Full,
}

/// A new report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewReport {
    pub reporter: BrowserId,
    /// The reported account's username key.
    pub player_key: String,
    pub game: Option<String>,
    /// The number of the chat line reported (in `game`).
    pub chat_line: Option<u32>,
    pub reason: String,
    pub at: i64,
}

/// What [`SafetyStore::insert_report`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reported {
    /// Stored with this id.
    Done(i64),
    NoSuchPlayer,
    /// The reporter made the most reports allowed in the window.
    TooMany,
}

/// A stored report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportRow {
    pub id: i64,
    /// The reporter's username (`None`: the account was deleted since).
    pub reporter: Option<String>,
    /// The reported player's username at the time of the report.
    pub player: String,
    pub game: Option<String>,
    pub chat_line: Option<u32>,
    /// The text of the chat line reported, copied when the report was made (chat is swept
    /// with old games; the report keeps it).
    pub chat_text: Option<String>,
    pub reason: String,
    pub created_at: i64,
    /// When an admin resolved it, and the note they left.
    pub resolved_at: Option<i64>,
    pub resolution: Option<String>,
}

/// An account's safety flags.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AccountFlags {
    pub admin: bool,
    /// Banned since (Unix ms), with the reason given.
    pub banned_at: Option<i64>,
    pub ban_reason: Option<String>,
    pub chat_off: bool,
}

/// What decides which chat lines a browser gets in one game ([`SafetyStore::chat_sides`]);
/// index 0 is Black's seat, 1 White's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChatSides {
    /// The browser's seat, if it holds one.
    pub seat: Option<virada_rules::Color>,
    /// The seat's chat is off: turned off for this game, or by a holder's account setting.
    pub off: [bool; 2],
    /// The browser's account blocks a holder of the seat (not itself).
    pub blocked: [bool; 2],
    /// The browser's own account setting turns chat off.
    pub own_setting_off: bool,
}

/// The stores' safety tables.
pub trait SafetyStore: Send + Sync {
    /// `blocker` blocks the account whose username key is `key` (at most `max` blocks an
    /// account; blocking oneself is refused by the caller).
    fn block(&self, blocker: BrowserId, key: &str, max: usize, at: i64)
        -> StoreFuture<'_, Blocked>;
    /// `blocker` no longer blocks `key`; whether it did.
    fn unblock(&self, blocker: BrowserId, key: &str) -> StoreFuture<'_, bool>;
    /// The accounts `blocker` blocks, by name.
    fn blocks(&self, blocker: BrowserId) -> StoreFuture<'_, Vec<BlockRow>>;
    /// Whether any of `a` blocks any of `b` or the other way round (identities of accounts;
    /// a guest's identity blocks nobody and is in no block).
    fn blocked_between(&self, a: Vec<BrowserId>, b: Vec<BrowserId>) -> StoreFuture<'_, bool>;
    /// Whether `blocker` blocks any of `others` (one way only).
    fn blocks_any(&self, blocker: BrowserId, others: Vec<BrowserId>) -> StoreFuture<'_, bool>;
    /// The holders of an online game's seats: (Black's, White's).
    fn seat_holders(&self, game: &str) -> StoreFuture<'_, (Vec<BrowserId>, Vec<BrowserId>)>;

    /// Stores a report (the chat line's text is copied from game `game` if it is still
    /// kept), refused when `reporter` made `max` reports since `since`.
    fn insert_report(&self, report: NewReport, max: usize, since: i64)
        -> StoreFuture<'_, Reported>;
    /// Reports, oldest first (`open_only`: the unresolved ones), at most `limit`.
    fn reports(&self, open_only: bool, limit: usize) -> StoreFuture<'_, Vec<ReportRow>>;
    /// Resolves report `id` with a note; whether it was open.
    fn resolve_report(&self, id: i64, note: String, at: i64) -> StoreFuture<'_, bool>;

    /// The flags of the account with username key `key` (`None`: no such account).
    fn flags_by_name(&self, key: &str) -> StoreFuture<'_, Option<AccountFlags>>;
    /// The flags of the account `holder` (`None`: no such account).
    fn flags(&self, holder: BrowserId) -> StoreFuture<'_, Option<AccountFlags>>;
    /// Gives or takes the admin role; whether the account exists.
    fn set_admin(&self, key: &str, admin: bool) -> StoreFuture<'_, bool>;
    /// Bans (`Some(reason)`: every session of the account ends in the same transaction) or
    /// unbans (`None`) an account; whether it exists.
    fn set_ban(&self, key: &str, ban: Option<String>, at: i64) -> StoreFuture<'_, bool>;
    /// Sets an account's chat-off setting.
    fn set_chat_off(&self, holder: BrowserId, off: bool) -> StoreFuture<'_, ()>;
    /// Turns chat off (or on again) for seat `color` of game `game`.
    fn set_game_chat_off(
        &self,
        game: &str,
        color: virada_rules::Color,
        off: bool,
    ) -> StoreFuture<'_, ()>;
    /// What `who` may get of game `game`'s chat.
    fn chat_sides(&self, game: &str, who: BrowserId) -> StoreFuture<'_, ChatSides>;
}
