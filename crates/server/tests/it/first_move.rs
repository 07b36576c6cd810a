//! The game's first moves, as on lichess (issue 54 item 1), with the manual clock: no side's
//! clock runs before its own first move; a side of a game between two players that does not
//! make it within 30 s (a day in correspondence) aborts the game: no result, unrated, nobody's
//! record touched; either player may abort until both have moved; in an arena an aborted
//! pairing scores nothing and the absent player is paused; two people on one device may take a
//! clock, which waits for each side's first move. On SQLite, or PostgreSQL with
//! `VIRADA_TEST_STORE`.

use crate::kit::arena::{arena_where, arena_with, game_of, line, post, running};
use crate::kit::games::{a_move_each, play_first, sockets};
use crate::kit::online::*;
use crate::kit::rated::{ana_and_bia, blitz, profile, rated_game};
use reqwest::StatusCode;
use serde_json::{json, Value};

/// `name`'s record on its profile: [wins, draws, losses].
async fn record(srv: &TestServer, name: &str) -> Value {
    let r = &profile(srv, name).await["record"];
    json!([r["wins"], r["draws"], r["losses"]])
}

#[tokio::test]
async fn a_side_that_never_makes_its_first_move_aborts_the_rated_game() {
    let (srv, time) = fresh().await;
    let (ana, bia) = ana_and_bia(&srv).await;

    // Black (Ana) never moves: 1 ms before the 30 s the game still runs, its clock untouched.
    let id = rated_game(&srv, &ana, &bia).await;
    let mut wa = srv.ws(&ana, &id).await;
    let g = next_game(&mut wa).await;
    assert_eq!(g["online"]["clocks"]["abort_at_ms"], T0 + 30_000);
    time.advance(29_999);
    send(&mut wa, json!({"type": "hello", "version": 0})).await;
    let g = next_game(&mut wa).await;
    assert_eq!(g["online"]["phase"], "playing");
    assert_eq!(g["online"]["clocks"]["black_ms"], 180_000, "{g}");
    time.advance(1);
    let g = game_where(&mut wa, |g| g["status"] == "finished").await;
    assert_eq!(
        g["online"]["end"],
        json!({"reason": "abort", "loser": null})
    );
    assert_eq!(g["result"], json!(null), "an aborted game has no result");
    assert_eq!(g["online"]["clocks"]["black_ms"], 180_000);

    // Black moves at once, White (Bia) never does: aborted 30 s after Black's move.
    time.advance(1_000);
    let id = rated_game(&srv, &ana, &bia).await;
    let mut wa = srv.ws(&ana, &id).await;
    let g = next_game(&mut wa).await;
    play_first(&mut wa, &g).await;
    let g = game_at(&mut wa, 1).await;
    let moved_at = T0 + 31_000;
    assert_eq!(g["online"]["clocks"]["abort_at_ms"], moved_at + 30_000);
    assert_eq!(g["online"]["clocks"]["running"], json!(null));
    time.advance(30_000);
    let g = game_where(&mut wa, |g| g["status"] == "finished").await;
    assert_eq!(g["online"]["end"]["reason"], "abort", "{g}");
    assert_eq!(
        (
            g["online"]["clocks"]["black_ms"].clone(),
            g["online"]["clocks"]["white_ms"].clone()
        ),
        (json!(180_000), json!(180_000))
    );
    // A move that arrives after the abort is refused.
    send(&mut wa, json!({"type": "move", "square": "c3", "ply": 1})).await;
    assert_eq!(next_error(&mut wa).await["code"], "game_over");

    // Nobody was rated, both records are clean.
    assert_eq!(blitz(&srv, "ana").await, None);
    assert_eq!(blitz(&srv, "bia").await, None);
    for name in ["ana", "bia"] {
        assert_eq!(record(&srv, name).await, json!([0, 0, 0]), "{name}");
    }
    srv.server.shutdown().await;
}

#[tokio::test]
async fn either_player_may_abort_until_both_have_moved() {
    let (srv, _) = fresh().await;
    let (ana, bia) = (Browser::new(), Browser::new());
    let tc = json!({"kind": "clock", "minutes": 1, "increment_seconds": 0});

    // After Black's move, White aborts.
    let id = srv.started(&ana, &bia, tc.clone()).await;
    let (mut wa, mut wb, g) = sockets(&srv, &ana, &bia, &id).await;
    play_first(&mut wa, &g).await;
    game_at(&mut wb, 1).await;
    send(&mut wb, json!({"type": "abort", "ply": 1})).await;
    let g = game_where(&mut wa, |g| g["status"] == "finished").await;
    assert_eq!(g["online"]["end"]["reason"], "abort");

    // Once both have moved: refused, resign instead; the game goes on.
    let id = srv.started(&ana, &bia, tc).await;
    let (mut wa, _wb, _) = a_move_each(&srv, &ana, &bia, &id).await;
    send(&mut wa, json!({"type": "abort", "ply": 2})).await;
    assert_eq!(next_error(&mut wa).await["code"], "not_allowed");
    assert_eq!(srv.game(&ana, &id).await["online"]["phase"], "playing");
    srv.server.shutdown().await;
}

