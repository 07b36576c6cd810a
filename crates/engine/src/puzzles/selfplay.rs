//! Self-played games to draw puzzle positions from: a few random opening moves (so games
//! differ), then the engine's own search at a fixed depth, to the end.

pub use crate::random::SplitMix;
use crate::{Engine, Limits};
use virada_rules::{Game, Move};

/// One game: `random_plies` uniformly random moves, then `depth`-ply searches (exact from 14
/// empties) until the game ends. Deterministic for a given `seed`.
pub fn self_play_game(engine: &mut Engine, seed: u64, random_plies: usize, depth: u32) -> Game {
    let mut rng = SplitMix(seed);
    let mut game = Game::new();
    let limits = Limits {
        exact_empties: Some(14),
        ..Limits::depth(depth)
    };
    while !game.is_over() {
        let board = game.position().board();
        let mv = if board.moves() == 0 {
            Move::Pass
        } else if game.ply() < random_plies {
            let moves: Vec<_> = board.legal_moves().into_iter().collect();
            Move::Play(moves[rng.below(moves.len())])
        } else {
            engine.search(board, &limits, None).best_move
        };
        if game.play(mv).is_err() {
            break;
        }
    }
    game
}
