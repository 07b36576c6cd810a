//! A game: a start position, the moves played, undo and redo.

use crate::{Color, GameResult, IllegalMove, Move, Position};
use std::fmt;

/// Whether a game goes on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Status {
    /// `to_move` must play (or pass, when `must_pass`).
    Ongoing { to_move: Color, must_pass: bool },
    /// Neither side can move.
    Ended(GameResult),
}

/// A game from a start position (the standard one, an XOT opening or any set-up), with its
/// moves (passes included), undo and redo.
///
/// ```
/// use virada_rules::{Game, Move, Status, Color};
/// let mut g = Game::new();
/// g.play("f5".parse().unwrap()).unwrap();
/// assert!(g.play("f5".parse().unwrap()).is_err());
/// g.undo();
/// assert_eq!(g.moves().len(), 0);
/// g.redo();
/// assert_eq!(g.to_string(), "f5");
/// assert_eq!(g.status(), Status::Ongoing { to_move: Color::White, must_pass: false });
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Game {
    start: Position,
    /// Every position from the start; `positions[i]` is before move `i`.
    positions: Vec<Position>,
    moves: Vec<Move>,
    /// Moves undone and available for redo, most recent undo last.
    redo: Vec<Move>,
}

/// An illegal move in a game, with its ply (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayError {
    pub ply: usize,
    pub mv: Move,
    pub reason: IllegalMove,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ply {}: {}", self.ply, self.reason)
    }
}

impl std::error::Error for PlayError {}

impl Default for Game {
    fn default() -> Self {
        Game::new()
    }
}

impl Game {
    /// A game from the standard start.
    pub fn new() -> Game {
        Game::from_position(Position::start())
    }

    /// A game from a set-up position.
    pub fn from_position(start: Position) -> Game {
        Game {
            start,
            positions: vec![start],
            moves: Vec::new(),
            redo: Vec::new(),
        }
    }

    /// Plays `moves` in order from `start`; the first illegal one is reported with its ply.
    pub fn from_moves(
        start: Position,
        moves: impl IntoIterator<Item = Move>,
    ) -> Result<Game, PlayError> {
        let mut g = Game::from_position(start);
        for mv in moves {
            g.play(mv)?;
        }
        Ok(g)
    }

    pub fn start(&self) -> Position {
        self.start
    }

    /// The current position.
    pub fn position(&self) -> Position {
        *self.positions.last().expect("at least the start")
    }

    /// Positions from the start up to the current one (`moves().len() + 1` entries).
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// Moves played (passes included).
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Moves that [`Game::redo`] would replay, next first.
    pub fn redo_moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.redo.iter().rev().copied()
    }

    /// Number of moves played (the ply count, passes included).
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    pub fn status(&self) -> Status {
        let p = self.position();
        match p.result() {
            Some(r) => Status::Ended(r),
            None => Status::Ongoing {
                to_move: p.side_to_move(),
                must_pass: p.must_pass(),
            },
        }
    }

    pub fn is_over(&self) -> bool {
        self.position().is_game_over()
    }

    pub fn result(&self) -> Option<GameResult> {
        self.position().result()
    }

    /// Plays a checked move. Clears the redo list unless `mv` is the move redo would replay.
    pub fn play(&mut self, mv: Move) -> Result<(), PlayError> {
        let next = self.position().play(mv).map_err(|reason| PlayError {
            ply: self.moves.len() + 1,
            mv,
            reason,
        })?;
        if self.redo.last() == Some(&mv) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        self.moves.push(mv);
        self.positions.push(next);
        Ok(())
    }

    /// Plays a pass if (and only if) the side to move must pass. Returns whether it did.
    pub fn pass_if_forced(&mut self) -> bool {
        if self.position().must_pass() {
            self.play(Move::Pass).expect("forced pass is legal");
            true
        } else {
            false
        }
    }

    /// Takes back the last move. Returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.redo.push(mv);
        Some(mv)
    }

    /// Replays the last undone move.
    pub fn redo(&mut self) -> Option<Move> {
        let mv = *self.redo.last()?;
        self.play(mv).ok()?;
        Some(mv)
    }

    /// Moves back to ply `ply` (undoing as needed; undone moves stay available for redo).
    pub fn goto_ply(&mut self, ply: usize) {
        while self.ply() > ply {
            self.undo();
        }
        while self.ply() < ply && self.redo().is_some() {}
    }
}

impl fmt::Display for Game {
    /// The transcript: squares run together (`f5d6c3`). Passes are omitted: the rules imply them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for mv in &self.moves {
            if let Move::Play(sq) = mv {
                write!(f, "{sq}")?;
            }
        }
        Ok(())
    }
}
