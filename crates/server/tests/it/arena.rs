//! Arena tournaments on a real server (port 0, manual clock): four accounts join, are paired when
//! the window opens and as they join, are paired again as soon as a game ends (avoiding an
//! immediate rematch when someone else waits), score 2 a win with the streak bonus, stop being
//! paired at the window's end (a game running then still counts), and a rated arena game moves
//! both ratings as Glicko-2 says; standings arrive over the arena's live socket. Then who may
//! do what, and the limits.

use crate::kit::accounts::{call, code, sign_up};
use crate::kit::arena::*;
use crate::kit::games::{a_move_each, resign};
use crate::kit::online::*;
use crate::kit::rated::{accounts, ana_and_bia, blitz_clock, rating};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use std::time::Duration;
use virada_engine::glicko::{after_game, Rating};
use virada_server::runtime::time::ManualTime;
use virada_server::util::iso8601;

const MINUTE: i64 = 60_000;

/// `name`'s classical rating as the profile shows it.
async fn classical(srv: &TestServer, name: &str) -> Option<Rating> {
    rating(srv, name, "classical").await.map(|r| r.0)
}

#[tokio::test]
async fn four_players_are_paired_scored_and_rated() {
    let (srv, time) = fresh().await;
    let [ana, bia, cai, dan] = accounts(&srv, ["ana", "bia", "cai", "dan"]).await;

    // A rated classical arena (30+0: 30 min), starting in 10 minutes, 5 minutes long.
    let tc = json!({"kind": "clock", "minutes": 30, "increment_seconds": 0});
    let (s, a) = srv
        .post(
            &ana,
            "/api/arenas",
            json!({"name": "Noite", "time_control": tc, "minutes": 5, "rated": true,
                   "starts_at": iso8601(T0 + 10 * MINUTE)}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{a}");
    assert_eq!(a["status"], "upcoming");
    assert_eq!(a["category"], "classical");
    assert_eq!(a["creator"], "ana");
    let id = a["id"].as_str().unwrap().to_string();
    let (_, list) = srv.get(&Browser::new(), "/api/arenas").await;
    assert_eq!(list["upcoming"][0]["id"], id.as_str(), "{list}");

    // A spectator follows the standings.
    let mut live = arena_ws(&srv, &Browser::new(), &id).await;
    arena_where(&mut live, |a| a["status"] == "upcoming").await;

    // Ana and Bia join before the start: nobody plays yet.
    for who in [&ana, &bia] {
        join(&srv, who, &id).await;
    }
    let a = arena_where(&mut live, |a| a["players"] == 2).await;
    assert!(running(&a).is_empty(), "{a}");

    // The window opens: the two waiting are paired (equal: the first to join plays Black).
    time.advance(10 * MINUTE);
    let a = arena_where(&mut live, |a| !running(a).is_empty()).await;
    assert_eq!(a["status"], "running");
    assert_eq!(running(&a), [pair("ana", "bia")]);
    let g1 = game_of(&a, "ana", "bia");
    assert_eq!(line(&a, "ana")["playing"], g1.as_str());
    // The game is rated, already playing, with both seats held by the accounts.
    let g = srv.game(&ana, &g1).await;
    assert_eq!(g["online"]["rated"], true);
    assert_eq!(g["online"]["phase"], "playing");
    assert_eq!(g["online"]["you"], "black");

    // Cai joins: alone waiting; Dan joins: paired with Cai at once.
    post(&srv, &cai, &format!("/api/arenas/{id}/join")).await;
    let a = arena_where(&mut live, |a| a["players"] == 3).await;
    assert_eq!(running(&a).len(), 1, "{a}");
    post(&srv, &dan, &format!("/api/arenas/{id}/join")).await;
    let a = arena_where(&mut live, |a| running(a).len() == 2).await;
    let g2 = game_of(&a, "cai", "dan");

    // Cai resigns: Dan scores 2; both are paired again at once (nobody else waits): Dan has
    // played White more, so Dan plays Black.
    resign(&srv, &cai, &g2).await;
    let a = arena_where(&mut live, |a| running(a).contains(&pair("dan", "cai"))).await;
    assert_eq!(line(&a, "dan")["points"], 2);
    let g3 = game_of(&a, "dan", "cai");
    // Again: Dan has two wins in a row: on fire.
    resign(&srv, &cai, &g3).await;
    let a = arena_where(&mut live, |a| running(a).contains(&pair("cai", "dan"))).await;
    assert_eq!(line(&a, "dan")["points"], 4);
    assert_eq!(line(&a, "dan")["fire"], true);
    let g5 = game_of(&a, "cai", "dan");
    // Dan withdraws (paused) while playing; the game goes on and counts double.
    let (s, a) = post(&srv, &dan, &format!("/api/arenas/{id}/withdraw")).await;
    assert_eq!(s, StatusCode::OK, "{a}");
    assert_eq!(line(&a, "dan")["active"], false);
    resign(&srv, &cai, &g5).await;
    let a = arena_where(&mut live, |a| line(a, "dan")["points"] == 8).await;
    let dan_line = line(&a, "dan");
    assert_eq!(
        dan_line["sheet"],
        json!([
        {"points": 2, "outcome": "win", "double": false},
        {"points": 2, "outcome": "win", "double": false},
        {"points": 4, "outcome": "win", "double": true}])
    );
    assert_eq!(dan_line["fire"], true);
    assert_eq!(line(&a, "cai")["losses"], 3);
    // Cai waits alone: Dan is paused.
    assert_eq!(running(&a), [pair("ana", "bia")]);

    // Game 1: a move each, then Bia resigns: Ana scores 2, and the ratings move.
    {
        let (_wa, mut wb, _) = a_move_each(&srv, &ana, &bia, &g1).await;
        send(&mut wb, json!({"type": "resign", "ply": 2})).await;
        game_where(&mut wb, |g| g["status"] == "finished").await;
    }
    // Ana, Bia and Cai wait: Ana (first) does not meet Bia again while Cai waits.
    let a = arena_where(&mut live, |a| {
        line(a, "ana")["points"] == 2 && !running(a).is_empty()
    })
    .await;
    assert_eq!(running(&a), [pair("ana", "cai")], "{a}");
    assert!(line(&a, "bia")["playing"].is_null());
    let (want_a, want_b) = after_game(Rating::NEW_PLAYER, Rating::NEW_PLAYER, 1.0);
    assert_eq!(classical(&srv, "ana").await, Some(want_a));
    assert_eq!(classical(&srv, "bia").await, Some(want_b));
    // Games resigned before each side moved are scored but not rated.
    assert_eq!(classical(&srv, "dan").await, None);
    let g6 = game_of(&a, "ana", "cai");
    // A move each (a game whose side to move never moves is aborted after 30 s).
    a_move_each(&srv, &ana, &cai, &g6).await;

    // The window closes with Ana-Cai running: nobody is paired any more (Bia still waits).
    time.advance(5 * MINUTE);
    let a = arena_where(&mut live, |a| a["status"] == "finished").await;
    assert_eq!(running(&a), [pair("ana", "cai")]);
    // The game running at the end still counts: Ana's second win in a row.
    resign(&srv, &cai, &g6).await;
    let a = arena_where(&mut live, |a| running(a).is_empty()).await;
    let ranks: Vec<(&str, u64, bool)> = a["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["username"].as_str().unwrap(),
                l["points"].as_u64().unwrap(),
                l["fire"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        ranks,
        [
            ("dan", 8, true),
            ("ana", 4, true),
            ("bia", 0, false),
            ("cai", 0, false)
        ],
        "{a}"
    );
    assert_eq!(a["standings"][0]["rank"], 1);
    // Joining a finished arena is refused; the standings stay after a restart.
    let (s, v) = post(&srv, &bia, &format!("/api/arenas/{id}/join")).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::CONFLICT, "arena_finished"),
        "{v}"
    );
    let db = srv.db.clone();
    srv.server.shutdown().await;
    let srv = start(&db, time.clone()).await;
    let (s, b) = srv.get(&Browser::new(), &format!("/api/arenas/{id}")).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["standings"], a["standings"]);
    let (_, list) = srv.get(&Browser::new(), "/api/arenas").await;
    assert_eq!(list["finished"][0]["id"], id.as_str(), "{list}");
}

