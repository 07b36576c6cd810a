//! Arena tournaments (issue 42 item 6; docs/API.md "Arenas"): accounts make an arena with a
//! time window and a clock; players join and withdraw; whoever waits is paired again as soon as
//! their game ends; 2 points a win, 1 a draw, doubled after two wins in a row until a game that
//! is not a win; live standings over the WebSocket `GET /api/arenas/{id}/ws`.
//!
//! - [`model`]: standings and pairings, pure functions of what is stored (virada-domain's
//!   `arena::standings`, with the rows they read);
//! - [`director`]: the task that pairs and pushes standings;
//! - [`ws`]: the live socket; [`view`]: the JSON;
//! - the store keeps arenas, players and games (`virada_store::arenas`); a game's end writes
//!   its arena result in the transaction that stores the end.

pub mod director;
pub mod view;
pub mod ws;

pub use virada_domain::arena::standings as model;

use crate::accounts::sign_in_required;
use crate::error::{AppError, AppResult};
use crate::http::extract::JsonBody;
use crate::http::limits::Kind;
use crate::http::ownership::Asker;
use crate::identity::layer::{Identity, SignedIn};
use crate::model::online::TimeControl;
use crate::rating::Category;
use crate::runtime::state::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use director::Director;
use model::Status;
use serde::Deserialize;
use std::sync::Arc;
use view::{ArenaView, ListView};
use virada_store::arenas::{ArenaCaps, ArenaPlayerRow, ArenaRow};

/// An arena's name: 1 to this many characters.
pub const NAME_MAX: usize = 40;
/// An arena lasts this many minutes at least, and at most.
pub const MINUTES_MIN: u32 = 5;
pub const MINUTES_MAX: u32 = 360;
/// An arena's clock: at most this many minutes and increment seconds.
pub const CLOCK_MINUTES_MAX: u32 = 30;
pub const CLOCK_INCREMENT_MAX: u32 = 30;
/// How far ahead an arena may be set to start.
pub const STARTS_WITHIN_MS: i64 = 7 * 24 * 3600 * 1000;
/// Players an arena takes at most.
pub const MAX_PLAYERS: usize = 200;
/// Arenas upcoming or running at once (all accounts), and of one account.
pub const MAX_OPEN: usize = 20;
pub const MAX_OPEN_PER_ACCOUNT: usize = 2;
/// Arenas one account may make in 24 hours.
pub const MAX_PER_DAY: usize = 5;
/// Finished arenas stay listed this long after their end.
pub const FINISHED_LISTED_MS: i64 = 7 * 24 * 3600 * 1000;
/// Arenas listed at most.
pub const LIST_LIMIT: u32 = 100;

/// The arena routes (under `/api`); starts the director.
pub fn routes(state: &AppState) -> Router<AppState> {
    let director = Director::start(state.clone());
    Router::new()
        .route("/arenas", post(create).get(list))
        .route("/arenas/{id}", get(arena))
        .route("/arenas/{id}/join", post(join))
        .route("/arenas/{id}/withdraw", post(withdraw))
        .route("/arenas/{id}/ws", get(ws::upgrade))
        .route("/games/{id}/arena", get(arena_of_game))
        .layer(Extension(director))
}

fn signed_in(identity: &Identity) -> AppResult<&SignedIn> {
    identity.account.as_ref().ok_or_else(sign_in_required)
}

/// A fresh arena id: `a_` and 12 hex digits.
fn new_arena_id() -> String {
    format!("a_{:012x}", crate::util::random_u64() & 0xffff_ffff_ffff)
}

fn not_found(id: &str) -> AppError {
    AppError::NotFound(format!("no arena with id {id:?}"))
}

/// Whether `s` looks like an arena id (junk never reaches the store).
fn checked_id(id: &str) -> AppResult<&str> {
    let ok = id.len() <= 40
        && id.starts_with("a_")
        && id.len() > 2
        && id[2..].bytes().all(|b| b.is_ascii_alphanumeric());
    if ok {
        Ok(id)
    } else {
        Err(not_found(id))
    }
}

fn invalid(field: &str, message: String) -> AppError {
    AppError::Invalid {
        message,
        params: [("field".to_string(), field.into())].into_iter().collect(),
    }
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    name: String,
    time_control: TimeControl,
    /// How long the arena lasts.
    minutes: u32,
    /// ISO 8601 UTC (`2026-12-07T20:00:00Z`); now when absent.
    #[serde(default)]
    starts_at: Option<String>,
    #[serde(default)]
    rated: bool,
}

