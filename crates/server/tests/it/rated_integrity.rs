//! Rated play that counts (issue 55): a game with an opponent, or rated against the computer,
//! cannot be deleted by a player once both sides moved (resign instead), its result stays in
//! both records; before both moved, deleting it aborts it; a rated seat cannot be handed to
//! another browser by a device link. On SQLite, or PostgreSQL with `VIRADA_TEST_STORE`.

use crate::kit::accounts::{code, sign_up};
use crate::kit::games::{a_move_each, a_move_each_then_resign, play_first};
use crate::kit::online::*;
use crate::kit::rated::{accounts, ana_and_bia, blitz, profile, rated_game};
use reqwest::StatusCode;
use serde_json::{json, Value};

async fn delete(srv: &TestServer, who: &Browser, id: &str) -> (StatusCode, Value) {
    let r = reqwest::Client::new()
        .delete(format!("{}/api/games/{id}", srv.base))
        .header("Cookie", &who.cookie)
        .send()
        .await
        .unwrap();
    let status = r.status();
    (status, r.json().await.unwrap_or(Value::Null))
}

/// `name`'s record on its profile: (wins, draws, losses, aborted) and its rating changes.
async fn record(srv: &TestServer, name: &str) -> (Value, usize) {
    let p = profile(srv, name).await;
    let r = &p["record"];
    (
        json!([r["wins"], r["draws"], r["losses"], r["aborted"]]),
        p["history"].as_array().unwrap().len(),
    )
}

#[tokio::test]
async fn a_rated_game_cannot_be_deleted_once_both_moved_and_its_result_stays() {
    let (srv, _) = fresh().await;
    let (ana, bia) = ana_and_bia(&srv).await;

    // Before both moved: deleting is an abort; the game stays for Bia, no result, unrated.
    let id = rated_game(&srv, &ana, &bia).await;
    let (s, v) = delete(&srv, &ana, &id).await;
    assert_eq!(s, StatusCode::NO_CONTENT, "{v}");
    let g = srv.game(&bia, &id).await;
    assert_eq!(g["status"], "finished", "{g}");
    assert_eq!(g["online"]["end"]["reason"], "abort", "{g}");
    assert_eq!(blitz(&srv, "bia").await, None);
    // An aborted game holds no result: now it may go.
    let (s, v) = delete(&srv, &ana, &id).await;
    assert_eq!(s, StatusCode::NO_CONTENT, "{v}");
    let (s, _) = srv.get(&bia, &format!("/api/games/{id}")).await;
    assert_eq!(s, StatusCode::NOT_FOUND);

    // Both moved: refused, the game goes on for both.
    let id = rated_game(&srv, &ana, &bia).await;
    let (mut wa, mut wb, _) = a_move_each(&srv, &ana, &bia, &id).await;
    let (s, v) = delete(&srv, &ana, &id).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "game_kept"), "{v}");
    assert_eq!(v["error"]["params"]["reason"], "in_play", "{v}");
    let g = srv.game(&bia, &id).await;
    assert_eq!(g["online"]["phase"], "playing", "{g}");
    // The actor went on after the refusal: Ana resigns the same game.
    send(&mut wa, json!({"type": "resign", "ply": 2})).await;
    game_where(&mut wb, |g| g["status"] == "finished").await;
    drop((wa, wb));

    // Finished with a result: refused too; both records and rating histories keep it.
    let (s, v) = delete(&srv, &ana, &id).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "game_kept"), "{v}");
    assert_eq!(v["error"]["params"]["reason"], "finished", "{v}");
    assert_eq!(record(&srv, "ana").await, (json!([0, 0, 1, 0]), 1));
    assert_eq!(record(&srv, "bia").await, (json!([1, 0, 0, 0]), 1));
    assert_eq!(
        srv.game(&bia, &id).await["online"]["end"]["reason"],
        "resign"
    );

    // A casual game against a person is kept the same way once both moved.
    let id = srv.started(&ana, &bia, json!({"kind": "none"})).await;
    a_move_each_then_resign(&srv, &id, &ana, &bia, "white").await;
    let (s, v) = delete(&srv, &ana, &id).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "game_kept"), "{v}");
    // A game still waiting for its opponent, and a local one, are the owner's to delete.
    let g = srv.create(&ana, json!({"kind": "none"}), "black").await;
    let (s, v) = delete(&srv, &ana, g["id"].as_str().unwrap()).await;
    assert_eq!(s, StatusCode::NO_CONTENT, "{v}");
    let (_, g) = srv
        .post(&ana, "/api/games", json!({"mode": "friend"}))
        .await;
    let (s, v) = delete(&srv, &ana, g["id"].as_str().unwrap()).await;
    assert_eq!(s, StatusCode::NO_CONTENT, "{v}");
    srv.server.shutdown().await;
}

