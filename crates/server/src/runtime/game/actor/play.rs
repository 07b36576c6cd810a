//! What players do: moves, undo and redo (local games), resignation, abort, takebacks, chat
//! and rematches (online games). Each is checked (seat, phase, ply, turn, rules), stored, then
//! broadcast.

use super::{idx, Actor};
use crate::error::{AppError, AppResult};
use crate::identity::BrowserId;
use crate::model::online::{
    has_moved, running_clock, ChatLine, End, OnlineGame, Phase, TimeControl, CHAT_MAX,
};
use crate::model::{GameMeta, GameRecord, Mode};
use crate::runtime::game::{Action, CHAT_BURST, CHAT_WINDOW_MS};
use crate::util::{new_game_id, now_millis, random_u64};
use crate::view::online::{ChatLineView, ChatMessage};
use virada_rules::{Color, Game, Move, Square};
use virada_store::{Change, StoredGame};

impl Actor {
    fn check_ply(&self, ply: usize, seat: Option<Color>) -> AppResult<()> {
        if ply == self.rec.game.ply() {
            Ok(())
        } else {
            Err(AppError::Stale(Box::new(self.view_as(seat))))
        }
    }

    /// The online state, for an action only online games take.
    fn online_state(&self) -> AppResult<OnlineGame> {
        self.online().cloned().map_err(|_| {
            AppError::NotAllowed(
                "takebacks, aborts, chat and rematches are for online games".into(),
            )
        })
    }

    /// A resignation on one device: against the computer the person resigns, between friends
    /// the side to move. The game ends (stored with its result) whatever the board.
    async fn resign_local(&mut self, ply: usize) -> AppResult<()> {
        self.require_playing()?;
        self.check_ply(ply, None)?;
        let pos = self.rec.game.position();
        if pos.is_game_over() {
            return Err(AppError::GameOver(format!(
                "the game is over ({}): there is nothing to resign",
                pos.disc_counts()
            )));
        }
        let loser = self
            .rec
            .meta
            .mode
            .human_color()
            .unwrap_or(pos.side_to_move());
        let mut next = self
            .online
            .clone()
            .unwrap_or_else(|| OnlineGame::local(TimeControl::None {}, self.clock.now_ms()));
        if let Phase::Playing { .. } = next.phase {
            // The clock that ran stops where it was.
            let now = self.clock.now_ms();
            let running = running_clock(&self.rec, &next);
            next.black_ms = next.remaining_at(Color::Black, running, now);
            next.white_ms = next.remaining_at(Color::White, running, now);
        }
        next.phase = Phase::Finished(End::Resign(loser));
        self.cancel_thinking();
        self.commit(self.rec.clone(), Some(next), Vec::new())
            .await?;
        self.broadcast_game();
        Ok(())
    }

    fn require_playing(&self) -> AppResult<()> {
        let Some(online) = &self.online else {
            return Ok(());
        };
        match online.phase {
            // A game stored playing on a finished board (set up from a finished position before
            // that was refused) has nothing left to play, resign or abort.
            Phase::Playing { .. } if self.rec.game.position().is_game_over() => Err(
                AppError::GameOver("the game is over: no moves are left".into()),
            ),
            Phase::Playing { .. } => Ok(()),
            Phase::Waiting => Err(AppError::NotAllowed(
                "the game has not started: it is waiting for an opponent".into(),
            )),
            Phase::Finished(_) => Err(AppError::GameOver("the game is over".into())),
        }
    }

    /// Applies `who`'s action. In an online game `who` must hold a seat and acts for it; a
    /// local game's actions come from its owner (checked when the handle was given out).
    pub(super) async fn act(
        &mut self,
        who: BrowserId,
        action: Action,
        arrived_ms: i64,
    ) -> AppResult<()> {
        // A clock stalled by a store failure: the stalled time is not the mover's.
        self.resume_clock(arrived_ms);
        let seat = match self.online() {
            Err(_) => None,
            Ok(o) => Some(o.seat_of(who).ok_or_else(|| {
                AppError::NotYourSeat(
                    "you do not hold a seat in this game: spectators may only watch".into(),
                )
            })?),
        };
        if self.rec.meta.record.is_some() {
            // A record opened from a file or a link keeps the moves it was given.
            return Err(AppError::NotAllowed(
                "a game record is stepped through and analysed, not played on: to play from one \
                 of its positions, start a new game set up from it"
                    .into(),
            ));
        }
        match (action, seat) {
            (Action::Move { square, ply }, seat) => self.play(seat, square, ply, arrived_ms).await,
            (Action::Undo { ply }, None) => self.undo(ply).await,
            (Action::Redo { ply }, None) => self.redo(ply).await,
            (Action::Resign { ply }, None) => self.resign_local(ply).await,
            (Action::Undo { .. } | Action::Redo { .. }, Some(_)) => Err(AppError::NotAllowed(
                "an online game takes a move back by a takeback request".into(),
            )),
            (_, None) => Err(AppError::NotAllowed(
                "takebacks, aborts, chat and rematches are for online games".into(),
            )),
            (action, Some(seat)) => self.act_online(seat, action).await,
        }
    }