/// `POST /api/arenas` → 201 arena.
async fn create(
    State(state): State<AppState>,
    Extension(director): Extension<Arc<Director>>,
    asker: Asker,
    identity: Identity,
    JsonBody(req): JsonBody<CreateRequest>,
) -> AppResult<(StatusCode, Json<ArenaView>)> {
    state.limits.check(asker.ip, Kind::CreateGame)?;
    let account = signed_in(&identity)?;
    let name = crate::user_text::checked("name", &req.name, NAME_MAX)?;
    let time_control = match req.time_control {
        TimeControl::Clock {
            minutes,
            increment_seconds,
        } if (1..=CLOCK_MINUTES_MAX).contains(&minutes)
            && increment_seconds <= CLOCK_INCREMENT_MAX =>
        {
            req.time_control
        }
        _ => {
            return Err(invalid(
                "time_control",
                format!(
                    "an arena's time control is a clock of 1 to {CLOCK_MINUTES_MAX} minutes \
                     and 0 to {CLOCK_INCREMENT_MAX} s increment"
                ),
            ))
        }
    };
    if !(MINUTES_MIN..=MINUTES_MAX).contains(&req.minutes) {
        return Err(invalid(
            "minutes",
            format!("an arena lasts {MINUTES_MIN} to {MINUTES_MAX} minutes"),
        ));
    }
    let now = state.shared.config.clock.now_ms();
    let starts_at = match req.starts_at.as_deref() {
        None => now,
        Some(text) => {
            let at = parse_iso8601(text).ok_or_else(|| {
                invalid(
                    "starts_at",
                    format!("starts_at {text:?}: not a time like 2026-12-07T20:00:00Z"),
                )
            })?;
            if at < now - 60_000 || at > now + STARTS_WITHIN_MS {
                return Err(invalid(
                    "starts_at",
                    "starts_at must be from now to 7 days ahead".into(),
                ));
            }
            at.max(now)
        }
    };
    let row = ArenaRow {
        id: new_arena_id(),
        name,
        creator: account.holder,
        creator_name: account.username.clone(),
        created_at: now,
        starts_at,
        ends_at: starts_at + i64::from(req.minutes) * 60_000,
        time_control,
        rated: req.rated,
    };
    let caps = ArenaCaps {
        now,
        open: MAX_OPEN,
        open_per_account: MAX_OPEN_PER_ACCOUNT,
        per_day: MAX_PER_DAY,
    };
    let id = row.id.clone();
    state.shared.store.arenas().insert_arena(row, caps).await?;
    director.look(&id);
    Ok((StatusCode::CREATED, Json(current(&state, &id).await?)))
}

/// The arena as it is stored now.
async fn current(state: &AppState, id: &str) -> AppResult<ArenaView> {
    let full = state
        .shared
        .store
        .arenas()
        .arena(id)
        .await?
        .ok_or_else(|| not_found(id))?;
    Ok(ArenaView::of(&full, state.shared.config.clock.now_ms()))
}

/// `GET /api/arenas`.
async fn list(State(state): State<AppState>) -> AppResult<Json<ListView>> {
    let now = state.shared.config.clock.now_ms();
    let list = state
        .shared
        .store
        .arenas()
        .list_arenas(now - FINISHED_LISTED_MS, LIST_LIMIT)
        .await?;
    Ok(Json(ListView::of(list, now)))
}

