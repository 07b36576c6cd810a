//! The lobby's live socket, `GET /api/lobby/ws`: the same WebSocket channel and limits as a
//! game's (`crate::online::ws`: 4 KiB messages, 30 a second, 20 bad ones, ping every 15 s,
//! closed after 45 s of silence, counted in the address's live streams). It sends the open
//! seeks first (`seeks`), then each change (`seek_added`, `seek_removed`), and this holder's
//! pairing results (`paired`, `pool_left`); it takes `hello` (the list again), `pool_join`
//! and `pool_leave`. While it is open its holder is present: their seeks and pool place stay.

use super::pairing::{join_pool, leave_pool, JoinRequest};
use super::{holder_of, seeks, Event, Lobby};
use crate::error::{AppError, AppResult};
use crate::identity::layer::Identity;
use crate::identity::BrowserId;
use crate::online::ws::{BAD_MESSAGES, IDLE_LIMIT, MESSAGES_PER_SECOND, MESSAGE_LIMIT, PING_EVERY};
use crate::ownership::Asker;
use crate::state::AppState;
use crate::view::online::ErrorMessage;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use axum::Extension;
use serde::Deserialize;
use serde_json::json;
use std::collections::VecDeque;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::broadcast;

const WRITE_LIMIT: Duration = Duration::from_secs(10);
const POLICY_VIOLATION: u16 = 1008;
const GOING_AWAY: u16 = 1001;

#[derive(Deserialize, Debug)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum ClientMessage {
    Hello {},
    PoolJoin {
        pool: String,
        #[serde(default)]
        rated: bool,
        #[serde(default)]
        name: Option<String>,
    },
    PoolLeave {},
}

