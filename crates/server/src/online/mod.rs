//! Online games: two browsers play each other over the network, with seats only their holders
//! can use, server-kept clocks, chat, spectators and rematches (issue 15; docs/API.md "Online
//! games", docs/SERVER.md "Online games").
//!
//! - `crate::model::online`: seats, time control, phase, clocks (pure arithmetic); the store
//!   (`virada_store`) keeps them and the heartbeat that lets a restart forgive its downtime;
//! - the game actor (`crate::runtime::game`), the same for every mode, owns a loaded game's state;
//! - `crate::runtime::scheduler`: the one task that watches every stored clock deadline and
//!   makes flags fall;
//! - [`ws`]: the WebSocket channel; [`http`]: create, seat, device links;
//! - `crate::runtime::time`: the injected time source; the JSON is `crate::view::online`.

pub mod http;
pub mod paired;
pub mod ws;

use crate::error::AppError;
use crate::runtime::state::AppState;
use std::time::Duration;

/// How often the server records that it is alive (see `OnlineStore::forgive_downtime`).
pub const HEARTBEAT_EVERY: Duration = Duration::from_secs(2);

/// At server start: forgives the downtime to running clocks, and starts the heartbeat, the
/// flag scheduler and the retention sweep (`crate::retention`). No game is loaded: the
/// scheduler loads one when its deadline comes.
pub async fn start_up(state: &AppState) -> Result<tokio::task::JoinHandle<()>, AppError> {
    let clock = state.shared.config.clock.clone();
    let now = clock.now_ms();
    let store = state.shared.store.clone();
    store.online().forgive_downtime(now).await?;
    let mut stop = state.shared.shutdown.clone();
    let beat_store = store.clone();
    let heartbeat = tokio::spawn(async move {
        let mut tick = tokio::time::interval(HEARTBEAT_EVERY);
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                r = stop.changed() => if r.is_err() { break },
            }
            let at = clock.now_ms();
            if let Err(e) = beat_store.online().beat(at).await {
                tracing::error!(error = %e, "heartbeat not stored");
            }
            if *stop.borrow() {
                break;
            }
        }
    });
    crate::runtime::relay::start(state.games.clone(), state.shared.clone());
    tokio::spawn(crate::runtime::scheduler::run(
        state.games.clone(),
        state.shared.clone(),
    ));
    tokio::spawn(crate::retention::run(
        state.games.clone(),
        state.shared.clone(),
    ));
    Ok(heartbeat)
}
