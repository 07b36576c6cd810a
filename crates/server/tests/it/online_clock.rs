//! Online clocks with the injected (manual) time source: no sleeps. Increments, flag fall with
//! the 33-31 rule, correspondence deadlines, and a restart that must not charge its downtime.

use crate::kit::games::{play_first, sockets};
use crate::kit::online::*;
use serde_json::json;

#[tokio::test]
async fn increments_and_flag_fall() {
    let (srv, time) = fresh().await;
    let (ana, bia) = (Browser::new(), Browser::new());
    let id = srv
        .started(
            &ana,
            &bia,
            json!({"kind": "clock", "minutes": 1, "increment_seconds": 2}),
        )
        .await;
    let (mut a, mut b, g) = sockets(&srv, &ana, &bia, &id).await;
    let c = &g["online"]["clocks"];
    assert_eq!(
        (c["black_ms"].clone(), c["white_ms"].clone()),
        (json!(60_000), json!(60_000))
    );
    // No clock runs before a side's first move: the game is aborted if it is not made in 30 s.
    assert_eq!(c["running"], json!(null));
    assert_eq!(c["deadline_ms"], json!(null));
    assert_eq!(c["abort_at_ms"], T0 + 30_000);

    // Black's first move after 10 s costs nothing (and adds no increment).
    time.advance(10_000);
    send(&mut a, json!({"type": "move", "square": "d3", "ply": 0})).await;
    let g = game_at(&mut b, 1).await;
    let c = &g["online"]["clocks"];
    assert_eq!(
        (c["black_ms"].clone(), c["white_ms"].clone()),
        (json!(60_000), json!(60_000))
    );
    assert_eq!(
        c["running"],
        json!(null),
        "White's clock waits for its first move"
    );
    assert_eq!(c["abort_at_ms"], T0 + 10_000 + 30_000);
    // White's first move after 5 s: free too; now Black's clock runs.
    time.advance(5_000);
    play_first(&mut b, &g).await;
    let g = game_at(&mut a, 2).await;
    let c = &g["online"]["clocks"];
    assert_eq!(
        (c["black_ms"].clone(), c["white_ms"].clone()),
        (json!(60_000), json!(60_000))
    );
    assert_eq!(c["running"], "black");
    assert_eq!(c["deadline_ms"], T0 + 15_000 + 60_000);
    assert_eq!(c["abort_at_ms"], json!(null));

    // Black thinks 10 s: 60 - 10 + 2 = 52 s.
    time.advance(10_000);
    play_first(&mut a, &g).await;
    let g = game_at(&mut b, 3).await;
    let c = &g["online"]["clocks"];
    assert_eq!(c["black_ms"], 52_000);
    assert_eq!(c["white_ms"], 60_000);
    assert_eq!(c["running"], "white");
    // White thinks 5 s: 57 s.
    time.advance(5_000);
    play_first(&mut b, &g).await;
    let g = game_at(&mut a, 4).await;
    assert_eq!(g["online"]["clocks"]["white_ms"], 57_000);
    assert_eq!(g["online"]["clocks"]["black_ms"], 52_000);

    // Black lets the time run out: the timer ends the game at once, Black loses, and White
    // gets the disc count with the empties.
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
    send(&mut a, json!({"type": "move", "square": "c3", "ply": 4})).await;
    assert_eq!(next_error(&mut a).await["code"], "game_over");
    srv.server.shutdown().await;
}

