//! Seeks: an open challenge in the lobby (a time control, rated or casual, the maker's colour,
//! an optional rating range, the start) that anyone else may accept once.

use super::{holder_of, rating_of, refused, seat_of, Event, Lobby};
use crate::error::{AppError, AppResult};
use crate::http::extract::JsonBody;
use crate::http::limits::Kind;
use crate::http::ownership::Asker;
use crate::identity::layer::Identity;
use crate::identity::BrowserId;
use crate::model::online::TimeControl;
use crate::online::http::check_rated;
use crate::online::paired::{start_paired, Seat, Start};
use crate::rating::{Category, PlayerRating};
use crate::runtime::state::AppState;
use crate::util::{iso8601, random_u64};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::{Extension, Json};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::sync::Arc;
use virada_rules::Color;

/// Open seeks a holder may have at once.
pub const SEEKS_PER_HOLDER: usize = 3;
/// Seeks a holder may make in a minute.
pub const SEEKS_PER_MINUTE: usize = 10;
/// Open seeks in the whole lobby.
pub const SEEKS_MAX: usize = 500;
/// The bounds of a rating range.
pub const RANGE_BOUNDS: (i32, i32) = (0, 4000);

/// The maker's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    White,
    Black,
    #[default]
    Random,
}

/// An open seek.
#[derive(Debug)]
pub struct Seek {
    pub id: String,
    pub maker: Seat,
    /// The maker's rating in the seek's category (a guest: `None`).
    pub rating: Option<PlayerRating>,
    pub time_control: TimeControl,
    pub rated: bool,
    pub color: ColorChoice,
    pub range: Option<[i32; 2]>,
    pub start: Start,
    pub created_at: i64,
}

/// A seek in the lobby: open, or accepted at `taken_at` (kept a while so that a later accept
/// is told 409 rather than 404).
#[derive(Debug)]
pub struct Entry {
    pub seek: Arc<Seek>,
    pub taken_at: Option<i64>,
}

/// A seek as the API shows it to `viewer`.
#[derive(Serialize, Debug)]
pub struct SeekView<'a> {
    pub id: &'a str,
    pub maker: &'a str,
    /// The maker is an account (`maker` is its username: a profile, blockable).
    pub account: bool,
    pub rating: Option<f64>,
    pub provisional: Option<bool>,
    pub time_control: TimeControl,
    pub category: Option<&'static str>,
    pub rated: bool,
    pub color: ColorChoice,
    pub rating_range: Option<[i32; 2]>,
    pub start: Start,
    pub created_at: String,
    /// The viewer made it.
    pub mine: bool,
}

impl Seek {
    pub fn view(&self, viewer: BrowserId) -> SeekView<'_> {
        SeekView {
            id: &self.id,
            maker: &self.maker.name,
            account: self.maker.account,
            rating: self.rating.map(|r| r.rating.rating.round()),
            provisional: self.rating.map(|r| r.provisional()),
            time_control: self.time_control,
            category: Category::of(self.time_control).map(Category::name),
            rated: self.rated,
            color: self.color,
            rating_range: self.range,
            start: self.start,
            created_at: iso8601(self.created_at),
            mine: self.maker.holder == viewer,
        }
    }
}

/// `POST /api/seeks`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct SeekRequest {
    time_control: TimeControl,
    #[serde(default)]
    rated: bool,
    #[serde(default)]
    color: ColorChoice,
    #[serde(default)]
    rating_range: Option<[i32; 2]>,
    #[serde(default)]
    start: Start,
    /// A guest's display name (a signed-in player plays under the username).
    #[serde(default)]
    name: Option<String>,
}

#[derive(Serialize, Debug)]
pub struct Created {
    id: String,
}

