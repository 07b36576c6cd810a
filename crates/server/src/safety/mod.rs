//! Players' safety (docs/API.md, "Safety"): blocking a player, reporting a player or a chat
//! line, turning chat off, and the admin role (`admin`: the `virada admin` commands and the
//! admins' report review). The computer levels as rated bots live in `bots`.
//!
//! A block is between accounts: the blocker no longer gets the blocked player's chat lines
//! (`chat`), and neither can take a seat in a game the other holds a seat in
//! ([`check_may_join`]); the lobby and the arena ask [`blocked_either_way`] before pairing two
//! players. Numbers: docs/SECURITY.md.

pub mod admin;
pub mod bots;
pub mod chat;

use crate::accounts::sign_in_required;
use crate::error::{AppError, AppResult};
use crate::http::extract::JsonBody;
use crate::http::limits::Kind;
use crate::http::ownership::Asker;
use crate::identity::layer::{Identity, SignedIn};
use crate::identity::BrowserId;
use crate::runtime::state::AppState;
use crate::util::{iso8601, now_millis};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;
use virada_store::accounts::name_key;
use virada_store::safety::{Blocked, NewReport, Reported};

/// Most accounts one account may block.
pub const MAX_BLOCKS: usize = 200;
/// Most reports one account may make in [`REPORT_WINDOW_MS`].
pub const MAX_REPORTS: usize = 10;
pub const REPORT_WINDOW_MS: i64 = 24 * 60 * 60 * 1000;
/// Most characters of a report's reason (and of an admin's note resolving one).
pub const REASON_MAX: usize = 500;
/// The reasons a report may name (`"reasons"`), as the app's report dialog offers them.
pub const REPORT_REASONS: [&str; 6] = ["cheating", "abuse", "spam", "stalling", "name", "other"];

/// The safety routes (under `/api`).
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/account/blocks", get(list_blocks))
        .route("/account/blocks/{name}", post(block).delete(unblock))
        .route(
            "/account/settings",
            get(chat::settings).put(chat::put_settings),
        )
        .route("/games/{id}/chat", axum::routing::put(chat::put_game_chat))
        .route("/reports", post(report))
        .route("/admin/reports", get(admin::list_reports))
        .route("/admin/reports/{id}/resolve", post(admin::resolve))
        .route("/bots", get(bots::list))
}

/// Whether either account blocks the other (`a`, `b`: the identities requests act as; a guest
/// blocks nobody and nobody can block a guest). What the lobby and the arena ask before
/// pairing two players, and taking a seat before joining a game.
pub async fn blocked_either_way(state: &AppState, a: BrowserId, b: BrowserId) -> AppResult<bool> {
    if a == b {
        return Ok(false);
    }
    Ok(state
        .shared
        .store
        .safety()
        .blocked_between(vec![a], vec![b])
        .await?)
}

/// 403 `blocked`: the two players cannot play each other.
pub fn blocked_error() -> AppError {
    AppError::account(
        StatusCode::FORBIDDEN,
        "blocked",
        "you cannot play this player (one of you blocked the other)",
        &[],
    )
}

/// Refuses `who` a seat in game `id` when `who` and a holder of one of its seats (not `who`
/// itself) block each other: 403 `blocked`.
pub async fn check_may_join(state: &AppState, who: BrowserId, id: &str) -> AppResult<()> {
    let safety = state.shared.store.safety();
    let (black, white) = safety.seat_holders(id).await?;
    let others: Vec<BrowserId> = black
        .into_iter()
        .chain(white)
        .filter(|h| *h != who)
        .collect();
    if safety.blocked_between(vec![who], others).await? {
        return Err(blocked_error());
    }
    Ok(())
}

/// The account behind `identity`, or 401 `sign_in_required`.
pub(crate) fn signed_in(identity: &Identity) -> AppResult<&SignedIn> {
    identity.account.as_ref().ok_or_else(sign_in_required)
}

fn no_such_player(name: &str) -> AppError {
    AppError::account(
        StatusCode::NOT_FOUND,
        "no_such_player",
        &format!("no player is called {name}"),
        &[("name", name.into())],
    )
}

/// A username from a path: 404 `no_such_player` unless it could be one.
fn path_name(name: &str) -> AppResult<String> {
    crate::accounts::checked_username(name)
        .map(name_key)
        .map_err(|_| no_such_player(name))
}

/// `GET /api/account/blocks`: `{"blocks": [{"username", "at"}]}`, by name.
async fn list_blocks(
    State(state): State<AppState>,
    identity: Identity,
) -> AppResult<Json<serde_json::Value>> {
    let me = signed_in(&identity)?;
    let rows = state.shared.store.safety().blocks(me.holder).await?;
    let blocks: Vec<_> = rows
        .iter()
        .map(|b| json!({"username": b.username, "at": iso8601(b.at)}))
        .collect();
    Ok(Json(json!({ "blocks": blocks })))
}

/// `POST /api/account/blocks/{name}`: 200 `{"blocked": name}`.
async fn block(
    State(state): State<AppState>,
    asker: Asker,
    identity: Identity,
    Path(name): Path<String>,
) -> AppResult<Json<serde_json::Value>> {
    let me = signed_in(&identity)?;
    state.limits.check(asker.ip, Kind::Seat)?;
    let key = path_name(&name)?;
    if key == name_key(&me.username) {
        return Err(AppError::account(
            StatusCode::BAD_REQUEST,
            "cannot_block_yourself",
            "you cannot block yourself",
            &[],
        ));
    }
    match state
        .shared
        .store
        .safety()
        .block(me.holder, &key, MAX_BLOCKS, now_millis())
        .await?
    {
        Blocked::Done(username) => Ok(Json(json!({ "blocked": username }))),
        Blocked::NoSuchPlayer => Err(no_such_player(&name)),
        Blocked::Full => Err(AppError::account(
            StatusCode::CONFLICT,
            "too_many_blocks",
            &format!("you block {MAX_BLOCKS} players already: unblock one first"),
            &[("max", MAX_BLOCKS.into())],
        )),
    }
}