#[tokio::test]
async fn only_accounts_make_and_join_arenas_within_the_limits() {
    let (srv, time) = fresh().await;
    let (ana, bia) = ana_and_bia(&srv).await;
    let guest = Browser::new();
    let tc = blitz_clock();
    let body = |name: &str| json!({"name": name, "time_control": tc, "minutes": 60});

    // Guests can neither make nor join an arena.
    let (s, v) = srv.post(&guest, "/api/arenas", body("G")).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::UNAUTHORIZED, "sign_in_required"),
        "{v}"
    );
    let (s, a) = srv.post(&ana, "/api/arenas", body("Tarde")).await;
    assert_eq!(s, StatusCode::CREATED, "{a}");
    assert_eq!(a["status"], "running");
    let id = a["id"].as_str().unwrap().to_string();
    let (s, v) = post(&srv, &guest, &format!("/api/arenas/{id}/join")).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::UNAUTHORIZED, "sign_in_required"),
        "{v}"
    );

    // Withdrawing is only ever oneself: Bia, not a player, cannot; Ana's place is untouched.
    join(&srv, &ana, &id).await;
    let (s, v) = post(&srv, &bia, &format!("/api/arenas/{id}/withdraw")).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "not_in_arena"), "{v}");
    let (s, v) = srv
        .post(
            &bia,
            &format!("/api/arenas/{id}/withdraw"),
            json!({"username": "ana"}),
        )
        .await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    let (_, a) = srv.get(&guest, &format!("/api/arenas/{id}")).await;
    assert_eq!(line(&a, "ana")["active"], true);
    let (s, v) = post(&srv, &guest, &format!("/api/arenas/{id}/withdraw")).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED, "{v}");

    // Bia joins: paired with Ana. Both join a second arena of Ana's: not paired there while
    // they play here.
    let mut tarde = arena_ws(&srv, &guest, &id).await;
    post(&srv, &bia, &format!("/api/arenas/{id}/join")).await;
    let a = arena_where(&mut tarde, |a| running(a).len() == 1).await;
    let first = game_of(&a, "ana", "bia");
    let (s, n) = srv.post(&ana, "/api/arenas", body("Noite")).await;
    assert_eq!(s, StatusCode::CREATED, "{n}");
    let noite_id = n["id"].as_str().unwrap().to_string();
    let mut noite = arena_ws(&srv, &guest, &noite_id).await;
    for who in [&ana, &bia] {
        post(&srv, who, &format!("/api/arenas/{noite_id}/join")).await;
    }
    let n = arena_where(&mut noite, |a| a["players"] == 2).await;
    assert!(running(&n).is_empty(), "{n}");
    // Their game's owner (White) deletes it: it counts as aborted, and they play again, in
    // one arena or the other.
    let (s, _, _) = call(
        &srv,
        &bia,
        Method::DELETE,
        &format!("/api/games/{first}"),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let a = arena_where(&mut tarde, |a| {
        a["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["result"] == "aborted")
    })
    .await;
    assert_eq!(line(&a, "ana")["points"], 0);
    let (_, a) = srv.get(&guest, &format!("/api/arenas/{id}")).await;
    let (_, n) = srv.get(&guest, &format!("/api/arenas/{noite_id}")).await;
    assert_eq!(running(&a).len() + running(&n).len(), 1, "{a} {n}");

    // Bad input: clear codes, never a panic.
    for bad in [
        json!({"name": "", "time_control": tc, "minutes": 60}),
        json!({"name": "x".repeat(41), "time_control": tc, "minutes": 60}),
        json!({"name": "A", "time_control": {"kind": "none"}, "minutes": 60}),
        json!({"name": "A", "time_control": {"kind": "correspondence", "days": 1}, "minutes": 60}),
        json!({"name": "A", "time_control": {"kind": "clock", "minutes": 31, "increment_seconds": 0}, "minutes": 60}),
        json!({"name": "A", "time_control": tc, "minutes": 4}),
        json!({"name": "A", "time_control": tc, "minutes": 361}),
        json!({"name": "A", "time_control": tc, "minutes": 60, "starts_at": "tomorrow"}),
        json!({"name": "A", "time_control": tc, "minutes": 60, "starts_at": iso8601(T0 + 8 * 24 * 60 * MINUTE)}),
        json!({"name": "A", "time_control": tc, "minutes": 60, "extra": 1}),
    ] {
        let (s, v) = srv.post(&ana, "/api/arenas", bad.clone()).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{bad} -> {v}");
    }
    for missing in ["/api/arenas/a_000000000000", "/api/arenas/nope"] {
        let (s, _) = srv.get(&guest, missing).await;
        assert_eq!(s, StatusCode::NOT_FOUND);
    }
    let (s, _) = post(&srv, &ana, "/api/arenas/a_000000000000/join").await;
    assert_eq!(s, StatusCode::NOT_FOUND);

    // Two open arenas per account: the third waits until one ends.
    let (s, v) = srv.post(&ana, "/api/arenas", body("Madrugada")).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::TOO_MANY_REQUESTS, "too_many_arenas"),
        "{v}"
    );
    assert_eq!(v["error"]["params"]["limit"], "open_per_account");
    // Both end; three more make five in 24 hours: the sixth is refused.
    time.advance(61 * MINUTE);
    for n in 0..3 {
        let (s, v) = srv.post(&ana, "/api/arenas", body(&format!("R{n}"))).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        time.advance(61 * MINUTE);
    }
    let (s, v) = srv.post(&ana, "/api/arenas", body("R3")).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::TOO_MANY_REQUESTS, "too_many_arenas"),
        "{v}"
    );
    assert_eq!(v["error"]["params"]["limit"], "per_day");
    // Bia's own count is her own.
    let (s, _) = srv.post(&bia, "/api/arenas", body("Bia")).await;
    assert_eq!(s, StatusCode::CREATED);
}

