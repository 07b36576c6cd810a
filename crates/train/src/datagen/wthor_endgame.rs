//! Exact labels near the end of WTHOR games (label kind (a) on positions humans reached and on
//! positions a few moves away from them).
//!
//! Why: a depth-8 search from a position with 20-30 empties evaluates its leaves at 12-22
//! empties, and most of those leaves follow one or more weak moves. The self-play data labels
//! that range exactly only along perfectly played endings, and the WTHOR theoretical score is
//! exact only at the game's 24-empty position. Here each game gives one *walk*: it starts at
//! the game's position with a number of empties drawn from [`EndgameConfig::start_empties`],
//! plays [`EndgameConfig::random_plies`] random moves off the human line, and then labels every
//! position exactly down to [`EndgameConfig::min_empties`], going on with the solver's best move
//! or, with [`EndgameConfig::wander_percent`] chance, a random one. The first solve of a walk
//! costs the most; the later ones reuse its table.
//!
//! The games held out by the accuracy benchmarks' WTHOR split ([`ACCURACY_SPLIT`]) are never
//! used, so neither `virada bench accuracy --wthor` nor `examples/accuracy_table.rs` measures a
//! position whose game trained the weights. Records are [`Source::Exact`] with the WTHOR game
//! number; the fitter holds out one game in 20 of them by its own hash of (data set, game).
//!
//! Resumable like the self-play generator: the games are visited in a seeded order, part `k`
//! (chunk `k`) holds the walks of the `k`-th group of [`EndgameConfig::games_per_part`] games,
//! written atomically; a position an earlier part holds is not labelled again (the walk leaves
//! it by a random move) and duplicates inside a part are dropped in game order. A run stopped
//! at any point continues at the first missing part with the same files, for any thread count;
//! `state.txt` holds the settings and refuses other ones.

use super::game::{canonical_key, Rng};
use crate::dataset::{self, Record};
use crate::samples::Source;
use crate::wthor;
use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use virada_engine::endgame::{solve_with_table, SolveMode, SolveOptions};
use virada_engine::tt::TranspositionTable;
use virada_engine::Gen3Eval;
use virada_rules::formats::wthor::WthorGame;
use virada_rules::{Board, Square};

/// The WTHOR split (seed, one game in N) of the accuracy benchmarks: its held-out games are
/// never walked.
pub const ACCURACY_SPLIT: (u64, u64) = (1, 20);

/// Settings of a run. Every field but `threads` shapes the output.
#[derive(Clone, Debug, PartialEq)]
pub struct EndgameConfig {
    pub seed: u64,
    /// The walk starts at the game's position with this many empties (uniform in `lo..=hi`).
    pub start_empties: (u32, u32),
    /// Random moves played from that position before the first label (uniform in `lo..=hi`).
    pub random_plies: (u32, u32),
    /// The walk stops before a position with fewer empties.
    pub min_empties: u32,
    /// Chance (percent) that the walk goes on with a random move instead of the best one.
    pub wander_percent: u32,
    /// Games per output chunk (the unit of resumption).
    pub games_per_part: usize,
    /// Table size of the exact solver per thread, MiB (cleared when a walk starts).
    pub solve_table_mib: usize,
    pub threads: usize,
}

impl Default for EndgameConfig {
    fn default() -> Self {
        EndgameConfig {
            seed: 1,
            start_empties: (16, 24),
            random_plies: (0, 4),
            min_empties: 10,
            wander_percent: 30,
            games_per_part: 500,
            solve_table_mib: 16,
            threads: 2,
        }
    }
}

