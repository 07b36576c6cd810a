//! Several `virada serve` instances on one PostgreSQL database (docs/ARCHITECTURE.md, "Several
//! instances"): this instance's id, and requests to other instances with their answers.
//!
//! A game is run by one instance at a time, its owner: the one holding the game's lease
//! ([`virada_store::ClusterStore::lease`]). Every instance may have an actor of the game (one per
//! socket-holding instance); the others follow the owner: they re-read the game when told it
//! changed, and send what their players do to the owner as a [`Wire::Request`] (through the
//! store's bus, `NOTIFY` on PostgreSQL), whose [`Answer`] comes back the same way. The routing
//! of bus messages to actors is in `crate::runtime::relay`; this module only keeps the requests in
//! flight, so the game actor can use it without knowing the registry.
//!
//! An instance id is held by one process at a time: at start the process claims it in the store
//! ([`Cluster::join`]; renewed every `LEASE_RENEW_MS` by the bus listener, it lapses
//! `INSTANCE_MS` = 3 s after the last renewal), and a second process started with an id that is
//! live is refused. A process that finds its id taken anyway (it could not renew it for 3 s and
//! another was started meanwhile) stops storing changes and exits ([`Cluster::displaced`]).
//!
//! With SQLite there is one process: it owns every game, nothing is sent, and none of this
//! costs anything.

use crate::error::{AppError, AppResult, WireError};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{oneshot, Notify};
use virada_store::{Store, StoreError, DIRECT_MAX, INSTANCE_MS};

/// How often a starting process looks again at a claim on its id held by another process: a
/// dead holder's claim lapses within `INSTANCE_MS`, a live one is renewed meanwhile.
const JOIN_LOOK_MS: i64 = 250;

/// Why a process cannot run as its instance id.
#[derive(Debug)]
pub enum JoinError {
    /// Another live process holds the id (its claim was renewed while this one waited).
    Live(String),
    /// The store failed.
    Store(StoreError),
}

impl std::fmt::Display for JoinError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JoinError::Live(id) => write!(
                f,
                "instance id {id:?} is in use by another live virada server on this database \
                 (it renewed its claim within the last {} s); give each instance its own \
                 --instance-id, or stop the other one first",
                INSTANCE_MS / 1000
            ),
            JoinError::Store(e) => write!(f, "cannot claim the instance id: {e}"),
        }
    }
}

/// A message between instances (JSON on the store's bus).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Wire {
    /// Instance `from` asks the owner of `game` to do `op` (`crate::runtime::game::Forward`, as JSON).
    Request {
        id: u64,
        from: String,
        game: String,
        op: serde_json::Value,
    },
    Answer(Answer),
}

/// The owner's answer to request `id`: the game's version after it (the asker shows at least
/// that), and the result (its value depends on the request).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Answer {
    pub id: u64,
    pub version: u64,
    pub result: Result<serde_json::Value, WireError>,
}

/// This instance among the others.
pub struct Cluster {
    /// This instance's id (`ServerConfig::instance_id`).
    pub instance: String,
    /// This process's claim on the id (random: another process with the same id has another).
    pub token: String,
    /// Another process took the id: nothing more is stored ([`Cluster::displaced`]).
    lost: AtomicBool,
    lost_notice: Notify,
    store: Arc<dyn Store>,
    pending: Mutex<HashMap<u64, oneshot::Sender<Answer>>>,
    next: AtomicU64,
}

impl Cluster {
    pub fn new(instance: String, store: Arc<dyn Store>) -> Cluster {
        Cluster {
            instance,
            token: format!("{:016x}", crate::util::random_u64()),
            lost: AtomicBool::new(false),
            lost_notice: Notify::new(),
            store,
            pending: Mutex::new(HashMap::new()),
            next: AtomicU64::new(1),
        }
    }

    /// Whether other instances may run games of this store (then games have leases).
    pub fn is_shared(&self) -> bool {
        self.store.cluster().shared_by_instances()
    }

