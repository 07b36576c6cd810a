//! The live channel's socket, shared by every WebSocket the server offers (a game's
//! `/api/games/{id}/ws`, the lobby's `/api/lobby/ws`, an arena's `/api/arenas/{id}/ws`): the
//! upgrade with its size limit and its place among the address's live streams, JSON text frames
//! only, the pace and bad-message limits, the heartbeat, the write limit and the close codes.
//! Each endpoint keeps only what its messages mean.
//!
//! A socket's loop selects on `socket.ws.recv()` (handed to [`LiveSocket::inbound`]) and
//! `socket.ping.tick()` (handed to [`LiveSocket::keep_alive`]) beside its own event streams: the
//! two fields are borrowed apart, so they sit in one `select!`.

use crate::error::{AppError, AppResult};
use crate::http::limits::OpenGuard;
use crate::runtime::state::AppState;
use crate::view::online::ErrorMessage;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use std::collections::VecDeque;
use std::future::Future;
use std::net::IpAddr;
use std::time::{Duration, Instant};
use tokio::time::Interval;

/// Largest client message (and frame).
pub const MESSAGE_LIMIT: usize = 4096;
pub const PING_EVERY: Duration = Duration::from_secs(15);
pub const IDLE_LIMIT: Duration = Duration::from_secs(45);
/// Messages per second beyond which the socket is closed.
pub const MESSAGES_PER_SECOND: usize = 30;
/// Bad messages beyond which the socket is closed.
pub const BAD_MESSAGES: u32 = 20;
/// A write that takes longer than this (a client that stopped reading) ends the socket.
const WRITE_LIMIT: Duration = Duration::from_secs(10);

pub const POLICY_VIOLATION: u16 = 1008;
pub const UNSUPPORTED_DATA: u16 = 1003;
pub const GOING_AWAY: u16 = 1001;
pub const TOO_BIG: u16 = 1009;

/// A WebSocket upgrade accepted on behalf of an address: the request is an upgrade and the
/// address has room for one more live stream (counted for as long as the socket is open).
/// The endpoint checks what it must (the game or arena exists) and then [`Upgrade::serve`]s.
pub struct Upgrade {
    ws: WebSocketUpgrade,
    open: OpenGuard,
    paced: bool,
}

/// Accepts `ws` for `ip`: 400 if the request is no WebSocket upgrade, 429 if the address has
/// as many live streams as it may.
pub fn accept(
    state: &AppState,
    ip: IpAddr,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> AppResult<Upgrade> {
    let ws = ws.map_err(|e| {
        AppError::BadRequest(format!(
            "this path takes a WebSocket upgrade: {}",
            e.body_text()
        ))
    })?;
    let open = state.limits.open_stream(ip)?;
    Ok(Upgrade {
        ws,
        open,
        // An address exempt from limits (a load test, the browser tests) is not paced.
        paced: !state.limits.exempt(ip),
    })
}

impl Upgrade {
    /// Switches protocols and runs `serve` on the socket.
    pub fn serve<F, Fut>(self, serve: F) -> Response
    where
        F: FnOnce(LiveSocket) -> Fut + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let Upgrade { ws, open, paced } = self;
        ws.max_message_size(MESSAGE_LIMIT)
            .max_frame_size(MESSAGE_LIMIT)
            .on_upgrade(move |ws| async move {
                serve(LiveSocket::new(ws, paced)).await;
                drop(open);
            })
    }
}

/// What a frame from the client comes to.
pub enum Inbound {
    /// A text message, for the endpoint to read.
    Text(Utf8Bytes),
    /// Nothing to answer (a ping or pong).
    Skip,
    /// The socket is over (closed by the client, broken, or closed here for a broken limit).
    End,
}

/// One client's socket with its limits.
pub struct LiveSocket {
    pub ws: WebSocket,
    pub ping: Interval,
    paced: bool,
    last_heard: Instant,
    recent: VecDeque<Instant>,
    bad: u32,
}

impl LiveSocket {
    fn new(ws: WebSocket, paced: bool) -> LiveSocket {
        LiveSocket {
            ws,
            ping: tokio::time::interval_at(tokio::time::Instant::now() + PING_EVERY, PING_EVERY),
            paced,
            last_heard: Instant::now(),
            recent: VecDeque::new(),
            bad: 0,
        }
    }

    /// Whether this socket's client is held to the per-second limits.
    pub fn paced(&self) -> bool {
        self.paced
    }

