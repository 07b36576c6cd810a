//! What the stores keep of arena tournaments (the [`super::Store`] methods under "arenas";
//! the rules are the server's `arena`): the arenas, their players and their games. A game's result
//! is written into its arena row by the transaction that ends the game ([`result_of`]), so a
//! restart never loses a point.

use crate::error::{StoreError, StoreResult};
use virada_domain::identity::BrowserId;
use virada_domain::model::online::{OnlineGame, Phase, TimeControl};
use virada_domain::model::GameRecord;
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

/// The caps a new arena is checked against, in the transaction that stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArenaCaps {
    /// Unix ms now.
    pub now: i64,
    /// Arenas not ended yet (upcoming or running), all creators.
    pub open: usize,
    /// Of them, made by one account.
    pub open_per_account: usize,
    /// Arenas one account may make per 24 hours.
    pub per_day: usize,
}

const DAY_MS: i64 = 24 * 3600 * 1000;

impl ArenaCaps {
    /// The start of the 24 hours counted by `per_day`.
    pub fn day_start(&self) -> i64 {
        self.now - DAY_MS
    }

    /// Checks the counts found: [`StoreError::TooManyArenas`] when one is full.
    pub fn check(&self, open: i64, open_mine: i64, today_mine: i64) -> StoreResult<()> {
        let full = |limit: &'static str, max: usize, what: &'static str| {
            Err(StoreError::TooManyArenas { limit, max, what })
        };
        if open >= self.open as i64 {
            return full(
                "open",
                self.open,
                "arenas may be upcoming or running at once",
            );
        }
        if open_mine >= self.open_per_account as i64 {
            return full(
                "open_per_account",
                self.open_per_account,
                "of your arenas may be upcoming or running at once",
            );
        }
        if today_mine >= self.per_day as i64 {
            return full("per_day", self.per_day, "arenas per account in 24 hours");
        }
        Ok(())
    }
}

/// 409 `arena_full` (params `max`).
pub fn arena_full(max: usize) -> StoreError {
    StoreError::ArenaFull { max }
}

/// The result of a finished online game (`None` while it runs).
pub fn result_of(rec: &GameRecord, o: &OnlineGame) -> Option<ArenaResult> {
    let Phase::Finished(end) = o.phase else {
        return None;
    };
    if end == virada_domain::model::online::End::Abort {
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

/// A game's result as stored (`text`); a game deleted before it ended (`exists` false: its
/// row is gone, nobody can end it any more) counts as aborted.
pub fn stored_result(text: Option<&str>, exists: bool) -> Option<ArenaResult> {
    match text.and_then(ArenaResult::from_name) {
        None if !exists => Some(ArenaResult::Aborted),
        r => r,
    }
}

/// A time control as its stored text (JSON).
pub fn time_control_text(tc: TimeControl) -> String {
    serde_json::to_string(&tc).unwrap_or_default()
}

/// A stored time control.
pub fn time_control_from(text: &str) -> StoreResult<TimeControl> {
    serde_json::from_str(text)
        .map_err(|e| StoreError::Db(format!("stored arena time control {text:?}: {e}")))
}

/// A stored identity.
pub fn holder_from(hex: &str) -> StoreResult<BrowserId> {
    BrowserId::from_hex(hex).ok_or_else(|| StoreError::Db(format!("stored arena identity {hex:?}")))
}
