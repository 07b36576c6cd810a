//! The live channel of every game (computer, friend, online): the WebSocket
//! `GET /api/games/{id}/ws` (docs/API.md, "Live channel").
//!
//! One task per socket: it reads the client's messages (text, one JSON object, at most 4 KiB,
//! schema-checked), turns them into actions for the game's actor, and writes what the actor
//! broadcasts, choosing the copy meant for its browser. Limits per socket: 30 messages a
//! second and 20 bad messages in all (then the socket is closed, 1008), 10 moves a second
//! (`too_many_requests`); a ping every 15 s, closed after 45 s without a word from the client.

use crate::error::{AppError, AppResult};
use crate::http::limits::Kind;
use crate::http::ownership::Asker;
use crate::http::socket::{self, Inbound, LiveSocket, GOING_AWAY};
use crate::identity::BrowserId;
use crate::runtime::game::{Action, Connected, Event, GameHandle};
use crate::runtime::state::AppState;
use axum::extract::rejection::PathRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Path, State};
use axum::response::Response;
use serde::Deserialize;
use std::collections::VecDeque;
use std::net::IpAddr;
use std::time::{Duration, Instant};
use tokio::sync::broadcast;
use tracing::Instrument;
use virada_rules::Square;

/// Moves per second answered; more are `too_many_requests`.
pub const MOVES_PER_SECOND: usize = 10;

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

fn read_message(text: &str) -> (Option<u64>, Result<ClientMessage, String>) {
    socket::read_message(text)
}

/// `GET /api/games/{id}/ws`.
pub async fn upgrade(
    State(state): State<AppState>,
    asker: Asker,
    id: Result<Path<String>, PathRejection>,
    ws: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> AppResult<Response> {
    let Path(id) = id.map_err(|e| AppError::BadRequest(format!("path: {}", e.body_text())))?;
    let upgrade = socket::accept(&state, asker.ip, ws)?;
    let who = asker.browser;
    let span = tracing::info_span!(parent: None, "socket", game = %id);
    // The game must exist and be the asker's to see (404 otherwise) before the upgrade.
    state.view(&asker, &id).await?;
    let ip = asker.ip;
    Ok(upgrade.serve(move |socket| run(socket, state, id, who, ip).instrument(span)))
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

/// Sends `e` as an `error` message, and after a stale action the game as it is.
async fn send_error(socket: &mut LiveSocket, e: &AppError, reference: Option<u64>) -> bool {
    let ok = socket.send_error(e, reference).await;
    if let AppError::Stale(view) = e {
        if let Some(json) = game_message(view) {
            return ok && socket.send_text(&json).await;
        }
    }
    ok
}

async fn run(mut socket: LiveSocket, state: AppState, id: String, who: BrowserId, ip: IpAddr) {
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
    let mut moves: VecDeque<Instant> = VecDeque::new();
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
                let text = match socket.inbound(msg).await {
                    Inbound::Text(t) => t,
                    Inbound::Skip => continue,
                    Inbound::End => break,
                };
                let (reference, parsed) = read_message(text.as_str());
                let msg = match parsed {
                    Ok(m) => m,
                    Err(e) => {
                        if !socket.bad_message(e, reference).await {
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
                            Err(e) => send_error(&mut socket, &e, reference).await,
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
                    if socket.paced() && moves.len() >= MOVES_PER_SECOND {
                        let e = AppError::TooManyRequests(format!("at most {MOVES_PER_SECOND} moves a second"));
                        if !send_error(&mut socket, &e, reference).await {
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
                    if !send_error(&mut socket, &e, reference).await {
                        break;
                    }
                    continue;
                }
                let r = handle.act(who, action, arrived_ms).await;
                if let Err(e) = r {
                    if !send_error(&mut socket, &e, reference).await {
                        break;
                    }
                }
            }
            ev = events.recv() => {
                let sent = match ev {
                    Ok(Event::Game(frames)) => {
                        filter.refresh(&state, false).await;
                        let text = frames.for_browser(who).clone();
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
