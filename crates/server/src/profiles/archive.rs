//! `GET /api/players/{name}/games`: a player's public games (being played or finished), the
//! most recently changed first, filtered by opponent, result and opening, a page at a time.
//!
//! The opponent filter is part of the query; the result and opening filters are applied to the
//! rows read, at most [`SCAN_LIMIT`] rows a request: a page that is not full but has a `next`
//! cursor means that more games may match further back.

use super::{GameLine, Outcome};
use crate::error::{AppError, AppResult};
use crate::runtime::state::AppState;
use crate::util::is_valid_game_id;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use virada_engine::opening_names::{self, OpeningName};
use virada_rules::formats::transcript::Transcript;
use virada_rules::Position;
use virada_store::accounts::name_key;
use virada_store::profiles::Phases;
use virada_store::{AccountGame, GamesQuery};

/// Games a page holds unless asked for fewer, and at most.
pub const PAGE_DEFAULT: usize = 20;
pub const PAGE_MAX: usize = 50;
/// Rows one request reads at most while looking for games that match the result and opening
/// filters.
pub const SCAN_LIMIT: usize = 500;
/// Rows read from the store at a time.
const BATCH: usize = 100;
/// Longest opponent name or opening name a filter takes.
pub const FILTER_MAX: usize = 64;
/// Plies of a game searched for a named opening (named lines are shorter).
const OPENING_PLIES: usize = 40;

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct ArchiveParams {
    opponent: Option<String>,
    result: Option<String>,
    opening: Option<String>,
    cursor: Option<String>,
    limit: Option<usize>,
}

/// A page of the archive; `next` is the cursor of the following page (`null`: no more).
#[derive(Serialize, Debug)]
pub struct ArchivePage {
    pub games: Vec<GameLine>,
    pub next: Option<String>,
}

fn bad(code: &'static str, message: &str, params: &[(&str, serde_json::Value)]) -> AppError {
    AppError::account(StatusCode::BAD_REQUEST, code, message, params)
}

/// `<updated_at>.<id>` of the last game of a page.
fn cursor_of(g: &AccountGame) -> String {
    format!("{}.{}", g.updated_at, g.id)
}

fn parse_cursor(text: &str) -> AppResult<(i64, String)> {
    let invalid = || {
        bad(
            "invalid_cursor",
            "the cursor is not one this server gave",
            &[],
        )
    };
    let (at, id) = text.split_once('.').ok_or_else(invalid)?;
    let at: i64 = at.parse().map_err(|_| invalid())?;
    if !is_valid_game_id(id) {
        return Err(invalid());
    }
    Ok((at, id.to_string()))
}

/// The named opening a filter asks for: its id, or its English or Portuguese name, without
/// regard to case.
fn find_opening(text: &str) -> AppResult<&'static OpeningName> {
    let wanted = text.trim().to_lowercase();
    opening_names::opening_names()
        .iter()
        .find(|n| n.id == wanted || n.en.to_lowercase() == wanted || n.pt.to_lowercase() == wanted)
        .ok_or_else(|| {
            bad(
                "unknown_opening",
                &format!("no opening is named {text:?}"),
                &[("opening", text.into())],
            )
        })
}

/// Whether the game passed through the named opening's position (in any orientation) in its
/// first plies: a game in the Stephenson went through the Tiger too.
fn reached(g: &AccountGame, opening: &OpeningName) -> bool {
    let (Ok(start), Ok(t)) = (
        g.start.parse::<Position>(),
        g.transcript.parse::<Transcript>(),
    ) else {
        return false;
    };
    let first = Transcript::new(t.moves().iter().take(OPENING_PLIES).copied().collect());
    let Ok(game) = first.replay(start) else {
        return false;
    };
    game.positions()
        .iter()
        .any(|p| opening_names::name_of(p).is_some_and(|n| n.id == opening.id))
}

pub async fn games(
    State(state): State<AppState>,
    Path(name): Path<String>,
    q: Result<Query<ArchiveParams>, QueryRejection>,
) -> AppResult<Json<ArchivePage>> {
    let Query(p) = q.map_err(|e| {
        AppError::BadRequest(format!(
            "query string: {}",
            crate::http::extract::rejection_detail(&e.body_text())
        ))
    })?;
    let unknown = || AppError::NotFound(format!("no player named {name:?}"));
    if name.len() > crate::accounts::USERNAME_MAX {
        return Err(unknown());
    }
    let store = &state.shared.store;
    let account = store
        .accounts()
        .account_by_name(&name_key(&name))
        .await?
        .ok_or_else(unknown)?;
    let limit = p.limit.unwrap_or(PAGE_DEFAULT);
    if !(1..=PAGE_MAX).contains(&limit) {
        return Err(bad(
            "invalid_limit",
            &format!("a page has 1 to {PAGE_MAX} games"),
            &[("max", PAGE_MAX.into())],
        ));
    }
    let too_long = |field: &str| {
        bad(
            "filter_too_long",
            &format!("the {field} filter has at most {FILTER_MAX} characters"),
            &[("field", field.into()), ("max", FILTER_MAX.into())],
        )
    };
    let opponent = match p.opponent.as_deref().map(str::trim) {
        Some("") | None => None,
        Some(o) if o.chars().count() > FILTER_MAX => return Err(too_long("opponent")),
        Some(o) => Some(o.to_ascii_lowercase()),
    };
    let result = match p.result.as_deref() {
        None | Some("") => None,
        Some(r) => Some(Outcome::from_name(r).ok_or_else(|| {
            bad(
                "invalid_result",
                "result is win, draw, loss or aborted",
                &[("result", r.into())],
            )
        })?),
    };
    let opening = match p.opening.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(o) if o.chars().count() > FILTER_MAX => return Err(too_long("opening")),
        Some(o) => Some(find_opening(o)?),
    };
    let mut before = p.cursor.as_deref().map(parse_cursor).transpose()?;
    let filtered = result.is_some() || opening.is_some();
    let mut page: Vec<AccountGame> = Vec::new();
    let mut scanned = 0;
    let next = loop {
        // One row more than a page when nothing is filtered: it says whether another follows.
        let want = if filtered { BATCH } else { limit + 1 };
        let rows = store
            .profiles()
            .account_games(GamesQuery {
                holder: account.holder,
                phases: Phases::Public,
                opponent: opponent.clone(),
                before: before.clone(),
                limit: want,
            })
            .await?;
        let (count, exhausted) = (rows.len(), rows.len() < want);
        let mut last = None;
        let mut full_at = None;
        for (i, g) in rows.into_iter().enumerate() {
            scanned += 1;
            last = Some((g.updated_at, g.id.clone()));
            let keep = result.is_none_or(|r| {
                g.end
                    .map(|end| super::outcome(g.color, end, g.black_discs, g.white_discs))
                    == Some(r)
            }) && opening.is_none_or(|o| reached(&g, o));
            if keep {
                page.push(g);
                if page.len() == limit {
                    full_at = Some(i);
                    break;
                }
            }
        }
        if let Some(i) = full_at {
            // Full: the next page starts after its last game, if anything follows it.
            let more = i + 1 < count || !exhausted;
            break more.then(|| cursor_of(page.last().expect("a full page")));
        }
        if exhausted {
            break None;
        }
        before = last;
        if scanned >= SCAN_LIMIT {
            break before.as_ref().map(|(at, id)| format!("{at}.{id}"));
        }
    };
    Ok(Json(ArchivePage {
        games: page.into_iter().map(GameLine::of).collect(),
        next,
    }))
}
