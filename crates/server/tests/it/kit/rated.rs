//! Accounts and rated play: accounts signed in, a rated game between two of them, and the
//! ratings and records their public profiles show.

#![allow(dead_code)]

use super::accounts::sign_up;
use super::online::*;
use reqwest::StatusCode;
use serde_json::{json, Value};
use virada_engine::glicko::Rating;

/// The password the kit gives an account (each of the usual names its own).
pub fn password(name: &str) -> &'static str {
    match name {
        "bia" => "battery staple",
        "cai" => "staple horse",
        "dan" => "horse battery",
        _ => "correct horse",
    }
}

/// Signs up each of `names` from a browser of its own (with [`password`]): the browsers,
/// signed in, in the same order.
pub async fn accounts<const N: usize>(srv: &TestServer, names: [&str; N]) -> [Browser; N] {
    let mut out = Vec::with_capacity(N);
    for name in names {
        out.push(sign_up(srv, &Browser::new(), name, password(name)).await.0);
    }
    out.try_into().unwrap_or_else(|_| unreachable!())
}

/// The accounts `ana` and `bia`, signed in.
pub async fn ana_and_bia(srv: &TestServer) -> (Browser, Browser) {
    let [ana, bia] = accounts(srv, ["ana", "bia"]).await;
    (ana, bia)
}

/// The blitz clock, 3+2 (3 min + 40 x 2 s = 4:20).
pub fn blitz_clock() -> Value {
    json!({"kind": "clock", "minutes": 3, "increment_seconds": 2})
}

/// A rated 3+2 game made by `black` and taken by `white`, playing, `black` to move first.
pub async fn rated_game(srv: &TestServer, black: &Browser, white: &Browser) -> String {
    let (s, g) = srv
        .post(
            black,
            "/api/games",
            json!({"mode": "online", "time_control": blitz_clock(), "color": "black",
                   "rated": true}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    assert_eq!(g["online"]["rated"], true);
    let id = g["id"].as_str().unwrap().to_string();
    let (s, g) = srv.seat(white, &id, "ignored").await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["online"]["phase"], "playing");
    id
}

/// `name`'s public profile (200 expected).
pub async fn profile(srv: &TestServer, name: &str) -> Value {
    let (s, p) = srv
        .get(&Browser::new(), &format!("/api/players/{name}"))
        .await;
    assert_eq!(s, StatusCode::OK, "{p}");
    p
}

/// `name`'s rating in `category` as its profile shows it, with its rated games and whether it
/// is provisional (`None`: no rated game in the category).
pub async fn rating(srv: &TestServer, name: &str, category: &str) -> Option<(Rating, u64, bool)> {
    let p = profile(srv, name).await;
    let r = p["ratings"].get(category)?;
    let f = |k: &str| r[k].as_f64().unwrap();
    Some((
        Rating::new(f("rating"), f("deviation"), f("volatility")),
        r["games"].as_u64().unwrap(),
        r["provisional"].as_bool().unwrap(),
    ))
}

/// `name`'s blitz rating ([`rating`]).
pub async fn blitz(srv: &TestServer, name: &str) -> Option<(Rating, u64, bool)> {
    rating(srv, name, "blitz").await
}

/// `name`'s record on its profile: [wins, draws, losses, aborted].
pub async fn record(srv: &TestServer, name: &str) -> Value {
    let r = &profile(srv, name).await["record"];
    json!([r["wins"], r["draws"], r["losses"], r["aborted"]])
}
