//! The stored spelling of the model, shared by both stores: which text a column holds for a
//! colour, a mode, a phase, and how a game's row becomes a [`GameRecord`] again. The SQL that
//! reads and writes these columns lives in each store module (its dialect); what the columns
//! mean lives here, so a game copied from one store to the other reads the same.

use virada_domain::model::online::{End, Phase, TimeControl};
use virada_domain::model::Owner;
use virada_domain::model::{
    moves_from_text, moves_to_text, rebuild_game, GameMeta, GameRecord, Level, Mode, RecordNames,
    StartKind, Status,
};
use virada_rules::{Color, Position};

/// The stored spelling of a colour (a column: it must not change with the JSON spellings).
pub fn color_text(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

pub fn color_from(s: &str) -> Result<Color, String> {
    match s {
        "black" => Ok(Color::Black),
        "white" => Ok(Color::White),
        other => Err(format!("colour {other:?}")),
    }
}

/// A colour column that may be NULL.
pub fn opt_color_from(s: Option<&str>) -> Result<Option<Color>, String> {
    s.map(color_from).transpose()
}

/// Reads the `mode`, `level` and `human_color` columns.
pub fn mode_from_columns(
    mode: &str,
    level: Option<i64>,
    human: Option<&str>,
) -> Result<Mode, String> {
    match (mode, level, human) {
        ("friend", None, None) => Ok(Mode::Friend),
        ("online", None, None) => Ok(Mode::Online),
        ("computer", Some(level), Some(human)) => Ok(Mode::Computer {
            level: Level::new(level).map_err(|e| e.to_string())?,
            human: match human {
                "black" => Color::Black,
                "white" => Color::White,
                other => return Err(format!("human colour {other:?}")),
            },
        }),
        _ => Err(format!(
            "mode {mode:?} with level {level:?} and human colour {human:?}"
        )),
    }
}

/// The columns of a game row that are derived from the game (the list shows them without
/// replaying it).
pub struct Summary {
    pub status: Status,
    pub black: u32,
    pub white: u32,
    pub plies: usize,
    pub transcript: String,
}

pub fn summary(rec: &GameRecord) -> Summary {
    let pos = rec.game.position();
    Summary {
        status: Status::of(&pos),
        black: pos.black().count(),
        white: pos.white().count(),
        plies: rec.game.ply(),
        transcript: rec.game.to_string(),
    }
}

/// The stored text of a game's played moves and of its redo list.
pub fn moves_columns(rec: &GameRecord) -> (String, String) {
    (
        moves_to_text(rec.game.moves().iter().copied()),
        moves_to_text(rec.game.redo_moves()),
    )
}

/// A game row as read, before it is replayed.
pub struct RawGame {
    pub id: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub mode: String,
    pub level: Option<i64>,
    pub human_color: Option<String>,
    pub start_kind: String,
    pub start_pos: String,
    pub opening: Option<String>,
    pub seed: i64,
    pub moves: String,
    pub redo: String,
    pub owner: Option<String>,
    pub record_names: Option<String>,
}

impl RawGame {
    /// Replays the row; the error says what in it is wrong.
    pub fn into_record(self) -> Result<GameRecord, String> {
        let mode = mode_from_columns(&self.mode, self.level, self.human_color.as_deref())?;
        let start_kind = StartKind::parse(&self.start_kind)
            .ok_or_else(|| format!("start kind {:?}", self.start_kind))?;
        let start: Position = self
            .start_pos
            .parse()
            .map_err(|e| format!("start position: {e}"))?;
        let moves = moves_from_text(&self.moves).map_err(|e| format!("moves: {e}"))?;
        let redo = moves_from_text(&self.redo).map_err(|e| format!("redo list: {e}"))?;
        let game = rebuild_game(start, &moves, &redo)?;
        let owner = Owner::from_column(self.owner.as_deref())?;
        let record = self
            .record_names
            .as_deref()
            .map(RecordNames::from_column)
            .transpose()?;
        Ok(GameRecord {
            meta: GameMeta {
                id: self.id,
                created_at: self.created_at,
                updated_at: self.updated_at,
                mode,
                start_kind,
                opening: self.opening,
                seed: self.seed as u64,
                owner,
                record,
            },
            game,
        })
    }
}

/// The stored time control (JSON text).
pub fn time_control_text(tc: &TimeControl) -> Result<String, String> {
    serde_json::to_string(tc).map_err(|e| format!("time control: {e}"))
}

pub fn time_control_from(s: &str) -> Result<TimeControl, String> {
    serde_json::from_str(s).map_err(|e| format!("time control: {e}"))
}

/// The `turn_started_at`, `end_reason` and `end_loser` columns of a phase.
pub fn phase_columns(phase: Phase) -> (Option<i64>, Option<&'static str>, Option<&'static str>) {
    match phase {
        Phase::Waiting => (None, None, None),
        Phase::Playing { turn_started_at } => (Some(turn_started_at), None, None),
        Phase::Finished(end) => (None, Some(end.reason()), end.loser().map(color_text)),
    }
}

/// Reads the `phase`, `turn_started_at`, `end_reason` and `end_loser` columns.
pub fn phase_from_columns(
    phase: &str,
    started: Option<i64>,
    reason: Option<&str>,
    loser: Option<&str>,
) -> Result<Phase, String> {
    match (phase, started, reason) {
        ("waiting", None, None) => Ok(Phase::Waiting),
        ("playing", Some(turn_started_at), None) => Ok(Phase::Playing { turn_started_at }),
        ("finished", None, Some(reason)) => {
            let loser = opt_color_from(loser)?;
            End::from_columns(reason, loser)
                .map(Phase::Finished)
                .ok_or_else(|| format!("end {reason:?} with loser {loser:?}"))
        }
        (p, s, r) => Err(format!("phase {p:?} with {s:?} and {r:?}")),
    }
}

/// Reads the `end_reason` and `end_loser` columns of a listed game.
pub fn end_from_columns(reason: Option<&str>, loser: Option<&str>) -> Result<Option<End>, String> {
    match reason {
        None => Ok(None),
        Some(reason) => {
            let loser = opt_color_from(loser)?;
            End::from_columns(reason, loser)
                .map(Some)
                .ok_or_else(|| format!("end {reason:?}"))
        }
    }
}