/// `GET /api/arenas/{id}`.
async fn arena(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> AppResult<Json<ArenaView>> {
    Ok(Json(current(&state, checked_id(&id)?).await?))
}

/// `GET /api/games/{id}/arena` → 200 `{"arena": arena}` for a game paired in an arena (the game
/// page names it, counts its time down and links back), `{"arena": null}` for any other id.
/// Which arena a game belongs to is public, as the arena's page lists its games.
async fn arena_of_game(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> AppResult<Json<serde_json::Value>> {
    let arena = if id.len() > 64 {
        None
    } else {
        state.shared.store.arenas().arena_of_game(&id).await?
    };
    let view = match arena {
        Some(a) => Some(current(&state, &a).await?),
        None => None,
    };
    Ok(Json(serde_json::json!({ "arena": view })))
}

/// `POST /api/arenas/{id}/join` → 200 arena.
async fn join(
    State(state): State<AppState>,
    Extension(director): Extension<Arc<Director>>,
    asker: Asker,
    identity: Identity,
    Path(id): Path<String>,
) -> AppResult<Json<ArenaView>> {
    state.limits.check(asker.ip, Kind::Seat)?;
    let id = checked_id(&id)?;
    let account = signed_in(&identity)?;
    let store = &state.shared.store;
    let full = store
        .arenas()
        .arena(id)
        .await?
        .ok_or_else(|| not_found(id))?;
    let now = state.shared.config.clock.now_ms();
    if Status::of(full.arena.starts_at, full.arena.ends_at, now) == Status::Finished {
        return Err(AppError::account(
            StatusCode::CONFLICT,
            "arena_finished",
            "this arena has ended",
            &[],
        ));
    }
    let category = Category::of(full.arena.time_control);
    let rating = crate::lobby::rating_of(&state, &identity, category)
        .await?
        .rating
        .rating;
    let player = ArenaPlayerRow {
        holder: account.holder,
        username: account.username.clone(),
        rating,
        joined_at: now,
        active: true,
    };
    if !store.arenas().join_arena(id, player, MAX_PLAYERS).await? {
        return Err(not_found(id));
    }
    director.seen(account.holder, asker.ip);
    director.look(id);
    Ok(Json(current(&state, id).await?))
}

/// `POST /api/arenas/{id}/withdraw` → 200 arena: the asking account stops being paired (its
/// running game goes on and counts; joining again resumes).
async fn withdraw(
    State(state): State<AppState>,
    Extension(director): Extension<Arc<Director>>,
    asker: Asker,
    identity: Identity,
    Path(id): Path<String>,
) -> AppResult<Json<ArenaView>> {
    state.limits.check(asker.ip, Kind::Seat)?;
    let id = checked_id(&id)?;
    let account = signed_in(&identity)?;
    let arenas = state.shared.store.arenas();
    if arenas.arena(id).await?.is_none() {
        return Err(not_found(id));
    }
    if !arenas.withdraw_arena(id, account.holder).await? {
        return Err(AppError::account(
            StatusCode::CONFLICT,
            "not_in_arena",
            "you are not a player of this arena",
            &[],
        ));
    }
    director.look(id);
    Ok(Json(current(&state, id).await?))
}

/// Unix ms of `YYYY-MM-DDTHH:MM:SS[.fff]Z` (UTC).
pub fn parse_iso8601(s: &str) -> Option<i64> {
    let s = s.strip_suffix('Z')?;
    let (date, time) = s.split_once('T')?;
    let num = |t: &str, len: usize| -> Option<i64> {
        (t.len() == len && t.bytes().all(|b| b.is_ascii_digit())).then(|| t.parse().ok())?
    };
    let mut d = date.split('-');
    let (y, m, day) = (num(d.next()?, 4)?, num(d.next()?, 2)?, num(d.next()?, 2)?);
    if d.next().is_some() {
        return None;
    }
    let (hms, frac) = match time.split_once('.') {
        Some((hms, f)) => (hms, num(f, f.len()).filter(|_| (1..=3).contains(&f.len()))?),
        None => (time, 0),
    };
    let frac_ms = match time.split_once('.') {
        Some((_, f)) => frac * 10_i64.pow(3 - f.len() as u32),
        None => 0,
    };
    let mut t = hms.split(':');
    let (hh, mm, ss) = (num(t.next()?, 2)?, num(t.next()?, 2)?, num(t.next()?, 2)?);
    if t.next().is_some() || !(1..=12).contains(&m) || !(1..=31).contains(&day) {
        return None;
    }
    if hh > 23 || mm > 59 || ss > 59 {
        return None;
    }
    // Days from civil (Howard Hinnant's algorithm).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(((days * 86_400 + hh * 3600 + mm * 60 + ss) * 1000) + frac_ms)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::iso8601;

    #[test]
    fn iso8601_times_read_back() {
        for ms in [0, 1_796_000_000_000, 951_782_400_000, 1_709_164_800_000] {
            assert_eq!(parse_iso8601(&iso8601(ms)), Some(ms), "{}", iso8601(ms));
        }
        assert_eq!(
            parse_iso8601("2026-12-07T20:00:00.250Z"),
            parse_iso8601("2026-12-07T20:00:00Z").map(|t| t + 250)
        );
        for bad in [
            "2026-12-07T20:00:00",
            "2026-13-07T20:00:00Z",
            "2026-12-07 20:00:00Z",
            "26-12-07T20:00:00Z",
            "2026-12-07T24:00:00Z",
            "2026-12-07T20:00:00.1234Z",
            "x",
        ] {
            assert_eq!(parse_iso8601(bad), None, "{bad}");
        }
    }
}
