//! A bounded pool of engine worker threads. Engine work is CPU-bound and may take seconds, so it
//! never runs on the async runtime: each worker is a plain thread owning one engine instance
//! (with its tables), jobs wait in a queue, and the async caller awaits a oneshot reply.
//!
//! The queue is fair to people at the board and bounded against floods:
//! - **Order** (`fair_queue`). The computer's moves at quick levels (1 to [`QUICK_LEVEL_MAX`])
//!   start before its moves at higher levels, which start before any waiting hint or analysis;
//!   within each class, clients (`engine_client`: an address) take turns, first come first
//!   served within a client.
//! - **A quick lane.** Besides the configured workers, one more worker takes only quick moves:
//!   however long the running searches are, a quick level's move never waits for one of them.
//! - **Bounds.** A client has at most [`MAX_WAITING_MOVES_PER_CLIENT`] computer moves waiting
//!   (more is `429 too_many_computer_moves`); a game holds at most
//!   [`MAX_BACKGROUND_JOBS_PER_GAME`] background jobs (waiting or running; more is
//!   `429 too_many_requests`), and at most [`MAX_BACKGROUND_WAITING`] background jobs wait in
//!   the whole server (more is `503 engine_busy`). A game has at most one move job at a time
//!   (its actor sees to that).
//! - **One running background job per client** ([`MAX_RUNNING_BACKGROUND_PER_CLIENT`]): a
//!   client's second hint or analysis waits until its first is done, so however many reviews
//!   one client asks for, the other workers stay free for the others' games.
//! - **Cancellation.** Every job has a stop flag. Dropping the future of [`EnginePool::run`]
//!   (the HTTP client hung up, so axum dropped the handler) raises it: a waiting job leaves the
//!   queue, a running one stops its search. A job whose flag is up when its turn comes is
//!   skipped.
//! - **Time caps** ([`JobSpec::time_cap`]) count from when the job starts on a worker, not from
//!   when it was queued: a move that waited behind others still gets its whole time.

use crate::error::{AppError, AppResult};
use crate::runtime::engine_port::EnginePort;
use crate::runtime::fair_queue::{Class, FairQueue};
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::oneshot;

type Job = Box<dyn FnOnce(&mut dyn EnginePort) + Send>;

/// Creates one engine per worker (and a new one after a panic).
pub type EngineFactory = Arc<dyn Fn() -> Box<dyn EnginePort> + Send + Sync>;

/// Background jobs (hints, analyses) one game may have waiting or running at once.
pub const MAX_BACKGROUND_JOBS_PER_GAME: usize = 2;

/// Background jobs that may wait for a worker in the whole server.
pub const MAX_BACKGROUND_WAITING: usize = 32;

/// Hints and analyses of one client running at once: a client asking for many reviews keeps
/// at most this many workers busy, and the others take the other clients' games.
pub const MAX_RUNNING_BACKGROUND_PER_CLIENT: usize = 1;

/// Computer moves one client may have waiting for a worker (not counting those running).
pub const MAX_WAITING_MOVES_PER_CLIENT: usize = 4;

/// The highest level whose moves are quick (at most a few milliseconds of search: levels 1 to
/// 12 average 3 ms a move or less, docs/LEVELS.md) and go ahead of the others.
pub const QUICK_LEVEL_MAX: u8 = 12;

/// How urgent a job is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Priority {
    /// The computer's move at a quick level (1 to [`QUICK_LEVEL_MAX`]): a person is waiting at
    /// the board, and the move takes milliseconds.
    QuickMove,
    /// The computer's move at a higher level: a person is waiting, the search may take seconds.
    Move,
    /// A hint or an analysis.
    Background,
}

impl Priority {
    /// The priority of the computer's move at `level`.
    pub fn of_level(level: u8) -> Priority {
        if level <= QUICK_LEVEL_MAX {
            Priority::QuickMove
        } else {
            Priority::Move
        }
    }

    fn class(self) -> Class {
        match self {
            Priority::QuickMove => Class::QuickMove,
            Priority::Move => Class::Move,
            Priority::Background => Class::Background,
        }
    }

    fn is_move(self) -> bool {
        self != Priority::Background
    }
}

/// What a job is for and how it may run.
#[derive(Clone, Debug)]
pub struct JobSpec {
    pub priority: Priority,
    /// The game the job works for (background jobs are counted per game).
    pub game: String,
    /// Who the job works for (`engine_client`): clients take turns, and each has a cap on its
    /// waiting moves.
    pub client: String,
    /// Raised to cancel the job (by the pool when the caller goes away or the cap expires, or by
    /// its owner, e.g. an undo while the computer thinks). The job's search must watch it.
    pub stop: Arc<AtomicBool>,
    /// Raise `stop` this long after the job starts running.
    pub time_cap: Option<Duration>,
}

