//! Findings F3, F4 and F6 of issue 39, over a real server on port 0 with a real SQLite file:
//! invisible and formatting characters in names and chat, games from finished positions, and
//! a stored game that no longer replays.

use crate::kit::games::sockets;
use crate::kit::online::*;
use reqwest::StatusCode;
use serde_json::{json, Value};
use virada_rules::{Color, Game, Move, Position};
use virada_server::runtime::time::ManualTime;

/// Runs `sql` on the stored row of game `id` (`?1` in it is the id).
async fn corrupt(db: &std::path::Path, sql: &str, id: &str) {
    let sql = sql.replace("?1", &format!("'{id}'"));
    let n =
        crate::kit::rows::one(db, &format!("SELECT COUNT(*) FROM games WHERE id = '{id}'")).await;
    assert_eq!(n.as_deref(), Some("1"), "{sql}");
    crate::kit::rows::exec(db, &sql).await;
}

async fn delete(srv: &TestServer, who: &Browser, id: &str) -> StatusCode {
    reqwest::Client::new()
        .delete(format!("{}/api/games/{id}", srv.base))
        .header("Cookie", &who.cookie)
        .send()
        .await
        .unwrap()
        .status()
}

fn assert_invisible(status: StatusCode, e: &Value, field: &str, c: &str) {
    assert_eq!(status, StatusCode::BAD_REQUEST, "{e}");
    assert_eq!(e["error"]["code"], "invisible_character", "{e}");
    assert_eq!(e["error"]["params"], json!({"field": field, "char": c}));
}

#[tokio::test]
async fn names_and_chat_refuse_invisible_and_formatting_characters() {
    let (srv, _) = fresh().await;
    let (ana, bia) = (Browser::new(), Browser::new());
    // A right-to-left override in a name would reverse everything shown after it.
    let (s, e) = srv
        .post(
            &ana,
            "/api/games",
            json!({"mode": "online", "name": "Ana\u{202E}", "color": "black"}),
        )
        .await;
    assert_invisible(s, &e, "name", "U+202E");
    let g = srv.create(&ana, json!({"kind": "none"}), "black").await;
    let id = g["id"].as_str().unwrap().to_string();
    for (name, c) in [("Bia\u{200B}", "U+200B"), ("\u{2067}Bia", "U+2067")] {
        let (s, e) = srv.seat(&bia, &id, name).await;
        assert_invisible(s, &e, "name", c);
    }
    let (s, g) = srv.seat(&bia, &id, "Bia 👩\u{200D}💻").await;
    assert_eq!(s, StatusCode::OK, "an emoji sequence is no trick: {g}");

    let (mut a, mut b, _) = sockets(&srv, &ana, &bia, &id).await;
    send(
        &mut a,
        json!({"type": "chat", "text": "gg \u{FEFF}wp", "id": 3}),
    )
    .await;
    let err = next_error(&mut a).await;
    assert_eq!(err["code"], "invisible_character", "{err}");
    assert_eq!(err["ref"], 3);
    assert_eq!(err["params"], json!({"field": "chat", "char": "U+FEFF"}));
    send(&mut a, json!({"type": "chat", "text": "שלום, boa sorte"})).await;
    assert_eq!(
        next_of(&mut b, "chat").await["line"]["text"],
        "שלום, boa sorte"
    );
    let g = srv.game(&bia, &id).await;
    assert_eq!(g["online"]["chat"].as_array().unwrap().len(), 1, "{g}");
    srv.server.shutdown().await;
}

/// A full board (all black): nobody has a move.
fn finished_board() -> String {
    Position::from_colors(u64::MAX, 0, Color::Black)
        .unwrap()
        .to_string()
}

/// A whole game from the start (each side plays its first legal move until the end).
fn finished_transcript() -> String {
    let mut game = Game::new();
    while let Some(sq) = game.position().legal_moves().iter().next() {
        game.play(Move::Play(sq)).unwrap();
        game.play_forced_passes();
    }
    game.moves()
        .iter()
        .filter(|m| **m != Move::Pass)
        .map(|m| m.to_string())
        .collect()
}

