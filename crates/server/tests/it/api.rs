//! API tests: a real server on port 0 with a temporary database, driven over HTTP.

use reqwest::StatusCode;
use serde_json::{json, Value};
use std::time::Duration;
use virada_rules::{Game, Move, Position};
use virada_server::{Server, ServerConfig};

use crate::kit::http::{id_of, plies, TestServer};

impl TestServer {
    /// The number of plies of the game now (what a client that is up to date sends as `ply`).
    async fn ply(&self, id: &str) -> usize {
        let (s, g) = self.get(&format!("/api/games/{id}")).await;
        assert_eq!(s, StatusCode::OK, "{g}");
        plies(&g)
    }

    /// Plays `sq` as a client that has seen the current game.
    async fn play(&self, id: &str, sq: &str) -> (StatusCode, Value) {
        let ply = self.ply(id).await;
        self.play_at(id, sq, ply).await
    }

    async fn play_at(&self, id: &str, sq: &str, ply: usize) -> (StatusCode, Value) {
        self.post(
            &format!("/api/games/{id}/moves"),
            json!({ "square": sq, "ply": ply }),
        )
        .await
    }

    /// Undo (`what` = "undo") or redo as a client that has seen the current game.
    async fn turn(&self, id: &str, what: &str) -> (StatusCode, Value) {
        let ply = self.ply(id).await;
        self.post(&format!("/api/games/{id}/{what}"), json!({ "ply": ply }))
            .await
    }

