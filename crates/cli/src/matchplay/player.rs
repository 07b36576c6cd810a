//! A match player: our engine, a reference player, or an external engine; all behind one
//! trait so the game loop does not care which.

use super::process::EngineFailure;
use super::settings::PlayerSettings;
use virada_engine::{BookUse, Engine, EngineConfig, Iteration};
use virada_rules::{Game, Move};

/// One side of a match game.
pub trait Player {
    /// A new game starts from `start` (the opening's moves already played).
    fn new_game(&mut self, start: &Game) -> Result<(), EngineFailure>;

    /// The move for the side to move of `game`, which has a legal move. `seed` drives our
    /// beginner levels and reference players. An external engine's answer is returned as
    /// given: the caller checks that it is legal.
    fn choose(&mut self, game: &Game, seed: u64) -> Result<Move, EngineFailure>;
}

/// Our engine (single-threaded, its own 16 MiB table) or a reference player.
pub struct InternalPlayer {
    engine: Engine,
    settings: PlayerSettings,
}

impl InternalPlayer {
    pub fn new(settings: PlayerSettings) -> InternalPlayer {
        let mut engine = Engine::new(EngineConfig {
            tt_mb: 16,
            threads: 1,
            evaluator: settings.evaluator.clone(),
        });
        engine.set_book(settings.book);
        InternalPlayer { engine, settings }
    }
}

impl Player for InternalPlayer {
    fn new_game(&mut self, _start: &Game) -> Result<(), EngineFailure> {
        self.engine.clear();
        Ok(())
    }

    fn choose(&mut self, game: &Game, seed: u64) -> Result<Move, EngineFailure> {
        let board = game.position().board();
        let s = &self.settings;
        Ok(if board.moves() == 0 {
            Move::Pass
        } else if let Some(r) = s.reference {
            r.choose(&board, seed)
        } else if let Some(mv) = self.engine.book_move(board, s.effective_book_use(), seed) {
            mv
        } else {
            match s.level {
                // The book was consulted above (or is off for this player).
                Some(level) => self.engine.choose_move_using(
                    board,
                    level,
                    &s.limits,
                    BookUse::Ignore,
                    seed,
                    None,
                    &mut |_: &Iteration| {},
                ),
                None => self.engine.search(board, &s.limits, None).best_move,
            }
        })
    }
}
