//! Two `virada serve` processes on one PostgreSQL database (docs/ARCHITECTURE.md, "Several
//! instances"): an online game created on one, its second seat taken on the other, each
//! player's WebSocket on its own instance and every move reaching both; then the first
//! instance is killed with SIGKILL, its player reconnects to the second, and the game goes on
//! with nothing lost and its clock where the store had it; a computer game started on the dead
//! instance is answered by the survivor.
//!
//! Needs PostgreSQL: `VIRADA_TEST_PG` (`scripts/pg-test.sh` sets it, and `.ci/run` runs this
//! under it). Without it the test fails under CI and prints SKIPPED elsewhere.
//!
//! The instances are the real binary (a child process each), as they would be deployed: a
//! kill -9 then really kills one, leases and all.

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::process::Child;
use std::time::Duration;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use virada_server::config::PgTarget;
use virada_store::postgres::PgStore;

/// Only there so a broken server fails the test instead of hanging it (a takeover needs a
/// few seconds: docs/ARCHITECTURE.md).
const WAIT: Duration = Duration::from_secs(30);

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// One `virada serve` child.
struct Instance {
    child: Child,
    base: String,
}

impl Instance {
    fn start(db: &str, id: &str, log: &std::path::Path) -> Instance {
        let (child, base) = crate::common::serve(
            &[
                "--rate-limit-exempt",
                "127.0.0.1",
                "--instance-id",
                id,
                "--db",
                db,
            ],
            log,
        );
        Instance { child, base }
    }

