//! The SQLite store: one row per game (start position + move list + metadata) and the online
//! tables beside it, WAL mode with `synchronous=FULL` so a change is on disk before the server
//! acknowledges it, and a versioned schema upgraded by [`migrations`](MIGRATIONS) at start-up.
//!
//! The SQL lives in [`games`], [`online`] and [`puzzles`] as blocking functions of a connection; the
//! [`Store`] methods run them on tokio's blocking pool ([`SqliteStore::call`]), one
//! transaction each.

mod accounts;
mod arenas;
pub(super) mod dump;
mod games;
mod online;
mod profiles;
mod puzzles;
mod safety;

pub(super) use super::columns::{color_from, color_text};
use super::{
    Abandoned, Change, GameRow, LinkRow, ListedGame, PuzzleRating, PuzzleResult, Quota,
    RatedResult, Store, StoreFuture, StoredGame, SweptRows,
};
use super::{AccountGame, FinishedRow, GamesQuery};
use super::{AccountRow, NewAccount, Player, SessionRow};
use super::{ArenaCaps, ArenaFull, ArenaGameRow, ArenaListed, ArenaPlayerRow, ArenaRow};
use crate::error::{AppError, AppResult};
use crate::identity::BrowserId;
use crate::model::online::OnlineGame;
use crate::model::Owner;
use crate::model::{GameRecord, Status};
use rusqlite::{params, Connection};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use virada_rules::Color;

/// Schema migrations, applied in order; entry `i` brings the schema to version `i + 1`.
/// Never edit a released entry: append a new one.
const MIGRATIONS: &[&str] = &[
    // v1: games as start position + moves (+ redo list), with summary columns for listing.
    "CREATE TABLE games (
        id           TEXT PRIMARY KEY,
        created_at   INTEGER NOT NULL,
        updated_at   INTEGER NOT NULL,
        mode         TEXT NOT NULL,
        level        INTEGER,
        human_color  TEXT,
        start_kind   TEXT NOT NULL,
        start_pos    TEXT NOT NULL,
        opening      TEXT,
        seed         INTEGER NOT NULL,
        moves        TEXT NOT NULL,
        redo         TEXT NOT NULL,
        status       TEXT NOT NULL,
        black_discs  INTEGER NOT NULL,
        white_discs  INTEGER NOT NULL,
        ply_count    INTEGER NOT NULL,
        transcript   TEXT NOT NULL
    );
    CREATE INDEX games_updated ON games(updated_at DESC);",
    // v2: the browser that owns each game (`BrowserId` hex; NULL: stored before owners, claimed
    // by the first local browser that opens or lists it; see `ownership`).
    "ALTER TABLE games ADD COLUMN owner TEXT;
    CREATE INDEX games_owner ON games(owner, updated_at DESC);",
    // v3 (online play): seats, holders, clocks, chat, device links, the server's heartbeat.
    online::MIGRATION,
    // v4: each running clock's deadline, watched by the flag scheduler.
    online::MIGRATION_FLAGS,
    // v5: the address a game was created from (the per-address caps; NULL: created before, or
    // from an address exempt from limits).
    "ALTER TABLE games ADD COLUMN created_from TEXT;
    CREATE INDEX games_created_from ON games(created_from);",
    // v6: puzzle ratings (per puzzle, per browser) and each browser's first result a puzzle.
    puzzles::MIGRATION,
    // v7: accounts, sessions, game ratings and their history; whether an online game is rated.
    accounts::MIGRATION,
    // v8: which instance runs each game (several instances on PostgreSQL; one SQLite process
    // owns every game, so this table stays empty here).
    "CREATE TABLE game_leases (
        game_id    TEXT PRIMARY KEY,
        instance   TEXT NOT NULL,
        expires_at INTEGER NOT NULL
    );",
    // v9: the leases by expiry and by instance (the listener renews an instance's leases and
    // looks for expired ones every second).
    "CREATE INDEX game_leases_expiry ON game_leases(expires_at);
    CREATE INDEX game_leases_instance ON game_leases(instance);",
    // v10: players' safety: blocks, reports, the admin role, bans, chat off (`store::safety`).
    safety::MIGRATION,
    // v11: arena tournaments: arenas, their players and their games (`crate::arena`).
    arenas::MIGRATION,
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// The SQLite store (a shareable handle on one connection).
#[derive(Clone)]
pub struct SqliteStore {
    conn: Arc<Mutex<Connection>>,
}

