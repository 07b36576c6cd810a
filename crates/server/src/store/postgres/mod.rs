//! The PostgreSQL store (`--db postgres://...`): the same tables and schema versions as the
//! SQLite store, on tokio-postgres with a deadpool connection pool.
//!
//! Every [`Store`] method takes one connection from the pool, opens one transaction, and
//! commits it before its future resolves, so (as with SQLite) a change is durable before any
//! reply or event shows it. PostgreSQL runs transactions side by side where SQLite ran them
//! one after another; where that could change an answer the method says how it keeps the
//! SQLite answer: two new games from one address checking its quota at once take a
//! transaction-level advisory lock on the address first, and the methods that only read (a
//! game with its seats and chat, due flags) read one snapshot (`REPEATABLE READ`).
//!
//! The SQL lives in [`games`] and [`online`]; the meaning of the columns (how a colour or a
//! phase is spelt) is shared with SQLite in [`super::columns`].

mod accounts;
mod arenas;
mod cluster;
pub(super) mod dump;
mod games;
mod online;
mod profiles;
mod puzzles;
mod safety;

use super::{
    Abandoned, Change, GameRow, LinkRow, ListedGame, PuzzleRating, PuzzleResult, Quota,
    RatedResult, Store, StoreFuture, StoredGame, SweptRows,
};
use super::{AccountGame, FinishedRow, GamesQuery};
use super::{AccountRow, NewAccount, Player, SessionRow};
use super::{ArenaCaps, ArenaFull, ArenaGameRow, ArenaListed, ArenaPlayerRow, ArenaRow};
use crate::config::PgTarget;
use crate::error::{AppError, AppResult};
use crate::identity::BrowserId;
use crate::model::online::OnlineGame;
use crate::model::Owner;
use crate::model::{GameRecord, Status};
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use std::fmt;
use std::time::Duration;
use tokio_postgres::{NoTls, Transaction};
use virada_rules::Color;

/// Schema migrations, applied in order; entry `i` brings the schema to version `i + 1`, the
/// same version as entry `i` of the SQLite store's list (the same tables and columns, in
/// PostgreSQL's dialect: `BIGINT` for every integer). Never edit a released entry: append a
/// new one, to both lists.
pub(super) const MIGRATIONS: &[&str] = &[
    // v1: games as start position + moves (+ redo list), with summary columns for listing.
    "CREATE TABLE games (
        id           TEXT PRIMARY KEY,
        created_at   BIGINT NOT NULL,
        updated_at   BIGINT NOT NULL,
        mode         TEXT NOT NULL,
        level        BIGINT,
        human_color  TEXT,
        start_kind   TEXT NOT NULL,
        start_pos    TEXT NOT NULL,
        opening      TEXT,
        seed         BIGINT NOT NULL,
        moves        TEXT NOT NULL,
        redo         TEXT NOT NULL,
        status       TEXT NOT NULL,
        black_discs  BIGINT NOT NULL,
        white_discs  BIGINT NOT NULL,
        ply_count    BIGINT NOT NULL,
        transcript   TEXT NOT NULL
    );
    CREATE INDEX games_updated ON games(updated_at DESC);",
    // v2: the browser that owns each game.
    "ALTER TABLE games ADD COLUMN owner TEXT;
    CREATE INDEX games_owner ON games(owner, updated_at DESC);",
    // v3 (online play): seats, holders, clocks, chat, device links, the server's heartbeat.
    online::MIGRATION,
    // v4: each running clock's deadline, watched by the flag scheduler.
    "ALTER TABLE online_games ADD COLUMN flag_at BIGINT;
    CREATE INDEX online_games_flag ON online_games(flag_at);",
    // v5: the address a game was created from (the per-address caps).
    "ALTER TABLE games ADD COLUMN created_from TEXT;
    CREATE INDEX games_created_from ON games(created_from);",
    // v6: puzzle ratings (per puzzle, per browser) and each browser's first result a puzzle.
    puzzles::MIGRATION,
    // v7: accounts, sessions, game ratings and their history; whether an online game is rated.
    accounts::MIGRATION,
    // v8: which instance runs each game, until when (`cluster`).
    cluster::MIGRATION,
    // v9: the leases by expiry and by instance (the listener's renewal and expiry look-up).
    cluster::MIGRATION_INDEXES,
    // v10: players' safety: blocks, reports, the admin role, bans, chat off.
    safety::MIGRATION,
    // v11: arena tournaments: arenas, their players and their games (`crate::arena`).
    arenas::MIGRATION,
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// Most connections one server keeps to PostgreSQL.
pub const POOL_SIZE: usize = 16;
/// How long a store method waits for a free connection, and for a new one to be made.
const POOL_WAIT: Duration = Duration::from_secs(10);
/// The advisory lock key migrations hold ("virada" in ASCII), so servers starting together
/// upgrade the schema one at a time.
const MIGRATION_LOCK: i64 = 0x7669_7261_6461;

