//! "Your move" notices: when a move in an online game leaves a side to move, the holders of that
//! seat hear of it on every live channel they have open (the game WebSocket of any other game
//! they play or watch: `crate::online::ws`), as `{"type": "your_move", "game", "opponent",
//! "ply"}`. Nothing is stored and nothing is polled; a browser with no socket open sees the
//! change in its list of games the next time it loads it.
//!
//! The notice comes from the instance that committed the move (the game's owner): with several
//! instances (PostgreSQL), a socket open on another instance does not hear it (docs/SERVER.md).

use crate::identity::BrowserId;
use crate::model::online::{OnlineGame, Phase};
use crate::model::{GameRecord, Mode};
use serde::Serialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

/// Notices a socket may fall behind by before the oldest are skipped.
const QUEUE: usize = 16;

/// A notice for one browser: the game it is about and its JSON text.
#[derive(Clone, Debug)]
pub struct Notice {
    pub game: String,
    pub text: Arc<str>,
}

#[derive(Serialize)]
struct YourMove<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    game: &'a str,
    opponent: Option<&'a str>,
    ply: usize,
}

/// The browsers listening for notices (one channel per identity with a socket open).
#[derive(Default)]
pub struct Notices {
    channels: Mutex<HashMap<BrowserId, broadcast::Sender<Notice>>>,
}

impl Notices {
    /// Listens for `who`'s notices (while the receiver lives).
    pub fn subscribe(&self, who: BrowserId) -> broadcast::Receiver<Notice> {
        let mut channels = self.channels.lock().unwrap_or_else(|p| p.into_inner());
        // Channels nobody listens to any more go (their sockets closed).
        channels.retain(|_, tx| tx.receiver_count() > 0);
        channels
            .entry(who)
            .or_insert_with(|| broadcast::channel(QUEUE).0)
            .subscribe()
    }

    fn send(&self, to: &[BrowserId], notice: &Notice) {
        let channels = self.channels.lock().unwrap_or_else(|p| p.into_inner());
        for who in to {
            if let Some(tx) = channels.get(who) {
                // No receiver left: nobody to tell.
                let _ = tx.send(notice.clone());
            }
        }
    }

    /// After a committed change of `rec`: if it added plies to an online game being played,
    /// the holders of the seat to move are told (whoever moved last: after a pass it is the
    /// same side again).
    pub fn after_change(&self, plies_before: usize, rec: &GameRecord, online: Option<&OnlineGame>) {
        let Some(o) = online else { return };
        let plies = rec.game.moves().len();
        if rec.meta.mode != Mode::Online
            || plies <= plies_before
            || !matches!(o.phase, Phase::Playing { .. })
        {
            return;
        }
        let to_move = rec.game.position().side_to_move();
        let crate::model::online::SeatState::Taken { holders, .. } = o.seat(to_move) else {
            return;
        };
        let Ok(text) = serde_json::to_string(&YourMove {
            kind: "your_move",
            game: &rec.meta.id,
            opponent: o.seat(to_move.opposite()).name(),
            ply: plies,
        }) else {
            return;
        };
        self.send(
            holders,
            &Notice {
                game: rec.meta.id.clone(),
                text: text.into(),
            },
        );
    }
}
