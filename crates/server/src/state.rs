//! Shared server state and the game manager (the registry of running game actors).

use crate::config::ServerConfig;
use crate::db::{self, Db};
use crate::error::{AppError, AppResult};
use crate::model::GameRecord;
use crate::pool::EnginePool;
use crate::session::{self, Command, GameHandle, Registry};
use crate::util::random_u64;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::{oneshot, watch};

/// What every part of the server shares.
pub struct Shared {
    pub config: ServerConfig,
    pub db: Db,
    pub pool: EnginePool,
    /// Becomes `true` when the server shuts down (actors and live streams stop).
    pub shutdown: watch::Receiver<bool>,
    /// Finished analyses by game id: (the moves analysed, the answer).
    pub analysis_cache: Mutex<HashMap<String, (String, Arc<Value>)>>,
}

/// The state handed to every request handler.
#[derive(Clone)]
pub struct AppState {
    pub shared: Arc<Shared>,
    pub registry: Registry,
}

impl AppState {
    pub fn new(shared: Arc<Shared>) -> AppState {
        AppState {
            shared,
            registry: Arc::new(tokio::sync::Mutex::new(HashMap::new())),
        }
    }

    /// The actor of game `id`, loading the game from the database if it is not running.
    async fn handle(&self, id: &str) -> AppResult<GameHandle> {
        if !crate::util::is_valid_game_id(id) {
            return Err(AppError::not_found_game(id));
        }
        let mut reg = self.registry.lock().await;
        if let Some(h) = reg.get(id) {
            if !h.tx.is_closed() {
                return Ok(h.clone());
            }
        }
        let owned = id.to_string();
        let rec = self
            .shared
            .db
            .call(move |conn| db::load_game(conn, &owned))
            .await?
            .ok_or_else(|| AppError::not_found_game(id))?;
        let h = session::spawn(
            rec,
            self.shared.clone(),
            self.registry.clone(),
            random_u64(),
        );
        reg.insert(id.to_string(), h.clone());
        Ok(h)
    }

    /// Sends a request to the game's actor and awaits the answer.
    pub async fn request<T>(
        &self,
        id: &str,
        make: impl Fn(oneshot::Sender<AppResult<T>>) -> Command,
    ) -> AppResult<T> {
        // Two tries: an actor that has just stopped (abandoned) is replaced by a fresh one.
        for _ in 0..2 {
            let h = self.handle(id).await?;
            let (tx, rx) = oneshot::channel();
            if h.tx.send(make(tx)).await.is_err() {
                let mut reg = self.registry.lock().await;
                if reg.get(id).map(|x| x.instance) == Some(h.instance) {
                    reg.remove(id);
                }
                continue;
            }
            return rx
                .await
                .map_err(|_| AppError::Internal(format!("game {id} stopped unexpectedly")))?;
        }
        Err(AppError::Internal(format!("game {id} is unavailable")))
    }

    /// Stores a new game and starts its actor.
    pub async fn create(&self, rec: GameRecord) -> AppResult<crate::view::GameView> {
        let stored = rec.clone();
        self.shared
            .db
            .call(move |conn| db::insert_game(conn, &stored))
            .await?;
        let id = rec.meta.id.clone();
        {
            let mut reg = self.registry.lock().await;
            let h = session::spawn(
                rec,
                self.shared.clone(),
                self.registry.clone(),
                random_u64(),
            );
            reg.insert(id.clone(), h);
        }
        self.request(&id, Command::Get).await
    }

    /// Deletes a game: stops its actor (cancelling any search) and removes the row.
    pub async fn delete(&self, id: &str) -> AppResult<()> {
        if !crate::util::is_valid_game_id(id) {
            return Err(AppError::not_found_game(id));
        }
        let handle = self.registry.lock().await.remove(id);
        if let Some(h) = handle {
            let (tx, rx) = oneshot::channel();
            if h.tx.send(Command::Close(tx)).await.is_ok() {
                let _ = rx.await;
            }
        }
        let owned = id.to_string();
        let existed = self
            .shared
            .db
            .call(move |conn| db::delete_game(conn, &owned))
            .await?;
        self.shared
            .analysis_cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
        if existed {
            Ok(())
        } else {
            Err(AppError::not_found_game(id))
        }
    }
}
