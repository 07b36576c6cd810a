//! The arena director: one task per server instance that pairs the players of every open arena
//! and pushes the standings to the arena's live sockets.
//!
//! It looks at an arena (reads it whole from the store, pairs whoever waits, pushes the new
//! standings) when something may have changed: a player joined or withdrew (the HTTP handlers
//! ask it), one of its games ended (the game actor says so through `Shared::game_ends`, after
//! the end and its arena result were stored in one transaction), the window opened or closed
//! (a timer on the server's time source), or at start-up for every arena not over. Games are
//! made by `crate::online::paired` (the one way a paired game is made).
//!
//! Several instances (PostgreSQL): only the instance holding the arena's lease (the games'
//! lease table, key `arena/<id>`, renewed with the instance's other leases) pairs it; every
//! instance pushes to its own sockets. Since a join or a game end may happen on another
//! instance, every instance also looks at its open arenas once a second.

use super::model::{pairings, standings, Status};
use super::view::{ArenaMessage, ArenaView};
use crate::error::AppResult;
use crate::identity::BrowserId;
use crate::online::paired::{start_paired, Seat, Start};
use crate::runtime::state::AppState;
use std::collections::{HashMap, HashSet};
use std::net::{IpAddr, Ipv4Addr};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{broadcast, mpsc};
use virada_store::arenas::{ArenaFull, ArenaGameRow};

/// How often each instance looks at its open arenas when several share the store.
const SHARED_LOOK_EVERY: Duration = Duration::from_secs(1);
/// Frames buffered per arena socket before it skips to the latest.
const FRAMES_BUFFERED: usize = 16;

/// What the director keeps of an open arena between looks.
struct Open {
    starts_at: i64,
    ends_at: i64,
    /// Its games still running.
    running: HashSet<String>,
    /// Their players.
    busy: HashSet<BrowserId>,
}

impl Open {
    /// The next time the arena's window opens or closes (`None`: both passed).
    fn next_timer(&self, now: i64) -> Option<i64> {
        [self.starts_at, self.ends_at]
            .into_iter()
            .find(|&t| t > now)
    }
}

/// The director's handle (the HTTP and socket handlers hold it).
pub struct Director {
    state: AppState,
    look: mpsc::UnboundedSender<String>,
    channels: Mutex<HashMap<String, broadcast::Sender<Arc<str>>>>,
    /// The address each player last joined from: their games count against it as any game
    /// they make (`paired::Seat::ip`).
    addresses: Mutex<HashMap<BrowserId, IpAddr>>,
}

impl Director {
    /// Starts the director's task (it stops when the server shuts down).
    pub fn start(state: AppState) -> Arc<Director> {
        let (tx, rx) = mpsc::unbounded_channel();
        let director = Arc::new(Director {
            state,
            look: tx,
            channels: Mutex::new(HashMap::new()),
            addresses: Mutex::new(HashMap::new()),
        });
        tokio::spawn(director.clone().run(rx));
        director
    }

    /// Asks the task to look at arena `id` now.
    pub fn look(&self, id: &str) {
        let _ = self.look.send(id.to_string());
    }

    /// `holder` joined from `ip`.
    pub fn seen(&self, holder: BrowserId, ip: IpAddr) {
        let mut map = self.addresses.lock().unwrap_or_else(|p| p.into_inner());
        map.insert(holder, ip);
    }

    fn channels(&self) -> std::sync::MutexGuard<'_, HashMap<String, broadcast::Sender<Arc<str>>>> {
        self.channels.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The receiver of arena `id`'s `arena` messages.
    pub fn subscribe(&self, id: &str) -> broadcast::Receiver<Arc<str>> {
        self.channels()
            .entry(id.to_string())
            .or_insert_with(|| broadcast::channel(FRAMES_BUFFERED).0)
            .subscribe()
    }

    /// A socket of arena `id` closed: its channel goes when nobody listens.
    pub fn unsubscribed(&self, id: &str) {
        let mut channels = self.channels();
        if channels.get(id).is_some_and(|c| c.receiver_count() == 0) {
            channels.remove(id);
        }
    }

