//! Helpers of the account tests: requests that keep a browser's cookies (its `virada_id`, and
//! the `virada_session` a sign-up or sign-in sets), on the online tests' server.

#![allow(dead_code)]

use crate::kit::online::{Browser, TestServer};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

/// Sends `method path` with `body` as `who`; the status, the JSON answer and the browser
/// afterwards (with the session cookie the answer set, or without it if the answer removed
/// it).
pub async fn call(
    srv: &TestServer,
    who: &Browser,
    method: Method,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Value, Browser) {
    let client = reqwest::Client::new();
    let mut req = client
        .request(method, format!("{}{path}", srv.base))
        .header("Cookie", &who.cookie);
    if let Some(body) = body {
        req = req.json(&body);
    }
    let r = req.send().await.expect("request sent");
    let status = r.status();
    let mut cookies: Vec<(String, String)> = who
        .cookie
        .split("; ")
        .filter_map(|p| p.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    for set in r.headers().get_all("set-cookie") {
        let set = set.to_str().unwrap();
        let pair = set.split(';').next().unwrap();
        let (name, value) = pair.split_once('=').unwrap();
        cookies.retain(|(k, _)| k != name);
        if !set.contains("Max-Age=0") {
            assert!(
                set.contains("HttpOnly") && set.contains("SameSite=Lax"),
                "{set}"
            );
            cookies.push((name.to_string(), value.to_string()));
        }
    }
    let text = r.text().await.unwrap();
    let after = Browser {
        cookie: cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; "),
    };
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::Null),
        after,
    )
}

/// Signs up `name` with `password` from `who`: the browser signed in, and the recovery code.
pub async fn sign_up(
    srv: &TestServer,
    who: &Browser,
    name: &str,
    password: &str,
) -> (Browser, String) {
    let (s, v, signed) = call(
        srv,
        who,
        Method::POST,
        "/api/accounts",
        Some(json!({"username": name, "password": password})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["username"], name);
    assert!(
        signed.cookie.contains("virada_session="),
        "{}",
        signed.cookie
    );
    (signed, v["recovery_code"].as_str().unwrap().to_string())
}

/// Signs in as `name`: the status, the answer and the browser afterwards.
pub async fn sign_in(
    srv: &TestServer,
    who: &Browser,
    name: &str,
    password: &str,
) -> (StatusCode, Value, Browser) {
    call(
        srv,
        who,
        Method::POST,
        "/api/session",
        Some(json!({"username": name, "password": password})),
    )
    .await
}

/// Who `who` is signed in as (`None`: a guest).
pub async fn whoami(srv: &TestServer, who: &Browser) -> Option<String> {
    let (s, v) = srv.get(who, "/api/session").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v["username"].as_str().map(str::to_string)
}

pub fn code(v: &Value) -> &str {
    v["error"]["code"].as_str().unwrap_or("")
}
