//! Growing a book by our own searches (`virada book build`, `extend`, `add`).
//!
//! The build works in rounds. Each round walks the book from its roots (the start position,
//! and the XOT openings when asked) along the moves worth studying, Edax's "deviate" idea:
//! a move at most [`BuildConfig::move_window`] discs worse than the best of its position, on a
//! line whose value stays within [`BuildConfig::line_window`] of the root's. Positions reached
//! that way and not yet in the book are analysed (every legal move searched to
//! [`BuildConfig::depth`]); book positions reached that way whose moves were searched shallower
//! than the depth asked (or all of them with [`Research::All`]) are analysed again. Then the
//! whole book is negamaxed and the next round walks the new values. The build ends when a round
//! finds nothing to do or a budget (positions, searches, time) runs out.
//!
//! Deterministic: each analysis uses a fresh single-threaded engine at a fixed depth on the
//! canonical board, so its result depends on the position alone; rounds take their work in a
//! fixed order (line loss, ply, then a hash of the position mixed with the seed, which decides
//! what a position budget keeps). Several threads analyse a round's positions together.
//! Resumable: every finished analysis goes to the [`journal`] at once; a
//! resumed build replays the same rounds, taking the journal's results instead of searching.

pub mod journal;
pub mod verify;

#[cfg(test)]
mod tests;

use crate::book::{child_of, to_units, Book, BookEntry, BookError, Child, LeafMove};
use crate::eval::Gen3Eval;
use crate::random::splitmix64;
use crate::{Engine, EngineConfig, Limits};
use journal::{Analyses, Journal};
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};
use virada_rules::symmetry::canonical;
use virada_rules::Board;

/// Which book positions a build analyses again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Research {
    /// Those whose moves were searched shallower than the depth asked.
    Shallower,
    /// Every position on the studied lines, once (after the evaluation changed).
    All,
}

/// How to grow a book.
#[derive(Clone)]
pub struct BuildConfig {
    /// Midgame depth of each analysis.
    pub depth: u32,
    /// Book positions are at most this many plies from the start.
    pub max_ply: u32,
    /// Study moves at most this many discs worse than the best of their position.
    pub move_window: f32,
    /// Study lines whose value stays within this many discs of their root's value.
    pub line_window: f32,
    /// Stop when the book holds this many positions.
    pub max_positions: Option<usize>,
    /// Stop after this many analyses in this run (journal replays do not count).
    pub max_searches: Option<usize>,
    /// Stop after this much wall time.
    pub time: Option<Duration>,
    /// Analyses run in parallel, one engine each.
    pub threads: usize,
    /// Transposition table of each engine (MiB).
    pub tt_mb: usize,
    /// Decides the order of equally urgent positions (what a position budget keeps).
    pub seed: u64,
    /// Where lines start (the start position, XOT openings, ...).
    pub roots: Vec<Board>,
    pub research: Research,
    /// The evaluation (its name goes to the journal and the book's description).
    pub evaluator: Arc<Gen3Eval>,
}

impl Default for BuildConfig {
    fn default() -> Self {
        BuildConfig {
            depth: 12,
            max_ply: 16,
            move_window: 2.0,
            line_window: 4.0,
            max_positions: None,
            max_searches: None,
            time: None,
            threads: 1,
            tt_mb: 16,
            seed: 0,
            roots: vec![Board::start()],
            research: Research::Shallower,
            evaluator: crate::default_evaluator(),
        }
    }
}

impl BuildConfig {
    /// The `key=value` description stored in the book.
    pub fn describe(&self) -> String {
        format!(
            "evaluator={}\ndepth={}\nmax_ply={}\nmove_window={}\nline_window={}\nroots={}\nseed={}\n",
            self.evaluator.name(),
            self.depth,
            self.max_ply,
            self.move_window,
            self.line_window,
            self.roots.len(),
            self.seed
        )
    }
}

/// Where a build stands, for progress displays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BuildStatus {
    /// Round number (from 1).
    pub round: usize,
    /// Analyses finished in this round and planned for it.
    pub done: usize,
    pub planned: usize,
    /// Of `done`, those taken from the journal.
    pub from_journal: usize,
    /// Positions in the book.
    pub positions: usize,
    /// Analyses searched in this run (not from the journal).
    pub searched: usize,
    pub elapsed: Duration,
    /// Estimated time to the end of the round (or of the budget, if sooner).
    pub eta: Option<Duration>,
}

