//! The computer levels as rated bots on a real server (port 0, SQLite or PostgreSQL): their
//! fixed ratings, and a rated game against one that moves the player's Glicko-2 rating
//! exactly as `virada_engine::glicko` computes against the bot's fixed rating.

use crate::kit::accounts::{code, sign_up};
use crate::kit::games::play_first;
use crate::kit::online::*;
use reqwest::StatusCode;
use serde_json::{json, Value};
use virada_engine::glicko::{after_game, Rating};
use virada_server::bots::bot_rating;

fn blitz_clock() -> Value {
    json!({"kind": "clock", "minutes": 3, "increment_seconds": 2})
}

/// `name`'s blitz rating and games (`None`: no rated blitz game).
async fn blitz(srv: &TestServer, name: &str) -> Option<(Rating, u64)> {
    let (s, p) = srv
        .get(&Browser::new(), &format!("/api/players/{name}"))
        .await;
    assert_eq!(s, StatusCode::OK, "{p}");
    let r = p["ratings"].get("blitz")?;
    let f = |k: &str| r[k].as_f64().unwrap();
    Some((
        Rating::new(f("rating"), f("deviation"), f("volatility")),
        r["games"].as_u64().unwrap(),
    ))
}

/// `got` is `want` to the last bit but one: the client's JSON parser (serde_json without
/// `float_roundtrip`) may read a 17-digit number one unit in the last place off.
fn same(got: Option<(Rating, u64)>, want: Rating, games: u64) {
    let (r, n) = got.expect("a blitz rating");
    assert_eq!(n, games);
    for (a, b) in [
        (r.rating, want.rating),
        (r.rd, want.rd),
        (r.volatility, want.volatility),
    ] {
        assert!(
            (a - b).abs() <= b.abs() * 4.0 * f64::EPSILON,
            "{r:?} vs {want:?}"
        );
    }
}

async fn computer_game(srv: &TestServer, who: &Browser, body: Value) -> (StatusCode, Value) {
    srv.post(who, "/api/games", body).await
}

/// Plays one move as Black, waits for the computer's answer, then resigns.
async fn move_then_resign(srv: &TestServer, who: &Browser, id: &str) {
    let mut ws = srv.ws(who, id).await;
    let g = next_game(&mut ws).await;
    play_first(&mut ws, &g).await;
    game_at(&mut ws, 2).await;
    send(&mut ws, json!({"type": "resign", "ply": 2})).await;
    let g = game_where(&mut ws, |g| g["status"] == "finished").await;
    assert_eq!(g["end"]["reason"], "resign", "{g}");
}

#[tokio::test]
async fn bots_have_the_ladders_ratings() {
    let (srv, _) = fresh().await;
    let (s, v) = srv.get(&Browser::new(), "/api/bots").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let bots = v["bots"].as_array().unwrap();
    assert_eq!(bots.len(), 21);
    assert_eq!(v["anchor"]["random_mover"], 0.0);
    let mut last = f64::MIN;
    for (i, b) in bots.iter().enumerate() {
        assert_eq!(b["level"], i + 1);
        let cats = b["ratings"].as_object().unwrap();
        assert_eq!(cats.len(), 4, "{b}");
        let r = cats["blitz"]["rating"].as_f64().unwrap();
        assert_eq!(r, bot_rating(i as u8 + 1).unwrap().rating.round());
        assert_eq!(cats["bullet"], cats["classical"]);
        assert!(r > last, "{b}");
        last = r;
    }
    assert_eq!(bots[0]["ratings"]["blitz"]["rating"], 241.0);
}

#[tokio::test]
async fn a_rated_bot_game_moves_only_the_players_rating() {
    let (srv, _) = fresh().await;
    let (ana, _) = sign_up(&srv, &Browser::new(), "ana", "correct horse").await;
    let rated = |tc: Value| {
        json!({"mode": "computer", "level": 3, "human_color": "black", "time_control": tc,
               "rated": true})
    };

    // Only accounts, only with a clock.
    let (s, v) = computer_game(&srv, &Browser::new(), rated(blitz_clock())).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::UNAUTHORIZED, "sign_in_required"),
        "{v}"
    );
    let (s, v) = computer_game(
        &srv,
        &ana,
        json!({"mode": "computer", "level": 3, "rated": true}),
    )
    .await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::BAD_REQUEST, "rated_needs_time_control"),
        "{v}"
    );

    // A rated game: no hints while it runs; a loss moves Ana's rating against level 3's.
    let (s, g) = computer_game(&srv, &ana, rated(blitz_clock())).await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    assert_eq!(g["rated"], true, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let (s, v) = srv.get(&ana, &format!("/api/games/{id}/hint")).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "not_allowed"), "{v}");
    move_then_resign(&srv, &ana, &id).await;
    let bot = bot_rating(3).unwrap();
    let (want, bot_after) = after_game(Rating::NEW_PLAYER, bot, 0.0);
    same(blitz(&srv, "ana").await, want, 1);
    assert!(want.rating < 1500.0);
    // The bot's rating is fixed (the same before and after; Glicko-2 would have moved it).
    assert!(bot_after.rating > bot.rating);
    let (_, v) = srv.get(&Browser::new(), "/api/bots").await;
    assert_eq!(
        v["bots"][2]["ratings"]["blitz"]["rating"],
        bot.rating.round()
    );
    let (_, p) = srv.get(&Browser::new(), "/api/players/ana").await;
    assert_eq!(p["history"][0]["game"], id.as_str(), "{p}");

    // A second one from there, against level 1.
    let (_, g) = computer_game(
        &srv,
        &ana,
        json!({"mode": "computer", "level": 1, "human_color": "black",
               "time_control": blitz_clock(), "rated": true}),
    )
    .await;
    let id = g["id"].as_str().unwrap().to_string();
    move_then_resign(&srv, &ana, &id).await;
    let (want2, _) = after_game(want, bot_rating(1).unwrap(), 0.0);
    same(blitz(&srv, "ana").await, want2, 2);

    // A casual game, and a rated one resigned before a move (aborted): nothing moves.
    let (_, g) = computer_game(
        &srv,
        &ana,
        json!({"mode": "computer", "level": 1, "human_color": "black",
               "time_control": blitz_clock()}),
    )
    .await;
    assert_eq!(g["rated"], false, "{g}");
    move_then_resign(&srv, &ana, g["id"].as_str().unwrap()).await;
    let (_, g) = computer_game(&srv, &ana, rated(blitz_clock())).await;
    let mut ws = srv.ws(&ana, g["id"].as_str().unwrap()).await;
    next_game(&mut ws).await;
    send(&mut ws, json!({"type": "resign", "ply": 0})).await;
    game_where(&mut ws, |g| g["status"] == "finished").await;
    same(blitz(&srv, "ana").await, want2, 2);
}
