//! The gen3 data generator: self-play games labelled by the previous generation, written as
//! chunked sample files ([`crate::dataset`]) in a cache folder, resumable at any point.
//!
//! - **Openings**: most games start from one of the balanced 8-ply openings of
//!   `crates/engine/data/openings.txt` followed by a random number of random moves
//!   ([`GenConfig::opening_random`]); one game in [`GenConfig::from_start_one_in`] starts with
//!   random moves from the standard start ([`GenConfig::start_random`]; unbalanced positions too).
//!   Positions of the random part are not labelled.
//! - **Labels**: every later position gets the exact value from the endgame solver when it has
//!   at most [`GenConfig::exact_empties`] empties, else the value of a fixed-depth midgame
//!   search with the evaluation given (the previous generation). The game goes on with the
//!   move that search or solve found, so a label costs one search and the game costs nothing
//!   more; near the end the game is played perfectly.
//! - **Deduplication**: a position whose canonical form (under the 8 symmetries) an earlier
//!   chunk holds is not labelled again, and the game leaves it by a random move; duplicates
//!   among the games of one chunk are dropped when the chunk is assembled in game order.
//! - **Determinism and resumption**: game `g` depends only on the seed, `g`, the settings, the
//!   evaluation and the positions of the chunks before its own; chunk `k` holds games
//!   `k·n .. (k+1)·n` and is written atomically. A run stopped at any point restarts at the first
//!   missing chunk and produces the same files as an uninterrupted run, whatever the thread
//!   count. `state.txt` holds the settings (a run with other settings refuses the directory) and
//!   the running totals.

pub mod game;
pub mod relabel;
pub mod wthor_endgame;
pub mod wthor_import;

use crate::dataset::{self, Record};
use crate::progress::format_duration;
use game::{canonical_key, LabelStats, Worker};
use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use virada_engine::Gen3Eval;

/// Settings of a generator run. Every field but `threads` shapes the output.
#[derive(Clone, Debug, PartialEq)]
pub struct GenConfig {
    pub seed: u64,
    /// Games per chunk file.
    pub games_per_chunk: u64,
    /// Positions with at most this many empties get exact labels.
    pub exact_empties: u32,
    /// Depth of the search labels.
    pub search_depth: u32,
    /// Random moves after a balanced opening: uniform in `lo..=hi`.
    pub opening_random: (u32, u32),
    /// Random moves of the games that start from the standard position.
    pub start_random: (u32, u32),
    /// One game in this many starts from the standard position.
    pub from_start_one_in: u64,
    /// Chance (percent) that a game leaves the searched move for a random one, before the exact
    /// phase (the position is labelled all the same).
    pub midgame_random_percent: u32,
    /// Table size of the exact solver per thread, MiB.
    pub solve_table_mib: usize,
    pub threads: usize,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            seed: 1,
            games_per_chunk: 64,
            exact_empties: 22,
            search_depth: 8,
            opening_random: (0, 10),
            start_random: (1, 20),
            from_start_one_in: 4,
            midgame_random_percent: 2,
            solve_table_mib: 16,
            threads: 2,
        }
    }
}

impl GenConfig {
    /// The settings line of `state.txt`: everything that shapes the samples, with the name of the
    /// labelling evaluation.
    pub fn tag(&self, eval_name: &str) -> String {
        format!(
            "dataset={} seed={} games-per-chunk={} exact={} depth={} opening-random={}-{} \
             start-random={}-{} from-start-1in={} midgame-random={}% solve-table={}MiB eval={}",
            dataset::VERSION,
            self.seed,
            self.games_per_chunk,
            self.exact_empties,
            self.search_depth,
            self.opening_random.0,
            self.opening_random.1,
            self.start_random.0,
            self.start_random.1,
            self.from_start_one_in,
            self.midgame_random_percent,
            self.solve_table_mib,
            eval_name
        )
    }
}

