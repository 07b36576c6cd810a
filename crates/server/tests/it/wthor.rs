//! `POST /api/wthor` on a real server (port 0, a temporary database): a WTHOR file's games
//! listed with their transcripts, a game opened from one through `POST /api/import`, and bad,
//! empty and oversized files refused with their codes.

use reqwest::StatusCode;
use serde_json::{json, Value};
use virada_rules::formats::wthor::{write_wtb, WthorFile, WthorGame, WthorHeader};
use virada_rules::{Game, Move, Position};
use virada_server::wthor_file::WTHOR_LIMIT;

use crate::kit::http::TestServer;

async fn post_bytes(t: &TestServer, bytes: Vec<u8>) -> (StatusCode, Value) {
    t.send(
        t.client
            .post(format!("{}/api/wthor", t.base))
            .header("Content-Type", "application/octet-stream")
            .body(bytes),
    )
    .await
}

/// A game from the standard start by its squares, passes as the rules force them.
fn game_of(moves: &str) -> Game {
    let mut game = Game::new();
    for i in (0..moves.len()).step_by(2) {
        game.pass_if_forced();
        game.play(moves[i..i + 2].parse::<Move>().unwrap()).unwrap();
    }
    game
}

#[tokio::test]
async fn a_wthor_file_lists_its_games_and_one_opens() {
    let t = TestServer::fresh().await;
    let (client, base) = (&t.client, &t.base);

    // A wipe-out in 9 (White has no disc left, found by search) and a short opening; a third record is broken.
    let wipe = game_of("d3c3b3d2e1d6d7e3f4");
    assert!(wipe.is_over());
    let short = game_of("f5d6c3d3c4");
    let mut broken = WthorGame::from_game(&short, 0, 5, 6, 0).unwrap();
    broken.move_bytes[2] = 11; // a1 at ply 3: illegal
    let file = WthorFile {
        header: WthorHeader::for_games(2024, 3),
        games: vec![
            WthorGame::from_game(&wipe, 0, 12, 34, 0).unwrap(),
            WthorGame::from_game(&short, 0, 56, 78, 0).unwrap(),
            broken,
        ],
    };
    let (s, list) = post_bytes(&t, write_wtb(&file)).await;
    assert_eq!(s, StatusCode::OK, "{list}");
    assert_eq!(list["year"], 2024);
    let games = list["games"].as_array().unwrap();
    assert_eq!(games.len(), 3);
    assert_eq!(
        games[0],
        json!({"number": 1, "black_player": 12, "white_player": 34, "black_score": 64,
               "moves": 9, "transcript": "d3c3b3d2e1d6d7e3f4", "error_ply": null})
    );
    assert_eq!(games[1]["transcript"], "f5d6c3d3c4");
    assert_eq!(games[2]["transcript"], Value::Null);
    assert_eq!(games[2]["error_ply"], 3);

    // The page opens the chosen game as a game of its own: a standard start, all its moves.
    let r = client
        .post(format!("{base}/api/import"))
        .json(&json!({ "text": games[0]["transcript"] }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::CREATED);
    let g: Value = r.json().await.unwrap();
    assert_eq!(g["start"]["kind"], "standard");
    assert_eq!(g["status"], "finished");
    assert_eq!(g["transcript"], "d3c3b3d2e1d6d7e3f4");
    assert_eq!(g["start"]["board"], Position::start().to_string()[..64]);

    // Not a WTHOR file (a GGF record: its byte 12 is no board size): the code, the format and
    // the byte where reading failed.
    let (s, e) = post_bytes(&t, b"(;GM[Othello]PC[x];)".to_vec()).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    assert_eq!(e["error"]["code"], "bad_setup");
    assert_eq!(e["error"]["params"], json!({"format": "wthor", "byte": 12}));
    let (s, e) = post_bytes(&t, Vec::new()).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(e["error"]["params"], json!({"format": "wthor", "byte": 0}));
    // Only the binary content type (a cross-site form cannot send it without a preflight).
    let r = client
        .post(format!("{base}/api/wthor"))
        .header("Content-Type", "text/plain")
        .body(write_wtb(&file))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    // Above the limit: 413 (the limit is the route's own, above the JSON body limit).
    let (s, e) = post_bytes(&t, vec![0u8; WTHOR_LIMIT + 1]).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE, "{e}");
    assert_eq!(e["error"]["code"], "payload_too_large");
    // A file of 100 KiB (above the 64 KiB JSON limit) within it is read.
    let many = WthorFile {
        header: WthorHeader::for_games(2024, 1600),
        games: vec![WthorGame::from_game(&short, 0, 1, 2, 0).unwrap(); 1600],
    };
    let bytes = write_wtb(&many);
    assert!(bytes.len() > 100 * 1024);
    let (s, list) = post_bytes(&t, bytes).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(list["games"].as_array().unwrap().len(), 1600);
    t.server.shutdown().await;
}
