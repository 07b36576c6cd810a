//! The arena's live socket, `GET /api/arenas/{id}/ws`: the same WebSocket channel as games'
//! (JSON text messages with a `type`, the same size, rate and idle limits, counted against the
//! address's live sockets). The server sends `arena` (the whole arena with its standings)
//! first and after every change; the client may send `hello` (answered with `arena`).

use super::director::Director;
use super::{checked_id, not_found};
use crate::error::{AppError, AppResult};
use crate::online::ws::{IDLE_LIMIT, MESSAGES_PER_SECOND, MESSAGE_LIMIT, PING_EVERY};
use crate::ownership::Asker;
use crate::state::AppState;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use axum::Extension;
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::broadcast;

const WRITE_LIMIT: Duration = Duration::from_secs(10);
const POLICY_VIOLATION: u16 = 1008;
const GOING_AWAY: u16 = 1001;

/// `GET /api/arenas/{id}/ws`.
pub async fn upgrade(
    State(state): State<AppState>,
    Extension(director): Extension<Arc<Director>>,
    asker: Asker,
    Path(id): Path<String>,
    ws: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> AppResult<Response> {
    let id = checked_id(&id)?.to_string();
    let ws = ws.map_err(|e| {
        AppError::BadRequest(format!(
            "this path takes a WebSocket upgrade: {}",
            e.body_text()
        ))
    })?;
    let open = state.limits.open_stream(asker.ip)?;
    if state.shared.store.arena(&id).await?.is_none() {
        return Err(not_found(&id));
    }
    Ok(ws
        .max_message_size(MESSAGE_LIMIT)
        .max_frame_size(MESSAGE_LIMIT)
        .on_upgrade(move |socket| async move {
            let frames = director.subscribe(&id);
            run(socket, &state, &director, &id, frames).await;
            director.unsubscribed(&id);
            drop(open);
        }))
}

async fn send(ws: &mut WebSocket, text: &str) -> bool {
    matches!(
        tokio::time::timeout(WRITE_LIMIT, ws.send(Message::Text(text.into()))).await,
        Ok(Ok(()))
    )
}

async fn close(ws: &mut WebSocket, code: u16, reason: &str) {
    let frame = CloseFrame {
        code,
        reason: reason.into(),
    };
    let _ = tokio::time::timeout(WRITE_LIMIT, ws.send(Message::Close(Some(frame)))).await;
}

/// The arena as stored now, as an `arena` message (`None`: it is gone or unreadable).
async fn current(state: &AppState, director: &Director, id: &str) -> Option<Arc<str>> {
    match state.shared.store.arena(id).await {
        Ok(Some(full)) => Some(director.frame(&full)),
        _ => None,
    }
}

async fn run(
    mut ws: WebSocket,
    state: &AppState,
    director: &Director,
    id: &str,
    mut frames: broadcast::Receiver<Arc<str>>,
) {
    let Some(first) = current(state, director, id).await else {
        return close(&mut ws, GOING_AWAY, "the arena is unavailable").await;
    };
    if !send(&mut ws, &first).await {
        return;
    }
    let mut shutdown = state.shared.shutdown.clone();
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + PING_EVERY, PING_EVERY);
    let mut last_heard = Instant::now();
    let mut recent: VecDeque<Instant> = VecDeque::new();
    loop {
        tokio::select! {
            msg = ws.recv() => {
                let now = Instant::now();
                last_heard = now;
                let text = match msg {
                    None | Some(Ok(Message::Close(_))) | Some(Err(_)) => break,
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Binary(_))) => {
                        close(&mut ws, 1003, "send text frames of JSON only").await;
                        break;
                    }
                    Some(Ok(Message::Text(t))) => t,
                };
                while recent.front().is_some_and(|t| now.duration_since(*t) >= Duration::from_secs(1)) {
                    recent.pop_front();
                }
                recent.push_back(now);
                if recent.len() > MESSAGES_PER_SECOND {
                    close(&mut ws, POLICY_VIOLATION, "too many messages").await;
                    break;
                }
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
                    if !send(&mut ws, &text).await {
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
                    if !send(&mut ws, &text).await {
                        break;
                    }
                }
            }
            _ = ping.tick() => {
                if last_heard.elapsed() >= IDLE_LIMIT {
                    close(&mut ws, POLICY_VIOLATION, "no message for 45 s").await;
                    break;
                }
                let sent = tokio::time::timeout(WRITE_LIMIT, ws.send(Message::Ping(Default::default()))).await;
                if !matches!(sent, Ok(Ok(()))) {
                    break;
                }
            }
            _ = shutdown.changed() => {
                close(&mut ws, GOING_AWAY, "the server is stopping").await;
                break;
            }
        }
    }
}
