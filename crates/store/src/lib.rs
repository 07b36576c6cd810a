//! Where games live between requests: the [`Store`] trait (one narrow trait a feature, reached
//! through its accessors: [`Store::games`], [`Store::accounts`], ...), and its two implementations:
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
pub mod cluster;
mod columns;
mod error;
pub(crate) mod exec;
pub mod games;
mod migrations;
pub mod online;
pub mod postgres;
pub mod practice;
pub mod profiles;
pub mod puzzles;
mod queries;
pub mod rows;
pub mod safety;
pub mod sqlite;
pub mod target;
pub mod watch;

pub use accounts::{AccountRow, AccountStore, NewAccount, Player, SessionRow};
pub use arenas::{
    ArenaCaps, ArenaFull, ArenaGameRow, ArenaListed, ArenaPlayerRow, ArenaRow, ArenaStore,
};
pub use cluster::{BusMessage, ClusterStore, DIRECT_MAX, INSTANCE_MS, LEASE_MS, LEASE_RENEW_MS};
pub use error::{StoreError, StoreResult};
pub use games::{Abandoned, Change, GameRow, GameStore, ListedGame, Quota, StoredGame};
pub use online::{LinkRow, OnlineStore, SweptRows};
pub use practice::{PracticeSetRow, PracticeStore};
pub use profiles::{AccountGame, FinishedRow, GamesQuery, ProfileStore, RatingChange};
pub use puzzles::{PuzzleRating, PuzzleResult, PuzzleStore, RatedResult};
pub use safety::SafetyStore;
use std::future::Future;
use std::pin::Pin;
pub use watch::WatchStore;

/// What a store method returns: a boxed future (the traits are used as `&dyn`, from an
/// `Arc<dyn Store>`).
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = StoreResult<T>> + Send + 'a>>;

/// The server's storage, one narrow trait a feature: a feature's code reaches its own through
/// the accessor (`store.accounts().sign_in(..)`, `store.arenas().join_arena(..)`) and sees
/// nothing else. Each method of each is one transaction, committed when its future resolves.
/// Both databases implement every trait through one body, `backend` and `queries` (the
/// statements are shared).
pub trait Store: Send + Sync {
    /// Which implementation this is (`"sqlite"`, `"postgres"`).
    fn kind(&self) -> &'static str;

    /// Leases on games, notifications and messages between instances (`cluster`).
    fn cluster(&self) -> &dyn ClusterStore;
    /// The games: stored, loaded, changed, listed, deleted (`games`).
    fn games(&self) -> &dyn GameStore;
    /// Device links, the heartbeat, the clocks' deadlines (`online`).
    fn online(&self) -> &dyn OnlineStore;
    /// Accounts, sessions, sign-in failures, public players (`accounts`).
    fn accounts(&self) -> &dyn AccountStore;
    /// An account's games for its profile and "my games" (`profiles`).
    fn profiles(&self) -> &dyn ProfileStore;
    /// Arena tournaments (`arenas`; the rules are the domain's `arena`).
    fn arenas(&self) -> &dyn ArenaStore;
    /// Puzzle ratings and results (`puzzles`).
    fn puzzles(&self) -> &dyn PuzzleStore;
    /// Practice sets (`practice`).
    fn practice(&self) -> &dyn PracticeStore;
    /// Blocks, reports, the admin role, bans, chat off (`safety`).
    fn safety(&self) -> &dyn SafetyStore;
    /// The live games and the leaderboards (`watch`).
    fn watch(&self) -> &dyn WatchStore;
}
