//! The SQLite side of [`super::Db`]: one connection, and the transactions run one after
//! another, each whole on one thread of tokio's blocking pool.

use super::cells::Row;
use super::{dialect, Db, Job};
use crate::error::{StoreError, StoreResult};
use crate::rows::Cell;
use rusqlite::types::{ToSqlOutput, Value, ValueRef};
use rusqlite::Connection;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};

/// A SQLite connection shared by the store's transactions.
pub struct SqliteDb {
    /// Held for a whole transaction: one at a time.
    turn: Mutex<()>,
    /// Held for one statement (inside a transaction that holds `turn`).
    conn: Mutex<Connection>,
}

/// A lock whose holder panicked: the connection is still sound (SQLite rolls back an
/// unfinished transaction), so keep using it.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl rusqlite::ToSql for Cell {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match self {
            Cell::Null => ToSqlOutput::Owned(Value::Null),
            Cell::Int(n) => ToSqlOutput::Owned(Value::Integer(*n)),
            Cell::Real(x) => ToSqlOutput::Owned(Value::Real(*x)),
            Cell::Text(s) => ToSqlOutput::Borrowed(ValueRef::Text(s.as_bytes())),
        })
    }
}

/// A stored value as a cell (a blob is not one: no table holds any).
pub fn cell(v: ValueRef<'_>) -> Result<Cell, String> {
    Ok(match v {
        ValueRef::Null => Cell::Null,
        ValueRef::Integer(n) => Cell::Int(n),
        ValueRef::Real(x) => Cell::Real(x),
        ValueRef::Text(t) => Cell::Text(
            std::str::from_utf8(t)
                .map_err(|e| format!("text that is not UTF-8: {e}"))?
                .to_string(),
        ),
        ValueRef::Blob(_) => return Err("a blob".into()),
    })
}

impl SqliteDb {
    pub fn new(conn: Connection) -> Arc<SqliteDb> {
        Arc::new(SqliteDb {
            turn: Mutex::new(()),
            conn: Mutex::new(conn),
        })
    }

    /// The connection, held (the store's own set-up, and tests that hold it as a slow query
    /// would: every transaction waits meanwhile).
    pub fn connection(&self) -> MutexGuard<'_, Connection> {
        lock(&self.conn)
    }

    /// Runs `f` with the connection, alone (the statements not shared by both stores yet).
    pub fn with_connection<T>(&self, f: impl FnOnce(&Connection) -> T) -> T {
        let _turn = lock(&self.turn);
        f(&lock(&self.conn))
    }

    pub(super) fn execute(&self, sql: &str, args: &[Cell]) -> StoreResult<u64> {
        let conn = lock(&self.conn);
        let mut stmt = conn.prepare_cached(&dialect::sqlite(sql))?;
        Ok(stmt.execute(rusqlite::params_from_iter(args))? as u64)
    }

    pub(super) fn query(&self, sql: &str, args: &[Cell]) -> StoreResult<Vec<Row>> {
        let conn = lock(&self.conn);
        let mut stmt = conn.prepare_cached(&dialect::sqlite(sql))?;
        let width = stmt.column_count();
        let mut rows = stmt.query(rusqlite::params_from_iter(args))?;
        let mut out = Vec::new();
        while let Some(r) = rows.next()? {
            let mut row = Vec::with_capacity(width);
            for i in 0..width {
                row.push(
                    cell(r.get_ref(i)?).map_err(|e| StoreError::Db(format!("database: {e}")))?,
                );
            }
            out.push(Row(row));
        }
        Ok(out)
    }

    /// Runs `job` in one transaction on tokio's blocking pool, committed when it succeeded
    /// (rolled back when it failed or panicked).
    pub async fn run<T, F>(self: &Arc<Self>, job: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: for<'d> FnOnce(&'d Db<'d>) -> Job<'d, T> + Send + 'static,
    {
        let this = self.clone();
        tokio::task::spawn_blocking(move || this.run_here(job))
            .await
            .map_err(|e| StoreError::Db(format!("database task failed: {e}")))?
    }

    /// [`SqliteDb::run`] on this thread.
    pub fn run_here<T, F>(&self, job: F) -> StoreResult<T>
    where
        F: for<'d> FnOnce(&'d Db<'d>) -> Job<'d, T>,
    {
        let _turn = lock(&self.turn);
        lock(&self.conn).execute_batch("BEGIN")?;
        let mut open = Open(Some(self));
        let db = Db::Sqlite(self);
        let out = ready(job(&db))?;
        lock(&self.conn).execute_batch("COMMIT")?;
        open.0 = None;
        Ok(out)
    }
}

/// A transaction not committed yet: rolled back when dropped (an error or a panic).
struct Open<'a>(Option<&'a SqliteDb>);

impl Drop for Open<'_> {
    fn drop(&mut self) {
        if let Some(db) = self.0 {
            // A failed rollback leaves SQLite to roll back itself at the next statement.
            let _ = lock(&db.conn).execute_batch("ROLLBACK");
        }
    }
}

/// The output of a job on SQLite: its statements run when called, so it is ready at the
/// first poll (nothing in a job waits on anything else).
fn ready<T>(mut job: Job<'_, T>) -> StoreResult<T> {
    match job.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(out) => out,
        Poll::Pending => Err(StoreError::Db(
            "database: a SQLite job waited on something else".into(),
        )),
    }
}
