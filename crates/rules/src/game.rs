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
        let pos = self.position();
        if pos.must_pass() {
            // A forced pass is legal: no move and the game is not over.
            self.moves.push(Move::Pass);
            self.positions.push(pos.play_unchecked(Move::Pass));
            if self.redo.last() == Some(&Move::Pass) {
                self.redo.pop();
            } else {
                self.redo.clear();
            }
            true
        } else {
            false
        }
    }

    /// Plays every pass the rules force, so that afterwards the side to move has a move or the
    /// game is over. Returns how many were played (at most one: after a pass the other side
    /// has a move, or neither side has and the game is over).
    pub fn play_forced_passes(&mut self) -> usize {
        let mut n = 0;
        while self.pass_if_forced() {
            n += 1;
        }
        n
    }

    /// Plays a checked move, then the pass it forces on the opponent, if any: the usual way a
    /// player's turn ends. Returns the number of forced passes played.
    ///
    /// ```
    /// use virada_rules::{Color, Game, Position};
    /// // a1 black, b1 white, c1 empty: Black takes b1 and White, without discs, has no move.
    /// let start = Position::from_colors(1, 2, Color::Black).unwrap();
    /// let mut game = Game::from_position(start);
    /// assert_eq!(game.play_then_forced_passes("c1".parse().unwrap()), Ok(0));
    /// assert!(game.is_over());
    /// ```
    pub fn play_then_forced_passes(&mut self, mv: Move) -> Result<usize, PlayError> {
        self.play(mv)?;
        Ok(self.play_forced_passes())
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

    /// Takes back the last move that was not a pass and the passes around it (two people at
    /// one board: the previous player is to move again). Returns whether anything changed.
    pub fn undo_turn(&mut self) -> bool {
        if !self.moves.iter().any(|m| *m != Move::Pass) {
            return false;
        }
        while let Some(mv) = self.undo() {
            if mv != Move::Pass {
                break;
            }
        }
        true
    }

    /// Replays the next move that is not a pass and the forced passes after it (the inverse of
    /// [`Game::undo_turn`]). Returns whether anything changed.
    pub fn redo_turn(&mut self) -> bool {
        if !self.redo_moves().any(|m| m != Move::Pass) {
            return false;
        }
        while let Some(mv) = self.redo() {
            if mv != Move::Pass {
                break;
            }
        }
        self.play_forced_passes();
        true
    }

    /// Goes back to the latest earlier position where `side` was to move and moved, taking back
    /// that move and everything after it (against a computer: the person's move and the
    /// computer's reply). Returns false, changing nothing, if `side` has made no move.
    ///
    /// ```
    /// use virada_rules::{Color, Game};
    /// let mut game = Game::new();
    /// for mv in ["f5", "d6", "c3"] {
    ///     game.play(mv.parse().unwrap()).unwrap();
    /// }
    /// assert!(game.undo_to_turn(Color::White));
    /// assert_eq!(game.to_string(), "f5");
    /// assert!(game.undo_to_turn(Color::Black));
    /// assert_eq!(game.ply(), 0);
    /// assert!(!game.undo_to_turn(Color::Black));
    /// ```
    pub fn undo_to_turn(&mut self, side: Color) -> bool {
        let target = self
            .moves
            .iter()
            .enumerate()
            .rev()
            .find(|(i, m)| **m != Move::Pass && self.positions[*i].side_to_move() == side)
            .map(|(i, _)| i);
        match target {
            Some(ply) => {
                while self.ply() > ply {
                    self.undo();
                }
                true
            }
            None => false,
        }
    }

    /// From a position where `side` is to move, replays `side`'s next move and the redo list up
    /// to `side`'s next turn (the inverse of [`Game::undo_to_turn`]); where the redo list ends
    /// first, forced passes are played. Returns whether anything changed.
    pub fn redo_to_turn(&mut self, side: Color) -> bool {
        let pos = self.position();
        if pos.is_game_over() || pos.side_to_move() != side || self.redo.is_empty() {
            return false;
        }
        self.redo();
        loop {
            let pos = self.position();
            if pos.is_game_over() || (pos.side_to_move() == side && !pos.must_pass()) {
                break;
            }
            if self.redo().is_none() {
                self.play_forced_passes();
                break;
            }
        }
        true
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
