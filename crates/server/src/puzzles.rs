//! The puzzle routes (docs/API.md, "Puzzles"): the shipped puzzles
//! ([`virada_engine::puzzles::shipped`]) served one at a time, the next one for a browser near
//! its rating, the daily one, an attempt (right so far with the opponent's replies, solved, or
//! wrong with the solver's refutation), a hint, and the browser's own rating.
//!
//! A browser's first result on a puzzle (solved, a wrong move, or a hint asked) updates both
//! Glicko-2 ratings ([`virada_store::PuzzleStore::rate_puzzle`]); retries are practice. The solution
//! is never sent before it is played or hinted.

use crate::error::{AppError, AppResult, ErrorParams};
use crate::http::extract::{rejection_detail, JsonBody};
use crate::http::limits::Kind;
use crate::http::ownership::Asker;
use crate::runtime::engine_port::EnginePort;
use crate::runtime::pool::{JobSpec, Priority};
use crate::runtime::state::AppState;
use crate::util::{iso8601, now_millis, random_u64};
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;
use virada_engine::endgame::{solve, SolveOptions};
use virada_engine::puzzles::{shipped, Puzzle, PuzzleKind, Rating, Theme};
use virada_engine::teach::puzzle::{feedback, Outcome, PuzzleMove, Scores};
use virada_engine::teach::{Lang, MoveFacts};
use virada_engine::Limits;
use virada_rules::{Color, Move, Position, Square};
use virada_store::{PuzzleRating, PuzzleResult, RatedResult};

/// Most moves an attempt or a hint may send (the longest shipped line has 4 solver moves).
pub const MAX_ATTEMPT_MOVES: usize = 8;
/// Longest puzzle id accepted (shipped ids have 14 characters).
pub const MAX_ID_LEN: usize = 32;
/// Plies of a refutation line sent (the opponent's answer first).
pub const REFUTATION_PLIES: usize = 8;
/// Most empties a refutation is solved exactly at (endgame puzzles have at most 18 before the
/// wrong move); beyond, the engine searches at the hint's effort (midgame puzzles).
pub const REFUTATION_EXACT_EMPTIES: u32 = 20;
/// Solver nodes allowed for a refutation (at most 17 empties: well under a second).
pub const REFUTATION_NODES: u64 = 50_000_000;
/// Longest a refutation may search, from when a worker starts on it.
pub const REFUTATION_TIME: Duration = Duration::from_secs(3);
/// `next` draws among this many unsolved puzzles nearest the target rating.
const NEXT_AMONG: usize = 10;
/// Ratings `next` accepts as a target.
const RATING_RANGE: (i32, i32) = (0, 4000);

// ---------- answers ----------

/// A browser's puzzle rating.
#[derive(Serialize, Debug, Clone, Copy, PartialEq)]
pub struct SolverView {
    pub rating: i32,
    /// Rating deviation (the uncertainty), rounded.
    pub rd: i32,
    /// Rated results (first results on puzzles).
    pub attempts: u32,
    pub solved: u32,
}

impl From<PuzzleRating> for SolverView {
    fn from(r: PuzzleRating) -> Self {
        SolverView {
            rating: r.rating.rating.round() as i32,
            rd: r.rating.rd.round() as i32,
            attempts: r.attempts,
            solved: r.solved,
        }
    }
}

/// A puzzle as the page shows it (the solution is not included).
#[derive(Serialize, Debug)]
pub struct PuzzleView {
    pub id: String,
    /// 64 squares a1..h8 (`X` black, `O` white, `-` empty).
    pub board: String,
    /// The side to move: the solver.
    pub side_to_move: Color,
    pub kind: &'static str,
    pub empties: u32,
    pub themes: Vec<&'static str>,
    /// The puzzle's current rating (rounded).
    pub rating: i32,
    /// Moves the solver must find.
    pub solver_moves: usize,
    /// The best result: the final disc difference for the solver with best play.
    pub best_score: i32,
    /// The UTC day (`YYYY-MM-DD`) when this is that day's puzzle.
    pub daily: Option<String>,
    /// This browser's rated result on it: `solved`, `failed`, or none yet.
    pub result: Option<&'static str>,
    pub solver: SolverView,
}

