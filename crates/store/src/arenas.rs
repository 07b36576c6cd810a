//! What the stores keep of arena tournaments ([`ArenaStore`], reached through
//! [`super::Store::arenas`]; the rows and the rules are the domain's `arena`): the arenas,
//! their players and their games. A game's result
//! is written into its arena row by the transaction that ends the game ([`result_of`]), so a
//! restart never loses a point.

use super::StoreFuture;
use crate::error::{StoreError, StoreResult};
pub use virada_domain::arena::{
    result_of, ArenaFull, ArenaGameRow, ArenaListed, ArenaPlayerRow, ArenaResult, ArenaRow,
};
use virada_domain::identity::BrowserId;
use virada_domain::model::online::TimeControl;

/// The caps a new arena is checked against, in the transaction that stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArenaCaps {
    /// Unix ms now.
    pub now: i64,
    /// Arenas not ended yet (upcoming or running), all creators.
    pub open: usize,
    /// Of them, made by one account.
    pub open_per_account: usize,
    /// Arenas one account may make per 24 hours.
    pub per_day: usize,
}

const DAY_MS: i64 = 24 * 3600 * 1000;

impl ArenaCaps {
    /// The start of the 24 hours counted by `per_day`.
    pub fn day_start(&self) -> i64 {
        self.now - DAY_MS
    }

    /// Checks the counts found: [`StoreError::TooManyArenas`] when one is full.
    pub fn check(&self, open: i64, open_mine: i64, today_mine: i64) -> StoreResult<()> {
        let full = |limit: &'static str, max: usize, what: &'static str| {
            Err(StoreError::TooManyArenas { limit, max, what })
        };
        if open >= self.open as i64 {
            return full(
                "open",
                self.open,
                "arenas may be upcoming or running at once",
            );
        }
        if open_mine >= self.open_per_account as i64 {
            return full(
                "open_per_account",
                self.open_per_account,
                "of your arenas may be upcoming or running at once",
            );
        }
        if today_mine >= self.per_day as i64 {
            return full("per_day", self.per_day, "arenas per account in 24 hours");
        }
        Ok(())
    }
}

/// 409 `arena_full` (params `max`).
pub fn arena_full(max: usize) -> StoreError {
    StoreError::ArenaFull { max }
}

/// A game's result as stored (`text`); a game deleted before it ended (`exists` false: its
/// row is gone, nobody can end it any more) counts as aborted.
pub fn stored_result(text: Option<&str>, exists: bool) -> Option<ArenaResult> {
    match text.and_then(ArenaResult::from_name) {
        None if !exists => Some(ArenaResult::Aborted),
        r => r,
    }
}

/// A time control as its stored text (JSON).
pub fn time_control_text(tc: TimeControl) -> String {
    serde_json::to_string(&tc).unwrap_or_default()
}

/// A stored time control.
pub fn time_control_from(text: &str) -> StoreResult<TimeControl> {
    serde_json::from_str(text)
        .map_err(|e| StoreError::Db(format!("stored arena time control {text:?}: {e}")))
}

/// A stored identity.
pub fn holder_from(hex: &str) -> StoreResult<BrowserId> {
    BrowserId::from_hex(hex).ok_or_else(|| StoreError::Db(format!("stored arena identity {hex:?}")))
}

/// The arenas, their players and their games.
pub trait ArenaStore: Send + Sync {
    /// Stores a new arena, refused with 429 `too_many_arenas` if `caps` are full.
    fn insert_arena(&self, arena: ArenaRow, caps: ArenaCaps) -> StoreFuture<'_, ()>;
    /// The arenas that end after `ended_after`, the latest to start first (at most `limit`).
    fn list_arenas(&self, ended_after: i64, limit: u32) -> StoreFuture<'_, Vec<ArenaListed>>;
    /// Arena `id` with its players and games.
    fn arena(&self, id: &str) -> StoreFuture<'_, Option<ArenaFull>>;
    /// Adds `player` to arena `id` (409 `arena_full` beyond `max_players`), or makes a player
    /// who withdrew active again (keeping their first `joined_at` and `rating`). `Ok(false)`:
    /// no such arena.
    fn join_arena(
        &self,
        id: &str,
        player: ArenaPlayerRow,
        max_players: usize,
    ) -> StoreFuture<'_, bool>;
    /// Withdraws (pauses) `holder` from arena `id`; whether they were a player there.
    fn withdraw_arena(&self, id: &str, holder: BrowserId) -> StoreFuture<'_, bool>;
    /// Records a game paired in arena `arena` (its result is written by the game's end,
    /// [`crate::GameStore::save`]).
    fn add_arena_game(&self, arena: &str, game: ArenaGameRow) -> StoreFuture<'_, ()>;
    /// The arenas not over at `now`: not ended yet, or with a game still running.
    fn open_arenas(&self, now: i64) -> StoreFuture<'_, Vec<String>>;
    /// The arena game `game_id` was paired in, if any.
    fn arena_of_game(&self, game_id: &str) -> StoreFuture<'_, Option<String>>;
}
