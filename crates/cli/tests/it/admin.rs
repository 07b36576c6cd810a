//! `virada admin` as real processes beside a running `virada serve` on one SQLite file (or the
//! PostgreSQL database of `VIRADA_TEST_PG` when `VIRADA_TEST_STORE=postgres`): a report made
//! in the app is listed and resolved, a ban ends the account's session and refuses its
//! sign-in, the admin role opens the admins' report review.

use crate::common::{scratch_dir, stderr, stdout, virada};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

struct Serve(Child);

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `virada serve` on `db`; the child and its base URL.
fn serve(db: &str) -> (Serve, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_virada"))
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--workers",
            "1",
            "--db",
            db,
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("virada starts");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let base = first
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("first line was {first:?}"))
        .to_string();
    (Serve(child), base)
}

/// One request with `cookie`; the status, the JSON answer and the cookies it set.
async fn call(
    base: &str,
    cookie: &str,
    method: reqwest::Method,
    path: &str,
    body: Option<Value>,
) -> (u16, Value, String) {
    let mut req = reqwest::Client::new()
        .request(method, format!("{base}{path}"))
        .header("Cookie", cookie);
    if let Some(body) = body {
        req = req.json(&body);
    }
    let r = req.send().await.expect("request sent");
    let status = r.status().as_u16();
    let set: Vec<String> = r
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().split(';').next().unwrap().to_string())
        .collect();
    let text = r.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::Null),
        set.join("; "),
    )
}

async fn sign_up(base: &str, name: &str) -> String {
    let (s, v, cookie) = call(
        base,
        "",
        reqwest::Method::POST,
        "/api/accounts",
        Some(json!({"username": name, "password": "correct horse"})),
    )
    .await;
    assert_eq!(s, 201, "{v}");
    cookie
}

async fn sign_in(base: &str, name: &str) -> (u16, Value) {
    let (s, v, _) = call(
        base,
        "",
        reqwest::Method::POST,
        "/api/session",
        Some(json!({"username": name, "password": "correct horse"})),
    )
    .await;
    (s, v)
}

fn admin(db: &str, args: &[&str]) -> std::process::Output {
    let mut all = vec!["admin", "--db", db];
    all.extend_from_slice(args);
    virada(&all)
}

#[tokio::test]
async fn admin_lists_and_resolves_reports_bans_and_grants() {
    let dir = scratch_dir("admin");
    let postgres = std::env::var("VIRADA_TEST_STORE").is_ok_and(|s| s == "postgres");
    let db = if postgres {
        std::env::var("VIRADA_TEST_PG").expect("VIRADA_TEST_PG (scripts/pg-test.sh)")
    } else {
        dir.join("games.sqlite").to_str().unwrap().to_string()
    };
    let (_serve, base) = serve(&db);
    // Names of their own, so that a database used before does not hold them.
    let tag = std::process::id() % 100_000;
    let (ana_name, bia_name) = (format!("ana{tag}"), format!("bia{tag}"));
    let ana = sign_up(&base, &ana_name).await;
    let bia = sign_up(&base, &bia_name).await;
    let (s, v, _) = call(
        &base,
        &ana,
        reqwest::Method::POST,
        "/api/reports",
        Some(json!({"player": bia_name, "reason": "plays too well"})),
    )
    .await;
    assert_eq!(s, 201, "{v}");
    let id = v["id"].as_i64().unwrap();

    // Listed (one JSON object a line), then resolved.
    let listed = admin(&db, &["reports", "--open"]);
    assert!(listed.status.success(), "{}", stderr(&listed));
    let mine: Vec<Value> = stdout(&listed)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|r: &Value| r["id"] == id)
        .collect();
    assert_eq!(mine.len(), 1, "{}", stdout(&listed));
    assert_eq!(
        (&mine[0]["reporter"], &mine[0]["player"], &mine[0]["reason"]),
        (&json!(ana_name), &json!(bia_name), &json!("plays too well"))
    );
    let id_text = id.to_string();
    let done = admin(&db, &["resolve", &id_text, "--note", "no cheating found"]);
    assert!(done.status.success(), "{}", stderr(&done));
    assert_eq!(stdout(&done).trim(), format!("report {id} resolved"));
    let again = admin(&db, &["resolve", &id_text]);
    assert_eq!(again.status.code(), Some(1), "{}", stdout(&again));
    let open = stdout(&admin(&db, &["reports", "--open"]));
    assert!(!open.contains(&format!("\"id\":{id},")), "{open}");
    let all = stdout(&admin(&db, &["reports"]));
    assert!(all.contains("no cheating found"), "{all}");

    // The admin role opens the review to Ana.
    let (s, _, _) = call(
        &base,
        &ana,
        reqwest::Method::GET,
        "/api/admin/reports",
        None,
    )
    .await;
    assert_eq!(s, 403);
    let granted = admin(&db, &["grant", &ana_name]);
    assert!(granted.status.success(), "{}", stderr(&granted));
    assert_eq!(
        stdout(&granted).trim(),
        format!("{ana_name} is an admin now")
    );
    let (s, v, _) = call(
        &base,
        &ana,
        reqwest::Method::GET,
        "/api/admin/reports",
        None,
    )
    .await;
    assert_eq!(s, 200, "{v}");

    // A ban ends Bia's session and refuses her sign-in until it is lifted.
    let (_, v, _) = call(&base, &bia, reqwest::Method::GET, "/api/session", None).await;
    assert_eq!(v["username"], json!(bia_name));
    let banned = admin(&db, &["ban", &bia_name, "--reason", "spam"]);
    assert!(banned.status.success(), "{}", stderr(&banned));
    let (_, v, _) = call(&base, &bia, reqwest::Method::GET, "/api/session", None).await;
    assert_eq!(v["username"], Value::Null);
    let (s, v) = sign_in(&base, &bia_name).await;
    assert_eq!((s, &v["error"]["code"]), (403, &json!("banned")), "{v}");
    assert!(admin(&db, &["unban", &bia_name]).status.success());
    let (s, v) = sign_in(&base, &bia_name).await;
    assert_eq!(s, 200, "{v}");

    // An unknown name: exit code 1 and the reason.
    let nobody = admin(&db, &["ban", "nobody-at-all"]);
    assert_eq!(nobody.status.code(), Some(1));
    assert!(
        stderr(&nobody).contains("no account is called nobody-at-all"),
        "{}",
        stderr(&nobody)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