    /// Claims the instance id for this process at start. A claim another process holds is
    /// waited out until it lapses (a process that just died, e.g. killed and restarted: at most
    /// `INSTANCE_MS`); one renewed meanwhile belongs to a live process: refused.
    pub async fn join(&self) -> Result<(), JoinError> {
        let mut seen: Option<tokio::time::Instant> = None;
        loop {
            let held = self
                .store
                .cluster()
                .claim_instance(&self.instance, &self.token)
                .await
                .map_err(JoinError::Store)?;
            let Some(left) = held else { return Ok(()) };
            let lapses = tokio::time::Instant::now() + Duration::from_millis(left as u64);
            match seen {
                // It lasts longer than it did: renewed since, so its process is alive.
                Some(before) if lapses > before + Duration::from_millis(JOIN_LOOK_MS as u64) => {
                    return Err(JoinError::Live(self.instance.clone()))
                }
                _ => seen = Some(seen.map_or(lapses, |b| b.max(lapses))),
            }
            let pause = (left + 1).clamp(1, JOIN_LOOK_MS) as u64;
            tokio::time::sleep(Duration::from_millis(pause)).await;
        }
    }

    /// Gives the id up at a clean stop (a new process may take it at once).
    pub async fn leave(&self) {
        if self.is_shared() && !self.is_displaced() {
            if let Err(e) = self
                .store
                .cluster()
                .release_instance(&self.instance, &self.token)
                .await
            {
                tracing::warn!(error = %e, "cannot give up the instance id");
            }
        }
    }

    /// The bus listener found the id held by another process: from now on this one stores
    /// nothing (`Actor::commit` refuses) and the server stops ([`Cluster::lost_id`]).
    pub fn displaced(&self) {
        tracing::error!(
            instance = %self.instance,
            "another virada server holds this instance id now: stopping"
        );
        self.lost.store(true, Ordering::SeqCst);
        self.lost_notice.notify_waiters();
    }

    /// Whether another process took the id.
    pub fn is_displaced(&self) -> bool {
        self.lost.load(Ordering::SeqCst)
    }

    /// Resolves when another process took the id.
    pub async fn lost_id(&self) {
        loop {
            let notified = self.lost_notice.notified();
            if self.is_displaced() {
                return;
            }
            notified.await;
        }
    }

    fn pending(&self) -> std::sync::MutexGuard<'_, HashMap<u64, oneshot::Sender<Answer>>> {
        self.pending.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A new request id.
    pub fn next_id(&self) -> u64 {
        self.next.fetch_add(1, Ordering::Relaxed)
    }

    /// Asks instance `to` to do `op` on `game` as request `id` ([`Cluster::next_id`]; the
    /// same for a retry: the owner does it once); its answer, or `None` if none came within
    /// `wait` (the owner may be dead: the caller looks at the lease again).
    pub async fn request(
        &self,
        to: &str,
        game: &str,
        op: serde_json::Value,
        wait: Duration,
        id: u64,
    ) -> AppResult<Option<Answer>> {
        let msg = Wire::Request {
            id,
            from: self.instance.clone(),
            game: game.to_string(),
            op,
        };
        let text = serde_json::to_string(&msg)
            .map_err(|e| crate::error::AppError::Internal(e.to_string()))?;
        if text.len() > DIRECT_MAX {
            return Err(crate::error::AppError::BadRequest(
                "this request is too long to pass to the game's server".into(),
            ));
        }
        let (tx, rx) = oneshot::channel();
        self.pending().insert(id, tx);
        let sent = self
            .store
            .cluster()
            .send_direct(to, text)
            .await
            .map_err(AppError::from);
        let answer = match sent {
            Ok(()) => tokio::time::timeout(wait, rx)
                .await
                .ok()
                .and_then(|r| r.ok()),
            Err(e) => {
                self.pending().remove(&id);
                return Err(e);
            }
        };
        self.pending().remove(&id);
        Ok(answer)
    }

    /// An answer arrived (`crate::runtime::relay`): it goes to the request waiting for it, if any.
    pub fn answered(&self, answer: Answer) {
        if let Some(tx) = self.pending().remove(&answer.id) {
            let _ = tx.send(answer);
        }
    }

    /// Sends `answer` to instance `to`.
    pub async fn answer(&self, to: &str, answer: Answer) -> AppResult<()> {
        let text = serde_json::to_string(&Wire::Answer(answer))
            .map_err(|e| crate::error::AppError::Internal(e.to_string()))?;
        Ok(self.store.cluster().send_direct(to, text).await?)
    }
}