#[tokio::test]
async fn no_game_starts_from_a_finished_position() {
    let (srv, _) = fresh().await;
    let ana = Browser::new();
    let board = finished_board();
    for body in [
        json!({"mode": "friend", "setup": board}),
        json!({"mode": "computer", "level": 3, "setup": board}),
        json!({"mode": "online", "name": "Ana", "setup": board}),
        json!({"mode": "online", "name": "Ana", "setup": finished_transcript()}),
    ] {
        let (s, e) = srv.post(&ana, "/api/games", body.clone()).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body} -> {e}");
        assert_eq!(e["error"]["code"], "finished_position", "{e}");
    }
    let (s, e) = srv.post(&ana, "/api/import", json!({"text": board})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    assert_eq!(e["error"]["code"], "finished_position", "{e}");
    // A whole game read from its moves is a replay from the start: it may be opened locally.
    let (s, g) = srv
        .post(&ana, "/api/import", json!({"text": finished_transcript()}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    assert_eq!(g["status"], "finished", "{g}");
    let (_, list) = srv.get(&ana, "/api/games").await;
    assert_eq!(list["games"].as_array().unwrap().len(), 1, "{list}");
    srv.server.shutdown().await;
}

/// A game stored "playing" on a finished board (as the server made them before finished
/// positions were refused) cannot be resigned or aborted: the board's score stands.
#[tokio::test]
async fn a_game_on_a_finished_board_cannot_be_resigned_or_aborted() {
    let (srv, _) = fresh().await;
    let db = srv.db.clone();
    let (ana, bia) = (Browser::new(), Browser::new());
    let id = srv.started(&ana, &bia, json!({"kind": "none"})).await;
    srv.server.shutdown().await;
    corrupt(
        &db,
        &format!(
            "UPDATE games SET start_pos = '{}', start_kind = 'setup' WHERE id = ?1",
            finished_board()
        ),
        &id,
    )
    .await;
    let srv = start(&db, ManualTime::new(T0)).await;
    let g = srv.game(&ana, &id).await;
    assert_eq!(g["online"]["phase"], "playing", "the old state: {g}");
    let mut a = srv.ws(&ana, &id).await;
    next_game(&mut a).await;
    for action in ["resign", "abort"] {
        send(&mut a, json!({"type": action, "ply": 0})).await;
        let err = next_error(&mut a).await;
        assert_eq!(err["code"], "game_over", "{action}: {err}");
    }
    let g = srv.game(&bia, &id).await;
    assert_eq!(g["online"]["phase"], "playing", "nothing recorded: {g}");
    assert_eq!(g["black_discs"], 64);
    srv.server.shutdown().await;
}

#[tokio::test]
async fn a_game_whose_row_no_longer_replays_can_be_deleted_by_its_owner() {
    let (srv, _) = fresh().await;
    let db = srv.db.clone();
    let (ana, eve) = (Browser::new(), Browser::new());
    let (s, g) = srv
        .post(
            &ana,
            "/api/games",
            json!({"mode": "friend", "setup": "f5d6"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    srv.server.shutdown().await;
    // a1 is no legal move after f5: the stored moves no longer replay.
    corrupt(&db, "UPDATE games SET moves = 'f5 a1' WHERE id = ?1", &id).await;
    let srv = start(&db, ManualTime::new(T0)).await;

    let (s, e) = srv.get(&ana, &format!("/api/games/{id}")).await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    assert_eq!(e["error"]["code"], "corrupt_game", "{e}");
    // Someone else learns nothing, and cannot delete it.
    let (s, e) = srv.get(&eve, &format!("/api/games/{id}")).await;
    assert_eq!(
        (s, e["error"]["code"].clone()),
        (StatusCode::NOT_FOUND, json!("not_found"))
    );
    assert_eq!(delete(&srv, &eve, &id).await, StatusCode::NOT_FOUND);
    // The list still shows it (its summary reads), so its owner can find and delete it.
    let (_, list) = srv.get(&ana, "/api/games").await;
    assert_eq!(list["games"][0]["id"], id.as_str(), "{list}");
    assert_eq!(delete(&srv, &ana, &id).await, StatusCode::NO_CONTENT);
    let (s, _) = srv.get(&ana, &format!("/api/games/{id}")).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (_, list) = srv.get(&ana, "/api/games").await;
    assert_eq!(list["games"], json!([]), "{list}");
    srv.server.shutdown().await;
}

/// Texts that look blank: a braille blank, combining marks with nothing to sit on, wide
/// spaces around a braille blank and an enclosing circle.
const BLANK_LOOKING: [&str; 3] = ["\u{2800}", "\u{0301}\u{0308}", "\u{3000}\u{2800} \u{20DD}"];

fn assert_blank(status: StatusCode, e: &Value, field: &str) {
    assert_eq!(status, StatusCode::BAD_REQUEST, "{e}");
    assert_eq!(e["error"]["code"], "blank_text", "{e}");
    assert_eq!(e["error"]["params"], json!({"field": field}));
}

#[tokio::test]
async fn names_chat_and_reports_refuse_blank_looking_text() {
    let (srv, _) = fresh().await;
    let (ana, _) =
        crate::kit::accounts::sign_up(&srv, &Browser::new(), "ana", "correct horse").await;
    let (bia, _) =
        crate::kit::accounts::sign_up(&srv, &Browser::new(), "bia", "correct horse").await;
    for blank in BLANK_LOOKING {
        let (s, e) = srv
            .post(
                &Browser::new(),
                "/api/games",
                json!({"mode": "online", "name": blank, "color": "black"}),
            )
            .await;
        assert_blank(s, &e, "name");
    }
    let g = srv
        .create(&Browser::new(), json!({"kind": "none"}), "black")
        .await;
    let id = g["id"].as_str().unwrap().to_string();
    for blank in BLANK_LOOKING {
        let (s, e) = srv.seat(&Browser::new(), &id, blank).await;
        assert_blank(s, &e, "name");
        let (s, e) = srv
            .post(
                &ana,
                "/api/reports",
                json!({"player": "bia", "reason": blank}),
            )
            .await;
        assert_blank(s, &e, "reason");
    }
    // A braille blank or an accent among letters is text.
    let (s, e) = srv
        .post(
            &ana,
            "/api/reports",
            json!({"player": "bia", "reason": "a\u{2800}b\u{0301}"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{e}");

    let g = srv.create(&ana, json!({"kind": "none"}), "black").await;
    let id = g["id"].as_str().unwrap().to_string();
    let (s, g) = srv.seat(&bia, &id, "Bia").await;
    assert_eq!(s, StatusCode::OK, "{g}");
    let (mut a, mut b, _) = sockets(&srv, &ana, &bia, &id).await;
    for (n, blank) in BLANK_LOOKING.iter().enumerate() {
        send(&mut a, json!({"type": "chat", "text": blank, "id": n})).await;
        let err = next_error(&mut a).await;
        assert_eq!(err["code"], "blank_text", "{err}");
        assert_eq!(err["ref"], n);
        assert_eq!(err["params"], json!({"field": "chat"}));
    }
    send(&mut a, json!({"type": "chat", "text": "boa sorte"})).await;
    assert_eq!(next_of(&mut b, "chat").await["line"]["text"], "boa sorte");
    let g = srv.game(&bia, &id).await;
    assert_eq!(g["online"]["chat"].as_array().unwrap().len(), 1, "{g}");
    srv.server.shutdown().await;
}