/// `DELETE /api/account/blocks/{name}`: 204 (404 `not_blocked`).
async fn unblock(
    State(state): State<AppState>,
    asker: Asker,
    identity: Identity,
    Path(name): Path<String>,
) -> AppResult<Response> {
    let me = signed_in(&identity)?;
    state.limits.check(asker.ip, Kind::Seat)?;
    let key = path_name(&name)?;
    if state.shared.store.safety().unblock(me.holder, &key).await? {
        Ok(StatusCode::NO_CONTENT.into_response())
    } else {
        Err(AppError::account(
            StatusCode::NOT_FOUND,
            "not_blocked",
            &format!("you do not block {name}"),
            &[("name", name.as_str().into())],
        ))
    }
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ReportRequest {
    player: String,
    #[serde(default)]
    game: Option<String>,
    #[serde(default)]
    chat_line: Option<u32>,
    /// Reasons from [`REPORT_REASONS`] (each at most once).
    #[serde(default)]
    reasons: Vec<String>,
    /// Free text: required without `reasons`, else optional (the details).
    #[serde(default)]
    reason: Option<String>,
}

/// The reasons a report names, checked: each one of [`REPORT_REASONS`], none twice (400
/// `invalid_reason` with the allowed `reasons`).
fn checked_reasons(reasons: &[String]) -> AppResult<Vec<&'static str>> {
    let mut out: Vec<&'static str> = Vec::new();
    for r in reasons {
        match REPORT_REASONS.iter().find(|k| **k == r.as_str()) {
            Some(k) if !out.contains(k) => out.push(*k),
            _ => {
                return Err(AppError::account(
                    StatusCode::BAD_REQUEST,
                    "invalid_reason",
                    &format!(
                        "reasons: {:?} is not one of {} (each at most once)",
                        r.chars().take(40).collect::<String>(),
                        REPORT_REASONS.join(", ")
                    ),
                    &[("reasons", json!(REPORT_REASONS))],
                ))
            }
        }
    }
    Ok(out)
}

/// The text a report keeps: its reasons, then its details (`"spam, abuse: details"`).
fn report_text(reasons: &[&str], details: Option<String>) -> String {
    match (reasons.is_empty(), details) {
        (true, Some(d)) => d,
        (false, Some(d)) => format!("{}: {d}", reasons.join(", ")),
        (_, None) => reasons.join(", "),
    }
}

/// Checks free text (a reason, a note): 1 to [`REASON_MAX`] characters after trimming, no
/// control or invisible characters (`user_text`).
pub(crate) fn checked_reason(field: &str, text: &str) -> AppResult<String> {
    crate::user_text::checked(field, text, REASON_MAX)
}

/// `POST /api/reports` `{"player", "game"?, "chat_line"?, "reasons"?, "reason"?}`: 201
/// `{"id"}`. Accounts only; at most [`MAX_REPORTS`] a day an account. Reasons from the list,
/// free text, or both (the text then gives details).
async fn report(
    State(state): State<AppState>,
    asker: Asker,
    identity: Identity,
    JsonBody(req): JsonBody<ReportRequest>,
) -> AppResult<Response> {
    let me = signed_in(&identity)?;
    state.limits.check(asker.ip, Kind::Seat)?;
    let reasons = checked_reasons(&req.reasons)?;
    let details = match &req.reason {
        Some(text) if !reasons.is_empty() && text.trim().is_empty() => None,
        Some(text) => Some(checked_reason("reason", text)?),
        None if reasons.is_empty() => {
            return Err(AppError::BadRequest(
                "reason: give reasons from the list or a reason in words".into(),
            ))
        }
        None => None,
    };
    let reason = report_text(&reasons, details);
    let key = path_name(&req.player)?;
    if key == name_key(&me.username) {
        return Err(AppError::BadRequest(
            "player: you cannot report yourself".into(),
        ));
    }
    if req.chat_line.is_some() && req.game.is_none() {
        return Err(AppError::BadRequest(
            "chat_line: a chat line is reported with its game".into(),
        ));
    }
    if let Some(game) = &req.game {
        // The game must exist and be one the reporter may see (online games: anyone).
        state.view(&asker, game).await?;
    }
    let now = now_millis();
    let out = state
        .shared
        .store
        .safety()
        .insert_report(
            NewReport {
                reporter: me.holder,
                player_key: key,
                game: req.game,
                chat_line: req.chat_line,
                reason,
                at: now,
            },
            MAX_REPORTS,
            now - REPORT_WINDOW_MS,
        )
        .await?;
    match out {
        Reported::Done(id) => Ok((StatusCode::CREATED, Json(json!({ "id": id }))).into_response()),
        Reported::NoSuchPlayer => Err(no_such_player(&req.player)),
        Reported::TooMany => Err(AppError::account(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_reports",
            &format!("at most {MAX_REPORTS} reports a day"),
            &[("max", MAX_REPORTS.into())],
        )),
    }
}
