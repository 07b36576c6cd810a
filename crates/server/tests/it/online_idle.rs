//! Online games leave memory when nobody uses them, whatever their clock (issue 39, F2): the
//! flags of unloaded games are watched by the scheduler from the stored deadlines, start-up
//! loads no game, and one address may keep only so many unfinished online games.

use crate::kit::online::*;
use reqwest::StatusCode;
use serde_json::json;
use std::path::Path;
use std::time::Duration;
use virada_server::runtime::time::ManualTime;

/// The stored phase, end reason and loser, and Black's stored clock of game `id`.
async fn stored(db: &Path, id: &str) -> (String, Option<String>, Option<String>, i64) {
    let mut rows = crate::kit::rows::rows(
        db,
        &format!(
            "SELECT phase, end_reason, end_loser, black_ms FROM online_games WHERE game_id = '{id}'"
        ),
    )
    .await;
    assert_eq!(rows.len(), 1, "game {id}");
    let mut row = rows.remove(0).into_iter();
    let mut next = || row.next().unwrap();
    let phase = next().unwrap();
    let (reason, loser) = (next(), next());
    (phase, reason, loser, next().unwrap().parse().unwrap())
}

/// Waits (10 s at most) until `done` holds for the stored row of `id`.
async fn stored_until(
    db: &Path,
    id: &str,
    done: impl Fn(&(String, Option<String>, Option<String>, i64)) -> bool,
) -> (String, Option<String>, Option<String>, i64) {
    for _ in 0..1000 {
        let row = stored(db, id).await;
        if done(&row) {
            return row;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!(
        "game {id} never reached the awaited state: {:?}",
        stored(db, id).await
    );
}

/// Waits (10 s at most) until no game is in memory.
async fn until_unloaded(srv: &TestServer) {
    for _ in 0..1000 {
        if srv.active_games().await == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("games stay in memory: {}", srv.active_games().await);
}

#[tokio::test]
async fn an_idle_timed_game_leaves_memory_and_its_flag_still_falls_on_time() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let time = ManualTime::new(T0);
    let srv = start_with(&db, time.clone(), |c| {
        c.idle_timeout = Duration::from_millis(200)
    })
    .await;
    let (ana, bia) = (Browser::new(), Browser::new());
    let one_minute = json!({"kind": "clock", "minutes": 1, "increment_seconds": 0});
    // A game started 1 ms earlier: its flag falls when this one has 1 ms left, so its end
    // proves the scheduler has looked at that time.
    let earlier = srv
        .started(&Browser::new(), &Browser::new(), one_minute.clone())
        .await;
    time.advance(1);
    let id = srv.started(&ana, &bia, one_minute).await;
    // Black has 30 s for its first move (its clock waits meanwhile), nobody is connected: the
    // game leaves memory all the same, and the stored deadline aborts it.
    until_unloaded(&srv).await;
    time.advance(29_999);
    stored_until(&db, &earlier, |r| r.0 == "finished").await;
    assert_eq!(
        stored(&db, &id).await.0,
        "playing",
        "one millisecond is left"
    );
    time.advance(1);
    let row = stored_until(&db, &id, |r| r.0 == "finished").await;
    assert_eq!(
        row,
        (
            "finished".to_string(),
            Some("abort".to_string()),
            None,
            60_000
        )
    );
    let g = srv.game(&ana, &id).await;
    assert_eq!(g["status"], "finished");
    assert_eq!(
        g["online"]["end"],
        json!({"reason": "abort", "loser": null})
    );
    // Loaded to fall, the game leaves memory again.
    until_unloaded(&srv).await;
    srv.server.shutdown().await;
}

#[tokio::test]
async fn a_restart_loads_no_game_and_flags_fall_at_the_deadline_moved_by_the_downtime() {
    let (srv, time) = fresh().await;
    let db = srv.db.clone();
    let (ana, bia) = (Browser::new(), Browser::new());
    let two_minutes = json!({"kind": "clock", "minutes": 2, "increment_seconds": 0});
    // A 2-minute game started 1 ms before the others: after the restart its flag falls when
    // the other 2-minute game has 1 ms left, so its end proves the scheduler looked at that time.
    let earlier = srv
        .started(&Browser::new(), &Browser::new(), two_minutes.clone())
        .await;
    time.advance(1);
    let mut ids = Vec::new();
    for tc in [
        two_minutes,
        json!({"kind": "clock", "minutes": 3, "increment_seconds": 5}),
        json!({"kind": "correspondence", "days": 1}),
    ] {
        ids.push(srv.started(&ana, &bia, tc).await);
    }
    assert_eq!(srv.active_games().await, 4);
    // 10 s of Black's 30 s for a first move pass, then the server is down for an hour.
    time.advance(10_000);
    srv.server.shutdown().await;
    time.advance(3_600_000);
    let srv = start(&db, time.clone()).await;
    // Nothing is loaded at start-up.
    assert_eq!(srv.active_games().await, 0, "a game was loaded eagerly");
    // The clock games: 20 s left for the first move, counted from the restart (the earlier
    // one: 1 ms less).
    time.advance(19_999);
    stored_until(&db, &earlier, |r| r.0 == "finished").await;
    assert_eq!(
        stored(&db, &ids[0]).await.0,
        "playing",
        "the downtime is not charged"
    );
    // At most the game whose flag fell was loaded (to end it): nothing comes in on its own.
    let loaded = srv.active_games().await;
    assert!(loaded <= 1, "{loaded} games in memory");
    time.advance(1);
    for id in &ids[..2] {
        let row = stored_until(&db, id, |r| r.0 == "finished").await;
        assert_eq!((row.1.as_deref(), row.2.as_deref()), (Some("abort"), None));
    }
    assert_eq!(stored(&db, &ids[2]).await.0, "playing");
    // The correspondence game: a day for the first move, less the 10 s before the stop.
    time.advance(24 * 3_600_000 - 10_000 - 20_000 - 1);
    assert_eq!(stored(&db, &ids[2]).await.0, "playing");
    time.advance(1);
    let row = stored_until(&db, &ids[2], |r| r.0 == "finished").await;
    assert_eq!(row.1.as_deref(), Some("abort"));
    srv.server.shutdown().await;
}

#[tokio::test]
async fn one_address_keeps_only_so_many_unfinished_online_games() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let time = ManualTime::new(T0);
    let srv = start_with(&db, time.clone(), |c| c.limits.online_games_per_ip = 3).await;
    let (ana, bia) = (Browser::new(), Browser::new());
    let untimed = json!({"kind": "none"});
    let first = srv.create(&ana, untimed.clone(), "black").await;
    srv.create(&ana, untimed.clone(), "black").await;
    srv.create(&bia, untimed.clone(), "white").await;
    let over = json!({"mode": "online", "time_control": untimed, "color": "black", "name": "Ana"});
    let (s, e) = srv.post(&ana, "/api/games", over.clone()).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{e}");
    assert_eq!(e["error"]["code"], "too_many_requests");
    let msg = e["error"]["message"].as_str().unwrap();
    assert!(msg.contains("3 unfinished online games"), "{msg}");
    // Local games are not online games.
    let (s, e) = srv
        .post(&ana, "/api/games", json!({"mode": "friend"}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{e}");
    // A finished game makes room: the creator aborts the first one.
    let id = first["id"].as_str().unwrap();
    let mut w = srv.ws(&ana, id).await;
    next_game(&mut w).await;
    send(&mut w, json!({"type": "abort", "ply": 0})).await;
    game_where(&mut w, |g| g["status"] == "finished").await;
    let (s, e) = srv.post(&ana, "/api/games", over).await;
    assert_eq!(s, StatusCode::CREATED, "{e}");
    srv.server.shutdown().await;
}
