//! The `virada db` commands: bring a database's schema to this build's version
//! ([`migrate`]), and copy every table of one database into another, SQLite or PostgreSQL
//! either way ([`copy`]). The CLI only parses arguments and prints what these return.

use super::postgres::{self, PgStore};
use super::rows::{DumpResult, TableRows};
use super::sqlite::{self, SqliteStore};
use crate::target::{is_postgres_url, PgTarget};
use std::path::PathBuf;

/// A database named on the command line: a SQLite file or a PostgreSQL URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Db {
    Sqlite(PathBuf),
    Postgres(PgTarget),
}

impl Db {
    /// `postgres://...` (or `postgresql://...`): PostgreSQL; anything else: a file.
    pub fn parse(text: &str) -> Db {
        if is_postgres_url(text) {
            Db::Postgres(PgTarget {
                url: text.to_string(),
                schema: None,
            })
        } else {
            Db::Sqlite(PathBuf::from(text))
        }
    }

    /// The database in words (a PostgreSQL URL without its password).
    pub fn describe(&self) -> String {
        match self {
            Db::Sqlite(path) => path.display().to_string(),
            Db::Postgres(target) => target.describe(),
        }
    }
}

/// What [`migrate`] did: the schema version before and after (0: no tables yet).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Migrated {
    pub db: String,
    pub from: i64,
    pub to: i64,
}

/// What [`copy`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Copied {
    pub from: String,
    pub to: String,
    /// The schema version of both.
    pub version: i64,
    /// What the target's schema was brought from before the copy.
    pub target_migrated_from: i64,
    /// Rows copied per table, in [`TABLES`] order.
    pub tables: Vec<(String, u64)>,
}

/// The schema version this build writes (the same for both stores).
pub const SCHEMA_VERSION: i64 = sqlite::SCHEMA_VERSION;

/// Opens `db` (a missing SQLite file is created) and brings its schema to
/// [`SCHEMA_VERSION`]; a database written by a newer build is refused.
pub async fn migrate(db: &Db) -> DumpResult<Migrated> {
    let from = match db {
        Db::Sqlite(path) => {
            let path = path.clone();
            tokio::task::spawn_blocking(move || SqliteStore::open_upgrading(&path))
                .await
                .map_err(|e| format!("database task failed: {e}"))?
                .map_err(|e| e.to_string())?
                .1
        }
        Db::Postgres(target) => {
            PgStore::open_upgrading(target)
                .await
                .map_err(|e| e.to_string())?
                .1
        }
    };
    Ok(Migrated {
        db: db.describe(),
        from,
        to: SCHEMA_VERSION,
    })
}

/// `f` on tokio's blocking pool (SQLite's calls block).
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> DumpResult<T> + Send + 'static,
) -> DumpResult<T> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| format!("database task failed: {e}"))?
}

/// Refuses a source whose schema version (`found`) is not this build's.
fn check_version(name: &str, found: i64) -> DumpResult<()> {
    if found == SCHEMA_VERSION {
        Ok(())
    } else if found == 0 {
        Err(format!("{name} holds no Virada tables (schema version 0)"))
    } else if found > SCHEMA_VERSION {
        Err(format!(
            "{name} has schema version {found}, newer than this virada ({SCHEMA_VERSION}); \
             copy it with the virada that wrote it"
        ))
    } else {
        Err(format!(
            "{name} has schema version {found} and this virada copies version \
             {SCHEMA_VERSION}: run `virada db migrate --db {name}` first"
        ))
    }
}

/// Every row of `db` as it is, if it has this build's schema version.
async fn read_source(db: &Db) -> DumpResult<Vec<TableRows>> {
    let name = db.describe();
    match db {
        Db::Sqlite(path) => {
            let path = path.clone();
            blocking(move || {
                let mut conn = sqlite::dump::open_existing(&path)?;
                check_version(&name, sqlite::dump::version(&conn, &path)?)?;
                sqlite::dump::read_tables(&mut conn, &path)
            })
            .await
        }
        Db::Postgres(target) => {
            let store = postgres::dump::open_existing(target)
                .await
                .map_err(|e| e.to_string())?;
            check_version(&name, postgres::dump::version(&store, &name).await?)?;
            postgres::dump::read_tables(&store, &name).await
        }
    }
}

/// Whether `a` and `b` name one database (then a copy would delete what it reads).
fn same_database(a: &Db, b: &Db) -> bool {
    match (a, b) {
        (Db::Sqlite(x), Db::Sqlite(y)) => {
            x == y
                || matches!(
                    (std::fs::canonicalize(x), std::fs::canonicalize(y)),
                    (Ok(x), Ok(y)) if x == y
                )
        }
        (Db::Postgres(x), Db::Postgres(y)) => x.describe() == y.describe(),
        _ => false,
    }
}

/// Copies every table of `from` into `to`, so that no game is lost: the source must have this
/// build's schema version (it is read as it is, in one snapshot, and never changed); the
/// target is created or migrated to that version first, must hold no rows unless `replace`
/// (then its rows are deleted), and is written in one transaction, all or nothing.
pub async fn copy(from: &Db, to: &Db, replace: bool) -> DumpResult<Copied> {
    if same_database(from, to) {
        return Err(format!(
            "--from and --to name the same database ({})",
            from.describe()
        ));
    }
    let tables = read_source(from).await?;
    let target_migrated_from = migrate(to).await?.from;
    let name = to.describe();
    match to {
        Db::Sqlite(path) => {
            let path = path.clone();
            let tables = tables.clone();
            blocking(move || {
                let mut conn = sqlite::dump::open_target(&path)?;
                sqlite::dump::write_tables(&mut conn, &tables, replace, &path)
            })
            .await?;
        }
        Db::Postgres(target) => {
            let store = postgres::dump::open_existing(target)
                .await
                .map_err(|e| e.to_string())?;
            postgres::dump::write_tables(&store, &tables, replace, &name).await?;
        }
    }
    Ok(Copied {
        from: from.describe(),
        to: name,
        version: SCHEMA_VERSION,
        target_migrated_from,
        tables: tables
            .iter()
            .map(|t| (t.name.clone(), t.rows.len() as u64))
            .collect(),
    })
}

/// Every row of every copied table of `db` as it is (tests compare two databases with it).
pub async fn read_all(db: &Db) -> DumpResult<Vec<TableRows>> {
    read_source(db).await
}

/// Runs `fut` on a runtime of its own (the CLI's commands are blocking).
fn block_on<T>(fut: impl std::future::Future<Output = DumpResult<T>>) -> DumpResult<T> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?
        .block_on(fut)
}

/// [`migrate`] for a command line.
pub fn migrate_blocking(db: &str) -> DumpResult<Migrated> {
    block_on(migrate(&Db::parse(db)))
}

/// [`copy`] for a command line.
pub fn copy_blocking(from: &str, to: &str, replace: bool) -> DumpResult<Copied> {
    block_on(copy(&Db::parse(from), &Db::parse(to), replace))
}