/// The PostgreSQL store (a shareable handle on a connection pool).
#[derive(Clone)]
pub struct PgStore {
    pool: Pool,
    /// How to connect (the bus listener has a connection of its own).
    config: std::sync::Arc<tokio_postgres::Config>,
    /// The channel of change notifications (one per schema: servers on other schemas of the
    /// same database are other installations).
    changes: String,
}

/// Why the PostgreSQL database could not be opened. Every variant names the database
/// without its password.
#[derive(Debug)]
pub enum PgError {
    /// The URL cannot be read, or names a schema that is not a plain name.
    Url { db: String, reason: String },
    /// The server cannot be reached, or refused us.
    Connect { db: String, reason: String },
    /// The database was written by a newer program.
    TooNew {
        db: String,
        found: i64,
        supported: i64,
    },
    /// Bringing the schema up to `version` failed.
    Migration {
        db: String,
        version: i64,
        reason: String,
    },
}

impl fmt::Display for PgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgError::Url { db, reason } => write!(f, "database {db}: {reason}"),
            PgError::Connect { db, reason } => write!(f, "cannot open database {db}: {reason}"),
            PgError::TooNew {
                db,
                found,
                supported,
            } => write!(
                f,
                "database {db}: schema version {found} is newer than this program understands \
                 ({supported}); use a newer virada or another --db"
            ),
            PgError::Migration {
                db,
                version,
                reason,
            } => write!(
                f,
                "database {db}: migration to schema version {version} failed: {reason}"
            ),
        }
    }
}

impl std::error::Error for PgError {}

/// A driver error in words (the server's own message when it sent one).
fn reason(e: &tokio_postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => db.to_string(),
        None => match std::error::Error::source(e) {
            Some(cause) => format!("{e}: {cause}"),
            None => e.to_string(),
        },
    }
}

impl PgStore {
    /// Connects to `target` (creating its schema if it names one) and brings the schema up
    /// to date.
    pub async fn open(target: &PgTarget) -> Result<PgStore, PgError> {
        PgStore::open_upgrading(target)
            .await
            .map(|(store, _)| store)
    }

    /// [`PgStore::open`], also saying the schema version the database had before (0: no
    /// tables yet); it has [`SCHEMA_VERSION`] afterwards.
    pub async fn open_upgrading(target: &PgTarget) -> Result<(PgStore, i64), PgError> {
        let (store, mut client) = PgStore::connect(target, true).await?;
        let before = migrate(&mut client, &target.describe()).await?;
        Ok((store, before))
    }