#[tokio::test]
async fn a_rated_game_against_the_computer_cannot_be_deleted_once_both_moved() {
    let (srv, _) = fresh().await;
    let [ana] = accounts(&srv, ["ana"]).await;
    let body = json!({"mode": "computer", "level": 1, "human_color": "black", "rated": true,
                      "time_control": {"kind": "clock", "minutes": 3, "increment_seconds": 2}});
    let (s, g) = srv.post(&ana, "/api/games", body.clone()).await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let mut ws = srv.ws(&ana, &id).await;
    let g = next_game(&mut ws).await;
    play_first(&mut ws, &g).await;
    game_at(&mut ws, 2).await;
    let (s, v) = delete(&srv, &ana, &id).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "game_kept"), "{v}");
    let mut ws = srv.ws(&ana, &id).await;
    next_game(&mut ws).await;
    send(&mut ws, json!({"type": "resign", "ply": 2})).await;
    game_where(&mut ws, |g| g["status"] == "finished").await;
    let (s, v) = delete(&srv, &ana, &id).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "game_kept"), "{v}");
    assert_eq!(blitz(&srv, "ana").await.map(|b| b.1), Some(1));
    // Before the computer moved, nobody's record holds it.
    let (_, g) = srv.post(&ana, "/api/games", body).await;
    let (s, v) = delete(&srv, &ana, g["id"].as_str().unwrap()).await;
    assert_eq!(s, StatusCode::NO_CONTENT, "{v}");
    srv.server.shutdown().await;
}

#[tokio::test]
async fn a_rated_seat_takes_no_device_link() {
    let (srv, _) = fresh().await;
    let (ana, bia) = ana_and_bia(&srv).await;
    let id = rated_game(&srv, &ana, &bia).await;
    let (s, v) = srv
        .post(&ana, &format!("/api/games/{id}/device-link"), json!({}))
        .await;
    assert_eq!((s, code(&v)), (StatusCode::FORBIDDEN, "rated_seat"), "{v}");

    // A link stored for a rated seat (made before this rule) seats neither a guest nor another
    // account; the seat's own account, signed in anywhere, already plays it.
    let token = "0123456789abcdef0123456789abcdef";
    let hash: String = sha2::Digest::finalize(sha2::Digest::chain_update(
        <sha2::Sha256 as sha2::Digest>::new(),
        token,
    ))
    .iter()
    .map(|b| format!("{b:02x}"))
    .collect();
    crate::kit::rows::exec(
        &srv.db,
        &format!(
            "INSERT INTO device_links (token_hash, game_id, color, created_at, expires_at) \
             VALUES ('{hash}', '{id}', 'black', {T0}, {})",
            T0 + 3_600_000
        ),
    )
    .await;
    for who in [
        Browser::new(),
        sign_up(&srv, &Browser::new(), "eve", "correct horse")
            .await
            .0,
    ] {
        let (s, v) = srv.post(&who, "/api/join", json!({"token": token})).await;
        assert_eq!((s, code(&v)), (StatusCode::FORBIDDEN, "rated_seat"), "{v}");
        assert_eq!(srv.game(&who, &id).await["online"]["you"], Value::Null);
    }
    let (_, _, phone) =
        crate::kit::accounts::sign_in(&srv, &Browser::new(), "ana", "correct horse").await;
    assert_eq!(srv.game(&phone, &id).await["online"]["you"], "black");

    // An unrated seat still takes one.
    let id = srv.started(&ana, &bia, json!({"kind": "none"})).await;
    let (s, v) = srv
        .post(&ana, &format!("/api/games/{id}/device-link"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    srv.server.shutdown().await;
}

#[tokio::test]
async fn rated_games_between_the_same_two_accounts_stop_counting_and_are_flagged() {
    use virada_server::safety::admin::{run, AdminOp};
    use virada_store::admin::Db;
    let (srv, _) = fresh().await;
    let path = srv.db.clone();
    let [ana, bia, cid] = accounts(&srv, ["ana", "bia", "cid"]).await;
    let per_day = virada_server::rating::PAIR_RATED_PER_WINDOW as u64;
    // Bia feeds Ana: each game both move once, then Bia (White) resigns.
    for n in 1..=per_day + 2 {
        let id = rated_game(&srv, &ana, &bia).await;
        a_move_each_then_resign(&srv, &id, &ana, &bia, "white").await;
        let games = blitz(&srv, "ana").await.unwrap().1;
        assert_eq!(games, n.min(per_day), "after game {n}");
        assert_eq!(blitz(&srv, "bia").await.unwrap().1, n.min(per_day));
    }
    // Another pair is not held back by them.
    let id = rated_game(&srv, &cid, &ana).await;
    a_move_each_then_resign(&srv, &id, &cid, &ana, "white").await;
    assert_eq!(blitz(&srv, "ana").await.unwrap().1, per_day + 1);

    // One flag for the admins, on the account that gained.
    let db = if virada_server::config::test_store_is_postgres() {
        Db::Postgres(virada_server::config::PgTarget::for_test_path(&path))
    } else {
        Db::Sqlite(path.clone())
    };
    run(&db, AdminOp::Grant("cid".into())).await.unwrap();
    let (s, v) = srv.get(&cid, "/api/admin/reports?open=true").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let reports = v["reports"].as_array().unwrap();
    assert_eq!(reports.len(), 1, "{v}");
    assert_eq!(reports[0]["player"], "ana");
    assert_eq!(reports[0]["reporter"], Value::Null);
    let reason = reports[0]["reason"].as_str().unwrap();
    assert!(
        reason.contains("ana and bia") && reason.contains("feeding"),
        "{reason}"
    );
    srv.server.shutdown().await;
}
