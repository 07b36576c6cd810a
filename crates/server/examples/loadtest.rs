//! Load and latency measurements of the Virada server, against 127.0.0.1 only, bounded in count
//! and time (it stops by itself).
//!
//! ```text
//! cargo run --release -p virada-server --example loadtest -- levels [--max-level 21] [--positions 3] [--cap-secs 30]
//! cargo run --release -p virada-server --example loadtest -- load [--games 500] [--secs 60] [--level 1] [--think-ms 1000]
//! ```
//!
//! Both start an in-process server on 127.0.0.1:0 with a temporary database (or use `--url
//! http://127.0.0.1:PORT` for a running `virada serve`) and talk to it like a browser: JSON
//! requests plus one live WebSocket (`/api/games/{id}/ws`) per game. Moves go over HTTP (the
//! scripts' path, so their latency can be timed per request); the computer's replies arrive on
//! the socket.
//!
//! - `levels`: for each level, the time from creating a game where the computer is to move to
//!   the arrival of its move on the socket, over a few fixed positions (opening, midgame,
//!   endgame).
//! - `load`: opens `--games` games against the computer, each with its socket open, and
//!   plays them (a random legal move after `--think-ms` on average) for `--secs`; reports how many
//!   games were live at once, moves played, request latencies, errors and the server's memory.
//! - `pairing`: `--players` (200) guests open the lobby socket (`/api/lobby/ws`) and join the
//!   quick-pairing pools over it (a random pool each time, casual), for `--secs` (30); each one
//!   joins again as soon as it is paired. Reports the pairing time (join sent to `paired`
//!   received: p50, p99, max), games started per second and errors.

use futures_util::StreamExt;
use reqwest::Client;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use virada_rules::{Game, Move};
use virada_server::{Server, ServerConfig};

struct Args(Vec<String>);

impl Args {
    fn get<T: std::str::FromStr>(&self, name: &str, default: T) -> T {
        self.0
            .iter()
            .position(|a| a == name)
            .and_then(|i| self.0.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    }
    fn opt(&self, name: &str) -> Option<String> {
        self.0
            .iter()
            .position(|a| a == name)
            .and_then(|i| self.0.get(i + 1))
            .cloned()
    }
}

/// Starts an in-process server with a fresh temporary database.
async fn start_local(dir: &std::path::Path, name: &str, cap: Duration) -> Server {
    let mut config = ServerConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        db_path: dir.join(name),
        move_time_limit: cap,
        // Thousands of live sockets at once: one connection each.
        max_connections: 10_000,
        ..ServerConfig::default()
    };
    // Every simulated user comes from 127.0.0.1: the per-address limits (10 new games a minute,
    // 8 streams) would measure the limiter, not the server.
    config.limits.exempt = vec!["127.0.0.1".parse().unwrap()];
    Server::start(config).await.expect("server starts")
}

#[tokio::main]
async fn main() {
    let args = Args(std::env::args().skip(1).collect());
    let mode = args.0.first().cloned().unwrap_or_default();
    let dir = tempfile::tempdir().expect("temp dir");
    let cap = Duration::from_secs(args.get("--cap-secs", 30u64));
    let url = args.opt("--url");
    if let Some(url) = &url {
        assert!(
            url.starts_with("http://127.") || url.starts_with("http://localhost"),
            "--url must be a loopback address"
        );
    }
    match mode.as_str() {
        "levels" => {
            // A fresh server (fresh engine tables) per level, so no level profits from what
            // the previous one learnt about the same positions.
            let max: u8 = args.get("--max-level", 21u8);
            let min: u8 = args.get("--min-level", 1u8);
            print_level_header(&args);
            for level in min..=max {
                match &url {
                    Some(u) => levels(u, &args, level).await,
                    None => {
                        let s = start_local(dir.path(), &format!("l{level}.sqlite"), cap).await;
                        levels(&s.url(), &args, level).await;
                        s.shutdown().await;
                    }
                }
            }
        }
        "load" => match &url {
            Some(u) => load(u, &args).await,
            None => {
                let s = start_local(dir.path(), "load.sqlite", cap).await;
                println!("server {}", s.url());
                load(&s.url(), &args).await;
                s.shutdown().await;
            }
        },
        "pairing" => match &url {
            Some(u) => pairing(u, &args).await,
            None => {
                let s = start_local(dir.path(), "pairing.sqlite", cap).await;
                println!("server {}", s.url());
                pairing(&s.url(), &args).await;
                s.shutdown().await;
            }
        },
        _ => eprintln!("usage: loadtest levels|load|pairing [options] (see the source header)"),
    }
}

