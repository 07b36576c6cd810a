//! The kit's main server: a real server on port 0 with a manual clock ([`fresh`]: on a
//! temporary database of its own), browsers (each its own `virada_id` cookie), and WebSocket
//! clients.

#![allow(dead_code)]

use futures_util::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use virada_server::runtime::time::ManualTime;
use virada_server::{Server, ServerConfig};

/// Where the manual clocks start (a fixed, plausible Unix time).
pub const T0: i64 = 1_796_000_000_000;
const WAIT: Duration = Duration::from_secs(10);

pub struct TestServer {
    pub server: Server,
    pub base: String,
    pub time: Arc<ManualTime>,
    pub db: PathBuf,
    http: reqwest::Client,
    /// The temporary folder of a [`fresh`] server's database (deleted with the server).
    _dir: Option<tempfile::TempDir>,
}

/// A server on a database of its own (a temporary folder it keeps), its manual clock at [`T0`].
pub async fn fresh() -> (TestServer, Arc<ManualTime>) {
    fresh_with(|_| {}).await
}

/// [`fresh`] with settings changed by `change`.
pub async fn fresh_with(change: impl FnOnce(&mut ServerConfig)) -> (TestServer, Arc<ManualTime>) {
    let dir = tempfile::tempdir().unwrap();
    let time = ManualTime::new(T0);
    let mut srv = start_with(&dir.path().join("db.sqlite"), time.clone(), change).await;
    srv._dir = Some(dir);
    (srv, time)
}

pub async fn start(db: &Path, time: Arc<ManualTime>) -> TestServer {
    start_with(db, time, |_| {}).await
}

/// [`start`] with settings changed by `change` (short idle timeouts, small caps).
pub async fn start_with(
    db: &Path,
    time: Arc<ManualTime>,
    change: impl FnOnce(&mut ServerConfig),
) -> TestServer {
    let mut config = ServerConfig::for_tests(db.to_path_buf());
    config.clock = time.clock();
    change(&mut config);
    let server = Server::start(config).await.expect("server starts");
    TestServer {
        base: server.url(),
        server,
        time,
        db: db.to_path_buf(),
        http: reqwest::Client::new(),
        _dir: None,
    }
}

/// A browser: its own secret cookie.
#[derive(Clone)]
pub struct Browser {
    pub cookie: String,
}

impl Browser {
    pub fn new() -> Browser {
        let token = virada_server::identity::new_token().unwrap();
        Browser {
            cookie: format!("virada_id={token}"),
        }
    }
}

pub type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

