//! One [`Store`] over either database: every method of every feature's trait is a job of the
//! shared statements (`queries`; each feature's trait is implemented beside its statements)
//! run in one transaction by a [`Backend`] (`sqlite::SqliteStore`,
//! `postgres::PgStore`), which only says how a transaction is opened and committed, and (for
//! PostgreSQL) how instances share games.

use super::exec::{Db, Job, JobFn};
use super::queries;
use super::{
    AccountStore, ArenaStore, BusMessage, Change, ClusterStore, GameStore, OnlineStore,
    PracticeStore, ProfileStore, PuzzleStore, SafetyStore, Store, StoreError, StoreFuture,
    WatchStore,
};
use std::future::ready;
use virada_domain::model::online::OnlineGame;
use virada_domain::model::GameRecord;

/// A database the store runs its jobs on.
pub trait Backend: Send + Sync + 'static {
    /// Which database this is (`"sqlite"`, `"postgres"`).
    fn kind(&self) -> &'static str;

    /// Runs `job` in one transaction, committed when it succeeded and rolled back when it
    /// failed. `read_only`: the job only reads, and sees one snapshot of the database.
    fn run<T: Send + 'static>(&self, read_only: bool, job: JobFn<T>) -> StoreFuture<'_, T>;

    /// [`Backend::run`] for a job that writes.
    fn write<T, F>(&self, job: F) -> StoreFuture<'_, T>
    where
        T: Send + 'static,
        F: for<'d> FnOnce(&'d Db<'d>) -> Job<'d, T> + Send + 'static,
    {
        self.run(false, Box::new(job))
    }

    /// [`Backend::run`] for a job that only reads.
    fn read<T, F>(&self, job: F) -> StoreFuture<'_, T>
    where
        T: Send + 'static,
        F: for<'d> FnOnce(&'d Db<'d>) -> Job<'d, T> + Send + 'static,
    {
        self.run(true, Box::new(job))
    }

    // ---------- several instances: the defaults are those of a database one process uses ----------

    /// [`ClusterStore::shared_by_instances`].
    fn shared_by_instances(&self) -> bool {
        false
    }
    /// [`ClusterStore::lease`]: this process always owns every game.
    fn lease(&self, _id: &str, _instance: &str) -> StoreFuture<'_, Option<String>> {
        Box::pin(ready(Ok(None)))
    }
    /// [`ClusterStore::release`].
    fn release(&self, _id: &str, _instance: &str) -> StoreFuture<'_, ()> {
        Box::pin(ready(Ok(())))
    }
    /// [`ClusterStore::save_owned`]: a plain save, with nobody to tell.
    fn save_owned(
        &self,
        _instance: &str,
        _version: u64,
        rec: GameRecord,
        online: Option<OnlineGame>,
        changes: Vec<Change>,
    ) -> StoreFuture<'_, ()> {
        self.write(move |db| {
            Box::pin(async move { queries::games::save(db, &rec, online.as_ref(), &changes).await })
        })
    }
    /// [`ClusterStore::send_direct`].
    fn send_direct(&self, _to: &str, _payload: String) -> StoreFuture<'_, ()> {
        Box::pin(ready(Err(StoreError::Db(
            "this store has no other instances".into(),
        ))))
    }
    /// [`ClusterStore::claim_instance`]: one process, nobody to share an id with.
    fn claim_instance(&self, _instance: &str, _token: &str) -> StoreFuture<'_, Option<i64>> {
        Box::pin(ready(Ok(None)))
    }
    /// [`ClusterStore::release_instance`].
    fn release_instance(&self, _instance: &str, _token: &str) -> StoreFuture<'_, ()> {
        Box::pin(ready(Ok(())))
    }
    /// [`ClusterStore::listen`].
    fn listen(
        &self,
        _instance: &str,
        _token: &str,
    ) -> Option<tokio::sync::mpsc::Receiver<BusMessage>> {
        None
    }
}

impl<B: Backend> Store for B {
    fn kind(&self) -> &'static str {
        Backend::kind(self)
    }

    fn cluster(&self) -> &dyn ClusterStore {
        self
    }

    fn games(&self) -> &dyn GameStore {
        self
    }

    fn online(&self) -> &dyn OnlineStore {
        self
    }

    fn accounts(&self) -> &dyn AccountStore {
        self
    }

    fn profiles(&self) -> &dyn ProfileStore {
        self
    }

    fn arenas(&self) -> &dyn ArenaStore {
        self
    }

    fn puzzles(&self) -> &dyn PuzzleStore {
        self
    }

    fn practice(&self) -> &dyn PracticeStore {
        self
    }

    fn safety(&self) -> &dyn SafetyStore {
        self
    }

    fn watch(&self) -> &dyn WatchStore {
        self
    }
}

impl<B: Backend> ClusterStore for B {
    fn shared_by_instances(&self) -> bool {
        Backend::shared_by_instances(self)
    }

    fn lease(&self, id: &str, instance: &str) -> StoreFuture<'_, Option<String>> {
        Backend::lease(self, id, instance)
    }

    fn release(&self, id: &str, instance: &str) -> StoreFuture<'_, ()> {
        Backend::release(self, id, instance)
    }

    fn save_owned(
        &self,
        instance: &str,
        version: u64,
        rec: GameRecord,
        online: Option<OnlineGame>,
        changes: Vec<Change>,
    ) -> StoreFuture<'_, ()> {
        Backend::save_owned(self, instance, version, rec, online, changes)
    }

    fn send_direct(&self, to: &str, payload: String) -> StoreFuture<'_, ()> {
        Backend::send_direct(self, to, payload)
    }

    fn claim_instance(&self, instance: &str, token: &str) -> StoreFuture<'_, Option<i64>> {
        Backend::claim_instance(self, instance, token)
    }

    fn release_instance(&self, instance: &str, token: &str) -> StoreFuture<'_, ()> {
        Backend::release_instance(self, instance, token)
    }

    fn listen(
        &self,
        instance: &str,
        token: &str,
    ) -> Option<tokio::sync::mpsc::Receiver<BusMessage>> {
        Backend::listen(self, instance, token)
    }
}
