//! Clocks and resignation in games on one device, against a real server on port 0: the
//! person's clock runs on their turn and their flag falls (stored, surviving a restart), a
//! resignation ends the game with its result, and the computer budgets its thinking from its
//! own clock so that it never loses on time.

use crate::kit::games::play_first;
use crate::kit::online::*;
use serde_json::{json, Value};
use std::time::Duration;
use virada_server::runtime::time::{Clock, ManualTime};

async fn create(srv: &TestServer, who: &Browser, body: Value) -> String {
    let (s, g) = srv.post(who, "/api/games", body).await;
    assert_eq!(s, reqwest::StatusCode::CREATED, "{g}");
    g["id"].as_str().unwrap().to_string()
}

/// The line of game `id` in `who`'s list.
async fn listed(srv: &TestServer, who: &Browser, id: &str) -> Value {
    let (s, list) = srv.get(who, "/api/games").await;
    assert_eq!(s, reqwest::StatusCode::OK);
    list["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id)
        .cloned()
        .expect("the game is listed")
}

#[tokio::test]
async fn the_persons_clock_runs_on_their_turn_and_their_flag_falls() {
    let (srv, time) = fresh().await;
    let db = srv.db.clone();
    let ana = Browser::new();
    let id = create(
        &srv,
        &ana,
        json!({"mode": "computer", "level": 1, "human_color": "black",
               "time_control": {"kind": "clock", "minutes": 1, "increment_seconds": 2}}),
    )
    .await;
    let mut w = srv.ws(&ana, &id).await;
    let g = next_game(&mut w).await;
    assert_eq!(
        g["time_control"],
        json!({"kind": "clock", "minutes": 1, "increment_seconds": 2})
    );
    assert_eq!(g["online"], json!(null), "not an online game");
    let c = &g["clocks"];
    assert_eq!(
        (c["black_ms"].clone(), c["white_ms"].clone()),
        (json!(60_000), json!(60_000))
    );
    // Each side's clock starts with its own first move.
    assert_eq!(c["running"], json!(null));
    assert_eq!(c["deadline_ms"], json!(null));
    assert_eq!(
        c["abort_at_ms"],
        json!(null),
        "nobody is waited for on one device"
    );

    // Ana's first move after 10 s costs nothing, nor the computer's answer.
    time.advance(10_000);
    send(&mut w, json!({"type": "move", "square": "d3", "ply": 0})).await;
    let g = game_where(&mut w, |g| {
        plies(g) >= 2 && !g["computer_thinking"].as_bool().unwrap()
    })
    .await;
    assert_eq!(g["clocks"]["black_ms"], 60_000);
    assert_eq!(g["clocks"]["white_ms"], 60_000);
    assert_eq!(g["clocks"]["running"], "black");
    assert_eq!(g["clocks"]["deadline_ms"], T0 + 10_000 + 60_000);

    // Ana thinks 10 s: 60 - 10 + 2. The computer answers (the manual clock does not move
    // while it thinks: it gets its increment).
    time.advance(10_000);
    let ply = plies(&g);
    play_first(&mut w, &g).await;
    let g = game_where(&mut w, |g| {
        plies(g) >= ply + 2 && !g["computer_thinking"].as_bool().unwrap()
    })
    .await;
    assert_eq!(g["clocks"]["black_ms"], 52_000);
    assert_eq!(g["clocks"]["white_ms"], 62_000);
    assert_eq!(g["clocks"]["running"], "black");
    // No moves back on a clock.
    send(&mut w, json!({"type": "undo", "ply": plies(&g)})).await;
    assert_eq!(next_error(&mut w).await["code"], "not_allowed");

    // Ana lets her time run out: the flag falls, stored, and she loses by the 33-31 rule.
    time.advance(51_999);
    send(&mut w, json!({"type": "hello", "version": 0})).await;
    let g = next_game(&mut w).await;
    assert_eq!(g["status"], "ongoing");
    assert_eq!(g["clocks"]["black_ms"], 1);
    time.advance(1);
    let g = game_where(&mut w, |g| g["status"] == "finished").await;
    assert_eq!(g["end"], json!({"reason": "time", "loser": "black"}));
    assert_eq!(g["clocks"]["black_ms"], 0);
    assert_eq!(g["clocks"]["running"], json!(null));
    assert_eq!(g["result"]["winner"], "white");
    assert_eq!(g["legal_moves"], json!([]));
    let black_discs = g["black_discs"].as_u64().unwrap();
    assert_eq!(
        g["result"]["white_score"].as_u64().unwrap(),
        64 - black_discs
    );
    let ply = plies(&g);
    send(&mut w, json!({"type": "move", "square": "c3", "ply": ply})).await;
    assert_eq!(next_error(&mut w).await["code"], "game_over");

    // A second game: its clock survives a restart without the downtime, and its flag falls
    // while nobody watches it.
    let other = create(
        &srv,
        &ana,
        json!({"mode": "computer", "level": 1, "human_color": "black",
               "time_control": {"kind": "clock", "minutes": 1, "increment_seconds": 0}}),
    )
    .await;
    // A move each (the clocks start with them), then 15 s of Ana's.
    let mut o = srv.ws(&ana, &other).await;
    next_game(&mut o).await;
    send(&mut o, json!({"type": "move", "square": "d3", "ply": 0})).await;
    game_where(&mut o, |g| {
        plies(g) >= 2 && !g["computer_thinking"].as_bool().unwrap()
    })
    .await;
    time.advance(15_000);
    drop((w, o));
    srv.server.shutdown().await;
    time.advance(3600 * 1000);
    let srv = start(&db, time.clone()).await;
    let g = srv.game(&ana, &id).await;
    assert_eq!(
        g["end"],
        json!({"reason": "time", "loser": "black"}),
        "stored"
    );
    assert_eq!(listed(&srv, &ana, &id).await["end_reason"], "time");
    let g = srv.game(&ana, &other).await;
    assert_eq!(
        g["clocks"]["black_ms"], 45_000,
        "the downtime is not charged"
    );
    assert_eq!(g["clocks"]["running"], "black");
    time.advance(45_000);
    // The scheduler stores the flag fall; the next look finds it.
    let mut finished = Value::Null;
    for _ in 0..100 {
        let (_, l) = srv.get(&ana, "/api/games?status=finished").await;
        if let Some(g) = l["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == other)
        {
            finished = g.clone();
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(finished["end_reason"], "time", "the flag fell unwatched");
    srv.server.shutdown().await;
}

#[tokio::test]
async fn resigning_on_one_device_ends_the_game_with_its_result() {
    let (srv, time) = fresh().await;
    let db = srv.db.clone();
    let ana = Browser::new();

    // Against the computer (no clock): Ana resigns, even before moving.
    let id = create(
        &srv,
        &ana,
        json!({"mode": "computer", "level": 1, "human_color": "white"}),
    )
    .await;
    let mut w = srv.ws(&ana, &id).await;
    let g = game_where(&mut w, |g| {
        plies(g) == 1 && !g["computer_thinking"].as_bool().unwrap()
    })
    .await;
    assert_eq!(g["clocks"], json!(null));
    assert_eq!(g["time_control"], json!({"kind": "none"}));
    // A stale resignation is refused as stale.
    send(&mut w, json!({"type": "resign", "ply": 0})).await;
    assert_eq!(next_error(&mut w).await["code"], "stale");
    send(&mut w, json!({"type": "resign", "ply": 1})).await;
    let g = game_where(&mut w, |g| g["status"] == "finished").await;
    assert_eq!(g["end"], json!({"reason": "resign", "loser": "white"}));
    // 4 black discs, 1 white, 59 empties: Black gets 63 by the 33-31 rule's count.
    assert_eq!(
        (
            g["result"]["winner"].clone(),
            g["result"]["black_score"].clone(),
            g["result"]["white_score"].clone()
        ),
        (json!("black"), json!(63), json!(1))
    );
    assert_eq!(g["side_to_move"], json!(null));
    for msg in [
        json!({"type": "move", "square": "c3", "ply": 1}),
        json!({"type": "undo", "ply": 1}),
        json!({"type": "resign", "ply": 1}),
    ] {
        send(&mut w, msg).await;
        assert_eq!(next_error(&mut w).await["code"], "game_over");
    }
    let (_, ggf) = srv
        .get_text(&ana, &format!("/api/games/{id}/export?format=ggf"))
        .await;
    assert!(ggf.contains("RE[+62:r]"), "{ggf}");

    // Between friends on one device the side to move resigns.
    let friends = create(&srv, &ana, json!({"mode": "friend"})).await;
    let mut f = srv.ws(&ana, &friends).await;
    next_game(&mut f).await;
    send(&mut f, json!({"type": "move", "square": "d3", "ply": 0})).await;
    game_at(&mut f, 1).await;
    send(&mut f, json!({"type": "resign", "ply": 1})).await;
    let g = game_where(&mut f, |g| g["status"] == "finished").await;
    assert_eq!(g["end"], json!({"reason": "resign", "loser": "white"}));

    // Both are stored: after a restart, in the game and in the list.
    drop((w, f));
    srv.server.shutdown().await;
    let srv = start(&db, time.clone()).await;
    for (game, loser) in [(&id, "white"), (&friends, "white")] {
        let g = srv.game(&ana, game).await;
        assert_eq!(g["status"], "finished");
        assert_eq!(g["end"], json!({"reason": "resign", "loser": loser}));
        let line = listed(&srv, &ana, game).await;
        assert_eq!(
            (line["status"].clone(), line["end_reason"].clone()),
            (json!("finished"), json!("resign"))
        );
    }
    // Only a computer game takes a clock, and never days per move.
    let (s, e) = srv
        .post(
            &ana,
            "/api/games",
            json!({"mode": "computer", "time_control": {"kind": "correspondence", "days": 2}}),
        )
        .await;
    assert_eq!(
        (s, e["error"]["code"].clone()),
        (reqwest::StatusCode::BAD_REQUEST, json!("bad_request"))
    );
    let (s, _) = srv
        .post(
            &ana,
            "/api/games",
            json!({"mode": "friend", "time_control": {"kind": "correspondence", "days": 1}}),
        )
        .await;
    assert_eq!(s, reqwest::StatusCode::BAD_REQUEST);
    srv.server.shutdown().await;
}

/// The strongest level on a 1-minute clock without increment, on the system clock, a whole
/// game: after each of its moves the computer has time left (its level's own cap alone, up to
/// 10 s a move, would spend the minute within a few moves), and the game ends on the board.
#[tokio::test]
async fn the_computer_budgets_its_moves_from_its_clock() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let srv = start_with(&db, ManualTime::new(T0), |c| {
        c.clock = Clock::system();
        c.move_time_limit = Duration::from_secs(30);
    })
    .await;
    let ana = Browser::new();
    let id = create(
        &srv,
        &ana,
        json!({"mode": "computer", "level": 21, "human_color": "black",
               "time_control": {"kind": "clock", "minutes": 1, "increment_seconds": 0}}),
    )
    .await;
    let mut w = srv.ws(&ana, &id).await;
    let mut g = next_game(&mut w).await;
    let mut computer_moves = 0;
    let mut least_left = i64::MAX;
    loop {
        if g["status"] == "finished" {
            break;
        }
        if g["computer_thinking"].as_bool().unwrap() || g["side_to_move"] != "black" {
            let before = plies(&g);
            g = game_where(&mut w, |x| {
                x["status"] == "finished"
                    || (plies(x) > before && !x["computer_thinking"].as_bool().unwrap())
            })
            .await;
            computer_moves += 1;
            let left = g["clocks"]["white_ms"].as_i64().unwrap();
            assert!(left > 0, "the computer flagged: {g}");
            least_left = least_left.min(left);
            continue;
        }
        let ply = plies(&g);
        play_first(&mut w, &g).await;
        g = game_where(&mut w, |x| plies(x) > ply || x["status"] == "finished").await;
    }
    assert_eq!(g["end"]["reason"], "normal", "{g}");
    assert!(
        computer_moves >= 10,
        "a whole game: {computer_moves} computer moves"
    );
    assert!(least_left < 60_000, "its clock ran");
    let stored = srv.game(&ana, &id).await;
    assert!(stored["clocks"]["white_ms"].as_i64().unwrap() > 0);
    srv.server.shutdown().await;
}
