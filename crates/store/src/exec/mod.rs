//! The query layer both stores share: every statement is written once, in PostgreSQL's
//! spelling with `$n` parameters, and run through [`Db`], one transaction of either database.
//! What differs between the two is small and explicit: SQLite reads a statement after the
//! rewrite in [`dialect`] (`$n` to `?n`, PostgreSQL's type names to SQLite's), and the few
//! statements only one of them has (PostgreSQL's advisory locks) are behind [`Db::lock`].
//!
//! Why not sqlx or sea-query: the statements are plain SQL that both databases read alike once
//! placeholders and type names are rewritten; sqlx would replace both drivers and the pool (and
//! its compile-time checks want a database at build time), and sea-query would spell the same
//! SQL in Rust builders. Our own 200 lines keep the drivers, the pool and the SQL as they were.

mod cells;
pub mod dialect;
pub(super) mod postgres;
pub(super) mod sqlite;

pub use cells::{Arg, FromCell, Row};
pub use sqlite::SqliteDb;

use super::error::{StoreError, StoreResult};
use super::rows::Cell;
use std::future::Future;
use std::pin::Pin;

/// One transaction of either database, as the shared statements see it.
#[derive(Clone, Copy)]
pub enum Db<'a> {
    /// A SQLite connection inside its transaction (the store runs the whole transaction on one
    /// blocking thread: see [`SqliteDb::run`]).
    Sqlite(&'a SqliteDb),
    /// A PostgreSQL transaction (on a pooled connection, with its statement cache).
    Postgres(&'a deadpool_postgres::Transaction<'a>),
}

/// A job's future (what a store runs in one transaction).
pub type Job<'d, T> = Pin<Box<dyn Future<Output = StoreResult<T>> + Send + 'd>>;

/// A job: what to do in one transaction, given it.
pub type JobFn<T> = Box<dyn for<'d> FnOnce(&'d Db<'d>) -> Job<'d, T> + Send>;

/// `[Cell; n]` of the values given, for a statement's `$1`, `$2`, ...
macro_rules! args {
    ($($x:expr),* $(,)?) => {
        &[$($crate::exec::Arg::cell(&$x)),*]
    };
}
pub(crate) use args;

impl Db<'_> {
    /// Runs a statement; the rows it changed.
    pub async fn execute(&self, sql: &str, args: &[Cell]) -> StoreResult<u64> {
        match self {
            Db::Sqlite(c) => c.execute(sql, args),
            Db::Postgres(tx) => postgres::execute(tx, sql, args).await,
        }
    }

    /// The rows a query returns.
    pub async fn query(&self, sql: &str, args: &[Cell]) -> StoreResult<Vec<Row>> {
        match self {
            Db::Sqlite(c) => c.query(sql, args),
            Db::Postgres(tx) => postgres::query(tx, sql, args).await,
        }
    }

    /// The first row a query returns, if any.
    pub async fn query_opt(&self, sql: &str, args: &[Cell]) -> StoreResult<Option<Row>> {
        Ok(self.query(sql, args).await?.into_iter().next())
    }

    /// The one row a query returns.
    pub async fn query_one(&self, sql: &str, args: &[Cell]) -> StoreResult<Row> {
        self.query_opt(sql, args)
            .await?
            .ok_or_else(|| StoreError::Db(format!("database: no row from {sql}")))
    }

    /// The first column of the one row a query returns (a count, an `EXISTS`).
    pub async fn value<T: FromCell>(&self, sql: &str, args: &[Cell]) -> StoreResult<T> {
        self.query_one(sql, args).await?.get(0)
    }

    /// The first column of every row a query returns.
    pub async fn column<T: FromCell>(&self, sql: &str, args: &[Cell]) -> StoreResult<Vec<T>> {
        self.query(sql, args)
            .await?
            .iter()
            .map(|r| r.get(0))
            .collect()
    }

    /// Runs a statement on PostgreSQL only: an advisory lock that serialises this transaction
    /// with the others taking it, until it ends. PostgreSQL runs transactions side by side;
    /// SQLite runs them one after another already, so there it is not needed.
    pub async fn postgres_only(&self, sql: &str, args: &[Cell]) -> StoreResult<()> {
        match self {
            Db::Sqlite(_) => Ok(()),
            Db::Postgres(tx) => postgres::execute(tx, sql, args).await.map(drop),
        }
    }

    /// Whether this is PostgreSQL (for the statements only it has).
    pub fn is_postgres(&self) -> bool {
        matches!(self, Db::Postgres(_))
    }
}