/// Why the database could not be opened.
#[derive(Debug)]
pub enum DbError {
    /// The file cannot be opened or created.
    Open {
        path: PathBuf,
        source: rusqlite::Error,
    },
    /// A setting (busy timeout, journal mode, pragmas) was refused.
    Configure {
        path: PathBuf,
        source: rusqlite::Error,
    },
    /// The file system does not support WAL (e.g. some network file systems).
    NoWal { path: PathBuf, mode: String },
    /// The file was written by a newer program.
    TooNew {
        path: PathBuf,
        found: i64,
        supported: i64,
    },
    /// Bringing the schema up to `version` failed.
    Migration {
        path: PathBuf,
        version: i64,
        source: rusqlite::Error,
    },
}

impl fmt::Display for DbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DbError::Open { path, source } => {
                write!(f, "cannot open database {}: {source}", path.display())
            }
            DbError::Configure { path, source } => {
                write!(f, "database {}: {source}", path.display())
            }
            DbError::NoWal { path, mode } => write!(
                f,
                "database {}: cannot enable WAL (journal mode stays {mode})",
                path.display()
            ),
            DbError::TooNew {
                path,
                found,
                supported,
            } => write!(
                f,
                "database {}: schema version {found} is newer than this program understands \
                 ({supported}); use a newer virada or another --db file",
                path.display()
            ),
            DbError::Migration {
                path,
                version,
                source,
            } => write!(
                f,
                "database {}: migration to schema version {version} failed: {source}",
                path.display()
            ),
        }
    }
}

impl std::error::Error for DbError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DbError::Open { source, .. }
            | DbError::Configure { source, .. }
            | DbError::Migration { source, .. } => Some(source),
            DbError::NoWal { .. } | DbError::TooNew { .. } => None,
        }
    }
}

impl SqliteStore {
    /// Opens (creating if needed) the database file and brings its schema up to date.
    pub fn open(path: &Path) -> Result<SqliteStore, DbError> {
        SqliteStore::open_upgrading(path).map(|(store, _)| store)
    }

    /// [`SqliteStore::open`], also saying the schema version the file had before (0: a new
    /// file, or one without tables); it has [`SCHEMA_VERSION`] afterwards.
    pub fn open_upgrading(path: &Path) -> Result<(SqliteStore, i64), DbError> {
        let conn = Connection::open(path).map_err(|source| DbError::Open {
            path: path.to_path_buf(),
            source,
        })?;
        SqliteStore::configure(conn, path)
    }

    fn configure(mut conn: Connection, path: &Path) -> Result<(SqliteStore, i64), DbError> {
        let err = |source: rusqlite::Error| DbError::Configure {
            path: path.to_path_buf(),
            source,
        };
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(err)?;
        // WAL: readers never block the writer, and a commit is one append to the log.
        // synchronous=FULL: the log is fsynced at every commit, so an acknowledged move survives
        // kill -9 and also a power cut (NORMAL would survive kill -9 only).
        let mode: String = conn
            .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
            .map_err(err)?;
        if !mode.eq_ignore_ascii_case("wal") && !mode.eq_ignore_ascii_case("memory") {
            return Err(DbError::NoWal {
                path: path.to_path_buf(),
                mode,
            });
        }
        conn.execute_batch("PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;")
            .map_err(err)?;
        let before = migrate(&mut conn, path)?;
        let store = SqliteStore {
            conn: Arc::new(Mutex::new(conn)),
        };
        Ok((store, before))
    }

