//! The whole training run: extract labelled positions, relabel the late ones exactly, fit,
//! write the weights, and measure the fit on held-out games.
//!
//! Files written to the work directory (sample files use the format of [`crate::samples`]):
//! - `wthor-train.vsp` / `wthor-test.vsp`: WTHOR positions of training / held-out games;
//! - `exact-train.vsp` / `exact-test.vsp`: the same after exact relabelling (if enabled);
//! - `wthor24-test.vsp`: the 24-empty position of each held-out game with its exact score;
//! - `selfplay-*.vsp`: self-play games (if enabled), then `exact*-selfplay-*.vsp` relabelled;
//! - `search*-train.vsp` / `search*-selfplay-*.vsp`: the same after search relabelling of early
//!   positions (if enabled, see [`crate::search_labels`]);
//! - `report.txt`: the per-phase errors printed at the end.

use crate::fit::{fit_all, mae_by_phase, FitConfig};
use crate::progress::Progress;
use crate::samples::{self, Sample, Source};
use crate::search_labels::{relabel_search, SearchPlan};
use crate::selfplay::{self, SelfPlayConfig};
use crate::wthor;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use virada_engine::eval::pattern::NUM_PHASES;
use virada_engine::eval::pattern_eval::PatternEval;
use virada_engine::eval::pattern_weights::PatternWeights;
use virada_engine::eval::{EvalV1, Evaluator, SCALE};
use virada_rules::Board;

/// An exact solver: the WOF score of a board for the side to move.
pub type ExactSolver = dyn Fn(Board) -> i32 + Sync;

/// Settings of a training run.
pub struct TrainConfig {
    pub wthor_dir: PathBuf,
    pub work_dir: PathBuf,
    /// Where to write the weights file.
    pub out: PathBuf,
    /// Generation name stored in the weights file.
    pub name: String,
    pub seed: u64,
    /// One game in this many is held out.
    pub held_out_one_in: u64,
    /// Positions with at most this many empties get exact labels (0 = none).
    pub exact_empties: u32,
    /// Positions with more than `exact_empties` and at most this many empties get exact labels
    /// too, but only one in `exact_sample_one_in` of them (chosen by a seeded hash).
    pub exact_sample_empties: u32,
    pub exact_sample_one_in: u64,
    pub fit: FitConfig,
    /// Self-play games added to the training set (0 = none), played with the current default
    /// evaluation (the previous generation of weights).
    pub selfplay: SelfPlayConfig,
    /// Search labels for early training positions (`min_empties` 0 = none); `one_in` applies to
    /// WTHOR positions, self-play positions use `selfplay_search_one_in`.
    pub search: SearchPlan,
    pub selfplay_search_one_in: u64,
}

/// Reads a sample file if present, else builds it and writes it.
fn cached(
    path: &Path,
    build: impl FnOnce() -> Result<Vec<Sample>, String>,
) -> Result<Vec<Sample>, String> {
    if path.exists() {
        eprintln!("reusing {}", path.display());
        return samples::read_file(path).map_err(|e| format!("{}: {e}", path.display()));
    }
    let s = build()?;
    samples::write_file(path, &s).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(s)
}

/// Training samples, held-out samples, and the exact 24-empty held-out positions.
pub type Extracted = (Vec<Sample>, Vec<Sample>, Vec<Sample>);

