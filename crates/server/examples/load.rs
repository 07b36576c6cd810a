//! Load test of online play (issue 15): many concurrent online games over real WebSockets
//! against a running server, bounded in count and time. Not part of `cargo test`.
//!
//! Start a server that lets this machine past the per-address limits, then run the tool:
//!
//! ```text
//! virada serve --addr 127.0.0.1:8090 --db /tmp/load.sqlite --max-connections 8192 \
//!     --rate-limit-exempt 127.0.0.1 &
//! cargo run --release -p virada-server --example load -- --url http://127.0.0.1:8090 \
//!     --games 1000 --spectators 1 --seconds 60 --server-pid $!
//! ```
//!
//! Or let the tool start the server itself, as a child process (the same server code, with
//! `--max-connections 16384` and 127.0.0.1 exempt from the per-address limits), on a fresh
//! database: `cargo run -p virada-server --example load -- --spawn-server /tmp/load.sqlite`.
//!
//! Each game has two players (two browsers, two sockets) and `--spectators` watchers (one
//! socket each). A player answers the opponent's move after a think time drawn from
//! `--think-ms` (default 500..1500 ms, blitz), picking a random legal move. Measured: moves
//! per second, the latency from a move sent to the opponent's socket receiving the game that
//! shows it (p50, p99, max), the server's resident memory (`VmRSS`/`VmHWM` of
//! `--server-pid` from /proc), and every error (HTTP failures, `error` messages, sockets
//! closed by the server).
//!
//! Several instances on one PostgreSQL database (docs/SERVER.md, "Several instances"):
//! `--url2 URL` sends each game's second player (its seat and its socket) and every other
//! spectator to a second instance, so every move crosses instances. `--spawn-server
//! postgres://...` with `--instances 2` starts two instances on that database.
//! `--kill-after S` kills the second instance with SIGKILL `S` seconds into the run (with
//! `--kill-pid PID` for one started by hand): its players reconnect to the first, and every
//! move a player had seen acknowledged must still be in the game it finds there (counted as
//! `lost`, an error, otherwise).

use futures_util::stream::{self, StreamExt};
use futures_util::SinkExt;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

struct Options {
    url: String,
    games: usize,
    spectators: usize,
    seconds: u64,
    think_ms: (u64, u64),
    server_pid: Option<u32>,
    /// Games set up at once (HTTP requests and socket handshakes in flight).
    setup_concurrency: usize,
    /// Start a server on this database file first (a child process).
    spawn_server: Option<String>,
    /// A second instance on the same PostgreSQL database.
    url2: Option<String>,
    /// With `--spawn-server`: how many instances (1 or 2).
    instances: usize,
    /// Kill the second instance (`kill_pid`, or the second spawned one) this far into the run.
    kill_after: Option<u64>,
    kill_pid: Option<u32>,
}

fn parse_options() -> Result<Options, String> {
    let mut o = Options {
        url: "http://127.0.0.1:8080".into(),
        games: 1000,
        spectators: 1,
        seconds: 60,
        think_ms: (500, 1500),
        server_pid: None,
        setup_concurrency: 64,
        spawn_server: None,
        url2: None,
        instances: 1,
        kill_after: None,
        kill_pid: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        let number = |v: String| v.parse::<u64>().map_err(|e| format!("{flag} {v:?}: {e}"));
        match flag.as_str() {
            "--url" => o.url = value()?.trim_end_matches('/').to_string(),
            "--games" => o.games = number(value()?)?.clamp(1, 20_000) as usize,
            "--spectators" => o.spectators = number(value()?)?.min(16) as usize,
            "--seconds" => o.seconds = number(value()?)?.clamp(1, 3600),
            "--server-pid" => o.server_pid = Some(number(value()?)? as u32),
            "--spawn-server" => o.spawn_server = Some(value()?),
            "--url2" => o.url2 = Some(value()?.trim_end_matches('/').to_string()),
            "--instances" => o.instances = number(value()?)?.clamp(1, 2) as usize,
            "--kill-after" => o.kill_after = Some(number(value()?)?),
            "--kill-pid" => o.kill_pid = Some(number(value()?)? as u32),
            "--setup-concurrency" => {
                o.setup_concurrency = number(value()?)?.clamp(1, 1024) as usize
            }
            "--think-ms" => {
                let v = value()?;
                let (lo, hi) = v.split_once("..").unwrap_or((&v, &v));
                let lo = number(lo.to_string())?;
                let hi = number(hi.to_string())?.max(lo);
                o.think_ms = (lo, hi);
            }
            other => {
                return Err(format!(
                    "unknown argument {other:?}; see the top of crates/server/examples/load.rs"
                ))
            }
        }
    }
    Ok(o)
}

