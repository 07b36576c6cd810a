//! Self-play games of our engine, for positions human tournament games rarely reach.
//!
//! Openings are varied two ways: even-numbered games start from one of the engine's balanced
//! 8-ply openings (`crates/engine/data/openings.txt`, chosen at random) followed by 0-2 random
//! moves; odd-numbered games start with a random number of random moves from the standard start
//! (so unbalanced positions appear too). Then both sides play fixed-depth searches, with a small
//! chance of a random move until mid-game (so the games do not repeat), and perfect play from
//! `exact_empties` empties on. Every position after the opening becomes a sample labelled with
//! the game's final result ([`Source::SelfPlay`]); because the end is played perfectly, that
//! label is the exact value of every position from `exact_empties` empties on. The pipeline then
//! replaces labels by exact solver values and search values like for WTHOR positions.

use crate::progress::Progress;
use crate::samples::{Sample, Source};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use virada_engine::{Engine, EngineConfig, Evaluator, Limits};
use virada_rules::formats::xot::XotOpening;
use virada_rules::{Board, Square};

/// Self-play settings.
#[derive(Clone, Debug)]
pub struct SelfPlayConfig {
    pub games: usize,
    /// Random opening plies: uniform in `min..=max`.
    pub random_plies: (u32, u32),
    /// Search depth of the engine's moves.
    pub depth: u32,
    /// Chance (percent) of a random move while more than `random_until_empties` are empty.
    pub random_percent: u32,
    pub random_until_empties: u32,
    /// Both sides solve exactly from this many empties (0 = never).
    pub exact_empties: u32,
    pub seed: u64,
    pub threads: usize,
}

impl Default for SelfPlayConfig {
    fn default() -> Self {
        SelfPlayConfig {
            games: 2000,
            random_plies: (4, 14),
            depth: 4,
            random_percent: 10,
            random_until_empties: 30,
            exact_empties: 14,
            seed: 1,
            threads: 2,
        }
    }
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

fn random_move(moves: u64, rng: &mut Rng) -> Square {
    let mut m = moves;
    for _ in 0..rng.below(moves.count_ones() as u64) {
        m &= m - 1;
    }
    Square::lowest_of(m)
}

/// Plays game number `index`; returns its positions after the random opening (side-to-move
/// boards, passes skipped) and the final score of each for its side to move.
fn play_game(
    engine: &mut Engine,
    cfg: &SelfPlayConfig,
    openings: &[XotOpening],
    index: usize,
) -> Vec<Sample> {
    let mut rng = Rng::new(cfg.seed ^ (index as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93));
    let mut board = Board::start();
    // Whether the side to move is the other side from the game's first mover.
    let mut flipped = false;
    let random_plies = if index.is_multiple_of(2) && !openings.is_empty() {
        let opening = &openings[rng.below(openings.len() as u64) as usize];
        for &sq in opening.moves() {
            board = board.play_unchecked(sq);
            flipped = !flipped;
        }
        rng.below(3) as u32
    } else {
        let (lo, hi) = cfg.random_plies;
        lo + rng.below((hi.saturating_sub(lo) + 1) as u64) as u32
    };
    let limits = Limits {
        depth: Some(cfg.depth),
        exact_empties: Some(cfg.exact_empties),
        ..Limits::default()
    };
    let mut ply = 0u32;
    // (board, mover parity): parity 0 = same side as the final board's side to move.
    let mut kept: Vec<(Board, bool)> = Vec::new();
    loop {
        let moves = board.moves();
        if moves == 0 {
            if board.is_game_over() {
                break;
            }
            board = board.pass();
            flipped = !flipped;
            continue;
        }
        let sq = if ply < random_plies
            || (board.empty_count() > cfg.random_until_empties
                && rng.below(100) < cfg.random_percent as u64)
        {
            random_move(moves, &mut rng)
        } else {
            kept.push((board, flipped));
            engine.clear();
            match engine.search(board, &limits, None).best_move.square() {
                Some(sq) => sq,
                None => random_move(moves, &mut rng),
            }
        };
        board = board.play_unchecked(sq);
        flipped = !flipped;
        ply += 1;
    }
    let final_score = board.final_score();
    kept.into_iter()
        .map(|(b, f)| {
            // `f` says whether this board's side to move is the other side from the final
            // board's side to move.
            let label = if f != flipped {
                -final_score
            } else {
                final_score
            };
            Sample {
                board: b,
                label: label as i8,
                source: Source::SelfPlay,
            }
        })
        .collect()
}

/// Plays `cfg.games` games with `eval` on `cfg.threads` threads (each game is deterministic
/// for its index, so the samples do not depend on the thread count); one sample list a game,
/// in game order.
pub fn generate(cfg: &SelfPlayConfig, eval: Arc<dyn Evaluator>) -> Vec<Vec<Sample>> {
    let progress = Progress::new("self-play games", cfg.games as u64);
    let openings = virada_engine::openings::builtin();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Vec<Sample>>> = Mutex::new(vec![Vec::new(); cfg.games]);
    std::thread::scope(|s| {
        for _ in 0..cfg.threads.max(1) {
            let eval = eval.clone();
            let (next, results, progress, openings) = (&next, &results, &progress, &openings);
            s.spawn(move || {
                let mut engine = Engine::new(EngineConfig {
                    tt_mb: 8,
                    threads: 1,
                    evaluator: eval,
                });
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= cfg.games {
                        break;
                    }
                    let g = play_game(&mut engine, cfg, openings, i);
                    if let Ok(mut r) = results.lock() {
                        r[i] = g;
                    }
                    progress.inc(1);
                }
            });
        }
    });
    progress.finish();
    results.into_inner().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use virada_engine::eval::EvalV1;

    #[test]
    fn games_are_legal_deterministic_and_labelled_consistently() {
        let cfg = SelfPlayConfig {
            games: 3,
            depth: 1,
            threads: 2,
            ..SelfPlayConfig::default()
        };
        let a = generate(&cfg, Arc::new(EvalV1::new()));
        let b = generate(
            &SelfPlayConfig {
                threads: 1,
                ..cfg.clone()
            },
            Arc::new(EvalV1::new()),
        );
        assert_eq!(a, b);
        assert_eq!(a.len(), 3);
        for game in &a {
            assert!(game.len() > 20);
            // Every position of a game is labelled with the same final result, seen from
            // either side, and both sides appear.
            let abs = game[0].label.abs();
            assert!(game
                .iter()
                .all(|s| s.label.abs() == abs && s.board.is_valid()));
            if abs != 0 {
                assert!(game.iter().any(|s| s.label > 0) && game.iter().any(|s| s.label < 0));
            }
        }
    }
}