/// Step 1: WTHOR games to (train, test, 24-empty exact test) samples.
pub fn extract(cfg: &TrainConfig) -> Result<Extracted, String> {
    let train_path = cfg.work_dir.join("wthor-train.vsp");
    let test_path = cfg.work_dir.join("wthor-test.vsp");
    let t24_path = cfg.work_dir.join("wthor24-test.vsp");
    if train_path.exists() && test_path.exists() && t24_path.exists() {
        let r = |p: &Path| samples::read_file(p).map_err(|e| format!("{}: {e}", p.display()));
        eprintln!("reusing {}", cfg.work_dir.join("wthor-*.vsp").display());
        return Ok((r(&train_path)?, r(&test_path)?, r(&t24_path)?));
    }
    let db = wthor::load(&cfg.wthor_dir)?;
    let progress = Progress::new("extract WTHOR games", db.games.len() as u64);
    let (mut train, mut test, mut t24) = (Vec::new(), Vec::new(), Vec::new());
    let mut bad = 0usize;
    for (i, (game, depth)) in db.games.iter().enumerate() {
        let held = wthor::is_held_out(i, cfg.seed, cfg.held_out_one_in);
        match wthor::game_samples(game, *depth) {
            Some(s) if held => {
                test.extend(s);
                if let Some((board, label)) = wthor::theoretical_position(game, *depth) {
                    t24.push(Sample {
                        board,
                        label,
                        source: Source::Exact,
                    });
                }
            }
            Some(s) => train.extend(s),
            None => bad += 1,
        }
        if i % 1000 == 999 {
            progress.inc(1000);
        }
    }
    progress.finish();
    eprintln!(
        "{} games in {} files ({bad} do not replay): {} training and {} held-out positions",
        db.games.len(),
        db.files.len(),
        train.len(),
        test.len()
    );
    for (p, s) in [
        (&train_path, &train),
        (&test_path, &test),
        (&t24_path, &t24),
    ] {
        samples::write_file(p, s).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    Ok((train, test, t24))
}

/// Which positions get exact labels.
#[derive(Clone, Copy, Debug)]
pub struct ExactPlan {
    /// All positions with at most this many empties.
    pub all_up_to: u32,
    /// And one in `sample_one_in` of those with at most `sample_up_to` empties.
    pub sample_up_to: u32,
    pub sample_one_in: u64,
    pub seed: u64,
}

impl ExactPlan {
    /// Whether `board` is to be solved.
    pub fn selects(&self, board: &Board) -> bool {
        let e = board.empty_count();
        if e <= self.all_up_to {
            return true;
        }
        let h = board.hash() ^ self.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        e <= self.sample_up_to && h.checked_rem(self.sample_one_in) == Some(0)
    }
}

/// Step 2: replaces the labels of the positions `plan` selects by exact scores.
pub fn relabel_exact(
    set: &[Sample],
    plan: &ExactPlan,
    threads: usize,
    solver: &ExactSolver,
    what: &str,
) -> Vec<Sample> {
    let todo: Vec<usize> = (0..set.len())
        .filter(|&i| plan.selects(&set[i].board))
        .collect();
    let progress = Progress::new(format!("exact labels ({what})"), todo.len() as u64);
    let next = AtomicUsize::new(0);
    let results = Mutex::new(vec![0i8; todo.len()]);
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| loop {
                let start = next.fetch_add(256, Ordering::Relaxed);
                if start >= todo.len() {
                    break;
                }
                let end = (start + 256).min(todo.len());
                let vals: Vec<i8> = todo[start..end]
                    .iter()
                    .map(|&i| solver(set[i].board).clamp(-64, 64) as i8)
                    .collect();
                if let Ok(mut r) = results.lock() {
                    r[start..end].copy_from_slice(&vals);
                }
                progress.inc((end - start) as u64);
            });
        }
    });
    progress.finish();
    let results = results.into_inner().unwrap_or_default();
    let mut out = set.to_vec();
    for (k, &i) in todo.iter().enumerate() {
        out[i].label = results[k];
        out[i].source = Source::Exact;
    }
    out
}