    /// Reads what `socket.ws.recv()` gave: text is counted against the pace (more than
    /// [`MESSAGES_PER_SECOND`] closes the socket); binary frames and frames over
    /// [`MESSAGE_LIMIT`] close it with their codes.
    pub async fn inbound(&mut self, msg: Option<Result<Message, axum::Error>>) -> Inbound {
        let now = Instant::now();
        self.last_heard = now;
        let text = match msg {
            None | Some(Ok(Message::Close(_))) => return Inbound::End,
            Some(Err(e)) => {
                // A frame over the limit, a protocol error, a reset.
                let text = e.to_string();
                if text.contains("too long")
                    || text.contains("too big")
                    || text.contains("Space limit")
                {
                    self.close(TOO_BIG, "a message may have at most 4096 bytes")
                        .await;
                }
                return Inbound::End;
            }
            Some(Ok(Message::Binary(_))) => {
                self.close(UNSUPPORTED_DATA, "send text frames of JSON only")
                    .await;
                return Inbound::End;
            }
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => return Inbound::Skip,
            Some(Ok(Message::Text(t))) => t,
        };
        while self
            .recent
            .front()
            .is_some_and(|t| now.duration_since(*t) >= Duration::from_secs(1))
        {
            self.recent.pop_front();
        }
        self.recent.push_back(now);
        if self.paced && self.recent.len() > MESSAGES_PER_SECOND {
            self.close(POLICY_VIOLATION, "too many messages").await;
            return Inbound::End;
        }
        Inbound::Text(text)
    }

    /// After `socket.ping.tick()`: closes a socket silent for [`IDLE_LIMIT`], else pings it.
    /// `false`: the socket is over.
    pub async fn keep_alive(&mut self) -> bool {
        if self.last_heard.elapsed() >= IDLE_LIMIT {
            self.close(POLICY_VIOLATION, "no message for 45 s").await;
            return false;
        }
        let ping =
            tokio::time::timeout(WRITE_LIMIT, self.ws.send(Message::Ping(Default::default())));
        matches!(ping.await, Ok(Ok(())))
    }

    /// Sends a text message; `false`: the socket is over.
    pub async fn send_text(&mut self, text: &str) -> bool {
        matches!(
            tokio::time::timeout(WRITE_LIMIT, self.ws.send(Message::Text(text.into()))).await,
            Ok(Ok(()))
        )
    }

    pub async fn close(&mut self, code: u16, reason: &str) {
        let frame = CloseFrame {
            code,
            reason: reason.into(),
        };
        let _ = tokio::time::timeout(WRITE_LIMIT, self.ws.send(Message::Close(Some(frame)))).await;
    }

    /// Sends `e` as an `error` message answering message `reference`; `false`: the socket is
    /// over.
    pub async fn send_error(&mut self, e: &AppError, reference: Option<u64>) -> bool {
        match serde_json::to_string(&error_message(e, reference)) {
            Ok(json) => self.send_text(&json).await,
            Err(_) => true,
        }
    }

    /// A message that could not be read (`what` says why): answered with `bad_message`, and
    /// the socket closed beyond [`BAD_MESSAGES`] of them. `false`: the socket is over.
    pub async fn bad_message(&mut self, what: String, reference: Option<u64>) -> bool {
        self.bad += 1;
        if self.bad > BAD_MESSAGES {
            self.close(POLICY_VIOLATION, "too many bad messages").await;
            return false;
        }
        self.send_error(&AppError::BadRequest(what), reference)
            .await
    }

    /// Says the server is stopping and closes.
    pub async fn server_stopping(&mut self) {
        self.close(GOING_AWAY, "the server is stopping").await;
    }
}

/// The `error` message of `e` (a malformed message is `bad_message`).
pub fn error_message(e: &AppError, reference: Option<u64>) -> ErrorMessage {
    let code = match e {
        AppError::BadRequest(_) => "bad_message",
        other => other.code(),
    };
    ErrorMessage {
        kind: "error",
        code,
        message: e.message(),
        reference,
        params: e.body().error.params,
    }
}

/// Splits a client message into its `id` and the rest, read as `T` (a `type`-tagged enum), or
/// says what is wrong with it (with the `id` when it had a usable one, for the answer's `ref`).
pub fn read_message<T: serde::de::DeserializeOwned>(
    text: &str,
) -> (Option<u64>, Result<T, String>) {
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
