//! Privacy and per-address limits over a real server on port 0: a browser sees only its own
//! local games (another browser gets the 404 of an unknown id), games from before owners go to
//! the first local browser, and bursts, connections and live streams beyond their per-address
//! numbers are refused with 429.

use reqwest::{Client, Method, StatusCode};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use virada_server::http::limits::{LimitsConfig, Rate};
use virada_server::{Server, ServerConfig};

use crate::kit::http::{browser, read_until_closed};

async fn start(config: ServerConfig) -> (Server, String) {
    let server = Server::start(config).await.expect("server starts");
    let base = server.url();
    (server, base)
}

/// Sends a request; the status, the `Retry-After` header and the body as text.
async fn send(req: reqwest::RequestBuilder) -> (StatusCode, Option<String>, String) {
    let r = req.send().await.expect("request sent");
    let status = r.status();
    let retry = r
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_string());
    (status, retry, r.text().await.expect("body"))
}

async fn create(client: &Client, base: &str, body: Value) -> String {
    let (s, _, text) = send(client.post(format!("{base}/api/games")).json(&body)).await;
    assert_eq!(s, StatusCode::CREATED, "{text}");
    let g: Value = serde_json::from_str(&text).unwrap();
    g["id"].as_str().unwrap().to_string()
}

async fn list_ids(client: &Client, base: &str) -> Vec<String> {
    let (s, _, text) = send(client.get(format!("{base}/api/games"))).await;
    assert_eq!(s, StatusCode::OK, "{text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    v["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect()
}

/// Every endpoint on game `id`: (method, path, JSON body).
fn endpoints(id: &str) -> Vec<(Method, String, Option<Value>)> {
    let g = format!("/api/games/{id}");
    vec![
        (Method::GET, g.clone(), None),
        (
            Method::POST,
            format!("{g}/moves"),
            Some(json!({"square": "d6", "ply": 1})),
        ),
        (Method::POST, format!("{g}/undo"), Some(json!({"ply": 1}))),
        (Method::POST, format!("{g}/redo"), Some(json!({"ply": 1}))),
        (Method::GET, format!("{g}/hint"), None),
        (Method::GET, format!("{g}/analysis"), None),
        (Method::GET, format!("{g}/export"), None),
        (Method::GET, format!("{g}/export?format=ggf"), None),
        (Method::DELETE, g, None),
    ]
}

async fn call(
    client: &Client,
    base: &str,
    (method, path, body): &(Method, String, Option<Value>),
) -> (StatusCode, String) {
    let mut req = client.request(method.clone(), format!("{base}{path}"));
    if let Some(body) = body {
        req = req.json(body);
    }
    let (s, _, text) = send(req).await;
    (s, text)
}

#[tokio::test]
async fn another_browser_gets_the_404_of_an_unknown_id_and_an_empty_list() {
    let dir = tempfile::tempdir().unwrap();
    let (server, base) = start(ServerConfig::for_tests(dir.path().join("db.sqlite"))).await;
    let (ana, bia) = (browser(), browser());
    let friend = create(&ana, &base, json!({"mode": "friend"})).await;
    let (s, _, text) = send(
        ana.post(format!("{base}/api/games/{friend}/moves"))
            .json(&json!({"square": "f5", "ply": 0})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{text}");
    let computer = create(
        &ana,
        &base,
        json!({"mode": "computer", "level": 1, "human_color": "black"}),
    )
    .await;
    let (s, _, text) = send(
        ana.post(format!("{base}/api/import"))
            .json(&json!({"text": "f5d6c3"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{text}");
    let imported = serde_json::from_str::<Value>(&text).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let unknown = "g_000000000000";

    for id in [&friend, &computer, &imported] {
        for endpoint in endpoints(id) {
            let (s, body) = call(&bia, &base, &endpoint).await;
            assert_eq!(
                s,
                StatusCode::NOT_FOUND,
                "{} {}: {body}",
                endpoint.0,
                endpoint.1
            );
            // Word for word what an unknown id gets: the id's existence is not revealed.
            let unknown_endpoint = (
                endpoint.0.clone(),
                endpoint.1.replace(id.as_str(), unknown),
                endpoint.2.clone(),
            );
            let (s2, body2) = call(&bia, &base, &unknown_endpoint).await;
            assert_eq!(s2, StatusCode::NOT_FOUND);
            assert_eq!(body.replace(id.as_str(), unknown), body2, "{}", endpoint.1);
            let v: Value = serde_json::from_str(&body).unwrap();
            assert_eq!(v["error"]["code"], "not_found");
        }
    }
    assert!(list_ids(&bia, &base).await.is_empty());
    let mut mine = list_ids(&ana, &base).await;
    mine.sort();
    let mut want = vec![friend.clone(), computer.clone(), imported.clone()];
    want.sort();
    assert_eq!(mine, want);

    // Nothing Bia sent changed Ana's games: the move, undo and delete were refused.
    let (s, _, text) = send(ana.get(format!("{base}/api/games/{friend}"))).await;
    assert_eq!(s, StatusCode::OK);
    let g: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(g["plies"].as_array().unwrap().len(), 1, "{g}");
    // Ana's own requests all work.
    let (s, _, text) = send(ana.get(format!("{base}/api/games/{friend}/export"))).await;
    assert_eq!((s, text.trim()), (StatusCode::OK, "f5"));
    let (s, _, _) = send(ana.delete(format!("{base}/api/games/{friend}"))).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    assert_eq!(list_ids(&ana, &base).await.len(), 2);
    server.shutdown().await;
}

#[tokio::test]
async fn games_from_before_owners_go_to_the_first_local_browser() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let (server, base) = start(ServerConfig::for_tests(db.clone())).await;
    let first = create(&browser(), &base, json!({"mode": "friend"})).await;
    let second = create(&browser(), &base, json!({"mode": "friend"})).await;
    server.shutdown().await;
    forget_owners(&db).await;

    let (server, base) = start(ServerConfig::for_tests(db.clone())).await;
    // A request forwarded by a proxy is not from this machine, even over loopback: the
    // unclaimed games do not exist for it, and it claims nothing.
    let remote = browser();
    let (s, _, _) = send(
        remote
            .get(format!("{base}/api/games/{first}"))
            .header("x-forwarded-for", "203.0.113.9"),
    )
    .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, _, text) = send(
        remote
            .get(format!("{base}/api/games"))
            .header("x-forwarded-for", "203.0.113.9"),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        serde_json::from_str::<Value>(&text).unwrap()["games"],
        json!([])
    );
    // The first local browser to list them gets them all; later browsers get nothing.
    let local = browser();
    assert_eq!(list_ids(&local, &base).await.len(), 2);
    let other = browser();
    assert!(list_ids(&other, &base).await.is_empty());
    let (s, _, _) = send(other.get(format!("{base}/api/games/{first}"))).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, _, _) = send(local.get(format!("{base}/api/games/{second}"))).await;
    assert_eq!(s, StatusCode::OK);
    server.shutdown().await;

    // Opening one (by its link) claims just that one.
    forget_owners(&db).await;
    let (server, base) = start(ServerConfig::for_tests(db)).await;
    let opener = browser();
    let (s, _, _) = send(opener.get(format!("{base}/api/games/{second}"))).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        list_ids(&opener, &base).await.len(),
        2,
        "listing claims the rest"
    );
    let (s, _, _) = send(local.get(format!("{base}/api/games/{second}"))).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    server.shutdown().await;
}

/// Makes every stored game look as if stored before the owner column existed.
async fn forget_owners(db: &Path) {
    crate::kit::rows::exec(db, "UPDATE games SET owner = NULL").await;
}

#[tokio::test]
async fn a_burst_of_new_games_beyond_the_bucket_gets_429_with_retry_after() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = ServerConfig::for_tests(dir.path().join("db.sqlite"));
    config.limits = LimitsConfig::default();
    let (server, base) = start(config).await;
    let client = browser();
    for _ in 0..10 {
        create(&client, &base, json!({"mode": "friend"})).await;
    }
    let (s, retry, text) = send(
        client
            .post(format!("{base}/api/games"))
            .json(&json!({"mode": "friend"})),
    )
    .await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["error"]["code"], "too_many_requests");
    let retry: u64 = retry.expect("Retry-After").parse().unwrap();
    assert!((1..=6).contains(&retry), "{retry}");
    // Imports count as new games too; other requests go on.
    let (s, _, _) = send(
        client
            .post(format!("{base}/api/import"))
            .json(&json!({"text": "f5"})),
    )
    .await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(list_ids(&client, &base).await.len(), 10);
    server.shutdown().await;

    // The general request bucket.
    let mut config = ServerConfig::for_tests(dir.path().join("db2.sqlite"));
    config.limits.api = Rate::new(60, 5);
    let (server, base) = start(config).await;
    for _ in 0..5 {
        let (s, _, _) = send(client.get(format!("{base}/api/health"))).await;
        assert_eq!(s, StatusCode::OK);
    }
    let (s, retry, _) = send(client.get(format!("{base}/api/health"))).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(retry.as_deref(), Some("1"));
    server.shutdown().await;

    // An exempt address (a load test) is not limited.
    let mut config = ServerConfig::for_tests(dir.path().join("db3.sqlite"));
    config.limits = LimitsConfig {
        exempt: vec!["127.0.0.1".parse().unwrap()],
        ..LimitsConfig::default()
    };
    let (server, base) = start(config).await;
    for _ in 0..25 {
        create(&client, &base, json!({"mode": "friend"})).await;
    }
    server.shutdown().await;
}

/// A new game, through a proxy that says it forwards for `client`.
async fn create_for(client: &Client, base: &str, forwarded_for: &str) -> StatusCode {
    let req = client
        .post(format!("{base}/api/games"))
        .header("X-Forwarded-For", forwarded_for)
        .json(&json!({"mode": "friend"}));
    send(req).await.0
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_limits() {
    let dir = tempfile::tempdir().unwrap();
    let client = browser();
    // Not trusted (the default): the header is ignored, every request is the peer's.
    let mut config = ServerConfig::for_tests(dir.path().join("db.sqlite"));
    config.limits = LimitsConfig::default();
    let (server, base) = start(config).await;
    for i in 0..10 {
        let s = create_for(&client, &base, &format!("203.0.113.{i}")).await;
        assert_eq!(s, StatusCode::CREATED);
    }
    let s = create_for(&client, &base, "198.51.100.1").await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS);
    server.shutdown().await;

    // Trusted: the last forwarded address is the client, with its own bucket; a client
    // cannot pick another bucket by writing addresses before the proxy's.
    let mut config = ServerConfig::for_tests(dir.path().join("db2.sqlite"));
    config.limits = LimitsConfig {
        connections_per_ip: 2,
        ..LimitsConfig::default()
    };
    config.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    let (server, base) = start(config).await;
    for _ in 0..10 {
        let s = create_for(&client, &base, "203.0.113.1").await;
        assert_eq!(s, StatusCode::CREATED);
    }
    assert_eq!(
        create_for(&client, &base, "203.0.113.1").await,
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(
        create_for(&client, &base, "198.51.100.9, 203.0.113.1").await,
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(
        create_for(&client, &base, "203.0.113.2").await,
        StatusCode::CREATED
    );
    // The proxy's own connections are not held to the per-address cap (2 here).
    let addr = server.addr();
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(TcpStream::connect(addr).await.unwrap());
    }
    let answer = health_over(addr).await.expect("answered");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    drop(held);
    server.shutdown().await;
}

async fn health_over(addr: SocketAddr) -> Option<String> {
    let mut tcp = TcpStream::connect(addr).await.unwrap();
    let req = format!("GET /api/health HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    tcp.write_all(req.as_bytes()).await.ok()?;
    read_until_closed(&mut tcp, Duration::from_secs(20)).await
}

#[tokio::test]
async fn connections_beyond_the_per_address_cap_are_closed() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = ServerConfig::for_tests(dir.path().join("db.sqlite"));
    config.limits.connections_per_ip = 4;
    let (server, _) = start(config).await;
    let addr = server.addr();
    // Four connections that send nothing (the header timeout is 10 s, far longer than this).
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(TcpStream::connect(addr).await.unwrap());
    }
    // The fifth is answered 429 (or just closed, if the refusal lost the race with its
    // request) at once; a request on it gets no 200.
    let refused = health_over(addr).await.expect("closed, not left waiting");
    assert!(
        refused.is_empty() || refused.starts_with("HTTP/1.1 429"),
        "{refused}"
    );
    // When one closes, a new connection is served.
    drop(held.pop());
    let mut served = false;
    for _ in 0..200 {
        if health_over(addr)
            .await
            .is_some_and(|r| r.starts_with("HTTP/1.1 200"))
        {
            served = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(served, "a freed connection slot was not given back");
    drop(held);
    server.shutdown().await;
}

#[tokio::test]
async fn online_games_are_read_by_anyone_listed_for_their_seats_and_deleted_by_their_creator() {
    let dir = tempfile::tempdir().unwrap();
    let (server, base) = start(ServerConfig::for_tests(dir.path().join("db.sqlite"))).await;
    let (ana, bia, eve) = (browser(), browser(), browser());
    let id = create(
        &ana,
        &base,
        json!({"mode": "online", "color": "black", "name": "Ana"}),
    )
    .await;
    let (s, _, text) = send(
        bia.post(format!("{base}/api/games/{id}/seat"))
            .json(&json!({"name": "Bia"})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{text}");
    // A stranger with the link watches (get, export) but does not see it in its list...
    let (s, _, text) = send(eve.get(format!("{base}/api/games/{id}"))).await;
    assert_eq!(s, StatusCode::OK, "{text}");
    assert_eq!(
        serde_json::from_str::<Value>(&text).unwrap()["online"]["you"],
        Value::Null
    );
    let (s, _, _) = send(eve.get(format!("{base}/api/games/{id}/export"))).await;
    assert_eq!(s, StatusCode::OK);
    assert!(list_ids(&eve, &base).await.is_empty());
    // ...and cannot delete it; nor can the other player: only its creator.
    for who in [&eve, &bia] {
        let (s, _, _) = send(who.delete(format!("{base}/api/games/{id}"))).await;
        assert_eq!(s, StatusCode::NOT_FOUND);
    }
    assert_eq!(list_ids(&ana, &base).await, [id.as_str()]);
    assert_eq!(list_ids(&bia, &base).await, [id.as_str()]);
    // Bia sat down: the creator's delete before both moved aborts the game, which stays for
    // Bia (rated_integrity.rs); an aborted game holds no result, and a second delete removes it.
    let (s, _, _) = send(ana.delete(format!("{base}/api/games/{id}"))).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (_, _, text) = send(bia.get(format!("{base}/api/games/{id}"))).await;
    let g: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(g["online"]["end"]["reason"], "abort", "{g}");
    let (s, _, _) = send(ana.delete(format!("{base}/api/games/{id}"))).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    assert!(list_ids(&bia, &base).await.is_empty());
    server.shutdown().await;
}
