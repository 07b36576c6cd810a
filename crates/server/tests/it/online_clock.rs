//! Online clocks with the injected (manual) time source: no sleeps. Increments, flag fall with
//! the 33-31 rule, correspondence deadlines, and a restart that must not charge its downtime.

use crate::online_common::*;
use serde_json::json;
use virada_server::runtime::time::ManualTime;

#[tokio::test]
async fn increments_and_flag_fall() {
    let dir = tempfile::tempdir().unwrap();
    let time = ManualTime::new(T0);
    let srv = start(&dir.path().join("db.sqlite"), time.clone()).await;
    let (ana, bia) = (Browser::new(), Browser::new());
    let id = srv
        .started(
            &ana,
            &bia,
            json!({"kind": "clock", "minutes": 1, "increment_seconds": 2}),
        )
        .await;
    let mut a = srv.ws(&ana, &id).await;
    let mut b = srv.ws(&bia, &id).await;
    let g = next_game(&mut a).await;
    next_game(&mut b).await;
    let c = &g["online"]["clocks"];
    assert_eq!(
        (c["black_ms"].clone(), c["white_ms"].clone()),
        (json!(60_000), json!(60_000))
    );
    assert_eq!(c["running"], "black");
    assert_eq!(c["deadline_ms"], T0 + 60_000);

    // Black thinks 10 s: 60 - 10 + 2 = 52 s.
    time.advance(10_000);
    send(&mut a, json!({"type": "move", "square": "d3", "ply": 0})).await;
    let g = game_at(&mut b, 1).await;
    let c = &g["online"]["clocks"];
    assert_eq!(c["black_ms"], 52_000);
    assert_eq!(c["white_ms"], 60_000);
    assert_eq!(c["running"], "white");
    // White thinks 5 s: 57 s.
    time.advance(5_000);
    send(
        &mut b,
        json!({"type": "move", "square": first_legal(&g), "ply": 1}),
    )
    .await;
    let g = game_at(&mut a, 2).await;
    assert_eq!(g["online"]["clocks"]["white_ms"], 57_000);
    assert_eq!(g["online"]["clocks"]["black_ms"], 52_000);

    // Black lets the time run out: the timer ends the game at once, Black loses, and White
    // (3 discs + 58 empties would be its count) gets the disc count with the empties.
    time.advance(51_999);
    send(&mut a, json!({"type": "hello", "version": 0})).await;
    let g = next_game(&mut a).await;
    assert_eq!(g["online"]["phase"], "playing");
    assert_eq!(g["online"]["clocks"]["black_ms"], 1);
    time.advance(1);
    let g = game_where(&mut b, |g| g["status"] == "finished").await;
    assert_eq!(
        g["online"]["end"],
        json!({"reason": "time", "loser": "black"})
    );
    assert_eq!(g["online"]["clocks"]["black_ms"], 0);
    assert_eq!(g["online"]["clocks"]["running"], json!(null));
    let r = &g["result"];
    assert_eq!(r["winner"], "white");
    let black_discs = g["black_discs"].as_u64().unwrap();
    assert_eq!(r["black_score"].as_u64().unwrap(), black_discs);
    assert_eq!(r["white_score"].as_u64().unwrap(), 64 - black_discs);
    assert_eq!(g["side_to_move"], json!(null));
    // A move after the flag: the game is over.
    send(&mut a, json!({"type": "move", "square": "c3", "ply": 2})).await;
    assert_eq!(next_error(&mut a).await["code"], "game_over");
    srv.server.shutdown().await;
}

#[tokio::test]
async fn a_flag_fall_never_gives_the_winner_less_than_33() {
    let dir = tempfile::tempdir().unwrap();
    let time = ManualTime::new(T0);
    let srv = start(&dir.path().join("db.sqlite"), time.clone()).await;
    let (ana, bia) = (Browser::new(), Browser::new());
    // Black has 40 discs, White 20, 4 empties; White to move runs out of time... and loses
    // 44-20. The other way round: Black to move, out of time, White's 20 + 4 would be 24: 33-31.
    // (White can move on e8 in the first board; Black on e8 in the second.)
    let for_white = format!(
        "{}{}{}{}{}",
        "X".repeat(32),
        "O".repeat(16),
        "X".repeat(8),
        "O".repeat(4),
        "-".repeat(4)
    );
    let for_black = format!("{}{}{}", "X".repeat(40), "O".repeat(20), "-".repeat(4));
    for (board, side, loser, want) in [
        (for_white, "O", "white", (44, 20)),
        (for_black, "X", "black", (31, 33)),
    ] {
        let (s, g) = srv
            .post(
                &ana,
                "/api/games",
                json!({"mode": "online", "name": "Ana", "color": "black", "start": "setup",
                       "setup": format!("{board} {side}"),
                       "time_control": {"kind": "clock", "minutes": 1, "increment_seconds": 0}}),
            )
            .await;
        assert_eq!(s, reqwest::StatusCode::CREATED, "{g}");
        let id = g["id"].as_str().unwrap().to_string();
        srv.seat(&bia, &id, "Bia").await;
        let mut w = srv.ws(&ana, &id).await;
        let g = next_game(&mut w).await;
        if g["status"] == "finished" {
            panic!("the set-up position is over: {g}");
        }
        time.advance(60_000);
        let g = game_where(&mut w, |g| g["status"] == "finished").await;
        assert_eq!(g["online"]["end"]["loser"], loser, "{g}");
        let r = &g["result"];
        assert_eq!(
            (
                r["black_score"].as_u64().unwrap(),
                r["white_score"].as_u64().unwrap()
            ),
            want
        );
        assert_eq!(
            (r["black_discs"].clone(), r["white_discs"].clone()),
            (json!(40), json!(20))
        );
    }
    srv.server.shutdown().await;
}

