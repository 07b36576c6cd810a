//! Moves on a game's sockets, as the players' pages send them: the first legal move, a move
//! each (the first moves that start the clocks and end the time to abort), resigning. Each
//! waits on the game message that shows the move, never on time.

#![allow(dead_code)]

use super::online::*;
use serde_json::{json, Value};

/// Plays `g`'s first legal move on `ws`, as the answer to `g`'s last ply.
pub async fn play_first(ws: &mut Ws, g: &Value) {
    send(
        ws,
        json!({"type": "move", "square": first_legal(g), "ply": plies(g)}),
    )
    .await;
}

/// `black`'s and `white`'s sockets on game `id`, each past its first game message; the game as
/// Black's socket first showed it.
pub async fn sockets(
    srv: &TestServer,
    black: &Browser,
    white: &Browser,
    id: &str,
) -> (Ws, Ws, Value) {
    let mut wa = srv.ws(black, id).await;
    let mut wb = srv.ws(white, id).await;
    let g = next_game(&mut wa).await;
    next_game(&mut wb).await;
    (wa, wb, g)
}

/// Black and White each make their first move in game `id` (their clocks start with them):
/// both sockets, and the game at ply 2 as Black's socket got it.
pub async fn a_move_each(
    srv: &TestServer,
    black: &Browser,
    white: &Browser,
    id: &str,
) -> (Ws, Ws, Value) {
    let (mut wa, mut wb, g) = sockets(srv, black, white, id).await;
    play_first(&mut wa, &g).await;
    let g = game_at(&mut wb, 1).await;
    play_first(&mut wb, &g).await;
    let g = game_at(&mut wa, 2).await;
    (wa, wb, g)
}

/// [`a_move_each`], then `loser`'s side (`"black"` or `"white"`) resigns; checks the end.
pub async fn a_move_each_then_resign(
    srv: &TestServer,
    id: &str,
    black: &Browser,
    white: &Browser,
    loser: &str,
) {
    let (mut wa, mut wb, _) = a_move_each(srv, black, white, id).await;
    let ws = if loser == "black" { &mut wa } else { &mut wb };
    send(ws, json!({"type": "resign", "ply": 2})).await;
    let g = game_where(ws, |g| g["status"] == "finished").await;
    assert_eq!(
        g["online"]["end"],
        json!({"reason": "resign", "loser": loser})
    );
}

/// `who` resigns game `id` at once (it must be playing).
pub async fn resign(srv: &TestServer, who: &Browser, id: &str) {
    let mut ws = srv.ws(who, id).await;
    let g = next_game(&mut ws).await;
    assert_eq!(g["online"]["phase"], "playing", "{g}");
    send(&mut ws, json!({"type": "resign", "ply": plies(&g)})).await;
    game_where(&mut ws, |g| g["status"] == "finished").await;
}
