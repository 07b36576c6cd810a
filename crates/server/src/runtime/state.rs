//! The game registry: which games have a running actor (`game`), and the state handed to
//! every request handler.
//!
//! Each game id has its own slot behind its own async lock, so loading a cold game from the
//! database holds up only requests for that game, never the others (the map of slots is locked
//! only to find a slot, never across an `await`). Loading and deleting a game both hold its slot:
//! a deletion waits for a load in progress and then stops the actor it started, and a load
//! waiting behind a deletion finds the slot marked deleted, so a deleted game never comes back
//! into memory.

use crate::error::{AppError, AppResult};
use crate::http::limits::Limiter;
use crate::http::ownership::{self, Asker};
use crate::model::{Mode, Owner};
use crate::runtime::game::deletion::{self, Deletion};
use crate::runtime::game::{self, GameHandle};
use crate::runtime::shared::Shared;
use crate::util::{is_valid_game_id, random_u64};
use crate::view::GameView;
use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tracing::Instrument;
use virada_store::{Abandoned, GameRow, Quota, StoreError, StoredGame};

/// The state handed to every request handler.
#[derive(Clone)]
pub struct AppState {
    pub shared: Arc<Shared>,
    pub games: Arc<Games>,
    /// Open HTTP connections (counted by the accept loop).
    pub connections: Arc<AtomicUsize>,
    /// Per-address rate limits and caps (`limits`), shared with the accept loop.
    pub limits: Arc<Limiter>,
}