/// `GET /api/puzzles/me`.
#[derive(Serialize, Debug)]
pub struct MeView {
    pub solver: SolverView,
    /// Every theme with its number of shipped puzzles.
    pub themes: Vec<ThemeCount>,
    pub puzzles: usize,
}

#[derive(Serialize, Debug)]
pub struct ThemeCount {
    pub theme: &'static str,
    pub puzzles: usize,
}

/// The answer to an attempt.
#[derive(Serialize, Debug)]
pub struct AttemptView {
    /// `continue` (right so far; `reply` has the opponent's answer), `solved` or `wrong`.
    pub result: &'static str,
    /// After a right move: the opponent's moves up to the solver's next turn (`pass` included).
    pub reply: Vec<Move>,
    /// After a wrong move: which move of the list (1-based).
    pub wrong_move: Option<usize>,
    /// After a wrong move: the best line from there, the opponent's answer first (at most
    /// [`REFUTATION_PLIES`] plies; empty when the move ended the game).
    pub refutation: Vec<Move>,
    /// After a wrong move: its exact result for the solver (none if the search ran out).
    pub wrong_score: Option<i32>,
    /// The best result (the puzzle's).
    pub best_score: i32,
    /// Whether this attempt was the browser's first result on the puzzle (ratings changed).
    pub rated: bool,
    pub solver: SolverView,
    pub puzzle_rating: i32,
    /// The feedback on the last move sent, in both languages, written from its facts
    /// ([`virada_engine::teach::puzzle`]).
    pub feedback: Feedback,
}

/// A sentence in both languages of the page.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Feedback {
    pub en: String,
    pub pt: String,
}

/// The feedback on the solver's move `played` on `before`, in both languages.
fn feedback_of(p: &Puzzle, before: &Position, played: Square, outcome: Outcome) -> Feedback {
    let facts = MoveFacts::of(&before.board(), played).expect("a judged move is legal");
    let scores = match p.kind {
        PuzzleKind::Endgame => Scores::Exact,
        PuzzleKind::Midgame => Scores::Estimate,
    };
    let m = PuzzleMove {
        mover: p.solver(),
        facts: &facts,
        outcome,
        scores,
    };
    Feedback {
        en: feedback(&m, Lang::En),
        pt: feedback(&m, Lang::Pt),
    }
}

/// A hint.
#[derive(Serialize, Debug)]
pub struct HintView {
    /// The 16 squares of the board quarter where the next right move is.
    pub region: Vec<Square>,
    /// The next right move itself (level 2 only).
    pub square: Option<Square>,
    pub rated: bool,
    pub solver: SolverView,
}

// ---------- requests ----------

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct NextQuery {
    pub theme: Option<String>,
    pub rating: Option<i32>,
    /// A puzzle not to give (the one on the page).
    pub after: Option<String>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct AttemptRequest {
    /// The solver's moves from the start, in order (the opponent's replies are not sent).
    pub moves: Vec<String>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct HintRequest {
    /// The right moves played so far (possibly none).
    #[serde(default)]
    pub moves: Vec<String>,
    /// 1: the quarter of the board; 2: the move.
    #[serde(default = "one")]
    pub level: u8,
}

fn one() -> u8 {
    1
}

fn invalid(message: String, params: serde_json::Value) -> AppError {
    let params: ErrorParams = match params {
        serde_json::Value::Object(m) => m,
        _ => ErrorParams::new(),
    };
    AppError::Invalid { message, params }
}

/// The shipped puzzle named by the path: 400 for an id that cannot be one, 404 for an unknown
/// one.
fn puzzle_of(p: Result<Path<String>, PathRejection>) -> AppResult<&'static Puzzle> {
    let id = p.map(|Path(id)| id).map_err(|e| {
        invalid(
            format!("path: {}", rejection_detail(&e.body_text())),
            json!({"field": "id"}),
        )
    })?;
    if id.is_empty()
        || id.len() > MAX_ID_LEN
        || !id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
    {
        return Err(invalid(
            format!("id: not a puzzle id (letters, digits and '-', at most {MAX_ID_LEN})"),
            json!({"field": "id", "max": MAX_ID_LEN}),
        ));
    }
    shipped()
        .iter()
        .find(|p| p.id == id)
        .ok_or_else(|| AppError::NotFound(format!("no puzzle with id {id:?}")))
}

/// The solver's moves of a request: `min..=MAX_ATTEMPT_MOVES` squares.
fn parse_moves(moves: &[String], min: usize) -> AppResult<Vec<Square>> {
    if moves.len() < min || moves.len() > MAX_ATTEMPT_MOVES {
        return Err(invalid(
            format!("moves: {} moves; {min} to {MAX_ATTEMPT_MOVES}", moves.len()),
            json!({"field": "moves", "count": moves.len(), "min": min, "max": MAX_ATTEMPT_MOVES}),
        ));
    }
    moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            m.parse::<Square>().map_err(|e| {
                invalid(
                    format!("moves: move {} ({m:?}): {e}", i + 1),
                    json!({"field": "moves", "index": i + 1, "value": m}),
                )
            })
        })
        .collect()
}

