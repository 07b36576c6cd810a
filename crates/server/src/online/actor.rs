//! The actor of one online game: a tokio task that owns the game, its seats and clocks, applies
//! the players' actions one at a time, stores every change before anyone sees it, and fans each
//! change out to the game's sockets through a broadcast channel (a slow spectator only lags
//! itself: it skips to the newest state, the actor never waits for it).
//!
//! Flag fall is not the actor's timer: every change stores the running side's deadline, and the
//! one flag scheduler ([`super::scheduler`]) sends [`OnlineCommand::CheckFlag`] when it comes,
//! loading the game if needed. So any game, whatever its clock, is unloaded when nobody is
//! connected for the idle timeout.

use super::model::{OnlineGame, Phase, SeatState};
use super::store::{self, Extra};
use super::time::{Clock, Sleep};
use super::view::{online_game_view, GameMessage, Presence, PresenceMessage, SeatView, SeatsView};
use crate::error::{AppError, AppResult};
use crate::identity::BrowserId;
use crate::model::GameRecord;
use crate::session::{Command, GameHandle};
use crate::shared::Shared;
use crate::util::{iso8601, now_millis};
use crate::view::GameView;
use sha2::{Digest, Sha256};
use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::{broadcast, mpsc, oneshot};
use virada_rules::{Color, Square};

mod actions;

type Reply<T> = oneshot::Sender<AppResult<T>>;

/// A seat whose last socket closed is "reconnecting" for this long, then "left".
pub const RECONNECT_GRACE_MS: i64 = 30_000;
/// Chat lines a seat may send per [`CHAT_WINDOW_MS`].
pub const CHAT_BURST: usize = 5;
pub const CHAT_WINDOW_MS: i64 = 10_000;
/// How long a device link is valid.
pub const LINK_VALID_MS: i64 = 24 * 3600 * 1000;
/// Unused device links kept per seat: making another drops the oldest unused one.
pub const LINKS_PER_SEAT: usize = 5;

/// What a player does (the WebSocket's client messages, checked).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Move { square: Square, ply: usize },
    Resign { ply: usize },
    Abort { ply: usize },
    Takeback { ply: usize },
    TakebackAnswer { accept: bool, ply: usize },
    Chat { text: String },
    Rematch,
    RematchAnswer { accept: bool },
}

/// Requests only an online game's actor answers.
pub enum OnlineCommand {
    /// Takes the free seat (or does nothing if `who` holds one).
    TakeSeat {
        who: BrowserId,
        name: String,
        reply: Reply<GameView>,
    },
    /// Makes a device link for the seat `who` holds.
    NewLink {
        who: BrowserId,
        reply: Reply<NewLink>,
    },
    /// Uses the device link `hash` (already looked up: it is for seat `color`).
    UseLink {
        who: BrowserId,
        color: Color,
        hash: String,
        reply: Reply<Color>,
    },
    /// A socket opens: its first message and the receiver of every later one.
    Connect {
        who: BrowserId,
        reply: Reply<Connected>,
    },
    Disconnect {
        conn: u64,
    },
    /// A player's action, which arrived at `arrived_ms` (the time source's clock).
    Act {
        who: BrowserId,
        action: Action,
        arrived_ms: i64,
        reply: Reply<()>,
    },
    /// The flag scheduler saw this game's stored deadline come: the flag falls if the side to
    /// move is out of time (stored first). Answers whether it fell.
    CheckFlag {
        reply: Reply<bool>,
    },
}

impl OnlineCommand {
    /// Answers with `e` (a local game's actor refusing an online request).
    pub fn refuse(self, e: AppError) {
        match self {
            OnlineCommand::TakeSeat { reply, .. } => drop(reply.send(Err(e))),
            OnlineCommand::NewLink { reply, .. } => drop(reply.send(Err(e))),
            OnlineCommand::UseLink { reply, .. } => drop(reply.send(Err(e))),
            OnlineCommand::Connect { reply, .. } => drop(reply.send(Err(e))),
            OnlineCommand::Act { reply, .. } => drop(reply.send(Err(e))),
            OnlineCommand::CheckFlag { reply } => drop(reply.send(Err(e))),
            OnlineCommand::Disconnect { .. } => {}
        }
    }
}

/// A new device link: the token (given once, never stored) and when it expires.
pub struct NewLink {
    pub token: String,
    pub expires_at: i64,
}

/// What a socket gets when it opens.
pub struct Connected {
    pub conn: u64,
    /// The `game` message for this browser.
    pub first: Arc<str>,
    pub events: broadcast::Receiver<OnlineEvent>,
}

/// A message for the game's sockets.
#[derive(Clone, Debug)]
pub enum OnlineEvent {
    /// A new state: one `game` message per viewpoint.
    Game(Arc<Frames>),
    /// A message that is the same for everyone (`chat`, `presence`).
    Same(Arc<str>),
}

