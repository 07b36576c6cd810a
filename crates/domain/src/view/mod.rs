//! The JSON shapes of the API (see docs/API.md), built from server state; [`online`]: the
//! online games' part of the game object and their WebSocket messages.

pub mod online;

use crate::dates::iso8601;
use crate::level_text;
use crate::model::{GameRecord, Mode, StartKind, Status};
use serde::Serialize;
use virada_engine::{opening_names, Analysis, Iteration, Level};
use virada_rules::formats::transcript::Transcript;
use virada_rules::{Bitboard, Color, GameResult, Move, Position, Square};

/// Serialises a disc value with at most two decimals (`1.62`, not `1.6200000047683716`).
pub fn round2<S: serde::Serializer>(v: &f32, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((f64::from(*v) * 100.0).round() / 100.0)
}

/// [`round2`] for an optional value.
pub fn round2_opt<S: serde::Serializer>(v: &Option<f32>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(v) => round2(v, s),
        None => s.serialize_none(),
    }
}

/// `{"en": ..., "pt": ...}`.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Text {
    pub en: String,
    pub pt: String,
}

/// One entry of `GET /api/levels`.
#[derive(Serialize, Debug, Clone)]
pub struct LevelView {
    pub level: u8,
    pub name: Text,
    pub description: Text,
    /// `null` for the level that searches as deep as its time allows.
    pub depth: Option<u32>,
    pub exact_empties: u32,
    /// Longest time the level thinks about a move, in seconds; `null` when its depth alone
    /// bounds the search.
    pub max_move_seconds: Option<f64>,
}

impl From<Level> for LevelView {
    fn from(l: Level) -> LevelView {
        let spec = l.spec();
        let (en, pt) = level_text::name(l);
        LevelView {
            level: l.0,
            name: Text {
                en: en.to_string(),
                pt: pt.to_string(),
            },
            description: Text {
                en: level_text::describe_en(l),
                pt: level_text::describe_pt(l),
            },
            depth: spec.depth,
            exact_empties: spec.exact_empties,
            max_move_seconds: spec.move_time.map(|t| t.as_secs_f64()),
        }
    }
}

#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct StartView {
    pub kind: StartKind,
    pub board: String,
    pub side_to_move: Color,
    pub opening: Option<String>,
}

#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct PlyView {
    pub ply: usize,
    pub color: Color,
    #[serde(rename = "move")]
    pub mv: Move,
    pub flipped: Vec<Square>,
    pub board: String,
    pub black_discs: u32,
    pub white_discs: u32,
}

#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct ResultView {
    pub winner: Option<Color>,
    pub black_score: u8,
    pub white_score: u8,
    pub black_discs: u8,
    pub white_discs: u8,
    pub wof_differs: bool,
}

impl From<GameResult> for ResultView {
    fn from(r: GameResult) -> ResultView {
        let (b, w) = r.wof();
        ResultView {
            winner: r.winner(),
            black_score: b,
            white_score: w,
            black_discs: r.black_discs,
            white_discs: r.white_discs,
            wof_differs: r.wof_differs(),
        }
    }
}

/// The named opening a game has reached (`virada_engine::opening_names`): the deepest named
/// position it passed through, in any orientation.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct OpeningNameView {
    /// Stable identifier (`"leaders-tiger"`).
    pub id: &'static str,
    /// The name in each language (`{"en": "Parallel", "pt": "Paralela"}`).
    pub name: Text,
    /// The ply at which the named position stood on the board.
    pub ply: usize,
}

/// The opening of a game given its positions (start first); `None` when no named position was
/// reached.
pub fn opening_name_view(positions: &[Position]) -> Option<OpeningNameView> {
    opening_names::recognize(positions).map(|r| OpeningNameView {
        id: r.name.id,
        name: Text {
            en: r.name.en.to_string(),
            pt: r.name.pt.to_string(),
        },
        ply: r.ply,
    })
}

