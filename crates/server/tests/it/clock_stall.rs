//! A clock does not run while moves are refused for a store error: the time the database
//! cannot store a move is not charged to the side to move (docs/SERVER.md, "Online games").
//! The store is made to fail on demand by renaming the games' table away (as the health test
//! does), on whichever store the tests use; the time source is manual, so the charges are exact.

use crate::kit::games::sockets;
use crate::kit::online::*;
use serde_json::json;

#[tokio::test]
async fn the_time_a_move_cannot_be_stored_is_not_charged() {
    let (srv, time) = fresh().await;
    let db = srv.db.clone();
    let (ana, bia) = (Browser::new(), Browser::new());
    let tc = json!({"kind": "clock", "minutes": 1, "increment_seconds": 0});
    let id = srv.started(&ana, &bia, tc).await;
    let (mut a, mut b, _) = sockets(&srv, &ana, &bia, &id).await;
    // Each side's clock starts with its own first move (docs/SERVER.md, "First moves"): both
    // first moves are made at once, so Black's minute runs from T0.
    both_first_moves(&mut a, &mut b).await;
    let c3 = json!({"type": "move", "square": "c3", "ply": 2});

    // Black thinks 10 s; then the database fails: Black's move is refused.
    time.advance(10_000);
    crate::kit::rows::exec(&db, "ALTER TABLE games RENAME TO games_away").await;
    send(&mut a, c3.clone()).await;
    let e = next_error(&mut a).await;
    assert_eq!(e["code"], "internal", "{e}");
    // 20 s later the database is back, and the same move is taken: Black is charged the 10 s
    // before the refusal, not the 20 s after it.
    time.advance(20_000);
    crate::kit::rows::exec(&db, "ALTER TABLE games_away RENAME TO games").await;
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
    let (srv, time) = fresh().await;
    let (ana, bia) = (Browser::new(), Browser::new());
    let tc = json!({"kind": "clock", "minutes": 1, "increment_seconds": 0});
    let id = srv.started(&ana, &bia, tc).await;
    let (mut a, mut b, _) = sockets(&srv, &ana, &bia, &id).await;
    both_first_moves(&mut a, &mut b).await;
    time.advance(30_000);
    send(&mut a, json!({"type": "move", "square": "c3", "ply": 2})).await;
    let g = game_at(&mut a, 3).await;
    assert_eq!(g["online"]["clocks"]["black_ms"], 30_000, "{g}");
    drop((a, b));
    srv.server.shutdown().await;
}

/// Black's f5 and White's d6, made at once: from then on both clocks run.
async fn both_first_moves(a: &mut Ws, b: &mut Ws) {
    send(a, json!({"type": "move", "square": "f5", "ply": 0})).await;
    game_at(b, 1).await;
    send(b, json!({"type": "move", "square": "d6", "ply": 1})).await;
    game_at(a, 2).await;
}