/// A deterministic sequence of `plies` legal moves from the start (a fixed pseudo-random game).
fn fixed_transcript(plies: usize, seed: u64) -> String {
    let mut g = Game::new();
    let mut x = seed;
    while g.ply() < plies && !g.is_over() {
        if g.pass_if_forced() {
            continue;
        }
        let moves: Vec<_> = g.position().legal_moves().iter().collect();
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        g.play(Move::Play(moves[(x % moves.len() as u64) as usize]))
            .unwrap();
    }
    g.to_string()
}

type Live =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens game `id`'s live socket as `browser`.
async fn open_live(base: &str, id: &str, browser: &Browser) -> Result<Live, String> {
    let ws_base = base.replacen("http://", "ws://", 1);
    let mut req = format!("{ws_base}/api/games/{id}/ws")
        .into_client_request()
        .map_err(|e| e.to_string())?;
    req.headers_mut().insert(
        "cookie",
        browser.cookie.parse().map_err(|_| "cookie header")?,
    );
    let (ws, _) = tokio_tungstenite::connect_async(req)
        .await
        .map_err(|e| format!("WebSocket {id}: {e}"))?;
    Ok(ws)
}

/// Reads the socket until a `game` message satisfies `pred`; returns that game (`None`: the
/// socket closed first).
async fn next_game(live: &mut Live, pred: impl Fn(&Value) -> bool) -> Option<Value> {
    while let Some(msg) = live.next().await {
        let Ok(Message::Text(text)) = msg else {
            if msg.is_err() {
                return None;
            }
            continue;
        };
        let Ok(mut m) = serde_json::from_str::<Value>(text.as_str()) else {
            continue;
        };
        if m["type"] == "game" && pred(&m["game"]) {
            return Some(m["game"].take());
        }
    }
    None
}

fn level_setups(args: &Args) -> Vec<(String, String)> {
    let positions: usize = args.get("--positions", 3usize);
    // Opening (52 empties), midgame (36), endgame (20).
    [(8usize, 11u64), (24, 12), (40, 13)]
        .iter()
        .take(positions)
        .map(|&(plies, seed)| {
            (
                format!("{} empties", 60 - plies),
                fixed_transcript(plies, seed),
            )
        })
        .collect()
}

fn print_level_header(args: &Args) {
    let setups = level_setups(args);
    println!(
        "level | {} | mean",
        setups
            .iter()
            .map(|s| s.0.clone())
            .collect::<Vec<_>>()
            .join(" | ")
    );
}

/// One simulated browser: its identity cookie (a game's socket, moves and deletion are its
/// creator's), sent with every request and the socket's upgrade; each simulated user has its own.
#[derive(Clone)]
struct Browser {
    client: Client,
    cookie: String,
}

fn browser() -> Browser {
    let token = virada_server::identity::new_token().expect("random token");
    let cookie = format!("{}={token}", virada_server::identity::COOKIE_NAME);
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert(reqwest::header::COOKIE, cookie.parse().unwrap());
    let client = Client::builder()
        .default_headers(headers)
        .pool_max_idle_per_host(4)
        .build()
        .unwrap();
    Browser { client, cookie }
}

async fn levels(base: &str, args: &Args, level: u8) {
    let browser = browser();
    let client = &browser.client;
    let setups = level_setups(args);
    {
        let mut row = Vec::new();
        let mut total = 0.0;
        for (_, transcript) in &setups {
            // The computer plays the side to move of the set-up position.
            let to_move = Game::from_moves(
                virada_rules::Position::start(),
                transcript
                    .as_bytes()
                    .chunks(2)
                    .map(|c| std::str::from_utf8(c).unwrap().parse().unwrap()),
            )
            .map(|g| g.position().side_to_move())
            .unwrap_or(virada_rules::Color::Black);
            let human = if to_move == virada_rules::Color::Black {
                "white"
            } else {
                "black"
            };
            let t0 = Instant::now();
            let g: Value = client
                .post(format!("{base}/api/import"))
                .json(&json!({"text": transcript, "mode": "computer", "level": level, "human_color": human}))
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            let id = g["id"].as_str().unwrap().to_string();
            let plies0 = g["plies"].as_array().unwrap().len();
            let mut live = open_live(base, &id, &browser).await.unwrap();
            let got = next_game(&mut live, |g| {
                g["plies"].as_array().map(|p| p.len()).unwrap_or(0) > plies0
            })
            .await;
            let secs = t0.elapsed().as_secs_f64();
            assert!(got.is_some(), "no computer move at level {level}");
            total += secs;
            row.push(format!("{secs:.3} s"));
            drop(live);
            let _ = client.delete(format!("{base}/api/games/{id}")).send().await;
        }
        println!(
            "{level:>5} | {} | {:.3} s",
            row.join(" | "),
            total / setups.len() as f64
        );
    }
}

