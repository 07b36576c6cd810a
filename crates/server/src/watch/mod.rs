//! Watching and comparing (docs/API.md, "Watch"): the public games being played now (to
//! spectate by their link, as any online game), a leaderboard per rating category, the players
//! online, and for the asker its own live games (the badge every page shows, `mine`).
//!
//! Public is what profiles already show: online games with both seats taken and an account
//! in a seat (a game between two guests is seen only by its link), usernames only, never an
//! identity. Every answer is bounded (numbers below; docs/SECURITY.md): the lists are read
//! at most once per cache period whatever the number of requests.

pub mod mine;
pub mod presence;

use crate::error::{AppError, AppResult};
use crate::model::online::TimeControl;
use crate::profiles::SeatLine;
use crate::rating::{Category, PROVISIONAL_RD};
use crate::runtime::state::AppState;
use crate::util::iso8601;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Extension, Json, Router};
use presence::Presence;
use serde::Serialize;
use serde_json::json;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Most games the list of live games shows (the most recently changed).
pub const LIVE_SHOWN: usize = 50;
/// A game is "being played now" if it changed within this time.
pub const LIVE_WINDOW_MS: i64 = 30 * 60 * 1000;
/// The list of live games is read from the store at most once per this time.
pub const LIVE_CACHE: Duration = Duration::from_secs(5);
/// Most players a leaderboard shows.
pub const LEADERS_SHOWN: usize = 50;
/// A leaderboard is read from the store at most once per this time (per category).
pub const LEADERS_CACHE: Duration = Duration::from_secs(30);

/// What the watch routes share: the presence table and the cached lists.
#[derive(Default)]
pub struct Watch {
    pub presence: Presence,
    live: Mutex<Option<(Instant, Arc<serde_json::Value>)>>,
    leaders: Mutex<HashMap<&'static str, (Instant, Arc<serde_json::Value>)>>,
}

/// The routes of this module (merged into the `/api` router).
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/watch/games", get(live_games))
        .route("/watch/leaders/{category}", get(leaders))
        .route("/watch/online", get(online))
        .route("/watch/mine", get(mine::mine))
        .layer(Extension(Arc::new(Watch::default())))
}

/// One game of the list of live games.
#[derive(Serialize, Debug)]
pub struct LiveLine {
    pub id: String,
    pub updated_at: String,
    pub time_control: TimeControl,
    /// The rating category of its time control (`null`: untimed).
    pub category: Option<&'static str>,
    pub rated: bool,
    pub black: SeatLine,
    pub white: SeatLine,
    pub black_discs: u8,
    pub white_discs: u8,
    pub ply_count: u32,
}

/// A cached answer if it is younger than `ttl`.
fn fresh(
    slot: Option<&(Instant, Arc<serde_json::Value>)>,
    ttl: Duration,
) -> Option<Arc<serde_json::Value>> {
    slot.filter(|(at, _)| at.elapsed() < ttl)
        .map(|(_, v)| v.clone())
}

/// `GET /api/watch/games`: `{"games": [line...]}`, the public games being played now.
async fn live_games(
    State(state): State<AppState>,
    Extension(watch): Extension<Arc<Watch>>,
) -> AppResult<Json<serde_json::Value>> {
    if let Some(v) = fresh(
        watch
            .live
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref(),
        LIVE_CACHE,
    ) {
        return Ok(Json((*v).clone()));
    }
    // Games store their changes by the system's clock (`updated_at`), so the window is too.
    let since = crate::util::now_millis() - LIVE_WINDOW_MS;
    let rows = state
        .shared
        .store
        .watch()
        .live_games(since, LIVE_SHOWN)
        .await?;
    let mut games = Vec::with_capacity(rows.len());
    for g in rows {
        let Ok(time_control) = serde_json::from_str::<TimeControl>(&g.time_control) else {
            tracing::error!(game = %g.id, "a live game's time control does not read");
            continue;
        };
        games.push(LiveLine {
            updated_at: iso8601(g.updated_at),
            category: Category::of(time_control).map(Category::name),
            time_control,
            rated: g.rated,
            black: SeatLine {
                name: g.black_name,
                account: g.black_account,
            },
            white: SeatLine {
                name: g.white_name,
                account: g.white_account,
            },
            black_discs: g.black_discs,
            white_discs: g.white_discs,
            ply_count: g.ply_count,
            id: g.id,
        });
    }
    let v = Arc::new(json!({ "games": games }));
    *watch.live.lock().unwrap_or_else(|p| p.into_inner()) = Some((Instant::now(), v.clone()));
    Ok(Json((*v).clone()))
}

/// `GET /api/watch/leaders/{category}`: `{"category", "players": [{"rank", "username",
/// "rating", "deviation", "games"}]}`, established ratings only (deviation below the
/// provisional mark), banned accounts left out; 400 `unknown_category`.
async fn leaders(
    State(state): State<AppState>,
    Extension(watch): Extension<Arc<Watch>>,
    Path(category): Path<String>,
) -> AppResult<Json<serde_json::Value>> {
    let Some(cat) = Category::from_name(&category) else {
        let names: Vec<&str> = Category::ALL.iter().map(|c| c.name()).collect();
        return Err(AppError::account(
            StatusCode::BAD_REQUEST,
            "unknown_category",
            &format!(
                "category {:?}: must be one of {}",
                category.chars().take(40).collect::<String>(),
                names.join(", ")
            ),
            &[("categories", json!(names))],
        ));
    };
    let name = cat.name();
    if let Some(v) = fresh(
        watch
            .leaders
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(name),
        LEADERS_CACHE,
    ) {
        return Ok(Json((*v).clone()));
    }
    let rows = state
        .shared
        .store
        .watch()
        .leaderboard(name, PROVISIONAL_RD, LEADERS_SHOWN)
        .await?;
    let players: Vec<_> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            json!({"rank": i + 1, "username": r.username, "rating": r.rating,
                   "deviation": r.deviation, "games": r.games})
        })
        .collect();
    let v = Arc::new(json!({ "category": name, "players": players }));
    watch
        .leaders
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(name, (Instant::now(), v.clone()));
    Ok(Json((*v).clone()))
}

/// `GET /api/watch/online`: `{"count", "players": [username...]}`: the browsers seen in the
/// last [`presence::ONLINE_WINDOW_MS`] (guests counted, never named), the accounts among them
/// by name (at most [`presence::NAMES_SHOWN`]).
async fn online(
    State(state): State<AppState>,
    Extension(watch): Extension<Arc<Watch>>,
) -> Json<serde_json::Value> {
    let now = state.shared.config.clock.now_ms();
    let (count, players) = watch.presence.online(now);
    Json(json!({ "count": count, "players": players }))
}