impl AppState {
    pub fn new(shared: Arc<Shared>) -> AppState {
        AppState {
            games: Arc::new(Games::new(shared.clone())),
            limits: Arc::new(Limiter::new(shared.config.limits.clone())),
            shared,
            connections: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// Runs `f` on the game's actor (loading the game if needed) and awaits the answer.
    ///
    /// A game `asker` may not see ([`ownership::may_access`]) is answered exactly as an unknown
    /// id: 404 `not_found`.
    pub async fn with_game<T, F, Fut>(&self, asker: &Asker, id: &str, f: F) -> AppResult<T>
    where
        F: Fn(GameHandle) -> Fut,
        Fut: Future<Output = AppResult<T>>,
    {
        // Two tries: an actor that has just stopped (unloaded) is replaced by a fresh one.
        for _ in 0..2 {
            let h = match self.games.handle_for(id, asker).await {
                Err(e) if e.code() == "corrupt_game" => return Err(self.hide(asker, id, e).await),
                other => other?,
            };
            if !ownership::may_access(h.owner, h.mode, asker) {
                return Err(AppError::not_found_game(id));
            }
            match f(h).await {
                Err(e) if game::is_stopped(&e) => continue,
                r => return r,
            }
        }
        Err(AppError::Internal(format!("game {id} is unavailable")))
    }

    /// The answer to `asker` about game `id` whose row does not replay (`corrupt`): that error
    /// for whoever may see the game (and so delete it), the 404 of an unknown id for anyone else.
    async fn hide(&self, asker: &Asker, id: &str, corrupt: AppError) -> AppError {
        match self.shared.store.games().game_row(id).await {
            Ok(Some(row)) if row_allows(&row, asker, false) => corrupt,
            Ok(_) => AppError::not_found_game(id),
            Err(e) => e.into(),
        }
    }

    /// The game as `asker` sees it.
    pub async fn view(&self, asker: &Asker, id: &str) -> AppResult<GameView> {
        let who = asker.browser;
        self.with_game(asker, id, |h| async move { h.view(Some(who)).await })
            .await
    }

    /// Stores a new game of `asker` (a local one, or an online one with its seats), starts its
    /// actor and returns the game as `asker` sees it.
    pub async fn create(&self, asker: &Asker, game: StoredGame) -> AppResult<GameView> {
        let id = game.id().to_string();
        self.games.create(game, self.quota(asker)).await?;
        self.view(asker, &id).await
    }

    /// What `asker`'s address may still store (`None`: it is exempt from per-address limits).
    fn quota(&self, asker: &Asker) -> Option<Quota> {
        if self.limits.exempt(asker.ip) {
            return None;
        }
        let limits = self.limits.config();
        Some(Quota {
            address: crate::http::limits::address_key(asker.ip),
            stored_games: limits.stored_games_per_ip,
            unfinished_online_games: limits.online_games_per_ip,
        })
    }

    /// Deletes a game: stops its actor (cancelling any search) and removes the row. The work runs
    /// to its end even if the client hangs up, so a deletion is never left half done.
    pub async fn delete(&self, asker: &Asker, id: &str) -> AppResult<()> {
        if !is_valid_game_id(id) {
            return Err(AppError::not_found_game(id));
        }
        // Ownership comes from the row alone, so a game whose moves no longer replay
        // (`corrupt_game`) can still be deleted by its owner.
        let row = self.shared.store.games().game_row(id).await?;
        if !row.is_some_and(|row| row_allows(&row, asker, true)) {
            return Err(AppError::not_found_game(id));
        }
        let games = self.games.clone();
        let owned = id.to_string();
        let done = tokio::spawn(async move { games.delete(&owned).await })
            .await
            .map_err(|e| AppError::Internal(format!("deleting game {id} failed: {e}")))??;
        match done {
            Deletion::Delete => Ok(()),
            Deletion::Refuse(reason) => Err(deletion::game_kept(reason)),
            // The owner leaves a game its opponent sat down to before both moved: an abort,
            // as the owner's own seat asks it (the game stays for the opponent).
            Deletion::Abort { ply } => {
                let h = self.games.handle_for(id, asker).await?;
                let now = self.shared.config.clock.now_ms();
                h.act(asker.browser, game::Action::Abort { ply }, now)
                    .await
                    .map(|_| ())
            }
        }
    }
}

/// Whether `asker` may see (`delete: false`) or delete the game of `row`, judged without
/// replaying it: as `ownership` says, and a game stored before owners is the local asker's, as
/// when it opens one.
fn row_allows(row: &GameRow, asker: &Asker, delete: bool) -> bool {
    if row.owner == Owner::Unclaimed {
        return asker.local;
    }
    if delete {
        return ownership::may_delete(row.owner, asker);
    }
    let mode = if row.online {
        Mode::Online
    } else {
        Mode::Friend
    };
    ownership::may_access(row.owner, mode, asker)
}

/// What the registry knows of one game.
enum Slot {
    /// Not in memory (it may or may not be in the database).
    Empty,
    Running(GameHandle),
    /// Deleted while others were waiting for this slot: they answer 404 without loading.
    Deleted,
}

type Cell = Arc<tokio::sync::Mutex<Slot>>;

/// The registry of running game actors.
pub struct Games {
    shared: Arc<Shared>,
    slots: Mutex<HashMap<String, Cell>>,
    running: AtomicUsize,
    loading: AtomicUsize,
}

/// Counts a load in progress (also when the request is dropped half-way).
struct LoadingGuard<'a>(&'a AtomicUsize);

impl<'a> LoadingGuard<'a> {
    fn new(n: &'a AtomicUsize) -> Self {
        n.fetch_add(1, Ordering::Relaxed);
        LoadingGuard(n)
    }
}

impl Drop for LoadingGuard<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Games {
    fn new(shared: Arc<Shared>) -> Games {
        Games {
            shared,
            slots: Mutex::new(HashMap::new()),
            running: AtomicUsize::new(0),
            loading: AtomicUsize::new(0),
        }
    }

    /// Games whose actor runs.
    pub fn running(&self) -> usize {
        self.running.load(Ordering::Relaxed)
    }

    /// Games being read from the database now.
    pub fn loading(&self) -> usize {
        self.loading.load(Ordering::Relaxed)
    }

    fn slots(&self) -> std::sync::MutexGuard<'_, HashMap<String, Cell>> {
        // The map is only ever changed by single inserts and removals: a panic elsewhere cannot
        // leave it half-updated, so a poisoned lock is still sound.
        self.slots.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn cell(&self, id: &str) -> Cell {
        self.slots()
            .entry(id.to_string())
            .or_insert_with(|| Arc::new(tokio::sync::Mutex::new(Slot::Empty)))
            .clone()
    }

