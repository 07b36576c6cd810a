//! Finding F1 of issue 39, as the probe found it: one client inside every documented limit
//! keeps ten level-21 games thinking, and another client's level-1 game must still get the
//! computer's reply first. A real server on port 0 with the real engine and one engine worker,
//! behind a trusted proxy so that the two clients have their own addresses
//! (`X-Forwarded-For`).
//!
//! The test asserts an order, not a time: the level-1 reply must come while none of the ten
//! level-21 games has its reply. With one first-come-first-served line for every computer
//! move (the pool before the fair queue) the level-1 move waited behind all ten level-21
//! searches, so the first level-21 reply came first and this test fails there.

use futures_util::StreamExt;
use reqwest::{Client, StatusCode};
use serde_json::{json, Value};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use virada_rules::{Color, Game, Move};
use virada_server::http::limits::LimitsConfig;
use virada_server::{Server, ServerConfig};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// One browser (its own cookie) at one forwarded address.
struct Browser {
    client: Client,
    cookie: String,
    address: &'static str,
    base: String,
}

impl Browser {
    fn new(server: &Server, address: &'static str) -> Browser {
        let token = virada_server::identity::new_token().unwrap();
        Browser {
            client: Client::new(),
            cookie: format!("virada_id={token}"),
            address,
            base: server.url(),
        }
    }

    async fn send(&self, req: reqwest::RequestBuilder) -> (StatusCode, Value) {
        let r = req
            .header("x-forwarded-for", self.address)
            .header("cookie", &self.cookie)
            .send()
            .await
            .unwrap();
        let status = r.status();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    async fn create(&self, body: Value) -> Value {
        let (s, g) = self
            .send(
                self.client
                    .post(format!("{}/api/games", self.base))
                    .json(&body),
            )
            .await;
        assert_eq!(s, StatusCode::CREATED, "{g}");
        g
    }

    async fn game(&self, id: &str) -> Value {
        let (s, g) = self
            .send(self.client.get(format!("{}/api/games/{id}", self.base)))
            .await;
        assert_eq!(s, StatusCode::OK, "{g}");
        g
    }

    async fn ws(&self, id: &str) -> Ws {
        let url = format!(
            "{}/api/games/{id}/ws",
            self.base.replace("http://", "ws://")
        );
        let mut req = url.into_client_request().unwrap();
        let h = req.headers_mut();
        h.insert("cookie", self.cookie.parse().unwrap());
        h.insert("x-forwarded-for", self.address.parse().unwrap());
        tokio_tungstenite::connect_async(req)
            .await
            .expect("WebSocket opens")
            .0
    }
}

/// The plies of the next `game` message on `ws` (other messages are skipped).
async fn next_plies(ws: &mut Ws) -> usize {
    loop {
        // A safety limit only (a hang becomes a failure); the order is what is asserted.
        let msg = tokio::time::timeout(Duration::from_secs(120), ws.next())
            .await
            .expect("a message")
            .expect("socket open")
            .expect("no error");
        let Message::Text(t) = msg else { continue };
        let m: Value = serde_json::from_str(t.as_str()).unwrap();
        if m["type"] == "game" {
            return m["game"]["plies"].as_array().unwrap().len();
        }
    }
}

/// A middle-game position far from the opening book (each side plays its last legal move in
/// square order; forced passes allowed): level 21 searches it for its whole time instead of
/// playing a book move. Its moves, its plies and the side to move.
fn out_of_book() -> (String, usize, Color) {
    let mut game = Game::new();
    for _ in 0..20 {
        let Some(sq) = game.position().legal_moves().iter().last() else {
            break;
        };
        game.play(Move::Play(sq)).unwrap();
        game.play_forced_passes();
    }
    assert!(!game.position().is_game_over());
    let text = game
        .moves()
        .iter()
        .filter(|m| **m != Move::Pass)
        .map(|m| m.to_string())
        .collect();
    (text, game.ply(), game.position().side_to_move())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_expensive_games_of_one_address_do_not_hold_up_a_level_1_reply() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = ServerConfig::for_tests(dir.path().join("db.sqlite"));
    // Every documented limit as shipped, one engine worker, and the server's cap above level
    // 21's own 10 s: each level-21 search runs for its whole time.
    config.limits = LimitsConfig::default();
    config.engine_workers = 1;
    config.move_time_limit = Duration::from_secs(30);
    config.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    let server = Server::start(config).await.expect("server starts");
    let heavy = Browser::new(&server, "203.0.113.10");
    let light = Browser::new(&server, "198.51.100.20");

    let (setup, plies, computer) = out_of_book();
    // The person takes the other colour: the computer is to move in every heavy game.
    let human = match computer {
        Color::Black => "white",
        Color::White => "black",
    };
    let mut busy = Vec::new();
    for _ in 0..10 {
        let g = heavy
            .create(json!({
                "mode": "computer", "level": 21, "human_color": human, "setup": setup.clone()
            }))
            .await;
        assert_eq!(g["plies"].as_array().unwrap().len(), plies, "{g}");
        busy.push(g["id"].as_str().unwrap().to_string());
    }
    // The first heavy game's search started first: its reply is the first of the ten.
    let mut first_heavy = heavy.ws(&busy[0]).await;
    assert_eq!(next_plies(&mut first_heavy).await, plies);

    // The computer has black and moves first.
    let g = light
        .create(json!({"mode": "computer", "level": 1, "human_color": "white"}))
        .await;
    let mut light_ws = light.ws(g["id"].as_str().unwrap()).await;
    loop {
        tokio::select! {
            n = next_plies(&mut light_ws) => if n > 0 { break },
            n = next_plies(&mut first_heavy) => assert_eq!(
                n, plies,
                "a level-21 reply of the busy address came before the other address's level-1 reply"
            ),
        }
    }
    // None of the heavy games has its reply yet.
    for id in &busy {
        let g = heavy.game(id).await;
        assert_eq!(g["plies"].as_array().unwrap().len(), plies, "{g}");
    }
    server.shutdown().await;
}