impl TestServer {
    pub async fn post(&self, who: &Browser, path: &str, body: Value) -> (StatusCode, Value) {
        let r = self
            .http
            .post(format!("{}{path}", self.base))
            .header("Cookie", &who.cookie)
            .json(&body)
            .send()
            .await
            .expect("request sent");
        let status = r.status();
        let text = r.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    pub async fn get(&self, who: &Browser, path: &str) -> (StatusCode, Value) {
        let (status, text) = self.get_text(who, path).await;
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// A GET whose answer is text (exports).
    pub async fn get_text(&self, who: &Browser, path: &str) -> (StatusCode, String) {
        let r = self
            .http
            .get(format!("{}{path}", self.base))
            .header("Cookie", &who.cookie)
            .send()
            .await
            .expect("request sent");
        let status = r.status();
        (status, r.text().await.unwrap())
    }

    /// `active_games` of `/api/health`: the games in memory.
    pub async fn active_games(&self) -> u64 {
        let (s, h) = self.get(&Browser::new(), "/api/health").await;
        assert_eq!(s, StatusCode::OK, "{h}");
        h["active_games"].as_u64().expect("active_games")
    }

    pub async fn game(&self, who: &Browser, id: &str) -> Value {
        let (s, g) = self.get(who, &format!("/api/games/{id}")).await;
        assert_eq!(s, StatusCode::OK, "{g}");
        g
    }

    /// Creates an online game as `who`.
    pub async fn create(&self, who: &Browser, tc: Value, color: &str) -> Value {
        let (s, g) = self
            .post(
                who,
                "/api/games",
                json!({"mode": "online", "time_control": tc, "color": color, "name": "Ana"}),
            )
            .await;
        assert_eq!(s, StatusCode::CREATED, "{g}");
        g
    }

    pub async fn seat(&self, who: &Browser, id: &str, name: &str) -> (StatusCode, Value) {
        self.post(
            who,
            &format!("/api/games/{id}/seat"),
            json!({ "name": name }),
        )
        .await
    }

    /// A game with both seats taken: `a` black, `b` white.
    pub async fn started(&self, a: &Browser, b: &Browser, tc: Value) -> String {
        let g = self.create(a, tc, "black").await;
        let id = g["id"].as_str().unwrap().to_string();
        let (s, g) = self.seat(b, &id, "Bia").await;
        assert_eq!(s, StatusCode::OK, "{g}");
        assert_eq!(g["online"]["phase"], "playing", "{g}");
        id
    }

    /// `who`'s socket on game `id`.
    pub async fn ws(&self, who: &Browser, id: &str) -> Ws {
        self.socket(who, &format!("/api/games/{id}/ws")).await
    }

    /// `who`'s WebSocket on `path` (a game's, an arena's, the lobby's).
    pub async fn socket(&self, who: &Browser, path: &str) -> Ws {
        let url = format!("{}{path}", self.base.replace("http://", "ws://"));
        let mut req = url.into_client_request().unwrap();
        req.headers_mut()
            .insert("Cookie", who.cookie.parse().unwrap());
        let (ws, _) = tokio_tungstenite::connect_async(req)
            .await
            .expect("WebSocket opens");
        ws
    }
}

/// The next JSON message (pings are answered by the library).
pub async fn next(ws: &mut Ws) -> Value {
    loop {
        let msg = tokio::time::timeout(WAIT, ws.next())
            .await
            .expect("a message in time")
            .expect("socket open")
            .expect("no error");
        match msg {
            Message::Text(t) => return serde_json::from_str(t.as_str()).expect("JSON"),
            Message::Ping(_) | Message::Pong(_) => continue,
            other => panic!("unexpected frame {other:?}"),
        }
    }
}

/// The next message of type `kind`, skipping others (presence, chat).
pub async fn next_of(ws: &mut Ws, kind: &str) -> Value {
    loop {
        let m = next(ws).await;
        if m["type"] == kind {
            return m;
        }
    }
}

/// The next `game` message's game.
pub async fn next_game(ws: &mut Ws) -> Value {
    next_of(ws, "game").await["game"].clone()
}

/// The next `game` whose plies have length `plies`.
pub async fn game_at(ws: &mut Ws, plies: usize) -> Value {
    loop {
        let g = next_game(ws).await;
        if g["plies"].as_array().unwrap().len() == plies {
            return g;
        }
    }
}

/// The next `error` message.
pub async fn next_error(ws: &mut Ws) -> Value {
    next_of(ws, "error").await
}

pub async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::Text(v.to_string().into()))
        .await
        .expect("sent");
}

/// Waits for the socket to be closed by the server; returns the close code if one came.
pub async fn closed(ws: &mut Ws) -> Option<CloseCode> {
    loop {
        match tokio::time::timeout(WAIT, ws.next())
            .await
            .expect("closed in time")
        {
            None | Some(Err(_)) => return None,
            Some(Ok(Message::Close(frame))) => return frame.map(|f| f.code),
            Some(Ok(_)) => continue,
        }
    }
}

pub fn plies(g: &Value) -> usize {
    g["plies"].as_array().unwrap().len()
}

pub fn first_legal(g: &Value) -> String {
    g["legal_moves"][0]
        .as_str()
        .expect("a legal move")
        .to_string()
}

/// The next `game` for which `pred` holds.
pub async fn game_where(ws: &mut Ws, pred: impl Fn(&Value) -> bool) -> Value {
    loop {
        let m = next(ws).await;
        assert_ne!(m["type"], "error", "waiting for a game, got {m}");
        if m["type"] == "game" && pred(&m["game"]) {
            return m["game"].clone();
        }
    }
}