/// Receives the build's progress on the calling thread.
pub trait BuildProgress {
    /// After each finished analysis.
    fn analysed(&mut self, _status: &BuildStatus) {}
    /// After each round, with the book negamaxed (a good moment to save a checkpoint).
    fn round_done(&mut self, _status: &BuildStatus, _book: &Book) -> Result<(), BookError> {
        Ok(())
    }
}

/// Progress nobody watches.
pub struct Quiet;
impl BuildProgress for Quiet {}

/// Why a build ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// No position left to study within the windows and plies.
    Complete,
    PositionBudget,
    SearchBudget,
    TimeBudget,
    /// The stop flag was raised.
    Stopped,
}

/// The outcome of a build.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildReport {
    pub rounds: usize,
    /// Positions added to the book.
    pub added: usize,
    /// Positions analysed again.
    pub researched: usize,
    /// Analyses searched in this run.
    pub searched: usize,
    /// Analyses taken from the journal.
    pub from_journal: usize,
    pub elapsed: Duration,
    pub reason: StopReason,
}

impl BuildReport {
    /// A report of `rounds` rounds with nothing done yet.
    fn empty(rounds: usize) -> BuildReport {
        BuildReport {
            rounds,
            added: 0,
            researched: 0,
            searched: 0,
            from_journal: 0,
            elapsed: Duration::ZERO,
            reason: StopReason::Complete,
        }
    }
}

/// One position to analyse, with what makes it urgent.
#[derive(Clone, Copy, Debug)]
struct Job {
    key: Board,
    /// Discs lost along the line from the root, both sides (hundredths).
    loss: i32,
    ply: u32,
    rank: u64,
    research: bool,
}

/// Grows a book (see the module documentation).
pub struct Builder {
    config: BuildConfig,
    book: Book,
    journal: Option<Journal>,
    cached: Analyses,
    stop: Arc<AtomicBool>,
    researched: HashSet<Board>,
}

impl Builder {
    /// A builder growing `book` (empty for a new book).
    pub fn new(book: Book, config: BuildConfig) -> Builder {
        Builder {
            config,
            book,
            journal: None,
            cached: Analyses::new(),
            stop: Arc::new(AtomicBool::new(false)),
            researched: HashSet::new(),
        }
    }

    /// Records every analysis in the journal at `path` and reuses the ones it already holds.
    /// Returns how many it held.
    pub fn journal(&mut self, path: &Path) -> Result<usize, BookError> {
        let (journal, cached) = Journal::open(path, self.config.evaluator.name())?;
        let n = journal.resumed;
        self.journal = Some(journal);
        self.cached = cached;
        Ok(n)
    }

