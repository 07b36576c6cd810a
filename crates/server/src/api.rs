//! The HTTP routes (docs/API.md): JSON API under `/api`, the live channel (a WebSocket,
//! `crate::online::ws`), and the embedded front end for everything else.

use crate::analysis::AnalysisView;
use crate::assets::WebApp;
use crate::config::BODY_LIMIT;
use crate::error::{AppError, AppResult};
use crate::export;
use crate::http::extract::{rejection_detail, JsonBody};
use crate::http::guard::{check_host_and_origin, HostPolicy};
use crate::http::limits::Kind;
use crate::http::ownership::Asker;
use crate::identity::BrowserId;
use crate::model::online::{OnlineGame, TimeControl};
use crate::model::Owner;
use crate::model::{GameMeta, GameRecord, Level, Mode, RecordNames, StartKind, Status};
use crate::review::{background_job, reviewed};
use crate::runtime::engine_port;
use crate::runtime::game::Action;
use crate::runtime::state::AppState;
use crate::setup::{parse_setup, Setup};
use crate::util::{iso8601, new_game_id, now_millis, random_u64};
use crate::view::{self, GameListView, GameSummary, GameView, HealthView, LevelView};
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{header, HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{middleware, Extension, Json, Router};
use serde::Deserialize;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tower_http::LatencyUnit;
use virada_engine::Limits;
use virada_rules::{Color, Game, Position, Square};
use virada_store::{ListedGame, StoredGame};

/// Most games listed by `GET /api/games`.
pub const LIST_LIMIT: u32 = 1000;

/// All routes; `policy` says which `Host`s and `Origin`s are this server.
pub fn router(state: AppState, policy: Arc<HostPolicy>) -> Router {
    let api = Router::new()
        .route("/health", get(health))
        .route("/levels", get(levels))
        .route("/games", post(create_game).get(list_games))
        .route("/games/{id}", get(get_game).delete(delete_game))
        .route("/games/{id}/moves", post(play_move))
        .route(
            "/games/{id}/undo",
            post(|s, a, i, b| turn(s, a, i, b, Turn::Undo)),
        )
        .route(
            "/games/{id}/redo",
            post(|s, a, i, b| turn(s, a, i, b, Turn::Redo)),
        )
        .route("/games/{id}/hint", get(hint))
        .route("/games/{id}/analysis", get(analysis))
        .route("/games/{id}/practice", post(crate::practice::create))
        .route("/practice", get(crate::practice::list))
        .route(
            "/practice/{id}",
            axum::routing::delete(crate::practice::delete),
        )
        .route("/practice/{id}/solved", post(crate::practice::solved))
        .route("/games/{id}/export", get(export_game))
        .route("/games/{id}/ws", get(crate::online::ws::upgrade))
        .route("/games/{id}/seat", post(crate::online::http::take_seat))
        .route(
            "/games/{id}/device-link",
            post(crate::online::http::device_link),
        )
        .route("/join", post(crate::online::http::join))
        .route("/import", post(import))
        .route(
            "/wthor",
            post(crate::wthor_file::list)
                .layer(DefaultBodyLimit::max(crate::wthor_file::WTHOR_LIMIT)),
        )
        .route("/position", post(crate::position::position))
        .route("/explorer", get(crate::explorer::get))
        .route("/puzzles/next", get(crate::puzzles::next))
        .route("/puzzles/daily", get(crate::puzzles::daily))
        .route("/puzzles/me", get(crate::puzzles::me))
        .route("/puzzles/{id}", get(crate::puzzles::get_puzzle))
        .route("/puzzles/{id}/attempt", post(crate::puzzles::attempt))
        .route("/puzzles/{id}/hint", post(crate::puzzles::hint))
        .route("/accounts", post(crate::accounts::sign_up))
        .route(
            "/session",
            get(crate::accounts::whoami)
                .post(crate::accounts::sign_in)
                .delete(crate::accounts::sign_out),
        )
        .route(
            "/account",
            axum::routing::delete(crate::accounts::delete_account),
        )
        .route("/account/password", post(crate::accounts::change_password))
        .route("/account/recover", post(crate::accounts::recover))
        .merge(crate::safety::routes())
        // Profiles: `/players/{name}` (with its record and games), the archive, my games.
        .merge(crate::profiles::routes())
        .merge(crate::lobby::routes(&state))
        .merge(crate::arena::routes(&state))
        // Watch and compare: live games, leaderboards, players online, my live games.
        .merge(crate::watch::routes())
        .fallback(api_not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(middleware::from_fn_with_state(
            state.limits.clone(),
            crate::http::limits::limit_api,
        ));
    Router::new()
        .nest("/api", api)
        .route("/", get(index))
        .route("/assets/{*path}", get(asset))
        .fallback(spa_fallback)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(Extension(Arc::new(WebApp::new(state.shared.config.web))))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(middleware::from_fn_with_state(
            state.shared.store.clone(),
            crate::identity::layer::identify,
        ))
        .layer(middleware::from_fn_with_state(
            policy,
            check_host_and_origin,
        ))
        // Outermost: the request's span covers every layer, refusals included.
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(crate::runtime::logging::request_span)
                .on_request(())
                .on_response(
                    DefaultOnResponse::new()
                        .level(tracing::Level::DEBUG)
                        .latency_unit(LatencyUnit::Millis),
                )
                // Server errors are logged where they happen (`AppError::Internal`), with why.
                .on_failure(()),
        )
        .with_state(state)
}

// ---------- request helpers ----------

fn game_id(p: Result<Path<String>, PathRejection>) -> AppResult<String> {
    p.map(|Path(id)| id)
        .map_err(|e| AppError::BadRequest(format!("path: {}", rejection_detail(&e.body_text()))))
}

fn query<T>(q: Result<Query<T>, QueryRejection>) -> AppResult<T> {
    q.map(|Query(t)| t).map_err(|e| {
        AppError::BadRequest(format!(
            "query string: {}",
            rejection_detail(&e.body_text())
        ))
    })
}

// ---------- meta ----------

/// How long `/api/health` waits for the database to answer one read before it says 503.
pub const HEALTH_DB_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// `GET /api/health`: 200 `status: "ok"` when the database answers a read (of a game row that
/// does not exist) within [`HEALTH_DB_WAIT`], else 503 `status: "database_unreachable"`, so a
/// proxy or a load balancer stops sending players to an instance that cannot store a move.
async fn health(State(state): State<AppState>) -> axum::response::Response {
    let read = tokio::time::timeout(
        HEALTH_DB_WAIT,
        state.shared.store.games().game_row("g_health"),
    )
    .await;
    let (code, status) = match read {
        Ok(Ok(_)) => (StatusCode::OK, "ok"),
        Ok(Err(e)) => {
            tracing::warn!("health: the database failed a read: {e}");
            (StatusCode::SERVICE_UNAVAILABLE, "database_unreachable")
        }
        Err(_) => {
            tracing::warn!("health: the database did not answer within {HEALTH_DB_WAIT:?}");
            (StatusCode::SERVICE_UNAVAILABLE, "database_unreachable")
        }
    };
    let view = Json(HealthView {
        status,
        version: env!("CARGO_PKG_VERSION"),
        store: state.shared.store.kind(),
        instance: state.shared.config.instance_id.clone(),
        active_games: state.games.running(),
        loading_games: state.games.loading(),
        engine_workers: state.shared.pool.workers(),
        engine_jobs: state.shared.pool.load(),
        connections: state.connections.load(Ordering::Relaxed),
        max_connections: state.shared.config.max_connections,
    });
    (code, view).into_response()
}

async fn levels() -> Json<Vec<LevelView>> {
    Json(virada_engine::Level::all().map(LevelView::from).collect())
}

// ---------- create ----------

#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
enum ModeName {
    Computer,
    Friend,
    Online,
}

/// The person's colour in a computer game.
#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
enum HumanChoice {
    Black,
    White,
    Random,
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
enum StartName {
    Standard,
    Xot,
    Setup,
}

/// `POST /api/games`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct CreateRequest {
    #[serde(default)]
    mode: Option<ModeName>,
    #[serde(default)]
    level: Option<i64>,
    #[serde(default)]
    human_color: Option<HumanChoice>,
    #[serde(default)]
    start: Option<StartName>,
    #[serde(default)]
    setup: Option<String>,
    /// The time control (online games; a computer game may take a clock); online games: the
    /// creator's seat and display name.
    #[serde(default)]
    time_control: Option<crate::model::online::TimeControl>,
    #[serde(default)]
    color: Option<HumanChoice>,
    #[serde(default)]
    name: Option<String>,
    /// Online games: rated (both seats must be held by accounts; `rating`) or casual.
    #[serde(default)]
    rated: Option<bool>,
}

/// `POST /api/import`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct ImportRequest {
    text: String,
    #[serde(default)]
    mode: Option<ModeName>,
    #[serde(default)]
    level: Option<i64>,
    #[serde(default)]
    human_color: Option<HumanChoice>,
}

