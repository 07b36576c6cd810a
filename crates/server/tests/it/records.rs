//! Game records opened from a file or a replay link (`POST /api/import`): they keep the
//! players a GGF record names, read back the same through the export, and are read-only
//! (no move, undo or redo; the page offers no resignation either), while a record continued against the computer is a
//! game like any other.

use reqwest::StatusCode;
use serde_json::json;

use crate::kit::http::{id_of, TestServer};

const START: &str = "BO[8 ---------------------------O*------*O--------------------------- *]";

fn ggf(tags: &str, moves: &str) -> String {
    format!("(;GM[Othello]PC[test]{tags}TY[8]{START}{moves};)")
}

#[tokio::test]
async fn a_ggf_record_keeps_its_players_and_is_read_only() {
    let t = TestServer::fresh().await;

    let text = ggf("PB[Ana Souza]PW[Bia Lima]", "B[F5]W[D6]B[C3]");
    let (s, g) = t.post("/api/import", json!({ "text": text })).await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    assert_eq!(
        g["record"],
        json!({"black": "Ana Souza", "white": "Bia Lima"})
    );
    assert_eq!(g["transcript"], "f5d6c3");
    let id = id_of(&g);
    // Read again, the names are still there (stored, not only in the answer).
    let (_, again) = t.get(&format!("/api/games/{id}")).await;
    assert_eq!(again["record"], g["record"]);

    // Nothing changes a record's moves.
    let actions = [
        ("moves", json!({"square": "c4", "ply": 3})),
        ("undo", json!({"ply": 3})),
        ("redo", json!({"ply": 3})),
    ];
    for (what, body) in actions {
        let (s, e) = t.post(&format!("/api/games/{id}/{what}"), body).await;
        assert_eq!(s, StatusCode::CONFLICT, "{what}: {e}");
        assert_eq!(e["error"]["code"], "not_allowed", "{what}");
        let m = e["error"]["message"].as_str().unwrap();
        assert!(m.contains("game record"), "{what}: {m}");
    }
    let (_, after) = t.get(&format!("/api/games/{id}")).await;
    assert_eq!(after["transcript"], "f5d6c3");

    // The export names the same players, and reads back as the same record.
    let r = t
        .raw_get(&format!("/api/games/{id}/export?format=ggf"))
        .await;
    let out = r.text().await.unwrap();
    assert!(
        out.contains("PB[Ana Souza]") && out.contains("PW[Bia Lima]"),
        "{out}"
    );
    let (s, back) = t.post("/api/import", json!({ "text": out })).await;
    assert_eq!(s, StatusCode::CREATED, "{back}");
    assert_eq!(back["record"], g["record"]);
    t.server.shutdown().await;
}

#[tokio::test]
async fn record_names_are_checked_cut_or_absent() {
    let t = TestServer::fresh().await;

    // No names: a record all the same, naming nobody (a transcript too).
    for text in [ggf("", "B[F5]"), "f5d6".to_string()] {
        let (s, g) = t.post("/api/import", json!({ "text": text })).await;
        assert_eq!(s, StatusCode::CREATED, "{g}");
        assert_eq!(g["record"], json!({"black": null, "white": null}), "{text}");
    }
    // A name that would reorder the line it is shown in is refused, saying which tag.
    let (s, e) = t
        .post(
            "/api/import",
            json!({ "text": ggf("PB[Ana\u{202E}x]PW[Bia]", "B[F5]") }),
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    assert_eq!(e["error"]["code"], "invisible_character");
    assert_eq!(e["error"]["params"]["field"], "PB");
    // A long name is cut to 40 characters, the last an ellipsis.
    let long = "x".repeat(100);
    let (s, g) = t
        .post(
            "/api/import",
            json!({ "text": ggf(&format!("PB[{long}]"), "B[F5]") }),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    let name = g["record"]["black"].as_str().unwrap();
    assert_eq!(name.chars().count(), 40);
    assert!(name.ends_with('…'), "{name}");
    // Continued against the computer, the text starts a game, not a record.
    let (s, g) = t
        .post(
            "/api/import",
            json!({ "text": "f5", "mode": "computer", "level": 1, "human_color": "black" }),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    assert_eq!(g["record"], json!(null));
    t.server.shutdown().await;
}
