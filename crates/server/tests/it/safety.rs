//! Players' safety on a real server (port 0, SQLite or PostgreSQL): a block stops the blocked
//! player's chat reaching the blocker and keeps the two from one game; a report is kept and
//! listed for admins only; a ban ends the sessions and refuses sign-in; chat off.

use crate::kit::accounts::{call, code, sign_in, sign_up};
use crate::kit::games::sockets;
use crate::kit::online::*;
use crate::kit::rated::ana_and_bia;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use virada_server::config::PgTarget;
use virada_server::runtime::time::ManualTime;
use virada_server::safety::admin::{run, AdminDone, AdminOp};
use virada_store::admin::Db;

/// The database the test server of `path` uses, for `safety::admin::run`.
fn db_of(path: &std::path::Path) -> Db {
    if std::env::var("VIRADA_TEST_STORE").is_ok_and(|s| s == "postgres") {
        Db::Postgres(PgTarget::for_test_path(path))
    } else {
        Db::Sqlite(path.to_path_buf())
    }
}

async fn say(ws: &mut Ws, text: &str) {
    send(ws, json!({"type": "chat", "text": text})).await;
}

/// The next chat line's text `ws` gets.
async fn next_chat(ws: &mut Ws) -> String {
    next_of(ws, "chat").await["line"]["text"]
        .as_str()
        .unwrap()
        .to_string()
}

