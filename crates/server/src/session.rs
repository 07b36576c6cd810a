//! One actor (tokio task) per active game. It owns the game, applies moves, undo and redo one
//! request at a time, stores every change before answering, runs the computer's search on the
//! engine pool, and broadcasts each change to the game's live connections (SSE).
//!
//! A game nobody watches or touches for `idle_timeout` is abandoned: its search is cancelled and
//! the actor stops (the game stays in the database and comes back on the next request; if the
//! computer was to move, it starts thinking again).

use crate::db;
use crate::error::{AppError, AppResult};
use crate::identity::BrowserId;
use crate::model::{GameRecord, Mode};
use crate::online::actor::OnlineCommand;
use crate::ownership::Owner;
use crate::shared::Shared;
use crate::util::now_millis;
use crate::view::{game_view, GameView, ThinkingView};
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, mpsc, oneshot};
use virada_rules::{Move, Square};

use crate::pool::{JobSpec, Priority};
use virada_engine::{Iteration, Level};

/// A change pushed to live connections, already serialised to JSON.
#[derive(Clone, Debug)]
pub enum LiveEvent {
    /// The whole game object.
    Game(Arc<str>),
    /// Search progress.
    Thinking(Arc<str>),
    /// Something went wrong in the background (the engine, the database).
    Error(Arc<str>),
}

type Reply<T> = oneshot::Sender<AppResult<T>>;

/// Requests to a game actor. Requests that change the game carry the ply they answer (the
/// length of the `plies` the client saw): one that does not match the game is refused as stale,
/// so a retried or duplicated request is never applied to a later position.
pub enum Command {
    Get(Reply<GameView>),
    /// The game as this browser sees it (online games say which seat it holds).
    View(BrowserId, Reply<GameView>),
    Play(Square, usize, Reply<GameView>),
    Undo(usize, Reply<GameView>),
    Redo(usize, Reply<GameView>),
    /// A copy of the game for export (online games add their seats' names and how they ended).
    Export(Reply<crate::export::ExportRecord>),
    /// A copy of the game for the engine (hints, analysis): online games refuse it until they
    /// are finished.
    EngineSnapshot(Reply<GameRecord>),
    /// Requests only online games answer (`crate::online::actor`); a local game refuses them.
    Online(OnlineCommand),
    /// The current game and a receiver of every later change.
    Subscribe(Reply<(GameView, broadcast::Receiver<LiveEvent>)>),
    /// The game was deleted: cancel everything and stop.
    Close(Reply<()>),
    /// The computer's search finished.
    EngineDone {
        generation: u64,
        result: AppResult<Move>,
    },
}

/// The address of a running actor.
#[derive(Clone)]
pub struct GameHandle {
    pub tx: mpsc::Sender<Command>,
    /// Distinguishes successive actors of the same game.
    pub instance: u64,
    /// The game's owner (fixed while the actor runs: a game is claimed before its actor starts).
    pub owner: Owner,
    /// The game's mode (online games are readable by anyone: `ownership::may_access`).
    pub mode: Mode,
}

struct Thinking {
    generation: u64,
    stop: Arc<AtomicBool>,
    started: Instant,
    /// The search's last completed iteration.
    progress: Arc<Mutex<Option<Iteration>>>,
}

struct Actor {
    rec: GameRecord,
    shared: Arc<Shared>,
    self_tx: mpsc::Sender<Command>,
    events: broadcast::Sender<LiveEvent>,
    thinking: Option<Thinking>,
    generation: u64,
    last_activity: Instant,
    /// See [`GameView::version`]: starts at the clock (ms) so it also grows across restarts.
    version: u64,
}