#[tokio::test]
async fn two_people_on_one_device_take_a_clock_that_waits_for_each_first_move() {
    let (srv, time) = fresh().await;
    let ana = Browser::new();
    let (s, g) = srv
        .post(
            &ana,
            "/api/games",
            json!({"mode": "friend", "time_control": {"kind": "clock", "minutes": 1, "increment_seconds": 0}}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let mut w = srv.ws(&ana, &id).await;
    let g = next_game(&mut w).await;
    assert_eq!(g["clocks"]["running"], json!(null));
    // On one device nobody is waited for: no abort, the clock just waits.
    assert_eq!(g["clocks"]["abort_at_ms"], json!(null));
    time.advance(120_000);
    send(&mut w, json!({"type": "hello", "version": 0})).await;
    let mut g = next_game(&mut w).await;
    assert_eq!(g["status"], "ongoing");
    assert_eq!(g["clocks"]["black_ms"], 60_000);
    // Black's and White's first moves cost nothing; then Black's clock runs, and falls.
    for ply in 0..2 {
        play_first(&mut w, &g).await;
        g = game_at(&mut w, ply + 1).await;
        time.advance(10_000);
        assert_eq!(
            (
                g["clocks"]["black_ms"].clone(),
                g["clocks"]["white_ms"].clone()
            ),
            (json!(60_000), json!(60_000))
        );
    }
    let g = srv.game(&ana, &id).await;
    assert_eq!(g["clocks"]["running"], "black");
    // The 10 s after White's first move are Black's.
    assert_eq!(g["clocks"]["black_ms"], 50_000);
    time.advance(50_000);
    let g = game_where(&mut w, |g| g["status"] == "finished").await;
    assert_eq!(g["end"], json!({"reason": "time", "loser": "black"}));
    srv.server.shutdown().await;
}

#[tokio::test]
async fn an_arena_pairing_aborted_for_want_of_a_first_move_scores_nothing() {
    let (srv, time) = fresh().await;
    let (ana, bia) = ana_and_bia(&srv).await;
    let tc = json!({"kind": "clock", "minutes": 3, "increment_seconds": 0});
    let (id, mut live) = arena_with(
        &srv,
        &[&ana, &bia],
        json!({"name": "Tarde", "time_control": tc, "minutes": 30, "rated": true}),
    )
    .await;
    let a = arena_where(&mut live, |a| !running(a).is_empty()).await;
    let g1 = game_of(&a, "ana", "bia");

    // The game page finds its arena; any other game has none.
    let (s, v) = srv.get(&bia, &format!("/api/games/{g1}/arena")).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["arena"]["id"], id.as_str());
    assert_eq!(v["arena"]["name"], "Tarde");
    let other = srv
        .started(&Browser::new(), &Browser::new(), json!({"kind": "none"}))
        .await;
    let (s, v) = srv.get(&ana, &format!("/api/games/{other}/arena")).await;
    assert_eq!((s, v), (StatusCode::OK, json!({"arena": null})));

    // Ana (Black) moves, Bia never does: aborted after 30 s, no points for anyone, and Bia is
    // paused (not paired again until she rejoins) while Ana waits.
    let mut wa = srv.ws(&ana, &g1).await;
    let g = next_game(&mut wa).await;
    play_first(&mut wa, &g).await;
    game_at(&mut wa, 1).await;
    time.advance(30_000);
    let g = game_where(&mut wa, |g| g["status"] == "finished").await;
    assert_eq!(g["online"]["end"]["reason"], "abort", "{g}");
    let a = arena_where(&mut live, |a| {
        running(a).is_empty() && line(a, "bia")["active"] == false
    })
    .await;
    assert_eq!(a["games"][0]["result"], "aborted", "{a}");
    for name in ["ana", "bia"] {
        assert_eq!(line(&a, name)["points"], 0, "{a}");
    }
    assert_eq!(line(&a, "ana")["active"], true);
    assert_eq!(line(&a, "ana")["playing"], json!(null));
    assert_eq!(blitz(&srv, "ana").await, None);
    // Bia rejoins: paired with Ana again.
    let (s, v) = post(&srv, &bia, &format!("/api/arenas/{id}/join")).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let a = arena_where(&mut live, |a| !running(a).is_empty()).await;
    assert_eq!(running(&a).len(), 1, "{a}");
    srv.server.shutdown().await;
}
