//! The engine queue: priorities, bounds, cancellation, time caps and incomplete analyses, with
//! a scripted engine in place of the real one. The scripted engine reports when a job starts
//! and ends and blocks until the test opens its gate or the job's stop flag goes up, so every
//! check waits for an event instead of guessing how long something takes.

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use virada_engine::{
    Analysis, GameAnalysis, Level, Limits, MoveValue, Observer, PlyAnalysis, ReviewEffort,
};
use virada_rules::{Game, Move, Position};
use virada_server::runtime::engine_port::EnginePort;
use virada_server::runtime::pool::{
    EngineFactory, EnginePool, JobSpec, Priority, MAX_BACKGROUND_JOBS_PER_GAME,
    MAX_BACKGROUND_WAITING, MAX_WAITING_MOVES_PER_CLIENT,
};
use virada_server::{AppError, Server, ServerConfig};

#[derive(Debug, Clone, PartialEq)]
enum Event {
    /// A job started: what it is, and whether its stop flag was already up.
    Started { what: String, stopped: bool },
    /// A job ended: whether it ended because its stop flag went up.
    Finished { what: String, stopped: bool },
}

/// The scripted engine: every operation reports its start, waits for the gate or its stop
/// flag, and reports its end.
#[derive(Clone)]
struct Scripted {
    events: mpsc::UnboundedSender<Event>,
    gate: Arc<AtomicBool>,
    /// Whether game reviews say they are complete.
    reviews_complete: Arc<AtomicBool>,
    reviews: Arc<AtomicUsize>,
    /// The levels of the computer moves, in the order they started (tests tell jobs apart by
    /// the level they pass).
    move_levels: Arc<std::sync::Mutex<Vec<u8>>>,
}

impl Scripted {
    fn work(&self, what: String, stop: &AtomicBool) {
        let stopped = stop.load(Ordering::Relaxed);
        let _ = self.events.send(Event::Started {
            what: what.clone(),
            stopped,
        });
        // Waiting for a condition, not measuring time.
        while !self.gate.load(Ordering::Relaxed) && !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
        let _ = self.events.send(Event::Finished {
            what,
            stopped: stop.load(Ordering::Relaxed),
        });
    }
}

impl EnginePort for Scripted {
    fn choose_move(
        &mut self,
        pos: Position,
        level: Level,
        _clock: Option<virada_engine::Clock>,
        _seed: u64,
        stop: &Arc<AtomicBool>,
        _observer: &mut dyn Observer,
    ) -> Move {
        self.move_levels.lock().unwrap().push(level.0);
        self.work("move".into(), stop);
        pos.legal_moves().first().map_or(Move::Pass, Move::Play)
    }

    fn analyze(&mut self, pos: Position, _limits: &Limits, stop: &Arc<AtomicBool>) -> Analysis {
        self.work("hint".into(), stop);
        let moves = pos
            .legal_moves()
            .iter()
            .map(|sq| MoveValue {
                mv: Move::Play(sq),
                value: 0.0,
                exact: false,
                depth: 1,
                book: false,
            })
            .collect();
        Analysis {
            moves,
            complete: !stop.load(Ordering::Relaxed),
            ..Analysis::default()
        }
    }

    fn review_game(
        &mut self,
        game: &Game,
        _effort: &ReviewEffort,
        stop: &Arc<AtomicBool>,
    ) -> GameAnalysis {
        self.reviews.fetch_add(1, Ordering::Relaxed);
        self.work("review".into(), stop);
        let plies = game
            .moves()
            .iter()
            .zip(game.positions())
            .enumerate()
            .map(|(ply, (&mv, pos))| PlyAnalysis {
                ply,
                color: pos.side_to_move(),
                played: mv,
                played_value: 0.0,
                best_move: mv,
                best_value: 0.0,
                loss: 0.0,
                exact: false,
                depth: 1,
                book: false,
                pv: Vec::new(),
            })
            .collect();
        GameAnalysis {
            plies,
            nodes: 0,
            elapsed: Duration::ZERO,
            complete: self.reviews_complete.load(Ordering::Relaxed),
        }
    }
}

struct Rig {
    engine: Scripted,
    events: mpsc::UnboundedReceiver<Event>,
}

