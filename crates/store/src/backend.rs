//! One [`Store`] over either database: every method is a job of the shared statements
//! (`queries`) run in one transaction by a [`Backend`] (`sqlite::SqliteStore`,
//! `postgres::PgStore`), which only says how a transaction is opened and committed, and (for
//! PostgreSQL) how instances share games.

use super::exec::{Db, Job, JobFn};
use super::queries;
use super::safety::SafetyStore;
use super::{
    Abandoned, AccountGame, AccountRow, ArenaCaps, ArenaFull, ArenaGameRow, ArenaListed,
    ArenaPlayerRow, ArenaRow, BusMessage, Change, FinishedRow, GameRow, GamesQuery, LinkRow,
    ListedGame, NewAccount, Player, PracticeSetRow, PuzzleRating, PuzzleResult, Quota, RatedResult,
    SessionRow, Store, StoreError, StoreFuture, StoredGame, SweptRows,
};
use std::future::ready;
use virada_domain::identity::BrowserId;
use virada_domain::model::online::OnlineGame;
use virada_domain::model::{GameRecord, Owner, Status};
use virada_rules::Color;

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

    /// [`Store::shared_by_instances`].
    fn shared_by_instances(&self) -> bool {
        false
    }
    /// [`Store::lease`]: this process always owns every game.
    fn lease(&self, _id: &str, _instance: &str) -> StoreFuture<'_, Option<String>> {
        Box::pin(ready(Ok(None)))
    }
    /// [`Store::release`].
    fn release(&self, _id: &str, _instance: &str) -> StoreFuture<'_, ()> {
        Box::pin(ready(Ok(())))
    }
    /// [`Store::save_owned`]: a plain save, with nobody to tell.
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
    /// [`Store::send_direct`].
    fn send_direct(&self, _to: &str, _payload: String) -> StoreFuture<'_, ()> {
        Box::pin(ready(Err(StoreError::Db(
            "this store has no other instances".into(),
        ))))
    }
    /// [`Store::claim_instance`]: one process, nobody to share an id with.
    fn claim_instance(&self, _instance: &str, _token: &str) -> StoreFuture<'_, Option<i64>> {
        Box::pin(ready(Ok(None)))
    }
    /// [`Store::release_instance`].
    fn release_instance(&self, _instance: &str, _token: &str) -> StoreFuture<'_, ()> {
        Box::pin(ready(Ok(())))
    }
    /// [`Store::listen`].
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

    fn safety(&self) -> &dyn SafetyStore {
        self
    }

    fn watch(&self) -> &dyn super::watch::WatchStore {
        self
    }

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

    fn insert_game(&self, game: StoredGame, quota: Option<Quota>) -> StoreFuture<'_, ()> {
        self.write(move |db| {
            Box::pin(async move { queries::games::insert_within(db, &game, quota.as_ref()).await })
        })
    }

    fn load_game(&self, id: &str) -> StoreFuture<'_, Option<StoredGame>> {
        let id = id.to_string();
        self.read(move |db| Box::pin(async move { queries::games::load(db, &id).await }))
    }

    fn save(
        &self,
        rec: GameRecord,
        online: Option<OnlineGame>,
        changes: Vec<Change>,
    ) -> StoreFuture<'_, ()> {
        self.write(move |db| {
            Box::pin(async move { queries::games::save(db, &rec, online.as_ref(), &changes).await })
        })
    }

    fn game_row(&self, id: &str) -> StoreFuture<'_, Option<GameRow>> {
        let id = id.to_string();
        self.read(move |db| Box::pin(async move { queries::games::game_row(db, &id).await }))
    }

    fn claim_game(&self, id: &str, browser: BrowserId) -> StoreFuture<'_, Option<Owner>> {
        let id = id.to_string();
        self.write(move |db| {
            Box::pin(async move { queries::games::claim_game(db, &id, browser).await })
        })
    }

    fn list_games(
        &self,
        viewer: BrowserId,
        status: Option<Status>,
        limit: u32,
        claim_unowned: bool,
    ) -> StoreFuture<'_, Vec<ListedGame>> {
        self.write(move |db| {
            Box::pin(async move {
                if claim_unowned {
                    queries::games::claim_all_games(db, viewer).await?;
                }
                queries::games::list_games(db, viewer, status, limit).await
            })
        })
    }

    fn delete_game(&self, id: &str) -> StoreFuture<'_, bool> {
        let id = id.to_string();
        self.write(move |db| Box::pin(async move { queries::games::delete_game(db, &id).await }))
    }

    fn abandoned_games(&self, when: Abandoned, limit: usize) -> StoreFuture<'_, Vec<String>> {
        self.read(move |db| {
            Box::pin(async move { queries::games::abandoned_games(db, &when, limit).await })
        })
    }

    fn delete_if_abandoned(&self, id: &str, when: Abandoned) -> StoreFuture<'_, bool> {
        let id = id.to_string();
        self.write(move |db| {
            Box::pin(async move { queries::games::delete_if_abandoned(db, &id, &when).await })
        })
    }

    fn sweep_links_and_chat(&self, now: i64, chat_before: i64) -> StoreFuture<'_, SweptRows> {
        self.write(move |db| {
            Box::pin(
                async move { queries::online::sweep_links_and_chat(db, now, chat_before).await },
            )
        })
    }

    fn insert_link(&self, link: LinkRow, per_seat: usize) -> StoreFuture<'_, ()> {
        self.write(move |db| {
            Box::pin(async move { queries::online::insert_link(db, &link, per_seat).await })
        })
    }

    fn find_link(&self, hash: &str, now: i64) -> StoreFuture<'_, Option<(String, Color)>> {
        let hash = hash.to_string();
        self.read(move |db| {
            Box::pin(async move { queries::online::find_link(db, &hash, now).await })
        })
    }

    fn beat(&self, at: i64) -> StoreFuture<'_, ()> {
        self.write(move |db| Box::pin(async move { queries::online::beat(db, at).await }))
    }

    fn forgive_downtime(&self, now: i64) -> StoreFuture<'_, usize> {
        self.write(move |db| {
            Box::pin(async move {
                queries::games::fill_missing_flags(db).await?;
                queries::online::forgive_downtime(db, now).await
            })
        })
    }

    fn due_flags(
        &self,
        instance: &str,
        now: i64,
        limit: usize,
    ) -> StoreFuture<'_, (Vec<String>, Option<i64>)> {
        let instance = instance.to_string();
        self.read(move |db| {
            Box::pin(async move {
                Ok({
                    let due = queries::online::due_flags(db, &instance, now, limit).await?;
                    let next = queries::online::next_flag_after(db, now).await?;
                    (due, next)
                })
            })
        })
    }

    fn solver_rating(&self, browser: BrowserId) -> StoreFuture<'_, Option<PuzzleRating>> {
        self.read(move |db| Box::pin(queries::puzzles::solver_rating(db, browser)))
    }

    fn puzzle_ratings(&self) -> StoreFuture<'_, Vec<(String, PuzzleRating)>> {
        self.read(|db| Box::pin(queries::puzzles::puzzle_ratings(db)))
    }

    fn puzzle_rating(&self, id: &str) -> StoreFuture<'_, Option<PuzzleRating>> {
        let id = id.to_string();
        self.read(move |db| Box::pin(async move { queries::puzzles::puzzle_rating(db, &id).await }))
    }

    fn puzzle_results(&self, browser: BrowserId) -> StoreFuture<'_, Vec<(String, bool)>> {
        self.read(move |db| Box::pin(queries::puzzles::puzzle_results(db, browser)))
    }

    fn rate_puzzle(&self, result: PuzzleResult) -> StoreFuture<'_, RatedResult> {
        self.write(move |db| {
            Box::pin(async move { queries::puzzles::rate_puzzle(db, &result).await })
        })
    }

    fn sweep_puzzle_solvers(&self, before: i64) -> StoreFuture<'_, usize> {
        self.write(move |db| Box::pin(queries::puzzles::sweep_solvers(db, before)))
    }

    fn create_account(
        &self,
        account: NewAccount,
        session: SessionRow,
        guest: BrowserId,
    ) -> StoreFuture<'_, Vec<String>> {
        self.write(move |db| {
            Box::pin(async move {
                queries::accounts::create_account(db, &account, &session, guest).await
            })
        })
    }

    fn account_by_name(&self, key: &str) -> StoreFuture<'_, Option<AccountRow>> {
        let key = key.to_string();
        self.write(move |db| {
            Box::pin(async move { queries::accounts::account_by_name(db, &key).await })
        })
    }

    fn account_by_holder(&self, holder: BrowserId) -> StoreFuture<'_, Option<AccountRow>> {
        self.write(move |db| {
            Box::pin(async move { queries::accounts::account_by_holder(db, holder).await })
        })
    }

    fn login_failed(
        &self,
        holder: BrowserId,
        now: i64,
        max_failures: u32,
        lock_ms: i64,
    ) -> StoreFuture<'_, ()> {
        self.write(move |db| {
            Box::pin(async move {
                queries::accounts::login_failed(db, holder, now, max_failures, lock_ms).await
            })
        })
    }

    fn sign_in(
        &self,
        holder: BrowserId,
        session: SessionRow,
        guest: BrowserId,
    ) -> StoreFuture<'_, Vec<String>> {
        self.write(move |db| {
            Box::pin(async move { queries::accounts::sign_in(db, holder, &session, guest).await })
        })
    }

    fn session(&self, hash: &str, now: i64) -> StoreFuture<'_, Option<(BrowserId, String)>> {
        let hash = hash.to_string();
        self.write(move |db| {
            Box::pin(async move { queries::accounts::session(db, &hash, now).await })
        })
    }

    fn delete_session(&self, hash: &str) -> StoreFuture<'_, bool> {
        let hash = hash.to_string();
        self.write(move |db| {
            Box::pin(async move { queries::accounts::delete_session(db, &hash).await })
        })
    }

    fn set_password(
        &self,
        holder: BrowserId,
        password_hash: String,
        recovery_hash: Option<String>,
        session: SessionRow,
    ) -> StoreFuture<'_, ()> {
        self.write(move |db| {
            Box::pin(async move {
                queries::accounts::set_password(
                    db,
                    holder,
                    &password_hash,
                    recovery_hash.as_deref(),
                    &session,
                )
                .await
            })
        })
    }

    fn delete_account(
        &self,
        holder: BrowserId,
        tombstone: BrowserId,
    ) -> StoreFuture<'_, Option<Vec<String>>> {
        self.write(move |db| {
            Box::pin(async move { queries::accounts::delete_account(db, holder, tombstone).await })
        })
    }

    fn player(&self, key: &str) -> StoreFuture<'_, Option<Player>> {
        let key = key.to_string();
        self.read(move |db| Box::pin(async move { queries::accounts::player(db, &key).await }))
    }

    fn account_games(&self, q: GamesQuery) -> StoreFuture<'_, Vec<AccountGame>> {
        self.read(move |db| Box::pin(async move { queries::profiles::account_games(db, &q).await }))
    }

    fn finished_games(&self, holder: BrowserId) -> StoreFuture<'_, Vec<FinishedRow>> {
        self.read(move |db| {
            Box::pin(async move { queries::profiles::finished_games(db, holder).await })
        })
    }

    fn insert_arena(&self, arena: ArenaRow, caps: ArenaCaps) -> StoreFuture<'_, ()> {
        self.write(move |db| {
            Box::pin(async move { queries::arenas::insert_arena(db, &arena, caps).await })
        })
    }

    fn list_arenas(&self, ended_after: i64, limit: u32) -> StoreFuture<'_, Vec<ArenaListed>> {
        self.read(move |db| {
            Box::pin(async move { queries::arenas::list_arenas(db, ended_after, limit).await })
        })
    }

    fn arena_of_game(&self, game_id: &str) -> StoreFuture<'_, Option<String>> {
        let id = game_id.to_string();
        self.read(move |db| Box::pin(async move { queries::arenas::arena_of_game(db, &id).await }))
    }

    fn arena(&self, id: &str) -> StoreFuture<'_, Option<ArenaFull>> {
        let id = id.to_string();
        self.read(move |db| Box::pin(async move { queries::arenas::arena(db, &id).await }))
    }

    fn join_arena(
        &self,
        id: &str,
        player: ArenaPlayerRow,
        max_players: usize,
    ) -> StoreFuture<'_, bool> {
        let id = id.to_string();
        self.write(move |db| {
            Box::pin(
                async move { queries::arenas::join_arena(db, &id, &player, max_players).await },
            )
        })
    }

    fn withdraw_arena(&self, id: &str, holder: BrowserId) -> StoreFuture<'_, bool> {
        let id = id.to_string();
        self.write(move |db| {
            Box::pin(async move { queries::arenas::withdraw_arena(db, &id, holder).await })
        })
    }

    fn add_arena_game(&self, arena: &str, game: ArenaGameRow) -> StoreFuture<'_, ()> {
        let arena = arena.to_string();
        self.write(move |db| {
            Box::pin(async move { queries::arenas::add_arena_game(db, &arena, &game).await })
        })
    }

    fn open_arenas(&self, now: i64) -> StoreFuture<'_, Vec<String>> {
        self.read(move |db| Box::pin(async move { queries::arenas::open_arenas(db, now).await }))
    }

    fn save_practice_set(&self, set: PracticeSetRow, keep: usize) -> StoreFuture<'_, ()> {
        self.write(move |db| Box::pin(async move { queries::practice::save(db, &set, keep).await }))
    }

    fn practice_sets(&self, holder: BrowserId) -> StoreFuture<'_, Vec<PracticeSetRow>> {
        self.read(move |db| Box::pin(queries::practice::list(db, holder)))
    }

    fn solve_practice(
        &self,
        holder: BrowserId,
        id: &str,
        ply: u32,
    ) -> StoreFuture<'_, Option<PracticeSetRow>> {
        let id = id.to_string();
        self.write(move |db| {
            Box::pin(async move { queries::practice::solve(db, holder, &id, ply).await })
        })
    }

    fn delete_practice_set(&self, holder: BrowserId, id: &str) -> StoreFuture<'_, bool> {
        let id = id.to_string();
        self.write(move |db| {
            Box::pin(async move { queries::practice::delete(db, holder, &id).await })
        })
    }

    fn adopt_practice_sets(
        &self,
        guest: BrowserId,
        account: BrowserId,
        keep: usize,
    ) -> StoreFuture<'_, usize> {
        self.write(move |db| {
            Box::pin(async move { queries::practice::adopt(db, guest, account, keep).await })
        })
    }
}