/// What every task reports into.
#[derive(Default)]
struct Stats {
    moves: AtomicU64,
    /// Player sockets opened again on the other instance after theirs died.
    reconnects: AtomicU64,
    /// Moves a player had seen stored that the game lacked after a reconnect.
    lost: AtomicU64,
    finished_games: AtomicU64,
    errors: AtomicU64,
    /// Move-to-opponent latencies, microseconds.
    latencies: Mutex<Vec<u32>>,
    /// The first error messages (a sample, for the report).
    samples: Mutex<Vec<String>>,
}

impl Stats {
    fn error(&self, what: String) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        let mut s = self.samples.lock().unwrap();
        if s.len() < 10 {
            s.push(what);
        }
    }
}

/// One game's moves in flight: the ply a move was sent at, and when.
type InFlight = Arc<Mutex<Option<(usize, Instant)>>>;

fn new_cookie() -> String {
    let token = virada_server::identity::new_token().expect("random token");
    format!("virada_id={token}")
}

async fn post(
    http: &reqwest::Client,
    url: String,
    cookie: &str,
    body: Value,
) -> Result<Value, String> {
    let r = http
        .post(&url)
        .header("cookie", cookie)
        .json(&body)
        .send()
        .await
        .map_err(|e| format!("POST {url}: {e}"))?;
    let status = r.status();
    let text = r.text().await.map_err(|e| format!("POST {url}: {e}"))?;
    if !status.is_success() {
        return Err(format!("POST {url}: {status} {text}"));
    }
    serde_json::from_str(&text).map_err(|e| format!("POST {url}: {e}"))
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn connect(ws_base: &str, id: &str, cookie: &str) -> Result<Ws, String> {
    let mut req = format!("{ws_base}/api/games/{id}/ws")
        .into_client_request()
        .map_err(|e| e.to_string())?;
    req.headers_mut()
        .insert("cookie", cookie.parse().map_err(|_| "cookie header")?);
    let (ws, _) = tokio_tungstenite::connect_async(req)
        .await
        .map_err(|e| format!("WebSocket {id}: {e}"))?;
    Ok(ws)
}

/// A game set up: both seats taken, every socket open.
struct Table {
    id: String,
    /// Each player's cookie and socket, and the instance (0 or 1) it is on.
    players: [(String, Ws, usize); 2],
    spectators: Vec<Ws>,
}

/// The HTTP base of instance `k`.
fn base(o: &Options, k: usize) -> &str {
    match (k, &o.url2) {
        (1, Some(u)) => u,
        _ => &o.url,
    }
}

async fn set_up(o: &Options, http: &reqwest::Client, n: usize) -> Result<Table, String> {
    let (a, b) = (new_cookie(), new_cookie());
    let g = post(
        http,
        format!("{}/api/games", o.url),
        &a,
        json!({"mode": "online", "color": "black", "name": format!("A{n}"),
               "time_control": {"kind": "clock", "minutes": 5, "increment_seconds": 3}}),
    )
    .await?;
    let id = g["id"].as_str().ok_or("no game id")?.to_string();
    post(
        http,
        format!("{}/api/games/{id}/seat", base(o, 1)),
        &b,
        json!({"name": format!("B{n}")}),
    )
    .await?;
    let ws = |k: usize| base(o, k).replacen("http", "ws", 1);
    let players = [
        (a.clone(), connect(&ws(0), &id, &a).await?, 0),
        (b.clone(), connect(&ws(1), &id, &b).await?, 1),
    ];
    let mut spectators = Vec::new();
    for k in 0..o.spectators {
        spectators.push(connect(&ws(k % 2), &id, &new_cookie()).await?);
    }
    Ok(Table {
        id,
        players,
        spectators,
    })
}

/// Where a player reconnects when its instance dies: the game, its cookie, the other
/// instance's WebSocket base (`None`: one instance, a closed socket is an error).
struct Rejoin {
    id: String,
    cookie: String,
    other: Option<String>,
}

/// Plays one seat until `deadline`: answers every `game` where it is to move.
#[allow(clippy::too_many_arguments)]
async fn play(
    mut ws: Ws,
    mut rejoin: Rejoin,
    in_flight: InFlight,
    stats: Arc<Stats>,
    think: (u64, u64),
    seed: u64,
    deadline: tokio::time::Instant,
) {
    // Think times and move choice need no quality: the engine's seeded sequence.
    let mut rng = virada_engine::random::SplitMix(seed);
    let mut sent_at_ply: Option<usize> = None;
    let mut pending: Option<(tokio::time::Instant, String, usize)> = None;
    // The most plies this player has seen stored, and whether the next game is the first one
    // after a reconnect (which must hold them all).
    let mut seen_plies = 0usize;
    let mut check_after_reconnect = false;
    loop {
        let wake = pending
            .as_ref()
            .map_or(deadline, |(at, _, _)| (*at).min(deadline));
        tokio::select! {
            msg = ws.next() => {
                let text = match msg {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(other)) => {
                        stats.error(format!("unexpected frame {other:?}"));
                        return;
                    }
                    Some(Err(_)) | None if rejoin.other.is_some() => {
                        // Its instance died: on to the other one, as the page would.
                        let other = rejoin.other.take().unwrap_or_default();
                        match reconnect(&other, &rejoin, deadline).await {
                            Some(fresh) => {
                                ws = fresh;
                                stats.reconnects.fetch_add(1, Ordering::Relaxed);
                                // A move sent to the dead instance may never have been stored.
                                sent_at_ply = None;
                                pending = None;
                                *in_flight.lock().unwrap() = None;
                                check_after_reconnect = true;
                                continue;
                            }
                            None => {
                                stats.error("could not reconnect to the other instance".into());
                                return;
                            }
                        }
                    }
                    Some(Err(e)) => {
                        stats.error(format!("socket error: {e}"));
                        return;
                    }
                    None => {
                        stats.error("socket closed by the server".into());
                        return;
                    }
                };
                let Ok(v) = serde_json::from_str::<Value>(text.as_str()) else {
                    stats.error(format!("not JSON: {text}"));
                    return;
                };
                match v["type"].as_str() {
                    Some("game") => {}
                    Some("error") => {
                        stats.error(format!("error message: {v}"));
                        continue;
                    }
                    _ => continue,
                }
                let game = &v["game"];
                let plies = game["plies"].as_array().map_or(0, Vec::len);
                if check_after_reconnect {
                    check_after_reconnect = false;
                    if plies < seen_plies {
                        stats.lost.fetch_add((seen_plies - plies) as u64, Ordering::Relaxed);
                        stats.error(format!(
                            "game {}: {seen_plies} plies seen before the reconnect, {plies} after",
                            rejoin.id
                        ));
                    }
                }
                seen_plies = seen_plies.max(plies);
                // The opponent's move arrived: its latency.
                {
                    let mut f = in_flight.lock().unwrap();
                    if let Some((ply, at)) = *f {
                        if plies > ply && sent_at_ply != Some(ply) {
                            let us = at.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
                            stats.latencies.lock().unwrap().push(us);
                            *f = None;
                        }
                    }
                }
                let online = &game["online"];
                if online["phase"] == "finished" {
                    if online["you"] == "black" {
                        stats.finished_games.fetch_add(1, Ordering::Relaxed);
                    }
                    return;
                }
                let my_turn = online["phase"] == "playing"
                    && game["side_to_move"] == online["you"]
                    && sent_at_ply.is_none_or(|p| p < plies);
                if my_turn && pending.is_none() {
                    let legal: Vec<&str> = game["legal_moves"]
                        .as_array()
                        .map(|l| l.iter().filter_map(Value::as_str).collect())
                        .unwrap_or_default();
                    if legal.is_empty() {
                        continue;
                    }
                    let square = legal[(rng.next_u64() % legal.len() as u64) as usize].to_string();
                    let spread = think.1 - think.0 + 1;
                    let delay = Duration::from_millis(think.0 + rng.next_u64() % spread);
                    pending = Some((tokio::time::Instant::now() + delay, square, plies));
                }
            }
            _ = tokio::time::sleep_until(wake) => {
                if tokio::time::Instant::now() >= deadline {
                    let _ = ws.close(None).await;
                    return;
                }
                if let Some((_, square, ply)) = pending.take() {
                    let msg = json!({"type": "move", "square": square, "ply": ply}).to_string();
                    *in_flight.lock().unwrap() = Some((ply, Instant::now()));
                    sent_at_ply = Some(ply);
                    if let Err(e) = ws.send(Message::text(msg)).await {
                        stats.error(format!("send failed: {e}"));
                        return;
                    }
                    stats.moves.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
    }
}

/// Opens the player's socket again on `ws_base` (the other instance), trying for a while.
async fn reconnect(ws_base: &str, rejoin: &Rejoin, deadline: tokio::time::Instant) -> Option<Ws> {
    while tokio::time::Instant::now() < deadline {
        if let Ok(ws) = connect(ws_base, &rejoin.id, &rejoin.cookie).await {
            return Some(ws);
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    None
}

/// A spectator: reads until the deadline; counts the server closing it as an error.
async fn watch(mut ws: Ws, stats: Arc<Stats>, deadline: tokio::time::Instant, may_die: bool) {
    loop {
        tokio::select! {
            msg = ws.next() => match msg {
                Some(Ok(Message::Text(t))) => {
                    if t.as_str().contains("\"type\":\"error\"") {
                        stats.error(format!("spectator got {t}"));
                    }
                }
                Some(Ok(_)) => {}
                Some(Err(_)) | None if may_die => return,
                Some(Err(e)) => return stats.error(format!("spectator socket error: {e}")),
                None => return stats.error("spectator socket closed by the server".into()),
            },
            _ = tokio::time::sleep_until(deadline) => {
                let _ = ws.close(None).await;
                return;
            }
        }
    }
}

/// `VmRSS` and `VmHWM` (peak) of a process, in MiB.
fn memory_mib(pid: u32) -> Option<(f64, f64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| -> Option<f64> {
        let line = status.lines().find(|l| l.starts_with(name))?;
        let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib / 1024.0)
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    f64::from(sorted[i]) / 1000.0
}

/// The child process of `--spawn-server`: serves until killed.
fn internal_serve(db: &str) -> ! {
    let mut config = virada_server::ServerConfig {
        addr: "127.0.0.1:0".parse().expect("address"),
        max_connections: 16_384,
        ..virada_server::ServerConfig::default()
    };
    // A file, or a `postgres://` URL.
    config.set_db(db);
    config.limits.exempt = vec!["127.0.0.1".parse().expect("address")];
    match virada_server::run_blocking(config) {
        Ok(()) => std::process::exit(0),
        Err(e) => {
            eprintln!("load: the server failed: {e}");
            std::process::exit(1);
        }
    }
}

/// Starts the server as a child process on `db`; its URL and the child.
fn spawn_server(db: &str, fresh: bool) -> Result<(String, std::process::Child), String> {
    use std::io::BufRead;
    if fresh {
        let _ = std::fs::remove_file(db);
    }
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut child = std::process::Command::new(exe)
        .args(["--internal-serve", db])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    let out = child.stdout.take().ok_or("no server output")?;
    let mut lines = std::io::BufReader::new(out).lines();
    for line in lines.by_ref() {
        let line = line.map_err(|e| e.to_string())?;
        if let Some(url) = line.strip_prefix("listening on ") {
            let url = url.split_whitespace().next().unwrap_or("").to_string();
            // Keep reading (and dropping) its output so it never blocks on a full pipe.
            std::thread::spawn(move || for _ in lines {});
            return Ok((url, child));
        }
    }
    let _ = child.kill();
    Err("the server exited before listening".into())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() == 3 && args[1] == "--internal-serve" {
        internal_serve(&args[2]);
    }
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("async runtime")
        .block_on(run());
}

async fn run() {
    let mut o = match parse_options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("load: {e}");
            std::process::exit(2);
        }
    };
    let mut children = Vec::new();
    if let Some(db) = o.spawn_server.clone() {
        for k in 0..o.instances {
            // The second instance shares the first one's PostgreSQL database.
            match spawn_server(&db, k == 0) {
                Ok((url, c)) => {
                    if k == 0 {
                        o.url = url;
                        o.server_pid = Some(c.id());
                    } else {
                        o.url2 = Some(url);
                        o.kill_pid = o.kill_pid.or(Some(c.id()));
                    }
                    children.push(c);
                }
                Err(e) => {
                    eprintln!("load: {e}");
                    std::process::exit(1);
                }
            }
        }
    }
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .expect("HTTP client");
    let stats = Arc::new(Stats::default());
    if let Some((rss, _)) = o.server_pid.and_then(memory_mib) {
        println!("server RSS before: {rss:.1} MiB");
    }
    println!(
        "setting up {} games ({} sockets) against {} ...",
        o.games,
        o.games * (2 + o.spectators),
        o.url
    );
    let started = Instant::now();
    let tables: Vec<Result<Table, String>> = stream::iter(0..o.games)
        .map(|n| set_up(&o, &http, n))
        .buffer_unordered(o.setup_concurrency)
        .collect()
        .await;
    let mut ready = Vec::new();
    for t in tables {
        match t {
            Ok(t) => ready.push(t),
            Err(e) => stats.error(format!("set-up: {e}")),
        }
    }
    println!(
        "{} games ready in {:.1} s; playing for {} s",
        ready.len(),
        started.elapsed().as_secs_f64(),
        o.seconds
    );
    let deadline = tokio::time::Instant::now() + Duration::from_secs(o.seconds);
    let play_start = Instant::now();
    let killing = o.kill_after.is_some() && o.url2.is_some();
    if let (Some(after), Some(pid)) = (o.kill_after, o.kill_pid.filter(|_| killing)) {
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_secs(after)).await;
            let killed = std::process::Command::new("kill")
                .args(["-9", &pid.to_string()])
                .status();
            println!("killed the second instance (pid {pid}) after {after} s: {killed:?}");
        });
    }
    let mut tasks = Vec::new();
    for (n, t) in ready.into_iter().enumerate() {
        let in_flight: InFlight = Arc::new(Mutex::new(None));
        for (k, (cookie, ws, on)) in t.players.into_iter().enumerate() {
            let seed = (n as u64 * 2 + k as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let rejoin = Rejoin {
                id: t.id.clone(),
                cookie,
                // Only the killed instance's players move over.
                other: (killing && on == 1).then(|| o.url.replacen("http", "ws", 1)),
            };
            tasks.push(tokio::spawn(play(
                ws,
                rejoin,
                in_flight.clone(),
                stats.clone(),
                o.think_ms,
                seed,
                deadline,
            )));
        }
        for ws in t.spectators {
            tasks.push(tokio::spawn(watch(ws, stats.clone(), deadline, killing)));
        }
    }
    let mut peak_rss = 0.0f64;
    let sampler = {
        let pid = o.server_pid;
        tokio::spawn(async move {
            let mut peak = 0.0f64;
            while tokio::time::Instant::now() < deadline {
                if let Some((rss, _)) = pid.and_then(memory_mib) {
                    peak = peak.max(rss);
                }
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
            peak
        })
    };
    for t in tasks {
        let _ = t.await;
    }
    if let Ok(p) = sampler.await {
        peak_rss = p;
    }
    let elapsed = play_start.elapsed().as_secs_f64();
    let moves = stats.moves.load(Ordering::Relaxed);
    let mut lat = stats.latencies.lock().unwrap().clone();
    lat.sort_unstable();
    println!("--- results ---");
    println!(
        "games: {} set up, {} finished during the run",
        o.games,
        stats.finished_games.load(Ordering::Relaxed)
    );
    println!(
        "moves: {moves} in {elapsed:.1} s = {:.0} moves/s",
        moves as f64 / elapsed
    );
    println!(
        "latency move -> opponent's socket: n={} p50={:.1} ms p99={:.1} ms max={:.1} ms",
        lat.len(),
        percentile(&lat, 0.50),
        percentile(&lat, 0.99),
        percentile(&lat, 1.0)
    );
    if let Some((rss, hwm)) = o.server_pid.and_then(memory_mib) {
        println!(
            "server memory: RSS now {rss:.1} MiB, sampled peak {peak_rss:.1} MiB, VmHWM {hwm:.1} MiB"
        );
    }
    if o.url2.is_some() {
        println!(
            "reconnects to the other instance: {}; acknowledged moves lost: {}",
            stats.reconnects.load(Ordering::Relaxed),
            stats.lost.load(Ordering::Relaxed)
        );
    }
    println!("errors: {}", stats.errors.load(Ordering::Relaxed));
    for s in stats.samples.lock().unwrap().iter() {
        println!("  {s}");
    }
    for mut c in children {
        let _ = c.kill();
        let _ = c.wait();
    }
}