/// `GET /api/lobby/ws`.
pub async fn upgrade(
    State(state): State<AppState>,
    Extension(lobby): Extension<Arc<Lobby>>,
    asker: Asker,
    identity: Identity,
    ws: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> AppResult<Response> {
    let ws = ws.map_err(|e| {
        AppError::BadRequest(format!(
            "this path takes a WebSocket upgrade: {}",
            e.body_text()
        ))
    })?;
    let open = state.limits.open_stream(asker.ip)?;
    Ok(ws
        .max_message_size(MESSAGE_LIMIT)
        .max_frame_size(MESSAGE_LIMIT)
        .on_upgrade(move |socket| async move {
            run(socket, state, lobby, identity, asker.ip).await;
            drop(open);
        }))
}

/// Tells the lobby the socket closed, however the task ends.
struct Leave {
    lobby: Arc<Lobby>,
    holder: BrowserId,
    socket: u64,
    state: AppState,
}

impl Drop for Leave {
    fn drop(&mut self) {
        let now = self.state.shared.config.clock.now_ms();
        self.lobby.leave(self.holder, self.socket, now);
    }
}

async fn send(ws: &mut WebSocket, text: String) -> bool {
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

fn error_text(e: &AppError, reference: Option<u64>) -> String {
    let code = match e {
        AppError::BadRequest(_) => "bad_message",
        other => other.code(),
    };
    serde_json::to_string(&ErrorMessage {
        kind: "error",
        code,
        message: e.message(),
        reference,
        params: e.body().error.params,
    })
    .unwrap_or_default()
}

fn list_text(lobby: &Lobby, who: BrowserId) -> String {
    json!({"type": "seeks", "seeks": seeks::open_seeks(lobby, who)}).to_string()
}

/// The message `event` means for `who` (`None`: nothing for them).
fn event_text(event: &Event, who: BrowserId) -> Option<String> {
    Some(match event {
        Event::Added(seek) => json!({"type": "seek_added", "seek": seek.view(who)}).to_string(),
        Event::Removed(id) => json!({"type": "seek_removed", "id": id}).to_string(),
        Event::Paired {
            holder,
            game,
            color,
            seek,
            pool,
        } if *holder == who => json!({
            "type": "paired", "game": game, "color": color, "seek": seek, "pool": pool,
        })
        .to_string(),
        Event::PoolLeft { holder, reason } if *holder == who => {
            json!({"type": "pool_left", "reason": reason}).to_string()
        }
        _ => return None,
    })
}

/// A message read: its `id` (when it had a usable one) and the message, or what is wrong.
fn read_message(text: &str) -> (Option<u64>, Result<ClientMessage, String>) {
    let Ok(serde_json::Value::Object(mut obj)) = serde_json::from_str::<serde_json::Value>(text)
    else {
        return (
            None,
            Err("a message must be a JSON object with a \"type\"".into()),
        );
    };
    let id = obj.remove("id").and_then(|v| v.as_u64());
    let msg = serde_json::from_value(serde_json::Value::Object(obj)).map_err(|e| e.to_string());
    (id, msg)
}

async fn run(
    mut ws: WebSocket,
    state: AppState,
    lobby: Arc<Lobby>,
    identity: Identity,
    ip: IpAddr,
) {
    let who = holder_of(&identity);
    let mut events = lobby.subscribe();
    let (socket, mut mine) = lobby.arrive(who);
    let _leave = Leave {
        lobby: lobby.clone(),
        holder: who,
        socket,
        state: state.clone(),
    };
    if !send(&mut ws, list_text(&lobby, who)).await {
        return;
    }
    let mut shutdown = state.shared.shutdown.clone();
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + PING_EVERY, PING_EVERY);
    let mut last_heard = Instant::now();
    let mut recent: VecDeque<Instant> = VecDeque::new();
    let mut bad = 0u32;
    let paced = !state.limits.exempt(ip);
    loop {
        tokio::select! {
            msg = ws.recv() => {
                let now = Instant::now();
                last_heard = now;
                let text = match msg {
                    None | Some(Ok(Message::Close(_))) | Some(Err(_)) => break,
                    Some(Ok(Message::Binary(_))) => {
                        close(&mut ws, 1003, "send text frames of JSON only").await;
                        break;
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Text(t))) => t,
                };
                while recent.front().is_some_and(|t| now.duration_since(*t) >= Duration::from_secs(1)) {
                    recent.pop_front();
                }
                recent.push_back(now);
                if paced && recent.len() > MESSAGES_PER_SECOND {
                    close(&mut ws, POLICY_VIOLATION, "too many messages").await;
                    break;
                }
                let (reference, parsed) = read_message(text.as_str());
                let answer = match parsed {
                    Err(e) => {
                        bad += 1;
                        if bad > BAD_MESSAGES {
                            close(&mut ws, POLICY_VIOLATION, "too many bad messages").await;
                            break;
                        }
                        error_text(&AppError::BadRequest(e), reference)
                    }
                    Ok(ClientMessage::Hello {}) => list_text(&lobby, who),
                    Ok(ClientMessage::PoolJoin { pool, rated, name }) => {
                        let req = JoinRequest { pool, rated, name };
                        match join_pool(&state, &lobby, &identity, ip, req).await {
                            Ok(joined) => json!({"type": "pool", "ref": reference, "pool": joined.pool,
                                "rated": joined.rated, "rating": joined.rating, "window": joined.window}).to_string(),
                            Err(e) => error_text(&e, reference),
                        }
                    }
                    Ok(ClientMessage::PoolLeave {}) => {
                        leave_pool(&lobby, who);
                        continue;
                    }
                };
                if !send(&mut ws, answer).await {
                    break;
                }
            }
            ev = events.recv() => {
                let text = match ev {
                    Ok(event) => match event_text(&event, who) {
                        Some(t) => t,
                        None => continue,
                    },
                    // Behind: the whole list again.
                    Err(broadcast::error::RecvError::Lagged(_)) => list_text(&lobby, who),
                    Err(broadcast::error::RecvError::Closed) => break,
                };
                if !send(&mut ws, text).await {
                    break;
                }
            }
            Some(event) = mine.recv() => {
                if let Some(text) = event_text(&event, who) {
                    if !send(&mut ws, text).await {
                        break;
                    }
                }
            }
            _ = ping.tick() => {
                if last_heard.elapsed() >= IDLE_LIMIT {
                    close(&mut ws, POLICY_VIOLATION, "no message for 45 s").await;
                    break;
                }
                let ping = tokio::time::timeout(WRITE_LIMIT, ws.send(Message::Ping(Default::default()))).await;
                if !matches!(ping, Ok(Ok(()))) {
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