impl Rig {
    fn new() -> Rig {
        let (tx, events) = mpsc::unbounded_channel();
        Rig {
            engine: Scripted {
                events: tx,
                gate: Arc::new(AtomicBool::new(false)),
                reviews_complete: Arc::new(AtomicBool::new(true)),
                reviews: Arc::new(AtomicUsize::new(0)),
                move_levels: Arc::default(),
            },
            events,
        }
    }

    fn factory(&self) -> EngineFactory {
        let e = self.engine.clone();
        Arc::new(move || Box::new(e.clone()) as Box<dyn EnginePort>)
    }

    /// The next event (a generous safety limit turns a hang into a failure).
    async fn next(&mut self) -> Event {
        tokio::time::timeout(Duration::from_secs(20), self.events.recv())
            .await
            .expect("the engine reported nothing")
            .expect("engine channel open")
    }
}

fn started(what: &str, stopped: bool) -> Event {
    Event::Started {
        what: what.into(),
        stopped,
    }
}

fn finished(what: &str, stopped: bool) -> Event {
    Event::Finished {
        what: what.into(),
        stopped,
    }
}

fn spec(priority: Priority, game: &str) -> JobSpec {
    client_spec(priority, game, game)
}

fn client_spec(priority: Priority, game: &str, client: &str) -> JobSpec {
    JobSpec {
        priority,
        game: game.into(),
        client: client.into(),
        stop: Arc::new(AtomicBool::new(false)),
        time_cap: None,
    }
}

/// Queues a hint job on `pool` in the background.
fn hint_job(
    pool: &EnginePool,
    spec: JobSpec,
) -> tokio::task::JoinHandle<Result<Analysis, AppError>> {
    let pool = pool.clone();
    tokio::spawn(async move {
        let stop = spec.stop.clone();
        pool.run(spec, move |e| {
            e.analyze(Position::start(), &Limits::depth(1), &stop)
        })
        .await
    })
}

fn move_job(pool: &EnginePool, spec: JobSpec) -> tokio::task::JoinHandle<Result<Move, AppError>> {
    move_job_at(pool, spec, 5)
}

/// A computer move job that passes `level` to the engine (which records it when it starts).
fn move_job_at(
    pool: &EnginePool,
    spec: JobSpec,
    level: u8,
) -> tokio::task::JoinHandle<Result<Move, AppError>> {
    let pool = pool.clone();
    tokio::spawn(async move {
        let stop = spec.stop.clone();
        pool.run(spec, move |e| {
            e.choose_move(
                Position::start(),
                Level(level),
                None,
                1,
                &stop,
                &mut |_: &virada_engine::Iteration| {},
            )
        })
        .await
    })
}

