//! Helpers shared by the engine's integration tests (each test file uses some of them).
#![allow(dead_code)]

use virada_engine::endgame::SolveResult;
use virada_rules::movegen::legal_moves;
use virada_rules::{Board, Square};

/// A small deterministic pseudo-random generator (xorshift64) for test positions.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A random game from the start stopped at `empties` empties (or earlier if it ends).
pub fn random_position(rng: &mut Rng, empties: u32) -> Board {
    let mut b = Board::start();
    while b.empty_count() > empties {
        let m = legal_moves(b.player, b.opponent);
        if m == 0 {
            if legal_moves(b.opponent, b.player) == 0 {
                break;
            }
            b = b.pass();
            continue;
        }
        let mut mm = m;
        for _ in 0..rng.next_u64() % u64::from(m.count_ones()) {
            mm &= mm - 1;
        }
        b = b.play_unchecked(Square::lowest_of(mm));
    }
    b
}

/// Two solves of one position agree on everything but nodes and time.
pub fn assert_same(a: &SolveResult, b: &SolveResult, what: &str) {
    assert_eq!(a.complete, b.complete, "{what}");
    assert_eq!(a.score, b.score, "{what}");
    assert_eq!(a.best_moves, b.best_moves, "{what}");
    assert_eq!(a.pv, b.pv, "{what}");
    assert_eq!(a.move_scores, b.move_scores, "{what}");
}