struct Waiting {
    id: u64,
    spec: JobSpec,
    job: Job,
    /// Told when a worker takes the job (the time cap starts then).
    started: oneshot::Sender<()>,
}

#[derive(Default)]
struct Queue {
    waiting: FairQueue<Waiting>,
    /// Background jobs waiting or running, by game.
    background_by_game: HashMap<String, usize>,
    /// Background jobs running, by client (at most [`MAX_RUNNING_BACKGROUND_PER_CLIENT`]).
    background_running: HashMap<String, usize>,
    running: usize,
    next_id: u64,
    closed: bool,
}

impl Queue {
    /// The next job to run among the classes `allowed` (see `fair_queue`); jobs already
    /// cancelled are dropped on the way.
    fn pop(&mut self, allowed: &[Class]) -> Option<Waiting> {
        loop {
            let running = &self.background_running;
            let w = self.waiting.pop_eligible(allowed, |class, client| {
                class != Class::Background
                    || running.get(client).copied().unwrap_or(0) < MAX_RUNNING_BACKGROUND_PER_CLIENT
            })?;
            if w.spec.stop.load(Ordering::Relaxed) {
                self.finished(&w.spec);
                continue;
            }
            if w.spec.priority == Priority::Background {
                *self
                    .background_running
                    .entry(w.spec.client.clone())
                    .or_insert(0) += 1;
            }
            return Some(w);
        }
    }

    /// A running job is done.
    fn done(&mut self, spec: &JobSpec) {
        self.running -= 1;
        if spec.priority == Priority::Background {
            if let Some(n) = self.background_running.get_mut(&spec.client) {
                *n -= 1;
                if *n == 0 {
                    self.background_running.remove(&spec.client);
                }
            }
        }
        self.finished(spec);
    }

    /// Forgets a background job's place in its game's count.
    fn finished(&mut self, spec: &JobSpec) {
        if spec.priority != Priority::Background {
            return;
        }
        if let Some(n) = self.background_by_game.get_mut(&spec.game) {
            *n -= 1;
            if *n == 0 {
                self.background_by_game.remove(&spec.game);
            }
        }
    }

    /// Removes job `id` if it is still waiting.
    fn remove(&mut self, id: u64) {
        if let Some(w) = self.waiting.remove_where(|w| w.id == id) {
            self.finished(&w.spec);
        }
    }

    fn waiting(&self) -> usize {
        self.waiting.len()
    }

    /// Refuses a computer move of `client` if it already has as many waiting as it may (jobs
    /// cancelled while waiting are dropped first: they no longer count).
    fn check_move_room(&mut self, client: &str) -> AppResult<()> {
        while let Some(w) = self
            .waiting
            .remove_where(|w| w.spec.stop.load(Ordering::Relaxed))
        {
            self.finished(&w.spec);
        }
        let mine = self.waiting.waiting_of(Class::QuickMove, client)
            + self.waiting.waiting_of(Class::Move, client);
        if mine >= MAX_WAITING_MOVES_PER_CLIENT {
            return Err(AppError::too_many_computer_moves(
                MAX_WAITING_MOVES_PER_CLIENT,
            ));
        }
        Ok(())
    }
}

/// Which jobs a worker takes: a general worker any (the most urgent first), the quick lane
/// only quick moves.
const GENERAL: &[Class] = &Class::ALL;
const QUICK_LANE: &[Class] = &[Class::QuickMove];

struct Inner {
    queue: Mutex<Queue>,
    ready: Condvar,
}

impl Inner {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Closes the queue when the last pool handle goes (the workers then stop).
struct Closer(Arc<Inner>);

impl Drop for Closer {
    fn drop(&mut self) {
        self.0.lock().closed = true;
        self.0.ready.notify_all();
    }
}

/// The worker pool. Cloning shares it; the threads stop when the last clone is dropped.
#[derive(Clone)]
pub struct EnginePool {
    inner: Arc<Inner>,
    _closer: Arc<Closer>,
    workers: usize,
}

/// Raises a job's stop flag and takes it out of the queue unless it finished: dropping the
/// future of [`EnginePool::run`] cancels its job.
struct CancelOnDrop {
    inner: Arc<Inner>,
    id: u64,
    stop: Arc<AtomicBool>,
    armed: bool,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if self.armed {
            self.stop.store(true, Ordering::Relaxed);
            self.inner.lock().remove(self.id);
        }
    }
}

impl EnginePool {
    /// Starts `workers` general threads (at least one) and the quick lane's thread.
    pub fn new(workers: usize, factory: EngineFactory) -> EnginePool {
        let workers = workers.max(1);
        let inner = Arc::new(Inner {
            queue: Mutex::new(Queue::default()),
            ready: Condvar::new(),
        });
        let lanes = (0..workers)
            .map(|i| (format!("virada-engine-{i}"), GENERAL))
            .chain([("virada-engine-quick".to_string(), QUICK_LANE)]);
        for (name, allowed) in lanes {
            let inner = inner.clone();
            let factory = factory.clone();
            std::thread::Builder::new()
                .name(name)
                .spawn(move || worker(inner, factory, allowed))
                .expect("spawn engine worker thread");
        }
        EnginePool {
            _closer: Arc::new(Closer(inner.clone())),
            inner,
            workers,
        }
    }

