//! The game actor: one tokio task per game in memory, for every mode (computer, friend,
//! online), behind a typed [`GameHandle`].
//!
//! The actor owns the game and applies what players do one request at a time: it checks the
//! request (ply, seat, turn, phase), plays a move through the rules crate's checked `play`,
//! stores the change ([`virada_store::GameStore::save`]) and only then answers and broadcasts it
//! ([`Event`]) to the game's live sockets (`crate::online::ws`). The mode is data it consults:
//! the record's [`crate::model::Mode`] says who plays (the computer searches its turns on the
//! engine pool), and an online game's seats, clocks, offers and chat (`OnlineGame`) come with
//! it. A game nobody is connected to is unloaded after the idle timeout (a running clock's
//! deadline is in the store, and the flag scheduler brings the game back when it comes).
//!
//! The handle's methods send a private message to the task and await its answer; they fail
//! with [`AppError::Internal`] only if the task stopped meanwhile ([`is_stopped`]).
//!
//! With several instances on one PostgreSQL database (`crate::runtime::cluster`) the same actor either
//! owns the game (it holds its lease: it runs it as above) or follows the owner from another
//! instance: it serves its own sockets from a copy read again at every change, and sends the
//! requests that change the game to the owner ([`Forward`]); it takes the game over when the
//! owner's lease lapses.

mod actor;
pub mod deletion;

use crate::error::{AppError, AppResult};
use crate::export::ExportRecord;
use crate::identity::BrowserId;
use crate::model::Owner;
use crate::model::{GameRecord, Mode};
use crate::runtime::shared::Shared;
use crate::view::GameView;
use std::future::Future;
use std::sync::Arc;
use tokio::sync::{broadcast, mpsc, oneshot};
use virada_rules::{Color, Move, Square};
use virada_store::StoredGame;

pub use actor::link_hash;

/// A seat whose last socket closed is "reconnecting" for this long, then "left".
pub const RECONNECT_GRACE_MS: i64 = 30_000;
/// Chat lines a seat may send per [`CHAT_WINDOW_MS`].
pub const CHAT_BURST: usize = 5;
pub const CHAT_WINDOW_MS: i64 = 10_000;
/// How long a device link is valid.
pub const LINK_VALID_MS: i64 = 24 * 3600 * 1000;
/// Unused device links kept per seat: making another drops the oldest unused one.
pub const LINKS_PER_SEAT: usize = 5;

/// What a player does (the WebSocket's client messages and the HTTP move/undo/redo, checked).
/// Actions that change the board carry the ply they answer (the length of the `plies` the
/// client saw): one that does not match the game is refused as stale, so a retried or
/// duplicated request is never applied to a later position.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    Move {
        square: Square,
        ply: usize,
    },
    /// Local games: back to the person's previous turn (friend: one turn).
    Undo {
        ply: usize,
    },
    Redo {
        ply: usize,
    },
    Resign {
        ply: usize,
    },
    Abort {
        ply: usize,
    },
    Takeback {
        ply: usize,
    },
    TakebackAnswer {
        accept: bool,
        ply: usize,
    },
    Chat {
        text: String,
    },
    Rematch,
    RematchAnswer {
        accept: bool,
    },
}

/// A change for the game's sockets, already serialised (server messages, docs/API.md).
#[derive(Clone, Debug)]
pub enum Event {
    /// A new state: the `game` message for each viewpoint.
    Game(Arc<Frames>),
    /// A message that is the same for everyone (`thinking`, `chat`, `presence`, `error`).
    Same(Arc<str>),
}

/// The `game` message as each seat's holders and everyone else see it (a local game has one
/// viewpoint: the three are the same text).
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

/// What a socket gets when it opens.
pub struct Connected {
    pub conn: u64,
    /// The `game` message for this browser.
    pub first: Arc<str>,
    pub events: broadcast::Receiver<Event>,
}

/// A new device link: the token (given once, never stored) and when it expires.
pub struct NewLink {
    pub token: String,
    pub expires_at: i64,
}

type Reply<T> = oneshot::Sender<AppResult<T>>;