    /// The `arena` message of `full` now.
    pub fn frame(&self, full: &ArenaFull) -> Arc<str> {
        let now = self.state.shared.config.clock.now_ms();
        let view = ArenaView::of(full, now);
        let msg = ArenaMessage {
            kind: "arena",
            arena: &view,
        };
        serde_json::to_string(&msg)
            .unwrap_or_else(|_| "{\"type\":\"error\",\"code\":\"internal\"}".into())
            .into()
    }

    fn publish(&self, full: &ArenaFull) {
        let tx = self.channels().get(&full.arena.id).cloned();
        if let Some(tx) = tx {
            let _ = tx.send(self.frame(full));
        }
    }

    async fn run(self: Arc<Self>, mut rx: mpsc::UnboundedReceiver<String>) {
        let shared = self.state.shared.clone();
        let clock = shared.config.clock.clone();
        let mut stop = shared.shutdown.clone();
        let mut ends = shared.game_ends.subscribe();
        let mut open: HashMap<String, Open> = HashMap::new();
        let mut tick = tokio::time::interval(SHARED_LOOK_EVERY);
        let polling = shared.cluster.is_shared();
        let mut due: Vec<String> = match shared.store.arenas().open_arenas(clock.now_ms()).await {
            Ok(ids) => ids,
            Err(e) => {
                tracing::error!(error = %e, "cannot read the open arenas");
                Vec::new()
            }
        };
        loop {
            for id in due.drain(..) {
                if let Err(e) = self.look_at(&id, &mut open).await {
                    tracing::warn!(arena = %id, error = %e, "arena not looked at");
                }
            }
            let now = clock.now_ms();
            let wake = open.values().filter_map(|o| o.next_timer(now)).min();
            let timer = async {
                match wake {
                    Some(at) => clock.sleep_until(at).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                id = rx.recv() => match id {
                    Some(id) => due.push(id),
                    None => break,
                },
                ended = ends.recv() => match ended {
                    // Its players may be waiting in other arenas too: every open arena is
                    // looked at (there are at most `MAX_OPEN` and a few finishing).
                    Ok(game) if open.values().any(|o| o.running.contains(&*game)) => {
                        // Its own arena first (the others then see its players free).
                        due.extend(
                            open.iter()
                                .filter(|(_, o)| o.running.contains(&*game))
                                .map(|(id, _)| id.clone()),
                        );
                        due.extend(open.keys().cloned());
                    }
                    Ok(_) => {}
                    Err(broadcast::error::RecvError::Lagged(_)) => due.extend(open.keys().cloned()),
                    Err(broadcast::error::RecvError::Closed) => break,
                },
                _ = timer => {
                    // The arenas whose window opened or closed since `now`.
                    let later = clock.now_ms();
                    due.extend(
                        open.iter()
                            .filter(|(_, o)| o.next_timer(now).is_some_and(|t| t <= later))
                            .map(|(id, _)| id.clone()),
                    );
                }
                _ = tick.tick(), if polling => {
                    match shared.store.arenas().open_arenas(clock.now_ms()).await {
                        Ok(ids) => due.extend(ids),
                        Err(e) => tracing::warn!(error = %e, "cannot read the open arenas"),
                    }
                }
                r = stop.changed() => if r.is_err() || *stop.borrow() { break },
            }
            // Each once, in the order asked.
            let mut seen = HashSet::new();
            due.retain(|id| seen.insert(id.clone()));
        }
    }

    /// Reads arena `id`, pairs whoever waits (if the window is open and this instance holds the
    /// arena), pushes the standings, and keeps what the next looks need.
    async fn look_at(&self, id: &str, open: &mut HashMap<String, Open>) -> AppResult<()> {
        let shared = &self.state.shared;
        let store = &shared.store;
        let Some(mut full) = store.arenas().arena(id).await? else {
            open.remove(id);
            return Ok(());
        };
        let now = shared.config.clock.now_ms();
        let status = Status::of(full.arena.starts_at, full.arena.ends_at, now);
        let lease = format!("arena/{id}");
        if status == Status::Running && self.holds(&lease).await? {
            // A player in a game of another arena is not paired here meanwhile.
            let elsewhere: HashSet<BrowserId> = open
                .iter()
                .filter(|(other, _)| other.as_str() != id)
                .flat_map(|(_, o)| o.busy.iter().copied())
                .collect();
            let mut lines = standings(&full);
            for l in &mut lines {
                if l.playing.is_none() && elsewhere.contains(&l.holder) {
                    l.playing = Some(String::new());
                }
            }
            let blocked = self.blocked_pairs(&lines).await?;
            let pairs = pairings(&lines, |a, b| {
                !blocked.contains(&(a, b)) && !blocked.contains(&(b, a))
            });
            if !pairs.is_empty() {
                let mut seq = full.games.last().map_or(0, |g| g.seq);
                for (black, white) in pairs {
                    let game = match self.new_game(&full, black, white).await {
                        Ok(game) => game,
                        Err(e) => {
                            tracing::warn!(arena = %id, error = %e, "arena game not made");
                            continue;
                        }
                    };
                    seq += 1;
                    let row = ArenaGameRow {
                        game_id: game,
                        seq,
                        black,
                        white,
                        started_at: now,
                        result: None,
                        ended_at: None,
                    };
                    store.arenas().add_arena_game(id, row).await?;
                }
                if let Some(again) = store.arenas().arena(id).await? {
                    full = again;
                }
            }
        }
        let live = full.games.iter().filter(|g| g.result.is_none());
        let running: HashSet<String> = live.clone().map(|g| g.game_id.clone()).collect();
        let busy: HashSet<BrowserId> = live.flat_map(|g| [g.black, g.white]).collect();
        if status == Status::Finished && running.is_empty() {
            open.remove(id);
            if shared.cluster.is_shared() {
                store
                    .cluster()
                    .release(&lease, &shared.cluster.instance)
                    .await?;
            }
        } else {
            open.insert(
                id.to_string(),
                Open {
                    starts_at: full.arena.starts_at,
                    ends_at: full.arena.ends_at,
                    running,
                    busy,
                },
            );
        }
        self.publish(&full);
        Ok(())
    }

    /// Whether this instance may pair the arena whose lease key is `lease` (always, with one
    /// process).
    /// The pairs of waiting players of whom one blocks the other (`safety`): one question a
    /// waiting player, and pair by pair only for a player who blocks or is blocked by someone
    /// waiting.
    async fn blocked_pairs(
        &self,
        lines: &[super::model::Standing],
    ) -> AppResult<HashSet<(BrowserId, BrowserId)>> {
        let waiting: Vec<BrowserId> = lines
            .iter()
            .filter(|s| s.active && s.playing.is_none())
            .map(|s| s.holder)
            .collect();
        let mut blocked = HashSet::new();
        let safety = self.state.shared.store.safety();
        for (i, &a) in waiting.iter().enumerate() {
            let later = waiting[i + 1..].to_vec();
            if later.is_empty() || !safety.blocked_between(vec![a], later.clone()).await? {
                continue;
            }
            for b in later {
                if crate::safety::blocked_either_way(&self.state, a, b).await? {
                    blocked.insert((a, b));
                }
            }
        }
        Ok(blocked)
    }

    async fn holds(&self, lease: &str) -> AppResult<bool> {
        let shared = &self.state.shared;
        if !shared.cluster.is_shared() {
            return Ok(true);
        }
        Ok(shared
            .store
            .cluster()
            .lease(lease, &shared.cluster.instance)
            .await?
            .is_none())
    }

    async fn new_game(
        &self,
        full: &ArenaFull,
        black: BrowserId,
        white: BrowserId,
    ) -> AppResult<String> {
        let seat = |holder: BrowserId| {
            let name = full
                .players
                .iter()
                .find(|p| p.holder == holder)
                .map(|p| p.username.clone())
                .unwrap_or_default();
            let ip = self
                .addresses
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .get(&holder)
                .copied()
                .unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
            Seat {
                holder,
                name,
                account: true,
                ip,
            }
        };
        let a = &full.arena;
        start_paired(
            &self.state,
            seat(white),
            seat(black),
            a.time_control,
            a.rated,
            Start::Standard,
        )
        .await
    }
}