    /// The actions only online games take.
    async fn act_online(&mut self, seat: Color, action: Action) -> AppResult<()> {
        let online = self.online_state()?;
        match action {
            Action::Move { .. } | Action::Undo { .. } | Action::Redo { .. } => Err(
                AppError::Internal("moves are not online-only actions".into()),
            ),
            Action::Resign { ply } => {
                self.require_playing()?;
                self.check_ply(ply, Some(seat))?;
                let mut next = online.clone();
                next.phase = Phase::Finished(End::Resign(seat));
                next.offers = Default::default();
                self.commit_online(next, Vec::new()).await
            }
            Action::Abort { ply } => {
                if let Phase::Finished(_) = online.phase {
                    return Err(AppError::GameOver("the game is over".into()));
                }
                if self.rec.game.position().is_game_over() {
                    return Err(AppError::GameOver(
                        "the game is over: no moves are left".into(),
                    ));
                }
                self.check_ply(ply, Some(seat))?;
                if has_moved(&self.rec.game, Color::Black)
                    && has_moved(&self.rec.game, Color::White)
                {
                    return Err(AppError::NotAllowed(
                        "both sides have moved: a game can be aborted only before; resign instead"
                            .into(),
                    ));
                }
                let mut next = online.clone();
                next.phase = Phase::Finished(End::Abort);
                next.offers = Default::default();
                self.commit_online(next, Vec::new()).await
            }
            Action::Takeback { ply } => {
                self.require_playing()?;
                if !online.time_control.allows_takeback() {
                    return Err(AppError::NotAllowed(
                        "takebacks are for untimed and correspondence games only".into(),
                    ));
                }
                self.check_ply(ply, Some(seat))?;
                match online.offers.takeback {
                    Some(c) if c == seat => {
                        return Err(AppError::NotAllowed("you have already asked".into()))
                    }
                    Some(_) => {
                        return Err(AppError::NotAllowed(
                            "your opponent asked for a takeback: answer it".into(),
                        ))
                    }
                    None => {}
                }
                if !self.rec.game.clone().undo_to_turn(seat) {
                    return Err(AppError::NotAllowed("you have no move to take back".into()));
                }
                let mut next = online.clone();
                next.offers.takeback = Some(seat);
                self.commit_online(next, Vec::new()).await
            }
            Action::TakebackAnswer { accept, ply } => {
                self.require_playing()?;
                self.check_ply(ply, Some(seat))?;
                let asker = !seat;
                if online.offers.takeback != Some(asker) {
                    return Err(AppError::NotAllowed(
                        "there is no takeback offer to answer".into(),
                    ));
                }
                let mut next = online.clone();
                next.offers.takeback = None;
                if !accept {
                    return self.commit_online(next, Vec::new()).await;
                }
                let mut rec = self.rec.clone();
                rec.game.undo_to_turn(asker);
                // No redo list in online games: the moves taken back are gone.
                rec.game = Game::from_moves(rec.game.start(), rec.game.moves().iter().copied())
                    .map_err(|e| AppError::Internal(format!("takeback replay: {e}")))?;
                next.phase = Phase::Playing {
                    turn_started_at: self.clock.now_ms(),
                };
                if let (TimeControl::Correspondence { .. }, Some(allowance)) =
                    (next.time_control, next.time_control.allowance_ms())
                {
                    next.black_ms = allowance;
                    next.white_ms = allowance;
                }
                self.commit(rec, Some(next), Vec::new()).await?;
                self.broadcast_game();
                Ok(())
            }
            Action::Chat { text } => self.chat(online, seat, &text).await,
            Action::Rematch => {
                Self::require_rematch_possible(&online)?;
                match online.offers.rematch {
                    Some(c) if c == seat => Err(AppError::NotAllowed(
                        "you have already offered a rematch".into(),
                    )),
                    // Both asked: that is agreement.
                    Some(_) => self.accept_rematch(online).await,
                    None => {
                        let mut next = online.clone();
                        next.offers.rematch = Some(seat);
                        self.commit_online(next, Vec::new()).await
                    }
                }
            }
            Action::RematchAnswer { accept } => {
                Self::require_rematch_possible(&online)?;
                if online.offers.rematch != Some(!seat) {
                    return Err(AppError::NotAllowed(
                        "there is no rematch offer to answer".into(),
                    ));
                }
                if accept {
                    self.accept_rematch(online).await
                } else {
                    let mut next = online.clone();
                    next.offers.rematch = None;
                    self.commit_online(next, Vec::new()).await
                }
            }
        }
    }

