//! The lobby's live socket, `GET /api/lobby/ws`: the same WebSocket channel and limits as a
//! game's (`crate::online::ws`: 4 KiB messages, 30 a second, 20 bad ones, ping every 15 s,
//! closed after 45 s of silence, counted in the address's live streams). It sends the open
//! seeks first (`seeks`), then each change (`seek_added`, `seek_removed`), and this holder's
//! pairing results (`paired`, `pool_left`); it takes `hello` (the list again), `pool_join`
//! and `pool_leave`. While it is open its holder is present: their seeks and pool place stay.

use super::pairing::{join_pool, leave_pool, JoinRequest};
use super::{holder_of, seeks, Event, Lobby};
use crate::error::{AppError, AppResult};
use crate::http::ownership::Asker;
use crate::http::socket::{self, Inbound, LiveSocket};
use crate::identity::layer::Identity;
use crate::identity::BrowserId;
use crate::runtime::state::AppState;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::State;
use axum::response::Response;
use axum::Extension;
use serde::Deserialize;
use serde_json::json;
use std::net::IpAddr;
use std::sync::Arc;
use tokio::sync::broadcast;

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
    let upgrade = socket::accept(&state, asker.ip, ws)?;
    let ip = asker.ip;
    Ok(upgrade.serve(move |socket| run(socket, state, lobby, identity, ip)))
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

fn error_text(e: &AppError, reference: Option<u64>) -> String {
    serde_json::to_string(&socket::error_message(e, reference)).unwrap_or_default()
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
        Event::PoolSkipped { holder, skipped } if *holder == who => {
            json!({"type": "pool_skipped", "reason": "blocked", "skipped": skipped}).to_string()
        }
        _ => return None,
    })
}

async fn run(
    mut socket: LiveSocket,
    state: AppState,
    lobby: Arc<Lobby>,
    identity: Identity,
    ip: IpAddr,
) {
    let who = holder_of(&identity);
    let mut events = lobby.subscribe();
    let (socket_id, mut mine) = lobby.arrive(who);
    let _leave = Leave {
        lobby: lobby.clone(),
        holder: who,
        socket: socket_id,
        state: state.clone(),
    };
    if !socket.send_text(&list_text(&lobby, who)).await {
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
                let (reference, parsed) = socket::read_message::<ClientMessage>(text.as_str());
                let answer = match parsed {
                    Err(e) => {
                        if !socket.bad_message(e, reference).await {
                            break;
                        }
                        continue;
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
                if !socket.send_text(&answer).await {
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
                if !socket.send_text(&text).await {
                    break;
                }
            }
            Some(event) = mine.recv() => {
                if let Some(text) = event_text(&event, who) {
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