/// The `game` message as each seat's holders and the spectators see it.
#[derive(Debug)]
pub struct Frames {
    pub black: Arc<str>,
    pub white: Arc<str>,
    pub spectator: Arc<str>,
    pub holders: [Vec<BrowserId>; 2],
}

impl Frames {
    pub fn for_browser(&self, who: BrowserId) -> &Arc<str> {
        if self.holders[0].contains(&who) {
            &self.black
        } else if self.holders[1].contains(&who) {
            &self.white
        } else {
            &self.spectator
        }
    }
}

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

struct OnlineActor {
    rec: GameRecord,
    online: OnlineGame,
    shared: Arc<Shared>,
    clock: Clock,
    events: broadcast::Sender<OnlineEvent>,
    version: u64,
    conns: HashMap<u64, BrowserId>,
    next_conn: u64,
    /// Per seat: when its last socket closed, and when its presence last changed.
    last_closed: [Option<i64>; 2],
    since: [Option<i64>; 2],
    chat_times: [VecDeque<i64>; 2],
    last_activity: Instant,
}

/// Makes the actor of an online game (the caller spawns the future and registers the handle).
pub fn start(
    rec: GameRecord,
    online: OnlineGame,
    shared: Arc<Shared>,
    instance: u64,
) -> (GameHandle, impl Future<Output = ()> + Send + 'static) {
    let (tx, rx) = mpsc::channel(256);
    let (events, _) = broadcast::channel(64);
    let (owner, mode) = (rec.meta.owner, rec.meta.mode);
    let actor = OnlineActor {
        rec,
        online,
        clock: shared.config.clock.clone(),
        shared,
        events,
        version: now_millis().max(0) as u64,
        conns: HashMap::new(),
        next_conn: 0,
        last_closed: [None; 2],
        since: [None; 2],
        chat_times: [VecDeque::new(), VecDeque::new()],
        last_activity: Instant::now(),
    };
    (
        GameHandle {
            tx,
            instance,
            owner,
            mode,
        },
        actor.run(rx),
    )
}

fn maybe_sleep(clock: &Clock, at: Option<i64>) -> Sleep {
    match at {
        Some(at) => clock.sleep_until(at),
        None => Box::pin(std::future::pending()),
    }
}