#[tokio::test]
async fn correspondence_deadline() {
    let dir = tempfile::tempdir().unwrap();
    let time = ManualTime::new(T0);
    let srv = start(&dir.path().join("db.sqlite"), time.clone()).await;
    let (ana, bia) = (Browser::new(), Browser::new());
    let id = srv
        .started(&ana, &bia, json!({"kind": "correspondence", "days": 1}))
        .await;
    let day = 24 * 3600 * 1000i64;
    let mut a = srv.ws(&ana, &id).await;
    let g = next_game(&mut a).await;
    assert_eq!(g["online"]["clocks"]["deadline_ms"], T0 + day);
    // Black moves after 20 hours: White then has a whole day.
    time.advance(20 * 3600 * 1000);
    send(&mut a, json!({"type": "move", "square": "d3", "ply": 0})).await;
    let g = game_at(&mut a, 1).await;
    assert_eq!(g["online"]["clocks"]["white_ms"], day);
    assert_eq!(g["online"]["clocks"]["black_ms"], day);
    // Takebacks are allowed in correspondence games.
    send(&mut a, json!({"type": "takeback", "ply": 1})).await;
    game_where(&mut a, |g| g["online"]["offers"]["takeback"] == "black").await;
    time.advance(day);
    let g = game_where(&mut a, |g| g["status"] == "finished").await;
    assert_eq!(
        g["online"]["end"],
        json!({"reason": "deadline", "loser": "white"})
    );
    assert_eq!(g["result"]["winner"], "black");
    srv.server.shutdown().await;
}

#[tokio::test]
async fn a_restart_mid_game_restores_the_clock_without_the_downtime() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let time = ManualTime::new(T0);
    let srv = start(&db, time.clone()).await;
    let (ana, bia) = (Browser::new(), Browser::new());
    let id = srv
        .started(
            &ana,
            &bia,
            json!({"kind": "clock", "minutes": 3, "increment_seconds": 0}),
        )
        .await;
    let mut a = srv.ws(&ana, &id).await;
    next_game(&mut a).await;
    time.advance(10_000);
    send(&mut a, json!({"type": "move", "square": "d3", "ply": 0})).await;
    game_at(&mut a, 1).await;
    send(&mut a, json!({"type": "chat", "text": "your move"})).await;
    next_of(&mut a, "chat").await;
    // White thinks 20 s, then the server stops, and stays down for an hour.
    time.advance(20_000);
    drop(a);
    srv.server.shutdown().await;
    time.advance(3600 * 1000);
    let srv = start(&db, time.clone()).await;
    let g = srv.game(&ana, &id).await;
    let c = &g["online"]["clocks"];
    assert_eq!(c["running"], "white");
    assert_eq!(c["black_ms"], 170_000);
    assert_eq!(c["white_ms"], 160_000, "the downtime is not charged");
    assert_eq!(plies(&g), 1, "the acknowledged move survived");
    assert_eq!(g["online"]["you"], "black", "seats survive");
    assert_eq!(srv.game(&bia, &id).await["online"]["you"], "white");
    assert_eq!(g["online"]["seats"]["white"]["name"], "Bia");
    assert_eq!(g["online"]["chat"][0]["text"], "your move", "chat survives");
    // The clock runs again, and its flag still falls (the game's actor is started with the
    // server, not only when someone opens it).
    time.advance(160_000);
    let mut watch = srv.ws(&Browser::new(), &id).await;
    let g = game_where(&mut watch, |g| g["status"] == "finished").await;
    assert_eq!(
        g["online"]["end"],
        json!({"reason": "time", "loser": "white"})
    );
    srv.server.shutdown().await;
}
