//! Rated online games on a real server: only accounts may play them, and their end moves both
//! players' Glicko-2 ratings exactly as `virada_engine::glicko` computes from the ratings before
//! the game; an aborted game and a casual game move nothing.

use crate::kit::accounts::code;
use crate::kit::games::a_move_each_then_resign;
use crate::kit::online::*;
use crate::kit::rated::{ana_and_bia, blitz, blitz_clock, rated_game};
use reqwest::StatusCode;
use serde_json::json;
use virada_engine::glicko::{after_game, Rating};

#[tokio::test]
async fn a_rated_game_moves_both_ratings_as_glicko_2_says() {
    let (srv, _) = fresh().await;
    let (ana, bia) = ana_and_bia(&srv).await;

    // A guest can neither make nor join a rated game; an untimed game cannot be rated.
    let guest = Browser::new();
    let tc = blitz_clock();
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
    let tc = blitz_clock();
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
    a_move_each_then_resign(&srv, &id, &ana, &bia, "white").await;
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
    a_move_each_then_resign(&srv, &id, &ana, &bia, "black").await;
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
    let tc = blitz_clock();
    let casual = srv.create(&ana, tc, "black").await;
    assert_eq!(casual["online"]["rated"], false);
    let casual = casual["id"].as_str().unwrap().to_string();
    let (s, _) = srv.seat(&bia, &casual, "Bia").await;
    assert_eq!(s, StatusCode::OK);
    a_move_each_then_resign(&srv, &casual, &ana, &bia, "white").await;
    assert_eq!(blitz(&srv, "ana").await.unwrap(), (want_a, 2, true));
    assert_eq!(blitz(&srv, "bia").await.unwrap(), (want_b, 2, true));
}