#[derive(Default)]
struct Stats {
    live: AtomicU64,
    max_live: AtomicU64,
    moves: AtomicU64,
    games_finished: AtomicU64,
    errors: AtomicU64,
    latency_us: std::sync::Mutex<Vec<u64>>,
    computer_us: std::sync::Mutex<Vec<u64>>,
}

async fn load(base: &str, args: &Args) {
    let games: usize = args.get("--games", 500usize).min(5000);
    let secs: u64 = args.get("--secs", 60u64).min(600);
    let level: u8 = args.get("--level", 1u8);
    let think_ms: u64 = args.get("--think-ms", 1000u64);
    let deadline = Instant::now() + Duration::from_secs(secs);
    let client = browser().client;
    let stats = Arc::new(Stats::default());
    println!("load: {games} games at level {level}, one live socket each, ~{think_ms} ms per human move, {secs} s");
    let mut tasks = Vec::new();
    for i in 0..games {
        let browser = browser();
        let base = base.to_string();
        let stats = stats.clone();
        tasks.push(tokio::spawn(async move {
            // Stagger the arrivals over the first tenth of the run.
            let stagger = Duration::from_millis((i as u64 * secs * 100) / games.max(1) as u64);
            tokio::time::sleep(stagger).await;
            let mut seed = 0x9E37_79B9_7F4A_7C15u64 ^ (i as u64).wrapping_mul(0x1000_0000_01B3);
            while Instant::now() < deadline {
                if play_one(
                    &browser, &base, level, think_ms, deadline, &stats, &mut seed,
                )
                .await
                .is_err()
                {
                    stats.errors.fetch_add(1, Ordering::Relaxed);
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        }));
    }
    let t0 = Instant::now();
    let reporter = {
        let stats = stats.clone();
        let base = base.to_string();
        let client = client.clone();
        tokio::spawn(async move {
            while Instant::now() < deadline {
                tokio::time::sleep(Duration::from_secs(5)).await;
                let h: Value = match client.get(format!("{base}/api/health")).send().await {
                    Ok(r) => r.json().await.unwrap_or(Value::Null),
                    Err(_) => Value::Null,
                };
                println!(
                    "t={:>4.0}s live sockets {:>5}  moves {:>7}  errors {:>3}  server: active games {} engine jobs {}  rss {} MiB",
                    t0.elapsed().as_secs_f64(),
                    stats.live.load(Ordering::Relaxed),
                    stats.moves.load(Ordering::Relaxed),
                    stats.errors.load(Ordering::Relaxed),
                    h["active_games"],
                    h["engine_jobs"],
                    rss_mib()
                );
            }
        })
    };
    for t in tasks {
        let _ = t.await;
    }
    let _ = reporter.await;
    let elapsed = t0.elapsed().as_secs_f64();
    let pct = |v: &mut Vec<u64>, p: f64| -> f64 {
        if v.is_empty() {
            return 0.0;
        }
        v.sort_unstable();
        v[((v.len() - 1) as f64 * p) as usize] as f64 / 1000.0
    };
    let mut lat = stats.latency_us.lock().unwrap().clone();
    let mut comp = stats.computer_us.lock().unwrap().clone();
    println!("---");
    println!("games requested at once        {games}");
    println!(
        "most live sockets at once      {}",
        stats.max_live.load(Ordering::Relaxed)
    );
    println!(
        "human moves acknowledged       {} ({:.0}/s)",
        stats.moves.load(Ordering::Relaxed),
        stats.moves.load(Ordering::Relaxed) as f64 / elapsed
    );
    println!(
        "games finished                 {}",
        stats.games_finished.load(Ordering::Relaxed)
    );
    println!(
        "errors                         {}",
        stats.errors.load(Ordering::Relaxed)
    );
    println!(
        "POST move latency ms  p50 {:.1}  p95 {:.1}  p99 {:.1}  max {:.1}",
        pct(&mut lat, 0.5),
        pct(&mut lat, 0.95),
        pct(&mut lat, 0.99),
        pct(&mut lat, 1.0)
    );
    println!(
        "computer reply (move ack -> socket) ms  p50 {:.1}  p95 {:.1}  p99 {:.1}",
        pct(&mut comp, 0.5),
        pct(&mut comp, 0.95),
        pct(&mut comp, 0.99)
    );
    println!("process rss (server + client)  {} MiB", rss_mib());
}

fn rss_mib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmRSS:")).and_then(|l| {
                l.split_whitespace()
                    .nth(1)
                    .and_then(|v| v.parse::<u64>().ok())
            })
        })
        .map(|kb| kb / 1024)
        .unwrap_or(0)
}