impl EndgameConfig {
    fn tag(&self, games: usize, eval_name: &str) -> String {
        format!(
            "wthor-endgame dataset={} games={games} seed={} start={}-{} random={}-{} min={} \
             wander={}% part={} solve-table={}MiB eval={eval_name}",
            dataset::VERSION,
            self.seed,
            self.start_empties.0,
            self.start_empties.1,
            self.random_plies.0,
            self.random_plies.1,
            self.min_empties,
            self.wander_percent,
            self.games_per_part,
            self.solve_table_mib,
        )
    }
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct EndgameTotals {
    /// Parts of the whole data set.
    pub parts: u64,
    /// Parts labelled by this run.
    pub labelled_parts: u64,
    /// Records of the parts written so far (all runs).
    pub records: u64,
    /// Solves of this run and their thread time.
    pub solves: u64,
    pub solve_time: Duration,
}

/// The order in which the games are walked: every index, sorted by a seeded hash, so that the
/// first parts are a sample of all years.
pub fn game_order(games: usize, seed: u64) -> Vec<usize> {
    let key = |i: usize| {
        let mut h = (i as u64 ^ seed.wrapping_mul(0xA076_1D64_78BD_642F)).wrapping_add(0x9E37);
        h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        h ^ (h >> 31)
    };
    let mut order: Vec<usize> = (0..games).collect();
    order.sort_by_key(|&i| (key(i), i));
    order
}

fn random_move(moves: u64, rng: &mut Rng) -> Square {
    let mut m = moves;
    for _ in 0..rng.below(moves.count_ones() as u64) {
        m &= m - 1;
    }
    Square::lowest_of(m)
}

struct Walker {
    table: TranspositionTable,
    eval: Arc<Gen3Eval>,
}

impl Walker {
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

