//! HTTP endpoints of online games: create (through `POST /api/games`), take a seat, device
//! links and joining by one.

use crate::error::{AppError, AppResult};
use crate::http::extract::JsonBody;
use crate::http::limits::Kind;
use crate::http::ownership::Asker;
use crate::identity::layer::Identity;
use crate::model::online::{OnlineGame, TimeControl, NAME_MAX};
use crate::model::GameRecord;
use crate::runtime::game::link_hash;
use crate::runtime::state::AppState;
use crate::util::iso8601;
use crate::view::GameView;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use virada_rules::{Color, Game};
use virada_store::StoredGame;

/// Checks a display name (docs/API.md: 1..24 characters after trimming, no control, format or
/// invisible characters: `user_text`).
pub fn checked_name(name: Option<String>) -> AppResult<String> {
    let name = name.ok_or_else(|| {
        AppError::BadRequest("name: an online game needs the player's display name".into())
    })?;
    crate::user_text::checked("name", &name, NAME_MAX)
}

/// The name a seat is taken under: a signed-in player's username, else the display name sent.
pub fn seat_name(identity: &Identity, name: Option<String>) -> AppResult<String> {
    match &identity.account {
        Some(account) => Ok(account.username.clone()),
        None => checked_name(name),
    }
}

/// Whether a rated game may be made or joined by `identity` with `time_control`: only by an
/// account (401 `sign_in_required`), only with a clock or days per move (400
/// `rated_needs_time_control`: an untimed game has no rating category).
pub fn check_rated(identity: &Identity, time_control: TimeControl) -> AppResult<()> {
    if identity.account.is_none() {
        return Err(crate::accounts::sign_in_required());
    }
    if crate::rating::Category::of(time_control).is_none() {
        return Err(AppError::account(
            StatusCode::BAD_REQUEST,
            "rated_needs_time_control",
            "a rated game needs a clock or days per move",
            &[],
        ));
    }
    Ok(())
}

/// Creates an online game from a record made like any other game's (`rec.meta.mode` is
/// `Online`), rated or casual; the creator holds `color`.
pub async fn create(
    state: &AppState,
    creator: &Asker,
    mut rec: GameRecord,
    (time_control, rated): (TimeControl, bool),
    color: Color,
    name: String,
) -> AppResult<GameView> {
    let time_control = time_control.validate().map_err(AppError::BadRequest)?;
    // The game starts at the set-up position: the moves that led there (a set-up transcript)
    // are not this game's, so "fewer than two moves" (abort) counts from here.
    if !rec.game.moves().is_empty() {
        let mut game = Game::from_position(rec.game.position());
        game.play_forced_passes();
        rec.game = game;
    }
    let mut online = OnlineGame::new(time_control, color, creator.browser, name);
    online.rated = rated;
    let game = StoredGame {
        rec,
        online: Some(online),
    };
    state.create(creator, game).await
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct SeatRequest {
    #[serde(default)]
    name: Option<String>,
}

/// `POST /api/games/{id}/seat`.
pub async fn take_seat(
    State(state): State<AppState>,
    asker: Asker,
    identity: Identity,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<SeatRequest>,
) -> AppResult<Json<GameView>> {
    state.limits.check(asker.ip, Kind::Seat)?;
    let who = asker.browser;
    let name = seat_name(&identity, req.name)?;
    // Nobody sits down against a player either of them blocks.
    crate::safety::check_may_join(&state, who, &id).await?;
    let view = state
        .with_game(&asker, &id, |h| {
            let name = name.clone();
            let identity = &identity;
            async move {
                // A rated game's seats are for accounts only.
                let game = h.view(Some(who)).await?;
                if let Some(online) = game.online.as_ref().filter(|o| o.rated) {
                    if online.you.is_none() {
                        check_rated(identity, online.time_control)?;
                    }
                }
                h.take_seat(who, name).await
            }
        })
        .await?;
    Ok(Json(view))
}

#[derive(Serialize, Debug)]
pub struct LinkView {
    url: String,
    expires_at: String,
}

/// `POST /api/games/{id}/device-link`.
pub async fn device_link(
    State(state): State<AppState>,
    asker: Asker,
    Path(id): Path<String>,
) -> AppResult<Json<LinkView>> {
    state.limits.check(asker.ip, Kind::DeviceLink)?;
    let who = asker.browser;
    let link = state
        .with_game(&asker, &id, |h| async move { h.new_link(who).await })
        .await?;
    Ok(Json(LinkView {
        url: format!("/join/{}", link.token),
        expires_at: iso8601(link.expires_at),
    }))
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    token: String,
}

#[derive(Serialize, Debug)]
pub struct JoinView {
    game: String,
    color: Color,
}

/// `POST /api/join`.
pub async fn join(
    State(state): State<AppState>,
    asker: Asker,
    JsonBody(req): JsonBody<JoinRequest>,
) -> AppResult<Json<JoinView>> {
    state.limits.check(asker.ip, Kind::Seat)?;
    let who = asker.browser;
    let unknown =
        || AppError::NotFound("no such device link (it may have expired or been used)".into());
    if req.token.len() != 32 || !req.token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(unknown());
    }
    let hash = link_hash(&req.token.to_ascii_lowercase());
    let now = state.shared.config.clock.now_ms();
    let found = state.shared.store.online().find_link(&hash, now).await?;
    let Some((game, color)) = found else {
        return Err(unknown());
    };
    crate::safety::check_may_join(&state, who, &game).await?;
    let color = state
        .with_game(&asker, &game, |h| {
            let hash = hash.clone();
            async move { h.use_link(who, color, hash).await }
        })
        .await?;
    Ok(Json(JoinView { game, color }))
}
