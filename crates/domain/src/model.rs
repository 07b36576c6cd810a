//! What a game is to the server: its metadata (mode, level, colours, start) plus a
//! [`virada_rules::Game`], and the conversions to and from the stored text form.

pub mod online;

use crate::identity::BrowserId;
use serde::{Deserialize, Serialize};
use std::fmt;
use virada_engine::levels::{DEFAULT_LEVEL, MAX_LEVEL, MIN_LEVEL};
use virada_rules::{Color, Game, Move, Position};

/// A computer level, 1 to [`MAX_LEVEL`] (checked when made).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(transparent)]
pub struct Level(u8);

/// A level number outside 1 to [`MAX_LEVEL`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LevelOutOfRange(pub i64);

impl fmt::Display for LevelOutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "level {} is out of range: levels are 1 to {MAX_LEVEL}",
            self.0
        )
    }
}

impl std::error::Error for LevelOutOfRange {}

impl Level {
    /// The level offered when a request names none (the same default as the command line).
    pub const DEFAULT: Level = Level(DEFAULT_LEVEL);

    /// Checks the range.
    pub fn new(n: i64) -> Result<Level, LevelOutOfRange> {
        match u8::try_from(n) {
            Ok(l) if (MIN_LEVEL..=MAX_LEVEL).contains(&l) => Ok(Level(l)),
            _ => Err(LevelOutOfRange(n)),
        }
    }

    pub fn get(self) -> u8 {
        self.0
    }
}

/// Who plays. Each kind carries exactly what it needs (a friend game has no level).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// A person against the engine.
    Computer { level: Level, human: Color },
    /// Two people on one device.
    Friend,
    /// Two people over the network (seats, clocks: `crate::online`).
    Online,
}

impl Mode {
    /// `"computer"` / `"friend"` (API and stored column).
    pub fn name(self) -> &'static str {
        match self {
            Mode::Computer { .. } => "computer",
            Mode::Friend => "friend",
            Mode::Online => "online",
        }
    }

    pub fn level(self) -> Option<Level> {
        match self {
            Mode::Computer { level, .. } => Some(level),
            Mode::Friend | Mode::Online => None,
        }
    }

    pub fn human_color(self) -> Option<Color> {
        match self {
            Mode::Computer { human, .. } => Some(human),
            Mode::Friend | Mode::Online => None,
        }
    }

    /// The colour the engine plays, if any.
    pub fn computer_color(self) -> Option<Color> {
        self.human_color().map(Color::opposite)
    }
}

/// Serialised as the fields `mode`, `level` and `human_color` (flattened into the game object
/// and the list lines; `level` and `human_color` are `null` in friend games).
impl Serialize for Mode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Mode", 3)?;
        st.serialize_field("mode", self.name())?;
        st.serialize_field("level", &self.level())?;
        st.serialize_field("human_color", &self.human_color())?;
        st.end()
    }
}

/// Whether a game goes on.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Ongoing,
    Finished,
}

impl Status {
    pub fn of(pos: &Position) -> Status {
        if pos.is_game_over() {
            Status::Finished
        } else {
            Status::Ongoing
        }
    }

    /// The stored column's text (the same as the JSON spelling).
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ongoing => "ongoing",
            Status::Finished => "finished",
        }
    }

    pub fn parse(s: &str) -> Option<Status> {
        match s {
            "ongoing" => Some(Status::Ongoing),
            "finished" => Some(Status::Finished),
            _ => None,
        }
    }
}

/// How the game started.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StartKind {
    Standard,
    Xot,
    Setup,
}

impl StartKind {
    /// The stored column's text (the same as the JSON spelling).
    pub fn as_str(self) -> &'static str {
        match self {
            StartKind::Standard => "standard",
            StartKind::Xot => "xot",
            StartKind::Setup => "setup",
        }
    }

    pub fn parse(s: &str) -> Option<StartKind> {
        match s {
            "standard" => Some(StartKind::Standard),
            "xot" => Some(StartKind::Xot),
            "setup" => Some(StartKind::Setup),
            _ => None,
        }
    }
}