    /// Runs `f` with the connection on the blocking thread pool.
    pub(crate) async fn call<T, F>(&self, f: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> AppResult<T> + Send + 'static,
    {
        let conn = self.conn.clone();
        tokio::task::spawn_blocking(move || {
            // A panic while holding the lock poisons it; the connection itself is still sound
            // (SQLite rolls back an unfinished transaction), so keep using it.
            let guard = conn.lock().unwrap_or_else(|p| p.into_inner());
            f(&guard)
        })
        .await
        .map_err(|e| AppError::Internal(format!("database task failed: {e}")))?
    }

    /// Holds the connection, as a slow query would (tests of what waits for the database).
    #[cfg(test)]
    pub(crate) fn hold_connection(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> i64 {
        let guard = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        current_version(&guard).unwrap_or(0)
    }
}

fn current_version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row(
        "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
        [],
        |r| r.get(0),
    )
}

/// Applies the missing migrations; returns the version found before.
fn migrate(conn: &mut Connection, path: &Path) -> Result<i64, DbError> {
    let configure = |source| DbError::Configure {
        path: path.to_path_buf(),
        source,
    };
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
            version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)",
    )
    .map_err(configure)?;
    let found = current_version(conn).map_err(configure)?;
    let version = found;
    if version > SCHEMA_VERSION {
        return Err(DbError::TooNew {
            path: path.to_path_buf(),
            found: version,
            supported: SCHEMA_VERSION,
        });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        let version = i as i64 + 1;
        let failed = |source| DbError::Migration {
            path: path.to_path_buf(),
            version,
            source,
        };
        let tx = conn.transaction().map_err(failed)?;
        tx.execute_batch(sql).map_err(failed)?;
        tx.execute(
            "INSERT INTO schema_migrations (version, applied_at) VALUES (?1, ?2)",
            params![version, crate::util::now_millis()],
        )
        .map_err(failed)?;
        tx.commit().map_err(failed)?;
    }
    Ok(found)
}

impl SqliteStore {
    /// `f` on the blocking pool, as a store future.
    fn run<T, F>(&self, f: F) -> StoreFuture<'_, T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> AppResult<T> + Send + 'static,
    {
        Box::pin(self.call(f))
    }
}

