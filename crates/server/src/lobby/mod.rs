//! The lobby (issue 42, item 3): open seeks anyone may accept, and quick pairing in pools by
//! rating. Both end in a paired game (`crate::online::paired`): an online game with both seats
//! held, already playing. docs/API.md "Lobby" has the wire format, docs/SECURITY.md the limits.
//!
//! The lobby lives in this instance's memory ([`Lobby`], one per server, handed to the
//! handlers as an axum `Extension`): seeks, pool entries and who has a lobby socket open
//! (presence). A seek or pool entry whose holder has had no lobby socket open for
//! [`GRACE_MS`] is removed, so seeks vanish when their maker leaves. With several instances
//! each has its own lobby: docs/SERVER.md "Lobby" says how to route it.
//!
//! - [`seeks`]: `POST/GET /api/seeks`, accept, cancel;
//! - [`pairing`]: the pools, their rating windows, `POST/DELETE /api/pairing`;
//! - [`ws`]: the lobby's live socket `GET /api/lobby/ws` (the seek list, pairing results).

pub mod pairing;
pub mod seeks;
pub mod ws;

use crate::error::{AppError, AppResult};
use crate::identity::layer::Identity;
use crate::identity::BrowserId;
use crate::online::paired::Seat;
use crate::rating::{Category, PlayerRating};
use crate::runtime::state::AppState;
use axum::extract::DefaultBodyLimit;
use axum::routing::{delete, get, post};
use axum::{Extension, Router};
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::{broadcast, mpsc};
use virada_store::accounts::name_key;

/// A holder without an open lobby socket for this long loses their seeks and pool places.
pub const GRACE_MS: i64 = 5_000;
/// How often the lobby looks at presence and widens the pools' windows (the server's clock).
pub const TICK_MS: i64 = 1_000;
/// The largest lobby request body (seek, pairing).
pub const BODY_MAX: usize = 1024;
/// An accepted seek is kept (answering 409 to a later accept) this long.
const TAKEN_KEPT_MS: i64 = 60_000;
/// Events a slow lobby socket may fall behind by before it is sent the whole list again.
const EVENTS_BUFFER: usize = 1024;

/// What lobby sockets are told.
#[derive(Clone, Debug)]
pub enum Event {
    /// A new open seek.
    Added(Arc<seeks::Seek>),
    /// A seek left the list (accepted, cancelled, its maker gone).
    Removed(String),
    /// A game was made for `holder`.
    Paired {
        holder: BrowserId,
        game: String,
        color: virada_rules::Color,
        /// The seek it came from, or the pool.
        seek: Option<String>,
        pool: Option<&'static str>,
    },
    /// `holder` left a pool (cancelled, or paired elsewhere), or a pairing failed.
    PoolLeft {
        holder: BrowserId,
        reason: &'static str,
    },
    /// `holder` stays in the pool, but the player it would have been paired with was skipped
    /// because one of the two blocks the other (`skipped`: how many so far in this wait).
    PoolSkipped { holder: BrowserId, skipped: usize },
}

/// A holder's lobby sockets here (each with its channel for the holder's own events), and
/// since when there is none.
#[derive(Debug, Default)]
struct Presence {
    sockets: Vec<(u64, mpsc::Sender<Event>)>,
    /// When the last socket closed (or the holder first appeared without one).
    away_since: Option<i64>,
}

/// Events for one holder a socket may have waiting (more are dropped: the page can still find
/// its game in the game list).
const DIRECT_BUFFER: usize = 16;

pub(crate) struct Inner {
    pub(crate) seeks: BTreeMap<String, seeks::Entry>,
    pub(crate) pools: pairing::Pools,
    presence: HashMap<BrowserId, Presence>,
    /// Seek creations per holder in the last minute (the per-holder rate).
    made: HashMap<BrowserId, VecDeque<i64>>,
}

/// One server's lobby.
pub struct Lobby {
    inner: Mutex<Inner>,
    /// The seek list's changes, for every lobby socket.
    events: broadcast::Sender<Event>,
    next_socket: AtomicU64,
}

