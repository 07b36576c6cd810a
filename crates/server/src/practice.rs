//! Practice sets (docs/API.md, "Practice"): a side's own mistakes of a reviewed game played
//! again (`virada_domain::practice`: which mistakes, what counts as found). Building a set
//! re-checks each mistake's position on the engine pool; the sets are kept in the store (at
//! most [`MAX_SETS`] a holder, the oldest dropped): an account's, or a guest browser's, which
//! become the account's when the browser signs up or in (as its games do). Nothing here
//! touches a rating.

use crate::error::{AppError, AppResult};
use crate::http::extract::{rejection_detail, JsonBody};
use crate::http::ownership::Asker;
use crate::identity::layer::Identity;
use crate::identity::BrowserId;
use crate::model::Mode;
use crate::review::{background_job, reviewed};
use crate::runtime::pool::JobSpec;
use crate::runtime::state::AppState;
use crate::util::random_u64;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use virada_domain::dates::{iso8601, now_millis};
use virada_domain::practice::{self, PracticeItem, MAX_ITEMS, PRACTICE_LOSS, PRACTICE_MARGIN};
use virada_engine::coach;
use virada_engine::Limits;
use virada_rules::Color;
use virada_store::PracticeSetRow;

/// Practice sets an account keeps; storing one more drops the oldest.
pub const MAX_SETS: usize = 20;
/// Longest practice set id accepted (ours have 18 characters).
pub const MAX_ID_LEN: usize = 32;

/// `POST /api/games/{id}/practice`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct PracticeRequest {
    /// Whose mistakes: in a game against the computer, the person's side only.
    color: Color,
}

/// `POST /api/practice/{id}/solved`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct SolvedRequest {
    /// The item's ply (as the set numbers it).
    ply: u32,
}

/// A practice set as the API shows it.
#[derive(Serialize, Debug)]
pub struct PracticeSetView {
    pub id: String,
    pub game_id: String,
    pub color: String,
    pub created_at: String,
    /// Kept in the store (false: a set without items, not kept).
    pub stored: bool,
    /// The smallest loss practised and the margin a found move may lose (discs).
    pub min_loss: f32,
    pub margin: f32,
    pub items: Value,
    /// Plies of the items found again.
    pub solved: Vec<u32>,
}

impl PracticeSetView {
    fn of(row: &PracticeSetRow, stored: bool) -> PracticeSetView {
        PracticeSetView {
            id: row.id.clone(),
            game_id: row.game_id.clone(),
            color: row.color.clone(),
            created_at: iso8601(row.created_at),
            stored,
            min_loss: PRACTICE_LOSS,
            margin: PRACTICE_MARGIN,
            // Written by this server from `PracticeItem`s; an unreadable one shows as none.
            items: serde_json::from_str(&row.items).unwrap_or(Value::Array(Vec::new())),
            solved: row.solved.clone(),
        }
    }
}

