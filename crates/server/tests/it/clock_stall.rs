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
    // The first moves (free: each clock starts with its side's first move).
    send(&mut a, json!({"type": "move", "square": "f5", "ply": 0})).await;
    game_at(&mut b, 1).await;
    send(&mut b, json!({"type": "move", "square": "d6", "ply": 1})).await;
    game_at(&mut a, 2).await;
    let c3 = json!({"type": "move", "square": "c3", "ply": 2});

    // Black thinks 10 s; then the database fails: Black's move is refused.
    time.advance(10_000);
    crate::stored_rows::exec(&db, "ALTER TABLE games RENAME TO games_away").await;
    send(&mut a, c3.clone()).await;
    let e = next_error(&mut a).await;
    assert_eq!(e["code"], "internal", "{e}");
    // 20 s later the database is back, and the same move is taken: Black is charged the 10 s
    // before the refusal, not the 20 s after it.
    time.advance(20_000);
    crate::stored_rows::exec(&db, "ALTER TABLE games_away RENAME TO games").await;
    send(&mut a, c3).await;
    let g = game_at(&mut a, 3).await;
    assert_eq!(g["online"]["clocks"]["black_ms"], 50_000, "{g}");
    assert_eq!(g["online"]["clocks"]["white_ms"], 60_000, "{g}");
    assert_eq!(g["online"]["clocks"]["deadline_ms"], T0 + 90_000, "{g}");

    // White's turn runs as usual from there: 5 s are charged.
    time.advance(5_000);
    send(&mut b, json!({"type": "move", "square": "d3", "ply": 3})).await;
    let g = game_at(&mut b, 4).await;
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
    let mut b = srv.ws(&bia, &id).await;
    next_game(&mut a).await;
    next_game(&mut b).await;
    send(&mut a, json!({"type": "move", "square": "f5", "ply": 0})).await;
    game_at(&mut b, 1).await;
    send(&mut b, json!({"type": "move", "square": "d6", "ply": 1})).await;
    game_at(&mut a, 2).await;
    time.advance(20_000);
    send(&mut a, json!({"type": "move", "square": "c3", "ply": 2})).await;
    let g = game_at(&mut a, 3).await;
    assert_eq!(g["online"]["clocks"]["black_ms"], 40_000, "{g}");
    drop((a, b));
    srv.server.shutdown().await;
}
