//! One game of the data generator: a varied opening, then play guided by the labelling searches,
//! every new position labelled (exactly near the end, by a fixed-depth search before).

use super::GenConfig;
use crate::dataset::Record;
use crate::samples::Source;
use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};
use virada_engine::endgame::{solve_with_table, SolveMode, SolveOptions};
use virada_engine::random::SplitMix;
use virada_engine::search::Selectivity;
use virada_engine::tt::TranspositionTable;
use virada_engine::{Engine, EngineConfig, Gen3Eval, Limits};
use virada_rules::formats::xot::XotOpening;
use virada_rules::symmetry::canonical;
use virada_rules::{Board, Square};

/// A game's random numbers (the engine's SplitMix64 sequence).
pub struct Rng(SplitMix);

impl Rng {
    /// The generator of game `game` of a run seeded with `seed`.
    pub fn for_game(seed: u64, game: u64) -> Rng {
        let mut r = Rng(SplitMix(seed ^ game.wrapping_mul(0xD6E8_FEB8_6659_FD93)));
        r.next_u64();
        r
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n` (n ≥ 1).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// Uniform in `lo..=hi`.
    pub fn between(&mut self, (lo, hi): (u32, u32)) -> u32 {
        lo + self.below(hi.saturating_sub(lo) as u64 + 1) as u32
    }
}

/// The key of a position for deduplication: a hash of its canonical form under the 8
/// symmetries (64 bits: a collision among a billion positions has a chance of about 3%,
/// and costs one missing sample).
pub fn canonical_key(board: &Board) -> u64 {
    canonical(*board).0.hash()
}

fn random_move(moves: u64, rng: &mut Rng) -> Square {
    let mut m = moves;
    for _ in 0..rng.below(moves.count_ones() as u64) {
        m &= m - 1;
    }
    Square::lowest_of(m)
}

/// What one worker thread keeps between games: a one-thread engine for the search labels and a
/// table for the exact solves.
pub struct Worker {
    engine: Engine,
    table: TranspositionTable,
    eval: Arc<Gen3Eval>,
    /// Thread time of the searches made through [`Worker::search_timed`] not yet taken.
    search_time: Duration,
}

/// Time spent and labels made, per kind.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LabelStats {
    pub exact: u64,
    pub exact_time: Duration,
    pub search: u64,
    pub search_time: Duration,
    /// Positions skipped because an earlier chunk already holds them.
    pub seen_before: u64,
}

impl LabelStats {
    pub fn add(&mut self, o: &LabelStats) {
        self.exact += o.exact;
        self.exact_time += o.exact_time;
        self.search += o.search;
        self.search_time += o.search_time;
        self.seen_before += o.seen_before;
    }
}

impl Worker {
    pub fn new(eval: Arc<Gen3Eval>, cfg: &GenConfig) -> Worker {
        Worker {
            engine: Engine::new(EngineConfig {
                tt_mb: 4,
                threads: 1,
                evaluator: eval.clone(),
            }),
            table: TranspositionTable::new(cfg.solve_table_mib),
            eval,
            search_time: Duration::ZERO,
        }
    }

    /// Value (centidiscs) and best move of a fixed-depth midgame search from a cleared table
    /// (the label depends only on the position, the depth and the evaluation).
    fn search(&mut self, board: Board, depth: u32) -> (i16, Option<Square>) {
        self.engine.clear();
        let limits = Limits::midgame(depth, Selectivity::DEFAULT);
        let r = self.engine.search(board, &limits, None);
        let v = (r.score * 100.0).round().clamp(-6400.0, 6400.0) as i16;
        (v, r.best_move.square())
    }

    /// [`Worker::search`], its time added to what [`Worker::take_search_time`] returns.
    pub fn search_timed(&mut self, board: Board, depth: u32) -> (i16, Option<Square>) {
        let start = Instant::now();
        let r = self.search(board, depth);
        self.search_time += start.elapsed();
        r
    }

    /// Time of the [`Worker::search_timed`] calls since the last call.
    pub fn take_search_time(&mut self) -> Duration {
        std::mem::take(&mut self.search_time)
    }

    /// Exact value (centidiscs) and a best move. The table is kept from the previous solve of
    /// the same game (cleared when a game starts), so the result depends only on the game.
    fn solve(&mut self, board: Board) -> (i16, Option<Square>) {
        let opts = SolveOptions {
            mode: SolveMode::Exact,
            threads: 1,
            ..SolveOptions::default()
        };
        let r = solve_with_table(board, &opts, &self.table, self.eval.as_ref());
        let best = r.best_moves.first().and_then(|m| m.square());
        ((r.score.lower * 100) as i16, best)
    }

    /// Plays game number `game`. Positions in `seen` (earlier chunks) are not labelled again: the
    /// game leaves them by a random move. Returns the labelled positions in order.
    pub fn play_game(
        &mut self,
        cfg: &GenConfig,
        openings: &[XotOpening],
        seen: &HashSet<u64>,
        game: u64,
    ) -> (Vec<Record>, LabelStats) {
        let mut rng = Rng::for_game(cfg.seed, game);
        let mut board = Board::start();
        let from_start = openings.is_empty() || rng.below(cfg.from_start_one_in.max(1)) == 0;
        let random_plies = if from_start {
            rng.between(cfg.start_random)
        } else {
            let opening = &openings[rng.below(openings.len() as u64) as usize];
            for &sq in opening.moves() {
                board = board.play_unchecked(sq);
            }
            rng.between(cfg.opening_random)
        };
        let mut stats = LabelStats::default();
        let mut out = Vec::new();
        let mut ply = 0u32;
        let mut table_fresh = false;
        loop {
            let moves = board.moves();
            if moves == 0 {
                if board.is_game_over() {
                    break;
                }
                board = board.pass();
                continue;
            }
            let empties = board.empty_count();
            let mut chosen = None;
            if ply >= random_plies {
                let key = canonical_key(&board);
                if seen.contains(&key) {
                    stats.seen_before += 1;
                } else {
                    let start = Instant::now();
                    let (label, best, source, depth) = if empties <= cfg.exact_empties {
                        if !table_fresh {
                            self.table.clear();
                            table_fresh = true;
                        }
                        let (v, m) = self.solve(board);
                        stats.exact += 1;
                        stats.exact_time += start.elapsed();
                        (v, m, Source::Exact, empties as u8)
                    } else {
                        let (v, m) = self.search(board, cfg.search_depth);
                        stats.search += 1;
                        stats.search_time += start.elapsed();
                        (v, m, Source::Search, cfg.search_depth as u8)
                    };
                    out.push(Record {
                        board,
                        label,
                        source,
                        depth,
                        game: game as u32,
                    });
                    let wander = empties > cfg.exact_empties
                        && rng.below(100) < cfg.midgame_random_percent as u64;
                    if !wander {
                        chosen = best;
                    }
                }
            }
            let sq = match chosen {
                Some(sq) if moves & (1u64 << sq.index()) != 0 => sq,
                _ => random_move(moves, &mut rng),
            };
            board = board.play_unchecked(sq);
            ply += 1;
        }
        (out, stats)
    }
}