    /// Drops `cell` and removes the slot when nobody else holds it and no actor runs in it. A
    /// slot can only be reached through the map, and the map is locked here, so nobody can be
    /// about to use a slot that is removed.
    fn prune(&self, id: &str, cell: Cell) {
        let mut slots = self.slots();
        drop(cell);
        let idle = slots.get(id).is_some_and(|c| {
            Arc::strong_count(c) == 1
                && c.try_lock()
                    .is_ok_and(|slot| !matches!(*slot, Slot::Running(_)))
        });
        if idle {
            slots.remove(id);
        }
    }

    /// The running actors (the bus listener tells them of other instances' changes).
    pub fn running_handles(&self) -> Vec<GameHandle> {
        let cells: Vec<Cell> = self.slots().values().cloned().collect();
        cells
            .iter()
            .filter_map(|c| match c.try_lock().as_deref() {
                Ok(Slot::Running(h)) => Some(h.clone()),
                _ => None,
            })
            .collect()
    }

    /// Game `id`'s actor if it runs here (`None` as well while it is being loaded: the load
    /// reads the store afresh).
    pub fn running_handle(&self, id: &str) -> Option<GameHandle> {
        let cell = self.slots().get(id).cloned()?;
        let slot = cell.try_lock().ok()?;
        match &*slot {
            Slot::Running(h) => Some(h.clone()),
            _ => None,
        }
    }

    /// Who owns game `id` now: `None` if this instance does (taking its lease if it is free;
    /// always, with a store of one process), else the instance holding it.
    async fn claim(&self, id: &str) -> AppResult<Option<String>> {
        let store = &self.shared.store;
        Ok(store
            .cluster()
            .lease(id, &self.shared.cluster.instance)
            .await?)
    }

    /// Starts the actor of `game` (`holder`: [`Games::claim`]); when it stops, its slot is
    /// emptied.
    fn start(self: &Arc<Self>, game: StoredGame, holder: Option<String>) -> GameHandle {
        let id = game.id().to_string();
        let instance = random_u64();
        self.running.fetch_add(1, Ordering::Relaxed);
        let games = self.clone();
        // The game's own span, not the request's that happened to load it: the actor outlives it.
        let span =
            tracing::info_span!(parent: None, "game", id = %id, mode = game.rec.meta.mode.name());
        let (handle, run) = game::start(game, self.shared.clone(), instance, holder);
        tokio::spawn(
            async move {
                tracing::debug!("game in memory");
                run.await;
                tracing::debug!("game left memory");
                games.stopped(&id, instance).await;
            }
            .instrument(span),
        );
        handle
    }

    async fn stopped(&self, id: &str, instance: u64) {
        self.running.fetch_sub(1, Ordering::Relaxed);
        let Some(cell) = self.slots().get(id).cloned() else {
            return;
        };
        {
            let mut slot = cell.lock().await;
            if matches!(&*slot, Slot::Running(h) if h.instance == instance) {
                *slot = Slot::Empty;
            }
        }
        self.prune(id, cell);
    }

    /// The actor of game `id`, loading the game from the database if it is not running. A game
    /// stored before owners is first given to `asker` if it asks from this machine, and is not
    /// found otherwise (see `ownership`).
    ///
    /// This does not check that `asker` may use the game: [`AppState::request`] does.
    pub async fn handle_for(self: &Arc<Self>, id: &str, asker: &Asker) -> AppResult<GameHandle> {
        self.handle_as(id, Some(asker)).await
    }

    /// The actor of game `id` for the server itself (loading live online games at start-up,
    /// a WebSocket whose upgrade was checked): an unclaimed game is not found.
    pub async fn handle(self: &Arc<Self>, id: &str) -> AppResult<GameHandle> {
        self.handle_as(id, None).await
    }

    async fn handle_as(
        self: &Arc<Self>,
        id: &str,
        claimant: Option<&Asker>,
    ) -> AppResult<GameHandle> {
        if !is_valid_game_id(id) {
            return Err(AppError::not_found_game(id));
        }
        let cell = self.cell(id);
        let result = self.handle_in(id, &cell, claimant).await;
        if result.is_err() {
            self.prune(id, cell);
        }
        result
    }

