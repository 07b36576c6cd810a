//! The players' actions on an online game: moves, resign, abort, takeback, chat, rematch.
//! Each is checked (seat, phase, ply, rules), stored, then broadcast.

use super::super::model::{checked_text, ChatLine, End, OnlineGame, Phase, TimeControl, CHAT_MAX};
use super::super::store::Extra;
use super::super::view::{ChatLineView, ChatMessage};
use super::{idx, Action, OnlineActor, CHAT_BURST, CHAT_WINDOW_MS};
use crate::error::{AppError, AppResult};
use crate::model::{GameMeta, GameRecord, Mode};
use crate::util::{new_game_id, now_millis, random_u64};
use virada_rules::{Color, Game, Move, Square};

impl OnlineActor {
    // ---------- actions ----------

    fn check_ply(&self, ply: usize, seat: Color) -> AppResult<()> {
        if ply == self.rec.game.ply() {
            Ok(())
        } else {
            Err(AppError::Stale(Box::new(self.view_as(Some(seat)))))
        }
    }

    fn require_playing(&self) -> AppResult<()> {
        match self.online.phase {
            Phase::Playing { .. } => Ok(()),
            Phase::Waiting => Err(AppError::NotAllowed(
                "the game has not started: it is waiting for an opponent".into(),
            )),
            Phase::Finished(_) => Err(AppError::GameOver("the game is over".into())),
        }
    }

    pub(super) async fn act(
        &mut self,
        seat: Color,
        action: Action,
        arrived_ms: i64,
    ) -> AppResult<()> {
        match action {
            Action::Move { square, ply } => self.play(seat, square, ply, arrived_ms).await,
            Action::Resign { ply } => {
                self.require_playing()?;
                self.check_ply(ply, seat)?;
                let mut next = self.online.clone();
                next.phase = Phase::Finished(End::Resign(seat));
                next.offers = Default::default();
                self.commit_online(next, Vec::new()).await
            }
            Action::Abort { ply } => {
                if let Phase::Finished(_) = self.online.phase {
                    return Err(AppError::GameOver("the game is over".into()));
                }
                self.check_ply(ply, seat)?;
                let played = self
                    .rec
                    .game
                    .moves()
                    .iter()
                    .filter(|m| **m != Move::Pass)
                    .count();
                if played >= 2 {
                    return Err(AppError::NotAllowed(format!(
                        "{played} moves have been played: a game can be aborted only before 2; resign instead"
                    )));
                }
                let mut next = self.online.clone();
                next.phase = Phase::Finished(End::Abort);
                next.offers = Default::default();
                self.commit_online(next, Vec::new()).await
            }
            Action::Takeback { ply } => {
                self.require_playing()?;
                if !self.online.time_control.allows_takeback() {
                    return Err(AppError::NotAllowed(
                        "takebacks are for untimed and correspondence games only".into(),
                    ));
                }
                self.check_ply(ply, seat)?;
                match self.online.offers.takeback {
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
                let mut next = self.online.clone();
                next.offers.takeback = Some(seat);
                self.commit_online(next, Vec::new()).await
            }
            Action::TakebackAnswer { accept, ply } => {
                self.require_playing()?;
                self.check_ply(ply, seat)?;
                let asker = !seat;
                if self.online.offers.takeback != Some(asker) {
                    return Err(AppError::NotAllowed(
                        "there is no takeback offer to answer".into(),
                    ));
                }
                let mut next = self.online.clone();
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
                self.commit(rec, next, Vec::new()).await?;
                self.broadcast_game();
                Ok(())
            }
            Action::Chat { text } => self.chat(seat, &text).await,
            Action::Rematch => {
                self.require_rematch_possible()?;
                match self.online.offers.rematch {
                    Some(c) if c == seat => Err(AppError::NotAllowed(
                        "you have already offered a rematch".into(),
                    )),
                    // Both asked: that is agreement.
                    Some(_) => self.accept_rematch().await,
                    None => {
                        let mut next = self.online.clone();
                        next.offers.rematch = Some(seat);
                        self.commit_online(next, Vec::new()).await
                    }
                }
            }
            Action::RematchAnswer { accept } => {
                self.require_rematch_possible()?;
                if self.online.offers.rematch != Some(!seat) {
                    return Err(AppError::NotAllowed(
                        "there is no rematch offer to answer".into(),
                    ));
                }
                if accept {
                    self.accept_rematch().await
                } else {
                    let mut next = self.online.clone();
                    next.offers.rematch = None;
                    self.commit_online(next, Vec::new()).await
                }
            }
        }
    }

    async fn play(
        &mut self,
        seat: Color,
        square: Square,
        ply: usize,
        arrived_ms: i64,
    ) -> AppResult<()> {
        self.require_playing()?;
        self.check_ply(ply, seat)?;
        let pos = self.rec.game.position();
        if pos.side_to_move() != seat {
            return Err(AppError::NotYourTurn(format!(
                "it is {}'s turn",
                pos.side_to_move().name()
            )));
        }
        if self.flag_deadline().is_some_and(|d| arrived_ms >= d) {
            self.flag_fall(seat).await?;
            return Err(AppError::GameOver(
                "your time ran out before the move arrived".into(),
            ));
        }
        if let Err(reason) = pos.check(Move::Play(square)) {
            return Err(AppError::IllegalMove {
                square: Some(square.to_string()),
                message: reason.to_string(),
            });
        }
        let mut rec = self.rec.clone();
        rec.game
            .play(Move::Play(square))
            .map_err(|e| AppError::Internal(e.to_string()))?;
        rec.game.play_forced_passes();
        let mut next = self.online.clone();
        next.charge_move(seat, arrived_ms, self.clock.now_ms());
        next.offers.takeback = None;
        if rec.game.position().is_game_over() {
            next.phase = Phase::Finished(End::Normal);
        }
        self.commit(rec, next, Vec::new()).await?;
        self.broadcast_game();
        Ok(())
    }

    async fn chat(&mut self, seat: Color, text: &str) -> AppResult<()> {
        let text = checked_text("chat text", text, CHAT_MAX).map_err(AppError::BadRequest)?;
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
            n: self.online.chat_count + 1,
            from: seat,
            text,
            at: now,
        };
        let mut next = self.online.clone();
        next.push_chat(line.clone());
        self.commit(self.rec.clone(), next, vec![Extra::Chat(line.clone())])
            .await?;
        self.broadcast_same(&ChatMessage {
            kind: "chat",
            line: ChatLineView::from(&line),
        });
        Ok(())
    }