/// The opening of a stored game from its start position and transcript (the saved-games
/// list); `None` when unnamed, or when the stored text does not replay (the list then simply
/// shows no name).
pub fn opening_name_of_stored(start: &str, transcript: &str) -> Option<OpeningNameView> {
    let start: Position = start.parse().ok()?;
    let t: Transcript = transcript.parse().ok()?;
    // Only the opening matters: named lines are at most a few dozen moves long.
    let opening = Transcript::new(t.moves().iter().take(40).copied().collect());
    let game = opening.replay(start).ok()?;
    opening_name_view(game.positions())
}

/// The game object returned by create/get/move/undo/redo and pushed over SSE.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct GameView {
    pub id: String,
    /// Grows at every change of the game (moves, undo/redo, thinking on/off), so a client can
    /// order SSE events against responses.
    pub version: u64,
    pub created_at: String,
    pub updated_at: String,
    /// `mode`, `level`, `human_color`.
    #[serde(flatten)]
    pub mode: Mode,
    pub start: StartView,
    /// Every move so far, passes included: its length is the `ply` a move, undo or redo
    /// request must send.
    pub plies: Vec<PlyView>,
    pub redo: Vec<Square>,
    pub board: String,
    pub side_to_move: Option<Color>,
    pub legal_moves: Vec<Square>,
    pub black_discs: u32,
    pub white_discs: u32,
    pub empties: u32,
    pub status: Status,
    pub computer_thinking: bool,
    pub result: Option<ResultView>,
    pub transcript: String,
    /// Seats, clocks, chat of an online game (`null` for local games).
    pub online: Option<Box<crate::view::online::OnlineView>>,
    /// The time control, in every mode (`{"kind":"none"}`: no clock).
    pub time_control: crate::model::online::TimeControl,
    /// Each side's time and the clock that runs (`null`: no clock), in every mode.
    pub clocks: Option<crate::view::online::ClocksView>,
    /// How the game ended (`null` while it goes on): on the board, by resignation, on time.
    pub end: Option<crate::view::online::EndView>,
    /// The named opening reached so far (`null`: none).
    pub opening_name: Option<OpeningNameView>,
    /// A rated game (online, or against a computer level as a bot: `crate::bots`).
    pub rated: bool,
    /// A game record opened from a file or a link (`null`: a game played here), with the
    /// players it names: read-only, stepped through and analysed.
    pub record: Option<crate::model::RecordNames>,
}

/// The 64-character board (`X` black, `O` white, `-` empty), without the side to move.
pub fn board_string(pos: &Position) -> String {
    let mut s = pos.to_string();
    s.truncate(64);
    s
}

/// Builds the game object.
pub fn game_view(rec: &GameRecord, thinking: bool, version: u64) -> GameView {
    let game = &rec.game;
    let meta = &rec.meta;
    let start = game.start();
    let plies = ply_views(game, 0);
    let pos = game.position();
    let status = Status::of(&pos);
    GameView {
        id: meta.id.clone(),
        version,
        created_at: iso8601(meta.created_at),
        updated_at: iso8601(meta.updated_at),
        mode: meta.mode,
        start: StartView {
            kind: meta.start_kind,
            board: board_string(&start),
            side_to_move: start.side_to_move(),
            opening: meta.opening.clone(),
        },
        plies,
        redo: game.redo_moves().filter_map(|m| m.square()).collect(),
        board: board_string(&pos),
        side_to_move: (status == Status::Ongoing).then(|| pos.side_to_move()),
        legal_moves: pos.legal_moves().iter().collect(),
        black_discs: pos.black().count(),
        white_discs: pos.white().count(),
        empties: 64 - pos.black().count() - pos.white().count(),
        status,
        computer_thinking: thinking,
        result: pos.result().map(ResultView::from),
        transcript: game.to_string(),
        online: None,
        time_control: crate::model::online::TimeControl::None {},
        clocks: None,
        end: (status == Status::Finished).then_some(crate::view::online::EndView {
            reason: "normal",
            loser: None,
        }),
        opening_name: opening_name_view(game.positions()),
        rated: false,
        record: meta.record.clone(),
    }
}

