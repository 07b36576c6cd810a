//! The bus listener (several instances on PostgreSQL: `crate::cluster`): hands what other
//! instances say to this instance's game actors.
//!
//! - a change of a game ([`BusMessage::Changed`]: game id and version, never the game) goes to
//!   the game's actor if it runs here, which reads the game again from the store;
//! - after the listener (re)connected ([`BusMessage::Listening`]) every running actor reads
//!   its game again, since changes may have been missed meanwhile;
//! - a request forwarded by another instance runs on the game's actor here (loading it if
//!   needed), and its answer goes back; an answer goes to the request waiting for it.
//!
//! With SQLite the store has no bus and nothing here runs.

use crate::cluster::{Answer, Wire};
use crate::game::Forward;
use crate::shared::Shared;
use crate::state::Games;
use crate::store::BusMessage;
use std::sync::Arc;

/// Starts the listener (if the store has a bus) for as long as the server runs.
pub fn start(games: Arc<Games>, shared: Arc<Shared>) {
    let Some(mut bus) = shared.store.listen(&shared.cluster.instance) else {
        return;
    };
    tokio::spawn(async move {
        let mut stop = shared.shutdown.clone();
        loop {
            tokio::select! {
                msg = bus.recv() => match msg {
                    Some(msg) => deliver(&games, &shared, msg),
                    None => break,
                },
                r = stop.changed() => if r.is_err() || *stop.borrow() { break },
            }
        }
    });
}

fn deliver(games: &Arc<Games>, shared: &Arc<Shared>, msg: BusMessage) {
    match msg {
        BusMessage::Changed { game, version, by } => {
            if by != shared.cluster.instance {
                if let Some(h) = games.running_handle(&game) {
                    h.refresh(version);
                }
            }
        }
        BusMessage::Listening => {
            for h in games.running_handles() {
                h.refresh(0);
            }
        }
        BusMessage::Direct(text) => match serde_json::from_str::<Wire>(&text) {
            Ok(Wire::Answer(answer)) => shared.cluster.answered(answer),
            Ok(Wire::Request { id, from, game, op }) => {
                let (games, shared) = (games.clone(), shared.clone());
                tokio::spawn(async move {
                    let (result, version) = serve(&games, &game, op).await;
                    let answer = Answer {
                        id,
                        version,
                        result: result.map_err(|e| e.to_wire()),
                    };
                    if let Err(e) = shared.cluster.answer(&from, answer).await {
                        tracing::warn!(error = %e, to = %from, "cannot answer another instance");
                    }
                });
            }
            Err(e) => tracing::warn!(error = %e, "a bus message that does not read"),
        },
    }
}

/// Runs a forwarded request on game `id`'s actor here.
async fn serve(
    games: &Arc<Games>,
    id: &str,
    op: serde_json::Value,
) -> (crate::error::AppResult<serde_json::Value>, u64) {
    let op: Forward = match serde_json::from_value(op) {
        Ok(op) => op,
        Err(e) => {
            let e = crate::error::AppError::Internal(format!("a forwarded request: {e}"));
            return (Err(e), 0);
        }
    };
    // Two tries: an actor that has just unloaded is replaced by a fresh one.
    for _ in 0..2 {
        let h = match games.handle(id).await {
            Ok(h) => h,
            Err(e) => return (Err(e), 0),
        };
        match h.serve(op.clone()).await {
            (Err(e), _) if crate::game::is_stopped(&e) => continue,
            done => return done,
        }
    }
    let e = crate::error::AppError::Internal(format!("game {id} is unavailable"));
    (Err(e), 0)
}
