//! Accounts over HTTP on a real server (port 0, a real database file): sign-up, sign-in, wrong
//! password, lockout, a guest's games taken along, password change, recovery, deletion with
//! the games anonymised for the opponent.

use crate::kit::accounts::{call, code, sign_in, sign_up, whoami};
use crate::kit::online::*;
use reqwest::{Method, StatusCode};
use serde_json::json;
use virada_server::runtime::time::ManualTime;

fn db() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite");
    (dir, path)
}

#[tokio::test]
async fn sign_up_in_out_and_wrong_passwords() {
    let (_dir, path) = db();
    let srv = start(&path, ManualTime::new(T0)).await;
    let guest = Browser::new();
    assert_eq!(whoami(&srv, &guest).await, None);

    // Bad names and passwords are refused with their bounds.
    for (name, password, want) in [
        ("ab", "long enough", "invalid_username"),
        ("a b c", "long enough", "invalid_username"),
        ("x".repeat(21).as_str(), "long enough", "invalid_username"),
        ("Ana", "short", "invalid_password"),
        ("Ana", &"p".repeat(129), "invalid_password"),
    ] {
        let (s, v, _) = call(
            &srv,
            &guest,
            Method::POST,
            "/api/accounts",
            Some(json!({"username": name, "password": password})),
        )
        .await;
        assert_eq!(
            (s, code(&v)),
            (StatusCode::BAD_REQUEST, want),
            "{name}: {v}"
        );
    }
    let (s, v) = srv
        .post(&guest, "/api/accounts", json!({"username": "Ana_1"}))
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");

    let (ana, recovery) = sign_up(&srv, &guest, "Ana_1", "correct horse").await;
    assert_eq!(recovery.len(), 23, "{recovery}");
    assert_eq!(whoami(&srv, &ana).await.as_deref(), Some("Ana_1"));
    // Unique without regard to case.
    let (s, v, _) = call(
        &srv,
        &Browser::new(),
        Method::POST,
        "/api/accounts",
        Some(json!({"username": "ana_1", "password": "another one"})),
    )
    .await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::CONFLICT, "username_taken"),
        "{v}"
    );

    // Another device signs in (any case of the name); a wrong password or name is 401.
    let phone = Browser::new();
    let (s, v, _) = sign_in(&srv, &phone, "ANA_1", "wrong horse").await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::UNAUTHORIZED, "wrong_password"),
        "{v}"
    );
    let (s, v, _) = sign_in(&srv, &phone, "nobody", "correct horse").await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::UNAUTHORIZED, "wrong_password"),
        "{v}"
    );
    let (s, v, phone) = sign_in(&srv, &phone, "ANA_1", "correct horse").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["username"], "Ana_1");
    assert_eq!(whoami(&srv, &phone).await.as_deref(), Some("Ana_1"));

    // Signing out ends that session only; its cookie no longer signs anyone in.
    let (s, _, out) = call(&srv, &phone, Method::DELETE, "/api/session", None).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    assert!(!out.cookie.contains("virada_session"), "{}", out.cookie);
    assert_eq!(whoami(&srv, &out).await, None);
    assert_eq!(whoami(&srv, &phone).await, None);
    assert_eq!(whoami(&srv, &ana).await.as_deref(), Some("Ana_1"));

    // The public profile: no ratings yet; an unknown name is 404.
    let (s, p) = srv.get(&guest, "/api/players/ana_1").await;
    assert_eq!(s, StatusCode::OK, "{p}");
    assert_eq!(p["username"], "Ana_1");
    assert_eq!(p["ratings"], json!({}));
    let (s, _) = srv.get(&guest, "/api/players/nobody").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn wrong_passwords_lock_the_account_and_the_address() {
    let (_dir, path) = db();
    let srv = start(&path, ManualTime::new(T0)).await;
    let (_ana, _) = sign_up(&srv, &Browser::new(), "ana", "correct horse").await;
    let b = Browser::new();
    for _ in 0..5 {
        let (s, v, _) = sign_in(&srv, &b, "ana", "wrong horse").await;
        assert_eq!(
            (s, code(&v)),
            (StatusCode::UNAUTHORIZED, "wrong_password"),
            "{v}"
        );
    }
    // Locked: even the right password is refused, and exactly as an unknown name is (status and
    // whole body), so the lock tells nobody that the name exists; recovery too.
    let (s, locked, _) = sign_in(&srv, &b, "ana", "correct horse").await;
    let (s2, unknown, _) = sign_in(&srv, &b, "nobody", "correct horse").await;
    assert_eq!((s, &locked), (s2, &unknown));
    assert_eq!(
        (s, code(&locked)),
        (StatusCode::UNAUTHORIZED, "wrong_password"),
        "{locked}"
    );
    let recover = |name: &str| json!({"username": name, "recovery_code": "0000-0000-0000-0000-0000", "new_password": "a new password"});
    let (s, locked, _) = call(
        &srv,
        &b,
        Method::POST,
        "/api/account/recover",
        Some(recover("ana")),
    )
    .await;
    let (s2, unknown, _) = call(
        &srv,
        &b,
        Method::POST,
        "/api/account/recover",
        Some(recover("nobody")),
    )
    .await;
    assert_eq!((s, &locked), (s2, &unknown));
    assert_eq!(
        (s, code(&locked)),
        (StatusCode::UNAUTHORIZED, "wrong_recovery_code"),
        "{locked}"
    );
    // The address has used its 10 attempts at once; the 11th is refused whatever it is.
    let (s, v, _) = sign_in(&srv, &b, "nobody", "whatever you say").await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::TOO_MANY_REQUESTS, "too_many_requests"),
        "{v}"
    );
}