/// Per-phase mean absolute errors of an evaluator on a sample set, as table lines.
pub fn error_table(title: &str, set: &[Sample], evals: &[(&str, &dyn Evaluator)]) -> String {
    let mut cols: Vec<Vec<(u64, f64)>> = Vec::new();
    for (_, e) in evals {
        cols.push(mae_by_phase(set, |s| {
            e.evaluate(&s.board) as f64 / SCALE as f64
        }));
    }
    let mut out = format!("{title}\n| phase | empties | positions |");
    for (n, _) in evals {
        let _ = write!(out, " MAE {n} |");
    }
    out.push_str("\n|---|---|---|");
    out.push_str(&"---|".repeat(evals.len()));
    out.push('\n');
    let mut totals = vec![(0u64, 0.0f64); evals.len()];
    for p in 0..NUM_PHASES {
        let n = cols[0][p].0;
        if n == 0 {
            continue;
        }
        let (lo, hi) = crate::fit::phase_window(p, 0);
        let _ = write!(out, "| {p} | {lo}-{hi} | {n} |");
        for (c, col) in cols.iter().enumerate() {
            let _ = write!(out, " {:.2} |", col[p].1);
            totals[c].0 += col[p].0;
            totals[c].1 += col[p].1 * col[p].0 as f64;
        }
        out.push('\n');
    }
    let _ = write!(out, "| all | | {} |", totals[0].0);
    for (n, e) in &totals {
        let _ = write!(out, " {:.2} |", e / (*n).max(1) as f64);
    }
    out.push('\n');
    out
}