/// What an instance that does not own a game sends its owner (`crate::runtime::cluster`): the requests
/// that change the game. `who` is the browser id's hex form.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Forward {
    Act {
        who: String,
        action: Action,
        arrived_ms: i64,
    },
    TakeSeat {
        who: String,
        name: String,
    },
    UseLink {
        who: String,
        color: Color,
        hash: String,
    },
    CheckFlag,
}

fn browser(hex: &str) -> AppResult<BrowserId> {
    BrowserId::from_hex(hex)
        .ok_or_else(|| AppError::Internal("a forwarded request without its browser".into()))
}

/// The messages of the actor (private: the handle's methods make them).
enum Msg {
    View(Option<BrowserId>, Reply<GameView>),
    Act {
        who: BrowserId,
        action: Action,
        arrived_ms: i64,
        reply: Reply<GameView>,
    },
    Export(Reply<ExportRecord>),
    EngineSnapshot(Reply<GameRecord>),
    Connect(BrowserId, Reply<Connected>),
    Disconnect(u64),
    TakeSeat {
        who: BrowserId,
        name: String,
        reply: Reply<GameView>,
    },
    NewLink(BrowserId, Reply<NewLink>),
    UseLink {
        who: BrowserId,
        color: Color,
        hash: String,
        reply: Reply<Color>,
    },
    CheckFlag(Reply<bool>),
    Close(Reply<()>),
    /// The computer's search finished.
    EngineDone {
        generation: u64,
        result: AppResult<Move>,
    },
    /// Another instance stored a change of the game at this version (0: maybe; the bus
    /// reconnected).
    Refresh(u64),
    /// The owner answered request `id` this follower sent it for `msg` (`None`: not in
    /// time).
    Forwarded {
        msg: Box<Msg>,
        answer: AppResult<Option<crate::runtime::cluster::Answer>>,
        tries: u32,
        id: u64,
    },
    /// The owner's lease expired (its instance may be dead): a follower tries to take it.
    LookAtLease,
}

const STOPPED: &str = "the game stopped";

/// Whether `e` says the actor stopped before answering (the caller may load it afresh).
pub fn is_stopped(e: &AppError) -> bool {
    matches!(e, AppError::Internal(m) if m == STOPPED)
}

/// The address of a running game actor.
#[derive(Clone)]
pub struct GameHandle {
    tx: mpsc::Sender<Msg>,
    /// Distinguishes successive actors of the same game.
    pub instance: u64,
    /// The game's owner (fixed while the actor runs: a game is claimed before its actor starts).
    pub owner: Owner,
    /// The game's mode (online games are readable by anyone: `ownership::may_access`).
    pub mode: Mode,
}

impl GameHandle {
    async fn ask<T>(&self, make: impl FnOnce(Reply<T>) -> Msg) -> AppResult<T> {
        let (tx, rx) = oneshot::channel();
        self.tx
            .send(make(tx))
            .await
            .map_err(|_| AppError::Internal(STOPPED.into()))?;
        rx.await.map_err(|_| AppError::Internal(STOPPED.into()))?
    }

    /// Whether the actor has stopped.
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    /// The game as `who` sees it (online games say which seat it holds; `None`: nobody's).
    pub async fn view(&self, who: Option<BrowserId>) -> AppResult<GameView> {
        self.ask(|r| Msg::View(who, r)).await
    }

    /// Applies `who`'s action, which arrived at `arrived_ms` (the time source's clock); answers
    /// with the game as `who` sees it afterwards.
    pub async fn act(
        &self,
        who: BrowserId,
        action: Action,
        arrived_ms: i64,
    ) -> AppResult<GameView> {
        self.ask(|reply| Msg::Act {
            who,
            action,
            arrived_ms,
            reply,
        })
        .await
    }

    /// A copy of the game for export (online games add their seats' names and how they ended).
    pub async fn export(&self) -> AppResult<ExportRecord> {
        self.ask(Msg::Export).await
    }

    /// A copy of the game for the engine (hints, analysis): online games refuse it until they
    /// are finished.
    pub async fn engine_snapshot(&self) -> AppResult<GameRecord> {
        self.ask(Msg::EngineSnapshot).await
    }

    /// A socket of `who` opens: its first message and the receiver of every later one.
    pub async fn connect(&self, who: BrowserId) -> AppResult<Connected> {
        self.ask(|r| Msg::Connect(who, r)).await
    }

