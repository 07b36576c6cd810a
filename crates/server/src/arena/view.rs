//! The JSON of arenas (docs/API.md, "Arenas"): an arena with its standings (the HTTP answers
//! and the live `arena` message), and the lines of the list.

use super::model::{self, Standing, Status};
use crate::model::online::TimeControl;
use crate::util::iso8601;
use serde::Serialize;
use std::collections::HashMap;
use virada_store::arenas::{ArenaFull, ArenaListed, ArenaRow};

/// Finished games listed in an arena (the newest; running games are all listed).
pub const FINISHED_SHOWN: usize = 30;

#[derive(Serialize, Debug)]
pub struct SheetView {
    pub points: u32,
    pub outcome: &'static str,
    pub double: bool,
}

#[derive(Serialize, Debug)]
pub struct StandingView {
    pub rank: usize,
    pub username: String,
    pub points: u32,
    pub games: usize,
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    /// On fire: two wins in a row or more; the next win or draw scores double.
    pub fire: bool,
    /// Joined and not withdrawn.
    pub active: bool,
    /// The game being played now.
    pub playing: Option<String>,
    pub rating: f64,
    pub sheet: Vec<SheetView>,
}

#[derive(Serialize, Debug)]
pub struct GameLine {
    pub id: String,
    pub black: String,
    pub white: String,
    /// `black`, `white`, `draw`, `aborted`; `null` while it runs.
    pub result: Option<&'static str>,
}

/// What every arena line says.
#[derive(Serialize, Debug)]
pub struct Head {
    pub id: String,
    pub name: String,
    pub creator: String,
    pub time_control: TimeControl,
    pub rated: bool,
    /// The rating category of the time control.
    pub category: Option<&'static str>,
    pub starts_at: String,
    pub ends_at: String,
    pub starts_at_ms: i64,
    pub ends_at_ms: i64,
    pub status: &'static str,
}

impl Head {
    fn of(a: &ArenaRow, now: i64) -> Head {
        Head {
            id: a.id.clone(),
            name: a.name.clone(),
            creator: a.creator_name.clone(),
            time_control: a.time_control,
            rated: a.rated,
            category: crate::rating::Category::of(a.time_control).map(|c| c.name()),
            starts_at: iso8601(a.starts_at),
            ends_at: iso8601(a.ends_at),
            starts_at_ms: a.starts_at,
            ends_at_ms: a.ends_at,
            status: Status::of(a.starts_at, a.ends_at, now).name(),
        }
    }
}

/// An arena with its standings.
#[derive(Serialize, Debug)]
pub struct ArenaView {
    #[serde(flatten)]
    pub head: Head,
    /// The server's clock (Unix ms) when this was made, for countdowns.
    pub server_time_ms: i64,
    pub players: usize,
    pub standings: Vec<StandingView>,
    /// Running games, then the newest finished ones.
    pub games: Vec<GameLine>,
}

impl ArenaView {
    pub fn of(full: &ArenaFull, now: i64) -> ArenaView {
        let lines = model::standings(full);
        let names: HashMap<_, _> = full
            .players
            .iter()
            .map(|p| (p.holder, p.username.as_str()))
            .collect();
        let name = |h| {
            names
                .get(&h)
                .copied()
                .unwrap_or(virada_store::accounts::ANONYMOUS)
                .to_string()
        };
        let line = |g: &virada_store::arenas::ArenaGameRow| GameLine {
            id: g.game_id.clone(),
            black: name(g.black),
            white: name(g.white),
            result: g.result.map(|r| r.name()),
        };
        let running = full.games.iter().filter(|g| g.result.is_none()).map(line);
        let finished = full
            .games
            .iter()
            .rev()
            .filter(|g| g.result.is_some())
            .take(FINISHED_SHOWN)
            .map(line);
        ArenaView {
            head: Head::of(&full.arena, now),
            server_time_ms: now,
            players: full.players.len(),
            standings: lines
                .iter()
                .enumerate()
                .map(|(i, s)| standing(i + 1, s))
                .collect(),
            games: running.chain(finished).collect(),
        }
    }
}

fn standing(rank: usize, s: &Standing) -> StandingView {
    use model::Outcome::*;
    StandingView {
        rank,
        username: s.username.clone(),
        points: s.points,
        games: s.sheet.len(),
        wins: s.count(Win),
        draws: s.count(Draw),
        losses: s.count(Loss),
        fire: s.fire(),
        active: s.active,
        playing: s.playing.clone(),
        rating: s.rating.round(),
        sheet: s
            .sheet
            .iter()
            .map(|x| SheetView {
                points: x.points,
                outcome: x.outcome.name(),
                double: x.double,
            })
            .collect(),
    }
}

/// A line of the list.
#[derive(Serialize, Debug)]
pub struct ListedView {
    #[serde(flatten)]
    pub head: Head,
    pub players: u32,
}

/// `GET /api/arenas`.
#[derive(Serialize, Debug, Default)]
pub struct ListView {
    pub upcoming: Vec<ListedView>,
    pub running: Vec<ListedView>,
    pub finished: Vec<ListedView>,
}

impl ListView {
    pub fn of(list: Vec<ArenaListed>, now: i64) -> ListView {
        let mut out = ListView::default();
        for l in list {
            let head = Head::of(&l.arena, now);
            let to = match Status::of(l.arena.starts_at, l.arena.ends_at, now) {
                Status::Upcoming => &mut out.upcoming,
                Status::Running => &mut out.running,
                Status::Finished => &mut out.finished,
            };
            to.push(ListedView {
                head,
                players: l.players,
            });
        }
        // The next to start first.
        out.upcoming.reverse();
        out
    }
}

/// The live `arena` message.
#[derive(Serialize, Debug)]
pub struct ArenaMessage<'a> {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub arena: &'a ArenaView,
}
