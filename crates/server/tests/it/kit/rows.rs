//! What a test server stored, read (or spoilt) with plain SQL on whichever store the test runs
//! on: the SQLite file `db`, or with `VIRADA_TEST_STORE=postgres` the PostgreSQL schema that
//! `ServerConfig::for_tests(db)` names. Write SQL both dialects read alike.
#![allow(dead_code)]

use std::path::Path;
use virada_server::config::{test_store_is_postgres, PgTarget};
use virada_store::postgres::PgStore;

async fn postgres(db: &Path) -> PgStore {
    PgStore::open(&PgTarget::for_test_path(db)).await.unwrap()
}

/// The rows `sql` returns, each column as text (`None`: NULL).
pub async fn rows(db: &Path, sql: &str) -> Vec<Vec<Option<String>>> {
    if test_store_is_postgres() {
        return postgres(db).await.query_rows(sql).await.unwrap();
    }
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut stmt = conn.prepare(sql).unwrap();
    let n = stmt.column_count();
    let rows = stmt
        .query_map([], |r| {
            (0..n)
                .map(|i| {
                    Ok(match r.get_ref(i)? {
                        rusqlite::types::ValueRef::Null => None,
                        rusqlite::types::ValueRef::Integer(v) => Some(v.to_string()),
                        rusqlite::types::ValueRef::Real(v) => Some(v.to_string()),
                        rusqlite::types::ValueRef::Text(t) | rusqlite::types::ValueRef::Blob(t) => {
                            Some(String::from_utf8_lossy(t).into_owned())
                        }
                    })
                })
                .collect::<rusqlite::Result<Vec<_>>>()
        })
        .unwrap()
        .collect::<rusqlite::Result<Vec<_>>>()
        .unwrap();
    rows
}

/// The first column of the one row `sql` returns.
pub async fn one(db: &Path, sql: &str) -> Option<String> {
    let rows = rows(db, sql).await;
    assert_eq!(rows.len(), 1, "{sql}: {rows:?}");
    rows[0][0].clone()
}

/// Runs `sql`.
pub async fn exec(db: &Path, sql: &str) {
    if test_store_is_postgres() {
        postgres(db).await.execute_sql(sql).await.unwrap();
    } else {
        rusqlite::Connection::open(db)
            .unwrap()
            .execute_batch(sql)
            .unwrap();
    }
}