    /// A pool on `target` and one of its connections, with the schema left as it is (no
    /// migration; `create_schema`: the schema the URL names is created if missing).
    pub(super) async fn connect(
        target: &PgTarget,
        create_schema: bool,
    ) -> Result<(PgStore, deadpool_postgres::Object), PgError> {
        let db = target.describe();
        let url_err = |reason: String| PgError::Url {
            db: db.clone(),
            reason,
        };
        let mut config: tokio_postgres::Config =
            target.url.parse().map_err(|e: tokio_postgres::Error| {
                url_err(format!("not a PostgreSQL URL: {}", reason(&e)))
            })?;
        if let Some(schema) = &target.schema {
            let plain = !schema.is_empty()
                && schema.len() <= 63
                && schema.starts_with(|c: char| c.is_ascii_lowercase())
                && schema
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
            if !plain {
                return Err(url_err(format!(
                    "schema {schema:?} must be lower-case letters, digits and _"
                )));
            }
            let search = format!("-c search_path={schema}");
            let options = match config.get_options() {
                Some(o) => format!("{o} {search}"),
                None => search,
            };
            config.options(options);
        }
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(POOL_WAIT);
        }
        let changes = cluster::changes_channel(target.schema.as_deref());
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(POOL_WAIT))
            .create_timeout(Some(POOL_WAIT))
            .build()
            .map_err(|e| url_err(e.to_string()))?;
        let store = PgStore {
            pool,
            config: std::sync::Arc::new(config),
            changes,
        };
        let client = store.pool.get().await.map_err(|e| PgError::Connect {
            db: db.clone(),
            reason: match &e {
                deadpool_postgres::PoolError::Backend(e) => reason(e),
                other => other.to_string(),
            },
        })?;
        if let (Some(schema), true) = (&target.schema, create_schema) {
            client
                .batch_execute(&format!("CREATE SCHEMA IF NOT EXISTS {schema}"))
                .await
                .map_err(|e| PgError::Connect {
                    db: db.clone(),
                    reason: reason(&e),
                })?;
        }
        Ok((store, client))
    }

    /// The schema version of the database.
    pub async fn schema_version(&self) -> AppResult<i64> {
        let client = self.pool.get().await?;
        let row = client
            .query_one(
                "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
                &[],
            )
            .await?;
        Ok(row.try_get(0)?)
    }

    /// Runs plain SQL (tests look at and spoil stored rows with it).
    pub async fn execute_sql(&self, sql: &str) -> AppResult<()> {
        let client = self.pool.get().await?;
        client.batch_execute(sql).await?;
        Ok(())
    }

    /// The rows `sql` returns, every column as text (tests read stored rows with it).
    pub async fn query_rows(&self, sql: &str) -> AppResult<Vec<Vec<Option<String>>>> {
        let client = self.pool.get().await?;
        let mut out = Vec::new();
        for msg in client.simple_query(sql).await? {
            if let tokio_postgres::SimpleQueryMessage::Row(row) = msg {
                out.push(
                    (0..row.len())
                        .map(|i| row.get(i).map(str::to_string))
                        .collect(),
                );
            }
        }
        Ok(out)
    }
}

/// Applies the missing migrations, each in its own transaction holding [`MIGRATION_LOCK`];
/// returns the version found before.
async fn migrate(client: &mut deadpool_postgres::Object, db: &str) -> Result<i64, PgError> {
    let mut before = None;
    for version in 1..=SCHEMA_VERSION {
        let failed = |e: tokio_postgres::Error| PgError::Migration {
            db: db.to_string(),
            version,
            reason: reason(&e),
        };
        let tx = client.transaction().await.map_err(failed)?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
            .await
            .map_err(failed)?;
        tx.batch_execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (
                version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL)",
        )
        .await
        .map_err(failed)?;
        let found: i64 = tx
            .query_one(
                "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
                &[],
            )
            .await
            .and_then(|r| r.try_get(0))
            .map_err(failed)?;
        before.get_or_insert(found);
        if found > SCHEMA_VERSION {
            return Err(PgError::TooNew {
                db: db.to_string(),
                found,
                supported: SCHEMA_VERSION,
            });
        }
        if found >= version {
            continue;
        }
        tx.batch_execute(MIGRATIONS[(version - 1) as usize])
            .await
            .map_err(failed)?;
        tx.execute(
            "INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)",
            &[&version, &crate::util::now_millis()],
        )
        .await
        .map_err(failed)?;
        tx.commit().await.map_err(failed)?;
    }
    Ok(before.unwrap_or(0))
}