/// Running totals of a data set (kept in `state.txt`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Totals {
    pub chunks: u64,
    pub records: u64,
    pub labels: LabelStats,
    /// Positions dropped because another game of the same chunk had them first.
    pub duplicates: u64,
    pub wall: Duration,
}

impl Totals {
    fn to_text(&self, tag: &str) -> String {
        let l = &self.labels;
        let mut s = String::new();
        let _ = writeln!(s, "format 1");
        let _ = writeln!(s, "settings {tag}");
        let _ = writeln!(s, "chunks {}", self.chunks);
        let _ = writeln!(s, "records {}", self.records);
        let _ = writeln!(s, "exact {} {:.3}", l.exact, l.exact_time.as_secs_f64());
        let _ = writeln!(s, "search {} {:.3}", l.search, l.search_time.as_secs_f64());
        let _ = writeln!(s, "seen-before {}", l.seen_before);
        let _ = writeln!(s, "duplicates {}", self.duplicates);
        let _ = writeln!(s, "wall {:.3}", self.wall.as_secs_f64());
        s
    }

    fn parse(text: &str) -> Result<(String, Totals), String> {
        let mut tag = None;
        let mut t = Totals::default();
        for line in text.lines() {
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            let nums: Vec<f64> = rest
                .split_whitespace()
                .filter_map(|x| x.parse().ok())
                .collect();
            let n = |i: usize| nums.get(i).copied().unwrap_or(0.0);
            match key {
                "format" if rest != "1" => return Err(format!("state format {rest} unknown")),
                "settings" => tag = Some(rest.to_string()),
                "chunks" => t.chunks = n(0) as u64,
                "records" => t.records = n(0) as u64,
                "exact" => {
                    t.labels.exact = n(0) as u64;
                    t.labels.exact_time = Duration::from_secs_f64(n(1));
                }
                "search" => {
                    t.labels.search = n(0) as u64;
                    t.labels.search_time = Duration::from_secs_f64(n(1));
                }
                "seen-before" => t.labels.seen_before = n(0) as u64,
                "duplicates" => t.duplicates = n(0) as u64,
                "wall" => t.wall = Duration::from_secs_f64(n(0)),
                _ => {}
            }
        }
        Ok((tag.ok_or("state.txt has no settings line")?, t))
    }

    /// Labels per hour of each kind on `threads` threads, from the thread time spent on it.
    pub fn rates(&self, threads: usize) -> (f64, f64) {
        let per_hour = |n: u64, t: Duration| {
            if t.is_zero() {
                0.0
            } else {
                n as f64 * 3600.0 * threads as f64 / t.as_secs_f64()
            }
        };
        (
            per_hour(self.labels.exact, self.labels.exact_time),
            per_hour(self.labels.search, self.labels.search_time),
        )
    }
}

/// When to stop a run.
#[derive(Clone, Copy, Debug, Default)]
pub struct StopAt<'a> {
    /// Stop once the data set has this many chunks (`None`: run until `flag`).
    pub chunks: Option<u64>,
    /// Stop (after the chunk in progress is written) when this becomes true.
    pub flag: Option<&'a AtomicBool>,
}