    /// A move: the rules crate's checked `play` says whether it is legal.
    async fn play(
        &mut self,
        seat: Option<Color>,
        square: Square,
        ply: usize,
        arrived_ms: i64,
    ) -> AppResult<()> {
        self.require_playing()?;
        self.check_ply(ply, seat)?;
        let pos = self.rec.game.position();
        if pos.is_game_over() {
            return Err(AppError::GameOver(format!(
                "the game is over ({}): no more moves",
                pos.disc_counts()
            )));
        }
        match seat {
            Some(seat) if pos.side_to_move() != seat => {
                return Err(AppError::NotYourTurn(format!(
                    "it is {}'s turn",
                    pos.side_to_move().name()
                )))
            }
            None if self.rec.computer_to_move() => {
                return Err(AppError::NotYourTurn(
                    if self.thinking.is_some() {
                        "the computer is thinking; wait for its move"
                    } else {
                        "it is the computer's turn"
                    }
                    .into(),
                ))
            }
            _ => {}
        }
        let mover = seat.unwrap_or(pos.side_to_move());
        if self.flag_deadline().is_some_and(|d| arrived_ms >= d) {
            let aborted = self.flag_fall(mover).await? == End::Abort;
            return Err(AppError::GameOver(
                if aborted {
                    "the game was aborted: the first move did not arrive in time"
                } else {
                    "your time ran out before the move arrived"
                }
                .into(),
            ));
        }
        let mut rec = self.rec.clone();
        rec.game
            .play(Move::Play(square))
            .map_err(|e| AppError::IllegalMove {
                square: Some(square.to_string()),
                message: e.reason.to_string(),
            })?;
        rec.game.play_forced_passes();
        let online = self.charged(&rec, mover, arrived_ms);
        if rec.computer_to_move() {
            self.check_engine_room().await?;
        }
        self.commit_at(rec, online, Vec::new(), arrived_ms).await?;
        self.maybe_start_thinking();
        self.broadcast_game();
        Ok(())
    }

    /// The online part after `mover`'s move that arrived at `arrived_ms` led to `rec`: its
    /// clock charged (the next turn starts now), offers cleared, finished if the board is.
    pub(super) fn charged(
        &self,
        rec: &GameRecord,
        mover: Color,
        arrived_ms: i64,
    ) -> Option<OnlineGame> {
        let mut next = self.online.clone()?;
        let first = !has_moved(&self.rec.game, mover);
        next.charge_move(mover, first, arrived_ms, self.clock.now_ms());
        next.offers.takeback = None;
        if rec.game.position().is_game_over() {
            next.phase = Phase::Finished(End::Normal);
        }
        Some(next)
    }

    /// Undo and redo on one device: not once the game was resigned or lost on time, nor with a
    /// clock (the time spent cannot be given back).
    fn require_undoable(&self) -> AppResult<()> {
        let Some(online) = &self.online else {
            return Ok(());
        };
        if let Phase::Finished(End::Resign(_) | End::Time(_) | End::Deadline(_)) = online.phase {
            return Err(AppError::GameOver(
                "the game is over: it was resigned or lost on time".into(),
            ));
        }
        if online.is_timed() {
            return Err(AppError::NotAllowed(
                "a game with a clock takes no moves back".into(),
            ));
        }
        Ok(())
    }

