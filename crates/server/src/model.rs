//! What a game is to the server: its metadata (mode, level, colours, start) plus a
//! [`virada_rules::Game`], and the conversions to and from the stored text form.

use virada_rules::{Color, Game, Move, Position};

/// Who plays.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// A person against the engine.
    Computer,
    /// Two people on one device.
    Friend,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Computer => "computer",
            Mode::Friend => "friend",
        }
    }

    pub fn parse(s: &str) -> Option<Mode> {
        match s {
            "computer" => Some(Mode::Computer),
            "friend" => Some(Mode::Friend),
            _ => None,
        }
    }
}

/// How the game started.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum StartKind {
    Standard,
    Xot,
    Setup,
}

impl StartKind {
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
    /// Computer level (computer games only).
    pub level: Option<u8>,
    /// The person's colour (computer games only).
    pub human_color: Option<Color>,
    pub start_kind: StartKind,
    /// The XOT opening's moves (`f5d6c4d3c2b3b4b5`), when the start is XOT.
    pub opening: Option<String>,
    /// Seed for the engine's choices (levels with deliberate mistakes), fixed per game.
    pub seed: u64,
}

impl GameMeta {
    /// The colour the engine plays, if any.
    pub fn computer_color(&self) -> Option<Color> {
        match self.mode {
            Mode::Computer => self.human_color.map(Color::opposite),
            Mode::Friend => None,
        }
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

/// `"black"` / `"white"`.
pub fn color_str(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

pub fn parse_color(s: &str) -> Option<Color> {
    match s {
        "black" => Some(Color::Black),
        "white" => Some(Color::White),
        _ => None,
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
