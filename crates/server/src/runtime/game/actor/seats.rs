//! Seats and device links of online games (a local game refuses them), and the clocks of every
//! game that has one.

use super::{idx, link_hash, Actor};
use crate::error::{AppError, AppResult};
use crate::identity::BrowserId;
use crate::model::online::{flag_at, has_moved, End, Phase, SeatState};
use crate::runtime::game::{NewLink, LINKS_PER_SEAT, LINK_VALID_MS};
use crate::view::GameView;
use virada_rules::Color;
use virada_store::{Change, LinkRow};

impl Actor {
    pub(super) async fn take_seat(&mut self, who: BrowserId, name: String) -> AppResult<GameView> {
        let online = self.online()?;
        if let Some(c) = online.seat_of(who) {
            return Ok(self.view_as(Some(c)));
        }
        if let Phase::Finished(_) = online.phase {
            return Err(AppError::GameOver(
                "this game is over: watch it instead".into(),
            ));
        }
        let Some(free) = [Color::Black, Color::White]
            .into_iter()
            .find(|&c| !online.seat(c).is_taken())
        else {
            return Err(AppError::SeatTaken(
                "both seats are taken: you can watch the game".into(),
            ));
        };
        let now = self.clock.now_ms();
        let mut next = online.clone();
        *next.seat_mut(free) = SeatState::Taken {
            name,
            holders: vec![who],
        };
        if next.black.is_taken() && next.white.is_taken() {
            next.phase = Phase::Playing {
                turn_started_at: now,
            };
        }
        self.commit_online(next, vec![Change::Holder(free, who)])
            .await?;
        self.since[idx(free)] = Some(now);
        Ok(self.view_as(Some(free)))
    }

    pub(super) async fn new_link(&mut self, who: BrowserId) -> AppResult<NewLink> {
        let online = self.online()?;
        let Some(c) = online.seat_of(who) else {
            return Err(AppError::NotYourSeat(
                "only a seat's holder can link another device to it".into(),
            ));
        };
        if online.rated {
            // The account's own devices act as it already; a link would seat someone else.
            return Err(AppError::rated_seat());
        }
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes)
            .map_err(|e| AppError::Internal(format!("no random token: {e}")))?;
        let token: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let hash = link_hash(&token);
        let now = self.clock.now_ms();
        let expires_at = now + LINK_VALID_MS;
        let link = LinkRow {
            hash,
            game: self.rec.meta.id.clone(),
            color: c,
            created_at: now,
            expires_at,
        };
        self.shared
            .store
            .online()
            .insert_link(link, LINKS_PER_SEAT)
            .await?;
        Ok(NewLink { token, expires_at })
    }

    pub(super) async fn use_link(
        &mut self,
        who: BrowserId,
        color: Color,
        hash: String,
    ) -> AppResult<Color> {
        let online = self.online()?;
        match online.seat_of(who) {
            Some(c) if c == color => return Ok(c),
            Some(_) => {
                return Err(AppError::SeatTaken(
                    "this browser holds the other seat of this game".into(),
                ))
            }
            None => {}
        }
        if online.rated {
            // Only the seat's account plays a rated seat (it holds the seat already, above), so
            // a link made before this rule cannot seat a guest or another account.
            return Err(AppError::rated_seat());
        }
        let mut next = online.clone();
        match next.seat_mut(color) {
            SeatState::Taken { holders, .. } => holders.push(who),
            SeatState::Free => return Err(AppError::NotFound("no such device link".into())),
        }
        self.commit_online(
            next,
            vec![Change::Holder(color, who), Change::LinkUsed(hash)],
        )
        .await?;
        Ok(color)
    }

    // ---------- clocks ----------

    /// When the side to move loses on time, if a clock runs (what the store keeps as
    /// `flag_at`).
    pub(super) fn flag_deadline(&self) -> Option<i64> {
        flag_at(&self.rec, self.online.as_ref()?)
    }

    /// Ends the game if the side to move is out of time; answers whether the flag fell (false:
    /// time is left, or no clock runs).
    pub(super) async fn check_flag(&mut self) -> AppResult<bool> {
        // A clock stalled by a store failure counts the time since it resumed only.
        self.resume_clock(self.clock.now_ms());
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

    /// `loser`'s flag fell (any mode with a clock): stored, then shown. A side that had not
    /// made its first move (in a game between two seated players) aborts the game instead:
    /// no result, nobody's clock charged. Answers how the game ended.
    pub(super) async fn flag_fall(&mut self, loser: Color) -> AppResult<End> {
        let mut next = self
            .online
            .clone()
            .ok_or_else(|| AppError::Internal("a flag fell in a game without a clock".into()))?;
        let end = if has_moved(&self.rec.game, loser) {
            // The loser's clock shows zero.
            match loser {
                Color::Black => next.black_ms = 0,
                Color::White => next.white_ms = 0,
            }
            next.out_of_time(loser)
        } else {
            self.pause_in_arena(&next, loser).await;
            End::Abort
        };
        next.phase = Phase::Finished(end);
        next.offers = Default::default();
        // The computer out of time stops thinking.
        self.cancel_thinking();
        self.commit_online(next, Vec::new()).await?;
        Ok(end)
    }

    /// An arena player who let their game abort (no first move in time) is paused in the
    /// arena, as on lichess: the arena does not pair them again until they rejoin. Done before
    /// the end is stored, so the pairing that the end wakes never takes them; a failure is
    /// logged and changes nothing else.
    async fn pause_in_arena(&self, online: &crate::model::online::OnlineGame, absent: Color) {
        let SeatState::Taken { holders, .. } = online.seat(absent) else {
            return;
        };
        let Some(&holder) = holders.first() else {
            return;
        };
        let store = &self.shared.store;
        let paused = match store.arenas().arena_of_game(&self.rec.meta.id).await {
            Ok(Some(arena)) => store
                .arenas()
                .withdraw_arena(&arena, holder)
                .await
                .map(|_| ()),
            Ok(None) => Ok(()),
            Err(e) => Err(e),
        };
        if let Err(e) = paused {
            tracing::warn!(error = %e, "cannot pause the absent arena player");
        }
    }
}
