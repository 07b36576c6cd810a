//! `virada serve` as a real process: it prints its URL, serves the app, and a game whose moves
//! were acknowledged survives `kill -9` (SIGKILL) and a restart.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Child;
use std::time::Duration;

/// Starts `virada serve` on a free port; returns the child and `host:port`.
fn start(db: &std::path::Path) -> (Child, String) {
    let log = db.with_extension("log");
    let (child, url) = crate::common::serve(&["--db", db.to_str().unwrap()], &log);
    (child, url.strip_prefix("http://").unwrap().to_string())
}

/// One HTTP/1.1 request (connection closed after it); returns (status, body).
/// One browser throughout (games are private to the browser that made them): the same
/// `virada_id` cookie before and after the restart.
const BROWSER_TOKEN: &str = "5f1c0ffee5f1c0ffee5f1c0ffee5f1c0ffee5f1c0ffee5f1c0ffee5f1c0ffee0";

fn request(addr: &str, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Cookie: virada_id={BROWSER_TOKEN}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut resp = String::new();
    s.read_to_string(&mut resp).unwrap();
    let status = resp[9..12].parse().unwrap();
    let body = resp
        .split_once("\r\n\r\n")
        .map(|x| x.1)
        .unwrap_or("")
        .to_string();
    (status, body)
}

/// The value of a top-level string field in a JSON text (enough for these checks).
fn field(json: &str, name: &str) -> String {
    let key = format!("\"{name}\":\"");
    let at = json
        .find(&key)
        .unwrap_or_else(|| panic!("{name} in {json}"))
        + key.len();
    json[at..].split('"').next().unwrap().to_string()
}

#[test]
fn acknowledged_moves_survive_kill_9() {
    let dir = tempfile_dir();
    let db = dir.join("games.sqlite");
    let (mut child, addr) = start(&db);
    let (status, page) = request(&addr, "GET", "/", "");
    assert_eq!(status, 200);
    assert!(page.to_lowercase().contains("<html") || page.contains("<!doctype"));
    let (status, game) = request(&addr, "POST", "/api/games", r#"{"mode":"friend"}"#);
    assert_eq!(status, 201, "{game}");
    let id = field(&game, "id");
    // No passes in this opening: move i answers ply i.
    for (ply, mv) in ["f5", "d6", "c3", "d3", "c4"].into_iter().enumerate() {
        let (status, body) = request(
            &addr,
            "POST",
            &format!("/api/games/{id}/moves"),
            &format!(r#"{{"square":"{mv}","ply":{ply}}}"#),
        );
        assert_eq!(status, 200, "{body}");
    }
    child.kill().unwrap(); // SIGKILL: no shutdown code runs
    child.wait().unwrap();

    let (mut child, addr) = start(&db);
    let (status, game) = request(&addr, "GET", &format!("/api/games/{id}"), "");
    assert_eq!(status, 200, "{game}");
    assert_eq!(field(&game, "transcript"), "f5d6c3d3c4");
    child.kill().unwrap();
    child.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A fresh directory for the database.
fn tempfile_dir() -> std::path::PathBuf {
    crate::common::scratch_dir("kill9")
}
