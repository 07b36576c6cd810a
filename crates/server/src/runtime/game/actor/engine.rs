//! The computer's turns: a search on the engine pool, its progress (`thinking` messages), and
//! its move, played and stored like a person's.

use super::Actor;
use crate::error::{AppError, AppResult};
use crate::model::online::{Phase, TimeControl};
use crate::runtime::game::Msg;
use crate::runtime::pool::{JobSpec, Priority};
use crate::runtime::shared::Shared;
use crate::view::online::ErrorMessage;
use crate::view::ThinkingView;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use virada_engine::time::Clock as EngineClock;
use virada_engine::{Iteration, Level};
use virada_rules::Move;

/// The client game `id`'s computer moves count for in the engine queue (`engine_client`).
async fn engine_client(shared: &Shared, id: &str) -> AppResult<String> {
    let row = shared.store.games().game_row(id).await?;
    Ok(crate::runtime::engine_client::of_game(id, row.as_ref()))
}

/// Time kept back from the computer's clock for what follows its search: the answer's trip to
/// the actor, and the move's storing (the clock stops when the move reaches the actor).
const CLOCK_MARGIN_MS: i64 = 250;

/// The clock the engine budgets from, given `left_ms` on the game clock: the margin off (and a
/// tenth of a short clock), never below zero.
fn clock_share(left_ms: i64) -> Duration {
    let margin = CLOCK_MARGIN_MS.min(left_ms / 10) + left_ms / 20;
    Duration::from_millis((left_ms - margin).max(0) as u64)
}

pub(super) struct Thinking {
    generation: u64,
    stop: Arc<AtomicBool>,
    started: Instant,
    /// The search's last completed iteration.
    progress: Arc<Mutex<Option<Iteration>>>,
}

/// `{"type":"thinking","thinking":{...}}`.
#[derive(Serialize)]
struct ThinkingMessage<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    thinking: &'a ThinkingView,
}

impl Actor {
    pub(super) fn send_progress(&self) {
        let Some(t) = &self.thinking else { return };
        if self.events.receiver_count() == 0 {
            return;
        }
        let p = t.progress.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let view = ThinkingView::new(p.as_ref(), t.started.elapsed().as_millis() as u64);
        self.broadcast_same(&ThinkingMessage {
            kind: "thinking",
            thinking: &view,
        });
    }

    /// Refuses (429 `too_many_computer_moves`) a change that would queue the computer's reply
    /// when this game's client already has as many computer moves waiting as it may (`pool`):
    /// asked before the change is stored.
    pub(super) async fn check_engine_room(&self) -> AppResult<()> {
        let client = engine_client(&self.shared, &self.rec.meta.id).await?;
        self.shared.pool.check_move_room(&client)
    }

    /// A refusal with its code and params, for the game's sockets.
    fn broadcast_refusal(&self, e: &AppError) {
        self.broadcast_same(&ErrorMessage {
            kind: "error",
            code: e.code(),
            message: e.message(),
            reference: None,
            params: e.body().error.params,
        });
    }

    pub(super) fn cancel_thinking(&mut self) {
        if let Some(t) = self.thinking.take() {
            t.stop.store(true, Ordering::Relaxed);
            self.bump();
        }
    }