impl Store for SqliteStore {
    fn kind(&self) -> &'static str {
        "sqlite"
    }

    fn safety(&self) -> &dyn super::safety::SafetyStore {
        self
    }

    fn insert_game(&self, game: StoredGame, quota: Option<Quota>) -> StoreFuture<'_, ()> {
        self.run(move |conn| insert_within(conn, &game, quota.as_ref()))
    }

    fn load_game(&self, id: &str) -> StoreFuture<'_, Option<StoredGame>> {
        let id = id.to_string();
        self.run(move |conn| load(conn, &id))
    }

    fn save(
        &self,
        rec: GameRecord,
        online: Option<OnlineGame>,
        changes: Vec<Change>,
    ) -> StoreFuture<'_, ()> {
        self.run(move |conn| save(conn, &rec, online.as_ref(), &changes))
    }

    fn game_row(&self, id: &str) -> StoreFuture<'_, Option<GameRow>> {
        let id = id.to_string();
        self.run(move |conn| games::game_row(conn, &id))
    }

    fn claim_game(&self, id: &str, browser: BrowserId) -> StoreFuture<'_, Option<Owner>> {
        let id = id.to_string();
        self.run(move |conn| games::claim_game(conn, &id, browser))
    }

    fn list_games(
        &self,
        viewer: BrowserId,
        status: Option<Status>,
        limit: u32,
        claim_unowned: bool,
    ) -> StoreFuture<'_, Vec<ListedGame>> {
        self.run(move |conn| {
            if claim_unowned {
                games::claim_all_games(conn, viewer)?;
            }
            games::list_games(conn, viewer, status, limit)
        })
    }

    fn delete_game(&self, id: &str) -> StoreFuture<'_, bool> {
        let id = id.to_string();
        self.run(move |conn| games::delete_game(conn, &id))
    }

    fn abandoned_games(&self, when: Abandoned, limit: usize) -> StoreFuture<'_, Vec<String>> {
        self.run(move |conn| games::abandoned_games(conn, &when, limit))
    }

    fn delete_if_abandoned(&self, id: &str, when: Abandoned) -> StoreFuture<'_, bool> {
        let id = id.to_string();
        self.run(move |conn| games::delete_if_abandoned(conn, &id, &when))
    }

    fn sweep_links_and_chat(&self, now: i64, chat_before: i64) -> StoreFuture<'_, SweptRows> {
        self.run(move |conn| {
            let (device_links, chat_lines) = online::sweep_links_and_chat(conn, now, chat_before)?;
            Ok(SweptRows {
                device_links,
                chat_lines,
            })
        })
    }

    fn insert_link(&self, link: LinkRow, per_seat: usize) -> StoreFuture<'_, ()> {
        self.run(move |conn| online::insert_link(conn, &link, per_seat))
    }

    fn find_link(&self, hash: &str, now: i64) -> StoreFuture<'_, Option<(String, Color)>> {
        let hash = hash.to_string();
        self.run(move |conn| online::find_link(conn, &hash, now))
    }

    fn beat(&self, at: i64) -> StoreFuture<'_, ()> {
        self.run(move |conn| online::beat(conn, at))
    }

    fn forgive_downtime(&self, now: i64) -> StoreFuture<'_, usize> {
        self.run(move |conn| {
            fill_missing_flags(conn)?;
            online::forgive_downtime(conn, now)
        })
    }

    fn due_flags(&self, now: i64, limit: usize) -> StoreFuture<'_, (Vec<String>, Option<i64>)> {
        self.run(move |conn| {
            let due = online::due_flags(conn, now, limit)?;
            let next = online::next_flag_after(conn, now)?;
            Ok((due, next))
        })
    }

    fn solver_rating(&self, browser: BrowserId) -> StoreFuture<'_, Option<PuzzleRating>> {
        self.run(move |conn| puzzles::solver_rating(conn, browser))
    }

    fn puzzle_ratings(&self) -> StoreFuture<'_, Vec<(String, PuzzleRating)>> {
        self.run(puzzles::puzzle_ratings)
    }

    fn puzzle_rating(&self, id: &str) -> StoreFuture<'_, Option<PuzzleRating>> {
        let id = id.to_string();
        self.run(move |conn| puzzles::puzzle_rating(conn, &id))
    }

    fn puzzle_results(&self, browser: BrowserId) -> StoreFuture<'_, Vec<(String, bool)>> {
        self.run(move |conn| puzzles::puzzle_results(conn, browser))
    }

    fn rate_puzzle(&self, result: PuzzleResult) -> StoreFuture<'_, RatedResult> {
        self.run(move |conn| puzzles::rate_puzzle(conn, &result))
    }

    fn sweep_puzzle_solvers(&self, before: i64) -> StoreFuture<'_, usize> {
        self.run(move |conn| puzzles::sweep_solvers(conn, before))
    }

    fn create_account(
        &self,
        account: NewAccount,
        session: SessionRow,
        guest: BrowserId,
    ) -> StoreFuture<'_, Vec<String>> {
        self.run(move |conn| {
            in_tx(conn, |tx| {
                accounts::create_account(tx, &account, &session, guest)
            })
        })
    }

    fn account_by_name(&self, key: &str) -> StoreFuture<'_, Option<AccountRow>> {
        let key = key.to_string();
        self.run(move |conn| accounts::account_by_name(conn, &key))
    }

    fn account_by_holder(&self, holder: BrowserId) -> StoreFuture<'_, Option<AccountRow>> {
        self.run(move |conn| accounts::account_by_holder(conn, holder))
    }

    fn login_failed(
        &self,
        holder: BrowserId,
        now: i64,
        max_failures: u32,
        lock_ms: i64,
    ) -> StoreFuture<'_, ()> {
        self.run(move |conn| {
            in_tx(conn, |tx| {
                accounts::login_failed(tx, holder, now, max_failures, lock_ms)
            })
        })
    }

    fn sign_in(
        &self,
        holder: BrowserId,
        session: SessionRow,
        guest: BrowserId,
    ) -> StoreFuture<'_, Vec<String>> {
        self.run(move |conn| in_tx(conn, |tx| accounts::sign_in(tx, holder, &session, guest)))
    }

    fn session(&self, hash: &str, now: i64) -> StoreFuture<'_, Option<(BrowserId, String)>> {
        let hash = hash.to_string();
        self.run(move |conn| accounts::session(conn, &hash, now))
    }

    fn delete_session(&self, hash: &str) -> StoreFuture<'_, bool> {
        let hash = hash.to_string();
        self.run(move |conn| accounts::delete_session(conn, &hash))
    }

    fn set_password(
        &self,
        holder: BrowserId,
        password_hash: String,
        recovery_hash: Option<String>,
        session: SessionRow,
    ) -> StoreFuture<'_, ()> {
        self.run(move |conn| {
            in_tx(conn, |tx| {
                accounts::set_password(
                    tx,
                    holder,
                    &password_hash,
                    recovery_hash.as_deref(),
                    &session,
                )
            })
        })
    }

    fn delete_account(
        &self,
        holder: BrowserId,
        tombstone: BrowserId,
    ) -> StoreFuture<'_, Option<Vec<String>>> {
        self.run(move |conn| in_tx(conn, |tx| accounts::delete_account(tx, holder, tombstone)))
    }

    fn player(&self, key: &str) -> StoreFuture<'_, Option<Player>> {
        let key = key.to_string();
        self.run(move |conn| in_tx(conn, |tx| accounts::player(tx, &key)))
    }

    fn account_games(&self, q: GamesQuery) -> StoreFuture<'_, Vec<AccountGame>> {
        self.run(move |conn| profiles::account_games(conn, &q))
    }

    fn finished_games(&self, holder: BrowserId) -> StoreFuture<'_, Vec<FinishedRow>> {
        self.run(move |conn| profiles::finished_games(conn, holder))
    }

    fn insert_arena(&self, arena: ArenaRow, caps: ArenaCaps) -> StoreFuture<'_, ()> {
        self.run(move |conn| in_tx(conn, |tx| arenas::insert_arena(tx, &arena, caps)))
    }

    fn list_arenas(&self, ended_after: i64, limit: u32) -> StoreFuture<'_, Vec<ArenaListed>> {
        self.run(move |conn| arenas::list_arenas(conn, ended_after, limit))
    }

    fn arena(&self, id: &str) -> StoreFuture<'_, Option<ArenaFull>> {
        let id = id.to_string();
        self.run(move |conn| in_tx(conn, |tx| arenas::arena(tx, &id)))
    }

    fn join_arena(
        &self,
        id: &str,
        player: ArenaPlayerRow,
        max_players: usize,
    ) -> StoreFuture<'_, bool> {
        let id = id.to_string();
        self.run(move |conn| in_tx(conn, |tx| arenas::join_arena(tx, &id, &player, max_players)))
    }

    fn withdraw_arena(&self, id: &str, holder: BrowserId) -> StoreFuture<'_, bool> {
        let id = id.to_string();
        self.run(move |conn| arenas::withdraw_arena(conn, &id, holder))
    }

    fn add_arena_game(&self, arena: &str, game: ArenaGameRow) -> StoreFuture<'_, ()> {
        let arena = arena.to_string();
        self.run(move |conn| arenas::add_arena_game(conn, &arena, &game))
    }

    fn open_arenas(&self, now: i64) -> StoreFuture<'_, Vec<String>> {
        self.run(move |conn| arenas::open_arenas(conn, now))
    }
}