    /// Back to the previous turn (a computer game: the person's previous turn).
    async fn undo(&mut self, ply: usize) -> AppResult<()> {
        self.require_undoable()?;
        self.check_ply(ply, None)?;
        let mut next = self.rec.clone();
        let changed = match self.rec.meta.mode {
            Mode::Friend | Mode::Online => next.game.undo_turn(),
            Mode::Computer { human, .. } => next.game.undo_to_turn(human),
        };
        if !changed {
            // Nothing to change: a new version all the same, so the client waiting for an
            // answer sees one.
            self.bump();
            self.broadcast_game();
            return Ok(());
        }
        self.cancel_thinking();
        self.commit(next, self.online.clone(), Vec::new()).await?;
        self.maybe_start_thinking();
        self.broadcast_game();
        Ok(())
    }

    async fn redo(&mut self, ply: usize) -> AppResult<()> {
        self.require_undoable()?;
        self.check_ply(ply, None)?;
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
            // Nothing to change: a new version all the same, so the client waiting for an
            // answer sees one.
            self.bump();
            self.broadcast_game();
            return Ok(());
        }
        self.commit(next, self.online.clone(), Vec::new()).await?;
        self.maybe_start_thinking();
        self.broadcast_game();
        Ok(())
    }

    async fn chat(&mut self, online: OnlineGame, seat: Color, text: &str) -> AppResult<()> {
        let text = crate::user_text::checked("chat", text, CHAT_MAX)?;
        let now = self.clock.now_ms();
        let times = &mut self.chat_times[idx(seat)];
        while times.front().is_some_and(|t| now - t >= CHAT_WINDOW_MS) {
            times.pop_front();
        }
        if times.len() >= CHAT_BURST {
            return Err(AppError::TooManyRequests(format!(
                "at most {CHAT_BURST} chat lines in {} s",
                CHAT_WINDOW_MS / 1000
            )));
        }
        times.push_back(now);
        let line = ChatLine {
            n: online.chat_count + 1,
            from: seat,
            text,
            at: now,
        };
        let mut next = online;
        next.push_chat(line.clone());
        self.commit(
            self.rec.clone(),
            Some(next),
            vec![Change::Chat(line.clone())],
        )
        .await?;
        self.broadcast_same(&ChatMessage {
            kind: "chat",
            line: ChatLineView::from(&line),
        });
        Ok(())
    }

    fn require_rematch_possible(online: &OnlineGame) -> AppResult<()> {
        if !matches!(online.phase, Phase::Finished(_)) {
            return Err(AppError::NotAllowed(
                "a rematch is offered after the game".into(),
            ));
        }
        if !(online.black.is_taken() && online.white.is_taken()) {
            return Err(AppError::NotAllowed(
                "this game never had an opponent".into(),
            ));
        }
        if online.rematch_game.is_some() {
            return Err(AppError::NotAllowed(
                "the rematch has already been made".into(),
            ));
        }
        Ok(())
    }

    /// The rematch: colours swapped, same time control and start, both seats held, playing.
    async fn accept_rematch(&mut self, old: OnlineGame) -> AppResult<()> {
        let now = now_millis();
        let mut game = Game::from_position(self.rec.game.start());
        game.play_forced_passes();
        let rec = GameRecord {
            meta: GameMeta {
                id: new_game_id(),
                created_at: now,
                updated_at: now,
                mode: Mode::Online,
                start_kind: self.rec.meta.start_kind,
                opening: self.rec.meta.opening.clone(),
                seed: random_u64(),
                // The rematch belongs to the same creator (both players hold seats in it).
                owner: self.rec.meta.owner,
                record: None,
            },
            game,
        };
        let tc = old.time_control;
        let allowance = tc.allowance_ms().unwrap_or(0);
        let online = OnlineGame {
            time_control: tc,
            black: old.white.clone(),
            white: old.black.clone(),
            phase: Phase::Playing {
                turn_started_at: self.clock.now_ms(),
            },
            black_ms: allowance,
            white_ms: allowance,
            offers: Default::default(),
            rematch_game: None,
            chat: Vec::new(),
            chat_count: 0,
            rated: old.rated,
        };
        let mut next = old;
        next.offers.rematch = None;
        next.rematch_game = Some(rec.meta.id.clone());
        let new = StoredGame {
            rec,
            online: Some(online),
        };
        self.commit_online(next, vec![Change::NewGame(Box::new(new))])
            .await
    }
}