/// Who plays, from the request's `mode`, `level` and `human_color`: a friend game takes
/// neither a level nor a colour (refused rather than ignored, so a client's mistake shows).
fn choose_mode(mode: ModeName, level: Option<i64>, human: Option<HumanChoice>) -> AppResult<Mode> {
    match mode {
        ModeName::Online => {
            if level.is_some() || human.is_some() {
                return Err(AppError::BadRequest(
                    "an online game takes neither level nor human_color (use \"color\" for your seat)".into(),
                ));
            }
            Ok(Mode::Online)
        }
        ModeName::Friend => {
            if let Some(level) = level {
                return Err(AppError::BadRequest(format!(
                    "level {level}: a friend game has no level (levels are for \"mode\": \"computer\")"
                )));
            }
            if human.is_some() {
                return Err(AppError::BadRequest(
                    "human_color: a friend game has no computer side (human_color is for \"mode\": \"computer\")".into(),
                ));
            }
            Ok(Mode::Friend)
        }
        ModeName::Computer => {
            let level = match level {
                None => Level::DEFAULT,
                Some(n) => Level::new(n).map_err(|e| AppError::BadRequest(e.to_string()))?,
            };
            let human = match human.unwrap_or(HumanChoice::Black) {
                HumanChoice::Black => Color::Black,
                HumanChoice::White => Color::White,
                HumanChoice::Random if random_u64() & 1 == 0 => Color::Black,
                HumanChoice::Random => Color::White,
            };
            Ok(Mode::Computer { level, human })
        }
    }
}

