//! The arena's live socket, `GET /api/arenas/{id}/ws`: the same WebSocket channel as games'
//! (JSON text messages with a `type`, the same size, rate and idle limits, counted against the
//! address's live sockets). The server sends `arena` (the whole arena with its standings)
//! first and after every change; the client may send `hello` (answered with `arena`).

use super::director::Director;
use super::{checked_id, not_found};
use crate::error::AppResult;
use crate::http::ownership::Asker;
use crate::http::socket::{self, Inbound, LiveSocket, GOING_AWAY};
use crate::runtime::state::AppState;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::Extension;
use std::sync::Arc;
use tokio::sync::broadcast;

/// `GET /api/arenas/{id}/ws`.
pub async fn upgrade(
    State(state): State<AppState>,
    Extension(director): Extension<Arc<Director>>,
    asker: Asker,
    Path(id): Path<String>,
    ws: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> AppResult<Response> {
    let id = checked_id(&id)?.to_string();
    let upgrade = socket::accept(&state, asker.ip, ws)?;
    if state.shared.store.arenas().arena(&id).await?.is_none() {
        return Err(not_found(&id));
    }
    Ok(upgrade.serve(move |socket| async move {
        let frames = director.subscribe(&id);
        run(socket, &state, &director, &id, frames).await;
        director.unsubscribed(&id);
    }))
}

/// The arena as stored now, as an `arena` message (`None`: it is gone or unreadable).
async fn current(state: &AppState, director: &Director, id: &str) -> Option<Arc<str>> {
    match state.shared.store.arenas().arena(id).await {
        Ok(Some(full)) => Some(director.frame(&full)),
        _ => None,
    }
}

async fn run(
    mut socket: LiveSocket,
    state: &AppState,
    director: &Director,
    id: &str,
    mut frames: broadcast::Receiver<Arc<str>>,
) {
    let Some(first) = current(state, director, id).await else {
        return socket.close(GOING_AWAY, "the arena is unavailable").await;
    };
    if !socket.send_text(&first).await {
        return;
    }
    let mut shutdown = state.shared.shutdown.clone();
    loop {
        tokio::select! {
            msg = socket.ws.recv() => {
                let text = match socket.inbound(msg).await {
                    Inbound::Text(t) => t,
                    Inbound::Skip => continue,
                    Inbound::End => break,
                };
                let hello = serde_json::from_str::<serde_json::Value>(text.as_str())
                    .is_ok_and(|v| v["type"] == "hello");
                let answer = if hello {
                    current(state, director, id).await
                } else {
                    Some(Arc::from(
                        "{\"type\":\"error\",\"code\":\"bad_message\",\"message\":\"an arena socket takes only {\\\"type\\\": \\\"hello\\\"}\"}",
                    ))
                };
                if let Some(text) = answer {
                    if !socket.send_text(&text).await {
                        break;
                    }
                }
            }
            frame = frames.recv() => {
                let text = match frame {
                    Ok(text) => Some(text),
                    // Behind: the latest state is all that matters.
                    Err(broadcast::error::RecvError::Lagged(_)) => current(state, director, id).await,
                    Err(broadcast::error::RecvError::Closed) => break,
                };
                if let Some(text) = text {
                    if !socket.send_text(&text).await {
                        break;
                    }
                }
            }
            _ = socket.ping.tick() => {
                if !socket.keep_alive().await {
                    break;
                }
            }
            _ = shutdown.changed() => {
                socket.server_stopping().await;
                break;
            }
        }
    }
}
