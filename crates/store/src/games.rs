//! The games themselves (the server's game actors and registry): a game stored whole with its
//! seats, clocks and chat, read back, changed in one transaction, listed for a browser, and
//! deleted (by its owner, or by the retention sweep when abandoned). [`GameStore`] is reached
//! through [`super::Store::games`]; both stores implement it with the statements of
//! `queries::games`.

use super::StoreFuture;
use virada_domain::identity::BrowserId;
use virada_domain::model::online::{End, OnlineGame};
use virada_domain::model::{GameRecord, Mode, Owner, Status};
use virada_rules::Color;

/// A stored game: its record, and for an online game its seats, clocks and chat (a local game
/// has that part too, with free seats, once it has a clock or was resigned: `load_game`
/// returns it with any mode).
#[derive(Clone, Debug)]
pub struct StoredGame {
    pub rec: GameRecord,
    pub online: Option<OnlineGame>,
}

impl StoredGame {
    pub fn id(&self) -> &str {
        &self.rec.meta.id
    }
}

/// What a game's row says of it without replaying its moves ([`GameStore::game_row`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub owner: Owner,
    /// An online game (readable by anyone: `ownership::may_access`).
    pub online: bool,
    /// The address it was created from, as the per-address limits count it (`None`: an
    /// address exempt from limits, or a game stored before addresses were).
    pub created_from: Option<String>,
}

/// What a change writes besides the game's own state.
#[derive(Clone, Debug)]
pub enum Change {
    /// A browser now holds seat `Color` (a seat taken, a device linked).
    Holder(Color, BrowserId),
    /// A chat line.
    Chat(virada_domain::model::online::ChatLine),
    /// A device link used (one-time, by its token's hash): the change fails if it was used.
    LinkUsed(String),
    /// A rematch: the new game, stored with the old one's change (it counts against the
    /// address the first game came from).
    NewGame(Box<StoredGame>),
}

/// Where a new game comes from, and how many games that address may keep (`limits`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quota {
    /// The address as the per-address limits count it (`limits::address_key`).
    pub address: String,
    /// Most games stored from it (any mode, finished or not).
    pub stored_games: usize,
    /// Most unfinished online games from it.
    pub unfinished_online_games: usize,
}

/// When an unfinished game counts as abandoned (`retention`): it has not changed (its
/// `updated_at`, Unix ms) since before these times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Abandoned {
    /// Local games (computer, friend).
    pub local_before: i64,
    /// Online games waiting for their second player.
    pub waiting_before: i64,
    /// Online games being played.
    pub playing_before: i64,
}

/// One line of a browser's list of games, as stored.
#[derive(Clone, Debug)]
pub struct ListedGame {
    pub id: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub mode: Mode,
    pub status: Status,
    pub black_discs: u8,
    pub white_discs: u8,
    pub ply_count: u32,
    pub transcript: String,
    /// The start position (its text).
    pub start: String,
    /// How an online game ended (none while it runs, nor for a local game).
    pub end: Option<End>,
    pub black_name: Option<String>,
    pub white_name: Option<String>,
}

/// The stored games.
pub trait GameStore: Send + Sync {
    /// Stores a new game (with its seats), refused with 429 if `quota` is full.
    fn insert_game(&self, game: StoredGame, quota: Option<Quota>) -> StoreFuture<'_, ()>;
    /// Game `id` with everything its actor needs (`Ok(None)`: no such game; a row that does not
    /// replay is 409 `corrupt_game` naming the game).
    fn load_game(&self, id: &str) -> StoreFuture<'_, Option<StoredGame>>;
    /// Whose game `id` is and where it came from, read without replaying its moves (`None`: no
    /// such game, or an owner that does not read): a game that no longer replays can still be
    /// told apart from an unknown id and deleted by its owner.
    fn game_row(&self, id: &str) -> StoreFuture<'_, Option<GameRow>>;
    /// Stores a change of a game: its moves, its online state (if any: a local game's first
    /// one, when it is resigned, is added) and `changes`. 404 if the game is gone.
    fn save(
        &self,
        rec: GameRecord,
        online: Option<OnlineGame>,
        changes: Vec<Change>,
    ) -> StoreFuture<'_, ()>;
    /// Gives the unclaimed game `id` (stored before owners) to `browser`; returns its owner
    /// afterwards (`None`: no such game).
    fn claim_game(&self, id: &str, browser: BrowserId) -> StoreFuture<'_, Option<Owner>>;
    /// `viewer`'s games (the ones it owns or holds a seat in), most recently changed first;
    /// `claim_unowned`: games stored before owners become `viewer`'s first.
    fn list_games(
        &self,
        viewer: BrowserId,
        status: Option<Status>,
        limit: u32,
        claim_unowned: bool,
    ) -> StoreFuture<'_, Vec<ListedGame>>;
    /// Deletes game `id` (with its seats, chat and links); whether it existed.
    fn delete_game(&self, id: &str) -> StoreFuture<'_, bool>;

    // ---------- retention ----------

    /// Abandoned games, the longest unchanged first (at most `limit`).
    fn abandoned_games(&self, when: Abandoned, limit: usize) -> StoreFuture<'_, Vec<String>>;
    /// Deletes game `id` if it is still abandoned; whether it was.
    fn delete_if_abandoned(&self, id: &str, when: Abandoned) -> StoreFuture<'_, bool>;
}
