//! The HTTP routes (docs/API.md): JSON API under `/api`, live events (SSE), and the embedded
//! front end for everything else.

use crate::assets;
use crate::config::BODY_LIMIT;
use crate::engine_port::{self, Effort};
use crate::error::{AppError, AppResult};
use crate::export;
use crate::model::{parse_color, GameMeta, GameRecord, Mode, StartKind};
use crate::session::{play_forced_passes, Command, LiveEvent};
use crate::setup::{parse_setup, Setup};
use crate::state::AppState;
use crate::util::{new_game_id, now_millis, random_u64};
use crate::view::{self, GameView, LevelView, SummaryView};
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{header, HeaderMap, Method, StatusCode, Uri};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::stream::{self, Stream};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast;
use virada_rules::{Color, Game, Position, Square};

/// All routes.
pub fn router(state: AppState) -> Router {
    let api = Router::new()
        .route("/health", get(health))
        .route("/levels", get(levels))
        .route("/games", post(create_game).get(list_games))
        .route("/games/{id}", get(get_game).delete(delete_game))
        .route("/games/{id}/moves", post(play_move))
        .route("/games/{id}/undo", post(undo))
        .route("/games/{id}/redo", post(redo))
        .route("/games/{id}/hint", get(hint))
        .route("/games/{id}/analysis", get(analysis))
        .route("/games/{id}/export", get(export_game))
        .route("/games/{id}/events", get(events))
        .route("/import", post(import))
        .fallback(api_not_found)
        .method_not_allowed_fallback(method_not_allowed);
    Router::new()
        .nest("/api", api)
        .route("/", get(index))
        .route("/assets/{*path}", get(asset))
        .fallback(spa_fallback)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(state)
}

// ---------- request helpers ----------

/// Parses a JSON body (whatever its content type), mapping every failure to a clear 400 / 413.
fn parse_body<T: DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> AppResult<T> {
    let bytes = body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            AppError::PayloadTooLarge(format!("the request body exceeds {BODY_LIMIT} bytes"))
        } else {
            AppError::BadRequest(format!("cannot read the request body: {e}"))
        }
    })?;
    let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
        b"{}"
    } else {
        &bytes
    };
    serde_json::from_slice(bytes).map_err(|e| AppError::BadRequest(format!("request body: {e}")))
}

fn game_id(p: Result<Path<String>, PathRejection>) -> AppResult<String> {
    p.map(|Path(id)| id)
        .map_err(|e| AppError::BadRequest(format!("path: {e}")))
}

fn query<T>(q: Result<Query<T>, QueryRejection>) -> AppResult<T> {
    q.map(|Query(t)| t)
        .map_err(|e| AppError::BadRequest(format!("query string: {e}")))
}

// ---------- meta ----------

async fn health(State(state): State<AppState>) -> Json<Value> {
    let active = state.registry.lock().await.len();
    Json(json!({
        "status": "ok",
        "version": env!("CARGO_PKG_VERSION"),
        "active_games": active,
        "engine_workers": state.shared.pool.workers(),
        "engine_jobs": state.shared.pool.load(),
    }))
}

async fn levels() -> Json<Vec<LevelView>> {
    Json(engine_port::levels().iter().map(LevelView::from).collect())
}

// ---------- create ----------

#[derive(Deserialize, Default)]
#[serde(default)]
struct CreateRequest {
    mode: Option<String>,
    level: Option<i64>,
    human_color: Option<String>,
    start: Option<String>,
    setup: Option<String>,
    /// `POST /api/import` sends the text here.
    text: Option<String>,
}

fn build_record(req: CreateRequest, default_mode: Mode) -> AppResult<GameRecord> {
    let mode = match req.mode.as_deref() {
        None => default_mode,
        Some(m) => Mode::parse(m).ok_or_else(|| {
            AppError::BadRequest(format!("mode {m:?}: expected \"computer\" or \"friend\""))
        })?,
    };
    let (level, human_color) = match mode {
        Mode::Friend => (None, None),
        Mode::Computer => {
            let max = engine_port::max_level();
            let level = req
                .level
                .unwrap_or(i64::from(max.min(virada_engine::levels::DEFAULT_LEVEL)));
            if level < 1 || level > i64::from(max) {
                return Err(AppError::BadRequest(format!(
                    "level {level} is out of range: levels are 1 to {max}"
                )));
            }
            let color = match req.human_color.as_deref().unwrap_or("black") {
                "random" => {
                    if random_u64() & 1 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    }
                }
                c => parse_color(c).ok_or_else(|| {
                    AppError::BadRequest(format!(
                        "human_color {c:?}: expected \"black\", \"white\" or \"random\""
                    ))
                })?,
            };
            (Some(level as u8), Some(color))
        }
    };
    let setup_text = req.setup.or(req.text);
    let start_name = req.start.unwrap_or_else(|| {
        if setup_text.is_some() {
            "setup"
        } else {
            "standard"
        }
        .to_string()
    });
    let (start_kind, game, opening) = match start_name.as_str() {
        "standard" => (StartKind::Standard, Game::new(), None),
        "xot" => {
            let (opening, after) =
                engine_port::xot_opening(random_u64()).map_err(AppError::Internal)?;
            (StartKind::Xot, Game::from_position(after), Some(opening))
        }
        "setup" => {
            let text = setup_text.ok_or_else(|| {
                AppError::BadRequest("start \"setup\" needs a \"setup\" text".into())
            })?;
            let setup: Setup =
                parse_setup(&text).map_err(|e| AppError::BadRequest(format!("setup: {e}")))?;
            (StartKind::Setup, setup.into_game(), None)
        }
        other => {
            return Err(AppError::BadRequest(format!(
                "start {other:?}: expected \"standard\", \"xot\" or \"setup\""
            )))
        }
    };
    let mut game = game;
    play_forced_passes(&mut game);
    let now = now_millis();
    Ok(GameRecord {
        meta: GameMeta {
            id: new_game_id(),
            created_at: now,
            updated_at: now,
            mode,
            level,
            human_color,
            start_kind,
            opening,
            seed: random_u64(),
        },
        game,
    })
}

