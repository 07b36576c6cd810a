//! Where games live between requests: the [`Store`] trait, and its two implementations:
//! [`sqlite::SqliteStore`] (one file, WAL, fsync per commit; the default) and
//! [`postgres::PgStore`] (`--db postgres://...`). Both keep the same tables under one
//! versioned schema history: version `n` means the same columns in either store, each
//! spelling them in its own SQL dialect; what the columns hold is shared in `columns`.
//!
//! Every method is one transaction: a change (a move with its clocks, a seat taken, a chat
//! line, a rematch and its new game) is committed whole or not at all, and the callers (the
//! game actor above all) answer or broadcast only after it returned. The methods speak the
//! server's model (`GameRecord`, `OnlineGame`, `Quota`, `Abandoned`), never SQL.
//!
//! Below the server (virada-server) and above the domain (virada-domain): it knows nothing of
//! HTTP, sockets or actors; the server turns a [`StoreError`] into its HTTP error.
#![forbid(unsafe_code)]

pub mod accounts;
pub mod admin;
pub mod arenas;
mod backend;
mod columns;
mod error;
pub(crate) mod exec;
mod migrations;
pub mod postgres;
pub mod practice;
pub mod profiles;
mod queries;
pub mod rows;
pub mod safety;
pub mod sqlite;
pub mod target;
pub mod watch;

pub use accounts::{AccountRow, NewAccount, Player, SessionRow};
pub use arenas::{ArenaCaps, ArenaFull, ArenaGameRow, ArenaListed, ArenaPlayerRow, ArenaRow};
pub use error::{StoreError, StoreResult};
pub use practice::PracticeSetRow;
pub use profiles::{AccountGame, FinishedRow, GamesQuery, RatingChange};
use std::future::Future;
use std::pin::Pin;
use virada_domain::identity::BrowserId;
use virada_domain::model::online::{End, OnlineGame};
use virada_domain::model::Owner;
use virada_domain::model::{GameRecord, Mode, Status};
use virada_engine::puzzles::glicko::after_attempt;
use virada_engine::puzzles::Rating;
use virada_rules::Color;

/// How long a lease on a game lasts unless renewed (its owner renews it every
/// [`LEASE_RENEW_MS`]): another instance takes a dead owner's games over within
/// `LEASE_MS + LEASE_RENEW_MS`.
pub const LEASE_MS: i64 = 3_000;
pub const LEASE_RENEW_MS: u64 = 1_000;
/// How long a process's claim on its instance id lasts unless renewed (renewed with its leases
/// every [`LEASE_RENEW_MS`]): an instance id is live while its claim has not expired, and a
/// second process started with a live id is refused ([`Store::claim_instance`]).
pub const INSTANCE_MS: i64 = 3_000;
/// Largest message between instances (PostgreSQL's `NOTIFY` takes at most 8000 bytes).
pub const DIRECT_MAX: usize = 7_900;

/// What a store method returns: a boxed future (the trait is used as `Arc<dyn Store>`).
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = StoreResult<T>> + Send + 'a>>;

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

/// What a game's row says of it without replaying its moves ([`Store::game_row`]).
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

/// A new device link (its token is never stored, only its hash).
#[derive(Clone, Debug)]
pub struct LinkRow {
    pub hash: String,
    pub game: String,
    pub color: Color,
    pub created_at: i64,
    pub expires_at: i64,
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

/// What the retention sweep deleted besides games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SweptRows {
    pub device_links: usize,
    pub chat_lines: usize,
}

/// A puzzle's or a solver's Glicko-2 rating, with its counts of rated results.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuzzleRating {
    pub rating: Rating,
    /// Rated results (a browser's first result on a puzzle; retries are not rated).
    pub attempts: u32,
    /// Of them, solved.
    pub solved: u32,
}

impl PuzzleRating {
    /// A rating nobody has played against yet.
    pub fn unplayed(rating: Rating) -> PuzzleRating {
        PuzzleRating {
            rating,
            attempts: 0,
            solved: 0,
        }
    }

    /// Both ratings after one rated result (the solver's and the puzzle's), each against the
    /// other's rating before it. Every store computes a result with this, inside its
    /// transaction.
    pub fn after_result(
        solver: PuzzleRating,
        puzzle: PuzzleRating,
        solved: bool,
    ) -> (PuzzleRating, PuzzleRating) {
        let (s, p) = after_attempt(solver.rating, puzzle.rating, solved);
        let won = u32::from(solved);
        (
            PuzzleRating {
                rating: s,
                attempts: solver.attempts + 1,
                solved: solver.solved + won,
            },
            PuzzleRating {
                rating: p,
                attempts: puzzle.attempts + 1,
                solved: puzzle.solved + won,
            },
        )
    }
}