/// The start position (and the moves already played from it).
/// The start of a game set up from `setup`: a transcript (or a record) from the standard start
/// is a standard game.
fn setup_start(setup: Setup) -> (StartKind, Game, Option<String>) {
    let game = setup.into_game();
    let kind = if game.start() == Position::start() {
        StartKind::Standard
    } else {
        StartKind::Setup
    };
    (kind, game, None)
}

fn choose_start(
    start: StartName,
    setup: Option<String>,
) -> AppResult<(StartKind, Game, Option<String>)> {
    match (start, setup) {
        (StartName::Setup, None) => Err(AppError::BadRequest(
            "start \"setup\" needs a \"setup\" text".into(),
        )),
        (StartName::Setup, Some(text)) => Ok(setup_start(parse_setup(&text)?)),
        (_, Some(_)) => Err(AppError::BadRequest(
            "a \"setup\" text needs \"start\": \"setup\"".into(),
        )),
        (StartName::Standard, None) => Ok((StartKind::Standard, Game::new(), None)),
        (StartName::Xot, None) => {
            let (opening, after) =
                engine_port::xot_opening(random_u64()).map_err(AppError::Internal)?;
            Ok((StartKind::Xot, Game::from_position(after), Some(opening)))
        }
    }
}

fn new_record(
    mode: Mode,
    (start_kind, mut game, opening): (StartKind, Game, Option<String>),
    owner: BrowserId,
) -> GameRecord {
    game.play_forced_passes();
    let now = now_millis();
    GameRecord {
        meta: GameMeta {
            id: new_game_id(),
            created_at: now,
            updated_at: now,
            mode,
            start_kind,
            opening,
            seed: random_u64(),
            owner: Owner::Browser(owner),
            record: None,
        },
        game,
    }
}