    /// The walk of WTHOR game `index` (nothing if it is held out, does not replay or does not
    /// reach the start). Returns the records and the number of solves.
    fn walk(
        &mut self,
        cfg: &EndgameConfig,
        game: &WthorGame,
        index: usize,
        seen: &HashSet<u64>,
    ) -> (Vec<Record>, u64) {
        let mut out = Vec::new();
        if wthor::is_held_out(index, ACCURACY_SPLIT.0, ACCURACY_SPLIT.1) {
            return (out, 0);
        }
        let Ok(played) = game.replay() else {
            return (out, 0);
        };
        let mut rng = Rng::for_game(cfg.seed, index as u64);
        let start = rng.between(cfg.start_empties);
        let Some(p) = played
            .positions()
            .iter()
            .find(|p| p.board().empty_count() == start && p.board().moves() != 0)
        else {
            return (out, 0);
        };
        let mut board = p.board();
        let mut random = rng.between(cfg.random_plies);
        let mut solves = 0;
        self.table.clear();
        loop {
            let moves = board.moves();
            if moves == 0 {
                if board.is_game_over() {
                    break;
                }
                board = board.pass();
                continue;
            }
            if board.empty_count() < cfg.min_empties {
                break;
            }
            let mut next = None;
            if random > 0 {
                random -= 1;
            } else if !seen.contains(&canonical_key(&board)) {
                let (label, best) = self.solve(board);
                solves += 1;
                out.push(Record {
                    board,
                    label,
                    source: Source::Exact,
                    depth: board.empty_count() as u8,
                    game: index as u32,
                });
                if rng.below(100) >= cfg.wander_percent as u64 {
                    next = best;
                }
            }
            let sq = match next {
                Some(sq) if moves & (1u64 << sq.index()) != 0 => sq,
                _ => random_move(moves, &mut rng),
            };
            board = board.play_unchecked(sq);
        }
        (out, solves)
    }
}

/// Builds (or continues) the data set in `out` from the WTHOR games of `wthor_dir`, stopping
/// after `max_parts` newly labelled parts if given, or when `stop` becomes true (after the part
/// in progress).
pub fn run(
    cfg: &EndgameConfig,
    wthor_dir: &Path,
    out: &Path,
    eval: Arc<Gen3Eval>,
    max_parts: Option<u64>,
    stop: Option<&AtomicBool>,
) -> Result<EndgameTotals, String> {
    if cfg.games_per_part == 0 {
        return Err("wthor-endgame: a part needs at least 1 game".into());
    }
    if cfg.start_empties.0 > cfg.start_empties.1 || cfg.random_plies.0 > cfg.random_plies.1 {
        return Err("wthor-endgame: a range's low end is above its high end".into());
    }
    let db = wthor::load(wthor_dir)?;
    let tag = cfg.tag(db.games.len(), eval.name());
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let state = out.join("state.txt");
    match std::fs::read_to_string(&state) {
        Ok(text) if text.lines().next() != Some(tag.as_str()) => {
            return Err(format!(
                "{}: made with other settings ({}); this run: {tag}. Use another --out.",
                out.display(),
                text.lines().next().unwrap_or("")
            ))
        }
        Ok(_) => {}
        Err(_) => {
            if !dataset::list_chunks(out)?.is_empty() {
                return Err(format!(
                    "{}: chunk files without state.txt; refusing to guess their settings",
                    out.display()
                ));
            }
            dataset::write_atomic(&state, format!("{tag}\n").as_bytes())
                .map_err(|e| format!("{}: {e}", state.display()))?
        }
    }
    let order = game_order(db.games.len(), cfg.seed);
    let parts: Vec<&[usize]> = order.chunks(cfg.games_per_part).collect();
    let mut totals = EndgameTotals {
        parts: parts.len() as u64,
        ..EndgameTotals::default()
    };
    let mut seen: HashSet<u64> = HashSet::new();
    let threads = cfg.threads.max(1);
    let mut walkers: Vec<Walker> = (0..threads)
        .map(|_| Walker {
            table: TranspositionTable::new(cfg.solve_table_mib),
            eval: eval.clone(),
        })
        .collect();
    let started = Instant::now();
    for (k, part) in parts.iter().enumerate() {
        let path = dataset::chunk_path(out, k as u64);
        if path.exists() {
            for r in dataset::read_chunk(&path)? {
                seen.insert(canonical_key(&r.board));
                totals.records += 1;
            }
            continue;
        }
        if max_parts.is_some_and(|m| totals.labelled_parts >= m)
            || stop.is_some_and(|f| f.load(Ordering::Relaxed))
        {
            break;
        }
        let t0 = Instant::now();
        let next = AtomicUsize::new(0);
        let results: Mutex<Vec<(Vec<Record>, u64, Duration)>> =
            Mutex::new(vec![(Vec::new(), 0, Duration::ZERO); part.len()]);
        std::thread::scope(|s| {
            for w in walkers.iter_mut() {
                let (next, results, seen, db) = (&next, &results, &seen, &db);
                s.spawn(move || loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= part.len() {
                        break;
                    }
                    let g = part[i];
                    let t = Instant::now();
                    let (recs, solves) = w.walk(cfg, &db.games[g].0, g, seen);
                    if let Ok(mut r) = results.lock() {
                        r[i] = (recs, solves, t.elapsed());
                    }
                });
            }
        });
        let results = results
            .into_inner()
            .map_err(|_| "a wthor-endgame thread panicked")?;
        let mut chunk = Vec::new();
        for (recs, solves, time) in results {
            totals.solves += solves;
            totals.solve_time += time;
            for r in recs {
                if seen.insert(canonical_key(&r.board)) {
                    chunk.push(r);
                }
            }
        }
        dataset::write_atomic(&path, &dataset::encode(&chunk))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        totals.labelled_parts += 1;
        totals.records += chunk.len() as u64;
        let left = parts.len() - k - 1;
        let per_part = started.elapsed() / totals.labelled_parts as u32;
        eprintln!(
            "part {k}/{}: {} games, {} positions, {:.1} s | this run {} parts, {} solves, \
             {:.0} solves per thread-hour; {} positions in all; ETA {}",
            parts.len(),
            part.len(),
            chunk.len(),
            t0.elapsed().as_secs_f64(),
            totals.labelled_parts,
            totals.solves,
            totals.solves as f64 * 3600.0 / totals.solve_time.as_secs_f64().max(1e-9),
            totals.records,
            crate::progress::format_duration(per_part * left as u32)
        );
    }
    Ok(totals)
}
