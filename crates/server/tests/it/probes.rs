//! The server's answers to the probes of issue 13: stale and duplicated requests, deletion
//! racing with loads, cross-site requests, statuses, and connection limits. A real
//! server on port 0 with a temporary database, driven over HTTP (reqwest) and raw TCP.

use reqwest::StatusCode;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use virada_server::ServerConfig;

use crate::kit::http::{error_code, plies, read_until_closed, TestServer};

impl TestServer {
    async fn create_id(&self, body: Value) -> String {
        crate::kit::http::id_of(&self.create(body).await)
    }
}

#[tokio::test]
async fn requests_carry_their_ply_and_stale_ones_are_refused() {
    let t = TestServer::fresh().await;
    let id = t.create_id(json!({"mode": "friend"})).await;
    let moves = format!("/api/games/{id}/moves");

    // 50 concurrent "first moves" (as from a double click, a retry, two tabs): exactly one is
    // played; every other is stale and carries the game as it is now.
    let mut tasks = Vec::new();
    for i in 0..50 {
        let (client, url) = (t.client.clone(), format!("{}{moves}", t.base));
        let sq = ["d3", "c4", "f5", "e6"][i % 4];
        tasks.push(tokio::spawn(async move {
            let r = client
                .post(url)
                .json(&json!({"square": sq, "ply": 0}))
                .send()
                .await
                .unwrap();
            (r.status(), r.json::<Value>().await.unwrap())
        }));
    }
    let mut played = 0;
    for task in tasks {
        let (s, body) = task.await.unwrap();
        if s == StatusCode::OK {
            played += 1;
            assert_eq!(plies(&body), 1);
        } else {
            assert_eq!(s, StatusCode::CONFLICT, "{body}");
            assert_eq!(error_code(&body), "stale");
            assert_eq!(plies(&body["game"]), 1, "{body}");
            assert_eq!(body["game"]["side_to_move"], "white");
        }
    }
    assert_eq!(played, 1);

    // Friend games: Black's move replayed after White's cannot be played for White.
    let (_, g) = t.get(&format!("/api/games/{id}")).await;
    let white = g["legal_moves"][0].as_str().unwrap().to_string();
    let (s, g) = t.post(&moves, json!({"square": white, "ply": 1})).await;
    assert_eq!(s, StatusCode::OK, "{g}");
    let legal_for_black = g["legal_moves"][0].as_str().unwrap().to_string();
    let (s, e) = t
        .post(&moves, json!({"square": legal_for_black, "ply": 1}))
        .await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert_eq!(error_code(&e), "stale");
    assert_eq!(plies(&e["game"]), 2);

    // Undo and redo too; the ply is required everywhere.
    let (s, e) = t
        .post(&format!("/api/games/{id}/undo"), json!({"ply": 1}))
        .await;
    assert_eq!((s, error_code(&e)), (StatusCode::CONFLICT, "stale"));
    let (s, u) = t
        .post(&format!("/api/games/{id}/undo"), json!({"ply": 2}))
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(plies(&u), 1);
    let (s, e) = t
        .post(&format!("/api/games/{id}/redo"), json!({"ply": 2}))
        .await;
    assert_eq!((s, error_code(&e)), (StatusCode::CONFLICT, "stale"));
    for (path, body) in [
        ("undo", json!({})),
        ("redo", json!({})),
        ("moves", json!({"square": "d3"})),
    ] {
        let (s, e) = t.post(&format!("/api/games/{id}/{path}"), body).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{path}");
        let m = e["error"]["message"].as_str().unwrap();
        assert!(m.contains("missing field `ply`"), "{path}: {m}");
    }
    t.server.shutdown().await;
}

#[tokio::test]
async fn delete_wins_against_concurrent_loads() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let t = TestServer::start(&db).await;
    let mut ids = Vec::new();
    for _ in 0..30 {
        ids.push(t.create_id(json!({"mode": "friend"})).await);
    }
    let browser = t.client.clone();
    t.server.shutdown().await;
    // A fresh server: every game is cold, so each GET below loads it from the database while
    // the DELETE runs. The same browser asks (the games are its own), over 120 connections at
    // once: more than one address may hold by default (64).
    let mut config = ServerConfig::for_tests(db.clone());
    config.limits.connections_per_ip = 256;
    let mut t = TestServer::with(config).await;
    t.client = browser;
    let mut tasks = Vec::new();
    for id in &ids {
        for i in 0..4 {
            let (client, base, id) = (t.client.clone(), t.base.clone(), id.clone());
            tasks.push(tokio::spawn(async move {
                let url = format!("{base}/api/games/{id}");
                let r = if i == 1 {
                    client.delete(url).send().await
                } else {
                    client.get(url).send().await
                };
                r.unwrap().status()
            }));
        }
    }
    for task in tasks {
        let s = task.await.unwrap();
        assert!(
            [
                StatusCode::OK,
                StatusCode::NO_CONTENT,
                StatusCode::NOT_FOUND
            ]
            .contains(&s),
            "{s}"
        );
    }
    for id in &ids {
        let (s, e) = t.get(&format!("/api/games/{id}")).await;
        assert_eq!(s, StatusCode::NOT_FOUND, "deleted game {id} came back: {e}");
    }
    // And none stays in memory.
    t.wait_health("active_games", 0).await;
    let (_, list) = t.get("/api/games").await;
    assert_eq!(list["games"], json!([]));
    t.server.shutdown().await;
}

