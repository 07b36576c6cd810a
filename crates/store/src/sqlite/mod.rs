//! The SQLite store: one file, WAL mode with `synchronous=FULL` so a change is on disk before
//! the server acknowledges it, and the shared schema history (`super::migrations`) applied at
//! start-up. Its transactions run one after another, each whole on tokio's blocking pool
//! (`exec::SqliteDb`); the statements are the shared ones (`super::queries`).

pub(super) mod dump;

use super::backend::Backend;
use super::exec::{dialect, JobFn, SqliteDb};
use super::StoreFuture;
use rusqlite::{params, Connection};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::migrations::MIGRATIONS;
pub use super::migrations::SCHEMA_VERSION;

/// The SQLite store (a shareable handle on one connection).
#[derive(Clone)]
pub struct SqliteStore {
    db: Arc<SqliteDb>,
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
        // secure_delete: a deleted row's bytes are overwritten with zeros in its page (and freed
        // pages too), so a deleted account's name and hashes are not left readable in the file
        // once the log is checkpointed (at the latest when the store closes). It is a setting
        // of the connection, checked here because a build of SQLite may refuse it.
        let secure: i64 = conn
            .query_row("PRAGMA secure_delete=ON", [], |r| r.get(0))
            .map_err(err)?;
        if secure != 1 {
            return Err(err(rusqlite::Error::InvalidQuery));
        }
        let before = migrate(&mut conn, path)?;
        let store = SqliteStore {
            db: SqliteDb::new(conn),
        };
        Ok((store, before))
    }

    /// Holds the connection, as a slow query would: for the server's tests of what waits for the
    /// database (public because those tests are in another crate; nothing else calls it).
    #[doc(hidden)]
    pub fn hold_connection(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.db.connection()
    }

    /// The connection and its transactions (tests run shared statements on it).
    #[cfg(test)]
    pub(crate) fn exec_db(&self) -> &SqliteDb {
        &self.db
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> i64 {
        current_version(&self.db.connection()).unwrap_or(0)
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
        tx.execute_batch(&dialect::sqlite(sql)).map_err(failed)?;
        tx.execute(
            "INSERT INTO schema_migrations (version, applied_at) VALUES (?1, ?2)",
            params![version, virada_domain::dates::now_millis()],
        )
        .map_err(failed)?;
        tx.commit().map_err(failed)?;
    }
    Ok(found)
}

impl Backend for SqliteStore {
    fn kind(&self) -> &'static str {
        "sqlite"
    }

    fn run<T: Send + 'static>(&self, _read_only: bool, job: JobFn<T>) -> StoreFuture<'_, T> {
        // The transactions run one at a time: a job that reads sees one state of the file.
        let db = self.db.clone();
        Box::pin(async move { db.run(job).await })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queries::games::{fill_missing_flags, insert_within};
    use crate::queries::online::{beat, due_flags, forgive_downtime, next_flag_after};
    use crate::StoredGame;
    use virada_domain::identity::BrowserId;
    use virada_domain::model::online::OnlineGame;
    use virada_domain::model::GameRecord;
    use virada_rules::Color;

    /// `$e` (a future using the transaction `$d`) run in one transaction of `$store`.
    macro_rules! on {
        ($store:expr, |$d:ident| $e:expr) => {
            $store
                .db
                .run_here(move |$d| Box::pin(async move { $e.await }))
                .unwrap()
        };
    }
    use virada_domain::model::online::{Phase, SeatState, TimeControl};
    use virada_domain::model::Owner;
    use virada_domain::model::{GameMeta, Mode, StartKind};
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
                record: None,
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
            on!(db, |d| insert_within(d, &game, None));
        }
        assert_eq!(
            on!(db, |d| due_flags(d, "", 60_999, 10)),
            Vec::<String>::new()
        );
        assert_eq!(on!(db, |d| next_flag_after(d, 60_999)), Some(61_000));
        assert_eq!(on!(db, |d| due_flags(d, "", 65_000, 10)), ["g_a", "g_b"]);
        assert_eq!(on!(db, |d| due_flags(d, "", 65_000, 1)), ["g_a"]);
        assert_eq!(on!(db, |d| next_flag_after(d, 65_000)), None);
        // A row stored before `flag_at` existed gets it computed once.
        db.hold_connection()
            .execute("UPDATE online_games SET flag_at = NULL", [])
            .unwrap();
        assert_eq!(on!(db, |d| fill_missing_flags(d)), 2);
        assert_eq!(on!(db, |d| next_flag_after(d, 0)), Some(61_000));
        assert_eq!(on!(db, |d| fill_missing_flags(d)), 0);
        // A restart moves the deadlines with the turns' starts: down from 10 s to 100 s.
        on!(db, |d| beat(d, 10_000));
        assert_eq!(on!(db, |d| forgive_downtime(d, 100_000)), 3);
        assert_eq!(on!(db, |d| next_flag_after(d, 0)), Some(151_000));
        assert_eq!(on!(db, |d| due_flags(d, "", 155_000, 10)), ["g_a", "g_b"]);
    }
}