/// `GET /api/practice`.
#[derive(Serialize, Debug)]
pub struct PracticeListView {
    /// Whether the sets are an account's (else this guest browser's, moved to the account it
    /// signs up or in to).
    pub signed_in: bool,
    pub max_sets: usize,
    pub max_items: usize,
    pub sets: Vec<PracticeSetView>,
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// `POST /api/games/{id}/practice` → 201 the set of `color`'s mistakes (possibly without
/// items: no confirmed mistake of 4+ discs; such a set is not stored).
pub async fn create(
    State(state): State<AppState>,
    asker: Asker,
    id: Result<Path<String>, PathRejection>,
    JsonBody(req): JsonBody<PracticeRequest>,
) -> AppResult<(axum::http::StatusCode, Json<PracticeSetView>)> {
    let game_id = id
        .map(|Path(id)| id)
        .map_err(|e| AppError::BadRequest(format!("path: {}", rejection_detail(&e.body_text()))))?;
    let (rec, _, review) = reviewed(&state, &asker, &game_id).await?;
    if let Mode::Computer { human, .. } = rec.meta.mode {
        if human != req.color {
            return Err(AppError::BadRequest(format!(
                "color: {} is the computer's side in this game; practise your own ({})",
                color_name(req.color),
                color_name(human)
            )));
        }
    }
    let candidates = practice::candidates(&rec.game, &review, req.color);
    // Re-check every position at the hint's effort, in one job (the worker's time cap stops
    // it as a whole; a position cut short misses values and its mistake is not confirmed).
    let effort = state.shared.config.hint_effort;
    let limits = Limits {
        time: Some(effort.time),
        ..effort.limits()
    };
    let spec = JobSpec {
        time_cap: Some(state.shared.config.analysis_time_cap),
        ..background_job(&game_id, &asker)
    };
    let stop = spec.stop.clone();
    let positions: Vec<_> = candidates.iter().map(|c| c.before).collect();
    let rechecks = if positions.is_empty() {
        Vec::new()
    } else {
        state
            .shared
            .pool
            .run(spec, move |engine| {
                positions
                    .iter()
                    .map(|&pos| engine.analyze(pos, &limits, &stop))
                    .collect::<Vec<_>>()
            })
            .await?
    };
    let numbers = coach::move_numbers(&rec.game);
    let items: Vec<PracticeItem> = candidates
        .iter()
        .zip(&rechecks)
        .filter_map(|(c, a)| practice::item(c, a, numbers.get(c.ply).copied().unwrap_or(0)))
        .collect();
    let row = PracticeSetRow {
        id: format!("p_{:016x}", random_u64()),
        holder: asker.browser,
        game_id,
        color: color_name(req.color).to_string(),
        created_at: now_millis(),
        items: serde_json::to_string(&items).map_err(|e| AppError::Internal(e.to_string()))?,
        solved: Vec::new(),
    };
    // A guest's set is kept under its browser (and moves to the account it signs up or in to).
    let stored = !items.is_empty();
    if stored {
        state
            .shared
            .store
            .practice()
            .save_practice_set(row.clone(), MAX_SETS)
            .await?;
    }
    Ok((
        axum::http::StatusCode::CREATED,
        Json(PracticeSetView::of(&row, stored)),
    ))
}

/// At sign-up or sign-in: the guest browser's sets become the account's, as its games do.
/// A failure is logged, not answered: the account is signed in already, and the sets stay
/// under the browser, to be moved at its next sign-in.
pub async fn adopt_guest_sets(state: &AppState, guest: BrowserId, account: BrowserId) {
    match state
        .shared
        .store
        .practice()
        .adopt_practice_sets(guest, account, MAX_SETS)
        .await
    {
        Ok(0) => {}
        Ok(n) => tracing::debug!(sets = n, "a guest's practice sets moved to the account"),
        Err(e) => tracing::warn!(error = %e, "a guest's practice sets stay with the browser"),
    }
}

/// `GET /api/practice`: the sets of the account, or of this guest browser, the newest first.
pub async fn list(
    State(state): State<AppState>,
    asker: Asker,
    identity: Identity,
) -> AppResult<Json<PracticeListView>> {
    let sets = state
        .shared
        .store
        .practice()
        .practice_sets(asker.browser)
        .await?;
    Ok(Json(PracticeListView {
        signed_in: identity.account.is_some(),
        max_sets: MAX_SETS,
        max_items: MAX_ITEMS,
        sets: sets.iter().map(|r| PracticeSetView::of(r, true)).collect(),
    }))
}

/// The set id of the path, checked (404 for anything that is no id of ours).
fn set_id(id: Result<Path<String>, PathRejection>) -> AppResult<String> {
    let id = id
        .map(|Path(id)| id)
        .map_err(|e| AppError::BadRequest(format!("path: {}", rejection_detail(&e.body_text()))))?;
    if id.is_empty()
        || id.len() > MAX_ID_LEN
        || !id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    {
        return Err(no_set(&id));
    }
    Ok(id)
}

fn no_set(id: &str) -> AppError {
    AppError::NotFound(format!("no practice set with id {id:?}"))
}

/// `POST /api/practice/{id}/solved`: an item of the asker's set found again → the set.
pub async fn solved(
    State(state): State<AppState>,
    asker: Asker,
    id: Result<Path<String>, PathRejection>,
    JsonBody(req): JsonBody<SolvedRequest>,
) -> AppResult<Json<PracticeSetView>> {
    let id = set_id(id)?;
    let store = &state.shared.store;
    let sets = store.practice().practice_sets(asker.browser).await?;
    let set = sets
        .iter()
        .find(|s| s.id == id)
        .ok_or_else(|| no_set(&id))?;
    let view = PracticeSetView::of(set, true);
    let known = view
        .items
        .as_array()
        .is_some_and(|items| items.iter().any(|i| i["ply"] == req.ply));
    if !known {
        return Err(AppError::BadRequest(format!(
            "ply: this set has no item at ply {}",
            req.ply
        )));
    }
    let row = store
        .practice()
        .solve_practice(asker.browser, &id, req.ply)
        .await?
        .ok_or_else(|| no_set(&id))?;
    Ok(Json(PracticeSetView::of(&row, true)))
}

/// `DELETE /api/practice/{id}` → `{"deleted": true}`.
pub async fn delete(
    State(state): State<AppState>,
    asker: Asker,
    id: Result<Path<String>, PathRejection>,
) -> AppResult<Json<Value>> {
    let id = set_id(id)?;
    if state
        .shared
        .store
        .practice()
        .delete_practice_set(asker.browser, &id)
        .await?
    {
        Ok(Json(serde_json::json!({ "deleted": true })))
    } else {
        Err(no_set(&id))
    }
}
