//! What the stores read for watching and comparing players (the server's `watch`): the public
//! games being played now, and the leaderboard of a rating category. [`WatchStore`] is reached
//! through [`super::Store::watch`]; both stores implement it with the statements of
//! `queries::watch`, each method one read-only transaction.
//!
//! Public means what profiles already show: an online game with both seats taken and an
//! account in at least one of them (a game between two guests is seen only by its link).

use super::StoreFuture;

/// One game being played, as the list of live games shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct LiveGame {
    pub id: String,
    /// Unix ms of its last change (a move).
    pub updated_at: i64,
    pub ply_count: u32,
    pub black_discs: u8,
    pub white_discs: u8,
    /// The time control as stored (JSON text).
    pub time_control: String,
    pub rated: bool,
    /// The names in the seats.
    pub black_name: Option<String>,
    pub white_name: Option<String>,
    /// The seats' accounts (usernames), when an account holds them.
    pub black_account: Option<String>,
    pub white_account: Option<String>,
}

/// One line of a leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct LeaderRow {
    pub username: String,
    pub rating: f64,
    pub deviation: f64,
    /// Rated games played in the category.
    pub games: u32,
}

/// The stores' reads for watching and comparing.
pub trait WatchStore: Send + Sync {
    /// The public online games being played that changed at or after `since` (Unix ms), the
    /// most recently changed first, at most `limit`.
    fn live_games(&self, since: i64, limit: usize) -> StoreFuture<'_, Vec<LiveGame>>;
    /// The accounts rated in `category` (a category's name) with a deviation below
    /// `max_deviation` (established ratings), not banned, the highest rating first (ties by
    /// name), at most `limit`.
    fn leaderboard(
        &self,
        category: &str,
        max_deviation: f64,
        limit: usize,
    ) -> StoreFuture<'_, Vec<LeaderRow>>;
}