fn next_rand(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

/// Plays one game against the computer (the person is Black) with its socket open.
async fn play_one(
    browser: &Browser,
    base: &str,
    level: u8,
    think_ms: u64,
    deadline: Instant,
    stats: &Stats,
    seed: &mut u64,
) -> Result<(), String> {
    let client = &browser.client;
    let g: Value = client
        .post(format!("{base}/api/games"))
        .json(&json!({"mode": "computer", "level": level, "human_color": "black"}))
        .send()
        .await
        .map_err(|e| e.to_string())?
        .json()
        .await
        .map_err(|e| e.to_string())?;
    let id = g["id"].as_str().ok_or("no id")?.to_string();
    let mut socket = open_live(base, &id, browser).await?;
    let live = stats.live.fetch_add(1, Ordering::Relaxed) + 1;
    stats.max_live.fetch_max(live, Ordering::Relaxed);
    let result = async {
        let mut g = g;
        loop {
            if g["status"] == "finished" {
                stats.games_finished.fetch_add(1, Ordering::Relaxed);
                return Ok(());
            }
            if Instant::now() >= deadline {
                return Ok(());
            }
            let legal = g["legal_moves"].as_array().cloned().unwrap_or_default();
            if legal.is_empty() || g["side_to_move"] != "black" {
                return Err("not the person's turn".to_string());
            }
            let pause = think_ms / 2 + next_rand(seed) % (think_ms.max(1));
            tokio::time::sleep(Duration::from_millis(pause)).await;
            let sq = legal[(next_rand(seed) % legal.len() as u64) as usize].clone();
            let t = Instant::now();
            let r = client
                .post(format!("{base}/api/games/{id}/moves"))
                .json(&json!({ "square": sq, "ply": g["plies"].as_array().map_or(0, |p| p.len()) }))
                .send()
                .await
                .map_err(|e| e.to_string())?;
            if !r.status().is_success() {
                return Err(format!("move: {}", r.status()));
            }
            let after: Value = r.json().await.map_err(|e| e.to_string())?;
            let acked = Instant::now();
            stats
                .latency_us
                .lock()
                .unwrap()
                .push((acked - t).as_micros() as u64);
            stats.moves.fetch_add(1, Ordering::Relaxed);
            let version = after["version"].as_u64().unwrap_or(0);
            g = if after["computer_thinking"] == true {
                let next = tokio::time::timeout(
                    deadline.saturating_duration_since(Instant::now()) + Duration::from_secs(35),
                    next_game(&mut socket, |x| {
                        x["version"].as_u64().unwrap_or(0) > version
                            && x["computer_thinking"] == false
                    }),
                )
                .await
                .map_err(|_| "computer move timed out".to_string())?
                .ok_or("the socket closed")?;
                stats
                    .computer_us
                    .lock()
                    .unwrap()
                    .push(acked.elapsed().as_micros() as u64);
                next
            } else {
                after
            };
        }
    }
    .await;
    stats.live.fetch_sub(1, Ordering::Relaxed);
    drop(socket);
    let _ = client.delete(format!("{base}/api/games/{id}")).send().await;
    result
}

// ---------------------------------------------------------------- quick pairing

const POOLS: [&str; 5] = ["1+0", "3+2", "5+0", "10+5", "xot-3+2"];

#[derive(Default)]
struct PairingStats {
    paired: AtomicU64,
    errors: AtomicU64,
    latencies_us: std::sync::Mutex<Vec<u64>>,
    first_errors: std::sync::Mutex<Vec<String>>,
}

impl PairingStats {
    fn error(&self, what: String) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        let mut first = self.first_errors.lock().unwrap();
        if first.len() < 10 {
            first.push(what);
        }
    }
}