/// Runs the whole pipeline; returns the report text.
pub fn run(cfg: &TrainConfig, solver: Option<&ExactSolver>) -> Result<String, String> {
    std::fs::create_dir_all(&cfg.work_dir)
        .map_err(|e| format!("{}: {e}", cfg.work_dir.display()))?;
    let (mut train, mut test, t24) = extract(cfg)?;
    let sp = &cfg.selfplay;
    // The previous generation: the default evaluation of this build (or VIRADA_WEIGHTS). Its
    // name is part of the cache file names of everything it produces, so a work directory can
    // serve several generations.
    let previous = virada_engine::default_evaluator();
    let sp_tag = format!(
        "selfplay-{}-d{}-x{}-s{}-{}",
        sp.games,
        sp.depth,
        sp.exact_empties,
        sp.seed,
        previous.name()
    );
    let mut self_play = if sp.games > 0 {
        cached(&cfg.work_dir.join(format!("{sp_tag}.vsp")), || {
            let eval = previous.clone();
            eprintln!("self-play with evaluation {}", eval.name());
            Ok(selfplay::generate(sp, eval).into_iter().flatten().collect())
        })?
    } else {
        Vec::new()
    };
    if cfg.exact_empties > 0 || cfg.exact_sample_empties > 0 {
        let solver = solver.ok_or("exact labels asked for but no solver is available")?;
        let plan = ExactPlan {
            all_up_to: cfg.exact_empties,
            sample_up_to: cfg.exact_sample_empties,
            sample_one_in: cfg.exact_sample_one_in,
            seed: cfg.seed,
        };
        let tag = format!(
            "exact{}-{}-{}",
            plan.all_up_to, plan.sample_up_to, plan.sample_one_in
        );
        let threads = cfg.fit.threads;
        test = cached(&cfg.work_dir.join(format!("{tag}-test.vsp")), || {
            Ok(relabel_exact(&test, &plan, threads, solver, "held-out"))
        })?;
        train = cached(&cfg.work_dir.join(format!("{tag}-train.vsp")), || {
            Ok(relabel_exact(&train, &plan, threads, solver, "train"))
        })?;
        if !self_play.is_empty() {
            self_play = cached(&cfg.work_dir.join(format!("{tag}-{sp_tag}.vsp")), || {
                Ok(relabel_exact(
                    &self_play,
                    &plan,
                    threads,
                    solver,
                    "self-play",
                ))
            })?;
        }
    }
    if cfg.search.min_empties > 0 {
        let eval = previous.clone();
        let plan = cfg.search;
        let threads = cfg.fit.threads;
        eprintln!("search labels with evaluation {}", eval.name());
        let tag = format!("{}-{}", plan.tag(), eval.name());
        train = cached(&cfg.work_dir.join(format!("{tag}-train.vsp")), || {
            Ok(relabel_search(&train, &plan, threads, &eval, "train"))
        })?;
        if !self_play.is_empty() {
            let sp_plan = SearchPlan {
                one_in: cfg.selfplay_search_one_in,
                ..plan
            };
            let sp_file = format!("{}-{sp_tag}.vsp", sp_plan.tag());
            self_play = cached(&cfg.work_dir.join(sp_file), || {
                Ok(relabel_search(
                    &self_play,
                    &sp_plan,
                    threads,
                    &eval,
                    "self-play",
                ))
            })?;
        }
    }
    let count = |set: &[Sample], src: Source| set.iter().filter(|s| s.source == src).count();
    eprintln!(
        "labels: WTHOR {} exact / {} search / {} game; self-play {} exact / {} search / {} game",
        count(&train, Source::Exact),
        count(&train, Source::Search),
        count(&train, Source::WthorTheoretical) + count(&train, Source::WthorResult),
        count(&self_play, Source::Exact),
        count(&self_play, Source::Search),
        count(&self_play, Source::SelfPlay),
    );
    let wthor_train = train.len();
    train.extend_from_slice(&self_play);
    eprintln!("fitting on {} positions", train.len());
    let weights = fit_all(&train, &cfg.fit, &cfg.name);
    write_weights(&cfg.out, &weights)?;
    let trained = PatternEval::new(weights);
    let v1 = EvalV1::new();
    let evals: [(&str, &dyn Evaluator); 2] = [("trained", &trained), ("v1", &v1)];
    let exact_test: Vec<Sample> = test
        .iter()
        .filter(|s| s.source == Source::Exact)
        .copied()
        .collect();
    let mut report = format!(
        "weights {} ({}), {} training positions ({wthor_train} WTHOR, {} self-play), lambda {}, \
         {} iterations, overlap {}; search labels: {} positions (depth {}, from {} empties)\n\n",
        cfg.out.display(),
        cfg.name,
        train.len(),
        self_play.len(),
        cfg.fit.lambda,
        cfg.fit.iterations,
        cfg.fit.overlap,
        train.iter().filter(|s| s.source == Source::Search).count(),
        cfg.search.depth,
        cfg.search.min_empties
    );
    report += &error_table(
        "Held-out games, all positions, against their training-style labels (discs)",
        &test,
        &evals,
    );
    report.push('\n');
    if !exact_test.is_empty() {
        report += &error_table(
            "Held-out games, positions with exact solver labels (discs)",
            &exact_test,
            &evals,
        );
        report.push('\n');
    }
    report += &error_table(
        "Held-out games, the 24-empty position against the WTHOR theoretical score (discs)",
        &t24,
        &evals,
    );
    let path = cfg.work_dir.join("report.txt");
    std::fs::write(&path, &report).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(report)
}

/// An exact solver for labelling: the engine's endgame solver, one thread per call, a small
/// table per labelling thread.
pub fn engine_solver() -> Box<ExactSolver> {
    use std::cell::RefCell;
    use virada_engine::endgame::{solve_with_table, SolveMode, SolveOptions};
    use virada_engine::tt::TranspositionTable;
    thread_local! {
        static TABLE: RefCell<Option<TranspositionTable>> = const { RefCell::new(None) };
    }
    let eval = virada_engine::default_evaluator();
    Box::new(move |board: Board| {
        if board.is_game_over() {
            return board.final_score();
        }
        TABLE.with(|cell| {
            let mut slot = cell.borrow_mut();
            let tt = slot.get_or_insert_with(|| TranspositionTable::new(8));
            tt.clear();
            let opts = SolveOptions {
                mode: SolveMode::Exact,
                threads: 1,
                ..SolveOptions::default()
            };
            let r = solve_with_table(board, &opts, tt, eval.as_ref());
            r.score.lower
        })
    })
}

/// Writes a weights file, creating its directory.
pub fn write_weights(path: &Path, w: &PatternWeights) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(path, w.to_bytes()).map_err(|e| format!("{}: {e}", path.display()))
}