impl OnlineActor {
    async fn run(mut self, mut rx: mpsc::Receiver<Command>) {
        let mut shutdown = self.shared.shutdown.clone();
        // A game loaded after its deadline passed (it was not in memory) ends at once.
        if let Err(e) = self.check_flag().await {
            eprintln!(
                "virada-server: game {}: cannot store the flag fall: {e}",
                self.rec.meta.id
            );
        }
        loop {
            let presence = maybe_sleep(&self.clock, self.presence_deadline());
            let idle_deadline = self.last_activity + self.shared.config.idle_timeout;
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    None => break,
                    Some(Command::Close(reply)) => {
                        let _ = reply.send(Ok(()));
                        break;
                    }
                    Some(cmd) => self.handle(cmd).await,
                },
                _ = presence => self.broadcast_presence(),
                _ = tokio::time::sleep_until(idle_deadline.into()) => {
                    // Nobody watches: leave memory (a running clock's deadline is stored, and
                    // the flag scheduler brings the game back when it comes).
                    if self.conns.is_empty() && rx.is_empty() {
                        break;
                    }
                    self.last_activity = Instant::now();
                }
                _ = shutdown.changed() => break,
            }
        }
    }

    async fn handle(&mut self, cmd: Command) {
        self.last_activity = Instant::now();
        match cmd {
            Command::Get(reply) => drop(reply.send(Ok(self.view_as(None)))),
            Command::View(who, reply) => {
                let you = self.online.seat_of(who);
                let _ = reply.send(Ok(self.view_as(you)));
            }
            Command::Export(reply) => drop(reply.send(Ok(crate::export::ExportRecord::online(
                self.rec.clone(),
                &self.online,
            )))),
            Command::EngineSnapshot(reply) => {
                let r = match self.online.phase {
                    Phase::Finished(_) => Ok(self.rec.clone()),
                    _ => Err(AppError::NotAllowed(
                        "hints and analysis of an online game wait until it is finished".into(),
                    )),
                };
                let _ = reply.send(r);
            }
            Command::Subscribe(reply) => drop(reply.send(Err(AppError::NotAllowed(
                "online games stream over the WebSocket /api/games/{id}/ws".into(),
            )))),
            Command::Play(_, _, reply) | Command::Undo(_, reply) | Command::Redo(_, reply) => {
                drop(reply.send(Err(AppError::NotAllowed(
                    "online games are played over the WebSocket /api/games/{id}/ws".into(),
                ))))
            }
            Command::EngineDone { .. } => {}
            Command::Close(reply) => drop(reply.send(Ok(()))),
            Command::Online(cmd) => self.handle_online(cmd).await,
        }
    }

    async fn handle_online(&mut self, cmd: OnlineCommand) {
        match cmd {
            OnlineCommand::TakeSeat { who, name, reply } => {
                let r = self.take_seat(who, name).await;
                let _ = reply.send(r);
            }
            OnlineCommand::NewLink { who, reply } => {
                let r = self.new_link(who).await;
                let _ = reply.send(r);
            }
            OnlineCommand::UseLink {
                who,
                color,
                hash,
                reply,
            } => {
                let r = self.use_link(who, color, hash).await;
                let _ = reply.send(r);
            }
            OnlineCommand::Connect { who, reply } => {
                let r = self.connect(who);
                let _ = reply.send(r);
            }
            OnlineCommand::Disconnect { conn } => self.disconnect(conn),
            OnlineCommand::Act {
                who,
                action,
                arrived_ms,
                reply,
            } => {
                let r = match self.online.seat_of(who) {
                    None => Err(AppError::NotYourSeat(
                        "you do not hold a seat in this game: spectators may only watch".into(),
                    )),
                    Some(seat) => self.act(seat, action, arrived_ms).await,
                };
                let _ = reply.send(r);
            }
            OnlineCommand::CheckFlag { reply } => {
                let r = self.check_flag().await;
                let _ = reply.send(r);
            }
        }
    }

    // ---------- views and broadcasts ----------

    fn presence(&self, c: Color, now: i64) -> Presence {
        let seat = self.online.seat(c);
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
            .filter(|w| self.online.seat_of(**w).is_none())
            .count()
    }

    fn seats_view(&self, now: i64) -> SeatsView {
        let seat = |c: Color| {
            let s = self.online.seat(c);
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

    fn view_as(&self, you: Option<Color>) -> GameView {
        let now = self.clock.now_ms();
        online_game_view(
            &self.rec,
            &self.online,
            self.version,
            you,
            self.seats_view(now),
            self.spectators(),
            now,
        )
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
                eprintln!("virada-server: cannot serialise online game: {e}");
                Arc::from("{\"type\":\"error\",\"code\":\"internal\",\"message\":\"cannot serialise the game\"}")
            }
        }
    }

    fn holders(&self, c: Color) -> Vec<BrowserId> {
        match self.online.seat(c) {
            SeatState::Taken { holders, .. } => holders.clone(),
            SeatState::Free => Vec::new(),
        }
    }

    fn broadcast_game(&self) {
        if self.events.receiver_count() == 0 {
            return;
        }
        let frames = Frames {
            black: self.frame(Some(Color::Black)),
            white: self.frame(Some(Color::White)),
            spectator: self.frame(None),
            holders: [self.holders(Color::Black), self.holders(Color::White)],
        };
        let _ = self.events.send(OnlineEvent::Game(Arc::new(frames)));
    }

    fn broadcast_same<T: serde::Serialize>(&self, msg: &T) {
        if self.events.receiver_count() == 0 {
            return;
        }
        if let Ok(json) = serde_json::to_string(msg) {
            let _ = self.events.send(OnlineEvent::Same(json.into()));
        }
    }

    fn broadcast_presence(&self) {
        let now = self.clock.now_ms();
        let seats = self.seats_view(now);
        self.broadcast_same(&PresenceMessage {
            kind: "presence",
            seats: &seats,
            spectators: self.spectators(),
        });
    }

    fn bump(&mut self) {
        self.version = (self.version + 1).max(now_millis().max(0) as u64);
    }

    /// Stores the next state and, once it is on disk, makes it the current one.
    async fn commit(
        &mut self,
        mut next: GameRecord,
        online: OnlineGame,
        extra: Vec<Extra>,
    ) -> AppResult<()> {
        next.meta.updated_at = now_millis().max(self.rec.meta.updated_at);
        let new_game = extra.iter().any(|e| matches!(e, Extra::NewGame(_)));
        let (rec, stored) = (next.clone(), online.clone());
        self.shared
            .db
            .call(move |conn| store::save(conn, &rec, &stored, &extra))
            .await?;
        let before = self.flag_deadline();
        self.rec = next;
        self.online = online;
        self.bump();
        // A stored deadline moved (or a rematch brought a new one): the scheduler looks again.
        if new_game || self.flag_deadline() != before {
            self.shared.flags.changed();
        }
        Ok(())
    }

    /// Commits a change of the online state only, then shows it.
    async fn commit_online(&mut self, online: OnlineGame, extra: Vec<Extra>) -> AppResult<()> {
        self.commit(self.rec.clone(), online, extra).await?;
        self.broadcast_game();
        Ok(())
    }

    // ---------- sockets, seats, links ----------

    fn connect(&mut self, who: BrowserId) -> AppResult<Connected> {
        let now = self.clock.now_ms();
        if let Some(c) = self.online.seat_of(who) {
            if self.presence(c, now) != Presence::Online {
                self.since[idx(c)] = Some(now);
            }
        }
        self.next_conn += 1;
        let conn = self.next_conn;
        let events = self.events.subscribe();
        self.conns.insert(conn, who);
        let first = self.frame(self.online.seat_of(who));
        self.broadcast_presence();
        Ok(Connected {
            conn,
            first,
            events,
        })
    }

    fn disconnect(&mut self, conn: u64) {
        let Some(who) = self.conns.remove(&conn) else {
            return;
        };
        let now = self.clock.now_ms();
        if let Some(c) = self.online.seat_of(who) {
            if self.presence(c, now) != Presence::Online {
                self.last_closed[idx(c)] = Some(now);
                self.since[idx(c)] = Some(now);
            }
        }
        self.broadcast_presence();
    }

    async fn take_seat(&mut self, who: BrowserId, name: String) -> AppResult<GameView> {
        if let Some(c) = self.online.seat_of(who) {
            return Ok(self.view_as(Some(c)));
        }
        if let Phase::Finished(_) = self.online.phase {
            return Err(AppError::GameOver(
                "this game is over: watch it instead".into(),
            ));
        }
        let Some(free) = [Color::Black, Color::White]
            .into_iter()
            .find(|&c| !self.online.seat(c).is_taken())
        else {
            return Err(AppError::SeatTaken(
                "both seats are taken: you can watch the game".into(),
            ));
        };
        let now = self.clock.now_ms();
        let mut next = self.online.clone();
        *next.seat_mut(free) = SeatState::Taken {
            name,
            holders: vec![who],
        };
        if next.black.is_taken() && next.white.is_taken() {
            next.phase = Phase::Playing {
                turn_started_at: now,
            };
        }
        self.commit_online(next, vec![Extra::Holder(free, who)])
            .await?;
        self.since[idx(free)] = Some(now);
        Ok(self.view_as(Some(free)))
    }

    async fn new_link(&mut self, who: BrowserId) -> AppResult<NewLink> {
        let Some(c) = self.online.seat_of(who) else {
            return Err(AppError::NotYourSeat(
                "only a seat's holder can link another device to it".into(),
            ));
        };
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes)
            .map_err(|e| AppError::Internal(format!("no random token: {e}")))?;
        let token: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let hash = link_hash(&token);
        let now = self.clock.now_ms();
        let expires_at = now + LINK_VALID_MS;
        let id = self.rec.meta.id.clone();
        self.shared
            .db
            .call(move |conn| {
                store::insert_link(conn, &hash, &id, c, now, expires_at, LINKS_PER_SEAT)
            })
            .await?;
        Ok(NewLink { token, expires_at })
    }

    async fn use_link(&mut self, who: BrowserId, color: Color, hash: String) -> AppResult<Color> {
        match self.online.seat_of(who) {
            Some(c) if c == color => return Ok(c),
            Some(_) => {
                return Err(AppError::SeatTaken(
                    "this browser holds the other seat of this game".into(),
                ))
            }
            None => {}
        }
        let mut next = self.online.clone();
        match next.seat_mut(color) {
            SeatState::Taken { holders, .. } => holders.push(who),
            SeatState::Free => return Err(AppError::NotFound("no such device link".into())),
        }
        self.commit_online(next, vec![Extra::Holder(color, who), Extra::LinkUsed(hash)])
            .await?;
        Ok(color)
    }

    // ---------- clocks ----------

    /// When the side to move loses on time, if a clock runs (what the store keeps as
    /// `flag_at`).
    fn flag_deadline(&self) -> Option<i64> {
        store::flag_at(&self.rec, &self.online)
    }

    /// Ends the game if the side to move is out of time; answers whether the flag fell (false:
    /// time is left, or no clock runs).
    async fn check_flag(&mut self) -> AppResult<bool> {
        let Some(deadline) = self.flag_deadline() else {
            return Ok(false);
        };
        if self.clock.now_ms() < deadline {
            return Ok(false);
        }
        let loser = self.rec.game.position().side_to_move();
        self.flag_fall(loser).await?;
        Ok(true)
    }

    async fn flag_fall(&mut self, loser: Color) -> AppResult<()> {
        let mut next = self.online.clone();
        // The loser's clock shows zero.
        match loser {
            Color::Black => next.black_ms = 0,
            Color::White => next.white_ms = 0,
        }
        next.phase = Phase::Finished(next.out_of_time(loser));
        next.offers = Default::default();
        self.commit_online(next, Vec::new()).await
    }
}