    fn require_rematch_possible(&self) -> AppResult<()> {
        if !matches!(self.online.phase, Phase::Finished(_)) {
            return Err(AppError::NotAllowed(
                "a rematch is offered after the game".into(),
            ));
        }
        if !(self.online.black.is_taken() && self.online.white.is_taken()) {
            return Err(AppError::NotAllowed(
                "this game never had an opponent".into(),
            ));
        }
        if self.online.rematch_game.is_some() {
            return Err(AppError::NotAllowed(
                "the rematch has already been made".into(),
            ));
        }
        Ok(())
    }

    /// The rematch: colours swapped, same time control and start, both seats held, playing.
    async fn accept_rematch(&mut self) -> AppResult<()> {
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
            },
            game,
        };
        let tc = self.online.time_control;
        let allowance = tc.allowance_ms().unwrap_or(0);
        let online = OnlineGame {
            time_control: tc,
            black: self.online.white.clone(),
            white: self.online.black.clone(),
            phase: Phase::Playing {
                turn_started_at: self.clock.now_ms(),
            },
            black_ms: allowance,
            white_ms: allowance,
            offers: Default::default(),
            rematch_game: None,
            chat: Vec::new(),
            chat_count: 0,
        };
        let mut next = self.online.clone();
        next.offers.rematch = None;
        next.rematch_game = Some(rec.meta.id.clone());
        self.commit_online(next, vec![Extra::NewGame(Box::new((rec, online)))])
            .await
    }
}