pub async fn create(
    State(state): State<AppState>,
    Extension(lobby): Extension<Arc<Lobby>>,
    asker: Asker,
    identity: Identity,
    JsonBody(req): JsonBody<SeekRequest>,
) -> AppResult<(StatusCode, Json<Created>)> {
    state.limits.check(asker.ip, Kind::CreateGame)?;
    let time_control = req.time_control.validate().map_err(AppError::BadRequest)?;
    if req.rated {
        check_rated(&identity, time_control)?;
    }
    if let Some([min, max]) = req.rating_range {
        let (lo, hi) = RANGE_BOUNDS;
        if min > max || min < lo || max > hi {
            return Err(AppError::BadRequest(format!(
                "rating_range [{min}, {max}]: must be [min, max] with {lo} <= min <= max <= {hi}"
            )));
        }
    }
    let maker = seat_of(&identity, req.name, asker.ip)?;
    let category = Category::of(time_control);
    let rating = match (&identity.account, category) {
        (Some(_), Some(_)) => Some(rating_of(&state, &identity, category).await?),
        _ => None,
    };
    let now = state.shared.config.clock.now_ms();
    let holder = maker.holder;
    let seek = Arc::new(Seek {
        id: format!("s_{:012x}", random_u64() & 0xffff_ffff_ffff),
        maker,
        rating,
        time_control,
        rated: req.rated,
        color: req.color,
        range: req.rating_range,
        start: req.start,
        created_at: now,
    });
    {
        let mut inner = lobby.lock();
        let open = |e: &&Entry| e.taken_at.is_none();
        if inner.seeks.values().filter(open).count() >= SEEKS_MAX {
            return Err(refused(
                StatusCode::SERVICE_UNAVAILABLE,
                "lobby_full",
                "the lobby has as many open seeks as it may; accept one or try again later",
                &[("max", json!(SEEKS_MAX))],
            ));
        }
        let mine = inner
            .seeks
            .values()
            .filter(open)
            .filter(|e| e.seek.maker.holder == holder)
            .count();
        if mine >= SEEKS_PER_HOLDER {
            return Err(refused(
                StatusCode::CONFLICT,
                "too_many_seeks",
                "you have as many open seeks as you may; cancel one first",
                &[("max", json!(SEEKS_PER_HOLDER))],
            ));
        }
        let times = inner.made.entry(holder).or_default();
        while times.front().is_some_and(|t| now - t >= 60_000) {
            times.pop_front();
        }
        if times.len() >= SEEKS_PER_MINUTE {
            let wait = times
                .front()
                .map_or(60, |t| (60_000 - (now - t)) / 1000 + 1);
            return Err(AppError::RateLimited {
                message: format!(
                    "at most {SEEKS_PER_MINUTE} seeks a minute; try again in {wait} s"
                ),
                retry_after: wait.max(1) as u64,
            });
        }
        times.push_back(now);
        Lobby::seen(&mut inner, holder, now);
        inner.seeks.insert(
            seek.id.clone(),
            Entry {
                seek: seek.clone(),
                taken_at: None,
            },
        );
    }
    let id = seek.id.clone();
    lobby.send(Event::Added(seek));
    Ok((StatusCode::CREATED, Json(Created { id })))
}

/// The open seeks, oldest first, as `viewer` sees them (JSON values).
pub fn open_seeks(lobby: &Lobby, viewer: BrowserId) -> Vec<serde_json::Value> {
    let inner = lobby.lock();
    let mut open: Vec<&Arc<Seek>> = inner
        .seeks
        .values()
        .filter(|e| e.taken_at.is_none())
        .map(|e| &e.seek)
        .collect();
    open.sort_by_key(|s| s.created_at);
    open.iter()
        .filter_map(|s| serde_json::to_value(s.view(viewer)).ok())
        .collect()
}

/// `GET /api/seeks`.
pub async fn list(
    Extension(lobby): Extension<Arc<Lobby>>,
    identity: Identity,
) -> Json<serde_json::Value> {
    Json(json!({ "seeks": open_seeks(&lobby, holder_of(&identity)) }))
}

fn no_seek(id: &str) -> AppError {
    AppError::NotFound(format!(
        "no open seek {id:?} (it may have been accepted or cancelled)"
    ))
}

