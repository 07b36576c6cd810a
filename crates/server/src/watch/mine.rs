//! The asker's own live games, for the badge every page shows (`GET /api/watch/mine`): its
//! online games being played with a clock (live: leaving loses on time), and its
//! correspondence games where it is to move. An account's from all its devices, a guest's
//! from this browser. Each poll also counts the browser as online (`presence`).

use super::Watch;
use crate::error::AppResult;
use crate::identity::layer::Identity;
use crate::model::online::TimeControl;
use crate::profiles::GameLine;
use crate::runtime::state::AppState;
use axum::extract::State;
use axum::{Extension, Json};
use serde::Serialize;
use std::sync::Arc;
use virada_store::profiles::Phases;
use virada_store::GamesQuery;

/// Games being played the badge reads at most (the most recently changed).
pub const MINE_READ: usize = 50;

/// One of the asker's games the badge names.
#[derive(Serialize, Debug, PartialEq)]
pub struct MyLiveGame {
    pub id: String,
    /// `live` (a clock runs) or `correspondence` (days a move; listed when it is your move).
    pub kind: &'static str,
    pub your_move: bool,
    /// The other seat's name.
    pub opponent: Option<String>,
    /// When the side to move loses on time or by the deadline.
    pub deadline: Option<String>,
}

/// `GET /api/watch/mine`: `{"games": [...]}`, your move first.
pub async fn mine(
    State(state): State<AppState>,
    Extension(watch): Extension<Arc<Watch>>,
    identity: Identity,
) -> AppResult<Json<serde_json::Value>> {
    let holder = identity
        .account
        .as_ref()
        .map_or(identity.guest, |a| a.holder);
    let username = identity.account.as_ref().map(|a| a.username.clone());
    watch
        .presence
        .seen(holder, username, state.shared.config.clock.now_ms());
    let rows = state
        .shared
        .store
        .profiles()
        .account_games(GamesQuery {
            holder,
            phases: Phases::Playing,
            opponent: None,
            before: None,
            limit: MINE_READ,
        })
        .await?;
    let mut games: Vec<MyLiveGame> = rows
        .into_iter()
        .map(GameLine::of)
        .filter_map(|g| {
            let kind = match g.time_control {
                TimeControl::Correspondence { .. } if g.your_move => "correspondence",
                TimeControl::Correspondence { .. } => return None,
                _ => "live",
            };
            Some(MyLiveGame {
                id: g.id,
                kind,
                your_move: g.your_move,
                opponent: g.opponent.name,
                deadline: g.deadline,
            })
        })
        .collect();
    games.sort_by_key(|g| !g.your_move);
    Ok(Json(serde_json::json!({ "games": games })))
}