/// Everything about a game except its moves.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameMeta {
    pub id: String,
    /// Unix milliseconds.
    pub created_at: i64,
    pub updated_at: i64,
    pub mode: Mode,
    pub start_kind: StartKind,
    /// The XOT opening's moves (`f5d6c4d3c2b3b4b5`), when the start is XOT.
    pub opening: Option<String>,
    /// Seed for the engine's choices (levels with deliberate mistakes), fixed per game.
    pub seed: u64,
    /// The browser whose game this is (see [`Owner`]).
    pub owner: Owner,
    /// `Some`: a game record opened from a file or a replay link, with the players' names it
    /// carried. A record is stepped through and analysed, never played on, undone or resigned.
    pub record: Option<RecordNames>,
}

/// The players of a game record (GGF `PB`/`PW`, a WTHOR game's players), as the record names
/// them; `None` where it names nobody.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct RecordNames {
    pub black: Option<String>,
    pub white: Option<String>,
}

impl RecordNames {
    /// The stored column's text (JSON).
    pub fn to_column(&self) -> String {
        serde_json::to_string(self).expect("two optional strings serialise")
    }

    /// Reads the stored column.
    pub fn from_column(text: &str) -> Result<RecordNames, String> {
        serde_json::from_str(text).map_err(|e| format!("record names {text:?}: {e}"))
    }
}

impl GameMeta {
    /// The colour the engine plays, if any.
    pub fn computer_color(&self) -> Option<Color> {
        self.mode.computer_color()
    }
}

/// A game with its metadata, as the server holds it.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub meta: GameMeta,
    pub game: Game,
}

impl GameRecord {
    /// Whether the engine is the side to move in an ongoing game (and may move now).
    pub fn computer_to_move(&self) -> bool {
        let pos = self.game.position();
        !pos.is_game_over() && Some(pos.side_to_move()) == self.meta.computer_color()
    }
}

/// Moves as stored: space-separated, passes included as `pass`.
pub fn moves_to_text(moves: impl IntoIterator<Item = Move>) -> String {
    moves
        .into_iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Parses stored moves.
pub fn moves_from_text(s: &str) -> Result<Vec<Move>, String> {
    s.split_whitespace()
        .map(|t| t.parse::<Move>().map_err(|e| e.to_string()))
        .collect()
}

/// Rebuilds a game from its stored start, moves and redo list, replaying and checking every move.
pub fn rebuild_game(start: Position, moves: &[Move], redo: &[Move]) -> Result<Game, String> {
    let mut game = Game::from_moves(start, moves.iter().chain(redo.iter()).copied())
        .map_err(|e| format!("replay failed at {e}"))?;
    for _ in 0..redo.len() {
        game.undo();
    }
    Ok(game)
}

/// Who owns a stored game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Owner {
    /// The browser that created it (or claimed it, for a game from before owners).
    Browser(BrowserId),
    /// Stored before owners existed and not yet opened from this machine.
    Unclaimed,
}

impl Owner {
    /// The stored column (`NULL` for unclaimed).
    pub fn column(self) -> Option<String> {
        match self {
            Owner::Browser(id) => Some(id.to_string()),
            Owner::Unclaimed => None,
        }
    }

    /// Reads the stored column.
    pub fn from_column(column: Option<&str>) -> Result<Owner, String> {
        match column {
            None => Ok(Owner::Unclaimed),
            Some(hex) => BrowserId::from_hex(hex)
                .map(Owner::Browser)
                .ok_or_else(|| format!("owner {hex:?} is not a browser id")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rebuild_keeps_redo() {
        let mut g = Game::new();
        for m in ["f5", "d6", "c3", "d3"] {
            g.play(m.parse().unwrap()).unwrap();
        }
        g.undo();
        g.undo();
        let redo: Vec<Move> = g.redo_moves().collect();
        let text = moves_to_text(g.moves().iter().copied());
        let back =
            rebuild_game(Position::start(), &moves_from_text(&text).unwrap(), &redo).unwrap();
        assert_eq!(back, g);
        assert!(rebuild_game(Position::start(), &["a1".parse().unwrap()], &[]).is_err());
    }
}