/// Two instances on one PostgreSQL database: players join through either; the arena is paired
/// by one instance only (its lease), so nobody gets two games.
#[tokio::test]
async fn two_instances_pair_an_arena_once() {
    // Two instances share a store only on PostgreSQL: this test runs there whichever store the
    // other tests use (without a PostgreSQL server: fails under CI, else a logged skip).
    if virada_testdata::postgres_url().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let time = ManualTime::new(T0);
    let db = dir.path().join("db.sqlite");
    let on_postgres = |c: &mut virada_server::ServerConfig| {
        c.postgres = Some(virada_server::config::PgTarget::for_test_path(&db));
    };
    let one = start_with(&db, time.clone(), on_postgres).await;
    let two = start_with(&db, time.clone(), on_postgres).await;
    let mut players = Vec::new();
    for (i, name) in ["ana", "bia", "cai", "dan"].into_iter().enumerate() {
        let srv = if i % 2 == 0 { &one } else { &two };
        let (who, _) = sign_up(srv, &Browser::new(), name, "correct horse").await;
        players.push(who);
    }
    let tc = blitz_clock();
    let (s, a) = one
        .post(
            &players[0],
            "/api/arenas",
            json!({"name": "Dois", "time_control": tc, "minutes": 60}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{a}");
    let id = a["id"].as_str().unwrap().to_string();
    for (i, who) in players.iter().enumerate() {
        join(if i % 2 == 0 { &two } else { &one }, who, &id).await;
    }
    // Wait (10 s at most) until the two games run.
    let mut a = Value::Null;
    for _ in 0..100 {
        let (_, now) = two.get(&Browser::new(), &format!("/api/arenas/{id}")).await;
        a = now;
        if running(&a).len() == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(running(&a).len(), 2, "{a}");
    // Each instance pushes the arena to its sockets after every look at it: three more looks
    // from each (the first may have begun before the games were made) pair nobody again.
    let mut sockets = Vec::new();
    for srv in [&one, &two] {
        sockets.push(arena_ws(srv, &Browser::new(), &id).await);
    }
    for mut live in sockets {
        // The arena as stored when the socket opened, then three looks.
        for _ in 0..4 {
            let a = arena_where(&mut live, |_| true).await;
            assert_eq!(a["games"].as_array().unwrap().len(), 2, "{a}");
        }
    }
    let (_, a) = one.get(&Browser::new(), &format!("/api/arenas/{id}")).await;
    assert_eq!(a["games"].as_array().unwrap().len(), 2, "{a}");
    for who in &players {
        let (s, list) = one.get(who, "/api/games?status=ongoing").await;
        assert_eq!(s, StatusCode::OK, "{list}");
        let online = list["games"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| g["mode"] == "online")
            .count();
        assert_eq!(online, 1, "{list}");
    }
}