    /// Starts the computer's search if it is the computer's turn and it is not already thinking.
    pub(super) fn maybe_start_thinking(&mut self) {
        // Only the game's owner searches (on its own engine pool).
        if !self.leader || self.thinking.is_some() || !self.rec.computer_to_move() {
            return;
        }
        // A game resigned or lost on time is over whatever the board.
        if let Some(o) = &self.online {
            if !matches!(o.phase, Phase::Playing { .. }) {
                return;
            }
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
        let shared = self.shared.clone();
        let tx = self.self_tx.clone();
        // The server's cap on a move counts from when the search starts (the pool sees to
        // that), so a move that waited for a worker still gets its whole time. The job waits in
        // its client's line of its level's class (`pool`).
        let mut spec = JobSpec {
            priority: Priority::of_level(level),
            game: self.rec.meta.id.clone(),
            client: String::new(),
            stop: stop.clone(),
            time_cap: Some(self.shared.config.move_time_limit),
        };
        let level = Level::new(level);
        // On a clock the computer budgets its move from the time it has left when its search
        // starts (waiting for a worker counts), less a margin for storing and sending the move.
        let deadline = self.flag_deadline();
        let increment = match self.online.as_ref().map(|o| o.time_control) {
            Some(TimeControl::Clock {
                increment_seconds, ..
            }) => Duration::from_secs(u64::from(increment_seconds)),
            _ => Duration::ZERO,
        };
        let time = self.clock.clone();
        // Beginner levels pick a weaker move than their search's best: showing that best move
        // while they think would give it away.
        let show_progress = level.spec().mistakes.is_none();
        let (job_stop, job_progress) = (stop.clone(), progress.clone());
        tokio::spawn(async move {
            let result = match engine_client(&shared, &spec.game).await {
                Err(e) => Err(e),
                Ok(client) => {
                    spec.client = client;
                    shared
                        .pool
                        .run(spec, move |engine| {
                            let clock = deadline.map(|d| EngineClock {
                                remaining: clock_share(d - time.now_ms()),
                                increment,
                            });
                            engine.choose_move(
                                pos,
                                level,
                                clock,
                                seed,
                                &job_stop,
                                &mut |it: &Iteration| {
                                    if show_progress {
                                        *job_progress.lock().unwrap_or_else(|e| e.into_inner()) =
                                            Some(it.clone());
                                    }
                                },
                            )
                        })
                        .await
                }
            };
            let _ = tx.send(Msg::EngineDone { generation, result }).await;
        });
        self.thinking = Some(Thinking {
            generation,
            stop,
            started: Instant::now(),
            progress,
        });
        self.bump();
    }

    pub(super) async fn engine_done(&mut self, generation: u64, result: AppResult<Move>) {
        match &self.thinking {
            Some(t) if t.generation == generation => {}
            _ => return, // cancelled (undo, deletion): the answer is stale
        }
        self.thinking = None;
        self.bump();
        let mv = match result {
            Ok(mv) => mv,
            Err(e) if e.code() == "too_many_computer_moves" => {
                // Its client has its share of moves waiting: asked again when the game is next
                // opened or looked at.
                self.broadcast_refusal(&e);
                self.broadcast_game();
                return;
            }
            Err(e) => {
                self.broadcast_error(&format!("the computer could not move: {}", e.message()));
                self.broadcast_game();
                return;
            }
        };
        if !self.rec.computer_to_move() {
            return;
        }
        let arrived = self.clock.now_ms();
        if self.flag_deadline().is_some_and(|d| arrived >= d) {
            // Too late: the computer lost on time (unless its flag already fell).
            if let Some(computer) = self.rec.meta.computer_color() {
                if let Err(e) = self.flag_fall(computer).await {
                    self.broadcast_error(&format!(
                        "the flag fall could not be stored: {}",
                        e.message()
                    ));
                }
            }
            return;
        }
        let mut next = self.rec.clone();
        if next.game.play(mv).is_err() {
            // Never trust a move blindly: an engine fault must not corrupt the game.
            tracing::error!(%mv, "the engine proposed an illegal move; playing the first legal move");
            let pos = self.rec.game.position();
            let first = match pos.legal_moves().first() {
                Some(sq) => Move::Play(sq),
                None => Move::Pass,
            };
            if next.game.play(first).is_err() {
                return;
            }
        }
        next.game.play_forced_passes();
        let online = match self.rec.meta.computer_color() {
            Some(computer) => self.charged(&next, computer, arrived),
            None => self.online.clone(),
        };
        if let Err(e) = self.commit(next, online, Vec::new()).await {
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