/// Sends raw bytes and reads until the server closes the connection (at most `guard`, a bound
/// that only keeps a failing test from hanging).
async fn raw_exchange(addr: SocketAddr, request: &[u8], guard: Duration) -> Option<String> {
    let mut tcp = TcpStream::connect(addr).await.unwrap();
    tcp.write_all(request).await.unwrap();
    read_until_closed(&mut tcp, guard).await
}

/// `None` when the connection is still open after `guard`.
fn json_of(response: &str) -> Value {
    let body = response.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    serde_json::from_str(body).unwrap_or(Value::Null)
}

#[tokio::test]
async fn cross_site_requests_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let t = TestServer::start(&dir.path().join("db.sqlite")).await;
    let id = t.create_id(json!({"mode": "friend"})).await;
    let url = |p: &str| format!("{}{p}", t.base);

    // A "simple" cross-site form post needs no preflight: refused for its content type.
    for ct in [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
    ] {
        let (s, e) = t
            .send(
                t.client
                    .post(url(&format!("/api/games/{id}/moves")))
                    .header("content-type", ct)
                    .body(r#"{"square":"f5","ply":0}"#),
            )
            .await;
        assert_eq!(s, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{ct}");
        assert_eq!(error_code(&e), "unsupported_media_type");
    }
    let (s, e) = t
        .send(
            t.client
                .post(url("/api/games"))
                .body(r#"{"mode":"friend"}"#),
        )
        .await;
    assert_eq!(
        (s, error_code(&e)),
        (StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type")
    );

    // Another site's page, even with the right content type (after a preflight the server never
    // approves, or from a browser that skips it).
    let evil = t
        .client
        .post(url(&format!("/api/games/{id}/moves")))
        .header("origin", "http://evil.example")
        .json(&json!({"square": "f5", "ply": 0}));
    let (s, e) = t.send(evil).await;
    assert_eq!(
        (s, error_code(&e)),
        (StatusCode::FORBIDDEN, "forbidden_origin")
    );
    let (s, _) = t
        .send(
            t.client
                .delete(url(&format!("/api/games/{id}")))
                .header("origin", "null"),
        )
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, g) = t.get(&format!("/api/games/{id}")).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(plies(&g), 0, "nothing was played");
    // The server's own page.
    let own = format!("http://{}", t.addr());
    let (s, g) = t
        .send(
            t.client
                .post(url(&format!("/api/games/{id}/moves")))
                .header("origin", own)
                .json(&json!({"square": "f5", "ply": 0})),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{g}");

    // DNS rebinding: a foreign name that resolves to this machine.
    let guard = Duration::from_secs(20);
    for host in [
        "evil.example:PORT",
        "evil.example",
        "127.0.0.1.evil.example:PORT",
    ] {
        let host = host.replace("PORT", &t.addr().port().to_string());
        let req =
            format!("GET /api/games/{id} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
        let resp = raw_exchange(t.addr(), req.as_bytes(), guard).await.unwrap();
        assert!(resp.starts_with("HTTP/1.1 421"), "{host}: {resp}");
        assert_eq!(error_code(&json_of(&resp)), "misdirected_host");
    }
    let req = format!(
        "GET /api/health HTTP/1.1\r\nHost: localhost:{}\r\nConnection: close\r\n\r\n",
        t.addr().port()
    );
    let resp = raw_exchange(t.addr(), req.as_bytes(), guard).await.unwrap();
    assert!(resp.starts_with("HTTP/1.1 200"), "{resp}");
    t.server.shutdown().await;

    // Behind a reverse proxy: its public name is allowed when configured.
    let mut config = ServerConfig::for_tests(dir.path().join("db2.sqlite"));
    config.allowed_hosts = vec!["virada.example.org".into()];
    let t = TestServer::with(config).await;
    let req = "GET /api/health HTTP/1.1\r\nHost: virada.example.org\r\nOrigin: https://virada.example.org\r\nConnection: close\r\n\r\n";
    let resp = raw_exchange(t.addr(), req.as_bytes(), guard).await.unwrap();
    assert!(resp.starts_with("HTTP/1.1 200"), "{resp}");
    t.server.shutdown().await;
}

#[tokio::test]
async fn statuses_and_bodies_are_checked() {
    let t = TestServer::fresh().await;
    // Wrong methods on the app's paths: a JSON 405.
    for path in ["/", "/assets/app.js", "/rules"] {
        let (s, e) = t
            .send(t.client.post(format!("{}{path}", t.base)).json(&json!({})))
            .await;
        assert_eq!(s, StatusCode::METHOD_NOT_ALLOWED, "{path}");
        assert_eq!(error_code(&e), "method_not_allowed", "{path}");
    }
    // Unknown API paths are JSON 404s, never the app's HTML.
    for path in ["/api", "/api/", "/api/nothing", "/api/games/x/y/z"] {
        let (s, e) = t.get(path).await;
        assert_eq!(s, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(error_code(&e), "not_found", "{path}");
    }
    // An array in place of the object.
    let (s, e) = t.post("/api/games", json!(["computer", 21, "white"])).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(e["error"]["message"]
        .as_str()
        .unwrap()
        .contains("JSON object"));
    // Unknown fields are named.
    let (s, e) = t
        .post("/api/games", json!({"mode": "friend", "colour": "white"}))
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let m = e["error"]["message"].as_str().unwrap();
    assert!(m.contains("unknown field `colour`"), "{m}");
    // Levels: none in friend games, 1..=21 in computer games.
    for level in [999, 3] {
        let (s, e) = t
            .post("/api/games", json!({"mode": "friend", "level": level}))
            .await;
        assert_eq!(s, StatusCode::BAD_REQUEST);
        let m = e["error"]["message"].as_str().unwrap();
        assert!(m.contains("friend game has no level"), "{m}");
    }
    let (s, e) = t
        .post("/api/import", json!({"text": "f5", "human_color": "white"}))
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    for level in [0, 22, -1, 999] {
        let (s, e) = t
            .post("/api/games", json!({"mode": "computer", "level": level}))
            .await;
        assert_eq!(s, StatusCode::BAD_REQUEST);
        let m = e["error"]["message"].as_str().unwrap();
        assert!(m.contains(&format!("level {level} is out of range")), "{m}");
    }
    // Typed query strings.
    let (s, _) = t.get("/api/games?status=won").await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let (s, _) = t.get("/api/games?status=").await;
    assert_eq!(s, StatusCode::OK);
    let (s, h) = t.get("/api/health").await;
    assert_eq!(s, StatusCode::OK);
    for key in [
        "active_games",
        "loading_games",
        "engine_workers",
        "engine_jobs",
        "connections",
        "max_connections",
    ] {
        assert!(h[key].is_u64(), "{key}: {h}");
    }
    t.server.shutdown().await;
}

#[tokio::test]
async fn idle_and_half_sent_connections_are_closed_and_capped() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = ServerConfig::for_tests(dir.path().join("db.sqlite"));
    config.max_connections = 8;
    config.header_timeout = Duration::from_millis(300);
    config.body_timeout = Duration::from_millis(300);
    let t = TestServer::with(config).await;
    let guard = Duration::from_secs(20);

    // Many idle connections (five times the cap) that never send a byte: the server still
    // answers, because each is closed after the header timeout.
    let mut idle = Vec::new();
    for _ in 0..40 {
        idle.push(TcpStream::connect(t.addr()).await.unwrap());
    }
    let (s, h) = t.get("/api/health").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(h["max_connections"], 8);
    for tcp in idle.iter_mut().take(8) {
        assert!(
            read_until_closed(tcp, guard).await.is_some(),
            "idle connection left open"
        );
    }

    // A request head that never ends.
    let host = t.addr().to_string();
    let half = format!("POST /api/games HTTP/1.1\r\nHost: {host}\r\nContent-Type: appl");
    assert!(
        raw_exchange(t.addr(), half.as_bytes(), guard)
            .await
            .is_some(),
        "a half-sent head must be timed out"
    );
    // A body that never ends: 408 with a JSON error.
    let half = format!(
        "POST /api/games HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"mo"
    );
    let resp = raw_exchange(t.addr(), half.as_bytes(), guard)
        .await
        .expect("a half-sent body must be timed out");
    assert!(resp.starts_with("HTTP/1.1 408"), "{resp}");
    assert_eq!(error_code(&json_of(&resp)), "request_timeout");
    // A kept-alive connection that goes quiet after a request is closed too.
    let mut tcp = TcpStream::connect(t.addr()).await.unwrap();
    let req = format!("GET /api/health HTTP/1.1\r\nHost: {host}\r\n\r\n");
    tcp.write_all(req.as_bytes()).await.unwrap();
    let resp = read_until_closed(&mut tcp, guard)
        .await
        .expect("an idle kept-alive connection must be closed");
    assert!(resp.starts_with("HTTP/1.1 200"), "{resp}");
    t.server.shutdown().await;
}
