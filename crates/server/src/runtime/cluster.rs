//! Several `virada serve` instances on one PostgreSQL database (docs/ARCHITECTURE.md, "Several
//! instances"): this instance's id, and requests to other instances with their answers.
//!
//! A game is run by one instance at a time, its owner: the one holding the game's lease
//! ([`virada_store::Store::lease`]). Every instance may have an actor of the game (one per
//! socket-holding instance); the others follow the owner: they re-read the game when told it
//! changed, and send what their players do to the owner as a [`Wire::Request`] (through the
//! store's bus, `NOTIFY` on PostgreSQL), whose [`Answer`] comes back the same way. The routing
//! of bus messages to actors is in `crate::runtime::relay`; this module only keeps the requests in
//! flight, so the game actor can use it without knowing the registry.
//!
//! With SQLite there is one process: it owns every game, nothing is sent, and none of this
//! costs anything.

use crate::error::{AppError, AppResult, WireError};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::oneshot;
use virada_store::{Store, DIRECT_MAX};

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
    store: Arc<dyn Store>,
    pending: Mutex<HashMap<u64, oneshot::Sender<Answer>>>,
    next: AtomicU64,
}

impl Cluster {
    pub fn new(instance: String, store: Arc<dyn Store>) -> Cluster {
        Cluster {
            instance,
            store,
            pending: Mutex::new(HashMap::new()),
            next: AtomicU64::new(1),
        }
    }

    /// Whether other instances may run games of this store (then games have leases).
    pub fn is_shared(&self) -> bool {
        self.store.shared_by_instances()
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
        Ok(self.store.send_direct(to, text).await?)
    }
}
