//! The live channel of local games (computer, friend): the same WebSocket and messages as
//! online games. Moves, undo and redo over the socket; an HTTP move reaches the socket too;
//! another browser cannot open a local game's socket.

use crate::kit::online::*;
use reqwest::StatusCode;
use serde_json::{json, Value};
use virada_server::runtime::time::ManualTime;

async fn server() -> (tempfile::TempDir, TestServer) {
    let dir = tempfile::tempdir().unwrap();
    let t = start(&dir.path().join("db.sqlite"), ManualTime::new(T0)).await;
    (dir, t)
}

async fn create(t: &TestServer, who: &Browser, body: Value) -> String {
    let (s, g) = t.post(who, "/api/games", body).await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    g["id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn a_computer_game_is_played_undone_and_redone_over_the_socket() {
    let (_dir, t) = server().await;
    let me = Browser::new();
    let id = create(
        &t,
        &me,
        json!({"mode": "computer", "level": 1, "human_color": "black"}),
    )
    .await;
    let mut ws = t.ws(&me, &id).await;
    let first = next_game(&mut ws).await;
    assert_eq!(plies(&first), 0);
    assert!(first["online"].is_null(), "{first}");
    send(
        &mut ws,
        json!({"type": "move", "square": "f5", "ply": 0, "id": 1}),
    )
    .await;
    // The person's move, then the computer's reply, both pushed.
    let replied = game_where(&mut ws, |g| {
        plies(g) == 2 && g["computer_thinking"] == false
    })
    .await;
    assert_eq!(replied["plies"][0]["move"], "f5");
    assert_eq!(replied["plies"][1]["color"], "white");
    // A move answering an older ply is refused as stale, with the current game.
    send(
        &mut ws,
        json!({"type": "move", "square": "d3", "ply": 0, "id": 2}),
    )
    .await;
    let e = next_error(&mut ws).await;
    assert_eq!(e["code"], "stale", "{e}");
    assert_eq!(e["ref"], 2);
    // Undo goes back to the person's turn (both plies); redo brings them back.
    send(&mut ws, json!({"type": "undo", "ply": 2})).await;
    let undone = game_where(&mut ws, |g| plies(g) == 0).await;
    assert_eq!(undone["redo"].as_array().unwrap().len(), 2, "{undone}");
    send(&mut ws, json!({"type": "redo", "ply": 0})).await;
    let redone = game_where(&mut ws, |g| plies(g) == 2).await;
    assert_eq!(redone["plies"][1], replied["plies"][1]);
    // Online-only actions are refused on a local game.
    send(&mut ws, json!({"type": "takeback", "ply": 2})).await;
    assert_eq!(next_error(&mut ws).await["code"], "not_allowed");
    // The HTTP answer is the same game object as the socket's.
    let (s, g) = t.get(&me, &format!("/api/games/{id}")).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(g["plies"], redone["plies"]);
    t.server.shutdown().await;
}

#[tokio::test]
async fn a_friend_game_over_http_and_socket_is_the_same_game() {
    let (_dir, t) = server().await;
    let me = Browser::new();
    let id = create(&t, &me, json!({"mode": "friend"})).await;
    let mut ws = t.ws(&me, &id).await;
    let first = next_game(&mut ws).await;
    send(
        &mut ws,
        json!({"type": "move", "square": first_legal(&first), "ply": 0}),
    )
    .await;
    let one = game_at(&mut ws, 1).await;
    // A script's HTTP move is pushed on the socket like the socket's own.
    let square = first_legal(&one);
    let (s, g) = t
        .post(
            &me,
            &format!("/api/games/{id}/moves"),
            json!({"square": square, "ply": 1}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    let two = game_at(&mut ws, 2).await;
    assert_eq!(two["plies"], g["plies"]);
    assert_eq!(two["version"], g["version"]);
    // Friend undo: one turn.
    send(&mut ws, json!({"type": "undo", "ply": 2})).await;
    assert_eq!(plies(&game_at(&mut ws, 1).await), 1);
    // An illegal square is refused with its code, and nothing changes.
    send(
        &mut ws,
        json!({"type": "move", "square": "a1", "ply": 1, "id": 9}),
    )
    .await;
    let e = next_error(&mut ws).await;
    assert_eq!(e["code"], "illegal_move", "{e}");
    assert_eq!(t.game(&me, &id).await["plies"].as_array().unwrap().len(), 1);
    t.server.shutdown().await;
}

#[tokio::test]
async fn another_browser_cannot_open_a_local_games_socket() {
    let (_dir, t) = server().await;
    let me = Browser::new();
    let id = create(&t, &me, json!({"mode": "friend"})).await;
    let url = format!("{}/api/games/{id}/ws", t.base.replace("http://", "ws://"));
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = url.into_client_request().unwrap();
    req.headers_mut()
        .insert("Cookie", Browser::new().cookie.parse().unwrap());
    match tokio_tungstenite::connect_async(req).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => {
            assert_eq!(resp.status(), 404)
        }
        other => panic!("expected 404, got {:?}", other.map(|_| ())),
    }
    t.server.shutdown().await;
}