/// `DELETE /api/seeks/{id}`: the maker's only.
pub async fn cancel(
    Extension(lobby): Extension<Arc<Lobby>>,
    identity: Identity,
    Path(id): Path<String>,
) -> AppResult<StatusCode> {
    let holder = holder_of(&identity);
    {
        let mut inner = lobby.lock();
        match inner.seeks.get(&id) {
            Some(e) if e.taken_at.is_none() => {
                if e.seek.maker.holder != holder {
                    return Err(refused(
                        StatusCode::FORBIDDEN,
                        "not_your_seek",
                        "only the player who made a seek can cancel it",
                        &[],
                    ));
                }
            }
            _ => return Err(no_seek(&id)),
        }
        inner.seeks.remove(&id);
    }
    lobby.send(Event::Removed(id));
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/seeks/{id}/accept`.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct AcceptRequest {
    #[serde(default)]
    name: Option<String>,
}

#[derive(Serialize, Debug)]
pub struct Accepted {
    game: String,
    color: Color,
}

pub async fn accept(
    State(state): State<AppState>,
    Extension(lobby): Extension<Arc<Lobby>>,
    asker: Asker,
    identity: Identity,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<AcceptRequest>,
) -> AppResult<Json<Accepted>> {
    state.limits.check(asker.ip, Kind::Seat)?;
    let holder = holder_of(&identity);
    let taken = || {
        refused(
            StatusCode::CONFLICT,
            "seek_taken",
            "someone else accepted this seek first",
            &[],
        )
    };
    let seek = {
        let inner = lobby.lock();
        match inner.seeks.get(&id) {
            None => return Err(no_seek(&id)),
            Some(e) if e.taken_at.is_some() => return Err(taken()),
            Some(e) => e.seek.clone(),
        }
    };
    if seek.maker.holder == holder {
        return Err(refused(
            StatusCode::BAD_REQUEST,
            "own_seek",
            "this is your own seek: wait for someone to accept it",
            &[],
        ));
    }
    // Nobody plays a player either of them blocks (`crate::safety`).
    if crate::safety::blocked_either_way(&state, seek.maker.holder, holder).await? {
        return Err(crate::safety::blocked_error());
    }
    if seek.rated {
        check_rated(&identity, seek.time_control)?;
    }
    if crate::safety::blocked_either_way(&state, seek.maker.holder, holder).await? {
        return Err(crate::safety::blocked_error());
    }
    if let Some([min, max]) = seek.range {
        let r = rating_of(&state, &identity, Category::of(seek.time_control)).await?;
        let rating = r.rating.rating.round();
        if rating < f64::from(min) || rating > f64::from(max) {
            return Err(refused(
                StatusCode::FORBIDDEN,
                "rating_out_of_range",
                &format!("this seek is for ratings {min} to {max}; yours is {rating}"),
                &[
                    ("min", json!(min)),
                    ("max", json!(max)),
                    ("rating", json!(rating)),
                ],
            ));
        }
    }
    let me = seat_of(&identity, req.name, asker.ip)?;
    let now = state.shared.config.clock.now_ms();
    {
        let mut inner = lobby.lock();
        match inner.seeks.get_mut(&id) {
            Some(e) if e.taken_at.is_none() => e.taken_at = Some(now),
            Some(_) => return Err(taken()),
            None => return Err(no_seek(&id)),
        }
        inner.pools.remove(holder);
        inner.pools.remove(seek.maker.holder);
    }
    lobby.send(Event::Removed(id.clone()));
    let maker_color = match seek.color {
        ColorChoice::White => Color::White,
        ColorChoice::Black => Color::Black,
        ColorChoice::Random if random_u64() & 1 == 0 => Color::White,
        ColorChoice::Random => Color::Black,
    };
    let (white, black) = if maker_color == Color::White {
        (seek.maker.clone(), me)
    } else {
        (me, seek.maker.clone())
    };
    match start_paired(
        &state,
        white,
        black,
        seek.time_control,
        seek.rated,
        seek.start,
    )
    .await
    {
        Ok(game) => {
            for (h, color) in [(seek.maker.holder, maker_color), (holder, !maker_color)] {
                lobby.send(Event::Paired {
                    holder: h,
                    game: game.clone(),
                    color,
                    seek: Some(id.clone()),
                    pool: None,
                });
            }
            Ok(Json(Accepted {
                game,
                color: !maker_color,
            }))
        }
        Err(e) => {
            // The seek goes back to the list: nobody got a game.
            let back = {
                let mut inner = lobby.lock();
                match inner.seeks.get_mut(&id) {
                    Some(entry) => {
                        entry.taken_at = None;
                        Some(entry.seek.clone())
                    }
                    None => None,
                }
            };
            if let Some(s) = back {
                lobby.send(Event::Added(s));
            }
            Err(e)
        }
    }
}
