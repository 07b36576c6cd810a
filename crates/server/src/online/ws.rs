//! The live channel of every game (computer, friend, online): the WebSocket
//! `GET /api/games/{id}/ws` (docs/API.md, "Live channel").
//!
//! One task per socket: it reads the client's messages (text, one JSON object, at most 4 KiB,
//! schema-checked), turns them into actions for the game's actor, and writes what the actor
//! broadcasts, choosing the copy meant for its browser. Limits per socket: 30 messages a
//! second and 20 bad messages in all (then the socket is closed, 1008), 10 moves a second
//! (`too_many_requests`); a ping every 15 s, closed after 45 s without a word from the client.

use crate::error::{AppError, AppResult};
use crate::game::{Action, Connected, Event, GameHandle};
use crate::identity::BrowserId;
use crate::limits::Kind;
use crate::ownership::Asker;
use crate::state::AppState;
use crate::view::online::ErrorMessage;
use axum::extract::rejection::PathRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use serde::Deserialize;
use std::collections::VecDeque;
use std::net::IpAddr;
use std::time::{Duration, Instant};
use tokio::sync::broadcast;
use tracing::Instrument;
use virada_rules::Square;

/// Largest client message (and frame).
pub const MESSAGE_LIMIT: usize = 4096;
pub const PING_EVERY: Duration = Duration::from_secs(15);
pub const IDLE_LIMIT: Duration = Duration::from_secs(45);
/// Messages per second beyond which the socket is closed.
pub const MESSAGES_PER_SECOND: usize = 30;
/// Bad messages beyond which the socket is closed.
pub const BAD_MESSAGES: u32 = 20;
/// Moves per second answered; more are `too_many_requests`.
pub const MOVES_PER_SECOND: usize = 10;
/// A write that takes longer than this (a client that stopped reading) ends the socket.
const WRITE_LIMIT: Duration = Duration::from_secs(10);

const POLICY_VIOLATION: u16 = 1008;
const UNSUPPORTED_DATA: u16 = 1003;
const GOING_AWAY: u16 = 1001;
const TOO_BIG: u16 = 1009;

/// What a client may send (`id` is taken off first: see [`read_message`]).
#[derive(Deserialize, Debug, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum ClientMessage {
    Hello { version: u64 },
    Move { square: Square, ply: usize },
    Undo { ply: usize },
    Redo { ply: usize },
    Resign { ply: usize },
    Abort { ply: usize },
    Takeback { ply: usize },
    TakebackAnswer { accept: bool, ply: usize },
    Chat { text: String },
    Rematch {},
    RematchAnswer { accept: bool },
}

/// A message read: its `id` (when it had a usable one) and the message, or what is wrong.
fn read_message(text: &str) -> (Option<u64>, Result<ClientMessage, String>) {
    let value: serde_json::Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return (None, Err(format!("not JSON: {e}"))),
    };
    let serde_json::Value::Object(mut obj) = value else {
        return (
            None,
            Err("a message must be a JSON object with a \"type\"".into()),
        );
    };
    let id = match obj.remove("id") {
        None => None,
        Some(v) => match v.as_u64() {
            Some(n) => Some(n),
            None => return (None, Err("\"id\" must be a non-negative integer".into())),
        },
    };
    let msg = serde_json::from_value(serde_json::Value::Object(obj)).map_err(|e| e.to_string());
    (id, msg)
}

