//! Rated online games on a real server: only accounts may play them, and their end moves both
//! players' Glicko-2 ratings exactly as `virada_engine::glicko` computes from the ratings before
//! the game; an aborted game and a casual game move nothing.

use crate::accounts_common::{code, sign_up};
use crate::online_common::*;
use reqwest::StatusCode;
use serde_json::{json, Value};
use virada_engine::glicko::{after_game, Rating};
use virada_server::runtime::time::ManualTime;

/// `name`'s blitz rating as the profile shows it (`None`: no rated blitz game).
pub(crate) async fn blitz(srv: &TestServer, name: &str) -> Option<(Rating, u64, bool)> {
    let (s, p) = srv
        .get(&Browser::new(), &format!("/api/players/{name}"))
        .await;
    assert_eq!(s, StatusCode::OK, "{p}");
    let r = p["ratings"].get("blitz")?;
    let f = |k: &str| r[k].as_f64().unwrap();
    Some((
        Rating::new(f("rating"), f("deviation"), f("volatility")),
        r["games"].as_u64().unwrap(),
        r["provisional"].as_bool().unwrap(),
    ))
}

/// A rated 3+2 game (blitz: 3 min + 40 x 2 s = 4:20), `black` to move first.
pub(crate) async fn rated_game(srv: &TestServer, black: &Browser, white: &Browser) -> String {
    let tc = json!({"kind": "clock", "minutes": 3, "increment_seconds": 2});
    let (s, g) = srv
        .post(
            black,
            "/api/games",
            json!({"mode": "online", "time_control": tc, "color": "black", "rated": true}),
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

/// Both sides move once, then `loser`'s side (`a` is Black) resigns; the finished game.
pub(crate) async fn both_move_then_resign(
    srv: &TestServer,
    id: &str,
    a: &Browser,
    b: &Browser,
    loser: &str,
) {
    let mut wa = srv.ws(a, id).await;
    let mut wb = srv.ws(b, id).await;
    let g = next_game(&mut wa).await;
    next_game(&mut wb).await;
    send(
        &mut wa,
        json!({"type": "move", "square": first_legal(&g), "ply": 0}),
    )
    .await;
    let g = game_at(&mut wb, 1).await;
    send(
        &mut wb,
        json!({"type": "move", "square": first_legal(&g), "ply": 1}),
    )
    .await;
    game_at(&mut wa, 2).await;
    let ws = if loser == "black" { &mut wa } else { &mut wb };
    send(ws, json!({"type": "resign", "ply": 2})).await;
    let g: Value = game_where(ws, |g| g["status"] == "finished").await;
    assert_eq!(
        g["online"]["end"],
        json!({"reason": "resign", "loser": loser})
    );
}

#[tokio::test]
async fn a_rated_game_moves_both_ratings_as_glicko_2_says() {
    let dir = tempfile::tempdir().unwrap();
    let srv = start(&dir.path().join("db.sqlite"), ManualTime::new(T0)).await;
    let (ana, _) = sign_up(&srv, &Browser::new(), "ana", "correct horse").await;
    let (bia, _) = sign_up(&srv, &Browser::new(), "bia", "battery staple").await;

    // A guest can neither make nor join a rated game; an untimed game cannot be rated.
    let guest = Browser::new();
    let tc = json!({"kind": "clock", "minutes": 3, "increment_seconds": 2});
    let (s, v) = srv
        .post(
            &guest,
            "/api/games",
            json!({"mode": "online", "time_control": tc, "name": "G", "rated": true}),
        )
        .await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::UNAUTHORIZED, "sign_in_required"),
        "{v}"
    );
    let (s, v) = srv
        .post(
            &ana,
            "/api/games",
            json!({"mode": "online", "time_control": {"kind": "none"}, "rated": true}),
        )
        .await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::BAD_REQUEST, "rated_needs_time_control"),
        "{v}"
    );
    let (s, v) = srv
        .post(&ana, "/api/games", json!({"mode": "friend", "rated": true}))
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    let tc = json!({"kind": "clock", "minutes": 3, "increment_seconds": 2});
    let (_, g) = srv
        .post(
            &ana,
            "/api/games",
            json!({"mode": "online", "time_control": tc, "color": "black", "rated": true}),
        )
        .await;
    let (s, v) = srv.seat(&guest, g["id"].as_str().unwrap(), "G").await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::UNAUTHORIZED, "sign_in_required"),
        "{v}"
    );

    // Game 1: Bia (White) resigns after a move each: Ana scores 1.
    assert_eq!(blitz(&srv, "ana").await, None);
    let id = rated_game(&srv, &ana, &bia).await;
    both_move_then_resign(&srv, &id, &ana, &bia, "white").await;
    let (want_a, want_b) = after_game(Rating::NEW_PLAYER, Rating::NEW_PLAYER, 1.0);
    let (a1, games, provisional) = blitz(&srv, "ana").await.unwrap();
    assert_eq!((a1, games, provisional), (want_a, 1, true));
    let (b1, games, _) = blitz(&srv, "bia").await.unwrap();
    assert_eq!((b1, games), (want_b, 1));
    assert!(a1.rating > 1500.0 && b1.rating < 1500.0);
    // Only blitz was played; the history has the change.
    let (_, p) = srv.get(&guest, "/api/players/ANA").await;
    assert_eq!(p["ratings"].as_object().unwrap().len(), 1, "{p}");
    assert_eq!(p["history"][0]["game"], id.as_str());
    assert_eq!(p["history"][0]["category"], "blitz");

    // Game 2: from these ratings, Ana (Black again) resigns: she scores 0.
    let id = rated_game(&srv, &ana, &bia).await;
    both_move_then_resign(&srv, &id, &ana, &bia, "black").await;
    let (want_a, want_b) = after_game(a1, b1, 0.0);
    assert_eq!(blitz(&srv, "ana").await.unwrap(), (want_a, 2, true));
    assert_eq!(blitz(&srv, "bia").await.unwrap(), (want_b, 2, true));
    let (_, p) = srv.get(&guest, "/api/players/ana").await;
    assert_eq!(p["history"].as_array().unwrap().len(), 2, "{p}");

    // An aborted rated game and a finished casual one move nothing.
    let id = rated_game(&srv, &ana, &bia).await;
    let mut wa = srv.ws(&ana, &id).await;
    next_game(&mut wa).await;
    send(&mut wa, json!({"type": "abort", "ply": 0})).await;
    let g = game_where(&mut wa, |g| g["status"] == "finished").await;
    assert_eq!(g["online"]["end"]["reason"], "abort");
    let tc = json!({"kind": "clock", "minutes": 3, "increment_seconds": 2});
    let casual = srv.create(&ana, tc, "black").await;
    assert_eq!(casual["online"]["rated"], false);
    let casual = casual["id"].as_str().unwrap().to_string();
    let (s, _) = srv.seat(&bia, &casual, "Bia").await;
    assert_eq!(s, StatusCode::OK);
    both_move_then_resign(&srv, &casual, &ana, &bia, "white").await;
    assert_eq!(blitz(&srv, "ana").await.unwrap(), (want_a, 2, true));
    assert_eq!(blitz(&srv, "bia").await.unwrap(), (want_b, 2, true));
}