/// One line of `GET /api/games`, read from the stored summary columns (no replay).
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct GameSummary {
    pub id: String,
    pub created_at: String,
    pub updated_at: String,
    /// `mode`, `level`, `human_color`.
    #[serde(flatten)]
    pub mode: Mode,
    pub status: Status,
    pub black_discs: u8,
    pub white_discs: u8,
    pub ply_count: u32,
    pub result: Option<ResultView>,
    /// Online games that ended: `normal`, `time`, `resign`, `deadline` or `abort`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_reason: Option<&'static str>,
    /// Online games: the names the players gave (absent for local games and empty seats).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub black_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub white_name: Option<String>,
    pub transcript: String,
    /// The named opening the game reached (`null`: none).
    pub opening_name: Option<OpeningNameView>,
}

/// `GET /api/games`.
#[derive(Serialize, Debug, Clone)]
pub struct GameListView {
    pub games: Vec<GameSummary>,
}

/// `GET /api/health`.
#[derive(Serialize, Debug, Clone)]
pub struct HealthView {
    pub status: &'static str,
    pub version: &'static str,
    /// Where games are kept: `"sqlite"` or `"postgres"`.
    pub store: &'static str,
    /// This instance's id (`--instance-id`, or random at start).
    pub instance: String,
    /// Games whose actor is running (in memory).
    pub active_games: usize,
    /// Games being read from the database right now.
    pub loading_games: usize,
    pub engine_workers: usize,
    /// Engine jobs waiting or running.
    pub engine_jobs: usize,
    /// Open HTTP connections, and the most the server accepts at once.
    pub connections: usize,
    pub max_connections: usize,
}

#[derive(Serialize, Debug, Clone)]
pub struct HintMoveView {
    pub square: String,
    #[serde(serialize_with = "round2")]
    pub value: f32,
    pub exact: bool,
    pub best: bool,
    /// The value is the opening book's, not this hint's search.
    pub book: bool,
}

#[derive(Serialize, Debug, Clone)]
pub struct HintView {
    pub ply: usize,
    pub moves: Vec<HintMoveView>,
    pub depth: u32,
    /// The hint reached its full depth; false when its time ran out first (the values are
    /// then those of a shallower search).
    pub complete: bool,
}

/// The hint object; `best` marks every move sharing the best value.
pub fn hint_view(ply: usize, h: &Analysis) -> HintView {
    let top = h.best().map(|m| m.value);
    HintView {
        ply,
        depth: h.moves.iter().map(|m| m.depth).max().unwrap_or(0),
        complete: h.complete,
        moves: h
            .moves
            .iter()
            .filter_map(|m| {
                m.mv.square().map(|sq| HintMoveView {
                    square: sq.to_string(),
                    value: m.value,
                    exact: m.exact,
                    best: Some(m.value) == top,
                    book: m.book,
                })
            })
            .collect(),
    }
}

/// `event: thinking` data.
#[derive(Serialize, Debug, Clone)]
pub struct ThinkingView {
    pub depth: Option<u32>,
    pub best: Option<String>,
    #[serde(serialize_with = "round2_opt")]
    pub value: Option<f32>,
    pub elapsed_ms: u64,
}

impl ThinkingView {
    /// The last completed iteration, if any.
    pub fn new(p: Option<&Iteration>, elapsed_ms: u64) -> ThinkingView {
        ThinkingView {
            depth: p.map(|p| p.depth),
            best: p.map(|p| p.best_move.to_string()),
            value: p.map(|p| p.value),
            elapsed_ms,
        }
    }
}

/// Every ply of `game` after the first `skip`: the move, its mover, the discs it flipped and the
/// board after it.
pub fn ply_views(game: &virada_rules::Game, skip: usize) -> Vec<PlyView> {
    game.moves()
        .iter()
        .zip(game.positions().windows(2))
        .enumerate()
        .skip(skip)
        .map(|(i, (&mv, pair))| {
            let (before, after) = (pair[0], pair[1]);
            let mover = before.side_to_move();
            let flipped = match mv {
                Move::Play(sq) => {
                    Bitboard(before.discs(!mover).0 & after.discs(mover).0 & !sq.bit())
                }
                Move::Pass => Bitboard::EMPTY,
            };
            PlyView {
                ply: i + 1,
                color: mover,
                mv,
                flipped: flipped.iter().collect(),
                board: board_string(&after),
                black_discs: after.black().count(),
                white_discs: after.white().count(),
            }
        })
        .collect()
}