impl Lobby {
    pub fn new() -> Lobby {
        Lobby {
            inner: Mutex::new(Inner {
                seeks: BTreeMap::new(),
                pools: pairing::Pools::default(),
                presence: HashMap::new(),
                made: HashMap::new(),
            }),
            events: broadcast::channel(EVENTS_BUFFER).0,
            next_socket: AtomicU64::new(1),
        }
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sends `event`: a seek list change to every lobby socket, a holder's own event to that
    /// holder's sockets.
    pub(crate) fn send(&self, event: Event) {
        let holder = match &event {
            Event::Paired { holder, .. }
            | Event::PoolLeft { holder, .. }
            | Event::PoolSkipped { holder, .. } => *holder,
            Event::Added(_) | Event::Removed(_) => {
                let _ = self.events.send(event);
                return;
            }
        };
        let inner = self.lock();
        if let Some(p) = inner.presence.get(&holder) {
            for (_, tx) in &p.sockets {
                let _ = tx.try_send(event.clone());
            }
        }
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.events.subscribe()
    }

    /// A lobby socket of `holder` opened: its number and the channel of the holder's events.
    pub fn arrive(&self, holder: BrowserId) -> (u64, mpsc::Receiver<Event>) {
        let n = self.next_socket.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = mpsc::channel(DIRECT_BUFFER);
        let mut inner = self.lock();
        let p = inner.presence.entry(holder).or_default();
        p.sockets.push((n, tx));
        p.away_since = None;
        (n, rx)
    }

    /// Lobby socket `n` of `holder` closed at `now`.
    pub fn leave(&self, holder: BrowserId, n: u64, now: i64) {
        let mut inner = self.lock();
        if let Some(p) = inner.presence.get_mut(&holder) {
            p.sockets.retain(|(k, _)| *k != n);
            if p.sockets.is_empty() {
                p.away_since = Some(now);
            }
        }
    }

    /// One look at the lobby at `now`: seeks and pool places of holders away for
    /// [`GRACE_MS`] go, accepted seeks past [`TAKEN_KEPT_MS`] are forgotten. Returns the
    /// pairs the pools make now (their windows have widened).
    pub(crate) fn tick(&self, now: i64) -> Vec<pairing::Pair> {
        let mut removed = Vec::new();
        let mut left = Vec::new();
        let pairs;
        {
            let mut inner = self.lock();
            let gone: Vec<BrowserId> = inner
                .presence
                .iter()
                .filter(|(_, p)| {
                    p.sockets.is_empty() && p.away_since.is_some_and(|t| now - t >= GRACE_MS)
                })
                .map(|(h, _)| *h)
                .collect();
            for h in &gone {
                inner.presence.remove(h);
                if inner.pools.remove(*h) {
                    left.push(*h);
                }
            }
            inner.seeks.retain(|id, e| {
                let keep = match e.taken_at {
                    Some(at) => now - at < TAKEN_KEPT_MS,
                    None => !gone.contains(&e.seek.maker.holder),
                };
                if !keep && e.taken_at.is_none() {
                    removed.push(id.clone());
                }
                keep
            });
            inner
                .made
                .retain(|_, times| times.back().is_some_and(|t| now - t < 60_000));
            pairs = inner.pools.match_all(now);
        }
        for id in removed {
            self.send(Event::Removed(id));
        }
        for holder in left {
            self.send(Event::PoolLeft {
                holder,
                reason: "away",
            });
        }
        pairs
    }

    /// Marks `holder` present-or-away from `now` if the lobby has not seen them yet (a seek or
    /// pool entry made without a socket open still vanishes after the grace).
    fn seen(inner: &mut Inner, holder: BrowserId, now: i64) {
        inner.presence.entry(holder).or_insert(Presence {
            sockets: Vec::new(),
            away_since: Some(now),
        });
    }
}

impl Default for Lobby {
    fn default() -> Self {
        Lobby::new()
    }
}

/// The lobby's routes (under `/api`), with their own small body limit, and its tick task.
pub fn routes(state: &AppState) -> Router<AppState> {
    let lobby = Arc::new(Lobby::new());
    tokio::spawn(run(state.clone(), lobby.clone()));
    Router::new()
        .route("/seeks", post(seeks::create).get(seeks::list))
        .route("/seeks/{id}", delete(seeks::cancel))
        .route("/seeks/{id}/accept", post(seeks::accept))
        .route("/pairing", post(pairing::join).delete(pairing::leave))
        .route("/lobby/ws", get(ws::upgrade))
        .layer(DefaultBodyLimit::max(BODY_MAX))
        .layer(Extension(lobby))
}

/// Every [`TICK_MS`] of the server's clock: presence, and the pools' widened windows.
async fn run(state: AppState, lobby: Arc<Lobby>) {
    let clock = state.shared.config.clock.clone();
    let mut stop = state.shared.shutdown.clone();
    let mut next = clock.now_ms() + TICK_MS;
    loop {
        tokio::select! {
            _ = clock.sleep_until(next) => {}
            r = stop.changed() => if r.is_err() || *stop.borrow() { break },
        }
        let now = clock.now_ms();
        next = now + TICK_MS;
        for pair in lobby.tick(now) {
            tokio::spawn(pairing::start(state.clone(), lobby.clone(), pair));
        }
    }
}

/// The player's rating in `category` (a guest, or an account without a rated game there, has
/// the rating of a new player).
pub(crate) async fn rating_of(
    state: &AppState,
    identity: &Identity,
    category: Option<Category>,
) -> AppResult<PlayerRating> {
    let (Some(account), Some(category)) = (&identity.account, category) else {
        return Ok(PlayerRating::NEW);
    };
    let player = state
        .shared
        .store
        .accounts()
        .player(&name_key(&account.username))
        .await?;
    Ok(player
        .and_then(|p| p.ratings.into_iter().find(|(c, _)| *c == category))
        .map_or(PlayerRating::NEW, |(_, r)| r))
}

/// The seat of the person asking.
pub(crate) fn seat_of(
    identity: &Identity,
    name: Option<String>,
    ip: std::net::IpAddr,
) -> AppResult<Seat> {
    Seat::of(identity, name, ip)
}

/// The identity a request acts as.
pub(crate) fn holder_of(identity: &Identity) -> BrowserId {
    identity
        .account
        .as_ref()
        .map_or(identity.guest, |a| a.holder)
}

/// A refusal of the lobby: `status`, `code`, English `message`, `params`.
pub(crate) fn refused(
    status: axum::http::StatusCode,
    code: &'static str,
    message: &str,
    params: &[(&str, serde_json::Value)],
) -> AppError {
    AppError::account(status, code, message, params)
}
