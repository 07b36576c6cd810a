//! The bus listener (several instances on PostgreSQL: `crate::runtime::cluster`): hands what other
//! instances say to this instance's game actors.
//!
//! - a change of a game ([`BusMessage::Changed`]: game id and version, never the game) goes to
//!   the game's actor if it runs here, which reads the game again from the store;
//! - after the listener (re)connected ([`BusMessage::Listening`]) every running actor reads
//!   its game again, since changes may have been missed meanwhile;
//! - a request forwarded by another instance runs on the game's actor here (loading it if
//!   needed), once however many copies of it arrive (a follower that waited too long sends it
//!   again), and its answer goes back to every copy; an answer goes to the request waiting for
//!   it.
//!
//! - the instance id was taken by another process ([`BusMessage::Displaced`]): this one stops
//!   (`crate::runtime::cluster::Cluster::displaced`);
//! - games whose lease expired (the listener renews this instance's leases and looks for
//!   expired ones every `LEASE_RENEW_MS`): their followers here try to take them over.
//!
//! With SQLite the store has no bus and nothing here runs.

use crate::runtime::cluster::{Answer, Wire};
use crate::runtime::game::Forward;
use crate::runtime::shared::Shared;
use crate::runtime::state::Games;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use virada_store::BusMessage;

/// How long a request's answer is kept for copies of it that arrive late.
const KEEP_ANSWERS: Duration = Duration::from_secs(60);

/// The requests this instance served (or is serving: `None`), by asker and id.
#[derive(Default)]
struct Served {
    answers: HashMap<(String, u64), Option<Answer>>,
    order: VecDeque<(Instant, (String, u64))>,
}

/// What to do with a request that arrived.
enum Arrival {
    /// Run it (it is now marked in progress).
    Serve,
    /// A copy of one in progress: its answer goes out when it is done.
    InProgress,
    /// A copy of one done: answer it again.
    Done(Answer),
}

impl Served {
    fn arrive(&mut self, key: (String, u64)) -> Arrival {
        let now = Instant::now();
        while self
            .order
            .front()
            .is_some_and(|(t, _)| now.duration_since(*t) > KEEP_ANSWERS)
        {
            if let Some((_, old)) = self.order.pop_front() {
                self.answers.remove(&old);
            }
        }
        match self.answers.get(&key) {
            Some(Some(done)) => return Arrival::Done(done.clone()),
            Some(None) => return Arrival::InProgress,
            None => {}
        }
        self.answers.insert(key.clone(), None);
        self.order.push_back((now, key));
        Arrival::Serve
    }
}

/// Starts the listener (if the store has a bus) for as long as the server runs.
pub fn start(games: Arc<Games>, shared: Arc<Shared>) {
    let cluster = &shared.cluster;
    let Some(mut bus) = shared
        .store
        .cluster()
        .listen(&cluster.instance, &cluster.token)
    else {
        return;
    };
    tokio::spawn(async move {
        let mut stop = shared.shutdown.clone();
        let served = Arc::new(Mutex::new(Served::default()));
        loop {
            tokio::select! {
                msg = bus.recv() => match msg {
                    Some(msg) => deliver(&games, &shared, &served, msg),
                    None => break,
                },
                r = stop.changed() => if r.is_err() || *stop.borrow() { break },
            }
        }
    });
}

fn deliver(games: &Arc<Games>, shared: &Arc<Shared>, served: &Arc<Mutex<Served>>, msg: BusMessage) {
    match msg {
        BusMessage::Changed { game, version, by } => {
            if by != shared.cluster.instance {
                if let Some(h) = games.running_handle(&game) {
                    h.refresh(version);
                }
                // It may have ended there (the arena director reads its arena again).
                shared.game_ends.ended(&game);
            }
        }
        BusMessage::Expired(ids) => {
            for id in ids {
                if let Some(h) = games.running_handle(&id) {
                    h.look_at_lease();
                }
            }
        }
        BusMessage::Displaced => shared.cluster.displaced(),
        BusMessage::Listening => {
            for h in games.running_handles() {
                h.refresh(0);
            }
        }
        BusMessage::Direct(text) => match serde_json::from_str::<Wire>(&text) {
            Ok(Wire::Answer(answer)) => shared.cluster.answered(answer),
            Ok(Wire::Request { id, from, game, op }) => {
                let key = (from.clone(), id);
                let again = served
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .arrive(key.clone());
                let (games, shared, served) = (games.clone(), shared.clone(), served.clone());
                tokio::spawn(async move {
                    let answer = match again {
                        Arrival::InProgress => return,
                        Arrival::Done(answer) => answer,
                        Arrival::Serve => {
                            let (result, version) = serve(&games, &game, op).await;
                            let answer = Answer {
                                id,
                                version,
                                result: result.map_err(|e| e.to_wire()),
                            };
                            let mut served = served.lock().unwrap_or_else(|p| p.into_inner());
                            served.answers.insert(key, Some(answer.clone()));
                            answer
                        }
                    };
                    if let Err(e) = shared.cluster.answer(&from, answer).await {
                        tracing::warn!(error = %e, to = %from, "cannot answer another instance");
                    }
                });
            }
            Err(e) => tracing::warn!(error = %e, "a bus message that does not read"),
        },
    }
}

/// Runs a forwarded request on game `id`'s actor here.
async fn serve(
    games: &Arc<Games>,
    id: &str,
    op: serde_json::Value,
) -> (crate::error::AppResult<serde_json::Value>, u64) {
    let op: Forward = match serde_json::from_value(op) {
        Ok(op) => op,
        Err(e) => {
            let e = crate::error::AppError::Internal(format!("a forwarded request: {e}"));
            return (Err(e), 0);
        }
    };
    // Two tries: an actor that has just unloaded is replaced by a fresh one.
    for _ in 0..2 {
        let h = match games.handle(id).await {
            Ok(h) => h,
            Err(e) => return (Err(e), 0),
        };
        match h.serve(op.clone()).await {
            (Err(e), _) if crate::runtime::game::is_stopped(&e) => continue,
            done => return done,
        }
    }
    let e = crate::error::AppError::Internal(format!("game {id} is unavailable"));
    (Err(e), 0)
}
