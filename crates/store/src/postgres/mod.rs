//! The PostgreSQL store (`--db postgres://...`): the shared schema history and statements
//! (`super::migrations`, `super::queries`) on tokio-postgres with a deadpool connection pool,
//! and what several instances sharing one database need (`cluster`: leases, notifications).
//!
//! Every job takes one connection from the pool, opens one transaction, and commits it before
//! its future resolves, so (as with SQLite) a change is durable before any reply or event shows
//! it. PostgreSQL runs transactions side by side where SQLite ran them one after another; where
//! that could change an answer the statement says how it keeps the SQLite answer (an advisory
//! lock, `exec::Db::postgres_only`), and the jobs that only read see one snapshot
//! (`REPEATABLE READ`).

mod cluster;
pub(super) mod dump;

use super::backend::Backend;
use super::exec::{Db, Job, JobFn};
use super::{queries, BusMessage, Change, StoreFuture, StoreResult};
use crate::target::PgTarget;
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use std::fmt;
use std::time::Duration;
use tokio_postgres::NoTls;
use virada_domain::model::online::OnlineGame;
use virada_domain::model::GameRecord;

use super::migrations::MIGRATIONS;
pub use super::migrations::SCHEMA_VERSION;

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
    pub async fn schema_version(&self) -> StoreResult<i64> {
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
    pub async fn execute_sql(&self, sql: &str) -> StoreResult<()> {
        let client = self.pool.get().await?;
        client.batch_execute(sql).await?;
        Ok(())
    }

    /// The rows `sql` returns, every column as text (tests read stored rows with it).
    pub async fn query_rows(&self, sql: &str) -> StoreResult<Vec<Vec<Option<String>>>> {
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

impl PgStore {
    /// Runs `job` in one transaction of a pooled connection, committed when it succeeded
    /// (dropped, so rolled back, when it failed). `read_only`: one snapshot for all its
    /// statements (`REPEATABLE READ`), so a game's row and its online rows are read as one
    /// change left them even while another connection saves the next one; a read-only
    /// snapshot never fails to serialize.
    async fn transaction<T, F>(&self, read_only: bool, job: F) -> StoreResult<T>
    where
        F: for<'d> FnOnce(&'d Db<'d>) -> Job<'d, T>,
    {
        let mut client = self.pool.get().await?;
        let tx = if read_only {
            client
                .build_transaction()
                .isolation_level(tokio_postgres::IsolationLevel::RepeatableRead)
                .read_only(true)
                .start()
                .await?
        } else {
            client.transaction().await?
        };
        let out = job(&Db::Postgres(&tx)).await?;
        tx.commit().await?;
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
            &[&version, &virada_domain::dates::now_millis()],
        )
        .await
        .map_err(failed)?;
        tx.commit().await.map_err(failed)?;
    }
    Ok(before.unwrap_or(0))
}

impl Backend for PgStore {
    fn kind(&self) -> &'static str {
        "postgres"
    }

    fn run<T: Send + 'static>(&self, read_only: bool, job: JobFn<T>) -> StoreFuture<'_, T> {
        Box::pin(self.transaction(read_only, job))
    }

    fn shared_by_instances(&self) -> bool {
        true
    }

    fn lease(&self, id: &str, instance: &str) -> StoreFuture<'_, Option<String>> {
        let (id, instance) = (id.to_string(), instance.to_string());
        self.write(move |db| Box::pin(async move { cluster::lease(db, &id, &instance).await }))
    }

    fn release(&self, id: &str, instance: &str) -> StoreFuture<'_, ()> {
        let (id, instance) = (id.to_string(), instance.to_string());
        self.write(move |db| Box::pin(async move { cluster::release(db, &id, &instance).await }))
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
        let payload = format!("{} {version} {instance}", rec.meta.id);
        Box::pin(async move {
            self.write(move |db| {
                Box::pin(async move {
                    cluster::renew_or_refuse(db, &rec.meta.id, &instance).await?;
                    queries::games::save(db, &rec, online.as_ref(), &changes).await
                })
            })
            .await?;
            // Stored: now the notice (after the commit, not in it: `cluster`). The change stands
            // if it cannot be sent; the followers catch up (`cluster`, top).
            let sent: StoreResult<()> = async {
                let client = self.pool.get().await?;
                cluster::notify_now(&client, &self.changes, &payload).await
            }
            .await;
            if let Err(e) = sent {
                tracing::warn!(error = %e, "a stored change's notice was not sent");
            }
            Ok(())
        })
    }

    fn send_direct(&self, to: &str, payload: String) -> StoreFuture<'_, ()> {
        let channel = cluster::direct_channel(to);
        // A message alone needs no transaction around it: one statement, one round trip.
        Box::pin(async move {
            let client = self.pool.get().await?;
            cluster::notify_now(&client, &channel, &payload).await
        })
    }

    fn claim_instance(&self, instance: &str, token: &str) -> StoreFuture<'_, Option<i64>> {
        let (instance, token) = (instance.to_string(), token.to_string());
        self.write(move |db| {
            Box::pin(async move { cluster::claim_instance(db, &instance, &token).await })
        })
    }

    fn release_instance(&self, instance: &str, token: &str) -> StoreFuture<'_, ()> {
        let (instance, token) = (instance.to_string(), token.to_string());
        self.write(move |db| {
            Box::pin(async move { cluster::release_instance(db, &instance, &token).await })
        })
    }

    fn listen(
        &self,
        instance: &str,
        token: &str,
    ) -> Option<tokio::sync::mpsc::Receiver<BusMessage>> {
        Some(cluster::listen(
            (*self.config).clone(),
            self.changes.clone(),
            instance.to_string(),
            token.to_string(),
        ))
    }
}