/// `GET /api/games/{id}/ws`.
pub async fn upgrade(
    State(state): State<AppState>,
    asker: Asker,
    id: Result<Path<String>, PathRejection>,
    ws: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> AppResult<Response> {
    let Path(id) = id.map_err(|e| AppError::BadRequest(format!("path: {}", e.body_text())))?;
    let ws = ws.map_err(|e| {
        AppError::BadRequest(format!(
            "this path takes a WebSocket upgrade: {}",
            e.body_text()
        ))
    })?;
    let who = asker.browser;
    let span = tracing::info_span!(parent: None, "socket", game = %id);
    // Counted against the address's live streams for as long as the socket is open.
    let open = state.limits.open_stream(asker.ip)?;
    // The game must exist and be the asker's to see (404 otherwise) before the upgrade.
    state.view(&asker, &id).await?;
    Ok(ws
        .max_message_size(MESSAGE_LIMIT)
        .max_frame_size(MESSAGE_LIMIT)
        .on_upgrade(move |socket| {
            async move {
                run(socket, state, id, who, asker.ip).await;
                drop(open);
            }
            .instrument(span)
        }))
}

/// Tells the actor the socket closed, however the task ends.
struct Disconnect {
    handle: GameHandle,
    conn: u64,
}

impl Drop for Disconnect {
    fn drop(&mut self) {
        self.handle.disconnect(self.conn);
    }
}

/// The `game` message of `view`.
fn game_message(view: &crate::view::GameView) -> Option<String> {
    serde_json::to_string(&crate::view::online::GameMessage {
        kind: "game",
        game: view,
    })
    .ok()
}

struct Socket {
    ws: WebSocket,
    who: BrowserId,
}

impl Socket {
    async fn send_text(&mut self, text: &str) -> bool {
        matches!(
            tokio::time::timeout(WRITE_LIMIT, self.ws.send(Message::Text(text.into()))).await,
            Ok(Ok(()))
        )
    }

    async fn close(&mut self, code: u16, reason: &str) {
        let frame = CloseFrame {
            code,
            reason: reason.into(),
        };
        let _ = tokio::time::timeout(WRITE_LIMIT, self.ws.send(Message::Close(Some(frame)))).await;
    }

    async fn send_error(&mut self, e: &AppError, reference: Option<u64>) -> bool {
        let code = match e {
            AppError::BadRequest(_) => "bad_message",
            other => other.code(),
        };
        let msg = ErrorMessage {
            kind: "error",
            code,
            message: e.message(),
            reference,
            params: e.body().error.params,
        };
        let ok = match serde_json::to_string(&msg) {
            Ok(json) => self.send_text(&json).await,
            Err(_) => true,
        };
        if let AppError::Stale(view) = e {
            if let Some(json) = game_message(view) {
                return ok && self.send_text(&json).await;
            }
        }
        ok
    }
}

async fn run(ws: WebSocket, state: AppState, id: String, who: BrowserId, ip: IpAddr) {
    let mut socket = Socket { ws, who };
    let Ok(handle) = state.games.handle(&id).await else {
        return socket.close(GOING_AWAY, "the game is unavailable").await;
    };
    let Ok(Connected {
        conn,
        first,
        mut events,
    }) = handle.connect(who).await
    else {
        return socket.close(GOING_AWAY, "the game is unavailable").await;
    };
    let _disconnect = Disconnect {
        handle: handle.clone(),
        conn,
    };
    // Chat off and blocked players' lines (`safety::chat`), per socket.
    let Ok(mut filter) = crate::safety::chat::ChatFilter::new(&state, &id, who).await else {
        return socket.close(GOING_AWAY, "the game is unavailable").await;
    };
    let Some(first) = filter.apply(&first) else {
        return;
    };
    if !socket.send_text(&first).await {
        return;
    }
    let clock = state.shared.config.clock.clone();
    let mut shutdown = state.shared.shutdown.clone();
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + PING_EVERY, PING_EVERY);
    let mut last_heard = Instant::now();
    let mut recent: VecDeque<Instant> = VecDeque::new();
    let mut moves: VecDeque<Instant> = VecDeque::new();
    let mut bad = 0u32;
    // "Your move" in the browser's other games (`profiles::notices`).
    let mut notices = state.shared.notices.subscribe(who);
    loop {
        tokio::select! {
            notice = notices.recv() => {
                match notice {
                    Ok(n) if n.game != id => {
                        if !socket.send_text(&n.text).await {
                            break;
                        }
                    }
                    Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                    Err(broadcast::error::RecvError::Closed) => {
                        notices = state.shared.notices.subscribe(who);
                    }
                }
            }
            msg = socket.ws.recv() => {
                let arrived_ms = clock.now_ms();
                let now = Instant::now();
                last_heard = now;
                let text = match msg {
                    None | Some(Ok(Message::Close(_))) => break,
                    Some(Err(e)) => {
                        // A frame over the limit, a protocol error, a reset.
                        let text = e.to_string();
                        if text.contains("too long") || text.contains("too big") || text.contains("Space limit") {
                            socket.close(TOO_BIG, "a message may have at most 4096 bytes").await;
                        }
                        break;
                    }
                    Some(Ok(Message::Binary(_))) => {
                        socket.close(UNSUPPORTED_DATA, "send text frames of JSON only").await;
                        break;
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Text(t))) => t,
                };
                while recent.front().is_some_and(|t| now.duration_since(*t) >= Duration::from_secs(1)) {
                    recent.pop_front();
                }
                recent.push_back(now);
                // An address exempt from limits (a load test, the browser tests) is not paced.
                let paced = !state.limits.exempt(ip);
                if paced && recent.len() > MESSAGES_PER_SECOND {
                    socket.close(POLICY_VIOLATION, "too many messages").await;
                    break;
                }
                let (reference, parsed) = read_message(text.as_str());
                let msg = match parsed {
                    Ok(m) => m,
                    Err(e) => {
                        bad += 1;
                        if bad > BAD_MESSAGES {
                            socket.close(POLICY_VIOLATION, "too many bad messages").await;
                            break;
                        }
                        if !socket.send_error(&AppError::BadRequest(e), reference).await {
                            break;
                        }
                        continue;
                    }
                };
                let action = match msg {
                    ClientMessage::Hello { .. } => {
                        filter.refresh(&state, true).await;
                        let sent = match handle.view(Some(who)).await {
                            Ok(view) => match game_message(&view).and_then(|j| filter.apply(&j).map(|t| t.into_owned())) {
                                Some(json) => socket.send_text(&json).await,
                                None => true,
                            },
                            Err(e) => socket.send_error(&e, reference).await,
                        };
                        if !sent {
                            break;
                        }
                        continue;
                    }
                    ClientMessage::Move { square, ply } => Action::Move { square, ply },
                    ClientMessage::Undo { ply } => Action::Undo { ply },
                    ClientMessage::Redo { ply } => Action::Redo { ply },
                    ClientMessage::Resign { ply } => Action::Resign { ply },
                    ClientMessage::Abort { ply } => Action::Abort { ply },
                    ClientMessage::Takeback { ply } => Action::Takeback { ply },
                    ClientMessage::TakebackAnswer { accept, ply } => Action::TakebackAnswer { accept, ply },
                    ClientMessage::Chat { text } => Action::Chat { text },
                    ClientMessage::Rematch {} => Action::Rematch,
                    ClientMessage::RematchAnswer { accept } => Action::RematchAnswer { accept },
                };
                if matches!(action, Action::Move { .. } | Action::Undo { .. } | Action::Redo { .. }) {
                    while moves.front().is_some_and(|t| now.duration_since(*t) >= Duration::from_secs(1)) {
                        moves.pop_front();
                    }
                    if paced && moves.len() >= MOVES_PER_SECOND {
                        let e = AppError::TooManyRequests(format!("at most {MOVES_PER_SECOND} moves a second"));
                        if !socket.send_error(&e, reference).await {
                            break;
                        }
                        continue;
                    }
                    moves.push_back(now);
                }
                // The address's buckets (`limits`), on top of this socket's own limits.
                let kind = match &action {
                    Action::Chat { .. } => Kind::Chat,
                    _ => Kind::Move,
                };
                if let Err(e) = state.limits.check(ip, kind) {
                    if !socket.send_error(&e, reference).await {
                        break;
                    }
                    continue;
                }
                let r = handle.act(who, action, arrived_ms).await;
                if let Err(e) = r {
                    if !socket.send_error(&e, reference).await {
                        break;
                    }
                }
            }
            ev = events.recv() => {
                let sent = match ev {
                    Ok(Event::Game(frames)) => {
                        filter.refresh(&state, false).await;
                        let text = frames.for_browser(socket.who).clone();
                        match filter.apply(&text) {
                            Some(text) => socket.send_text(&text).await,
                            None => true,
                        }
                    }
                    Ok(Event::Same(text)) => {
                        if text.starts_with(r#"{"type":"chat""#) {
                            filter.refresh(&state, true).await;
                        }
                        match filter.apply(&text) {
                            Some(text) => socket.send_text(&text).await,
                            None => true,
                        }
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        // Behind: skip to the current state.
                        match handle.view(Some(who)).await {
                            Ok(view) => match game_message(&view).and_then(|j| filter.apply(&j).map(|t| t.into_owned())) {
                                Some(json) => socket.send_text(&json).await,
                                None => true,
                            },
                            Err(_) => false,
                        }
                    }
                    Err(broadcast::error::RecvError::Closed) => {
                        socket.close(GOING_AWAY, "the game was unloaded; reconnect").await;
                        false
                    }
                };
                if !sent {
                    break;
                }
            }
            _ = ping.tick() => {
                if last_heard.elapsed() >= IDLE_LIMIT {
                    socket.close(POLICY_VIOLATION, "no message for 45 s").await;
                    break;
                }
                let ping = tokio::time::timeout(WRITE_LIMIT, socket.ws.send(Message::Ping(Default::default()))).await;
                if !matches!(ping, Ok(Ok(()))) {
                    break;
                }
            }
            _ = shutdown.changed() => {
                socket.close(GOING_AWAY, "the server is stopping").await;
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_schema_checked() {
        let (id, m) = read_message(r#"{"type":"move","square":"d3","ply":0,"id":7}"#);
        assert_eq!(id, Some(7));
        assert_eq!(
            m.unwrap(),
            ClientMessage::Move {
                square: "d3".parse().unwrap(),
                ply: 0
            }
        );
        assert_eq!(
            read_message(r#"{"type":"rematch"}"#).1.unwrap(),
            ClientMessage::Rematch {}
        );
        for bad in [
            r#"{"type":"move","square":"d3"}"#,
            r#"{"type":"move","square":"d3","ply":0,"extra":1}"#,
            r#"{"type":"move","square":"z9","ply":0}"#,
            r#"{"type":"rematch","x":1}"#,
            r#"{"type":"launch"}"#,
            r#"{"square":"d3"}"#,
            r#"[1,2]"#,
            r#"{"type":"chat","text":5}"#,
            "not json",
        ] {
            assert!(read_message(bad).1.is_err(), "{bad}");
        }
        assert_eq!(
            read_message(r#"{"type":"hello","version":1,"id":"x"}"#).0,
            None
        );
    }
}