    fn kill_9(&mut self) {
        self.child.kill().unwrap(); // SIGKILL: no shutdown code runs, the lease stays
        self.child.wait().unwrap();
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A browser: its own secret cookie, the same on every instance (identities are shared).
struct Browser {
    cookie: String,
    http: reqwest::Client,
}

impl Browser {
    fn new(token: &str) -> Browser {
        Browser {
            cookie: format!("virada_id={token}"),
            http: reqwest::Client::new(),
        }
    }

    async fn post(&self, at: &Instance, path: &str, body: Value) -> (u16, Value) {
        let r = self
            .http
            .post(format!("{}{path}", at.base))
            .header("Cookie", &self.cookie)
            .json(&body)
            .send()
            .await
            .expect("request sent");
        let status = r.status().as_u16();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    async fn get(&self, at: &Instance, path: &str) -> (u16, Value) {
        let r = self
            .http
            .get(format!("{}{path}", at.base))
            .header("Cookie", &self.cookie)
            .send()
            .await
            .expect("request sent");
        let status = r.status().as_u16();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    async fn ws(&self, at: &Instance, id: &str) -> Ws {
        let url = format!("{}/api/games/{id}/ws", at.base.replace("http://", "ws://"));
        let mut req = url.into_client_request().unwrap();
        req.headers_mut()
            .insert("Cookie", self.cookie.parse().unwrap());
        tokio_tungstenite::connect_async(req)
            .await
            .expect("WebSocket opens")
            .0
    }
}

/// The next `game` message whose game has `plies` plies (skipping presence, chat and
/// earlier states).
async fn game_at(ws: &mut Ws, plies: usize) -> Value {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let msg = tokio::time::timeout_at(deadline, ws.next())
            .await
            .unwrap_or_else(|_| panic!("a game with {plies} plies in time"))
            .expect("socket open")
            .expect("no error");
        let Message::Text(t) = msg else { continue };
        let v: Value = serde_json::from_str(t.as_str()).unwrap();
        if v["type"] == "error" {
            panic!("the server refused: {v}");
        }
        if v["type"] == "game" && plies_of(&v["game"]) == plies {
            return v["game"].clone();
        }
    }
}

fn plies_of(g: &Value) -> usize {
    g["plies"].as_array().map_or(0, Vec::len)
}

async fn play(ws: &mut Ws, square: &str, ply: usize) {
    let msg = json!({"type": "move", "square": square, "ply": ply});
    ws.send(Message::Text(msg.to_string().into()))
        .await
        .unwrap();
}

/// `url` with its tables in `schema`.
fn in_schema(url: &str, schema: &str) -> String {
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}options=-c%20search_path%3D{schema}")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_share_live_games_and_one_takes_over_after_kill_9() {
    let Some(url) = virada_testdata::postgres_url() else {
        return;
    };
    // A schema of its own, made and migrated here, that both instances then use.
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    let schema = format!("multi_{}_{nanos}", std::process::id());
    let target = PgTarget {
        url: url.clone(),
        schema: Some(schema.clone()),
    };
    PgStore::open(&target)
        .await
        .expect("the test database opens");
    let db = in_schema(&url, &schema);
    let dir = crate::common::scratch_dir("multi");
    let mut one = Instance::start(&db, "one", &dir.join("one.log"));
    let two = Instance::start(&db, "two", &dir.join("two.log"));

    let ana = Browser::new(&"a".repeat(64));
    let bia = Browser::new(&"b".repeat(64));
    for (at, name) in [(&one, "one"), (&two, "two")] {
        let (s, h) = ana.get(at, "/api/health").await;
        assert_eq!(s, 200, "{h}");
        assert_eq!(h["store"], "postgres");
        assert_eq!(h["instance"], name);
    }

    // Ana creates the game on instance one; Bia takes the other seat on instance two.
    let clock = json!({"kind": "clock", "minutes": 10, "increment_seconds": 0});
    let (s, g) = ana
        .post(
            &one,
            "/api/games",
            json!({"mode": "online", "time_control": clock, "color": "black", "name": "Ana"}),
        )
        .await;
    assert_eq!(s, 201, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let (s, g) = bia
        .post(
            &two,
            &format!("/api/games/{id}/seat"),
            json!({"name": "Bia"}),
        )
        .await;
    assert_eq!(s, 200, "{g}");
    assert_eq!(g["online"]["phase"], "playing", "{g}");
    assert_eq!(g["online"]["you"], "white", "{g}");

    // Each on their own instance; every move reaches both sockets.
    let mut a = ana.ws(&one, &id).await;
    let mut b = bia.ws(&two, &id).await;
    game_at(&mut a, 0).await;
    game_at(&mut b, 0).await;
    for (ply, square) in ["f5", "d6", "c3", "d3"].into_iter().enumerate() {
        let mover = if ply % 2 == 0 { &mut a } else { &mut b };
        play(mover, square, ply).await;
        let seen_a = game_at(&mut a, ply + 1).await;
        let seen_b = game_at(&mut b, ply + 1).await;
        assert_eq!(seen_a["plies"], seen_b["plies"]);
        assert_eq!(seen_a["plies"][ply]["move"], square);
    }
    let (_, before) = ana.get(&one, &format!("/api/games/{id}")).await;
    let clocks = before["online"]["clocks"].clone();
    assert_eq!(clocks["running"], "black", "{before}");

    // A computer game started on instance one, Ana to move.
    let (s, cg) = ana
        .post(
            &one,
            "/api/games",
            json!({"mode": "computer", "level": 1, "human_color": "black"}),
        )
        .await;
    assert_eq!(s, 201, "{cg}");
    let computer_game = cg["id"].as_str().unwrap().to_string();

    one.kill_9();
    drop(a);

    // Nothing acknowledged is lost, and the clock is where the store has it: the deadline
    // did not move (the owner's death neither stops nor restarts it).
    let (s, after) = ana.get(&two, &format!("/api/games/{id}")).await;
    assert_eq!(s, 200, "{after}");
    assert_eq!(after["plies"], before["plies"]);
    assert_eq!(after["online"]["clocks"]["running"], "black");
    assert_eq!(
        after["online"]["clocks"]["deadline_ms"], clocks["deadline_ms"],
        "{after}"
    );
    assert_eq!(after["online"]["you"], "black", "seats are in the store");

    // Ana reconnects to instance two and the game goes on: her move is answered once
    // instance two has taken the game over (the dead owner's lease expired).
    let mut a = ana.ws(&two, &id).await;
    let first = game_at(&mut a, 4).await;
    assert_eq!(first["online"]["you"], "black");
    play(&mut a, "c4", 4).await;
    let seen_a = game_at(&mut a, 5).await;
    let seen_b = game_at(&mut b, 5).await;
    assert_eq!(seen_a["plies"], seen_b["plies"]);
    assert_eq!(seen_a["online"]["clocks"]["running"], "white");
    let black_ms = seen_a["online"]["clocks"]["black_ms"].as_i64().unwrap();
    assert!(
        black_ms <= clocks["black_ms"].as_i64().unwrap(),
        "black's clock ran on through the takeover: {seen_a}"
    );
    // And Bia answers on the same instance.
    let reply = seen_b["legal_moves"][0].as_str().unwrap().to_string();
    play(&mut b, &reply, 5).await;
    let seen_a = game_at(&mut a, 6).await;
    assert_eq!(seen_a["plies"][5]["move"], reply);
    game_at(&mut b, 6).await;

    // The computer game started on the dead instance: Ana's move on instance two is answered
    // by instance two's engine.
    let (s, g) = ana
        .post(
            &two,
            &format!("/api/games/{computer_game}/moves"),
            json!({"square": "f5", "ply": 0}),
        )
        .await;
    assert_eq!(s, 200, "{g}");
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let (s, g) = ana.get(&two, &format!("/api/games/{computer_game}")).await;
        assert_eq!(s, 200, "{g}");
        if plies_of(&g) >= 2 {
            assert_eq!(g["plies"][1]["color"], "white", "{g}");
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the computer never answered: {g}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    drop(two);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A second `virada serve` started with an instance id that a live process holds is refused:
/// it exits with status 1 and says why, and the first goes on. Once the first is killed with
/// SIGKILL its claim lapses (3 s at most), and a process started with the same id runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_process_with_a_live_instance_id_is_refused() {
    let Some(url) = virada_testdata::postgres_url() else {
        return;
    };
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    let schema = format!("same_id_{}_{nanos}", std::process::id());
    let target = PgTarget {
        url: url.clone(),
        schema: Some(schema.clone()),
    };
    PgStore::open(&target)
        .await
        .expect("the test database opens");
    let db = in_schema(&url, &schema);
    let dir = crate::common::scratch_dir("same-id");
    let mut one = Instance::start(&db, "same", &dir.join("one.log"));

    let second = std::process::Command::new(crate::common::VIRADA)
        .args(["serve", "--addr", "127.0.0.1:0", "--workers", "1"])
        .args(["--instance-id", "same", "--db", &db])
        .output()
        .expect("virada runs");
    let said = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(1), "{said}");
    assert!(
        said.contains("instance id \"same\" is in use by another live virada server"),
        "{said}"
    );
    assert!(
        !String::from_utf8_lossy(&second.stdout).contains("listening on"),
        "the second process served"
    );

    let ana = Browser::new(&"a".repeat(64));
    let (s, h) = ana.get(&one, "/api/health").await;
    assert_eq!(s, 200, "{h}");
    assert_eq!(h["instance"], "same");

    one.kill_9();
    let again = Instance::start(&db, "same", &dir.join("again.log"));
    let (s, h) = ana.get(&again, "/api/health").await;
    assert_eq!(s, 200, "{h}");
    assert_eq!(h["instance"], "same");
    drop(again);
    let _ = std::fs::remove_dir_all(&dir);
}