/// Runs `$body` (an expression using the transaction `$tx`) in one transaction of a pooled
/// connection, committed when it succeeded (dropped, so rolled back, when it failed).
macro_rules! in_tx {
    ($store:expr, |$tx:ident| $body:expr) => {
        Box::pin(async move {
            let mut client = $store.pool.get().await?;
            let $tx = client.transaction().await?;
            let out = $body;
            $tx.commit().await?;
            Ok::<_, AppError>(out)
        })
    };
}

/// [`in_tx!`] for a method that only reads: one snapshot for all its statements
/// (`REPEATABLE READ`), so a game's row and its online rows are read as one change left them
/// even while another connection saves the next one. A read-only snapshot never fails to
/// serialize.
macro_rules! in_read_tx {
    ($store:expr, |$tx:ident| $body:expr) => {
        Box::pin(async move {
            let mut client = $store.pool.get().await?;
            let $tx = client
                .build_transaction()
                .isolation_level(tokio_postgres::IsolationLevel::RepeatableRead)
                .read_only(true)
                .start()
                .await?;
            let out = $body;
            $tx.commit().await?;
            Ok::<_, AppError>(out)
        })
    };
}

impl Store for PgStore {
    fn kind(&self) -> &'static str {
        "postgres"
    }

    fn safety(&self) -> &dyn super::safety::SafetyStore {
        self
    }

    fn shared_by_instances(&self) -> bool {
        true
    }

    fn lease(&self, id: &str, instance: &str) -> StoreFuture<'_, Option<String>> {
        let (id, instance) = (id.to_string(), instance.to_string());
        in_tx!(self, |tx| cluster::lease(&tx, &id, &instance).await?)
    }

    fn release(&self, id: &str, instance: &str) -> StoreFuture<'_, ()> {
        let (id, instance) = (id.to_string(), instance.to_string());
        in_tx!(self, |tx| cluster::release(&tx, &id, &instance).await?)
    }

    fn save_owned(
        &self,
        instance: &str,
        version: u64,
        rec: GameRecord,
        online: Option<OnlineGame>,
        changes: Vec<Change>,
    ) -> StoreFuture<'_, ()> {
        let instance = instance.to_string();
        in_tx!(self, |tx| {
            cluster::renew_or_refuse(&tx, &rec.meta.id, &instance).await?;
            save(&tx, &rec, online.as_ref(), &changes).await?;
            let payload = format!("{} {version} {instance}", rec.meta.id);
            cluster::notify(&tx, &self.changes, &payload).await?
        })
    }

    fn send_direct(&self, to: &str, payload: String) -> StoreFuture<'_, ()> {
        let channel = cluster::direct_channel(to);
        in_tx!(self, |tx| cluster::notify(&tx, &channel, &payload).await?)
    }

    fn listen(&self, instance: &str) -> Option<tokio::sync::mpsc::Receiver<super::BusMessage>> {
        Some(cluster::listen(
            (*self.config).clone(),
            self.changes.clone(),
            instance.to_string(),
        ))
    }

    fn insert_game(&self, game: StoredGame, quota: Option<Quota>) -> StoreFuture<'_, ()> {
        in_tx!(self, |tx| insert_within(&tx, &game, quota.as_ref()).await?)
    }

    fn load_game(&self, id: &str) -> StoreFuture<'_, Option<StoredGame>> {
        let id = id.to_string();
        in_read_tx!(self, |tx| load(&tx, &id).await?)
    }

    fn save(
        &self,
        rec: GameRecord,
        online: Option<OnlineGame>,
        changes: Vec<Change>,
    ) -> StoreFuture<'_, ()> {
        in_tx!(self, |tx| save(&tx, &rec, online.as_ref(), &changes)
            .await?)
    }

    fn game_row(&self, id: &str) -> StoreFuture<'_, Option<GameRow>> {
        let id = id.to_string();
        in_read_tx!(self, |tx| games::game_row(&tx, &id).await?)
    }

    fn claim_game(&self, id: &str, browser: BrowserId) -> StoreFuture<'_, Option<Owner>> {
        let id = id.to_string();
        in_tx!(self, |tx| games::claim_game(&tx, &id, browser).await?)
    }

    fn list_games(
        &self,
        viewer: BrowserId,
        status: Option<Status>,
        limit: u32,
        claim_unowned: bool,
    ) -> StoreFuture<'_, Vec<ListedGame>> {
        in_tx!(self, |tx| {
            if claim_unowned {
                games::claim_all_games(&tx, viewer).await?;
            }
            games::list_games(&tx, viewer, status, limit).await?
        })
    }

    fn delete_game(&self, id: &str) -> StoreFuture<'_, bool> {
        let id = id.to_string();
        in_tx!(self, |tx| {
            cluster::forget(&tx, &id).await?;
            games::delete_game(&tx, &id).await?
        })
    }

    fn abandoned_games(&self, when: Abandoned, limit: usize) -> StoreFuture<'_, Vec<String>> {
        in_read_tx!(self, |tx| games::abandoned_games(&tx, &when, limit).await?)
    }

    fn delete_if_abandoned(&self, id: &str, when: Abandoned) -> StoreFuture<'_, bool> {
        let id = id.to_string();
        in_tx!(self, |tx| games::delete_if_abandoned(&tx, &id, &when)
            .await?)
    }

    fn sweep_links_and_chat(&self, now: i64, chat_before: i64) -> StoreFuture<'_, SweptRows> {
        in_tx!(self, |tx| online::sweep_links_and_chat(
            &tx,
            now,
            chat_before
        )
        .await?)
    }

    fn insert_link(&self, link: LinkRow, per_seat: usize) -> StoreFuture<'_, ()> {
        in_tx!(self, |tx| online::insert_link(&tx, &link, per_seat).await?)
    }

    fn find_link(&self, hash: &str, now: i64) -> StoreFuture<'_, Option<(String, Color)>> {
        let hash = hash.to_string();
        in_read_tx!(self, |tx| online::find_link(&tx, &hash, now).await?)
    }

    fn beat(&self, at: i64) -> StoreFuture<'_, ()> {
        in_tx!(self, |tx| online::beat(&tx, at).await?)
    }

    fn forgive_downtime(&self, now: i64) -> StoreFuture<'_, usize> {
        in_tx!(self, |tx| {
            fill_missing_flags(&tx).await?;
            online::forgive_downtime(&tx, now).await?
        })
    }

    fn due_flags(&self, now: i64, limit: usize) -> StoreFuture<'_, (Vec<String>, Option<i64>)> {
        in_read_tx!(self, |tx| {
            let due = online::due_flags(&tx, now, limit).await?;
            let next = online::next_flag_after(&tx, now).await?;
            (due, next)
        })
    }

    fn solver_rating(&self, browser: BrowserId) -> StoreFuture<'_, Option<PuzzleRating>> {
        in_read_tx!(self, |tx| puzzles::solver_rating(&tx, browser).await?)
    }

    fn puzzle_ratings(&self) -> StoreFuture<'_, Vec<(String, PuzzleRating)>> {
        in_read_tx!(self, |tx| puzzles::puzzle_ratings(&tx).await?)
    }

    fn puzzle_rating(&self, id: &str) -> StoreFuture<'_, Option<PuzzleRating>> {
        let id = id.to_string();
        in_read_tx!(self, |tx| puzzles::puzzle_rating(&tx, &id).await?)
    }

    fn puzzle_results(&self, browser: BrowserId) -> StoreFuture<'_, Vec<(String, bool)>> {
        in_read_tx!(self, |tx| puzzles::puzzle_results(&tx, browser).await?)
    }

    fn rate_puzzle(&self, result: PuzzleResult) -> StoreFuture<'_, RatedResult> {
        in_tx!(self, |tx| puzzles::rate_puzzle(&tx, &result).await?)
    }

    fn sweep_puzzle_solvers(&self, before: i64) -> StoreFuture<'_, usize> {
        in_tx!(self, |tx| puzzles::sweep_solvers(&tx, before).await?)
    }

    fn create_account(
        &self,
        account: NewAccount,
        session: SessionRow,
        guest: BrowserId,
    ) -> StoreFuture<'_, Vec<String>> {
        in_tx!(self, |tx| accounts::create_account(
            &tx, &account, &session, guest
        )
        .await?)
    }

    fn account_by_name(&self, key: &str) -> StoreFuture<'_, Option<AccountRow>> {
        let key = key.to_string();
        in_tx!(self, |tx| accounts::account_by_name(&tx, &key).await?)
    }

    fn account_by_holder(&self, holder: BrowserId) -> StoreFuture<'_, Option<AccountRow>> {
        in_tx!(self, |tx| accounts::account_by_holder(&tx, holder).await?)
    }

    fn login_failed(
        &self,
        holder: BrowserId,
        now: i64,
        max_failures: u32,
        lock_ms: i64,
    ) -> StoreFuture<'_, ()> {
        in_tx!(self, |tx| accounts::login_failed(
            &tx,
            holder,
            now,
            max_failures,
            lock_ms
        )
        .await?)
    }

    fn sign_in(
        &self,
        holder: BrowserId,
        session: SessionRow,
        guest: BrowserId,
    ) -> StoreFuture<'_, Vec<String>> {
        in_tx!(self, |tx| accounts::sign_in(&tx, holder, &session, guest)
            .await?)
    }

    fn session(&self, hash: &str, now: i64) -> StoreFuture<'_, Option<(BrowserId, String)>> {
        let hash = hash.to_string();
        in_tx!(self, |tx| accounts::session(&tx, &hash, now).await?)
    }

    fn delete_session(&self, hash: &str) -> StoreFuture<'_, bool> {
        let hash = hash.to_string();
        in_tx!(self, |tx| accounts::delete_session(&tx, &hash).await?)
    }

    fn set_password(
        &self,
        holder: BrowserId,
        password_hash: String,
        recovery_hash: Option<String>,
        session: SessionRow,
    ) -> StoreFuture<'_, ()> {
        in_tx!(self, |tx| accounts::set_password(
            &tx,
            holder,
            &password_hash,
            recovery_hash.as_deref(),
            &session
        )
        .await?)
    }

    fn delete_account(
        &self,
        holder: BrowserId,
        tombstone: BrowserId,
    ) -> StoreFuture<'_, Option<Vec<String>>> {
        in_tx!(self, |tx| accounts::delete_account(&tx, holder, tombstone)
            .await?)
    }

    fn player(&self, key: &str) -> StoreFuture<'_, Option<Player>> {
        let key = key.to_string();
        in_read_tx!(self, |tx| accounts::player(&tx, &key).await?)
    }

    fn account_games(&self, q: GamesQuery) -> StoreFuture<'_, Vec<AccountGame>> {
        in_read_tx!(self, |tx| profiles::account_games(&tx, &q).await?)
    }

    fn finished_games(&self, holder: BrowserId) -> StoreFuture<'_, Vec<FinishedRow>> {
        in_read_tx!(self, |tx| profiles::finished_games(&tx, holder).await?)
    }

    fn insert_arena(&self, arena: ArenaRow, caps: ArenaCaps) -> StoreFuture<'_, ()> {
        in_tx!(self, |tx| arenas::insert_arena(&tx, &arena, caps).await?)
    }

    fn list_arenas(&self, ended_after: i64, limit: u32) -> StoreFuture<'_, Vec<ArenaListed>> {
        in_read_tx!(self, |tx| arenas::list_arenas(&tx, ended_after, limit)
            .await?)
    }

    fn arena(&self, id: &str) -> StoreFuture<'_, Option<ArenaFull>> {
        let id = id.to_string();
        in_read_tx!(self, |tx| arenas::arena(&tx, &id).await?)
    }

    fn join_arena(
        &self,
        id: &str,
        player: ArenaPlayerRow,
        max_players: usize,
    ) -> StoreFuture<'_, bool> {
        let id = id.to_string();
        in_tx!(self, |tx| arenas::join_arena(
            &tx,
            &id,
            &player,
            max_players
        )
        .await?)
    }

    fn withdraw_arena(&self, id: &str, holder: BrowserId) -> StoreFuture<'_, bool> {
        let id = id.to_string();
        in_tx!(self, |tx| arenas::withdraw_arena(&tx, &id, holder).await?)
    }

    fn add_arena_game(&self, arena: &str, game: ArenaGameRow) -> StoreFuture<'_, ()> {
        let arena = arena.to_string();
        in_tx!(self, |tx| arenas::add_arena_game(&tx, &arena, &game)
            .await?)
    }

    fn open_arenas(&self, now: i64) -> StoreFuture<'_, Vec<String>> {
        in_read_tx!(self, |tx| arenas::open_arenas(&tx, now).await?)
    }
}