/// A browser's result on a puzzle, to rate if it is its first there.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleResult {
    pub browser: BrowserId,
    pub puzzle: String,
    /// The puzzle's shipped rating (its rating while it has no stored row).
    pub initial: Rating,
    /// Solved; false for a wrong move or a hint.
    pub solved: bool,
    /// Unix ms.
    pub at: i64,
}

/// What [`Store::rate_puzzle`] did, and both ratings afterwards.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatedResult {
    /// Whether this result was rated (the browser's first on the puzzle).
    pub rated: bool,
    pub solver: PuzzleRating,
    pub puzzle: PuzzleRating,
}

/// A message from the store's bus (PostgreSQL `LISTEN`; the server's `runtime::cluster`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BusMessage {
    /// Game `game` changed (committed) at `version`, by instance `by`.
    Changed {
        game: String,
        version: u64,
        by: String,
    },
    /// A message to this instance (a forwarded request or its answer), as JSON text.
    Direct(String),
    /// The listener (re)connected: notifications may have been missed before this.
    Listening,
    /// These games' leases expired (their owner stopped renewing them: it may be dead).
    Expired(Vec<String>),
    /// Another process holds this instance's id now (this one could not renew its claim for
    /// [`INSTANCE_MS`], and the other was started with the same id meanwhile): this process
    /// must stop running games. The listener stops with this message.
    Displaced,
}

/// The server's storage. Each method is one transaction, committed when its future resolves.
/// Both databases implement it through one body, `backend` (the statements are shared).
///
/// The first methods are the multi-instance part (the server's `runtime::cluster`): leases on games, change
/// notifications and messages between instances. A store only one process uses (SQLite)
/// always owns every game, and has nobody to tell, at no cost.
pub trait Store: Send + Sync {
    /// Which implementation this is (`"sqlite"`, `"postgres"`).
    fn kind(&self) -> &'static str;

    /// Blocks, reports, the admin role, bans, chat off (`safety::SafetyStore`).
    fn safety(&self) -> &dyn safety::SafetyStore;
    /// The live games and the leaderboards (`watch::WatchStore`).
    fn watch(&self) -> &dyn watch::WatchStore;

    // ---------- several instances ----------

    /// Whether several server processes may share this store (then games have leases).
    fn shared_by_instances(&self) -> bool;
    /// Takes or renews `instance`'s lease on game `id` (for [`LEASE_MS`] from now, on the
    /// store's clock): it is taken when no other instance holds a lease that has not expired.
    /// `Ok(None)`: `instance` holds it now; `Ok(Some(other))`: `other` does.
    fn lease(&self, id: &str, instance: &str) -> StoreFuture<'_, Option<String>>;
    /// Gives up `instance`'s lease on game `id` (its actor stops).
    fn release(&self, id: &str, instance: &str) -> StoreFuture<'_, ()>;
    /// [`Store::save`] by the owner of the game: refused with 503 `not_owner` (and nothing
    /// stored) if `instance` no longer holds the game's lease, which is renewed; other
    /// instances are told of the change at `version` when it commits.
    fn save_owned(
        &self,
        instance: &str,
        version: u64,
        rec: GameRecord,
        online: Option<OnlineGame>,
        changes: Vec<Change>,
    ) -> StoreFuture<'_, ()>;
    /// Sends `payload` (JSON, at most [`DIRECT_MAX`] bytes) to instance `to`.
    fn send_direct(&self, to: &str, payload: String) -> StoreFuture<'_, ()>;
    /// Claims instance id `instance` for the process `token` (random, one per process) for
    /// [`INSTANCE_MS`] on the store's clock: it is taken if nobody holds it, if `token` does, or
    /// if the holder's claim expired. `Ok(None)`: `token` holds it now; `Ok(Some(ms))`: another
    /// live process does, its claim lasting `ms` more unless renewed. A store of one process:
    /// always `Ok(None)`.
    fn claim_instance(&self, instance: &str, token: &str) -> StoreFuture<'_, Option<i64>>;
    /// Gives up `token`'s claim on instance id `instance` (a clean stop: it may be used again
    /// at once).
    fn release_instance(&self, instance: &str, token: &str) -> StoreFuture<'_, ()>;
    /// Starts listening for [`BusMessage`]s for `instance` (`None`: a store of one process).
    /// The listener reconnects by itself and says [`BusMessage::Listening`] each time it
    /// (re)starts listening. While it listens it also renews all of `instance`'s leases and
    /// `token`'s claim on the id every [`LEASE_RENEW_MS`], and reports the expired leases
    /// ([`BusMessage::Expired`]) and a lost claim ([`BusMessage::Displaced`]).
    fn listen(
        &self,
        instance: &str,
        token: &str,
    ) -> Option<tokio::sync::mpsc::Receiver<BusMessage>>;