    /// Polls the game until `pred` holds (the computer's move arrives in the background).
    async fn wait_for(&self, id: &str, pred: impl Fn(&Value) -> bool) -> Value {
        for _ in 0..200 {
            let (s, g) = self.get(&format!("/api/games/{id}")).await;
            assert_eq!(s, StatusCode::OK);
            if pred(&g) {
                return g;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("condition not reached for game {id}");
    }
}

#[tokio::test]
async fn friend_game_play_illegal_undo_redo_export_delete() {
    let t = TestServer::fresh().await;

    let (s, h) = t.get("/api/health").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(h["status"], "ok");
    // The store the tests asked for (VIRADA_TEST_STORE) is the one the server uses.
    let store = if virada_server::config::test_store_is_postgres() {
        "postgres"
    } else {
        "sqlite"
    };
    assert_eq!(h["store"], store);
    // Each server process has its own instance id.
    let instance = h["instance"].as_str().expect("an instance id");
    assert!(virada_server::config::is_valid_instance_id(instance), "{h}");

    let g = t.create(json!({"mode": "friend"})).await;
    let id = id_of(&g);
    assert_eq!(g["mode"], "friend");
    assert_eq!(g["side_to_move"], "black");
    assert_eq!(g["legal_moves"], json!(["d3", "c4", "f5", "e6"]));
    assert_eq!(g["status"], "ongoing");
    assert_eq!(g["empties"], 60);

    let v0 = g["version"].as_u64().unwrap();
    let (s, g) = t.play(&id, "f5").await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert!(g["version"].as_u64().unwrap() > v0);
    assert_eq!(g["plies"][0]["move"], "f5");
    assert_eq!(g["plies"][0]["color"], "black");
    assert_eq!(g["plies"][0]["flipped"], json!(["e5"]));
    assert_eq!(g["black_discs"], 4);
    assert_eq!(g["white_discs"], 1);
    assert_eq!(g["side_to_move"], "white");

    // Illegal: an empty square that flips nothing, and an occupied one.
    let (s, e) = t.play(&id, "a1").await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(e["error"]["code"], "illegal_move");
    assert_eq!(e["error"]["square"], "a1");
    let msg = e["error"]["message"].as_str().unwrap();
    assert!(
        msg.contains("a1") && msg.contains("White") && msg.contains("flips nothing"),
        "{msg}"
    );
    let (s, e) = t.play(&id, "f5").await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(e["error"]["message"].as_str().unwrap().contains("occupied"));
    // Not a square at all.
    let (s, e) = t.play(&id, "z9").await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(e["error"]["code"], "bad_request");

    let (_, g) = t.play(&id, "d6").await;
    assert_eq!(g["transcript"], "f5d6");
    let (s, g) = t.turn(&id, "undo").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(g["transcript"], "f5");
    assert_eq!(g["redo"], json!(["d6"]));
    let (_, g) = t.turn(&id, "redo").await;
    assert_eq!(g["transcript"], "f5d6");
    assert_eq!(g["redo"], json!([]));

    // Hint: a value for every legal move, best first.
    let (s, h) = t.get(&format!("/api/games/{id}/hint")).await;
    assert_eq!(s, StatusCode::OK, "{h}");
    let hinted: Vec<&str> = h["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["square"].as_str().unwrap())
        .collect();
    let mut legal: Vec<&str> = g["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let mut sorted = hinted.clone();
    sorted.sort();
    legal.sort();
    assert_eq!(sorted, legal);
    assert_eq!(h["moves"][0]["best"], true);
    let values: Vec<f64> = h["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["value"].as_f64().unwrap())
        .collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");

    // Analysis covers every ply.
    let (s, a) = t.get(&format!("/api/games/{id}/analysis")).await;
    assert_eq!(s, StatusCode::OK, "{a}");
    assert_eq!(a["plies"].as_array().unwrap().len(), 2);
    assert_eq!(a["plies"][1]["move"], "d6");

    // Export.
    let r = t
        .client
        .get(format!(
            "{}/api/games/{id}/export?format=transcript",
            t.base
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.text().await.unwrap().trim(), "f5d6");
    let r = t
        .raw_get(&format!("/api/games/{id}/export?format=ggf"))
        .await;
    let ggf = r.text().await.unwrap();
    assert!(ggf.starts_with("(;GM[Othello]"), "{ggf}");
    // The export reads back as the same game.
    let (s, back) = t.post("/api/import", json!({ "text": ggf })).await;
    assert_eq!(s, StatusCode::CREATED, "{back}");
    assert_eq!(back["transcript"], "f5d6");
    let (s, _) = t.get(&format!("/api/games/{id}/export?format=pdf")).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);

    // Listing, then deletion.
    let (_, list) = t.get("/api/games?status=ongoing").await;
    assert!(list["games"]
        .as_array()
        .unwrap()
        .iter()
        .any(|x| x["id"] == id.as_str() && x["ply_count"] == 2));
    let r = t
        .client
        .delete(format!("{}/api/games/{id}", t.base))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::NO_CONTENT);
    let (s, e) = t.get(&format!("/api/games/{id}")).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert_eq!(e["error"]["code"], "not_found");
    t.server.shutdown().await;
}

/// A transcript whose next move (returned) makes the opponent pass without ending the game.
fn transcript_before_forced_pass() -> (String, String) {
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..10_000 {
        let mut g = Game::new();
        loop {
            let pos = g.position();
            if pos.is_game_over() {
                break;
            }
            let moves: Vec<_> = pos.legal_moves().iter().collect();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let sq = moves[(seed % moves.len() as u64) as usize];
            let after = pos.play(Move::Play(sq)).unwrap();
            if after.must_pass() && !after.is_game_over() {
                return (g.to_string(), sq.to_string());
            }
            g.play(Move::Play(sq)).unwrap();
            while g.pass_if_forced() {}
        }
    }
    panic!("no forced pass found");
}

#[tokio::test]
async fn pass_handling_and_game_end_with_wof_score() {
    let t = TestServer::fresh().await;

    let (transcript, mv) = transcript_before_forced_pass();
    let g = t
        .create(json!({"mode": "friend", "start": "setup", "setup": transcript}))
        .await;
    let id = id_of(&g);
    // Moves from the standard start make a standard game (the page then says "Start").
    assert_eq!(g["start"]["kind"], "standard");
    let mover = g["side_to_move"].as_str().unwrap().to_string();
    let n = plies(&g);
    let (s, g) = t.play(&id, &mv).await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(plies(&g), n + 2, "the move and the opponent's forced pass");
    let pass = &g["plies"][n + 1];
    assert_eq!(pass["move"], "pass");
    assert_ne!(pass["color"], mover.as_str());
    assert_eq!(g["side_to_move"], mover.as_str(), "the mover plays again");
    // Undo takes back the move and the pass.
    let (_, u) = t.turn(&id, "undo").await;
    assert_eq!(plies(&u), n);
    let (_, r) = t.turn(&id, "redo").await;
    assert_eq!(plies(&r), n + 2);

    // Game end with empties: WOF gives them to the winner.
    let board = Position::from_colors(1, 2, virada_rules::Color::Black)
        .unwrap()
        .to_string(); // a1 black, b1 white, Black to move
    let g = t
        .create(json!({"mode": "friend", "start": "setup", "setup": board}))
        .await;
    let id = id_of(&g);
    assert_eq!(g["legal_moves"], json!(["c1"]));
    let (s, g) = t.play(&id, "c1").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(g["status"], "finished");
    assert_eq!(g["side_to_move"], Value::Null);
    let r = &g["result"];
    assert_eq!(r["winner"], "black");
    assert_eq!(r["black_discs"], 3);
    assert_eq!(r["white_discs"], 0);
    assert_eq!(r["black_score"], 64);
    assert_eq!(r["white_score"], 0);
    assert_eq!(r["wof_differs"], true);
    let (s, e) = t.play(&id, "d1").await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert_eq!(e["error"]["code"], "game_over");
    let (_, list) = t.get("/api/games?status=finished").await;
    let entry = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == id.as_str())
        .cloned()
        .unwrap();
    assert_eq!(entry["result"]["black_score"], 64);
    t.server.shutdown().await;
}

#[tokio::test]
async fn computer_game_replies_and_undo() {
    let t = TestServer::fresh().await;
    let (_, levels) = t.get("/api/levels").await;
    let levels = levels.as_array().unwrap();
    assert!(!levels.is_empty());
    assert_eq!(levels[0]["level"], 1);
    assert!(levels[0]["name"]["en"].is_string() && levels[0]["name"]["pt"].is_string());

    // The computer has Black: it moves first, by itself.
    let g = t
        .create(json!({"mode": "computer", "level": 1, "human_color": "white"}))
        .await;
    let id = id_of(&g);
    assert_eq!(g["human_color"], "white");
    let g = t
        .wait_for(&id, |g| plies(g) >= 1 && g["computer_thinking"] == false)
        .await;
    assert_eq!(g["plies"][0]["color"], "black");
    assert_eq!(g["side_to_move"], "white");
    let mv = g["legal_moves"][0].as_str().unwrap().to_string();
    let (s, g2) = t.play(&id, &mv).await;
    assert_eq!(s, StatusCode::OK, "{g2}");
    let g = t
        .wait_for(&id, |g| plies(g) >= 3 && g["computer_thinking"] == false)
        .await;
    assert_eq!(g["side_to_move"], "white");
    // Undo goes back to the person's previous turn (their move and the reply are undone).
    let (s, u) = t.turn(&id, "undo").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(plies(&u), 1);
    assert_eq!(u["side_to_move"], "white");
    // Nothing of the person's left to undo: no change.
    let (_, u2) = t.turn(&id, "undo").await;
    assert_eq!(plies(&u2), 1);
    let (_, r) = t.turn(&id, "redo").await;
    assert_eq!(plies(&r), 3);
    assert_eq!(r["side_to_move"], "white");

    // A move out of turn: right after creation the computer (Black) is to move. a1 is never
    // legal here, so the answer is not_your_turn while the computer thinks, illegal_move after;
    // or stale, when the computer's reply landed between reading the ply and sending the move.
    let g = t
        .create(json!({"mode": "computer", "level": 1, "human_color": "white"}))
        .await;
    let (s, e) = t.play(&id_of(&g), "a1").await;
    if g["computer_thinking"] == true && s == StatusCode::CONFLICT {
        let code = e["error"]["code"].as_str().unwrap_or_default();
        assert!(code == "not_your_turn" || code == "stale", "{e}");
        if code == "stale" {
            assert_eq!(plies(&e["game"]), 1, "stale only once the reply is in: {e}");
        }
    } else {
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    }
    // XOT: 8 opening moves already played, Black to move, the plies start after them.
    let g = t.create(json!({"mode": "friend", "start": "xot"})).await;
    assert_eq!(g["start"]["kind"], "xot");
    assert_eq!(g["start"]["opening"].as_str().unwrap().len(), 16);
    assert_eq!(
        g["black_discs"].as_u64().unwrap() + g["white_discs"].as_u64().unwrap(),
        12
    );
    assert_eq!(g["side_to_move"], "black");
    assert_eq!(plies(&g), 0);
    let (s, e) = t
        .post("/api/games", json!({"mode": "computer", "level": 99}))
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(e["error"]["message"].as_str().unwrap().contains("level 99"));
    t.server.shutdown().await;
}

#[tokio::test]
async fn restart_keeps_games() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let t = TestServer::start(&db).await;
    let g = t.create(json!({"mode": "friend"})).await;
    let id = id_of(&g);
    for mv in ["f5", "d6", "c3"] {
        let (s, _) = t.play(&id, mv).await;
        assert_eq!(s, StatusCode::OK);
    }
    t.turn(&id, "undo").await;
    let client = t.client.clone();
    t.server.shutdown().await;

    let t = TestServer::start_as(&db, client).await;
    let (s, g) = t.get(&format!("/api/games/{id}")).await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["transcript"], "f5d6");
    assert_eq!(g["redo"], json!(["c3"]));
    let (s, g) = t.play(&id, "c3").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(g["transcript"], "f5d6c3");
    t.server.shutdown().await;
}

#[tokio::test]
async fn bad_requests_get_json_errors() {
    let t = TestServer::fresh().await;
    // Malformed JSON.
    let r = t
        .client
        .post(format!("{}/api/games", t.base))
        .header("content-type", "application/json")
        .body("{\"mode\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    let e: Value = r.json().await.unwrap();
    assert_eq!(e["error"]["code"], "bad_request");
    // Too large.
    let big = "x".repeat(100 * 1024);
    let r = t
        .client
        .post(format!("{}/api/import", t.base))
        .json(&json!({ "text": big }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let e: Value = r.json().await.unwrap();
    assert_eq!(e["error"]["code"], "payload_too_large");
    // Bad fields and setup text, with where it failed.
    let (s, e) = t.post("/api/games", json!({"mode": "solo"})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(e["error"]["message"].as_str().unwrap().contains("solo"));
    let (s, e) = t.post("/api/import", json!({"text": "f5d6c3zz"})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let m = e["error"]["message"].as_str().unwrap();
    assert!(m.contains("column 7"), "{m}");
    // The code and params a page phrases in its own language.
    assert_eq!(e["error"]["code"], "bad_setup");
    assert_eq!(
        e["error"]["params"],
        json!({"format": "transcript", "column": 7})
    );
    let (s, _) = t
        .post(
            "/api/games/g_nosuchgame/moves",
            json!({"square": "d3", "ply": 0}),
        )
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, _) = t.get("/api/games/'%20or%201=1").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, e) = t.get("/api/nothing").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert_eq!(e["error"]["code"], "not_found");
    let g = t.create(json!({"mode": "friend"})).await;
    let (s, _) = t
        .post(
            &format!("/api/games/{}/moves", id_of(&g)),
            json!({"square": 12}),
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    // The import itself works.
    let (s, g) = t.post("/api/import", json!({"text": "f5 d6 c3"})).await;
    assert_eq!(s, StatusCode::CREATED);
    assert_eq!(g["mode"], "friend");
    assert_eq!(g["transcript"], "f5d6c3");
    // The front end is served for client routes, API errors stay JSON.
    let r = t.raw_get("/rules").await;
    assert_eq!(r.status(), StatusCode::OK);
    assert!(r.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    t.server.shutdown().await;
}

/// Waits until no engine job runs; the searches below would take minutes, so reaching 0 engine
/// jobs proves that they were cancelled.
async fn wait_engine_idle(t: &TestServer) {
    t.wait_health("engine_jobs", 0).await;
}

#[tokio::test]
async fn searches_are_cancelled_by_undo_delete_and_abandonment() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = ServerConfig::for_tests(dir.path().join("db.sqlite"));
    config.move_time_limit = Duration::from_secs(600);
    config.idle_timeout = Duration::from_millis(300);
    // Without the book: level 21 would answer the start position from it at once.
    let engine = std::sync::Arc::new(virada_server::runtime::engine_port::new_engine_without_book);
    let server = Server::start_with_engine(config, engine).await.unwrap();
    let t = TestServer::of(server);
    // Level 21 is limited by time alone: it starts deeper iterations for 4.5 s of its 10 s cap,
    // far longer than this test. (Level 20 stops at depth 20, which the selective search now
    // reaches in about 2 s a move (measured against level 1), and sooner here: the worker's
    // table keeps what the earlier searches of this test found after f5, one of the start
    // position's four symmetric moves. The computer could then move before the test abandoned
    // its game.)
    let g = t
        .create(json!({"mode": "computer", "level": 21, "human_color": "black"}))
        .await;
    let id = id_of(&g);
    let (s, g) = t.play(&id, "f5").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(g["computer_thinking"], true);
    let (s, e) = t.play(&id, "d6").await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert_eq!(e["error"]["code"], "not_your_turn");
    t.wait_health("engine_jobs", 1).await;
    // Undo while thinking cancels the search and takes back the person's move.
    let (s, u) = t.turn(&id, "undo").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(plies(&u), 0);
    assert_eq!(u["computer_thinking"], false);
    wait_engine_idle(&t).await;

    // Deleting a game cancels its search.
    let (_, g) = t.play(&id, "f5").await;
    assert_eq!(g["computer_thinking"], true);
    let r = t
        .client
        .delete(format!("{}/api/games/{id}", t.base))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::NO_CONTENT);
    wait_engine_idle(&t).await;

    // A game nobody watches is abandoned after the idle timeout: search cancelled, unloaded.
    let g = t
        .create(json!({"mode": "computer", "level": 21, "human_color": "white"}))
        .await;
    assert_eq!(g["computer_thinking"], true);
    t.wait_health("engine_jobs", 1).await;
    t.wait_health("active_games", 0).await;
    wait_engine_idle(&t).await;
    // It resumes on the next request, thinking again.
    let (s, g) = t.get(&format!("/api/games/{}", id_of(&g))).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(g["computer_thinking"], true);
    t.server.shutdown().await;
}

#[tokio::test]
async fn corrupt_stored_game_is_reported_not_fatal() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let t = TestServer::start(&db).await;
    let g = t.create(json!({"mode": "friend"})).await;
    let id = id_of(&g);
    let client = t.client.clone();
    t.server.shutdown().await;
    crate::kit::rows::exec(
        &db,
        &format!("UPDATE games SET moves = 'f5 f5' WHERE id = '{id}'"),
    )
    .await;
    let t = TestServer::start_as(&db, client).await;
    let (s, e) = t.get(&format!("/api/games/{id}")).await;
    // Its owner learns it is corrupt (and may delete it: tests/findings.rs).
    assert_eq!(s, StatusCode::CONFLICT);
    assert_eq!(e["error"]["code"], "corrupt_game");
    assert!(e["error"]["message"].as_str().unwrap().contains("corrupt"));
    // The server goes on, and the list still shows the game.
    let (s, list) = t.get("/api/games").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(list["games"].as_array().unwrap().len(), 1);
    let g = t.create(json!({"mode": "friend"})).await;
    assert_eq!(t.play(&id_of(&g), "d3").await.0, StatusCode::OK);
    t.server.shutdown().await;
}

/// The app the server is given (`ServerConfig::web`, the binary hands it `virada_web::FILES`):
/// `/` and the client routes are its page, `/assets/...` its files with their type and ETag
/// (a revalidation is a 304); a server given none says so on `/`.
#[tokio::test]
async fn the_browser_app_it_is_given_is_served() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = ServerConfig::for_tests(dir.path().join("db.sqlite"));
    config.web = virada_server::assets::WebFiles(virada_web::FILES);
    let t = TestServer::with(config).await;
    let get = |path: &str, etag: Option<&str>| {
        let mut req = t.client.get(format!("{}{path}", t.base));
        if let Some(e) = etag {
            req = req.header("If-None-Match", e);
        }
        req.send()
    };
    for path in ["/", "/rules", "/learn"] {
        let r = get(path, None).await.unwrap();
        assert_eq!(r.status(), StatusCode::OK, "{path}");
        let body = r.text().await.unwrap();
        assert!(body.contains("/assets/app.js"), "{path}: the app's page");
    }
    let r = get("/assets/app.js", None).await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert!(r.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/javascript"));
    let etag = r.headers()["etag"].to_str().unwrap().to_string();
    let again = get("/assets/app.js", Some(&etag)).await.unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    t.server.shutdown().await;

    let bare = TestServer::start(&dir.path().join("bare.sqlite")).await;
    let body = bare
        .client
        .get(format!("{}/", bare.base))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(body.contains("without its web front end"), "{body}");
    bare.server.shutdown().await;
}

#[tokio::test]
async fn health_says_503_while_the_database_cannot_answer() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite");
    let t = TestServer::start(&path).await;
    let (s, h) = t.get("/api/health").await;
    assert_eq!((s, &h["status"]), (StatusCode::OK, &json!("ok")), "{h}");
    // The database answers no read of games (as when it is gone): 503.
    crate::kit::rows::exec(&path, "ALTER TABLE games RENAME TO games_away").await;
    let (s, h) = t.get("/api/health").await;
    assert_eq!(
        (s, &h["status"]),
        (
            StatusCode::SERVICE_UNAVAILABLE,
            &json!("database_unreachable")
        ),
        "{h}"
    );
    crate::kit::rows::exec(&path, "ALTER TABLE games_away RENAME TO games").await;
    let (s, h) = t.get("/api/health").await;
    assert_eq!((s, &h["status"]), (StatusCode::OK, &json!("ok")), "{h}");
}