/// Makes the actor of `rec`: its handle, and the future that runs it until the game is closed,
/// abandoned or the server stops (the caller spawns it and registers the handle).
pub fn start(
    rec: GameRecord,
    shared: Arc<Shared>,
    instance: u64,
) -> (GameHandle, impl Future<Output = ()> + Send + 'static) {
    let (tx, rx) = mpsc::channel(64);
    let (events, _) = broadcast::channel(64);
    let (owner, mode) = (rec.meta.owner, rec.meta.mode);
    let actor = Actor {
        rec,
        shared,
        self_tx: tx.clone(),
        events,
        thinking: None,
        generation: 0,
        last_activity: Instant::now(),
        version: now_millis().max(0) as u64,
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

const PROGRESS_EVERY: Duration = Duration::from_millis(500);

impl Actor {
    async fn run(mut self, mut rx: mpsc::Receiver<Command>) {
        let mut shutdown = self.shared.shutdown.clone();
        self.maybe_start_thinking();
        let mut ticker = tokio::time::interval(PROGRESS_EVERY);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
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
                _ = ticker.tick(), if self.thinking.is_some() => self.send_progress(),
                _ = tokio::time::sleep_until(idle_deadline.into()) => {
                    if self.events.receiver_count() == 0 && rx.is_empty() {
                        break; // abandoned
                    }
                    self.last_activity = Instant::now();
                }
                _ = shutdown.changed() => break,
            }
        }
        self.cancel_thinking();
    }

    async fn handle(&mut self, cmd: Command) {
        if !matches!(cmd, Command::EngineDone { .. }) {
            self.last_activity = Instant::now();
        }
        match cmd {
            Command::Get(reply) | Command::View(_, reply) => {
                self.maybe_start_thinking();
                let _ = reply.send(Ok(self.view()));
            }
            Command::Online(cmd) => cmd.refuse(AppError::NotAllowed(
                "this is not an online game (it has no seats)".into(),
            )),
            Command::Export(reply) => {
                let _ = reply.send(Ok(crate::export::ExportRecord::Local(self.rec.clone())));
            }
            Command::EngineSnapshot(reply) => {
                let _ = reply.send(Ok(self.rec.clone()));
            }
            Command::Subscribe(reply) => {
                self.maybe_start_thinking();
                let _ = reply.send(Ok((self.view(), self.events.subscribe())));
            }
            Command::Play(sq, ply, reply) => {
                let r = match self.check_ply(ply) {
                    Ok(()) => self.play(sq).await,
                    Err(e) => Err(e),
                };
                let _ = reply.send(r);
            }
            Command::Undo(ply, reply) => {
                let r = match self.check_ply(ply) {
                    Ok(()) => self.undo().await,
                    Err(e) => Err(e),
                };
                let _ = reply.send(r);
            }
            Command::Redo(ply, reply) => {
                let r = match self.check_ply(ply) {
                    Ok(()) => self.redo().await,
                    Err(e) => Err(e),
                };
                let _ = reply.send(r);
            }
            Command::EngineDone { generation, result } => {
                self.engine_done(generation, result).await
            }
            Command::Close(reply) => {
                let _ = reply.send(Ok(()));
            }
        }
    }

    /// Refuses a request made for another ply than the game's (409 with the current game).
    fn check_ply(&self, ply: usize) -> AppResult<()> {
        if ply == self.rec.game.ply() {
            Ok(())
        } else {
            Err(AppError::Stale(Box::new(self.view())))
        }
    }

    fn view(&self) -> GameView {
        game_view(&self.rec, self.thinking.is_some(), self.version)
    }

    /// Marks a change of the game.
    fn bump(&mut self) {
        self.version = (self.version + 1).max(now_millis().max(0) as u64);
    }

    fn broadcast_game(&self) {
        if self.events.receiver_count() == 0 {
            return;
        }
        match serde_json::to_string(&self.view()) {
            Ok(json) => {
                let _ = self.events.send(LiveEvent::Game(json.into()));
            }
            Err(e) => eprintln!("virada-server: cannot serialise game: {e}"),
        }
    }

    fn broadcast_error(&self, message: &str) {
        let body = AppError::Internal(message.to_string()).body();
        if let Ok(json) = serde_json::to_string(&body) {
            let _ = self.events.send(LiveEvent::Error(json.into()));
        }
    }

    fn send_progress(&self) {
        let Some(t) = &self.thinking else { return };
        if self.events.receiver_count() == 0 {
            return;
        }
        let p = t.progress.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let view = ThinkingView::new(p.as_ref(), t.started.elapsed().as_millis() as u64);
        if let Ok(json) = serde_json::to_string(&view) {
            let _ = self.events.send(LiveEvent::Thinking(json.into()));
        }
    }

    /// Stores `next` and, once it is on disk, makes it the current state.
    async fn commit(&mut self, mut next: GameRecord) -> AppResult<()> {
        next.meta.updated_at = now_millis().max(self.rec.meta.updated_at);
        let stored = next.clone();
        let found = self
            .shared
            .db
            .call(move |conn| db::update_moves(conn, &stored))
            .await?;
        if !found {
            return Err(AppError::not_found_game(&next.meta.id));
        }
        self.rec = next;
        self.bump();
        Ok(())
    }

    async fn play(&mut self, sq: Square) -> AppResult<GameView> {
        let pos = self.rec.game.position();
        if pos.is_game_over() {
            return Err(AppError::GameOver(format!(
                "the game is over ({}): no more moves",
                pos.disc_counts()
            )));
        }
        if matches!(self.rec.meta.mode, Mode::Computer { human, .. } if human != pos.side_to_move())
        {
            let msg = if self.thinking.is_some() {
                "the computer is thinking; wait for its move"
            } else {
                "it is the computer's turn"
            };
            return Err(AppError::NotYourTurn(msg.into()));
        }
        if let Err(reason) = pos.check(Move::Play(sq)) {
            return Err(AppError::IllegalMove {
                square: Some(sq.to_string()),
                message: reason.to_string(),
            });
        }
        let mut next = self.rec.clone();
        next.game
            .play(Move::Play(sq))
            .map_err(|e| AppError::Internal(e.to_string()))?;
        next.game.play_forced_passes();
        self.commit(next).await?;
        self.maybe_start_thinking();
        self.broadcast_game();
        Ok(self.view())
    }

    async fn undo(&mut self) -> AppResult<GameView> {
        let mut next = self.rec.clone();
        let changed = match self.rec.meta.mode {
            Mode::Friend | Mode::Online => next.game.undo_turn(),
            Mode::Computer { human, .. } => next.game.undo_to_turn(human),
        };
        if !changed {
            return Ok(self.view());
        }
        self.cancel_thinking();
        self.commit(next).await?;
        self.maybe_start_thinking();
        self.broadcast_game();
        Ok(self.view())
    }

    async fn redo(&mut self) -> AppResult<GameView> {
        if self.thinking.is_some() {
            return Err(AppError::NotYourTurn(
                "the computer is thinking; wait for its move".into(),
            ));
        }
        let mut next = self.rec.clone();
        let changed = match self.rec.meta.mode {
            Mode::Friend | Mode::Online => next.game.redo_turn(),
            Mode::Computer { human, .. } => next.game.redo_to_turn(human),
        };
        if !changed {
            return Ok(self.view());
        }
        self.commit(next).await?;
        self.maybe_start_thinking();
        self.broadcast_game();
        Ok(self.view())
    }

    fn cancel_thinking(&mut self) {
        if let Some(t) = self.thinking.take() {
            t.stop.store(true, Ordering::Relaxed);
            self.bump();
        }
    }

    /// Starts the computer's search if it is the computer's turn and it is not already thinking.
    fn maybe_start_thinking(&mut self) {
        if self.thinking.is_some() || !self.rec.computer_to_move() {
            return;
        }
        let Some(level) = self.rec.meta.mode.level().map(|l| l.get()) else {
            return;
        };
        self.generation += 1;
        let generation = self.generation;
        let stop = Arc::new(AtomicBool::new(false));
        let progress = Arc::new(Mutex::new(None));
        let pos = self.rec.game.position();
        let seed =
            self.rec.meta.seed ^ (self.rec.game.ply() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let pool = self.shared.pool.clone();
        let tx = self.self_tx.clone();
        // The server's cap on a move counts from when the search starts (the pool sees to
        // that), so a move that waited for a worker still gets its whole time.
        let spec = JobSpec {
            priority: Priority::Move,
            game: self.rec.meta.id.clone(),
            stop: stop.clone(),
            time_cap: Some(self.shared.config.move_time_limit),
        };
        let level = Level::new(level);
        // Beginner levels pick a weaker move than their search's best: showing that best move
        // while they think would give it away.
        let show_progress = level.spec().mistakes.is_none();
        let (job_stop, job_progress) = (stop.clone(), progress.clone());
        tokio::spawn(async move {
            let result = pool
                .run(spec, move |engine| {
                    engine.choose_move(pos, level, seed, &job_stop, &mut |it: &Iteration| {
                        if show_progress {
                            *job_progress.lock().unwrap_or_else(|e| e.into_inner()) =
                                Some(it.clone());
                        }
                    })
                })
                .await;
            let _ = tx.send(Command::EngineDone { generation, result }).await;
        });
        self.thinking = Some(Thinking {
            generation,
            stop,
            started: Instant::now(),
            progress,
        });
        self.bump();
    }

    async fn engine_done(&mut self, generation: u64, result: AppResult<Move>) {
        match &self.thinking {
            Some(t) if t.generation == generation => {}
            _ => return, // cancelled (undo, deletion): the answer is stale
        }
        self.thinking = None;
        self.bump();
        let mv = match result {
            Ok(mv) => mv,
            Err(e) => {
                self.broadcast_error(&format!("the computer could not move: {}", e.message()));
                self.broadcast_game();
                return;
            }
        };
        if !self.rec.computer_to_move() {
            return;
        }
        let pos = self.rec.game.position();
        let mv = if pos.check(mv).is_ok() {
            mv
        } else {
            // Never trust a move blindly: an engine fault must not corrupt the game.
            eprintln!(
                "virada-server: engine proposed illegal {mv} in {}; playing the first legal move",
                self.rec.meta.id
            );
            match pos.legal_moves().first() {
                Some(sq) => Move::Play(sq),
                None => Move::Pass,
            }
        };
        let mut next = self.rec.clone();
        if next.game.play(mv).is_err() {
            return;
        }
        next.game.play_forced_passes();
        if let Err(e) = self.commit(next).await {
            self.broadcast_error(&format!(
                "the computer's move could not be stored: {}",
                e.message()
            ));
            self.broadcast_game();
            return;
        }
        self.maybe_start_thinking();
        self.broadcast_game();
    }
}
