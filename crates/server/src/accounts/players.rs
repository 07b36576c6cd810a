//! `GET /api/players/{name}`: a player's public profile (username, when they joined, ratings
//! per category, the newest rating changes). 404 `not_found` for an unknown name.

use crate::error::{AppError, AppResult};
use crate::rating::PlayerRating;
use crate::runtime::state::AppState;
use crate::util::iso8601;
use axum::extract::{Path, State};
use axum::Json;
use serde::Serialize;
use std::collections::BTreeMap;
use virada_store::accounts::name_key;

/// One category's rating.
#[derive(Serialize, Debug)]
pub struct RatingView {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: u32,
    /// While the deviation is 110 or more (`rating::PROVISIONAL_RD`).
    pub provisional: bool,
}

impl From<PlayerRating> for RatingView {
    fn from(r: PlayerRating) -> RatingView {
        RatingView {
            rating: r.rating.rating,
            deviation: r.rating.rd,
            volatility: r.rating.volatility,
            games: r.games,
            provisional: r.provisional(),
        }
    }
}

/// One rating change.
#[derive(Serialize, Debug)]
pub struct HistoryView {
    pub category: &'static str,
    pub game: String,
    pub rating: f64,
    pub deviation: f64,
    pub at: String,
}

/// The profile.
#[derive(Serialize, Debug)]
pub struct PlayerView {
    pub username: String,
    pub created_at: String,
    /// Every category with a rated game, by name.
    pub ratings: BTreeMap<&'static str, RatingView>,
    /// The newest first.
    pub history: Vec<HistoryView>,
}

pub async fn player(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> AppResult<Json<PlayerView>> {
    let unknown = || AppError::NotFound(format!("no player named {name:?}"));
    if name.len() > crate::accounts::USERNAME_MAX {
        return Err(unknown());
    }
    let Some(p) = state
        .shared
        .store
        .accounts()
        .player(&name_key(&name))
        .await?
    else {
        return Err(unknown());
    };
    Ok(Json(PlayerView {
        username: p.username,
        created_at: iso8601(p.created_at),
        ratings: p
            .ratings
            .into_iter()
            .map(|(c, r)| (c.name(), RatingView::from(r)))
            .collect(),
        history: p
            .history
            .into_iter()
            .map(|h| HistoryView {
                category: h.category.name(),
                game: h.game,
                rating: h.rating,
                deviation: h.deviation,
                at: iso8601(h.at),
            })
            .collect(),
    }))
}
