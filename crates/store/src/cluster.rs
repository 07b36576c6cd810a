//! Several server processes on one database (the server's `runtime::cluster`): leases on games,
//! change notifications and messages between instances. [`ClusterStore`] is reached through
//! [`super::Store::cluster`]. A store only one process uses (SQLite) always owns every game,
//! and has nobody to tell, at no cost (`backend::Backend`'s defaults).

use super::{Change, StoreFuture};
use virada_domain::model::online::OnlineGame;
use virada_domain::model::GameRecord;

/// How long a lease on a game lasts unless renewed (its owner renews it every
/// [`LEASE_RENEW_MS`]): another instance takes a dead owner's games over within
/// `LEASE_MS + LEASE_RENEW_MS`.
pub const LEASE_MS: i64 = 3_000;
pub const LEASE_RENEW_MS: u64 = 1_000;
/// How long a process's claim on its instance id lasts unless renewed (renewed with its leases
/// every [`LEASE_RENEW_MS`]): an instance id is live while its claim has not expired, and a
/// second process started with a live id is refused ([`ClusterStore::claim_instance`]).
pub const INSTANCE_MS: i64 = 3_000;
/// Largest message between instances (PostgreSQL's `NOTIFY` takes at most 8000 bytes).
pub const DIRECT_MAX: usize = 7_900;

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

/// Leases, notifications and messages between instances; each method one transaction (or one
/// statement outside any).
pub trait ClusterStore: Send + Sync {
    /// Whether several server processes may share this store (then games have leases).
    fn shared_by_instances(&self) -> bool;
    /// Takes or renews `instance`'s lease on game `id` (for [`LEASE_MS`] from now, on the
    /// store's clock): it is taken when no other instance holds a lease that has not expired.
    /// `Ok(None)`: `instance` holds it now; `Ok(Some(other))`: `other` does.
    fn lease(&self, id: &str, instance: &str) -> StoreFuture<'_, Option<String>>;
    /// Gives up `instance`'s lease on game `id` (its actor stops).
    fn release(&self, id: &str, instance: &str) -> StoreFuture<'_, ()>;
    /// [`crate::GameStore::save`] by the owner of the game: refused with 503 `not_owner` (and nothing
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
}