    /// General workers (the quick lane's one is not counted).
    pub fn workers(&self) -> usize {
        self.workers
    }

    /// Refuses (`429 too_many_computer_moves`) if `client` already has as many computer moves
    /// waiting as it may: asked before a change that would queue one.
    pub fn check_move_room(&self, client: &str) -> AppResult<()> {
        self.inner.lock().check_move_room(client)
    }

    /// Jobs waiting or running.
    pub fn load(&self) -> usize {
        let q = self.inner.lock();
        q.waiting() + q.running
    }

    /// Queues `f` as `spec` says, or refuses it when the game or the server has too many
    /// background jobs.
    fn submit(&self, spec: JobSpec, job: Job, started: oneshot::Sender<()>) -> AppResult<u64> {
        let mut q = self.inner.lock();
        if q.closed {
            return Err(AppError::Internal("the engine pool has stopped".into()));
        }
        if spec.priority.is_move() {
            q.check_move_room(&spec.client)?;
        }
        if spec.priority == Priority::Background {
            let mine = q.background_by_game.get(&spec.game).copied().unwrap_or(0);
            if mine >= MAX_BACKGROUND_JOBS_PER_GAME {
                return Err(AppError::TooManyRequests(format!(
                    "game {} already has {mine} hint or analysis requests in progress (at most \
                     {MAX_BACKGROUND_JOBS_PER_GAME}); wait for them to finish",
                    spec.game
                )));
            }
            if q.waiting.len_of(Class::Background) >= MAX_BACKGROUND_WAITING {
                return Err(AppError::EngineBusy(format!(
                    "the engine is busy: {MAX_BACKGROUND_WAITING} hint or analysis requests are \
                     waiting; try again shortly"
                )));
            }
            *q.background_by_game.entry(spec.game.clone()).or_insert(0) += 1;
        }
        let id = q.next_id;
        q.next_id += 1;
        let waiting = Waiting {
            id,
            spec,
            job,
            started,
        };
        let (class, client) = (waiting.spec.priority.class(), waiting.spec.client.clone());
        q.waiting.push(class, &client, waiting);
        drop(q);
        // Every worker looks: the one woken might be the quick lane, which cannot take it.
        self.inner.ready.notify_all();
        Ok(id)
    }

    /// Runs `f` on a worker as `spec` says and awaits its result. A panic in the engine becomes
    /// an internal error (the worker gets a fresh engine and goes on). Dropping the returned
    /// future cancels the job (see the module documentation).
    pub async fn run<T, F>(&self, spec: JobSpec, f: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut dyn EnginePort) -> T + Send + 'static,
    {
        let (reply, answer) = oneshot::channel();
        let (started_tx, started) = oneshot::channel();
        let job: Job = Box::new(move |engine| {
            let _ = reply.send(f(engine));
        });
        let (stop, cap) = (spec.stop.clone(), spec.time_cap);
        let id = self.submit(spec, job, started_tx)?;
        let mut guard = CancelOnDrop {
            inner: self.inner.clone(),
            id,
            stop: stop.clone(),
            armed: true,
        };
        let timer_stop = stop.clone();
        let timer = async move {
            if let (Some(cap), Ok(())) = (cap, started.await) {
                tokio::time::sleep(cap).await;
                timer_stop.store(true, Ordering::Relaxed);
            }
            std::future::pending::<()>().await
        };
        let answer = tokio::select! {
            a = answer => a,
            _ = timer => unreachable!("the timer never finishes"),
        };
        guard.armed = false;
        answer.map_err(|_| {
            if stop.load(Ordering::Relaxed) {
                AppError::EngineBusy("the engine request was cancelled before it started".into())
            } else {
                AppError::Internal("the engine failed on this position".into())
            }
        })
    }
}

fn worker(inner: Arc<Inner>, factory: EngineFactory, allowed: &'static [Class]) {
    let mut engine = factory();
    loop {
        let next = {
            let mut q = inner.lock();
            loop {
                if let Some(w) = q.pop(allowed) {
                    q.running += 1;
                    break w;
                }
                if q.closed {
                    return;
                }
                q = inner.ready.wait(q).unwrap_or_else(|p| p.into_inner());
            }
        };
        let _ = next.started.send(());
        let job = next.job;
        let outcome = catch_unwind(AssertUnwindSafe(|| job(engine.as_mut())));
        inner.lock().done(&next.spec);
        // A job of the same client's that had to wait for this one may start now.
        inner.ready.notify_all();
        if outcome.is_err() {
            tracing::error!("engine job panicked; restarting this worker's engine");
            engine = factory();
        }
    }
}