/// Runs (or resumes) the generator into `dir`. Returns the totals of the data set.
pub fn run(
    cfg: &GenConfig,
    dir: &Path,
    eval: Arc<Gen3Eval>,
    stop: StopAt<'_>,
) -> Result<Totals, String> {
    let tag = cfg.tag(eval.name());
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let state_path = dir.join("state.txt");
    let mut totals = match std::fs::read_to_string(&state_path) {
        Ok(text) => {
            let (old, t) =
                Totals::parse(&text).map_err(|e| format!("{}: {e}", state_path.display()))?;
            if old != tag {
                return Err(format!(
                    "{} was made with other settings:\n  {old}\nthis run:\n  {tag}\n\
                     (use another --out directory, or the same settings to resume)",
                    dir.display()
                ));
            }
            t
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if !dataset::list_chunks(dir)?.is_empty() {
                return Err(format!(
                    "{}: chunk files without state.txt; refusing to guess their settings",
                    dir.display()
                ));
            }
            Totals::default()
        }
        Err(e) => return Err(format!("{}: {e}", state_path.display())),
    };
    let write_state = |t: &Totals| {
        dataset::write_atomic(&state_path, t.to_text(&tag).as_bytes())
            .map_err(|e| format!("{}: {e}", state_path.display()))
    };
    write_state(&totals)?;

    // The chunks already written: consecutive from 0 (a chunk written just before a stop,
    // whose totals did not reach state.txt, counts too; its label times are lost).
    let mut seen: HashSet<u64> = HashSet::new();
    let mut records = 0u64;
    let mut chunks = 0u64;
    while dataset::chunk_path(dir, chunks).exists() {
        for r in dataset::read_chunk(&dataset::chunk_path(dir, chunks))? {
            seen.insert(canonical_key(&r.board));
            records += 1;
        }
        chunks += 1;
    }
    if chunks != totals.chunks || records != totals.records {
        eprintln!(
            "{}: state.txt said {} chunks / {} records, the files hold {chunks} / {records}; \
             continuing from the files",
            dir.display(),
            totals.chunks,
            totals.records
        );
        totals.chunks = chunks;
        totals.records = records;
    }
    eprintln!(
        "data set {}: {chunks} chunks, {records} positions; settings: {tag}",
        dir.display()
    );

    let openings = virada_engine::openings::builtin();
    let threads = cfg.threads.max(1);
    let mut workers: Vec<Worker> = (0..threads)
        .map(|_| Worker::new(eval.clone(), cfg))
        .collect();
    loop {
        if stop.chunks.is_some_and(|n| totals.chunks >= n)
            || stop.flag.is_some_and(|f| f.load(Ordering::Relaxed))
        {
            break;
        }
        let start = Instant::now();
        let k = totals.chunks;
        let n = cfg.games_per_chunk.max(1) as usize;
        let first_game = k * n as u64;
        let next = AtomicUsize::new(0);
        let results: Mutex<Vec<(Vec<Record>, LabelStats)>> =
            Mutex::new(vec![(Vec::new(), LabelStats::default()); n]);
        std::thread::scope(|s| {
            for w in workers.iter_mut() {
                let (next, results, openings, seen) = (&next, &results, &openings, &seen);
                s.spawn(move || loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    let g = w.play_game(cfg, openings, seen, first_game + i as u64);
                    if let Ok(mut r) = results.lock() {
                        r[i] = g;
                    }
                });
            }
        });
        let results = results
            .into_inner()
            .map_err(|_| "a generator thread panicked")?;
        let mut chunk = Vec::new();
        let mut stats = LabelStats::default();
        let mut duplicates = 0u64;
        for (recs, st) in results {
            stats.add(&st);
            for r in recs {
                if seen.insert(canonical_key(&r.board)) {
                    chunk.push(r);
                } else {
                    duplicates += 1;
                }
            }
        }
        let path = dataset::chunk_path(dir, k);
        dataset::write_atomic(&path, &dataset::encode(&chunk))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        totals.chunks += 1;
        totals.records += chunk.len() as u64;
        totals.labels.add(&stats);
        totals.duplicates += duplicates;
        totals.wall += start.elapsed();
        write_state(&totals)?;
        let (exact_h, search_h) = totals.rates(threads);
        eprintln!(
            "chunk {k}: {n} games, {} positions (exact {}, search {}), {duplicates} duplicates, \
             {} seen before, {:.1} s | total {} positions in {} chunks, {} wall, {:.0}/h; \
             exact {exact_h:.0}/h, search {search_h:.0}/h (on {threads} threads, from label time)",
            chunk.len(),
            stats.exact,
            stats.search,
            stats.seen_before,
            start.elapsed().as_secs_f64(),
            totals.records,
            totals.chunks,
            format_duration(totals.wall),
            totals.records as f64 * 3600.0 / totals.wall.as_secs_f64().max(1e-9),
        );
    }
    Ok(totals)
}

#[cfg(test)]
mod tests;
