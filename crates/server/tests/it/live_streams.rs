//! The per-address cap on live channels (`streams_per_ip`, docs/SECURITY.md) on the game
//! WebSocket: an address holding as many sockets as it may is refused another (429
//! `too_many_requests` before the upgrade), another address still gets in, and a closed socket
//! frees its place. A real server on port 0 behind a trusted proxy, so that clients have their
//! own addresses (`X-Forwarded-For`).

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use virada_server::http::limits::LimitsConfig;
use virada_server::{Server, ServerConfig};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

const CAP: usize = 3;

/// Opens the game's socket as `cookie` from `address`: the socket, or the HTTP status and
/// error code of the refusal.
async fn open(base: &str, id: &str, cookie: &str, address: &str) -> Result<Ws, (u16, Value)> {
    let url = format!("{}/api/games/{id}/ws", base.replace("http://", "ws://"));
    let mut req = url.into_client_request().unwrap();
    let h = req.headers_mut();
    h.insert("cookie", cookie.parse().unwrap());
    h.insert("x-forwarded-for", address.parse().unwrap());
    match tokio_tungstenite::connect_async(req).await {
        Ok((ws, _)) => Ok(ws),
        Err(WsError::Http(r)) => {
            let body = r.body().clone().unwrap_or_default();
            Err((
                r.status().as_u16(),
                serde_json::from_slice(&body).unwrap_or(Value::Null),
            ))
        }
        Err(e) => panic!("unexpected WebSocket failure: {e}"),
    }
}

/// The first message of a socket: the game.
async fn first_game(ws: &mut Ws) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a message in time")
            .expect("socket open")
            .expect("no error");
        if let Message::Text(t) = msg {
            let m: Value = serde_json::from_str(t.as_str()).unwrap();
            if m["type"] == "game" {
                return m;
            }
        }
    }
}

#[tokio::test]
async fn an_address_holds_at_most_its_cap_of_game_sockets() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = ServerConfig::for_tests(dir.path().join("db.sqlite"));
    config.limits = LimitsConfig {
        streams_per_ip: CAP,
        ..LimitsConfig::default()
    };
    config.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    let server = Server::start(config).await.expect("server starts");
    let base = server.url();
    let cookie = format!(
        "virada_id={}",
        virada_server::identity::new_token().unwrap()
    );
    let r = reqwest::Client::new()
        .post(format!("{base}/api/games"))
        .header("cookie", &cookie)
        .header("x-forwarded-for", "203.0.113.7")
        .json(&serde_json::json!({"mode": "friend"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201);
    let g: Value = r.json().await.unwrap();
    let id = g["id"].as_str().unwrap().to_string();

    let mut sockets = Vec::new();
    for _ in 0..CAP {
        let mut ws = open(&base, &id, &cookie, "203.0.113.7")
            .await
            .expect("within the cap");
        assert_eq!(first_game(&mut ws).await["game"]["id"], id.as_str());
        sockets.push(ws);
    }
    let Err((status, body)) = open(&base, &id, &cookie, "203.0.113.7").await else {
        panic!("one socket over the cap is refused");
    };
    assert_eq!(status, 429, "{body}");
    assert_eq!(body["error"]["code"], "too_many_requests", "{body}");
    // The same browser from another address has its own count.
    let mut other = open(&base, &id, &cookie, "198.51.100.7")
        .await
        .expect("another address gets in");
    assert_eq!(first_game(&mut other).await["game"]["id"], id.as_str());

    // A closed socket frees its place (the server notices the close: wait for it).
    let mut closing = sockets.pop().unwrap();
    closing.send(Message::Close(None)).await.unwrap();
    drop(closing);
    let mut reopened = None;
    for _ in 0..500 {
        match open(&base, &id, &cookie, "203.0.113.7").await {
            Ok(ws) => {
                reopened = Some(ws);
                break;
            }
            Err((429, _)) => tokio::time::sleep(Duration::from_millis(10)).await,
            Err(other) => panic!("unexpected refusal {other:?}"),
        }
    }
    let mut reopened = reopened.expect("the place of the closed socket is free again");
    assert_eq!(first_game(&mut reopened).await["game"]["id"], id.as_str());
    server.shutdown().await;
}
