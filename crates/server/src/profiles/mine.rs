//! The signed-in account's own games, from any of its devices: `GET /api/account/games`
//! ("my games": the games where it is to move first, then its other running games, then the
//! recently finished ones) and `GET /api/account/games.ggf` (all its games as one GGF file).

use super::GameLine;
use crate::accounts::sign_in_required;
use crate::error::AppResult;
use crate::export::{self, ExportRecord};
use crate::identity::layer::Identity;
use crate::runtime::state::AppState;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use virada_store::profiles::Phases;
use virada_store::{GamesQuery, StoredGame};

/// Running games (waiting or being played) "my games" lists at most.
pub const RUNNING_SHOWN: usize = 200;
/// Finished games "my games" lists (the most recent).
pub const FINISHED_SHOWN: usize = 20;
/// Games one GGF download holds at most (the most recently changed).
pub const GGF_MAX_GAMES: u32 = 1000;

#[derive(Serialize, Debug)]
pub struct MyGames {
    /// "Your move" first (the nearest deadline first), then the other running games, then the
    /// finished ones (each the most recently changed first).
    pub games: Vec<GameLine>,
}

/// `GET /api/account/games` (401 `sign_in_required` for a guest).
pub async fn my_games(
    State(state): State<AppState>,
    identity: Identity,
) -> AppResult<Json<MyGames>> {
    let me = identity.account.as_ref().ok_or_else(sign_in_required)?;
    let profiles = state.shared.store.profiles();
    let list = |phases, limit| GamesQuery {
        holder: me.holder,
        phases,
        opponent: None,
        before: None,
        limit,
    };
    let running = profiles
        .account_games(list(Phases::Running, RUNNING_SHOWN))
        .await?;
    let finished = profiles
        .account_games(list(Phases::Finished, FINISHED_SHOWN))
        .await?;
    let running: Vec<GameLine> = running.into_iter().map(GameLine::of).collect();
    let (mut mine, theirs): (Vec<GameLine>, Vec<GameLine>) =
        running.into_iter().partition(|g| g.your_move);
    // The nearest deadline first (ISO 8601 UTC texts order as times); none last.
    mine.sort_by(|a, b| match (&a.deadline, &b.deadline) {
        (Some(x), Some(y)) => x.cmp(y),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
    let mut games = mine;
    games.extend(theirs);
    games.extend(finished.into_iter().map(GameLine::of));
    Ok(Json(MyGames { games }))
}

/// `GET /api/account/games.ggf`: every game of the account (online and on its devices; the
/// [`GGF_MAX_GAMES`] most recently changed), one GGF record each, through the same writer as a
/// single game's export. A game that no longer replays is left out (and logged).
pub async fn download(State(state): State<AppState>, identity: Identity) -> AppResult<Response> {
    let me = identity.account.as_ref().ok_or_else(sign_in_required)?;
    let games = state.shared.store.games();
    let listed = games
        .list_games(me.holder, None, GGF_MAX_GAMES, false)
        .await?;
    let mut text = String::new();
    for g in listed {
        let stored = match games.load_game(&g.id).await {
            Ok(Some(stored)) => stored,
            Ok(None) => continue, // deleted meanwhile
            Err(e) => {
                tracing::error!(game = %g.id, error = %e, "a game is left out of a GGF download");
                continue;
            }
        };
        let StoredGame { rec, online } = stored;
        let export = match online {
            Some(o) => ExportRecord::online(rec, &o),
            None => ExportRecord::Local(rec),
        };
        text.push_str(&export::ggf(&export));
    }
    let filename = format!("attachment; filename=\"virada-{}.ggf\"", me.username);
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, filename),
        ],
        text,
    )
        .into_response())
}