/// Runs `f` in one transaction, committed when it succeeded.
fn in_tx<T>(conn: &Connection, f: impl FnOnce(&Connection) -> AppResult<T>) -> AppResult<T> {
    let tx = conn.unchecked_transaction()?;
    let out = f(&tx)?;
    tx.commit()?;
    Ok(out)
}

/// Writes a new game's rows (inside the caller's transaction).
fn insert_rows(conn: &Connection, game: &StoredGame) -> AppResult<()> {
    games::insert_game(conn, &game.rec)?;
    if let Some(o) = &game.online {
        online::insert_online(conn, &game.rec, o)?;
    }
    Ok(())
}

/// Inserts a new game, within `quota` if given, in one transaction.
fn insert_within(conn: &Connection, game: &StoredGame, quota: Option<&Quota>) -> AppResult<()> {
    let tx = conn.unchecked_transaction()?;
    if let Some(q) = quota {
        games::check_quota(&tx, q, game.rec.meta.mode == crate::model::Mode::Online)?;
    }
    insert_rows(&tx, game)?;
    if let Some(q) = quota {
        games::set_created_from(&tx, game.id(), &q.address)?;
    }
    tx.commit()?;
    Ok(())
}

/// Reads game `id` with everything its actor needs.
fn load(conn: &Connection, id: &str) -> AppResult<Option<StoredGame>> {
    let Some(rec) = games::load_game(conn, id)? else {
        return Ok(None);
    };
    if rec.meta.mode != crate::model::Mode::Online {
        // A local game has an online row once it has a clock or has been resigned.
        let online = online::load(conn, id)?;
        return Ok(Some(StoredGame { rec, online }));
    }
    match online::load(conn, id)? {
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

/// Stores a change: the moves, the online row and `changes`, in one transaction.
fn save(
    conn: &Connection,
    rec: &GameRecord,
    o: Option<&OnlineGame>,
    changes: &[Change],
) -> AppResult<()> {
    let tx = conn.unchecked_transaction()?;
    if !games::update_moves(&tx, rec)? {
        return Err(AppError::not_found_game(&rec.meta.id));
    }
    if let Some(o) = o {
        // A local game's first online state (its resignation) adds the row.
        online::ensure_row(&tx, &rec.meta.id)?;
        online::write_online(&tx, rec, o)?;
        // The end of a rated game moves the ratings in this same transaction.
        accounts::rate_game(&tx, rec, o)?;
        safety::rate_bot_game(&tx, rec, o)?;
        // The end of an arena game scores it in this same transaction.
        arenas::record_end(&tx, rec, o)?;
    }
    for change in changes {
        online::apply_change(&tx, &rec.meta.id, rec.meta.updated_at, change)?;
        if let Change::NewGame(new) = change {
            insert_rows(&tx, new)?;
            // A rematch counts against the address its first game came from.
            games::copy_created_from(&tx, &rec.meta.id, new.id())?;
        }
    }
    tx.commit()?;
    Ok(())
}

/// Playing timed games stored before deadlines were (schema version 3): their deadline is
/// computed from the stored game once. Returns how many were filled.
fn fill_missing_flags(conn: &Connection) -> AppResult<usize> {
    let mut filled = 0;
    for id in online::missing_flags(conn)? {
        let Some(StoredGame {
            rec,
            online: Some(o),
        }) = load(conn, &id)?
        else {
            continue;
        };
        filled += online::set_flag(conn, &id, crate::model::online::flag_at(&rec, &o))?;
    }
    Ok(filled)
}

#[cfg(test)]
mod tests {
    use super::online::{beat, due_flags, forgive_downtime, next_flag_after};
    use super::*;
    use crate::model::online::{Phase, SeatState, TimeControl};
    use crate::model::Owner;
    use crate::model::{GameMeta, Mode, StartKind};
    use virada_rules::Game;

    fn started(id: &str, tc: TimeControl, turn_started_at: i64) -> (GameRecord, OnlineGame) {
        let me = BrowserId::of_token("me");
        let rec = GameRecord {
            meta: GameMeta {
                id: id.into(),
                created_at: 1,
                updated_at: 1,
                mode: Mode::Online,
                start_kind: StartKind::Standard,
                opening: None,
                seed: 1,
                owner: Owner::Browser(me),
            },
            game: Game::new(),
        };
        let mut online = OnlineGame::new(tc, Color::Black, me, "Ana".into());
        *online.seat_mut(Color::White) = SeatState::Taken {
            name: "Bia".into(),
            holders: vec![BrowserId::of_token("you")],
        };
        online.phase = Phase::Playing { turn_started_at };
        (rec, online)
    }

    #[test]
    fn deadlines_are_stored_found_and_filled_for_old_rows() {
        let dir = tempfile::tempdir().unwrap();
        let db = SqliteStore::open(&dir.path().join("t.sqlite")).unwrap();
        let conn = db.hold_connection();
        let minute = TimeControl::Clock {
            minutes: 1,
            increment_seconds: 0,
        };
        for (id, tc, start) in [
            ("g_a", minute, 1_000),
            ("g_b", minute, 5_000),
            ("g_c", TimeControl::None {}, 0),
        ] {
            let (rec, online) = started(id, tc, start);
            let game = StoredGame {
                rec,
                online: Some(online),
            };
            insert_within(&conn, &game, None).unwrap();
        }
        assert_eq!(due_flags(&conn, 60_999, 10).unwrap(), Vec::<String>::new());
        assert_eq!(next_flag_after(&conn, 60_999).unwrap(), Some(61_000));
        assert_eq!(due_flags(&conn, 65_000, 10).unwrap(), ["g_a", "g_b"]);
        assert_eq!(due_flags(&conn, 65_000, 1).unwrap(), ["g_a"]);
        assert_eq!(next_flag_after(&conn, 65_000).unwrap(), None);
        // A row stored before `flag_at` existed gets it computed once.
        conn.execute("UPDATE online_games SET flag_at = NULL", [])
            .unwrap();
        assert_eq!(fill_missing_flags(&conn).unwrap(), 2);
        assert_eq!(next_flag_after(&conn, 0).unwrap(), Some(61_000));
        assert_eq!(fill_missing_flags(&conn).unwrap(), 0);
        // A restart moves the deadlines with the turns' starts: down from 10 s to 100 s.
        beat(&conn, 10_000).unwrap();
        assert_eq!(forgive_downtime(&conn, 100_000).unwrap(), 3);
        assert_eq!(next_flag_after(&conn, 0).unwrap(), Some(151_000));
        assert_eq!(due_flags(&conn, 155_000, 10).unwrap(), ["g_a", "g_b"]);
    }
}