    async fn handle_in(
        self: &Arc<Self>,
        id: &str,
        cell: &Cell,
        claimant: Option<&Asker>,
    ) -> AppResult<GameHandle> {
        let mut slot = cell.lock().await;
        match &*slot {
            Slot::Running(h) if !h.is_closed() => return Ok(h.clone()),
            Slot::Deleted => return Err(AppError::not_found_game(id)),
            Slot::Running(_) | Slot::Empty => *slot = Slot::Empty,
        }
        // The lease first: the game read after it is the one its owner (this instance, or
        // another that this one then follows) goes on from.
        let holder = self.claim(id).await?;
        let leader = holder.is_none();
        let loaded = {
            let _loading = LoadingGuard::new(&self.loading);
            self.shared
                .store
                .games()
                .load_game(id)
                .await
                .map_err(AppError::from)
        };
        let loaded = match loaded {
            Ok(Some(game)) => Ok(game),
            Ok(None) => Err(AppError::not_found_game(id)),
            Err(e) => Err(e),
        };
        if loaded.is_err() && leader && self.shared.cluster.is_shared() {
            let _ = (self.shared.store)
                .cluster()
                .release(id, &self.shared.cluster.instance)
                .await;
        }
        let mut game = loaded?;
        let rec = &mut game.rec;
        if rec.meta.owner == Owner::Unclaimed {
            // A game from before owners: the asker's if it asks from this machine.
            let Some(asker) = claimant.filter(|a| a.local) else {
                return Err(AppError::not_found_game(id));
            };
            rec.meta.owner = self
                .shared
                .store
                .games()
                .claim_game(id, asker.browser)
                .await?
                .ok_or_else(|| AppError::not_found_game(id))?;
        }
        let h = self.start(game, holder);
        *slot = Slot::Running(h.clone());
        Ok(h)
    }

    /// Stores a new game (within `quota`, if given) and starts its actor.
    async fn create(self: &Arc<Self>, game: StoredGame, quota: Option<Quota>) -> AppResult<()> {
        self.shared
            .store
            .games()
            .insert_game(game.clone(), quota)
            .await?;
        let holder = self.claim(game.id()).await?;
        let cell = self.cell(game.id());
        let mut slot = cell.lock().await;
        let h = self.start(game, holder);
        *slot = Slot::Running(h);
        Ok(())
    }

    /// Deletes game `id` if [`deletion::judge`] allows it (else the verdict, the game left as
    /// it was, to be loaded again by its next request).
    async fn delete(self: &Arc<Self>, id: &str) -> AppResult<Deletion> {
        let cell = self.cell(id);
        let result = self.delete_in(id, &cell).await;
        self.prune(id, cell);
        result
    }

    async fn delete_in(&self, id: &str, cell: &Cell) -> AppResult<Deletion> {
        let mut slot = cell.lock().await;
        if matches!(*slot, Slot::Deleted) {
            return Err(AppError::not_found_game(id));
        }
        // Judged on the stored game (every change is stored before it is answered). A refusal
        // leaves the actor and its sockets alone; a deletion is judged again with the actor
        // stopped and the slot held, so no move lands between the verdict and the deletion.
        let verdict = self.deletion_verdict(id).await?;
        if verdict != Deletion::Delete {
            return Ok(verdict);
        }
        if let Slot::Running(h) = std::mem::replace(&mut *slot, Slot::Empty) {
            h.close().await;
            let verdict = self.deletion_verdict(id).await?;
            if verdict != Deletion::Delete {
                return Ok(verdict);
            }
        }
        let existed = self.shared.store.games().delete_game(id).await?;
        *slot = Slot::Deleted;
        // Followers of results (arenas) count a game deleted before its end as aborted.
        self.shared.game_ends.ended(id);
        self.shared
            .analysis_cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
        if existed {
            Ok(Deletion::Delete)
        } else {
            Err(AppError::not_found_game(id))
        }
    }

    /// What deleting game `id` would do, read from the store. A game that no longer replays
    /// involves nobody's record that can be read: its owner may delete it.
    async fn deletion_verdict(&self, id: &str) -> AppResult<Deletion> {
        match self.shared.store.games().load_game(id).await {
            Ok(Some(game)) => Ok(deletion::judge(&game)),
            Ok(None) | Err(StoreError::CorruptGame { .. }) => Ok(Deletion::Delete),
            Err(e) => Err(e.into()),
        }
    }