async fn create_game(
    State(state): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> AppResult<(StatusCode, Json<GameView>)> {
    let req: CreateRequest = parse_body(body)?;
    let rec = build_record(req, Mode::Computer)?;
    Ok((StatusCode::CREATED, Json(state.create(rec).await?)))
}

async fn import(
    State(state): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> AppResult<(StatusCode, Json<GameView>)> {
    let mut req: CreateRequest = parse_body(body)?;
    if req.text.is_none() && req.setup.is_none() {
        return Err(AppError::BadRequest("import needs a \"text\" field".into()));
    }
    req.start = Some("setup".into());
    let rec = build_record(req, Mode::Friend)?;
    Ok((StatusCode::CREATED, Json(state.create(rec).await?)))
}

// ---------- list / get / delete ----------

#[derive(Deserialize)]
struct ListQuery {
    status: Option<String>,
}

async fn list_games(
    State(state): State<AppState>,
    q: Result<Query<ListQuery>, QueryRejection>,
) -> AppResult<Json<Value>> {
    let q = query(q)?;
    let status = match q.status.as_deref() {
        None | Some("") | Some("all") => None,
        Some(s @ ("ongoing" | "finished")) => Some(s.to_string()),
        Some(s) => {
            return Err(AppError::BadRequest(format!(
                "status {s:?}: expected \"ongoing\" or \"finished\""
            )))
        }
    };
    let rows = state
        .shared
        .db
        .call(move |conn| crate::db::list_games(conn, status.as_deref(), 1000))
        .await?;
    let games: Vec<SummaryView> = rows.into_iter().map(SummaryView::from).collect();
    Ok(Json(json!({ "games": games })))
}

async fn get_game(
    State(state): State<AppState>,
    id: Result<Path<String>, PathRejection>,
) -> AppResult<Json<GameView>> {
    let id = game_id(id)?;
    Ok(Json(state.request(&id, Command::Get).await?))
}

async fn delete_game(
    State(state): State<AppState>,
    id: Result<Path<String>, PathRejection>,
) -> AppResult<StatusCode> {
    let id = game_id(id)?;
    state.delete(&id).await?;
    Ok(StatusCode::NO_CONTENT)
}

// ---------- moves ----------

#[derive(Deserialize)]
struct MoveRequest {
    square: Option<Value>,
}

async fn play_move(
    State(state): State<AppState>,
    id: Result<Path<String>, PathRejection>,
    body: Result<Bytes, BytesRejection>,
) -> AppResult<Json<GameView>> {
    let id = game_id(id)?;
    let req: MoveRequest = parse_body(body)?;
    let text = match req.square {
        Some(Value::String(s)) => s,
        Some(other) => {
            return Err(AppError::BadRequest(format!(
                "\"square\" must be a string like \"d3\", not {other}"
            )))
        }
        None => {
            return Err(AppError::BadRequest(
                "missing \"square\" (e.g. \"d3\")".into(),
            ))
        }
    };
    let sq: Square = text.trim().parse().map_err(|_| {
        AppError::BadRequest(format!(
            "{text:?} is not a square: use a column a-h and a row 1-8, like \"d3\""
        ))
    })?;
    Ok(Json(state.request(&id, |r| Command::Play(sq, r)).await?))
}

async fn undo(
    State(state): State<AppState>,
    id: Result<Path<String>, PathRejection>,
) -> AppResult<Json<GameView>> {
    let id = game_id(id)?;
    Ok(Json(state.request(&id, Command::Undo).await?))
}

async fn redo(
    State(state): State<AppState>,
    id: Result<Path<String>, PathRejection>,
) -> AppResult<Json<GameView>> {
    let id = game_id(id)?;
    Ok(Json(state.request(&id, Command::Redo).await?))
}

// ---------- engine requests ----------

/// A stop flag that a timer raises after `effort.time`.
fn timed_stop(effort: &Effort) -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let s = stop.clone();
    let t = effort.time;
    tokio::spawn(async move {
        tokio::time::sleep(t).await;
        s.store(true, Ordering::Relaxed);
    });
    stop
}

async fn hint(
    State(state): State<AppState>,
    id: Result<Path<String>, PathRejection>,
) -> AppResult<Json<view::HintView>> {
    let id = game_id(id)?;
    let rec = state.request(&id, Command::Snapshot).await?;
    let pos: Position = rec.game.position();
    if pos.is_game_over() {
        return Err(AppError::GameOver(
            "the game is over: no move to hint".into(),
        ));
    }
    let effort = state.shared.config.hint_effort;
    let stop = timed_stop(&effort);
    let result = state
        .shared
        .pool
        .run(move |engine| engine.hint(pos, &effort, &stop))
        .await?;
    Ok(Json(view::hint_view(rec.game.ply() + 1, &result)))
}

async fn analysis(
    State(state): State<AppState>,
    id: Result<Path<String>, PathRejection>,
) -> AppResult<Json<Value>> {
    let id = game_id(id)?;
    let rec = state.request(&id, Command::Snapshot).await?;
    let key = crate::model::moves_to_text(rec.game.moves().iter().copied());
    if let Some((k, v)) = state
        .shared
        .analysis_cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&id)
    {
        if *k == key {
            return Ok(Json((**v).clone()));
        }
    }
    let effort = state.shared.config.analysis_effort;
    let stop = timed_stop(&effort);
    let game = rec.game.clone();
    let reviews = state
        .shared
        .pool
        .run(move |engine| engine.analyze_game(&game, &effort, &stop))
        .await?;
    let value = Arc::new(crate::analysis::analysis_json(&rec.game, &reviews));
    {
        let mut cache = state
            .shared
            .analysis_cache
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if cache.len() > 256 {
            cache.clear();
        }
        cache.insert(id, (key, value.clone()));
    }
    Ok(Json((*value).clone()))
}