async fn create_game(
    State(state): State<AppState>,
    asker: Asker,
    identity: crate::identity::layer::Identity,
    JsonBody(req): JsonBody<CreateRequest>,
) -> AppResult<(StatusCode, Json<GameView>)> {
    let mode_name = req.mode.unwrap_or(ModeName::Computer);
    let mode = choose_mode(mode_name, req.level, req.human_color)?;
    if mode != Mode::Online {
        // Games on one device (against the computer, or two people) may take a clock; only a
        // game against the computer may be rated (a bot's game).
        let clock_for_computer = matches!(mode, Mode::Computer { .. });
        for (field, sent) in [
            ("color", req.color.is_some()),
            ("name", req.name.is_some()),
            ("rated", req.rated.is_some() && !clock_for_computer),
        ] {
            if sent {
                return Err(AppError::BadRequest(format!(
                    "{field}: only an online game (\"mode\": \"online\") takes it"
                )));
            }
        }
    }
    let local_clock = match (mode, req.time_control) {
        (Mode::Online, _) | (_, None) => None,
        (_, Some(tc)) => local_time_control(tc)?,
    };
    let start = match (req.start, &req.setup) {
        (Some(s), _) => s,
        (None, Some(_)) => StartName::Setup,
        (None, None) => StartName::Standard,
    };
    state.limits.check(asker.ip, Kind::CreateGame)?;
    if mode == Mode::Online {
        let time_control = req
            .time_control
            .unwrap_or(crate::model::online::TimeControl::None {});
        let rated = req.rated.unwrap_or(false);
        if rated {
            crate::online::http::check_rated(&identity, time_control)?;
        }
        let name = crate::online::http::seat_name(&identity, req.name)?;
        let color = match req.color.unwrap_or(HumanChoice::Random) {
            HumanChoice::Black => Color::Black,
            HumanChoice::White => Color::White,
            HumanChoice::Random if random_u64() & 1 == 0 => Color::Black,
            HumanChoice::Random => Color::White,
        };
        let rec = new_record(mode, choose_start(start, req.setup)?, asker.browser);
        crate::setup::refuse_finished(&rec.game, true)?;
        let view =
            crate::online::http::create(&state, &asker, rec, (time_control, rated), color, name)
                .await?;
        return Ok((StatusCode::CREATED, Json(view)));
    }
    let rec = new_record(mode, choose_start(start, req.setup)?, asker.browser);
    crate::setup::refuse_finished(&rec.game, false)?;
    // A clock starts when the game is created (the first move may be the computer's).
    let mut online =
        local_clock.map(|tc| OnlineGame::local(tc, state.shared.config.clock.now_ms()));
    // A rated game against a level (a bot, `crate::bots`): an account's, with a clock.
    if req.rated == Some(true) {
        let tc = local_clock.unwrap_or(TimeControl::None {});
        crate::online::http::check_rated(&identity, tc)?;
        if let Some(o) = online.as_mut() {
            o.rated = true;
        }
    }
    let game = StoredGame { rec, online };
    Ok((StatusCode::CREATED, Json(state.create(&asker, game).await?)))
}

/// Longest player name a record keeps (longer ones are cut, with "…").
pub const RECORD_NAME_MAX: usize = 40;

/// A record's player name, checked as any typed name (`field`: the GGF tag); cut to
/// [`RECORD_NAME_MAX`] characters rather than refused, since a file's names are not the
/// user's to fix.
fn record_name(field: &str, name: Option<String>) -> AppResult<Option<String>> {
    let Some(name) = name.filter(|n| !n.trim().is_empty()) else {
        return Ok(None);
    };
    let name = name.trim();
    let cut = if name.chars().count() > RECORD_NAME_MAX {
        let mut c: String = name.chars().take(RECORD_NAME_MAX - 1).collect();
        c.push('…');
        c
    } else {
        name.to_string()
    };
    crate::user_text::checked(field, &cut, RECORD_NAME_MAX).map(Some)
}

/// A computer game's time control: a Fischer clock (the bounds of online games) or none;
/// `None`: untimed (no clock part is stored).
fn local_time_control(tc: TimeControl) -> AppResult<Option<TimeControl>> {
    match tc.validate().map_err(AppError::BadRequest)? {
        TimeControl::None {} => Ok(None),
        tc @ TimeControl::Clock { .. } => Ok(Some(tc)),
        TimeControl::Correspondence { .. } => Err(AppError::BadRequest(
            "time_control: a game on one device takes a clock (\"kind\": \"clock\") or none, not days per move".into(),
        )),
    }
}

async fn import(
    State(state): State<AppState>,
    asker: Asker,
    JsonBody(req): JsonBody<ImportRequest>,
) -> AppResult<(StatusCode, Json<GameView>)> {
    let mode = choose_mode(
        req.mode.unwrap_or(ModeName::Friend),
        req.level,
        req.human_color,
    )?;
    if mode == Mode::Online {
        return Err(AppError::BadRequest(
            "mode: an online game is created with POST /api/games (start \"setup\")".into(),
        ));
    }
    state.limits.check(asker.ip, Kind::CreateGame)?;
    let setup = parse_setup(&req.text)?;
    let (ggf_black, ggf_white) = setup.named_players();
    let mut rec = new_record(mode, setup_start(setup), asker.browser);
    crate::setup::refuse_finished(&rec.game, false)?;
    // Opened to step through (a file, a replay link): a record with its players. A game
    // continued against the computer is a game, not a record.
    if mode == Mode::Friend {
        rec.meta.record = Some(RecordNames {
            black: record_name("PB", ggf_black)?,
            white: record_name("PW", ggf_white)?,
        });
    }
    let game = StoredGame { rec, online: None };
    Ok((StatusCode::CREATED, Json(state.create(&asker, game).await?)))
}

