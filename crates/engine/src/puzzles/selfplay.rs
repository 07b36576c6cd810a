//! Self-played games to draw puzzle positions from: a few random opening moves (so games
//! differ), then the engine's own search at a fixed depth, to the end.

use crate::{Engine, Limits};
use virada_rules::{Game, Move};

/// A small deterministic generator (SplitMix64).
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

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