#[tokio::test]
async fn a_guest_keeps_its_games_when_it_signs_up_and_in() {
    let (_dir, path) = db();
    let srv = start(&path, ManualTime::new(T0)).await;
    let guest = Browser::new();
    let (s, local) = srv
        .post(&guest, "/api/games", json!({"mode": "friend"}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{local}");
    let local = local["id"].as_str().unwrap().to_string();
    // An online game waiting for its second player (its actor is in memory).
    let online = srv.create(&guest, json!({"kind": "none"}), "black").await;
    let online = online["id"].as_str().unwrap().to_string();

    let (ana, _) = sign_up(&srv, &guest, "ana", "correct horse").await;
    let listed = |v: &serde_json::Value| {
        let mut ids: Vec<String> = v["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_str().unwrap().to_string())
            .collect();
        ids.sort();
        ids
    };
    let mut both = vec![local.clone(), online.clone()];
    both.sort();
    let (s, v) = srv.get(&ana, "/api/games").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(listed(&v), both);
    assert_eq!(srv.game(&ana, &online).await["online"]["you"], "black");

    // Signed out, the browser is a guest without them.
    let (_, _, out) = call(&srv, &ana, Method::DELETE, "/api/session", None).await;
    let (s, _) = srv.get(&out, &format!("/api/games/{local}")).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert_eq!(srv.game(&out, &online).await["online"]["you"], json!(null));

    // Another device signs in and has them; its own guest game comes along.
    let phone = Browser::new();
    let (s, g) = srv
        .post(&phone, "/api/games", json!({"mode": "friend"}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    let third = g["id"].as_str().unwrap().to_string();
    let (s, v, phone) = sign_in(&srv, &phone, "ana", "correct horse").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    both.push(third);
    both.sort();
    let (_, v) = srv.get(&phone, "/api/games").await;
    assert_eq!(listed(&v), both);
    assert_eq!(srv.game(&phone, &online).await["online"]["you"], "black");
}

#[tokio::test]
async fn password_change_and_recovery() {
    let (_dir, path) = db();
    let srv = start(&path, ManualTime::new(T0)).await;
    let (ana, code1) = sign_up(&srv, &Browser::new(), "ana", "first password").await;
    let (_, _, laptop) = sign_in(&srv, &Browser::new(), "ana", "first password").await;

    // A guest cannot change a password; the old one is needed.
    let change = |old: &str, new: &str| json!({"old_password": old, "new_password": new});
    let (s, v, _) = call(
        &srv,
        &Browser::new(),
        Method::POST,
        "/api/account/password",
        Some(change("first password", "second password")),
    )
    .await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::UNAUTHORIZED, "sign_in_required"),
        "{v}"
    );
    let (s, v, _) = call(
        &srv,
        &ana,
        Method::POST,
        "/api/account/password",
        Some(change("not it at all", "second password")),
    )
    .await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::UNAUTHORIZED, "wrong_password"),
        "{v}"
    );
    let (s, v, ana) = call(
        &srv,
        &ana,
        Method::POST,
        "/api/account/password",
        Some(change("first password", "second password")),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // This browser stays signed in; the other session ended.
    assert_eq!(whoami(&srv, &ana).await.as_deref(), Some("ana"));
    assert_eq!(whoami(&srv, &laptop).await, None);
    let (s, _, _) = sign_in(&srv, &Browser::new(), "ana", "first password").await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);

    // Recovery: a wrong code is 401; the right one (typed loosely) sets a new password and
    // gives a new code; the old code is used up.
    let recover =
        |c: &str, new: &str| json!({"username": "ana", "recovery_code": c, "new_password": new});
    let (s, v, _) = call(
        &srv,
        &Browser::new(),
        Method::POST,
        "/api/account/recover",
        Some(recover("AAAAA-AAAAA-AAAAA-AAAAA", "third password")),
    )
    .await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::UNAUTHORIZED, "wrong_recovery_code"),
        "{v}"
    );
    let loose = code1.to_lowercase().replace('-', " ");
    let (s, v, device) = call(
        &srv,
        &Browser::new(),
        Method::POST,
        "/api/account/recover",
        Some(recover(&loose, "third password")),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let code2 = v["recovery_code"].as_str().unwrap();
    assert_ne!(code2, code1);
    assert_eq!(whoami(&srv, &device).await.as_deref(), Some("ana"));
    assert_eq!(whoami(&srv, &ana).await, None);
    let (s, _, _) = sign_in(&srv, &Browser::new(), "ana", "third password").await;
    assert_eq!(s, StatusCode::OK);
    let (s, v, _) = call(
        &srv,
        &Browser::new(),
        Method::POST,
        "/api/account/recover",
        Some(recover(&code1, "fourth password")),
    )
    .await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::UNAUTHORIZED, "wrong_recovery_code"),
        "{v}"
    );
}