#[tokio::test]
async fn a_flag_fall_never_gives_the_winner_less_than_33() {
    let (srv, time) = fresh().await;
    let (ana, bia) = (Browser::new(), Browser::new());
    // Black has 40 discs, White 20, 4 empties; both sides make their first move, then White
    // runs out of time and loses with Black's count and the empties (over 33). The other way
    // round: Black out of time, White's count with the empties is under 33: raised to 33-31.
    let for_white = format!(
        "{}{}{}{}{}",
        "X".repeat(32),
        "O".repeat(16),
        "X".repeat(8),
        "O".repeat(4),
        "-".repeat(4)
    );
    let for_black = format!("{}{}{}", "X".repeat(40), "O".repeat(20), "-".repeat(4));
    for (board, side, loser, raised_not_needed) in [
        (for_white, "O", "white", true),
        (for_black, "X", "black", false),
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
        let mut v = srv.ws(&bia, &id).await;
        let mut g = next_game(&mut w).await;
        if g["status"] == "finished" {
            panic!("the set-up position is over: {g}");
        }
        // Both sides make their first move (their clocks start with it); then the loser's
        // clock runs out.
        for _ in 0..2 {
            let ply = plies(&g);
            let mover = if g["side_to_move"] == "black" {
                &mut w
            } else {
                &mut v
            };
            play_first(mover, &g).await;
            g = game_where(&mut w, |x| plies(x) > ply).await;
        }
        assert_eq!(g["side_to_move"], loser, "{g}");
        time.advance(60_000);
        let g = game_where(&mut w, |g| g["status"] == "finished").await;
        assert_eq!(g["online"]["end"]["reason"], "time", "{g}");
        assert_eq!(g["online"]["end"]["loser"], loser, "{g}");
        let r = &g["result"];
        let (bd, wd) = (
            r["black_discs"].as_u64().unwrap(),
            r["white_discs"].as_u64().unwrap(),
        );
        let empties = 64 - bd - wd;
        let winner_count = if loser == "white" { bd } else { wd } + empties;
        let winner = winner_count.max(33);
        let want = if loser == "white" {
            (winner, 64 - winner)
        } else {
            (64 - winner, winner)
        };
        assert_eq!(
            (
                r["black_score"].as_u64().unwrap(),
                r["white_score"].as_u64().unwrap()
            ),
            want
        );
        // The first board gives the winner more than 33; the second is raised to 33.
        assert_eq!(winner_count > 33, raised_not_needed, "{g}");
    }
    srv.server.shutdown().await;
}

#[tokio::test]
async fn correspondence_deadline() {
    let (srv, time) = fresh().await;
    let (ana, bia) = (Browser::new(), Browser::new());
    let id = srv
        .started(&ana, &bia, json!({"kind": "correspondence", "days": 1}))
        .await;
    let day = 24 * 3600 * 1000i64;
    let (mut a, mut b, g) = sockets(&srv, &ana, &bia, &id).await;
    // The first move has a day, and its lack aborts the game rather than losing it.
    assert_eq!(g["online"]["clocks"]["deadline_ms"], json!(null));
    assert_eq!(g["online"]["clocks"]["abort_at_ms"], T0 + day);
    send(&mut a, json!({"type": "move", "square": "d3", "ply": 0})).await;
    let g = game_at(&mut b, 1).await;
    play_first(&mut b, &g).await;
    let g = game_at(&mut a, 2).await;
    assert_eq!(g["online"]["clocks"]["deadline_ms"], T0 + day);
    // Black moves after 20 hours: White then has a whole day.
    time.advance(20 * 3600 * 1000);
    play_first(&mut a, &g).await;
    let g = game_at(&mut a, 3).await;
    assert_eq!(g["online"]["clocks"]["white_ms"], day);
    assert_eq!(g["online"]["clocks"]["black_ms"], day);
    // Takebacks are allowed in correspondence games.
    send(&mut a, json!({"type": "takeback", "ply": 3})).await;
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
    let (srv, time) = fresh().await;
    let db = srv.db.clone();
    let (ana, bia) = (Browser::new(), Browser::new());
    let id = srv
        .started(
            &ana,
            &bia,
            json!({"kind": "clock", "minutes": 3, "increment_seconds": 0}),
        )
        .await;
    let (mut a, mut b, _) = sockets(&srv, &ana, &bia, &id).await;
    // The first moves (free), then Black thinks 10 s.
    send(&mut a, json!({"type": "move", "square": "d3", "ply": 0})).await;
    let g = game_at(&mut b, 1).await;
    play_first(&mut b, &g).await;
    let g = game_at(&mut a, 2).await;
    drop(b);
    time.advance(10_000);
    play_first(&mut a, &g).await;
    game_at(&mut a, 3).await;
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
    assert_eq!(plies(&g), 3, "the acknowledged moves survived");
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
