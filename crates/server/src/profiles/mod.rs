//! Players' profiles and "my games" (docs/API.md, "Profiles"): the public profile of an
//! account (`GET /api/players/{name}`: ratings, record, games being played, recent games), its
//! game archive with filters (`archive`), and for the signed-in account its games across
//! devices with "your move" first and all of them as one GGF file (`mine`).
//!
//! What is public: an account's online games once both seats are taken (being played or
//! finished), like on the Othello sites; a game waiting for its second player, and games on
//! one device (computer, friend), are not. A deleted account's seats show the name
//! `anonymous` and no account. Numbers: docs/SECURITY.md.

pub mod archive;
pub mod mine;

use crate::accounts::players::PlayerView;
use crate::error::{AppError, AppResult};
use crate::model::online::{End, TimeControl};
use crate::rating::Category;
use crate::runtime::state::AppState;
use crate::util::iso8601;
use crate::view::{opening_name_of_stored, OpeningNameView};
use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use virada_rules::formats::transcript::Transcript;
use virada_rules::{Color, Position};
use virada_store::accounts::name_key;
use virada_store::profiles::Phases;
use virada_store::{AccountGame, GamesQuery};

/// Games a profile lists as being played now (the most recently changed).
pub const PLAYING_NOW_SHOWN: usize = 20;
/// Finished games a profile lists as recent.
pub const RECENT_SHOWN: usize = 10;

/// The routes of this module (merged into the `/api` router).
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/players/{name}", get(player))
        .route("/players/{name}/games", get(archive::games))
        .route("/account/games", get(mine::my_games))
        .route("/account/games.ggf", get(mine::download))
}

/// A finished game's result for one side.
#[derive(Serialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Win,
    Draw,
    Loss,
    /// Ended before both sides moved: no result.
    Aborted,
}

impl Outcome {
    pub fn from_name(name: &str) -> Option<Outcome> {
        match name {
            "win" => Some(Outcome::Win),
            "draw" => Some(Outcome::Draw),
            "loss" => Some(Outcome::Loss),
            "aborted" => Some(Outcome::Aborted),
            _ => None,
        }
    }
}

/// The result for `color` of a game that ended with `end` and these discs on the board: a
/// resignation, a flag or a missed deadline loses; on the board, the side with more discs
/// wins (the rule `rating::outcome` rates).
pub fn outcome(color: Color, end: End, black_discs: u8, white_discs: u8) -> Outcome {
    match end {
        End::Abort => Outcome::Aborted,
        End::Resign(loser) | End::Time(loser) | End::Deadline(loser) => {
            if loser == color {
                Outcome::Loss
            } else {
                Outcome::Win
            }
        }
        End::Normal => {
            let (mine, theirs) = match color {
                Color::Black => (black_discs, white_discs),
                Color::White => (white_discs, black_discs),
            };
            match mine.cmp(&theirs) {
                std::cmp::Ordering::Greater => Outcome::Win,
                std::cmp::Ordering::Equal => Outcome::Draw,
                std::cmp::Ordering::Less => Outcome::Loss,
            }
        }
    }
}

/// A seat of a listed game: the name in it and the account holding it (none for a guest or
/// a deleted account).
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct SeatLine {
    pub name: Option<String>,
    pub account: Option<String>,
}

/// One game of a profile's lists, the archive or "my games".
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct GameLine {
    pub id: String,
    pub created_at: String,
    pub updated_at: String,
    /// `waiting`, `playing` or `finished`.
    pub phase: String,
    pub rated: bool,
    /// The rating category of its time control (`null`: untimed).
    pub category: Option<&'static str>,
    pub time_control: TimeControl,
    /// The seat of the account whose list this is.
    pub color: Color,
    pub black: SeatLine,
    pub white: SeatLine,
    /// The other seat.
    pub opponent: SeatLine,
    /// For the account: `win`, `draw`, `loss` or `aborted` (`null` while it goes on).
    pub result: Option<Outcome>,
    /// How it ended: `normal`, `resign`, `time`, `deadline`, `abort`.
    pub end_reason: Option<&'static str>,
    pub black_discs: u8,
    pub white_discs: u8,
    pub ply_count: u32,
    pub opening_name: Option<OpeningNameView>,
    /// Whose move it is in a game being played.
    pub to_move: Option<Color>,
    /// Being played and the account's move.
    pub your_move: bool,
    /// When the side to move loses on time or by the days-per-move deadline.
    pub deadline: Option<String>,
    /// A rated game's effect on the account's rating (`null`: it moved none).
    pub rating: Option<RatingLine>,
}

/// The account's rating before and after a game, and the change (after - before).
#[derive(Serialize, Clone, Copy, Debug, PartialEq)]
pub struct RatingLine {
    pub before: f64,
    pub after: f64,
    pub change: f64,
}