/// Waits until the pool holds `n` jobs (queued or running).
async fn wait_load(pool: &EnginePool, n: usize) {
    for _ in 0..2000 {
        if pool.load() == n {
            return;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    panic!("the pool never held {n} jobs (holds {})", pool.load());
}

#[tokio::test]
async fn computer_moves_go_before_waiting_hints() {
    let mut rig = Rig::new();
    let pool = EnginePool::new(1, rig.factory());
    let blocker = hint_job(&pool, spec(Priority::Background, "a"));
    assert_eq!(rig.next().await, started("hint", false));
    let hint = hint_job(&pool, spec(Priority::Background, "b"));
    wait_load(&pool, 2).await;
    let mv = move_job(&pool, spec(Priority::Move, "c"));
    wait_load(&pool, 3).await;
    rig.engine.gate.store(true, Ordering::Relaxed);
    assert_eq!(rig.next().await, finished("hint", false));
    // The move was queued after the second hint, but starts first.
    assert_eq!(rig.next().await, started("move", false));
    assert_eq!(rig.next().await, finished("move", false));
    assert_eq!(rig.next().await, started("hint", false));
    assert!(mv.await.unwrap().is_ok());
    assert!(hint.await.unwrap().is_ok());
    assert!(blocker.await.unwrap().is_ok());
}

#[tokio::test]
async fn a_quick_move_does_not_wait_for_running_expensive_searches() {
    let mut rig = Rig::new();
    let pool = EnginePool::new(1, rig.factory());
    // One client's expensive move runs on the only general worker, and more of its moves wait.
    let mut jobs = vec![move_job(&pool, client_spec(Priority::Move, "a0", "A"))];
    assert_eq!(rig.next().await, started("move", false));
    for i in 1..=3 {
        jobs.push(move_job(
            &pool,
            client_spec(Priority::Move, &format!("a{i}"), "A"),
        ));
    }
    wait_load(&pool, 4).await;
    // Another client's quick move starts at once (the quick lane), the gate still closed.
    jobs.push(move_job(&pool, client_spec(Priority::QuickMove, "b", "B")));
    assert_eq!(rig.next().await, started("move", false));
    assert_eq!(pool.load(), 5);
    rig.engine.gate.store(true, Ordering::Relaxed);
    for j in jobs {
        assert!(j.await.unwrap().is_ok());
    }
}

/// Queues a game review on `pool` in the background.
fn review_job(
    pool: &EnginePool,
    spec: JobSpec,
) -> tokio::task::JoinHandle<Result<virada_engine::GameAnalysis, AppError>> {
    let pool = pool.clone();
    tokio::spawn(async move {
        let stop = spec.stop.clone();
        let game = Game::new();
        pool.run(spec, move |e| {
            e.review_game(&game, &ReviewEffort::STANDARD, &stop)
        })
        .await
    })
}

/// Reviews take long (a node budget of billions): one client asking for reviews of two games
/// keeps one of two workers busy, not both, and another client's expensive move starts on the
/// other at once. Without the cap of one running background job per client, both workers
/// took A's reviews and B's move waited for one of them to end.
#[tokio::test]
async fn one_clients_reviews_leave_the_other_workers_to_the_others_games() {
    let mut rig = Rig::new();
    let pool = EnginePool::new(2, rig.factory());
    let first = review_job(&pool, client_spec(Priority::Background, "a1", "A"));
    assert_eq!(rig.next().await, started("review", false));
    let second = review_job(&pool, client_spec(Priority::Background, "a2", "A"));
    wait_load(&pool, 2).await;
    let mv = move_job_at(&pool, client_spec(Priority::Move, "b", "B"), 21);
    // B's move starts while A's first review still runs and its second waits.
    assert_eq!(rig.next().await, started("move", false));
    assert_eq!(pool.load(), 3);
    // Another client's review is not held back by A's.
    let other = review_job(&pool, client_spec(Priority::Background, "c", "C"));
    wait_load(&pool, 4).await;
    rig.engine.gate.store(true, Ordering::Relaxed);
    let mut events = Vec::new();
    for _ in 0..5 {
        events.push(rig.next().await);
    }
    // The two waiting reviews started after the gate opened: one each of A and C.
    let reviews = events
        .iter()
        .filter(|e| **e == started("review", false))
        .count();
    assert_eq!(reviews, 2, "{events:?}");
    assert!(mv.await.unwrap().is_ok());
    for r in [first, second, other] {
        assert!(r.await.unwrap().is_ok());
    }
}

/// The probe's scenario in the queue itself: client A keeps the one general worker busy with
/// an expensive move and has as many more waiting as it may; another client's moves then wait
/// behind at most one of A's (an expensive one: turns) or none (a quick one: the quick lane).
/// With one first-come-first-served line, B's expensive move started after all four of A's
/// waiting ones, and its quick move too.
#[tokio::test]
async fn another_clients_moves_wait_behind_at_most_one_of_a_busy_clients() {
    let mut rig = Rig::new();
    let pool = EnginePool::new(1, rig.factory());
    // Levels tell the jobs apart: A's are 11 to 15, B's expensive one 21, its quick one 1.
    let mut jobs = vec![move_job_at(
        &pool,
        client_spec(Priority::Move, "a0", "A"),
        11,
    )];
    assert_eq!(rig.next().await, started("move", false));
    for (i, level) in (12..=15).enumerate() {
        jobs.push(move_job_at(
            &pool,
            client_spec(Priority::Move, &format!("a{}", i + 1), "A"),
            level,
        ));
        wait_load(&pool, 2 + i).await;
    }
    jobs.push(move_job_at(
        &pool,
        client_spec(Priority::Move, "b", "B"),
        21,
    ));
    wait_load(&pool, 6).await;
    jobs.push(move_job_at(
        &pool,
        client_spec(Priority::QuickMove, "q", "B"),
        1,
    ));
    // The quick move starts while A's search still holds the general worker.
    assert_eq!(rig.next().await, started("move", false));
    assert_eq!(*rig.engine.move_levels.lock().unwrap(), [11, 1]);
    rig.engine.gate.store(true, Ordering::Relaxed);
    for j in jobs {
        assert!(j.await.unwrap().is_ok());
    }
    let order = rig.engine.move_levels.lock().unwrap().clone();
    // B's expensive move started after one of A's four waiting moves, not after all four.
    assert_eq!(order, [11, 1, 12, 21, 13, 14, 15]);
    // A's moves started before each of B's: the one already running, plus none (quick) or
    // one (expensive) of the four waiting. One first-come-first-served line made both 5.
    let of_a_before = |level: u8| {
        let at = order.iter().position(|&l| l == level).unwrap();
        order[..at]
            .iter()
            .filter(|l| (11..=15).contains(*l))
            .count()
    };
    assert_eq!((of_a_before(1), of_a_before(21)), (1, 2));
}

#[tokio::test]
async fn a_client_has_a_bounded_number_of_waiting_computer_moves() {
    let mut rig = Rig::new();
    let pool = EnginePool::new(1, rig.factory());
    let mut jobs = vec![move_job(&pool, client_spec(Priority::Move, "a0", "A"))];
    assert_eq!(rig.next().await, started("move", false));
    // The running move does not count: MAX_WAITING_MOVES_PER_CLIENT more may wait (expensive
    // ones: a quick one would start at once on the quick lane).
    for i in 1..=MAX_WAITING_MOVES_PER_CLIENT {
        jobs.push(move_job(
            &pool,
            client_spec(Priority::Move, &format!("a{i}"), "A"),
        ));
        wait_load(&pool, 1 + i).await;
    }
    // Over the bound, an expensive move and a quick one alike are refused at once.
    for priority in [Priority::Move, Priority::QuickMove] {
        let refused = tokio::time::timeout(
            Duration::from_secs(20),
            move_job(&pool, client_spec(priority, "a9", "A")),
        )
        .await
        .expect("refused, not queued")
        .unwrap()
        .expect_err("over the per-client bound");
        assert_eq!(refused.code(), "too_many_computer_moves");
        assert_eq!(refused.status(), 429);
        assert!(pool.check_move_room("A").is_err());
    }
    // Another client is not held to A's count.
    assert!(pool.check_move_room("B").is_ok());
    jobs.push(move_job(&pool, client_spec(Priority::Move, "b", "B")));
    rig.engine.gate.store(true, Ordering::Relaxed);
    for j in jobs {
        assert!(j.await.unwrap().is_ok());
    }
    assert!(pool.check_move_room("A").is_ok());
}

#[tokio::test]
async fn a_game_holds_a_bounded_number_of_background_jobs() {
    let mut rig = Rig::new();
    let pool = EnginePool::new(1, rig.factory());
    let mut jobs = vec![hint_job(&pool, spec(Priority::Background, "g"))];
    assert_eq!(rig.next().await, started("hint", false));
    for n in 2..=MAX_BACKGROUND_JOBS_PER_GAME {
        jobs.push(hint_job(&pool, spec(Priority::Background, "g")));
        wait_load(&pool, n).await;
    }
    // One more for the same game is refused at once, with a 429.
    let refused = hint_job(&pool, spec(Priority::Background, "g"))
        .await
        .unwrap();
    let err = refused.expect_err("over the per-game bound");
    assert!(matches!(err, AppError::TooManyRequests(_)), "{err:?}");
    assert_eq!(err.status(), 429);
    // Other games still get in, up to the server-wide bound on waiting jobs.
    let waiting_now = MAX_BACKGROUND_JOBS_PER_GAME - 1;
    for i in 0..MAX_BACKGROUND_WAITING - waiting_now {
        jobs.push(hint_job(
            &pool,
            spec(Priority::Background, &format!("o{i}")),
        ));
    }
    wait_load(&pool, 1 + MAX_BACKGROUND_WAITING).await;
    let busy = hint_job(&pool, spec(Priority::Background, "late"))
        .await
        .unwrap();
    let err = busy.expect_err("over the server-wide bound");
    assert!(matches!(err, AppError::EngineBusy(_)), "{err:?}");
    assert_eq!(err.status(), 503);
    // A computer move is never refused for that.
    let mv = move_job(&pool, spec(Priority::Move, "played"));
    wait_load(&pool, 2 + MAX_BACKGROUND_WAITING).await;
    rig.engine.gate.store(true, Ordering::Relaxed);
    assert!(mv.await.unwrap().is_ok());
    for j in jobs {
        assert!(j.await.unwrap().is_ok());
    }
    // Once they are done, the game may ask again.
    assert!(hint_job(&pool, spec(Priority::Background, "g"))
        .await
        .unwrap()
        .is_ok());
}

#[tokio::test]
async fn dropping_a_request_cancels_its_waiting_or_running_job() {
    let mut rig = Rig::new();
    let pool = EnginePool::new(1, rig.factory());
    let running_spec = spec(Priority::Background, "a");
    let running_stop = running_spec.stop.clone();
    let running = hint_job(&pool, running_spec);
    assert_eq!(rig.next().await, started("hint", false));
    let waiting_spec = spec(Priority::Background, "b");
    let waiting_stop = waiting_spec.stop.clone();
    let waiting = hint_job(&pool, waiting_spec);
    wait_load(&pool, 2).await;
    // The waiting request goes away: its job leaves the queue without running.
    waiting.abort();
    assert!(waiting.await.unwrap_err().is_cancelled());
    assert!(waiting_stop.load(Ordering::Relaxed));
    assert_eq!(pool.load(), 1);
    // The running request goes away: its search is stopped.
    running.abort();
    assert!(running.await.unwrap_err().is_cancelled());
    assert!(running_stop.load(Ordering::Relaxed));
    assert_eq!(rig.next().await, finished("hint", true));
    wait_load(&pool, 0).await;
    // The cancelled job never started.
    rig.engine.gate.store(true, Ordering::Relaxed);
    assert!(hint_job(&pool, spec(Priority::Background, "c"))
        .await
        .unwrap()
        .is_ok());
    assert_eq!(rig.next().await, started("hint", false));
}

// ---------- through the HTTP server ----------

async fn start_server(
    rig: &Rig,
    config: impl FnOnce(&mut ServerConfig),
) -> (Server, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = ServerConfig::for_tests(dir.path().join("db.sqlite"));
    config(&mut cfg);
    let server = Server::start_with_engine(cfg, rig.factory())
        .await
        .expect("server starts");
    (server, dir)
}

/// The identity cookie of the one browser these tests simulate (any well-formed token is a
/// browser's; games are private to the browser that made them).
const COOKIE: &str = "virada_id=00000000000000000000000000000000000000000000000000000000000000e2";

async fn create(server: &Server, body: serde_json::Value) -> String {
    let r = reqwest::Client::new()
        .post(format!("{}/api/games", server.url()))
        .header("cookie", COOKIE)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201);
    let g: serde_json::Value = r.json().await.unwrap();
    g["id"].as_str().unwrap().to_string()
}

/// Sends `GET path` on a raw connection and returns it (dropping it hangs up).
async fn raw_get(server: &Server, path: &str) -> std::net::TcpStream {
    let mut s = std::net::TcpStream::connect(server.addr()).unwrap();
    let req = format!(
        "GET {path} HTTP/1.1\r\nHost: {}\r\nCookie: {COOKIE}\r\n\r\n",
        server.addr()
    );
    s.write_all(req.as_bytes()).unwrap();
    s
}

#[tokio::test]
async fn a_client_hanging_up_cancels_its_hint() {
    let mut rig = Rig::new();
    let (server, _dir) =
        start_server(&rig, |c| c.hint_effort.time = Duration::from_secs(600)).await;
    let id = create(&server, serde_json::json!({"mode": "friend"})).await;
    let conn = raw_get(&server, &format!("/api/games/{id}/hint")).await;
    assert_eq!(rig.next().await, started("hint", false));
    drop(conn);
    // The search stops because nobody waits for it any more (its own time is 10 minutes).
    assert_eq!(rig.next().await, finished("hint", true));
    server.shutdown().await;
}

#[tokio::test]
async fn a_move_gets_its_whole_time_cap_after_waiting_in_the_queue() {
    let mut rig = Rig::new();
    let cap = Duration::from_millis(100);
    let (server, _dir) = start_server(&rig, |c| {
        c.move_time_limit = cap;
        c.hint_effort.time = Duration::from_secs(600);
    })
    .await;
    // A hint of one game occupies the only worker...
    let friend = create(&server, serde_json::json!({"mode": "friend"})).await;
    let conn = raw_get(&server, &format!("/api/games/{friend}/hint")).await;
    assert_eq!(rig.next().await, started("hint", false));
    // ...while another game's computer move (a level above the quick lane's) waits for longer
    // than its cap.
    create(
        &server,
        serde_json::json!({"mode": "computer", "level": 21, "human_color": "white"}),
    )
    .await;
    tokio::time::sleep(cap * 3).await;
    drop(conn);
    assert_eq!(rig.next().await, finished("hint", true));
    // The move starts with its time intact, and the cap then ends it.
    assert_eq!(rig.next().await, started("move", false));
    assert_eq!(rig.next().await, finished("move", true));
    server.shutdown().await;
}

/// Over HTTP: a person's move that would queue a fifth waiting reply of the computer for the
/// same address is refused (429 `too_many_computer_moves`) and not stored.
#[tokio::test]
async fn a_move_that_would_queue_too_many_computer_replies_is_refused() {
    let mut rig = Rig::new();
    let (server, _dir) = start_server(&rig, |_| {}).await;
    // The computer moves first in these: one search runs, the others wait.
    for _ in 0..=MAX_WAITING_MOVES_PER_CLIENT {
        create(
            &server,
            serde_json::json!({"mode": "computer", "level": 21, "human_color": "white"}),
        )
        .await;
    }
    assert_eq!(rig.next().await, started("move", false));
    let id = create(
        &server,
        serde_json::json!({"mode": "computer", "level": 21, "human_color": "black"}),
    )
    .await;
    let client = reqwest::Client::new();
    let mut answer = None;
    // The waiting moves reach the queue from their games' actors: wait for the fourth.
    for _ in 0..400 {
        let r = client
            .post(format!("{}/api/games/{id}/moves", server.url()))
            .header("cookie", COOKIE)
            .json(&serde_json::json!({"square": "f5", "ply": 0}))
            .send()
            .await
            .unwrap();
        let status = r.status();
        let body: serde_json::Value = r.json().await.unwrap();
        if status == 429 {
            answer = Some(body);
            break;
        }
        assert_eq!(status, 200, "{body}");
        // Taken back, to try again once the queue has filled.
        let r = client
            .post(format!("{}/api/games/{id}/undo", server.url()))
            .header("cookie", COOKIE)
            .json(&serde_json::json!({"ply": body["plies"].as_array().unwrap().len()}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let body = answer.expect("the fifth waiting move is refused");
    assert_eq!(body["error"]["code"], "too_many_computer_moves", "{body}");
    assert_eq!(body["error"]["params"]["max"], MAX_WAITING_MOVES_PER_CLIENT);
    let g: serde_json::Value = client
        .get(format!("{}/api/games/{id}", server.url()))
        .header("cookie", COOKIE)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(g["plies"].as_array().unwrap().len(), 0, "not stored: {g}");
    rig.engine.gate.store(true, Ordering::Relaxed);
    server.shutdown().await;
}

#[tokio::test]
async fn an_incomplete_analysis_says_so_and_is_not_cached() {
    let rig = Rig::new();
    rig.engine.gate.store(true, Ordering::Relaxed);
    let (server, _dir) = start_server(&rig, |_| {}).await;
    let id = create(&server, serde_json::json!({"mode": "friend"})).await;
    let client = reqwest::Client::new();
    let url = format!("{}/api/games/{id}/analysis", server.url());
    rig.engine.reviews_complete.store(false, Ordering::Relaxed);
    for n in 1..=2 {
        let v: serde_json::Value = client
            .get(&url)
            .header("cookie", COOKIE)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(v["complete"], false, "{v}");
        // Asked again, the engine reviews again.
        assert_eq!(rig.engine.reviews.load(Ordering::Relaxed), n);
    }
    rig.engine.reviews_complete.store(true, Ordering::Relaxed);
    for _ in 0..2 {
        let v: serde_json::Value = client
            .get(&url)
            .header("cookie", COOKIE)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(v["complete"], true, "{v}");
        // A complete review is cached until the game changes.
        assert_eq!(rig.engine.reviews.load(Ordering::Relaxed), 3);
    }
    server.shutdown().await;
}
