//! Arenas: one made and joined by N players, its live socket, and the waits on its standings.

#![allow(dead_code)]

use super::online::*;
use futures_util::StreamExt;
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

/// A socket on arena `id`'s live standings, as `who`.
pub async fn arena_ws(srv: &TestServer, who: &Browser, id: &str) -> Ws {
    srv.socket(who, &format!("/api/arenas/{id}/ws")).await
}

/// The next `arena` message's arena for which `pred` holds.
pub async fn arena_where(ws: &mut Ws, pred: impl Fn(&Value) -> bool) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("an arena message in time")
            .expect("socket open")
            .expect("no error");
        let Message::Text(t) = msg else { continue };
        let m: Value = serde_json::from_str(t.as_str()).unwrap();
        assert_eq!(m["type"], "arena", "{m}");
        if pred(&m["arena"]) {
            return m["arena"].clone();
        }
    }
}

/// A `POST` with an empty body (joining, withdrawing).
pub async fn post(srv: &TestServer, who: &Browser, path: &str) -> (StatusCode, Value) {
    srv.post(who, path, json!({})).await
}

/// `who` joins arena `id` (200 expected).
pub async fn join(srv: &TestServer, who: &Browser, id: &str) {
    let (s, a) = post(srv, who, &format!("/api/arenas/{id}/join")).await;
    assert_eq!(s, StatusCode::OK, "{a}");
}

/// An arena made by `players[0]` with `body` and joined by every one of `players`: its id, and a
/// guest's socket on it, opened before the joins (so no push that shows them is missed).
pub async fn arena_with(srv: &TestServer, players: &[&Browser], body: Value) -> (String, Ws) {
    let (s, a) = srv.post(players[0], "/api/arenas", body).await;
    assert_eq!(s, StatusCode::CREATED, "{a}");
    let id = a["id"].as_str().unwrap().to_string();
    let live = arena_ws(srv, &Browser::new(), &id).await;
    for who in players {
        join(srv, who, &id).await;
    }
    (id, live)
}

/// The running games of `a` as (black, white) usernames.
pub fn running(a: &Value) -> Vec<(String, String)> {
    a["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["result"].is_null())
        .map(|g| {
            (
                g["black"].as_str().unwrap().to_string(),
                g["white"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// A pairing as [`running`] lists it.
pub fn pair(b: &str, w: &str) -> (String, String) {
    (b.to_string(), w.to_string())
}

/// `name`'s line of the standings.
pub fn line<'a>(a: &'a Value, name: &str) -> &'a Value {
    a["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["username"] == name)
        .unwrap_or_else(|| panic!("{name} in {a}"))
}

/// The running game `black` plays against `white`.
pub fn game_of(a: &Value, black: &str, white: &str) -> String {
    let g = a["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["result"].is_null() && g["black"] == black && g["white"] == white)
        .unwrap_or_else(|| panic!("{black}-{white} running in {a}"));
    g["id"].as_str().unwrap().to_string()
}