/// The side to move of a stored game (`None`: its text does not replay).
fn side_to_move(start: &str, transcript: &str) -> Option<Color> {
    let start: Position = start.parse().ok()?;
    let t: Transcript = transcript.parse().ok()?;
    Some(t.replay(start).ok()?.position().side_to_move())
}

impl GameLine {
    pub fn of(g: AccountGame) -> GameLine {
        let seat = |name: Option<String>, account: Option<String>| SeatLine { name, account };
        let black = seat(g.black_name, g.black_account);
        let white = seat(g.white_name, g.white_account);
        let opponent = match g.color {
            Color::Black => white.clone(),
            Color::White => black.clone(),
        };
        let to_move = if g.phase == "playing" {
            side_to_move(&g.start, &g.transcript)
        } else {
            None
        };
        GameLine {
            created_at: iso8601(g.created_at),
            updated_at: iso8601(g.updated_at),
            rated: g.rated,
            category: Category::of(g.time_control).map(Category::name),
            time_control: g.time_control,
            color: g.color,
            result: g
                .end
                .map(|end| outcome(g.color, end, g.black_discs, g.white_discs)),
            end_reason: g.end.map(End::reason),
            black_discs: g.black_discs,
            white_discs: g.white_discs,
            ply_count: g.ply_count,
            opening_name: opening_name_of_stored(&g.start, &g.transcript),
            your_move: to_move == Some(g.color),
            to_move,
            deadline: g.deadline.filter(|_| g.phase == "playing").map(iso8601),
            rating: g.rating.map(|r| RatingLine {
                before: r.before,
                after: r.after,
                change: r.after - r.before,
            }),
            black,
            white,
            opponent,
            phase: g.phase,
            id: g.id,
        }
    }
}

/// Wins, draws and losses.
#[derive(Serialize, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Counts {
    fn add(&mut self, o: Outcome) {
        match o {
            Outcome::Win => self.wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Loss => self.losses += 1,
            Outcome::Aborted => {}
        }
    }
}

/// A player's record: every finished online game with a result, and the rated ones apart.
#[derive(Serialize, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Record {
    #[serde(flatten)]
    pub all: Counts,
    pub rated: Counts,
    /// Games aborted before both sides moved (no result).
    pub aborted: u32,
}

/// The public profile: the account's view (`accounts::players`) with its record, the games it
/// is playing now and its recent finished games.
#[derive(Serialize, Debug)]
pub struct ProfileView {
    #[serde(flatten)]
    pub player: PlayerView,
    pub record: Record,
    pub playing_now: Vec<GameLine>,
    pub recent: Vec<GameLine>,
}

/// `GET /api/players/{name}`: 404 `not_found` for an unknown name.
pub async fn player(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> AppResult<Json<ProfileView>> {
    let Json(player) =
        crate::accounts::players::player(State(state.clone()), Path(name.clone())).await?;
    let store = &state.shared.store;
    let Some(account) = store.accounts().account_by_name(&name_key(&name)).await? else {
        return Err(AppError::NotFound(format!("no player named {name:?}")));
    };
    let mut record = Record::default();
    for row in store.profiles().finished_games(account.holder).await? {
        let o = outcome(row.color, row.end, row.black_discs, row.white_discs);
        record.all.add(o);
        if row.rated {
            record.rated.add(o);
        }
        if o == Outcome::Aborted {
            record.aborted += 1;
        }
    }
    let list = |phases, limit| GamesQuery {
        holder: account.holder,
        phases,
        opponent: None,
        before: None,
        limit,
    };
    let playing_now = store
        .profiles()
        .account_games(list(Phases::Playing, PLAYING_NOW_SHOWN))
        .await?;
    let recent = store
        .profiles()
        .account_games(list(Phases::Finished, RECENT_SHOWN))
        .await?;
    Ok(Json(ProfileView {
        player,
        record,
        playing_now: playing_now.into_iter().map(GameLine::of).collect(),
        recent: recent.into_iter().map(GameLine::of).collect(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_follow_the_end_and_the_board() {
        use Color::{Black, White};
        assert_eq!(outcome(Black, End::Normal, 40, 24), Outcome::Win);
        assert_eq!(outcome(White, End::Normal, 40, 24), Outcome::Loss);
        assert_eq!(outcome(White, End::Normal, 32, 32), Outcome::Draw);
        assert_eq!(outcome(Black, End::Resign(Black), 40, 24), Outcome::Loss);
        assert_eq!(outcome(White, End::Time(Black), 40, 24), Outcome::Win);
        assert_eq!(outcome(White, End::Deadline(White), 2, 60), Outcome::Loss);
        assert_eq!(outcome(Black, End::Abort, 2, 2), Outcome::Aborted);
    }
}