/// One player: the lobby socket, then join, wait for `paired`, join again, until `deadline`.
async fn pairing_player(base: String, n: usize, stats: Arc<PairingStats>, deadline: Instant) {
    let b = browser();
    let url = format!("{}/api/lobby/ws", base.replace("http://", "ws://"));
    let mut req = url.into_client_request().unwrap();
    req.headers_mut()
        .insert("Cookie", b.cookie.parse().unwrap());
    let mut ws = match tokio_tungstenite::connect_async(req).await {
        Ok((ws, _)) => ws,
        Err(e) => return stats.error(format!("player {n}: socket: {e}")),
    };
    let mut seed = 0x9e37_79b9_7f4a_7c15u64 ^ (n as u64 + 1);
    while Instant::now() < deadline {
        let pool = POOLS[(next_rand(&mut seed) % POOLS.len() as u64) as usize];
        let join = json!({"type": "pool_join", "pool": pool, "name": format!("p{n}")});
        let sent = Instant::now();
        if futures_util::SinkExt::send(&mut ws, Message::Text(join.to_string().into()))
            .await
            .is_err()
        {
            return stats.error(format!("player {n}: send failed"));
        }
        // Waits for this join's `paired`; the run's end stops a wait.
        loop {
            let left = deadline.saturating_duration_since(Instant::now()) + Duration::from_secs(5);
            let msg = match tokio::time::timeout(left, ws.next()).await {
                Err(_) => return, // still waiting when the run ended: not a pairing
                Ok(None) | Ok(Some(Err(_))) => {
                    return stats.error(format!("player {n}: socket closed"))
                }
                Ok(Some(Ok(Message::Text(t)))) => t,
                Ok(Some(Ok(_))) => continue,
            };
            let v: Value = serde_json::from_str(msg.as_str()).unwrap_or(Value::Null);
            match v["type"].as_str() {
                Some("paired") => {
                    let us = sent.elapsed().as_micros() as u64;
                    stats.latencies_us.lock().unwrap().push(us);
                    stats.paired.fetch_add(1, Ordering::Relaxed);
                    break;
                }
                Some("error") | Some("pool_left") => {
                    stats.error(format!("player {n}: {v}"));
                    break;
                }
                _ => {} // the pool answer, seek lists
            }
        }
    }
}

async fn pairing(base: &str, args: &Args) {
    let players: usize = args.get("--players", 200usize).clamp(2, 5000);
    let secs: u64 = args.get("--secs", 30u64).clamp(1, 600);
    let stats = Arc::new(PairingStats::default());
    let started = Instant::now();
    let deadline = started + Duration::from_secs(secs);
    let tasks: Vec<_> = (0..players)
        .map(|n| tokio::spawn(pairing_player(base.to_string(), n, stats.clone(), deadline)))
        .collect();
    for t in tasks {
        let _ = t.await;
    }
    let elapsed = started.elapsed().as_secs_f64().min(secs as f64);
    let paired = stats.paired.load(Ordering::Relaxed);
    let mut lat = stats.latencies_us.lock().unwrap().clone();
    lat.sort_unstable();
    let pct = |p: f64| -> f64 {
        if lat.is_empty() {
            return 0.0;
        }
        lat[((lat.len() - 1) as f64 * p).round() as usize] as f64 / 1000.0
    };
    println!("players {players}, {secs} s");
    println!(
        "pairings {paired} (games started {}, {:.1}/s)",
        paired / 2,
        paired as f64 / 2.0 / elapsed
    );
    println!(
        "pairing time ms: p50 {:.1}  p99 {:.1}  max {:.1}",
        pct(0.5),
        pct(0.99),
        pct(1.0)
    );
    println!("errors {}", stats.errors.load(Ordering::Relaxed));
    for e in stats.first_errors.lock().unwrap().iter() {
        println!("  {e}");
    }
    println!("process rss (server + client)  {} MiB", rss_mib());
}