// ---------- following the line ----------

/// Where the solver's moves lead on a puzzle's line.
#[derive(Debug, PartialEq)]
enum Progress {
    /// All right: the opponent's replies after the last one, and the line's next solver move
    /// (`None`: solved).
    Right {
        reply: Vec<Move>,
        next: Option<Move>,
        /// The position before the last move sent (the start if none was sent).
        last_before: Position,
    },
    /// Move `index` (0-based) is legal but wrong; the position before it.
    Wrong {
        index: usize,
        before: Position,
        played: Square,
    },
}

fn follow(p: &Puzzle, moves: &[Square]) -> AppResult<Progress> {
    let solver = p.solver();
    let mut pos = p.start;
    let mut rest = &p.line[..];
    let mut reply = Vec::new();
    let mut last_before = pos;
    for (i, &sq) in moves.iter().enumerate() {
        let Some((&right, after)) = rest.split_first() else {
            return Err(invalid(
                format!(
                    "moves: the puzzle is solved after {} moves",
                    p.solver_moves()
                ),
                json!({"field": "moves", "count": moves.len(), "max": p.solver_moves()}),
            ));
        };
        if let Err(reason) = pos.check(Move::Play(sq)) {
            return Err(AppError::IllegalMove {
                square: Some(sq.to_string()),
                message: format!("move {}: {reason}", i + 1),
            });
        }
        if right != Move::Play(sq) {
            return Ok(Progress::Wrong {
                index: i,
                before: pos,
                played: sq,
            });
        }
        last_before = pos;
        pos = pos.play_unchecked(right);
        rest = after;
        // The opponent's replies (and the solver's forced passes) up to the solver's next move.
        reply.clear();
        while let Some((&mv, after)) = rest.split_first() {
            if pos.side_to_move() == solver && mv != Move::Pass {
                break;
            }
            pos = pos.play_unchecked(mv);
            reply.push(mv);
            rest = after;
        }
    }
    Ok(Progress::Right {
        reply,
        next: rest.first().copied(),
        last_before,
    })
}

/// A hint asked after as many moves as the puzzle has.
fn solved_already(p: &Puzzle, moves: &[Square]) -> AppError {
    invalid(
        "moves: the puzzle is solved already".into(),
        json!({"field": "moves", "count": moves.len(), "max": p.solver_moves() - 1}),
    )
}

/// Refuses more moves than the puzzle asks of the solver (400), whatever they are.
fn check_count(p: &Puzzle, moves: &[Square]) -> AppResult<()> {
    if moves.len() > p.solver_moves() {
        return Err(invalid(
            format!(
                "moves: the puzzle is solved after {} moves",
                p.solver_moves()
            ),
            json!({"field": "moves", "count": moves.len(), "max": p.solver_moves()}),
        ));
    }
    Ok(())
}