    // ---------- games ----------

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
    /// Deletes the device links expired at `now` and the chat of online games finished before
    /// `chat_before`.
    fn sweep_links_and_chat(&self, now: i64, chat_before: i64) -> StoreFuture<'_, SweptRows>;

    // ---------- device links ----------

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

    // ---------- puzzles ----------

    /// `browser`'s puzzle rating (`None`: no rated result yet; a newcomer's rating holds).
    fn solver_rating(&self, browser: BrowserId) -> StoreFuture<'_, Option<PuzzleRating>>;
    /// The stored rating of every puzzle with a rated result (at most one row a shipped
    /// puzzle; a puzzle without one keeps its shipped rating).
    fn puzzle_ratings(&self) -> StoreFuture<'_, Vec<(String, PuzzleRating)>>;
    /// Puzzle `id`'s stored rating (`None`: no rated result yet).
    fn puzzle_rating(&self, id: &str) -> StoreFuture<'_, Option<PuzzleRating>>;
    /// `browser`'s rated results: (puzzle id, solved), at most one a puzzle.
    fn puzzle_results(&self, browser: BrowserId) -> StoreFuture<'_, Vec<(String, bool)>>;
    /// In one transaction: if `result.browser` has no result on `result.puzzle` yet, stores it
    /// and both ratings after it ([`PuzzleRating::after_result`] from the stored ratings, or
    /// [`Rating::NEW_PLAYER`] and `result.initial` when there are none); otherwise changes
    /// nothing. Returns whether it rated, and both ratings afterwards. Two concurrent calls
    /// on one puzzle or one browser must not lose an update (serialised, or row locks).
    fn rate_puzzle(&self, result: PuzzleResult) -> StoreFuture<'_, RatedResult>;
    /// Deletes the puzzle rating and results of every browser whose rating last changed before
    /// `before` (Unix ms; the puzzles' own ratings stay); returns how many browsers.
    fn sweep_puzzle_solvers(&self, before: i64) -> StoreFuture<'_, usize>;

    // ---------- accounts and ratings (`store::accounts`) ----------

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
    /// games of the guest browser `guest` (as [`Store::create_account`]); the games moved.
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

    // ---------- profiles and "my games" (`store::profiles`) ----------

    /// A page of an account's online games (the seats its identity holds), the most recently
    /// changed first.
    fn account_games(&self, q: GamesQuery) -> StoreFuture<'_, Vec<AccountGame>>;
    /// The outcomes of all of an account's finished online games (its record).
    fn finished_games(&self, holder: BrowserId) -> StoreFuture<'_, Vec<FinishedRow>>;

    // ---------- arenas (`arenas`; the rules are the server's `arena`) ----------

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
    /// [`Store::save`]).
    fn add_arena_game(&self, arena: &str, game: ArenaGameRow) -> StoreFuture<'_, ()>;
    /// The arenas not over at `now`: not ended yet, or with a game still running.
    fn open_arenas(&self, now: i64) -> StoreFuture<'_, Vec<String>>;
    /// The arena game `game_id` was paired in, if any.
    fn arena_of_game(&self, game_id: &str) -> StoreFuture<'_, Option<String>>;

    // ---------- practice sets (`practice`) ----------

    /// Stores `set`, replacing its holder's set of the same game and side, and drops the
    /// holder's oldest sets beyond `keep`.
    fn save_practice_set(&self, set: PracticeSetRow, keep: usize) -> StoreFuture<'_, ()>;
    /// `holder`'s practice sets, the newest first.
    fn practice_sets(&self, holder: BrowserId) -> StoreFuture<'_, Vec<PracticeSetRow>>;
    /// Marks ply `ply` of `holder`'s set `id` found again; the set afterwards (`None`: no such
    /// set of theirs).
    fn solve_practice(
        &self,
        holder: BrowserId,
        id: &str,
        ply: u32,
    ) -> StoreFuture<'_, Option<PracticeSetRow>>;
    /// Deletes `holder`'s set `id`; whether there was one.
    fn delete_practice_set(&self, holder: BrowserId, id: &str) -> StoreFuture<'_, bool>;
    /// Moves the guest browser `guest`'s sets to `account` (as its games at sign-up and
    /// sign-in), the account keeping at most `keep`; the number moved.
    fn adopt_practice_sets(
        &self,
        guest: BrowserId,
        account: BrowserId,
        keep: usize,
    ) -> StoreFuture<'_, usize>;
}