// ---------- export ----------

#[derive(Deserialize)]
struct ExportQuery {
    format: Option<String>,
}

async fn export_game(
    State(state): State<AppState>,
    id: Result<Path<String>, PathRejection>,
    q: Result<Query<ExportQuery>, QueryRejection>,
) -> AppResult<Response> {
    let id = game_id(id)?;
    let q = query(q)?;
    let rec = state.request(&id, Command::Snapshot).await?;
    let text = match q.format.as_deref().unwrap_or("transcript") {
        "transcript" => format!("{}\n", rec.game),
        "ggf" => export::ggf(&rec),
        other => {
            return Err(AppError::BadRequest(format!(
                "format {other:?}: expected \"transcript\" or \"ggf\""
            )))
        }
    };
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

// ---------- live events ----------

async fn events(
    State(state): State<AppState>,
    id: Result<Path<String>, PathRejection>,
) -> AppResult<Sse<impl Stream<Item = Result<Event, Infallible>>>> {
    let id = game_id(id)?;
    let (first, rx) = state.request(&id, Command::Subscribe).await?;
    let first = serde_json::to_string(&first)
        .map_err(|e| AppError::Internal(format!("serialise game: {e}")))?;
    let shutdown = state.shared.shutdown.clone();
    let stream = stream::unfold(
        (Some(first), rx, shutdown),
        |(first, mut rx, mut shutdown)| async move {
            if let Some(json) = first {
                let ev = Event::default().event("game").data(json);
                return Some((Ok(ev), (None, rx, shutdown)));
            }
            loop {
                if *shutdown.borrow() {
                    return None;
                }
                let next = tokio::select! {
                    r = rx.recv() => r,
                    _ = shutdown.changed() => return None,
                };
                let ev = match next {
                    Ok(LiveEvent::Game(j)) => Event::default().event("game").data(&*j),
                    Ok(LiveEvent::Thinking(j)) => Event::default().event("thinking").data(&*j),
                    Ok(LiveEvent::Error(j)) => Event::default().event("error").data(&*j),
                    Err(broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(broadcast::error::RecvError::Closed) => return None,
                };
                return Some((Ok(ev), (None, rx, shutdown)));
            }
        },
    );
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))))
}

// ---------- static files and fallbacks ----------

async fn index(headers: HeaderMap) -> Response {
    assets::serve("index.html", &headers)
}

async fn asset(Path(path): Path<String>, headers: HeaderMap) -> Response {
    if assets::exists(&path) || !assets::exists(&format!("assets/{path}")) {
        assets::serve(&path, &headers)
    } else {
        assets::serve(&format!("assets/{path}"), &headers)
    }
}

async fn spa_fallback(method: Method, uri: Uri, headers: HeaderMap) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return AppError::MethodNotAllowed.into_response();
    }
    let path = uri.path().trim_start_matches('/');
    if path.contains('.') && assets::exists(path) {
        // Root-level files such as /favicon.ico.
        return assets::serve(path, &headers);
    }
    // Client-side routes (/rules, /game/g_...) are views of the single-page app.
    assets::serve("index.html", &headers)
}

async fn api_not_found(uri: Uri) -> AppError {
    AppError::NotFound(format!("no API route {}", uri.path()))
}

async fn method_not_allowed() -> AppError {
    AppError::MethodNotAllowed
}