/// The best line after the solver's wrong move `played` from `before`, and that move's exact
/// result for the solver (none from a midgame search, which only estimates).
fn refute(
    engine: &mut dyn EnginePort,
    search: &Limits,
    solver: Color,
    before: Position,
    played: Square,
    stop: Arc<AtomicBool>,
) -> Refutation {
    let after = before.play_unchecked(Move::Play(played));
    if after.is_game_over() {
        return Refutation {
            line: Vec::new(),
            score: Some(after.disc_counts().difference_for(solver)),
        };
    }
    let b = after.board();
    if 64 - (b.player | b.opponent).count_ones() > REFUTATION_EXACT_EMPTIES {
        let mut line = engine.analyze(after, search, &stop).pv;
        line.truncate(REFUTATION_PLIES);
        return Refutation { line, score: None };
    }
    let r = solve(
        after.board(),
        &SolveOptions {
            threads: 1,
            stop: Some(stop),
            tt_mib: 16,
            node_limit: Some(REFUTATION_NODES),
            ..SolveOptions::default()
        },
    );
    let mut line = r.pv;
    line.truncate(REFUTATION_PLIES);
    // The solved side is the opponent's unless it must pass first (then the pass is in the line).
    let sign = if after.side_to_move() == solver {
        1
    } else {
        -1
    };
    Refutation {
        line,
        score: r.score.value().map(|v| sign * v),
    }
}

struct Refutation {
    line: Vec<Move>,
    score: Option<i32>,
}

/// The quarter of the board `sq` is in (16 squares, a1 order).
fn quarter(sq: Square) -> Vec<Square> {
    let (c0, r0) = (sq.column() / 4 * 4, sq.row() / 4 * 4);
    (r0..r0 + 4)
        .flat_map(|r| (c0..c0 + 4).filter_map(move |c| Square::from_coords(c, r)))
        .collect()
}