#[tokio::test]
async fn a_deleted_account_leaves_its_games_to_the_opponent_anonymised() {
    let (_dir, path) = db();
    let srv = start(&path, ManualTime::new(T0)).await;
    let (ana, _) = sign_up(&srv, &Browser::new(), "ana", "correct horse").await;
    let bia = Browser::new();
    let id = srv.started(&ana, &bia, json!({"kind": "none"})).await;
    let g = srv.game(&bia, &id).await;
    // A signed-in player's seat carries the username (not the name sent).
    assert_eq!(g["online"]["seats"]["black"]["name"], "ana");
    let (s, local) = srv
        .post(&ana, "/api/games", json!({"mode": "friend"}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{local}");
    let local = local["id"].as_str().unwrap().to_string();

    // The password is needed.
    let (s, v, _) = call(
        &srv,
        &ana,
        Method::DELETE,
        "/api/account",
        Some(json!({"password": "wrong horse"})),
    )
    .await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::UNAUTHORIZED, "wrong_password"),
        "{v}"
    );
    let (s, v, gone) = call(
        &srv,
        &ana,
        Method::DELETE,
        "/api/account",
        Some(json!({"password": "correct horse"})),
    )
    .await;
    assert_eq!(s, StatusCode::NO_CONTENT, "{v}");
    assert_eq!(whoami(&srv, &gone).await, None);
    assert_eq!(whoami(&srv, &ana).await, None);

    // The opponent still has the game, with the seat anonymised and held by nobody.
    let g = srv.game(&bia, &id).await;
    assert_eq!(g["online"]["seats"]["black"]["name"], "anonymous", "{g}");
    assert_eq!(g["online"]["you"], "white");
    assert_eq!(srv.game(&ana, &id).await["online"]["you"], json!(null));
    // Its game on one device is gone; so are its profile and its name.
    let (s, _) = srv.get(&ana, &format!("/api/games/{local}")).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, _) = srv.get(&bia, "/api/players/ana").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, _, _) = sign_in(&srv, &Browser::new(), "ana", "correct horse").await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
}

/// The `virada_session` Set-Cookie headers of a `POST path` with `body` as `who`, in order, and
/// the status.
async fn session_cookies_set(
    srv: &TestServer,
    who: &Browser,
    path: &str,
    body: serde_json::Value,
) -> (StatusCode, Vec<String>) {
    let r = reqwest::Client::new()
        .post(format!("{}{path}", srv.base))
        .header("Cookie", &who.cookie)
        .json(&body)
        .send()
        .await
        .unwrap();
    let set = r
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .filter(|v| v.starts_with("virada_session="))
        .collect();
    (r.status(), set)
}