    /// Takes games `ids` out of memory (stopping their actors), so that their next request
    /// loads them afresh from the store: their owner or seat holders changed there (an account
    /// took a guest's games, an account was deleted).
    pub async fn reload(self: &Arc<Self>, ids: &[String]) {
        for id in ids {
            let cell = self.cell(id);
            {
                let mut slot = cell.lock().await;
                if let Slot::Running(h) = &*slot {
                    h.close().await;
                    *slot = Slot::Empty;
                }
            }
            self.prune(id, cell);
        }
    }

    /// Deletes game `id` if it is still abandoned (`when`) and not in memory: the retention
    /// sweep. Returns whether it was deleted. Holding the game's slot, so no load starts
    /// meanwhile (a request for it then finds it gone).
    pub async fn expire(self: &Arc<Self>, id: &str, when: Abandoned) -> AppResult<bool> {
        let cell = self.cell(id);
        let result = async {
            let mut slot = cell.lock().await;
            if !matches!(*slot, Slot::Empty) {
                return Ok(false);
            }
            let gone = self
                .shared
                .store
                .games()
                .delete_if_abandoned(id, when)
                .await?;
            if gone {
                *slot = Slot::Deleted;
            }
            Ok(gone)
        }
        .await;
        self.prune(id, cell);
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ServerConfig;
    use crate::model::{GameMeta, GameRecord, Mode, StartKind};
    use crate::runtime::pool::EnginePool;
    use crate::util::new_game_id;
    use std::time::Duration;
    use tokio::sync::watch;
    use virada_rules::Game;
    use virada_store::sqlite::SqliteStore;
    use virada_store::Store;

    fn asker() -> Asker {
        Asker {
            browser: crate::identity::BrowserId::of_token("me"),
            ip: std::net::Ipv4Addr::LOCALHOST.into(),
            local: true,
        }
    }

    fn record() -> GameRecord {
        GameRecord {
            meta: GameMeta {
                id: new_game_id(),
                created_at: 1,
                updated_at: 1,
                mode: Mode::Friend,
                start_kind: StartKind::Standard,
                opening: None,
                seed: 1,
                owner: Owner::Browser(asker().browser),
                record: None,
            },
            game: Game::new(),
        }
    }

    /// A cold game whose load is stuck (the database is busy) holds up only its own requests.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    // Holding the connection across awaits is the point: it stands for a slow query.
    #[allow(clippy::await_holding_lock)]
    async fn a_slow_load_holds_up_only_its_own_game() {
        let dir = tempfile::tempdir().unwrap();
        let config = ServerConfig::for_tests(dir.path().join("db.sqlite"));
        let db = Arc::new(SqliteStore::open(&config.db_path).unwrap());
        let (_stop, shutdown) = watch::channel(false);
        let pool = EnginePool::new(1, Arc::new(crate::runtime::engine_port::new_engine));
        let shared = Arc::new(Shared::new(config, db.clone(), pool, shutdown));
        let state = AppState::new(shared);
        let warm = record();
        let warm_id = warm.meta.id.clone();
        let local = |rec| StoredGame { rec, online: None };
        state.create(&asker(), local(warm)).await.unwrap();
        // A game in the database but not in memory.
        let cold = record();
        let cold_id = cold.meta.id.clone();
        db.games().insert_game(local(cold), None).await.unwrap();

        let held = db.hold_connection();
        let slow = {
            let (state, id) = (state.clone(), cold_id.clone());
            tokio::spawn(async move { state.view(&asker(), &id).await })
        };
        while state.games.loading() == 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        // The bound only keeps a failing test from hanging: before the fix this waited for
        // the cold load, which waits for `held`.
        let answer = tokio::time::timeout(Duration::from_secs(20), state.view(&asker(), &warm_id))
            .await
            .expect("the running game answers while another game loads");
        assert_eq!(answer.unwrap().id, warm_id);
        assert!(!slow.is_finished());
        drop(held);
        assert_eq!(slow.await.unwrap().unwrap().id, cold_id);
        assert_eq!(state.games.running(), 2);
    }
}
