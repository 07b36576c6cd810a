//! A clock does not run while moves are refused for a store error: the time the database
//! cannot store a move is not charged to the side to move (docs/SERVER.md, "Online games").
//! The store is made to fail on demand by renaming the games' table away (as the health test
//! does), on whichever store the tests use; the time source is manual, so the charges are exact.

use crate::online_common::*;
use serde_json::json;
use virada_server::runtime::time::ManualTime;

#[tokio::test]
async fn the_time_a_move_cannot_be_stored_is_not_charged() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let time = ManualTime::new(T0);
    let srv = start(&db, time.clone()).await;
    let (ana, bia) = (Browser::new(), Browser::new());
    let tc = json!({"kind": "clock", "minutes": 1, "increment_seconds": 0});
    let id = srv.started(&ana, &bia, tc).await;
    let mut a = srv.ws(&ana, &id).await;
    let mut b = srv.ws(&bia, &id).await;
    next_game(&mut a).await;
    next_game(&mut b).await;
    let f5 = json!({"type": "move", "square": "f5", "ply": 0});

    // Black thinks 10 s; then the database fails: Black's move is refused.
    time.advance(10_000);
    crate::stored_rows::exec(&db, "ALTER TABLE games RENAME TO games_away").await;
    send(&mut a, f5.clone()).await;
    let e = next_error(&mut a).await;
    assert_eq!(e["code"], "internal", "{e}");
    // 20 s later the database is back, and the same move is taken: Black is charged the 10 s
    // before the refusal, not the 20 s after it.
    time.advance(20_000);
    crate::stored_rows::exec(&db, "ALTER TABLE games_away RENAME TO games").await;
    send(&mut a, f5).await;
    let g = game_at(&mut a, 1).await;
    assert_eq!(g["online"]["clocks"]["black_ms"], 50_000, "{g}");
    assert_eq!(g["online"]["clocks"]["white_ms"], 60_000, "{g}");
    assert_eq!(g["online"]["clocks"]["deadline_ms"], T0 + 90_000, "{g}");

    // White's turn runs as usual from there: 5 s are charged.
    time.advance(5_000);
    send(&mut b, json!({"type": "move", "square": "d6", "ply": 1})).await;
    let g = game_at(&mut b, 2).await;
    assert_eq!(g["online"]["clocks"]["white_ms"], 55_000, "{g}");
    assert_eq!(g["online"]["clocks"]["black_ms"], 50_000, "{g}");
    drop((a, b));
    srv.server.shutdown().await;
}

/// Without a move tried, nothing is stalled: a player who does not move while the database is
/// down is charged as ever (the stall starts at a refused store only).
#[tokio::test]
async fn a_clock_with_no_refused_move_runs_on() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let time = ManualTime::new(T0);
    let srv = start(&db, time.clone()).await;
    let (ana, bia) = (Browser::new(), Browser::new());
    let tc = json!({"kind": "clock", "minutes": 1, "increment_seconds": 0});
    let id = srv.started(&ana, &bia, tc).await;
    let mut a = srv.ws(&ana, &id).await;
    next_game(&mut a).await;
    time.advance(30_000);
    send(&mut a, json!({"type": "move", "square": "f5", "ply": 0})).await;
    let g = game_at(&mut a, 1).await;
    assert_eq!(g["online"]["clocks"]["black_ms"], 30_000, "{g}");
    drop(a);
    srv.server.shutdown().await;
}