/// The puzzle of day `days` since 1970 (UTC) among `n`: a fixed scramble of the days.
pub fn daily_index(days: i64, n: usize) -> usize {
    let mut h = (days as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^= h >> 29;
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^= h >> 32;
    (h % n.max(1) as u64) as usize
}

// ---------- handlers ----------

async fn solver_of(state: &AppState, asker: &Asker) -> AppResult<PuzzleRating> {
    Ok(state
        .shared
        .store
        .puzzles()
        .solver_rating(asker.browser)
        .await?
        .unwrap_or_else(|| PuzzleRating::unplayed(Rating::NEW_PLAYER)))
}

async fn rating_of(state: &AppState, p: &Puzzle) -> AppResult<PuzzleRating> {
    Ok(state
        .shared
        .store
        .puzzles()
        .puzzle_rating(&p.id)
        .await?
        .unwrap_or_else(|| PuzzleRating::unplayed(p.rating)))
}

async fn view(
    state: &AppState,
    asker: &Asker,
    p: &'static Puzzle,
    daily: Option<String>,
) -> AppResult<PuzzleView> {
    let store = &state.shared.store;
    let rating = rating_of(state, p).await?;
    let solver = solver_of(state, asker).await?;
    let result = store
        .puzzles()
        .puzzle_results(asker.browser)
        .await?
        .into_iter()
        .find(|(id, _)| *id == p.id)
        .map(|(_, solved)| if solved { "solved" } else { "failed" });
    let mut board = p.start.to_string();
    board.truncate(64);
    Ok(PuzzleView {
        id: p.id.clone(),
        board,
        side_to_move: p.solver(),
        kind: p.kind.as_str(),
        empties: p.empties(),
        themes: p.themes.iter().map(|t| t.as_str()).collect(),
        rating: rating.rating.rating.round() as i32,
        solver_moves: p.solver_moves(),
        best_score: p.best_score(),
        daily,
        result,
        solver: solver.into(),
    })
}

/// `GET /api/puzzles/next?theme=&rating=&after=`: a puzzle this browser has no result on (of
/// that theme), drawn among the [`NEXT_AMONG`] whose current rating is nearest `rating`
/// (default: the browser's own). When every puzzle of the theme has a result, any of them.
pub async fn next(
    State(state): State<AppState>,
    asker: Asker,
    q: Result<Query<NextQuery>, QueryRejection>,
) -> AppResult<Json<PuzzleView>> {
    let q = q.map(|Query(q)| q).map_err(|e| {
        invalid(
            format!("query string: {}", rejection_detail(&e.body_text())),
            json!({"field": "query"}),
        )
    })?;
    let theme = match q.theme.as_deref().filter(|t| !t.is_empty()) {
        None => None,
        Some(t) => Some(Theme::parse(t).ok_or_else(|| {
            let allowed: Vec<&str> = Theme::ALL.iter().map(|t| t.as_str()).collect();
            invalid(
                format!("theme: unknown theme {t:?}; one of {}", allowed.join(", ")),
                json!({"field": "theme", "value": t, "allowed": allowed}),
            )
        })?),
    };
    if let Some(r) = q.rating {
        if !(RATING_RANGE.0..=RATING_RANGE.1).contains(&r) {
            return Err(invalid(
                format!("rating: {r}; from {} to {}", RATING_RANGE.0, RATING_RANGE.1),
                json!({"field": "rating", "value": r, "min": RATING_RANGE.0, "max": RATING_RANGE.1}),
            ));
        }
    }
    let store = &state.shared.store;
    let target = match q.rating {
        Some(r) => f64::from(r),
        None => solver_of(&state, &asker).await?.rating.rating,
    };
    let done: HashSet<String> = store
        .puzzles()
        .puzzle_results(asker.browser)
        .await?
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    let current: HashMap<String, f64> = store
        .puzzles()
        .puzzle_ratings()
        .await?
        .into_iter()
        .map(|(id, r)| (id, r.rating.rating))
        .collect();
    let after = q.after.as_deref().unwrap_or("");
    let of_theme = |p: &&Puzzle| theme.is_none_or(|t| p.themes.contains(&t)) && p.id != after;
    let mut pool: Vec<&'static Puzzle> = shipped()
        .iter()
        .filter(of_theme)
        .filter(|p| !done.contains(&p.id))
        .collect();
    if pool.is_empty() {
        pool = shipped().iter().filter(of_theme).collect();
    }
    if pool.is_empty() {
        return Err(AppError::NotFound("no puzzle with this theme".into()));
    }
    let distance = |p: &Puzzle| {
        let r = current.get(&p.id).copied().unwrap_or(p.rating.rating);
        (r - target).abs()
    };
    pool.sort_by(|a, b| distance(a).total_cmp(&distance(b)));
    let pick = (random_u64() % pool.len().min(NEXT_AMONG) as u64) as usize;
    Ok(Json(view(&state, &asker, pool[pick], None).await?))
}

/// `GET /api/puzzles/daily`: the same puzzle for everyone during a UTC day.
pub async fn daily(State(state): State<AppState>, asker: Asker) -> AppResult<Json<PuzzleView>> {
    let all = shipped();
    if all.is_empty() {
        return Err(AppError::NotFound("no puzzles".into()));
    }
    let now = now_millis();
    let p = &all[daily_index(now.div_euclid(86_400_000), all.len())];
    let day = iso8601(now)[..10].to_string();
    Ok(Json(view(&state, &asker, p, Some(day)).await?))
}

/// `GET /api/puzzles/{id}`.
pub async fn get_puzzle(
    State(state): State<AppState>,
    asker: Asker,
    id: Result<Path<String>, PathRejection>,
) -> AppResult<Json<PuzzleView>> {
    let p = puzzle_of(id)?;
    Ok(Json(view(&state, &asker, p, None).await?))
}

/// `GET /api/puzzles/me`: the browser's rating and the themes.
pub async fn me(State(state): State<AppState>, asker: Asker) -> AppResult<Json<MeView>> {
    let solver = solver_of(&state, &asker).await?;
    let themes = Theme::ALL
        .iter()
        .map(|&t| ThemeCount {
            theme: t.as_str(),
            puzzles: shipped().iter().filter(|p| p.themes.contains(&t)).count(),
        })
        .collect();
    Ok(Json(MeView {
        solver: solver.into(),
        themes,
        puzzles: shipped().len(),
    }))
}

async fn rate(state: &AppState, asker: &Asker, p: &Puzzle, solved: bool) -> AppResult<RatedResult> {
    Ok(state
        .shared
        .store
        .puzzles()
        .rate_puzzle(PuzzleResult {
            browser: asker.browser,
            puzzle: p.id.clone(),
            initial: p.rating,
            solved,
            at: now_millis(),
        })
        .await?)
}

/// `POST /api/puzzles/{id}/attempt {"moves": [...]}`.
pub async fn attempt(
    State(state): State<AppState>,
    asker: Asker,
    id: Result<Path<String>, PathRejection>,
    JsonBody(req): JsonBody<AttemptRequest>,
) -> AppResult<Json<AttemptView>> {
    state.limits.check(asker.ip, Kind::Puzzle)?;
    let p = puzzle_of(id)?;
    let moves = parse_moves(&req.moves, 1)?;
    // Too many moves is refused before any is judged: the count is public, a right move's
    // continuation is not.
    check_count(p, &moves)?;
    let answer = |result, rated: RatedResult, feedback: Feedback| AttemptView {
        result,
        reply: Vec::new(),
        wrong_move: None,
        refutation: Vec::new(),
        wrong_score: None,
        best_score: p.best_score(),
        rated: rated.rated,
        solver: rated.solver.into(),
        puzzle_rating: rated.puzzle.rating.rating.round() as i32,
        feedback,
    };
    let last = *moves.last().expect("at least one move");
    match follow(p, &moves)? {
        Progress::Right {
            reply,
            next: Some(_),
            last_before,
        } => {
            let now = RatedResult {
                rated: false,
                solver: solver_of(&state, &asker).await?,
                puzzle: rating_of(&state, p).await?,
            };
            let said = feedback_of(
                p,
                &last_before,
                last,
                Outcome::Right {
                    reply: &reply,
                    next: moves.len() + 1,
                    total: p.solver_moves(),
                },
            );
            Ok(Json(AttemptView {
                reply,
                ..answer("continue", now, said)
            }))
        }
        Progress::Right {
            next: None,
            last_before,
            ..
        } => {
            let best = p.best_score();
            let said = feedback_of(p, &last_before, last, Outcome::Solved { best });
            Ok(Json(answer(
                "solved",
                rate(&state, &asker, p, true).await?,
                said,
            )))
        }
        Progress::Wrong {
            index,
            before,
            played,
        } => {
            // Rated before the refutation is searched: a client that hangs up when the answer
            // is slow to come (a wrong move's refutation takes a search, a right move's answer
            // does not) still has its miss counted.
            let rated = rate(&state, &asker, p, false).await?;
            let stop = Arc::new(AtomicBool::new(false));
            let spec = JobSpec {
                priority: Priority::Background,
                // Counted per browser: one browser has at most two refutations at once.
                game: format!("puzzle:{}", asker.browser),
                client: crate::runtime::engine_client::of_asker(&asker),
                stop: stop.clone(),
                time_cap: Some(REFUTATION_TIME),
            };
            let solver = p.solver();
            let effort = state.shared.config.hint_effort;
            let search = Limits {
                time: Some(effort.time),
                ..effort.limits()
            };
            let r = state
                .shared
                .pool
                .run(spec, move |engine| {
                    refute(engine, &search, solver, before, played, stop)
                })
                .await?;
            let wrong_score = if index == 0 {
                p.score_of(played)
            } else {
                r.score
            };
            let said = feedback_of(
                p,
                &before,
                played,
                Outcome::Wrong {
                    refutation: &r.line,
                    got: wrong_score,
                    best: p.best_score(),
                },
            );
            Ok(Json(AttemptView {
                wrong_move: Some(index + 1),
                refutation: r.line,
                wrong_score,
                ..answer("wrong", rated, said)
            }))
        }
    }
}

/// `POST /api/puzzles/{id}/hint {"moves": [...], "level": 1|2}`: where the next right move is
/// (level 1: the board's quarter; level 2: the move). A hint counts as a failed result.
pub async fn hint(
    State(state): State<AppState>,
    asker: Asker,
    id: Result<Path<String>, PathRejection>,
    JsonBody(req): JsonBody<HintRequest>,
) -> AppResult<Json<HintView>> {
    state.limits.check(asker.ip, Kind::Puzzle)?;
    let p = puzzle_of(id)?;
    if !(1..=2).contains(&req.level) {
        return Err(invalid(
            format!("level: {}; 1 or 2", req.level),
            json!({"field": "level", "value": req.level, "min": 1, "max": 2}),
        ));
    }
    let moves = parse_moves(&req.moves, 0)?;
    if moves.len() >= p.solver_moves() {
        return Err(solved_already(p, &moves));
    }
    // The first move's legality is public (the start position is shown): checked unrated,
    // as an attempt does.
    if let Some(&first) = moves.first() {
        if let Err(reason) = p.start.check(Move::Play(first)) {
            return Err(AppError::IllegalMove {
                square: Some(first.to_string()),
                message: format!("move 1: {reason}"),
            });
        }
    }
    // A hint counts as a miss, and it is counted before the moves sent are judged: no answer
    // (right, wrong, illegal later in the line) tells an unplayed move right from wrong
    // without a rated result (issue 53: probing `[candidate, occupied square]` answered 400
    // for a wrong candidate and 422 for the right one, unrated).
    let rated = rate(&state, &asker, p, false).await?;
    let next = match follow(p, &moves)? {
        Progress::Right { next: Some(mv), .. } => mv,
        Progress::Right { next: None, .. } => return Err(solved_already(p, &moves)),
        Progress::Wrong { index, .. } => {
            return Err(invalid(
                format!(
                    "moves: move {} is not the right move; send the right moves so far",
                    index + 1
                ),
                json!({"field": "moves", "index": index + 1}),
            ))
        }
    };
    let Some(square) = next.square() else {
        return Err(AppError::Internal(format!(
            "puzzle {}: a pass where the solver moves",
            p.id
        )));
    };
    Ok(Json(HintView {
        region: quarter(square),
        square: (req.level == 2).then_some(square),
        rated: rated.rated,
        solver: rated.solver.into(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().expect("square")
    }

    #[test]
    fn the_line_is_followed_with_replies_and_a_wrong_move_is_found() {
        let p = shipped()
            .iter()
            .find(|p| p.solver_moves() >= 2)
            .expect("a puzzle of two moves");
        let mine: Vec<Square> = p
            .steps()
            .filter(|(_, mine, _)| *mine)
            .filter_map(|(_, _, mv)| mv.square())
            .collect();
        match follow(p, &mine[..1]).unwrap() {
            Progress::Right { reply, next, .. } => {
                assert!(!reply.is_empty());
                assert_eq!(next, Some(Move::Play(mine[1])));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            follow(p, &mine).unwrap(),
            Progress::Right { next: None, .. }
        ));
        let (wrong, _) = p.scores[1];
        assert!(matches!(
            follow(p, &[wrong]).unwrap(),
            Progress::Wrong { index: 0, .. }
        ));
        // A square that is no move is refused, naming it.
        let illegal = Square::all()
            .find(|s| p.start.check(Move::Play(*s)).is_err())
            .unwrap();
        assert!(matches!(
            follow(p, &[illegal]),
            Err(AppError::IllegalMove { .. })
        ));
    }

    #[test]
    fn quarters_and_daily_indices() {
        assert_eq!(quarter(sq("b2")).len(), 16);
        assert!(quarter(sq("b2")).contains(&sq("d4")));
        assert!(quarter(sq("h8")).contains(&sq("e5")));
        assert!(!quarter(sq("h8")).contains(&sq("d5")));
        assert_eq!(daily_index(20_000, 1200), daily_index(20_000, 1200));
        let distinct: HashSet<usize> = (0..30).map(|d| daily_index(d, 1200)).collect();
        assert!(distinct.len() > 20, "{distinct:?}");
    }
}
