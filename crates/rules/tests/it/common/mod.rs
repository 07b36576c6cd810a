//! Helpers shared by the integration tests (the reference data is found by `virada-testdata`).
#![allow(dead_code)]

use std::path::PathBuf;

/// Proptest settings for this suite: `cases` cases, no failure files written into the tree.
pub fn proptest_config(cases: u32) -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases,
        failure_persistence: None,
        ..Default::default()
    }
}

/// Files in `dir` whose name ends with `suffix`, sorted.
pub fn files_with_suffix(dir: &std::path::Path, suffix: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("readable data directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    v.sort();
    v
}

use virada_rules::{Game, Move, Position};

/// A small deterministic generator (xorshift64*), so tests need no extra dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15 | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform-ish in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// Plays up to `max_plies` random legal moves from `start` (forced passes included).
pub fn random_game_from(start: Position, rng: &mut Rng, max_plies: usize) -> Game {
    let mut game = Game::from_position(start);
    while game.ply() < max_plies && !game.is_over() {
        let moves: Vec<_> = game.position().legal_moves().iter().collect();
        let mv = if moves.is_empty() {
            Move::Pass
        } else {
            Move::Play(moves[rng.below(moves.len() as u64) as usize])
        };
        game.play(mv).expect("random legal move");
    }
    // A game cut off right after a pass would end on a move no transcript can carry.
    if game.moves().last() == Some(&Move::Pass) {
        game.undo();
    }
    game
}

/// A random game from the standard start, of random length (often to the end).
pub fn random_game(seed: u64) -> Game {
    let mut rng = Rng::new(seed);
    let max = if rng.below(3) == 0 {
        rng.below(70) as usize
    } else {
        200
    };
    random_game_from(Position::start(), &mut rng, max)
}

/// A random position: random play from the start for a random number of plies.
pub fn random_position(seed: u64) -> Position {
    let mut rng = Rng::new(seed);
    let plies = rng.below(64) as usize;
    random_game_from(Position::start(), &mut rng, plies).position()
}
