//! What the store suites share (`tests/store.rs`, `tests/store_accounts.rs`, `tests/db_copy.rs`
//! and any later `&dyn Store` suite): a store on a fresh SQLite file or a fresh PostgreSQL
//! schema, plain SQL beside the store's methods, `on_both_stores!`, and the two browsers and the
//! game record most checks build on.
//!
//! PostgreSQL needs `VIRADA_TEST_PG` (`scripts/pg-test.sh` sets it); without it the PostgreSQL
//! half fails under CI and prints SKIPPED elsewhere (`virada_testdata::postgres_url`).
#![allow(dead_code)] // each suite uses its own part of this

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use virada_domain::identity::BrowserId;
use virada_domain::model::{GameMeta, GameRecord, Mode, Owner, StartKind};
use virada_rules::Game;
use virada_store::postgres::PgStore;
use virada_store::sqlite::SqliteStore;
use virada_store::target::PgTarget;
use virada_store::Store;

/// A store under test, and a way to run plain SQL on what it stores (to spoil a row).
pub struct Backend {
    pub store: Arc<dyn Store>,
    raw: Raw,
    _dir: Option<tempfile::TempDir>,
}

enum Raw {
    Sqlite(PathBuf),
    Postgres(PgStore),
}

impl Backend {
    pub fn sqlite() -> Backend {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("store.sqlite");
        let store = SqliteStore::open(&path).unwrap();
        Backend {
            store: Arc::new(store),
            raw: Raw::Sqlite(path),
            _dir: Some(dir),
        }
    }

    /// A fresh schema of the test server, or `None` (skipped) without one.
    pub async fn postgres() -> Option<Backend> {
        let url = virada_testdata::postgres_url()?;
        let store = PgStore::open(&fresh_schema(&url)).await.unwrap();
        Some(Backend {
            store: Arc::new(store.clone()),
            raw: Raw::Postgres(store),
            _dir: None,
        })
    }

    /// The SQLite file, for a SQLite store.
    pub fn sqlite_path(&self) -> Option<&std::path::Path> {
        match &self.raw {
            Raw::Sqlite(path) => Some(path),
            Raw::Postgres(_) => None,
        }
    }

    /// Runs `sql` (statements that both dialects read alike) outside the store's methods.
    pub async fn exec(&self, sql: &str) {
        match &self.raw {
            Raw::Sqlite(path) => rusqlite::Connection::open(path)
                .unwrap()
                .execute_batch(sql)
                .unwrap(),
            Raw::Postgres(pg) => pg.execute_sql(sql).await.unwrap(),
        }
    }
}

static SCHEMAS: AtomicUsize = AtomicUsize::new(0);

/// A schema no other test (of this run or an earlier one) uses.
pub fn fresh_schema(url: &str) -> PgTarget {
    let n = SCHEMAS.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    PgTarget {
        url: url.to_string(),
        schema: Some(format!("t_{}_{n}_{nanos}", std::process::id())),
    }
}

/// Each check (an `async fn(&Backend)`), once per store: `<check>::sqlite` and
/// `<check>::postgres`.
#[allow(unused_macros)] // db_copy.rs runs its own tests
macro_rules! on_both_stores {
    ($($check:ident),* $(,)?) => {$(
        mod $check {
            #[tokio::test]
            async fn sqlite() {
                super::$check(&$crate::store_common::Backend::sqlite()).await;
            }

            #[tokio::test]
            async fn postgres() {
                if let Some(b) = $crate::store_common::Backend::postgres().await {
                    super::$check(&b).await;
                }
            }
        }
    )*};
}

pub fn me() -> BrowserId {
    BrowserId::of_token("me")
}

pub fn you() -> BrowserId {
    BrowserId::of_token("you")
}

/// A game of `mode` owned by `me()` after `moves`, made and last changed at `at`.
pub fn record(id: &str, mode: Mode, moves: &[&str], at: i64) -> GameRecord {
    let mut game = Game::new();
    for m in moves {
        game.play(m.parse().unwrap()).unwrap();
    }
    GameRecord {
        meta: GameMeta {
            id: id.into(),
            created_at: at,
            updated_at: at,
            mode,
            start_kind: StartKind::Standard,
            opening: None,
            seed: u64::MAX - 5,
            owner: Owner::Browser(me()),
            record: None,
        },
        game,
    }
}