#[tokio::test]
async fn a_stale_session_cookie_is_replaced_once_and_signing_in_again_ends_the_old_session() {
    let (_dir, path) = db();
    let srv = start(&path, ManualTime::new(T0)).await;
    let (ana, _) = sign_up(&srv, &Browser::new(), "ana", "correct horse").await;
    // Signed out elsewhere (the same token): `ana` keeps a stale session cookie.
    let (s, _, _) = call(&srv, &ana, Method::DELETE, "/api/session", None).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    assert_eq!(whoami(&srv, &ana).await, None);

    // Signing in with it: one Set-Cookie, the new session (not a clearing one after it).
    let creds = json!({"username": "ana", "password": "correct horse"});
    let (s, set) = session_cookies_set(&srv, &ana, "/api/session", creds.clone()).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(set.len(), 1, "{set:?}");
    assert!(!set[0].contains("Max-Age=0"), "{set:?}");
    let (_, _, signed) = sign_in(&srv, &ana, "ana", "correct horse").await;
    assert_eq!(whoami(&srv, &signed).await.as_deref(), Some("ana"));

    // Signing in again from a signed-in browser ends the session it came with.
    let (s, _, again) = sign_in(&srv, &signed, "ana", "correct horse").await;
    assert_eq!(s, StatusCode::OK);
    assert_ne!(again.cookie, signed.cookie);
    assert_eq!(whoami(&srv, &again).await.as_deref(), Some("ana"));
    assert_eq!(whoami(&srv, &signed).await, None, "the old token is dead");

    // Signing up with a stale cookie: one Set-Cookie, and the guest's games come along.
    let (s, g) = srv
        .post(&signed, "/api/games", json!({"mode": "friend"}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    let game = g["id"].as_str().unwrap().to_string();
    let (s, set) = session_cookies_set(
        &srv,
        &signed,
        "/api/accounts",
        json!({"username": "bia", "password": "correct horse"}),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED);
    assert_eq!(set.len(), 1, "{set:?}");
    assert!(!set[0].contains("Max-Age=0"), "{set:?}");
    let bia = Browser {
        cookie: format!(
            "{}; {}",
            signed
                .cookie
                .split("; ")
                .find(|c| c.starts_with("virada_id="))
                .unwrap(),
            set[0].split(';').next().unwrap()
        ),
    };
    assert_eq!(whoami(&srv, &bia).await.as_deref(), Some("bia"));
    let (s, _) = srv.get(&bia, &format!("/api/games/{game}")).await;
    assert_eq!(s, StatusCode::OK);
}

/// The bytes of every file in `dir` (the database, its log and shared memory if any) that
/// contain `needle`, by file name.
fn files_holding(dir: &std::path::Path, needle: &str) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let bytes = std::fs::read(p).unwrap();
            bytes.windows(needle.len()).any(|w| w == needle.as_bytes())
        })
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect()
}

#[tokio::test]
async fn a_deleted_account_leaves_nothing_readable_in_the_sqlite_file() {
    // The file itself is what is checked: SQLite whatever VIRADA_TEST_STORE says (PostgreSQL:
    // docs/SECURITY.md says what holds there).
    let (dir, path) = db();
    let sqlite = |c: &mut virada_server::config::ServerConfig| c.postgres = None;
    let srv = start_with(&path, ManualTime::new(T0), sqlite).await;
    let name = "Zorro_Deleted";
    let (zorro, _) = sign_up(&srv, &Browser::new(), name, "correct horse").await;
    let bia = Browser::new();
    let id = srv.started(&zorro, &bia, json!({"kind": "none"})).await;
    let secrets: Vec<String> = rusqlite::Connection::open(&path)
        .unwrap()
        .query_row(
            "SELECT password_hash, recovery_hash FROM accounts",
            [],
            |r| Ok(vec![r.get(0)?, r.get(1)?]),
        )
        .unwrap();
    let needles = [name, &name.to_ascii_lowercase(), &secrets[0], &secrets[1]];
    // Control: the files hold them while the account lives.
    for needle in needles {
        assert!(!files_holding(dir.path(), needle).is_empty(), "{needle}");
    }

    let (s, v, _) = call(
        &srv,
        &zorro,
        Method::DELETE,
        "/api/account",
        Some(json!({"password": "correct horse"})),
    )
    .await;
    assert_eq!(s, StatusCode::NO_CONTENT, "{v}");
    assert_eq!(
        srv.game(&bia, &id).await["online"]["seats"]["black"]["name"],
        "anonymous"
    );
    srv.server.shutdown().await;
    for needle in needles {
        assert_eq!(
            files_holding(dir.path(), needle),
            Vec::<String>::new(),
            "{needle}"
        );
    }
}