/// Writes a new game's rows (inside the caller's transaction).
async fn insert_rows(tx: &Transaction<'_>, game: &StoredGame) -> AppResult<()> {
    games::insert_game(tx, &game.rec).await?;
    if let Some(o) = &game.online {
        online::insert_online(tx, &game.rec, o).await?;
    }
    Ok(())
}

/// Inserts a new game, within `quota` if given. The quota's address is locked for the rest of
/// the transaction, so two new games from one address cannot both take its last place.
async fn insert_within(
    tx: &Transaction<'_>,
    game: &StoredGame,
    quota: Option<&Quota>,
) -> AppResult<()> {
    if let Some(q) = quota {
        tx.execute(
            "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
            &[&q.address],
        )
        .await?;
        games::check_quota(tx, q, game.rec.meta.mode == crate::model::Mode::Online).await?;
    }
    insert_rows(tx, game).await?;
    if let Some(q) = quota {
        games::set_created_from(tx, game.id(), &q.address).await?;
    }
    Ok(())
}

/// Reads game `id` with everything its actor needs.
async fn load(tx: &Transaction<'_>, id: &str) -> AppResult<Option<StoredGame>> {
    let Some(rec) = games::load_game(tx, id).await? else {
        return Ok(None);
    };
    if rec.meta.mode != crate::model::Mode::Online {
        // A local game has an online row once it has a clock or has been resigned.
        let online = online::load(tx, id).await?;
        return Ok(Some(StoredGame { rec, online }));
    }
    match online::load(tx, id).await? {
        Some(o) => Ok(Some(StoredGame {
            rec,
            online: Some(o),
        })),
        None => Err(AppError::corrupt_game(
            id,
            "an online game without its seats",
        )),
    }
}

