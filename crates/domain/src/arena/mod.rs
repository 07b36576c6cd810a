//! Arena tournaments as data and rules, pure: an arena, its players and games as the store
//! keeps them (`virada-store` reads and writes these), a finished game's result, and the rules
//! over them (`standings`: the points, the streak bonus and who plays whom next). The server's
//! `arena` runs them (the pairing task, the routes, the socket).

pub mod standings;

use crate::identity::BrowserId;
use crate::model::online::{OnlineGame, Phase, TimeControl};
use crate::model::GameRecord;
use virada_rules::Color;

/// An arena as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct ArenaRow {
    /// `a_` and 12 hex digits.
    pub id: String,
    pub name: String,
    /// The account that made it, and its username then.
    pub creator: BrowserId,
    pub creator_name: String,
    /// Unix ms.
    pub created_at: i64,
    pub starts_at: i64,
    pub ends_at: i64,
    pub time_control: TimeControl,
    pub rated: bool,
}

/// A player of an arena.
#[derive(Clone, Debug, PartialEq)]
pub struct ArenaPlayerRow {
    pub holder: BrowserId,
    pub username: String,
    /// The player's rating in the arena's category when they joined.
    pub rating: f64,
    /// When they first joined (Unix ms).
    pub joined_at: i64,
    /// Joined and not withdrawn (paused): the pairing takes them.
    pub active: bool,
}

/// How an arena game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArenaResult {
    BlackWins,
    WhiteWins,
    Draw,
    /// Aborted: no result, no points.
    Aborted,
}

impl ArenaResult {
    /// `black`, `white`, `draw`, `aborted` (API and stored column).
    pub fn name(self) -> &'static str {
        match self {
            ArenaResult::BlackWins => "black",
            ArenaResult::WhiteWins => "white",
            ArenaResult::Draw => "draw",
            ArenaResult::Aborted => "aborted",
        }
    }

    pub fn from_name(s: &str) -> Option<ArenaResult> {
        [
            ArenaResult::BlackWins,
            ArenaResult::WhiteWins,
            ArenaResult::Draw,
            ArenaResult::Aborted,
        ]
        .into_iter()
        .find(|r| r.name() == s)
    }
}

/// A game of an arena.
#[derive(Clone, Debug, PartialEq)]
pub struct ArenaGameRow {
    pub game_id: String,
    /// The order games were paired in, from 1 per arena.
    pub seq: i64,
    pub black: BrowserId,
    pub white: BrowserId,
    pub started_at: i64,
    /// `None` while the game runs.
    pub result: Option<ArenaResult>,
    pub ended_at: Option<i64>,
}

/// An arena with its players (in the order they joined) and games (in the order they were
/// paired).
#[derive(Clone, Debug, PartialEq)]
pub struct ArenaFull {
    pub arena: ArenaRow,
    pub players: Vec<ArenaPlayerRow>,
    pub games: Vec<ArenaGameRow>,
}

/// A line of the list of arenas.
#[derive(Clone, Debug, PartialEq)]
pub struct ArenaListed {
    pub arena: ArenaRow,
    pub players: u32,
}

/// The result of a finished online game (`None` while it runs).
pub fn result_of(rec: &GameRecord, o: &OnlineGame) -> Option<ArenaResult> {
    let Phase::Finished(end) = o.phase else {
        return None;
    };
    if end == crate::model::online::End::Abort {
        return Some(ArenaResult::Aborted);
    }
    let winner = match end.loser() {
        Some(loser) => Some(loser.opposite()),
        None => rec.game.position().disc_counts().winner(),
    };
    Some(match winner {
        Some(Color::Black) => ArenaResult::BlackWins,
        Some(Color::White) => ArenaResult::WhiteWins,
        None => ArenaResult::Draw,
    })
}
