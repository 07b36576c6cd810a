//! The opening book and the opening names over the API: hints in book positions carry the
//! shipped book's values marked `"book": true`; the game object and the saved-games list name
//! the opening a game has reached, in English and Portuguese, in any orientation.

use reqwest::{Client, StatusCode};
use serde_json::{json, Value};
use virada_server::{Server, ServerConfig};

async fn send(req: reqwest::RequestBuilder) -> (StatusCode, Value) {
    let r = req.send().await.expect("request sent");
    let status = r.status();
    let text = r.text().await.expect("body");
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// A server on a fresh database, and one browser for it (a cookie store: games are private to
/// the browser that made them). The directory lives as long as the server needs it.
async fn start() -> (tempfile::TempDir, Server, Client) {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(ServerConfig::for_tests(dir.path().join("db.sqlite")))
        .await
        .expect("server starts");
    let client = Client::builder().cookie_store(true).build().unwrap();
    (dir, server, client)
}

#[tokio::test]
async fn games_and_the_list_name_their_opening() {
    let (_dir, server, c) = start().await;
    let base = server.url();
    let (s, g) = send(
        c.post(format!("{base}/api/games"))
            .json(&json!({"mode": "friend"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    assert_eq!(g["opening_name"], Value::Null, "nothing named at the start");
    let id = g["id"].as_str().unwrap().to_string();
    // The Parallel opening (f5 f4) turned by 90 degrees: d3 e3.
    let mut last = Value::Null;
    for (ply, sq) in ["d3", "e3"].iter().enumerate() {
        let (s, g) = send(
            c.post(format!("{base}/api/games/{id}/moves"))
                .json(&json!({"square": sq, "ply": ply})),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{g}");
        last = g;
    }
    let named = &last["opening_name"];
    assert_eq!(named["id"], "parallel", "{last}");
    assert_eq!(named["name"]["en"], "Parallel");
    assert_eq!(named["name"]["pt"], "Paralela");
    assert_eq!(named["ply"], 2);
    let (s, list) = send(c.get(format!("{base}/api/games"))).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(list["games"][0]["opening_name"]["id"], "parallel", "{list}");
    server.shutdown().await;
}

/// The shipped book holds the start position with every move valued: the start's hint comes
/// from it; after 1. f5 f4 (a poor reply the book never studied) the hint is searched.
#[tokio::test]
async fn hints_come_from_the_shipped_book_in_book_positions_only() {
    let book = virada_engine::Book::shipped().expect("this build ships a book");
    assert!(book.contains(virada_rules::Position::start().board()));
    let (_dir, server, c) = start().await;
    let base = server.url();
    let (s, g) = send(
        c.post(format!("{base}/api/games"))
            .json(&json!({"mode": "friend"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let (s, h) = send(c.get(format!("{base}/api/games/{id}/hint"))).await;
    assert_eq!(s, StatusCode::OK, "{h}");
    let moves = h["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    assert!(moves.iter().all(|m| m["book"] == true), "{h}");
    // The four first moves are equal by symmetry: the same book value.
    assert!(moves.iter().all(|m| m["value"] == moves[0]["value"]), "{h}");
    for (ply, sq) in ["f5", "f4"].iter().enumerate() {
        let (s, g) = send(
            c.post(format!("{base}/api/games/{id}/moves"))
                .json(&json!({"square": sq, "ply": ply})),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{g}");
    }
    let after = virada_rules::Position::start()
        .play("f5".parse().unwrap())
        .and_then(|p| p.play("f4".parse().unwrap()))
        .unwrap();
    assert!(
        !book.contains(after.board()),
        "the test needs a position out of the book"
    );
    let (s, h) = send(c.get(format!("{base}/api/games/{id}/hint"))).await;
    assert_eq!(s, StatusCode::OK, "{h}");
    let moves = h["moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|m| m["book"] == false), "{h}");
    server.shutdown().await;
}