    /// Socket `conn` closed (without waiting: called from a drop).
    pub fn disconnect(&self, conn: u64) {
        let tx = self.tx.clone();
        // Outside a runtime (it is shutting down) there is no actor left to tell.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let _ = tx.send(Msg::Disconnect(conn)).await;
            });
        }
    }

    /// Takes the free seat of an online game (or does nothing if `who` holds one).
    pub async fn take_seat(&self, who: BrowserId, name: String) -> AppResult<GameView> {
        self.ask(|reply| Msg::TakeSeat { who, name, reply }).await
    }

    /// Makes a device link for the seat `who` holds.
    pub async fn new_link(&self, who: BrowserId) -> AppResult<NewLink> {
        self.ask(|r| Msg::NewLink(who, r)).await
    }

    /// Uses the device link `hash` (already looked up: it is for seat `color`).
    pub async fn use_link(&self, who: BrowserId, color: Color, hash: String) -> AppResult<Color> {
        self.ask(|reply| Msg::UseLink {
            who,
            color,
            hash,
            reply,
        })
        .await
    }

    /// The stored deadline came: the flag falls if the side to move is out of time (stored
    /// first). Answers whether it fell.
    pub async fn check_flag(&self) -> AppResult<bool> {
        self.ask(Msg::CheckFlag).await
    }

    /// Another instance changed the game (its version then), or may have (`0`): a follower
    /// reads it again (without waiting: called from the bus listener).
    pub fn refresh(&self, version: u64) {
        let tx = self.tx.clone();
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let _ = tx.send(Msg::Refresh(version)).await;
            });
        }
    }

    /// The game's lease expired: a follower tries to take the game over (without waiting).
    pub fn look_at_lease(&self) {
        let _ = self.tx.try_send(Msg::LookAtLease);
    }

    /// Does what another instance forwarded (this one should own the game); the result as
    /// the answer carries it, and the game's version afterwards.
    pub async fn serve(&self, op: Forward) -> (AppResult<serde_json::Value>, u64) {
        let done = match op {
            Forward::Act {
                who,
                action,
                arrived_ms,
            } => match browser(&who) {
                Ok(who) => self
                    .act(who, action, arrived_ms)
                    .await
                    .map(|v| (serde_json::Value::Null, Some(v.version))),
                Err(e) => Err(e),
            },
            Forward::TakeSeat { who, name } => match browser(&who) {
                Ok(who) => self
                    .take_seat(who, name)
                    .await
                    .map(|v| (serde_json::Value::Null, Some(v.version))),
                Err(e) => Err(e),
            },
            Forward::UseLink { who, color, hash } => match browser(&who) {
                Ok(who) => self
                    .use_link(who, color, hash)
                    .await
                    .map(|c| (serde_json::json!(c), None)),
                Err(e) => Err(e),
            },
            Forward::CheckFlag => self
                .check_flag()
                .await
                .map(|fell| (serde_json::json!(fell), None)),
        };
        match done {
            Ok((value, Some(version))) => (Ok(value), version),
            Ok((value, None)) => {
                let version = self.view(None).await.map_or(0, |v| v.version);
                (Ok(value), version)
            }
            // A refusal changed nothing: the asker's copy is as good as any.
            Err(e) => (Err(e), 0),
        }
    }

    /// Stops the actor, cancelling any search (the game was deleted).
    pub async fn close(&self) {
        let _ = self.ask(Msg::Close).await;
    }
}

/// Makes the actor of `game`: its handle, and the future that runs it until the game is closed,
/// unloaded or the server stops (the caller spawns it and registers the handle).
///
/// `holder`: `None` if this instance holds the game's lease (always, with one process): it runs
/// the game; otherwise the instance that held it when looked at (empty: nobody, just then),
/// which the actor follows (`crate::runtime::cluster`).
pub fn start(
    game: StoredGame,
    shared: Arc<Shared>,
    instance: u64,
    holder: Option<String>,
) -> (GameHandle, impl Future<Output = ()> + Send + 'static) {
    let (tx, rx) = mpsc::channel(256);
    let handle = GameHandle {
        tx: tx.clone(),
        instance,
        owner: game.rec.meta.owner,
        mode: game.rec.meta.mode,
    };
    let actor = actor::Actor::new(game.rec, game.online, shared, tx, holder);
    (handle, actor.run(rx))
}