fn chat_texts(game: &Value) -> Vec<String> {
    game["online"]["chat"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn a_block_stops_chat_to_the_blocker_and_joining() {
    let (srv, _) = fresh().await;
    let (ana, bia) = ana_and_bia(&srv).await;
    let tc = json!({"kind": "none"});
    let id = srv.started(&ana, &bia, tc.clone()).await;
    let (mut wa, mut wb, _) = sockets(&srv, &ana, &bia, &id).await;
    say(&mut wb, "before").await;
    assert_eq!(next_chat(&mut wa).await, "before");

    // Who may block whom.
    let guest = Browser::new();
    let (s, v, _) = call(&srv, &guest, Method::POST, "/api/account/blocks/bia", None).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::UNAUTHORIZED, "sign_in_required")
    );
    let (s, v, _) = call(&srv, &ana, Method::POST, "/api/account/blocks/nobody", None).await;
    assert_eq!((s, code(&v)), (StatusCode::NOT_FOUND, "no_such_player"));
    let (s, v, _) = call(&srv, &ana, Method::POST, "/api/account/blocks/ANA", None).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::BAD_REQUEST, "cannot_block_yourself")
    );

    // Ana blocks Bia: Bia's lines no longer reach her; hers still reach Bia.
    let (s, v, _) = call(&srv, &ana, Method::POST, "/api/account/blocks/BIA", None).await;
    assert_eq!((s, &v), (StatusCode::OK, &json!({"blocked": "bia"})));
    let (_, v) = srv.get(&ana, "/api/account/blocks").await;
    assert_eq!(v["blocks"][0]["username"], "bia", "{v}");
    say(&mut wb, "hidden").await;
    assert_eq!(next_chat(&mut wb).await, "before");
    assert_eq!(next_chat(&mut wb).await, "hidden");
    say(&mut wa, "shown").await;
    // Ana's next chat line is her own: Bia's "hidden" never came.
    assert_eq!(next_chat(&mut wa).await, "shown");
    assert_eq!(next_chat(&mut wb).await, "shown");
    // A fresh game message leaves Bia's lines out for Ana, not for Bia.
    send(&mut wa, json!({"type": "hello", "version": 1})).await;
    assert_eq!(chat_texts(&next_game(&mut wa).await), ["shown"]);
    send(&mut wb, json!({"type": "hello", "version": 1})).await;
    assert_eq!(
        chat_texts(&next_game(&mut wb).await),
        ["before", "hidden", "shown"]
    );
    // And so does the game read over HTTP.
    assert_eq!(chat_texts(&srv.game(&ana, &id).await), ["shown"]);
    assert_eq!(chat_texts(&srv.game(&bia, &id).await).len(), 3);

    // Neither can sit down in a game the other holds a seat in, either way round.
    let g = srv.create(&ana, tc.clone(), "black").await;
    let (s, v) = srv.seat(&bia, g["id"].as_str().unwrap(), "x").await;
    assert_eq!((s, code(&v)), (StatusCode::FORBIDDEN, "blocked"), "{v}");
    let g = srv.create(&bia, tc.clone(), "black").await;
    let open = g["id"].as_str().unwrap().to_string();
    let (s, v) = srv.seat(&ana, &open, "x").await;
    assert_eq!((s, code(&v)), (StatusCode::FORBIDDEN, "blocked"), "{v}");
    // Nor through a device link Bia hands Ana.
    let (s, link) = srv
        .post(&bia, &format!("/api/games/{open}/device-link"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{link}");
    let token = link["url"].as_str().unwrap().trim_start_matches("/join/");
    let (s, v) = srv.post(&ana, "/api/join", json!({"token": token})).await;
    assert_eq!((s, code(&v)), (StatusCode::FORBIDDEN, "blocked"), "{v}");
    // Nor accept the other's seek in the lobby.
    let (s, seek) = srv
        .post(
            &bia,
            "/api/seeks",
            json!({"time_control": {"kind": "clock", "minutes": 5, "increment_seconds": 0}}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{seek}");
    let seek = seek["id"].as_str().unwrap().to_string();
    let (s, v) = srv
        .post(&ana, &format!("/api/seeks/{seek}/accept"), json!({}))
        .await;
    assert_eq!((s, code(&v)), (StatusCode::FORBIDDEN, "blocked"), "{v}");
    // A third player is not concerned.
    let (cai, _) = sign_up(&srv, &Browser::new(), "cai", "hunter two!").await;
    let (s, v) = srv.seat(&cai, &open, "x").await;
    assert_eq!(s, StatusCode::OK, "{v}");

    // Unblocked: they can play again.
    let (s, _, _) = call(&srv, &ana, Method::DELETE, "/api/account/blocks/bia", None).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (s, v, _) = call(&srv, &ana, Method::DELETE, "/api/account/blocks/bia", None).await;
    assert_eq!((s, code(&v)), (StatusCode::NOT_FOUND, "not_blocked"));
    let g = srv.create(&ana, tc, "black").await;
    let (s, v) = srv.seat(&bia, g["id"].as_str().unwrap(), "x").await;
    assert_eq!(s, StatusCode::OK, "{v}");
}

#[tokio::test]
async fn chat_off_keeps_every_line_away_and_the_opponent_sees_it() {
    let (srv, _) = fresh().await;
    let (ana, _) = sign_up(&srv, &Browser::new(), "ana", "correct horse").await;
    let guest = Browser::new();
    let id = srv.started(&ana, &guest, json!({"kind": "none"})).await;
    let mut wa = srv.ws(&ana, &id).await;
    let mut wg = srv.ws(&guest, &id).await;
    let g = next_game(&mut wa).await;
    assert!(g["online"].get("chat_off").is_none(), "{g}");
    next_game(&mut wg).await;

    // The account setting: guests have none (their browser keeps it).
    let (s, v) = srv.get(&guest, "/api/account/settings").await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::UNAUTHORIZED, "sign_in_required")
    );
    let (s, v, _) = call(
        &srv,
        &ana,
        Method::PUT,
        "/api/account/settings",
        Some(json!({"chat_off": true})),
    )
    .await;
    assert_eq!((s, &v), (StatusCode::OK, &json!({"chat_off": true})));
    let (_, v) = srv.get(&ana, "/api/account/settings").await;
    assert_eq!(v, json!({"chat_off": true}));

    // Ana gets no chat at all; the guest sees that Ana's chat is off.
    say(&mut wg, "hello?").await;
    assert_eq!(next_chat(&mut wg).await, "hello?");
    send(&mut wa, json!({"type": "hello", "version": 1})).await;
    let g = next_game(&mut wa).await;
    assert!(chat_texts(&g).is_empty(), "{g}");
    send(&mut wg, json!({"type": "hello", "version": 1})).await;
    let g = next_game(&mut wg).await;
    assert_eq!(
        g["online"]["chat_off"],
        json!({"black": true, "white": false})
    );
    assert_eq!(chat_texts(&g), ["hello?"]);
    let first = g["legal_moves"][0].as_str().unwrap().to_string();
    send(&mut wa, json!({"type": "move", "square": first, "ply": 0})).await;
    // Up to the move's game message, no chat line came to Ana.
    loop {
        let m = next(&mut wa).await;
        assert_ne!(m["type"], "chat", "{m}");
        if m["type"] == "game" && plies(&m["game"]) == 1 {
            break;
        }
    }

    // The guest turns chat off for this game (its browser's setting): only a seat may.
    let (s, v) = srv
        .post(
            &Browser::new(),
            &format!("/api/games/{id}/chat"),
            json!({"off": true}),
        )
        .await;
    assert_eq!(s, StatusCode::METHOD_NOT_ALLOWED, "{v}");
    let (s, v, _) = call(
        &srv,
        &Browser::new(),
        Method::PUT,
        &format!("/api/games/{id}/chat"),
        Some(json!({"off": true})),
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "not_allowed"), "{v}");
    let (s, v, _) = call(
        &srv,
        &guest,
        Method::PUT,
        &format!("/api/games/{id}/chat"),
        Some(json!({"off": true})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    say(&mut wg, "anyone?").await;
    send(&mut wg, json!({"type": "hello", "version": 1})).await;
    // (Game messages sent before the change may come first.)
    let g = game_where(&mut wg, |g| g["online"]["chat_off"]["white"] == true).await;
    assert!(chat_texts(&g).is_empty(), "{g}");
    assert_eq!(
        g["online"]["chat_off"],
        json!({"black": true, "white": true})
    );
}

#[tokio::test]
async fn reports_are_kept_for_admins_and_a_ban_ends_the_sessions() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite");
    let srv = start(&path, ManualTime::new(T0)).await;
    let (ana, bia) = ana_and_bia(&srv).await;
    let id = srv.started(&ana, &bia, json!({"kind": "none"})).await;
    let mut wb = srv.ws(&bia, &id).await;
    next_game(&mut wb).await;
    say(&mut wb, "rude words").await;
    assert_eq!(next_chat(&mut wb).await, "rude words");

    // Who may report what.
    let report = json!({"player": "bia", "game": id, "chat_line": 1, "reason": "insults"});
    let (s, v) = srv
        .post(&Browser::new(), "/api/reports", report.clone())
        .await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::UNAUTHORIZED, "sign_in_required")
    );
    let (s, v) = srv
        .post(
            &ana,
            "/api/reports",
            json!({"player": "bia", "reason": " "}),
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    let long = "x".repeat(501);
    let (s, v) = srv
        .post(
            &ana,
            "/api/reports",
            json!({"player": "bia", "reason": long}),
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    let (s, v) = srv
        .post(
            &ana,
            "/api/reports",
            json!({"player": "nobody", "reason": "x"}),
        )
        .await;
    assert_eq!((s, code(&v)), (StatusCode::NOT_FOUND, "no_such_player"));
    let (s, v) = srv
        .post(
            &ana,
            "/api/reports",
            json!({"player": "bia", "game": "g_missing", "reason": "x"}),
        )
        .await;
    assert!(s.is_client_error(), "{v}");
    let (s, v) = srv.post(&ana, "/api/reports", report.clone()).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let first = v["id"].as_i64().unwrap();

    // Listed for admins only, with the chat line's text.
    let (s, v) = srv.get(&ana, "/api/admin/reports").await;
    assert_eq!((s, code(&v)), (StatusCode::FORBIDDEN, "admin_only"));
    let (s, _) = srv.get(&Browser::new(), "/api/admin/reports").await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let db = db_of(&path);
    assert_eq!(
        run(&db, AdminOp::Grant("Ana".into())).await,
        Ok(AdminDone::Account("Ana".into()))
    );
    assert!(run(&db, AdminOp::Grant("nobody".into())).await.is_err());
    let (s, v) = srv.get(&ana, "/api/admin/reports?open=true").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let r = &v["reports"][0];
    assert_eq!(
        (
            &r["id"],
            &r["reporter"],
            &r["player"],
            &r["chat_text"],
            &r["reason"]
        ),
        (
            &json!(first),
            &json!("ana"),
            &json!("bia"),
            &json!("rude words"),
            &json!("insults")
        )
    );
    let (s, v) = srv
        .post(
            &ana,
            &format!("/api/admin/reports/{first}/resolve"),
            json!({"note": "warned"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (_, v) = srv.get(&ana, "/api/admin/reports?open=true").await;
    assert_eq!(v["reports"], json!([]));
    let (_, v) = srv.get(&ana, "/api/admin/reports").await;
    assert_eq!(v["reports"][0]["resolution"], "warned");
    let Ok(AdminDone::Reports(rows)) = run(&db, AdminOp::Reports { open_only: false }).await else {
        panic!("reports listed");
    };
    assert_eq!(rows.len(), 1);
    run(&db, AdminOp::Revoke("ana".into())).await.unwrap();
    let (s, _) = srv.get(&ana, "/api/admin/reports").await;
    assert_eq!(s, StatusCode::FORBIDDEN);

    // At most 10 reports a day an account.
    for _ in 1..10 {
        let (s, v) = srv.post(&ana, "/api/reports", report.clone()).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
    }
    let (s, v) = srv.post(&ana, "/api/reports", report).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::TOO_MANY_REQUESTS, "too_many_reports")
    );

    // A ban: Bia's session ends at once, and she cannot sign in again until unbanned.
    assert_eq!(srv.get(&bia, "/api/session").await.1["username"], "bia");
    run(
        &db,
        AdminOp::Ban {
            name: "bia".into(),
            reason: "insults".into(),
        },
    )
    .await
    .unwrap();
    assert_eq!(
        srv.get(&bia, "/api/session").await.1["username"],
        Value::Null
    );
    let (s, v, _) = sign_in(&srv, &Browser::new(), "bia", "battery staple").await;
    assert_eq!((s, code(&v)), (StatusCode::FORBIDDEN, "banned"), "{v}");
    assert_eq!(v["error"]["params"]["reason"], "insults");
    // The wrong password is still only a wrong password.
    let (s, v, _) = sign_in(&srv, &Browser::new(), "bia", "wrong password").await;
    assert_eq!((s, code(&v)), (StatusCode::UNAUTHORIZED, "wrong_password"));
    run(&db, AdminOp::Unban("bia".into())).await.unwrap();
    let (s, v, _) = sign_in(&srv, &Browser::new(), "bia", "battery staple").await;
    assert_eq!(s, StatusCode::OK, "{v}");
}
