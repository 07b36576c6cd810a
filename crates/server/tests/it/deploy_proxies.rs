//! docs/DEPLOY.md's reverse proxies (nginx and Caddy, two instances) send every lobby path to
//! one instance: the lobby (seeks, pools, its socket) lives in one instance's memory, so a seek
//! posted through one instance would be missing on the other. The configurations are read from
//! the document and their matching applied to the lobby's paths, which are first checked to be
//! the server's own.

use crate::kit::online::*;
use reqwest::StatusCode;

/// One request to each of the lobby's routes (`crate::lobby::routes`), and paths that are not
/// the lobby's.
const LOBBY: [&str; 5] = [
    "/api/seeks",
    "/api/seeks/s_1",
    "/api/seeks/s_1/accept",
    "/api/pairing",
    "/api/lobby/ws",
];
const NOT_LOBBY: [&str; 4] = ["/api/games", "/api/health", "/api/seeksx", "/"];

fn deploy_md() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/DEPLOY.md");
    std::fs::read_to_string(path).expect("docs/DEPLOY.md")
}

/// The fenced block of DEPLOY.md that begins with `start`.
fn block<'a>(doc: &'a str, start: &str) -> &'a str {
    let rest = from(doc, start);
    &rest[..rest.find("```").expect("the block ends")]
}

/// `text` from `start` on.
fn from<'a>(text: &'a str, start: &str) -> &'a str {
    let at = text
        .find(start)
        .unwrap_or_else(|| panic!("{start:?} in {text}"));
    &text[at..]
}

#[tokio::test]
async fn the_lobby_paths_are_the_servers() {
    let (srv, _) = fresh().await;
    let who = Browser::new();
    let (s, v) = srv.get(&who, "/api/seeks").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = srv.get(&who, "/api/lobby/ws").await;
    assert_ne!(s, StatusCode::NOT_FOUND, "{v}");
    let (s, v) = srv.get(&who, "/api/pairing").await;
    assert_eq!(
        s,
        StatusCode::METHOD_NOT_ALLOWED,
        "a route (POST, DELETE): {v}"
    );
    srv.server.shutdown().await;
}

#[test]
fn nginx_sends_every_lobby_path_to_one_instance() {
    let doc = deploy_md();
    let conf = block(&doc, "upstream virada {");
    // The lobby's upstream: one server, the other a backup only.
    let lobby = from(conf, "upstream virada_lobby {");
    let lobby = &lobby[..lobby.find('}').unwrap()];
    let servers: Vec<&str> = lobby
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("server "))
        .collect();
    assert_eq!(servers.len(), 2, "{lobby}");
    assert_eq!(
        servers.iter().filter(|l| !l.contains(" backup")).count(),
        1,
        "{lobby}"
    );
    // `location ~ ^/api/(a|b|c) { proxy_pass http://virada_lobby; }`
    let loc = from(conf, "location ~ ^/api/(");
    let alts = &loc["location ~ ^/api/(".len()..loc.find(')').unwrap()];
    assert!(
        loc[..loc.find('}').unwrap()].contains("proxy_pass http://virada_lobby;"),
        "{loc}"
    );
    let matches = |p: &str| alts.split('|').any(|a| p.starts_with(&format!("/api/{a}")));
    for p in LOBBY {
        assert!(matches(p), "{p} is not sent to the lobby's instance");
    }
    for p in ["/api/games", "/api/health", "/"] {
        assert!(!matches(p), "{p} is sent to the lobby's instance");
    }
}

#[test]
fn caddy_sends_every_lobby_path_to_one_instance() {
    let doc = deploy_md();
    let conf = block(&doc, "virada.example.org {\n    @lobby");
    let matcher = conf
        .lines()
        .map(str::trim)
        .find_map(|l| l.strip_prefix("@lobby path "))
        .expect("the @lobby matcher");
    let matches = |p: &str| {
        matcher
            .split_whitespace()
            .any(|m| match m.strip_suffix('*') {
                Some(prefix) => p.starts_with(prefix),
                None => p == m,
            })
    };
    for p in LOBBY {
        assert!(matches(p), "{p} is not sent to the lobby's instance");
    }
    for p in NOT_LOBBY {
        assert!(!matches(p), "{p} is sent to the lobby's instance");
    }
    let lobby = from(conf, "handle @lobby {");
    let lobby = &lobby[..lobby.find("handle {").expect("the other paths' handle")];
    assert!(lobby.contains("lb_policy first"), "{lobby}");
}