/// Stores a change: the moves, the online row and `changes`.
async fn save(
    tx: &Transaction<'_>,
    rec: &GameRecord,
    o: Option<&OnlineGame>,
    changes: &[Change],
) -> AppResult<()> {
    if !games::update_moves(tx, rec).await? {
        return Err(AppError::not_found_game(&rec.meta.id));
    }
    if let Some(o) = o {
        // A local game's first online state (its resignation) adds the row.
        online::ensure_row(tx, &rec.meta.id).await?;
        online::write_online(tx, rec, o).await?;
        // The end of a rated game moves the ratings in this same transaction.
        accounts::rate_game(tx, rec, o).await?;
        safety::rate_bot_game(tx, rec, o).await?;
        // The end of an arena game scores it in this same transaction.
        arenas::record_end(tx, rec, o).await?;
    }
    for change in changes {
        online::apply_change(tx, &rec.meta.id, rec.meta.updated_at, change).await?;
        if let Change::NewGame(new) = change {
            insert_rows(tx, new).await?;
            // A rematch counts against the address its first game came from.
            games::copy_created_from(tx, &rec.meta.id, new.id()).await?;
        }
    }
    Ok(())
}

/// Playing timed games whose deadline is missing get it computed once (see the SQLite store:
/// rows copied from a schema version 3 database). Returns how many were filled.
async fn fill_missing_flags(tx: &Transaction<'_>) -> AppResult<usize> {
    let mut filled = 0;
    for id in online::missing_flags(tx).await? {
        let Some(StoredGame {
            rec,
            online: Some(o),
        }) = load(tx, &id).await?
        else {
            continue;
        };
        filled += online::set_flag(tx, &id, crate::model::online::flag_at(&rec, &o)).await?;
    }
    Ok(filled)
}