// ---------- list / get / delete ----------

#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
enum ListFilter {
    #[serde(alias = "")]
    All,
    Ongoing,
    Finished,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ListQuery {
    #[serde(default)]
    status: Option<ListFilter>,
}

async fn list_games(
    State(state): State<AppState>,
    asker: Asker,
    q: Result<Query<ListQuery>, QueryRejection>,
) -> AppResult<Json<GameListView>> {
    let status = match query(q)?.status {
        None | Some(ListFilter::All) => None,
        Some(ListFilter::Ongoing) => Some(Status::Ongoing),
        Some(ListFilter::Finished) => Some(Status::Finished),
    };
    // Games stored before owners go to the first local browser that lists them.
    let listed = state
        .shared
        .store
        .games()
        .list_games(asker.browser, status, LIST_LIMIT, asker.local)
        .await?;
    let games = listed.into_iter().map(game_summary).collect();
    Ok(Json(GameListView { games }))
}

/// A line of the saved-games list from its stored row: an online game that ended on time, by
/// resignation or deadline scores by the 33-31 rule, not by the board (as the game view).
fn game_summary(g: ListedGame) -> GameSummary {
    let result = match g.end {
        Some(end) => crate::view::online::end_result(end, g.black_discs, g.white_discs),
        None => (g.status == Status::Finished)
            .then(|| virada_rules::GameResult::new(g.black_discs, g.white_discs).into()),
    };
    GameSummary {
        created_at: iso8601(g.created_at),
        updated_at: iso8601(g.updated_at),
        mode: g.mode,
        status: g.status,
        black_discs: g.black_discs,
        white_discs: g.white_discs,
        ply_count: g.ply_count,
        result,
        end_reason: g.end.map(|e| e.reason()),
        black_name: g.black_name,
        white_name: g.white_name,
        opening_name: crate::view::opening_name_of_stored(&g.start, &g.transcript),
        transcript: g.transcript,
        id: g.id,
    }
}

async fn get_game(
    State(state): State<AppState>,
    asker: Asker,
    id: Result<Path<String>, PathRejection>,
) -> AppResult<Json<GameView>> {
    let id = game_id(id)?;
    let mut view = state.view(&asker, &id).await?;
    // Chat off and blocked players' lines, as on the live channel.
    crate::safety::chat::filter_view(&state, asker.browser, &mut view).await?;
    Ok(Json(view))
}

async fn delete_game(
    State(state): State<AppState>,
    asker: Asker,
    id: Result<Path<String>, PathRejection>,
) -> AppResult<StatusCode> {
    let id = game_id(id)?;
    state.delete(&asker, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

// ---------- moves ----------

/// `POST /api/games/{id}/moves`: the square, and the ply it answers (the length of the `plies`
/// the client saw).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    square: Square,
    ply: usize,
}

/// `POST /api/games/{id}/undo` and `/redo`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct TurnRequest {
    ply: usize,
}

/// Which way `POST /api/games/{id}/undo` and `/redo` go.
#[derive(Clone, Copy)]
enum Turn {
    Undo,
    Redo,
}

async fn play_move(
    State(state): State<AppState>,
    asker: Asker,
    id: Result<Path<String>, PathRejection>,
    JsonBody(req): JsonBody<MoveRequest>,
) -> AppResult<Json<GameView>> {
    let (square, ply) = (req.square, req.ply);
    act(&state, &asker, id, Action::Move { square, ply }).await
}

async fn turn(
    State(state): State<AppState>,
    asker: Asker,
    id: Result<Path<String>, PathRejection>,
    JsonBody(req): JsonBody<TurnRequest>,
    which: Turn,
) -> AppResult<Json<GameView>> {
    let action = match which {
        Turn::Undo => Action::Undo { ply: req.ply },
        Turn::Redo => Action::Redo { ply: req.ply },
    };
    act(&state, &asker, id, action).await
}

/// A move, undo or redo over HTTP (local games; scripts): the same actor as the live channel,
/// answered with the game object.
async fn act(
    state: &AppState,
    asker: &Asker,
    id: Result<Path<String>, PathRejection>,
    action: Action,
) -> AppResult<Json<GameView>> {
    let id = game_id(id)?;
    let who = asker.browser;
    let now = state.shared.config.clock.now_ms();
    let view = state
        .with_game(asker, &id, |h| {
            let action = action.clone();
            async move {
                if h.mode == Mode::Online {
                    return Err(AppError::NotAllowed(
                        "online games are played over the WebSocket /api/games/{id}/ws".into(),
                    ));
                }
                h.act(who, action, now).await
            }
        })
        .await?;
    Ok(Json(view))
}

// ---------- engine requests ----------

async fn hint(
    State(state): State<AppState>,
    asker: Asker,
    id: Result<Path<String>, PathRejection>,
) -> AppResult<Json<view::HintView>> {
    let id = game_id(id)?;
    let rec = state
        .with_game(&asker, &id, |h| async move { h.engine_snapshot().await })
        .await?;
    let pos: Position = rec.game.position();
    if pos.is_game_over() {
        return Err(AppError::GameOver(
            "the game is over: no move to hint".into(),
        ));
    }
    let effort = state.shared.config.hint_effort;
    let limits = Limits {
        time: Some(effort.time),
        ..effort.limits()
    };
    let spec = background_job(&id, &asker);
    let stop = spec.stop.clone();
    let result = state
        .shared
        .pool
        .run(spec, move |engine| engine.analyze(pos, &limits, &stop))
        .await?;
    Ok(Json(view::hint_view(rec.game.ply() + 1, &result)))
}

async fn analysis(
    State(state): State<AppState>,
    asker: Asker,
    id: Result<Path<String>, PathRejection>,
) -> AppResult<Json<AnalysisView>> {
    let id = game_id(id)?;
    let (_, view, _) = reviewed(&state, &asker, &id).await?;
    Ok(Json((*view).clone()))
}

// ---------- export ----------

#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Debug, Default)]
#[serde(rename_all = "lowercase")]
enum ExportFormat {
    #[default]
    Transcript,
    Ggf,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExportQuery {
    #[serde(default)]
    format: ExportFormat,
}

async fn export_game(
    State(state): State<AppState>,
    asker: Asker,
    id: Result<Path<String>, PathRejection>,
    q: Result<Query<ExportQuery>, QueryRejection>,
) -> AppResult<Response> {
    let id = game_id(id)?;
    let q = query(q)?;
    let export = state
        .with_game(&asker, &id, |h| async move { h.export().await })
        .await?;
    let text = match q.format {
        ExportFormat::Transcript => format!("{}\n", export.record().game),
        ExportFormat::Ggf => export::ggf(&export),
    };
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

// ---------- static files and fallbacks ----------

async fn index(Extension(web): Extension<Arc<WebApp>>, headers: HeaderMap) -> Response {
    web.serve("index.html", &headers)
}

async fn asset(
    Extension(web): Extension<Arc<WebApp>>,
    Path(path): Path<String>,
    headers: HeaderMap,
) -> Response {
    if web.exists(&path) || !web.exists(&format!("assets/{path}")) {
        web.serve(&path, &headers)
    } else {
        web.serve(&format!("assets/{path}"), &headers)
    }
}

async fn spa_fallback(
    Extension(web): Extension<Arc<WebApp>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    // `/api` and `/api/` (no route of the nested router) are API paths too: JSON, never the app.
    if uri.path() == "/api" || uri.path().starts_with("/api/") {
        return api_not_found(uri).await.into_response();
    }
    if method != Method::GET && method != Method::HEAD {
        return AppError::MethodNotAllowed.into_response();
    }
    let path = uri.path().trim_start_matches('/');
    if path.contains('.') && web.exists(path) {
        // Root-level files such as /favicon.ico.
        return web.serve(path, &headers);
    }
    // Client-side routes (/rules, /game/g_...) are views of the single-page app.
    web.serve("index.html", &headers)
}

async fn api_not_found(uri: Uri) -> AppError {
    AppError::NotFound(format!("no API route {}", uri.path()))
}

async fn method_not_allowed() -> AppError {
    AppError::MethodNotAllowed
}
