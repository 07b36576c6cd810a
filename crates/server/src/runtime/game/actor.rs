//! The actor's state and loop: views, broadcasts, commits, sockets and presence. What players
//! do is in [`play`] (moves, undo/redo, resignation, offers, chat, rematch), the computer's
//! search in [`engine`], seats, device links and clocks in [`seats`].

mod engine;
mod follow;
mod play;
mod seats;
mod stall;

use super::{Connected, Event, Frames, Msg, RECONNECT_GRACE_MS};
use crate::error::{AppError, AppResult};
use crate::identity::BrowserId;
use crate::model::online::{OnlineGame, Phase, SeatState};
use crate::model::{GameRecord, Mode};
use crate::runtime::shared::Shared;
use crate::runtime::time::{Clock, Sleep};
use crate::util::{iso8601, now_millis};
use crate::view::online::{
    local_game_view, online_game_view, GameMessage, Presence, PresenceMessage, SeatView, SeatsView,
};
use crate::view::GameView;
use sha2::{Digest, Sha256};
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, mpsc};
use virada_rules::Color;
use virada_store::{Change, StoreError};

/// How often a search in progress is reported (`thinking` messages).
const PROGRESS_EVERY: Duration = Duration::from_millis(500);

fn idx(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// The SHA-256 of a device-link token, as stored.
pub fn link_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

pub(super) struct Actor {
    rec: GameRecord,
    /// An online game's seats, clocks, offers and chat (`None`: a local game).
    online: Option<OnlineGame>,
    shared: Arc<Shared>,
    clock: Clock,
    self_tx: mpsc::Sender<Msg>,
    events: broadcast::Sender<Event>,
    /// See [`GameView::version`]: starts at the clock (ms) so it also grows across restarts.
    version: u64,
    /// The computer's search in progress.
    thinking: Option<engine::Thinking>,
    generation: u64,
    /// Open sockets and their browsers.
    conns: HashMap<u64, BrowserId>,
    next_conn: u64,
    /// Per seat: when its last socket closed, and when its presence last changed.
    last_closed: [Option<i64>; 2],
    since: [Option<i64>; 2],
    chat_times: [VecDeque<i64>; 2],
    last_activity: Instant,
    /// This instance owns the game (holds its lease; always with one process). Otherwise the
    /// actor follows the owner ([`follow`]).
    leader: bool,
    /// A follower's idea of who owns the game (from its last look at the lease).
    owner: Option<String>,
    /// The game is no longer in the store (deleted through another instance).
    gone: bool,
    /// Since when the running clock is stalled: a change was refused for a store error then,
    /// and none was stored since ([`stall`]).
    stalled_since: Option<i64>,
}

fn maybe_sleep(clock: &Clock, at: Option<i64>) -> Sleep {
    match at {
        Some(at) => clock.sleep_until(at),
        None => Box::pin(std::future::pending()),
    }
}

impl Actor {
    pub(super) fn new(
        rec: GameRecord,
        online: Option<OnlineGame>,
        shared: Arc<Shared>,
        self_tx: mpsc::Sender<Msg>,
        holder: Option<String>,
    ) -> Actor {
        let (events, _) = broadcast::channel(64);
        Actor {
            rec,
            online,
            clock: shared.config.clock.clone(),
            shared,
            self_tx,
            events,
            version: now_millis().max(0) as u64,
            thinking: None,
            generation: 0,
            conns: HashMap::new(),
            next_conn: 0,
            last_closed: [None; 2],
            since: [None; 2],
            chat_times: [VecDeque::new(), VecDeque::new()],
            last_activity: Instant::now(),
            leader: holder.is_none(),
            // A follower asks the owner its first look at the lease found (no wait for the
            // next look: `follow`).
            owner: holder.filter(|o| !o.is_empty()),
            gone: false,
            stalled_since: None,
        }
    }

    pub(super) async fn run(mut self, mut rx: mpsc::Receiver<Msg>) {
        let mut shutdown = self.shared.shutdown.clone();
        if self.leader {
            // A game loaded after its deadline passed (it was not in memory) ends at once.
            if let Err(e) = self.check_flag().await {
                tracing::error!(error = %e, "cannot store the flag fall");
            }
        }
        self.maybe_start_thinking();
        let mut ticker = tokio::time::interval(PROGRESS_EVERY);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        // Several instances: leases are renewed for all the instance's games at once, and a
        // follower is told to look when its owner's lease expired (`crate::runtime::relay`).
        let shared_store = self.shared.cluster.is_shared();
        loop {
            if self.gone {
                break;
            }
            let presence = maybe_sleep(&self.clock, self.presence_deadline());
            let idle_deadline = self.last_activity + self.shared.config.idle_timeout;
            let stalled = self.stalled_since.is_some();
            tokio::select! {
                msg = rx.recv() => match msg {
                    None => break,
                    Some(Msg::Close(reply)) => {
                        let _ = reply.send(Ok(()));
                        break;
                    }
                    Some(msg) => self.handle(msg).await,
                },
                _ = ticker.tick(), if self.thinking.is_some() => self.send_progress(),
                _ = presence => self.broadcast_presence(),
                _ = tokio::time::sleep(stall::STALL_RETRY), if stalled => self.retry_stalled().await,
                _ = tokio::time::sleep_until(idle_deadline.into()) => {
                    // Nobody watches: leave memory (a running clock's deadline is stored, and
                    // the flag scheduler brings the game back when it comes).
                    // Not while the computer thinks on a clock: its time runs (its move
                    // comes first). Without a clock its search is simply dropped.
                    let clocked_search = self.thinking.is_some() && self.flag_deadline().is_some();
                    // Nor while its clock is stalled: what it gives back is not stored yet.
                    if self.conns.is_empty() && rx.is_empty() && !clocked_search && !stalled {
                        break;
                    }
                    self.last_activity = Instant::now();
                }
                _ = shutdown.changed() => break,
            }
        }
        self.cancel_thinking();
        if shared_store && self.leader {
            // Others may take the game at once rather than when the lease expires.
            let store = &self.shared.store;
            if let Err(e) = store
                .cluster()
                .release(&self.rec.meta.id, &self.shared.cluster.instance)
                .await
            {
                tracing::warn!(error = %e, "cannot give up the game's lease");
            }
        }
    }

    async fn handle(&mut self, msg: Msg) {
        if !matches!(
            msg,
            Msg::EngineDone { .. } | Msg::Refresh(_) | Msg::LookAtLease
        ) {
            self.last_activity = Instant::now();
        }
        if !self.leader && follow::needs_owner(&msg) {
            let id = self.shared.cluster.next_id();
            return self.forward(msg, 0, id);
        }
        match msg {
            Msg::View(who, reply) => {
                self.maybe_start_thinking();
                let _ = reply.send(Ok(self.view_for(who)));
            }
            Msg::Act {
                who,
                action,
                arrived_ms,
                reply,
            } => {
                let r = match self.act(who, action, arrived_ms).await {
                    Ok(()) => Ok(self.view_for(Some(who))),
                    Err(e) => Err(e),
                };
                let _ = reply.send(r);
            }
            Msg::Export(reply) => {
                let export = match &self.online {
                    None => crate::export::ExportRecord::Local(self.rec.clone()),
                    // A local game's resignation or flag fall is in its online part too.
                    Some(o) => crate::export::ExportRecord::online(self.rec.clone(), o),
                };
                let _ = reply.send(Ok(export));
            }
            Msg::EngineSnapshot(reply) => {
                let r = match self.online.as_ref().map(|o| o.phase) {
                    // A rated game against a bot (`crate::bots`) is played without help.
                    Some(Phase::Playing { .. })
                        if self.online.as_ref().is_some_and(|o| o.rated) =>
                    {
                        Err(AppError::NotAllowed(
                            "hints and analysis of a rated game wait until it is finished".into(),
                        ))
                    }
                    _ if !self.is_online() => Ok(self.rec.clone()),
                    None | Some(Phase::Finished(_)) => Ok(self.rec.clone()),
                    Some(_) => Err(AppError::NotAllowed(
                        "hints and analysis of an online game wait until it is finished".into(),
                    )),
                };
                let _ = reply.send(r);
            }
            Msg::Connect(who, reply) => {
                self.maybe_start_thinking();
                let _ = reply.send(Ok(self.connect(who)));
            }
            Msg::Disconnect(conn) => self.disconnect(conn),
            Msg::TakeSeat { who, name, reply } => {
                let r = self.take_seat(who, name).await;
                let _ = reply.send(r);
            }
            Msg::NewLink(who, reply) => {
                let r = self.new_link(who).await;
                let _ = reply.send(r);
            }
            Msg::UseLink {
                who,
                color,
                hash,
                reply,
            } => {
                let r = self.use_link(who, color, hash).await;
                let _ = reply.send(r);
            }
            Msg::CheckFlag(reply) => {
                let r = self.check_flag().await;
                let _ = reply.send(r);
            }
            Msg::EngineDone { generation, result } => self.engine_done(generation, result).await,
            Msg::Refresh(version) => self.refresh(version).await,
            Msg::LookAtLease => self.look_at_lease().await,
            Msg::Forwarded {
                msg,
                answer,
                tries,
                id,
            } => self.forwarded(*msg, answer, tries, id).await,
            Msg::Close(reply) => drop(reply.send(Ok(()))),
        }
    }

    /// Whether this is an online game (a local one may have an online part too: its clock and
    /// result, with free seats).
    fn is_online(&self) -> bool {
        self.rec.meta.mode == Mode::Online
    }

    /// The online part, or the refusal a local game gives to an online request.
    fn online(&self) -> AppResult<&OnlineGame> {
        match &self.online {
            Some(o) if self.is_online() => Ok(o),
            _ => Err(AppError::NotAllowed(
                "this is not an online game (it has no seats)".into(),
            )),
        }
    }

    fn seat_of(&self, who: BrowserId) -> Option<Color> {
        self.online().ok().and_then(|o| o.seat_of(who))
    }

    // ---------- views and broadcasts ----------

    fn presence(&self, c: Color, now: i64) -> Presence {
        let Some(seat) = self.online().ok().map(|o| o.seat(c)) else {
            return Presence::None;
        };
        if !seat.is_taken() {
            return Presence::None;
        }
        if self.conns.values().any(|w| seat.holds(*w)) {
            return Presence::Online;
        }
        match self.last_closed[idx(c)] {
            Some(t) if now - t < RECONNECT_GRACE_MS => Presence::Reconnecting,
            _ => Presence::Left,
        }
    }

    fn presence_deadline(&self) -> Option<i64> {
        let now = self.clock.now_ms();
        [Color::Black, Color::White]
            .into_iter()
            .filter(|&c| self.presence(c, now) == Presence::Reconnecting)
            .filter_map(|c| self.last_closed[idx(c)])
            .map(|t| t + RECONNECT_GRACE_MS)
            .min()
    }

    fn spectators(&self) -> usize {
        self.conns
            .values()
            .filter(|w| self.seat_of(**w).is_none())
            .count()
    }

    fn seats_view(&self, online: &OnlineGame, now: i64) -> SeatsView {
        let seat = |c: Color| {
            let s = online.seat(c);
            let presence = self.presence(c, now);
            SeatView {
                name: s.name().map(str::to_string),
                taken: s.is_taken(),
                presence,
                since: match presence {
                    Presence::None => None,
                    _ => self.since[idx(c)].map(iso8601),
                },
            }
        };
        SeatsView {
            black: seat(Color::Black),
            white: seat(Color::White),
        }
    }

    /// The game as the holder of seat `you` (or anyone else) sees it.
    fn view_as(&self, you: Option<Color>) -> GameView {
        match self.online() {
            Err(_) => local_game_view(
                &self.rec,
                self.online.as_ref(),
                self.shows_thinking(),
                self.version,
                self.clock.now_ms(),
            ),
            Ok(online) => {
                let now = self.clock.now_ms();
                online_game_view(
                    &self.rec,
                    online,
                    self.version,
                    you,
                    self.seats_view(online, now),
                    self.spectators(),
                    now,
                )
            }
        }
    }

    fn view_for(&self, who: Option<BrowserId>) -> GameView {
        self.view_as(who.and_then(|w| self.seat_of(w)))
    }

    fn frame(&self, you: Option<Color>) -> Arc<str> {
        let view = self.view_as(you);
        let msg = GameMessage {
            kind: "game",
            game: &view,
        };
        match serde_json::to_string(&msg) {
            Ok(s) => s.into(),
            Err(e) => {
                tracing::error!(error = %e, "cannot serialise the game");
                Arc::from("{\"type\":\"error\",\"code\":\"internal\",\"message\":\"cannot serialise the game\"}")
            }
        }
    }

    fn holders(&self, c: Color) -> Vec<BrowserId> {
        match self.online().ok().map(|o| o.seat(c)) {
            Some(SeatState::Taken { holders, .. }) => holders.clone(),
            _ => Vec::new(),
        }
    }

    fn broadcast_game(&self) {
        if self.events.receiver_count() == 0 {
            return;
        }
        let frames = if self.is_online() {
            Frames {
                black: self.frame(Some(Color::Black)),
                white: self.frame(Some(Color::White)),
                spectator: self.frame(None),
                holders: [self.holders(Color::Black), self.holders(Color::White)],
            }
        } else {
            let one = self.frame(None);
            Frames {
                black: one.clone(),
                white: one.clone(),
                spectator: one,
                holders: Default::default(),
            }
        };
        let _ = self.events.send(Event::Game(Arc::new(frames)));
    }

    fn broadcast_same<T: serde::Serialize>(&self, msg: &T) {
        if self.events.receiver_count() == 0 {
            return;
        }
        if let Ok(json) = serde_json::to_string(msg) {
            let _ = self.events.send(Event::Same(json.into()));
        }
    }

    /// Something went wrong in the background (the engine, the store): an `error` message.
    fn broadcast_error(&self, message: &str) {
        self.broadcast_same(&crate::view::online::ErrorMessage {
            kind: "error",
            code: "internal",
            message: message.to_string(),
            reference: None,
            params: None,
        });
    }

    fn broadcast_presence(&self) {
        let Ok(online) = self.online() else { return };
        let now = self.clock.now_ms();
        let seats = self.seats_view(online, now);
        self.broadcast_same(&PresenceMessage {
            kind: "presence",
            seats: &seats,
            spectators: self.spectators(),
        });
    }

    /// Marks a change of the game.
    fn bump(&mut self) {
        self.version = (self.version + 1).max(now_millis().max(0) as u64);
    }

    /// Stores the next state and, once it is stored, makes it the current one.
    async fn commit(
        &mut self,
        next: GameRecord,
        online: Option<OnlineGame>,
        changes: Vec<Change>,
    ) -> AppResult<()> {
        let now = self.clock.now_ms();
        self.commit_at(next, online, changes, now).await
    }

    /// [`Actor::commit`] of a request that arrived at `asked_at` (the time source's ms): if the
    /// store fails, the clock is stalled from then on ([`stall`]).
    async fn commit_at(
        &mut self,
        mut next: GameRecord,
        online: Option<OnlineGame>,
        changes: Vec<Change>,
        asked_at: i64,
    ) -> AppResult<()> {
        next.meta.updated_at = now_millis().max(self.rec.meta.updated_at);
        let new_game = changes.iter().any(|c| matches!(c, Change::NewGame(_)));
        let version = (self.version + 1).max(now_millis().max(0) as u64);
        if self.shared.cluster.is_displaced() {
            // Another process runs games under this instance id now: its leases are not ours.
            return Err(StoreError::NotOwner(self.rec.meta.id.clone()).into());
        }
        let saved = self
            .shared
            .store
            .cluster()
            .save_owned(
                &self.shared.cluster.instance,
                version,
                next.clone(),
                online.clone(),
                changes,
            )
            .await;
        if let Err(e) = saved {
            self.note_store_failure(&e, asked_at);
            if matches!(e, StoreError::NotOwner(_)) {
                // Another instance took the game over: follow it from now on.
                self.step_down().await;
            }
            return Err(e.into());
        }
        self.store_took_a_change();
        let before = self.flag_deadline();
        let plies_before = self.rec.game.moves().len();
        let finished = |o: &Option<OnlineGame>| {
            matches!(o.as_ref().map(|o| o.phase), Some(Phase::Finished(_)))
        };
        let ended = !finished(&self.online) && finished(&online);
        self.rec = next;
        self.online = online;
        self.version = version;
        // A move leaves a side to move: its players hear of it on their other sockets.
        self.shared
            .notices
            .after_change(plies_before, &self.rec, self.online.as_ref());
        if ended {
            // Stored: followers of results (arenas) may read it now.
            self.shared.game_ends.ended(&self.rec.meta.id);
        }
        // A stored deadline moved (or a rematch brought a new one): the scheduler looks again.
        if new_game || self.flag_deadline() != before {
            self.shared.flags.changed();
        }
        Ok(())
    }

    /// Commits a change of the online state only, then shows it.
    async fn commit_online(&mut self, online: OnlineGame, changes: Vec<Change>) -> AppResult<()> {
        self.commit(self.rec.clone(), Some(online), changes).await?;
        self.broadcast_game();
        Ok(())
    }

    // ---------- sockets ----------

    fn connect(&mut self, who: BrowserId) -> Connected {
        let now = self.clock.now_ms();
        if let Some(c) = self.seat_of(who) {
            if self.presence(c, now) != Presence::Online {
                self.since[idx(c)] = Some(now);
            }
        }
        self.next_conn += 1;
        let conn = self.next_conn;
        let events = self.events.subscribe();
        self.conns.insert(conn, who);
        let first = self.frame(self.seat_of(who));
        self.broadcast_presence();
        Connected {
            conn,
            first,
            events,
        }
    }

    fn disconnect(&mut self, conn: u64) {
        let Some(who) = self.conns.remove(&conn) else {
            return;
        };
        let now = self.clock.now_ms();
        if let Some(c) = self.seat_of(who) {
            if self.presence(c, now) != Presence::Online {
                self.last_closed[idx(c)] = Some(now);
                self.since[idx(c)] = Some(now);
            }
        }
        self.broadcast_presence();
    }
}
