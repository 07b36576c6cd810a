//! A bounded pool of engine worker threads. Engine work is CPU-bound and may take seconds, so it
//! never runs on the async runtime: each worker is a plain thread owning one engine instance
//! (with its tables), jobs wait in a queue, and the async caller awaits a oneshot reply.

use crate::engine_port::EnginePort;
use crate::error::{AppError, AppResult};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use tokio::sync::oneshot;

type Job = Box<dyn FnOnce(&mut dyn EnginePort) + Send>;

/// Creates one engine per worker (and a new one after a panic).
pub type EngineFactory = Arc<dyn Fn() -> Box<dyn EnginePort> + Send + Sync>;

/// The worker pool. Cloning shares it; the threads stop when the last clone is dropped.
#[derive(Clone)]
pub struct EnginePool {
    tx: mpsc::Sender<Job>,
    queued: Arc<AtomicUsize>,
    workers: usize,
}

impl EnginePool {
    /// Starts `workers` threads (at least one).
    pub fn new(workers: usize, factory: EngineFactory) -> EnginePool {
        let workers = workers.max(1);
        let (tx, rx) = mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        let queued = Arc::new(AtomicUsize::new(0));
        for i in 0..workers {
            let rx = rx.clone();
            let factory = factory.clone();
            let queued = queued.clone();
            std::thread::Builder::new()
                .name(format!("virada-engine-{i}"))
                .spawn(move || worker(rx, factory, queued))
                .expect("spawn engine worker thread");
        }
        EnginePool {
            tx,
            queued,
            workers,
        }
    }

    pub fn workers(&self) -> usize {
        self.workers
    }

    /// Jobs waiting or running.
    pub fn load(&self) -> usize {
        self.queued.load(Ordering::Relaxed)
    }

    /// Runs `f` on a worker and awaits its result. A panic in the engine becomes an internal
    /// error (the worker gets a fresh engine and goes on).
    pub async fn run<T, F>(&self, f: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut dyn EnginePort) -> T + Send + 'static,
    {
        let (reply, answer) = oneshot::channel();
        let job: Job = Box::new(move |engine| {
            let _ = reply.send(f(engine));
        });
        self.queued.fetch_add(1, Ordering::Relaxed);
        if self.tx.send(job).is_err() {
            self.queued.fetch_sub(1, Ordering::Relaxed);
            return Err(AppError::Internal("the engine pool has stopped".into()));
        }
        answer
            .await
            .map_err(|_| AppError::Internal("the engine failed on this position".into()))
    }
}

fn worker(rx: Arc<Mutex<mpsc::Receiver<Job>>>, factory: EngineFactory, queued: Arc<AtomicUsize>) {
    let mut engine = factory();
    loop {
        let job = {
            let guard = rx.lock().unwrap_or_else(|p| p.into_inner());
            guard.recv()
        };
        let Ok(job) = job else { return };
        let outcome = catch_unwind(AssertUnwindSafe(|| job(engine.as_mut())));
        queued.fetch_sub(1, Ordering::Relaxed);
        if outcome.is_err() {
            eprintln!("virada-server: engine job panicked; restarting this worker's engine");
            engine = factory();
        }
    }
}
