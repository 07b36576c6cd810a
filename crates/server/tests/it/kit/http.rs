//! Shared helpers of the HTTP tests (api, probes, wthor, puzzles, ownership_limits): a real
//! server on port 0 with a temporary SQLite file (or a given configuration), and browsers
//! (clients that keep their `virada_id` cookie). A test file adds the requests only it makes in
//! an `impl TestServer` block of its own.

#![allow(dead_code)]

use reqwest::{Client, RequestBuilder, StatusCode};
use serde_json::Value;
use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;
use virada_server::{Server, ServerConfig};

pub struct TestServer {
    pub server: Server,
    /// The browser the plain requests (`post`, `get`, `create`) come from.
    pub client: Client,
    pub base: String,
    /// The temporary folder of a [`TestServer::fresh`] server's database (deleted with it).
    _dir: Option<tempfile::TempDir>,
}

impl TestServer {
    /// A server on a database of its own (a temporary folder it keeps), with the test settings.
    pub async fn fresh() -> TestServer {
        let dir = tempfile::tempdir().unwrap();
        let mut t = TestServer::start(&dir.path().join("db.sqlite")).await;
        t._dir = Some(dir);
        t
    }

    /// A server on the database file `db`, with the test settings.
    pub async fn start(db: &Path) -> TestServer {
        TestServer::with(ServerConfig::for_tests(db.to_path_buf())).await
    }

    /// A server on `db` used by the browser `client` (the same browser across a restart).
    pub async fn start_as(db: &Path, client: Client) -> TestServer {
        TestServer::with_browser(ServerConfig::for_tests(db.to_path_buf()), client).await
    }

    /// A server with `config`.
    pub async fn with(config: ServerConfig) -> TestServer {
        TestServer::with_browser(config, browser()).await
    }

    /// A server already started, used by a new browser.
    pub fn of(server: Server) -> TestServer {
        TestServer {
            base: server.url(),
            server,
            client: browser(),
            _dir: None,
        }
    }

    async fn with_browser(config: ServerConfig, client: Client) -> TestServer {
        let server = Server::start(config).await.expect("server starts");
        TestServer {
            base: server.url(),
            server,
            client,
            _dir: None,
        }
    }

    pub fn addr(&self) -> SocketAddr {
        self.server.addr()
    }

    /// Sends `req`: its status and its JSON body (`null` if it has none).
    pub async fn send(&self, req: RequestBuilder) -> (StatusCode, Value) {
        let r = req.send().await.expect("request sent");
        let status = r.status();
        let text = r.text().await.expect("body");
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    pub async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.post_as(&self.client, path, body).await
    }

    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        self.get_as(&self.client, path).await
    }

    /// A `GET` from the server's browser, its answer as it came (headers, a text body).
    pub async fn raw_get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .expect("request sent")
    }

    /// A `POST` from the browser `who`.
    pub async fn post_as(&self, who: &Client, path: &str, body: Value) -> (StatusCode, Value) {
        self.send(who.post(format!("{}{path}", self.base)).json(&body))
            .await
    }

    /// A `GET` from the browser `who`.
    pub async fn get_as(&self, who: &Client, path: &str) -> (StatusCode, Value) {
        self.send(who.get(format!("{}{path}", self.base))).await
    }

    /// Creates a game (201 expected): the game object.
    pub async fn create(&self, body: Value) -> Value {
        let (s, g) = self.post("/api/games", body).await;
        assert_eq!(s, StatusCode::CREATED, "{g}");
        g
    }

    /// Waits (up to 20 s) until `key` of /api/health is `want`.
    pub async fn wait_health(&self, key: &str, want: u64) {
        for _ in 0..400 {
            let (_, h) = self.get("/api/health").await;
            if h[key].as_u64() == Some(want) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("{key} never became {want}");
    }
}

/// A simulated browser: a client that keeps its cookies (the `virada_id` identity).
pub fn browser() -> Client {
    Client::builder()
        .cookie_store(true)
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap()
}

pub fn plies(g: &Value) -> usize {
    g["plies"].as_array().unwrap().len()
}

pub fn id_of(g: &Value) -> String {
    g["id"].as_str().unwrap().to_string()
}

/// The code of an error body.
pub fn error_code(e: &Value) -> &str {
    e["error"]["code"].as_str().unwrap_or("(no JSON error)")
}

/// Everything `tcp` sends until it closes, or `None` if it is still open after `guard`.
pub async fn read_until_closed(tcp: &mut TcpStream, guard: Duration) -> Option<String> {
    let mut out = Vec::new();
    let read = tokio::time::timeout(guard, async {
        let mut buf = [0u8; 4096];
        loop {
            match tcp.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => out.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    read.ok()
        .map(|()| String::from_utf8_lossy(&out).into_owned())
}
