//! What online games keep beside the game itself: device links (a seat handed to another
//! device), the server's heartbeat and the clocks' deadlines (the flag scheduler, the downtime
//! forgiven at start-up), and the sweep of expired links and old chat. [`OnlineStore`] is
//! reached through [`super::Store::online`]; both stores implement it with the statements of
//! `queries::online`.

use super::StoreFuture;
use virada_rules::Color;

/// A new device link (its token is never stored, only its hash).
#[derive(Clone, Debug)]
pub struct LinkRow {
    pub hash: String,
    pub game: String,
    pub color: Color,
    pub created_at: i64,
    pub expires_at: i64,
}

/// What the retention sweep deleted besides games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SweptRows {
    pub device_links: usize,
    pub chat_lines: usize,
}

/// Device links, the heartbeat, the clocks' deadlines.
pub trait OnlineStore: Send + Sync {
    /// Stores a device link, keeping at most `per_seat` unused ones for its seat.
    fn insert_link(&self, link: LinkRow, per_seat: usize) -> StoreFuture<'_, ()>;
    /// The game and seat of an unused, unexpired device link.
    fn find_link(&self, hash: &str, now: i64) -> StoreFuture<'_, Option<(String, Color)>>;

    // ---------- clocks ----------

    /// Records that the server is alive at `at` (the time source's ms).
    fn beat(&self, at: i64) -> StoreFuture<'_, ()>;
    /// At start-up: fills the deadlines of rows stored before they were, and moves running
    /// clocks on by the downtime since the last heartbeat. Returns the games moved on.
    fn forgive_downtime(&self, now: i64) -> StoreFuture<'_, usize>;
    /// Games whose stored deadline is at or before `now`, earliest first (at most `limit`), and
    /// the earliest deadline after `now`. Left out: games whose lease another live instance
    /// than `instance` holds (that one flags them; several instances on PostgreSQL).
    fn due_flags(
        &self,
        instance: &str,
        now: i64,
        limit: usize,
    ) -> StoreFuture<'_, (Vec<String>, Option<i64>)>;

    // ---------- retention ----------

    /// Deletes the device links expired at `now` and the chat of online games finished before
    /// `chat_before`.
    fn sweep_links_and_chat(&self, now: i64, chat_before: i64) -> StoreFuture<'_, SweptRows>;
}