    /// Raising this flag ends the build after the analyses in flight.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    pub fn book(&self) -> &Book {
        &self.book
    }

    pub fn into_book(self) -> Book {
        self.book
    }

    /// Grows the book from the roots until nothing is left to study or a budget runs out.
    pub fn grow(&mut self, progress: &mut dyn BuildProgress) -> Result<BuildReport, BookError> {
        let started = Instant::now();
        let mut report = BuildReport::empty(0);
        self.book.fix();
        loop {
            let mut jobs = self.plan();
            if jobs.is_empty() {
                break;
            }
            let new_allowed = self
                .config
                .max_positions
                .map_or(usize::MAX, |m| m.saturating_sub(self.book.len()));
            let mut new_kept = 0;
            jobs.retain(|j| {
                j.research || {
                    new_kept += 1;
                    new_kept <= new_allowed
                }
            });
            if jobs.is_empty() {
                report.reason = StopReason::PositionBudget;
                break;
            }
            report.rounds += 1;
            let reason = self.run_round(&jobs, report.rounds, started, &mut report, progress)?;
            if let Some(reason) = reason {
                report.reason = reason;
                break;
            }
            if new_kept > new_allowed {
                report.reason = StopReason::PositionBudget;
                break;
            }
        }
        report.elapsed = started.elapsed();
        self.book.set_meta(self.config.describe());
        Ok(report)
    }

    /// Analyses `boards` (the positions of game lines, `virada book add`) that the book lacks
    /// or searched shallower than the depth asked, and adds them.
    pub fn add_positions(
        &mut self,
        boards: &[Board],
        progress: &mut dyn BuildProgress,
    ) -> Result<BuildReport, BookError> {
        let started = Instant::now();
        let mut report = BuildReport::empty(1);
        let mut seen = HashSet::new();
        let mut jobs = Vec::new();
        for &b in boards {
            if b.moves() == 0 {
                continue;
            }
            let key = canonical(b).0;
            if !seen.insert(key) {
                continue;
            }
            let research = match self.book.entries.get(&key) {
                None => false,
                Some(e) if (e.search_depth() as u32) < self.config.depth => true,
                Some(_) => continue,
            };
            jobs.push(self.job(key, 0, research));
        }
        jobs.sort_by_key(|j| (j.ply, j.rank, j.key.player, j.key.opponent));
        if !jobs.is_empty() {
            if let Some(r) = self.run_round(&jobs, 1, started, &mut report, progress)? {
                report.reason = r;
            }
        }
        report.elapsed = started.elapsed();
        Ok(report)
    }

    fn job(&self, key: Board, loss: i32, research: bool) -> Job {
        Job {
            key,
            loss,
            ply: 60 - key.empty_count(),
            rank: splitmix64(self.config.seed ^ key.hash()),
            research,
        }
    }

    /// The positions this round analyses, most urgent first.
    fn plan(&self) -> Vec<Job> {
        let mut jobs: HashMap<Board, Job> = HashMap::new();
        let mut visited: HashMap<Board, i32> = HashMap::new();
        let add = |jobs: &mut HashMap<Board, Job>, job: Job| {
            let e = jobs.entry(job.key).or_insert(job);
            e.loss = e.loss.min(job.loss);
        };
        let x = to_units(self.config.move_window) as i32;
        let y = to_units(self.config.line_window) as i32;
        for &root in &self.config.roots {
            if root.moves() == 0 {
                continue;
            }
            let root_key = canonical(root).0;
            let Some(root_entry) = self.book.entries.get(&root_key) else {
                add(&mut jobs, self.job(root_key, 0, false));
                continue;
            };
            let root_value = root_entry.value as i32;
            // Depth-first over the book: (position, its side is the root's, loss so far).
            let mut stack = vec![(root_key, true, 0i32)];
            while let Some((key, root_side, loss)) = stack.pop() {
                match visited.get(&key) {
                    Some(&l) if l <= loss => continue,
                    _ => {
                        visited.insert(key, loss);
                    }
                }
                let entry = &self.book.entries[&key];
                if self.needs_research(key, entry) {
                    add(&mut jobs, self.job(key, loss, true));
                }
                let best = entry.value as i32;
                for m in &entry.moves {
                    let value = self.book.move_value(key, m).0 as i32;
                    let line = if root_side { value } else { -value };
                    if value < best - x || (line - root_value).abs() > y {
                        continue;
                    }
                    let Child::Node { board, same_side } = child_of(key, m.square) else {
                        continue;
                    };
                    let child_key = canonical(board).0;
                    let child_loss = loss + (best - value);
                    let child_side = if same_side { root_side } else { !root_side };
                    if self.book.entries.contains_key(&child_key) {
                        stack.push((child_key, child_side, child_loss));
                    } else if 60 - child_key.empty_count() <= self.config.max_ply {
                        add(&mut jobs, self.job(child_key, child_loss, false));
                    }
                }
            }
        }
        let mut jobs: Vec<Job> = jobs.into_values().collect();
        // Re-searches first (they refine what the book already claims), then new positions by
        // urgency; the key breaks the (unlikely) rank ties.
        jobs.sort_by_key(|j| {
            (
                !j.research,
                j.loss,
                j.ply,
                j.rank,
                j.key.player,
                j.key.opponent,
            )
        });
        jobs
    }

    fn needs_research(&self, key: Board, entry: &BookEntry) -> bool {
        // Once per run at most: a position analysed in this run is as good as it gets.
        !self.researched.contains(&key)
            && match self.config.research {
                Research::Shallower => (entry.search_depth() as u32) < self.config.depth,
                Research::All => true,
            }
    }

    /// Analyses `jobs` (from the journal when it has them), adds the results and negamaxes.
    /// Returns why the build must stop, if it must.
    fn run_round(
        &mut self,
        jobs: &[Job],
        round: usize,
        started: Instant,
        report: &mut BuildReport,
        progress: &mut dyn BuildProgress,
    ) -> Result<Option<StopReason>, BookError> {
        let depth = self.config.depth;
        let mut results: Vec<Option<Vec<LeafMove>>> = vec![None; jobs.len()];
        let mut to_search = Vec::new();
        for (i, j) in jobs.iter().enumerate() {
            match self.cached.get(&(j.key, depth)) {
                Some(moves) => results[i] = Some(moves.clone()),
                None => to_search.push(i),
            }
        }
        let from_journal = jobs.len() - to_search.len();
        report.from_journal += from_journal;
        let search_allowed = self
            .config
            .max_searches
            .map_or(usize::MAX, |m| m.saturating_sub(report.searched));
        let mut reason = None;
        if to_search.len() > search_allowed {
            to_search.truncate(search_allowed);
            reason = Some(StopReason::SearchBudget);
        }
        let round_started = Instant::now();
        let mut status = BuildStatus {
            round,
            done: from_journal,
            planned: jobs.len(),
            from_journal,
            positions: self.book.len(),
            searched: report.searched,
            elapsed: started.elapsed(),
            eta: None,
        };
        let next = AtomicUsize::new(0);
        let threads = self.config.threads.max(1).min(to_search.len().max(1));
        let (tx, rx) = mpsc::channel::<(usize, Option<Vec<LeafMove>>)>();
        let deadline = self.config.time.map(|t| started + t);
        let mut searched_here = 0;
        std::thread::scope(|scope| -> Result<(), BookError> {
            for _ in 0..threads {
                let tx = tx.clone();
                let (next, to_search, stop) = (&next, &to_search, &self.stop);
                let cfg = &self.config;
                scope.spawn(move || {
                    let mut engine = Engine::new(EngineConfig {
                        tt_mb: cfg.tt_mb,
                        threads: 1,
                        evaluator: cfg.evaluator.clone(),
                    });
                    loop {
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let n = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&i) = to_search.get(n) else { break };
                        let r = analyse(&mut engine, jobs[i].key, cfg.depth, stop);
                        if tx.send((i, r)).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(tx);
            loop {
                let msg = match deadline {
                    Some(d) => {
                        let wait = d.saturating_duration_since(Instant::now());
                        match rx.recv_timeout(wait.max(Duration::from_millis(1))) {
                            Ok(m) => m,
                            Err(mpsc::RecvTimeoutError::Timeout) => {
                                if Instant::now() >= d {
                                    self.stop.store(true, Ordering::Relaxed);
                                    reason = Some(StopReason::TimeBudget);
                                }
                                continue;
                            }
                            Err(mpsc::RecvTimeoutError::Disconnected) => break,
                        }
                    }
                    None => match rx.recv() {
                        Ok(m) => m,
                        Err(_) => break,
                    },
                };
                let (i, r) = msg;
                let Some(moves) = r else { continue };
                if let Some(j) = self.journal.as_mut() {
                    j.record(jobs[i].key, depth, &moves)?;
                }
                results[i] = Some(moves);
                searched_here += 1;
                status.done += 1;
                status.searched = report.searched + searched_here;
                status.elapsed = started.elapsed();
                let per = round_started.elapsed() / searched_here as u32;
                let left = (to_search.len() - searched_here) as u32;
                let mut eta = per * left;
                if let Some(d) = deadline {
                    eta = eta.min(d.saturating_duration_since(Instant::now()));
                }
                status.eta = Some(eta);
                progress.analysed(&status);
            }
            Ok(())
        })?;
        report.searched += searched_here;
        if self.stop.load(Ordering::Relaxed) && reason.is_none() {
            reason = Some(StopReason::Stopped);
        }
        for (j, r) in jobs.iter().zip(results) {
            let Some(moves) = r else { continue };
            self.researched.insert(j.key);
            if j.research {
                report.researched += 1;
            } else {
                report.added += 1;
            }
            self.book.insert(j.key, moves);
        }
        self.book.fix();
        status.positions = self.book.len();
        status.elapsed = started.elapsed();
        status.eta = None;
        // A checkpoint saved now must say how it was made, like the finished book.
        self.book.set_meta(self.config.describe());
        progress.round_done(&status, &self.book)?;
        Ok(reason)
    }
}

/// Every legal move of `key` searched to `depth` by a fresh engine (so the result depends on
/// the position alone). `None` if the search was stopped before it finished.
fn analyse(
    engine: &mut Engine,
    key: Board,
    depth: u32,
    stop: &Arc<AtomicBool>,
) -> Option<Vec<LeafMove>> {
    engine.clear();
    let a = engine.analyze(key, &Limits::depth(depth), Some(stop.clone()));
    if !a.complete || stop.load(Ordering::Relaxed) {
        return None;
    }
    let moves: Vec<LeafMove> = a
        .moves
        .iter()
        .filter_map(|m| {
            let sq = m.mv.square()?;
            Some(LeafMove::new(sq, m.value, m.depth.min(255) as u8, m.exact))
        })
        .collect();
    (!moves.is_empty()).then_some(moves)
}
