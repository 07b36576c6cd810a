//! Minibatch gradient fitting of the gen3 evaluation (Adam, L2 regularisation, held-out
//! validation with early stopping), streaming from chunked data sets ([`crate::dataset`]).
//!
//! - **Memory**: the parameters and Adam's two moments (3 × f32 per weight: 220 MB for gen3's
//!   18.3 million weights) plus a best copy, and a shuffle window of a few chunks; the data
//!   sets are read chunk by chunk every epoch, whatever their size.
//! - **Order**: every epoch visits the chunks in a seeded random order, [`FitConfig::window`]
//!   chunks at a time shuffled together. A record is held out for validation when a seeded
//!   hash of its (data set, game) falls in one in [`FitConfig::held_out_one_in`], so whole
//!   games are held out.
//! - **Phases**: a sample trains its own phase's table with weight 1 and the tables of the
//!   [`FitConfig::phase_overlap`] phases on either side with [`FitConfig::overlap_weight`]:
//!   neighbouring phases see each other's positions, so a configuration rare in one phase
//!   still gets a sensible weight.
//! - **Coarse tables** ([`FitConfig::group_size`]): optionally every group of `group_size`
//!   consecutive phases also shares one coarse table, and a phase's value is its own (fine)
//!   table plus its group's: the coarse table learns from all the group's samples and the fine
//!   table, under a stronger penalty ([`FitConfig::fine_l2`]), only what the phase adds. The
//!   written weights are the sums, so the evaluation keeps one table per phase.
//! - **Held out**: WTHOR records (source `WthorTheoretical`) are held out by game with
//!   [`crate::wthor::is_held_out`], the split of `virada bench accuracy
//!   --wthor`, so the WTHOR held-out positions of the accuracy benchmark are never fitted.
//! - **Early stopping** on the held-out squared error weighted by source like the loss.
//! - **Update**: loss = mean over the batch of `w_src · (prediction − label)²` (discs) plus
//!   `l2 · w²` for every weight the batch touches; Adam on the touched weights only (a lazy,
//!   sparse Adam: a batch touches about 75 entries per sample among millions).
//! - **Threads and determinism**: a batch is cut into [`PARTS`] fixed parts whose gradients
//!   worker threads compute; they are summed in part order, so the weights depend on the seed
//!   and the data only, not on the thread count or timing.

pub mod model;

#[cfg(test)]
mod tests;

use crate::dataset::{self, Record};
use crate::progress::Progress;
use crate::samples::Source;
use model::FeatureModel;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Fixed parts a batch is cut into for the worker threads.
pub const PARTS: usize = 8;

/// Settings of a fit.
#[derive(Clone, Debug)]
pub struct FitConfig {
    pub seed: u64,
    pub batch: usize,
    /// Adam step size (discs) of the first epoch.
    pub learning_rate: f64,
    /// Factor applied to the step size after every epoch (1 = constant).
    pub lr_decay: f64,
    pub l2: f64,
    pub max_epochs: usize,
    /// Stop after this many epochs without a better validation error.
    pub patience: usize,
    pub held_out_one_in: u64,
    pub phase_overlap: usize,
    pub overlap_weight: f64,
    /// Weight of each source code's samples (index = `Source as u8`).
    pub source_weights: [f64; SOURCES],
    /// Chunks shuffled together.
    pub window: usize,
    pub threads: usize,
    /// Phases per shared coarse table (0 = no coarse tables).
    pub group_size: usize,
    /// L2 penalty of the fine (per-phase) tables when coarse tables are used.
    pub fine_l2: f64,
    /// Where the fit starts: from zero, or from earlier weights that the penalty then pulls
    /// toward ([`Start::From`]).
    pub start: Start,
}

/// The starting point of a fit.
#[derive(Clone, Default)]
pub enum Start {
    /// All weights zero; the L2 penalty pulls toward zero.
    #[default]
    Zero,
    /// The per-phase tables start at these weights (discs, phase after phase, as
    /// [`Fitted::params`]) and their L2 penalty pulls toward them instead of zero, so entries
    /// the new data hardly sees keep their earlier values; coarse tables start at zero. The
    /// earlier weights are validated first, as epoch 0: a fit that never beats them returns
    /// them unchanged.
    From(std::sync::Arc<[f32]>),
}

impl std::fmt::Debug for Start {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Start::Zero => write!(f, "Zero"),
            Start::From(w) => write!(f, "From({} weights)", w.len()),
        }
    }
}

impl Default for FitConfig {
    fn default() -> Self {
        FitConfig {
            seed: 1,
            batch: 4096,
            learning_rate: 0.01,
            lr_decay: 1.0,
            l2: 1e-4,
            max_epochs: 30,
            patience: 2,
            held_out_one_in: 20,
            phase_overlap: 1,
            overlap_weight: 0.5,
            source_weights: [1.0; SOURCES],
            window: 4,
            threads: 2,
            group_size: 0,
            fine_l2: 1e-4,
            start: Start::Zero,
        }
    }
}

/// Per-phase errors on the held-out records.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Validation {
    /// (records, mean absolute error in discs, mean squared error) per phase.
    pub phases: Vec<(u64, f64, f64)>,
    pub records: u64,
    pub mse: f64,
    pub mae: f64,
    /// (records, MAE, MSE) per source code (index = `Source as u8`).
    pub sources: [(u64, f64, f64); SOURCES],
}

impl Validation {
    /// A table of the errors per phase.
    pub fn table(&self, empties_of_phase: impl Fn(usize) -> String) -> String {
        let mut s = String::from(
            "| phase | empties | positions | MAE (discs) | RMSE |\n|---|---|---|---|---|\n",
        );
        for (p, &(n, mae, mse)) in self.phases.iter().enumerate() {
            if n > 0 {
                s += &format!(
                    "| {p} | {} | {n} | {mae:.2} | {:.2} |\n",
                    empties_of_phase(p),
                    mse.sqrt()
                );
            }
        }
        s += &format!(
            "| all | | {} | {:.2} | {:.2} |\n",
            self.records,
            self.mae,
            self.mse.sqrt()
        );
        s
    }
}

impl Validation {
    /// The mean squared error with each source's records weighted by `weights`.
    pub fn weighted_mse(&self, weights: &[f64; SOURCES]) -> f64 {
        let (mut num, mut den) = (0.0, 0.0);
        for (&(n, _, mse), &w) in self.sources.iter().zip(weights) {
            num += w * n as f64 * mse;
            den += w * n as f64;
        }
        if den > 0.0 {
            num / den
        } else {
            self.mse
        }
    }

    /// `held-out MAE 3.500 discs, RMSE 4.700 (n positions); exact MAE ...`: one epoch's line.
    pub fn summary(&self) -> String {
        format!(
            "held-out MAE {:.3} discs, RMSE {:.3} ({} positions){}",
            self.mae,
            self.mse.sqrt(),
            self.records,
            self.source_summary()
        )
    }

    /// `; exact MAE 1.23 (n), ...` for the sources present.
    pub fn source_summary(&self) -> String {
        let mut s = String::new();
        for (code, &(n, mae, mse)) in self.sources.iter().enumerate() {
            if n > 0 {
                let name = Source::from_code(code as u8).map_or("?", source_name);
                s += &format!("; {name} MAE {mae:.3} RMSE {:.3} ({n})", mse.sqrt());
            }
        }
        s
    }
}

/// The result of a fit.
pub struct Fitted {
    /// Weights in discs, phase after phase (the epoch with the best validation error).
    pub params: Vec<f32>,
    pub best_epoch: usize,
    pub validation: Validation,
    pub epochs_run: usize,
}

fn mix(mut h: u64) -> u64 {
    h = (h ^ (h >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    h ^ (h >> 31)
}

/// Number of label sources ([`Source`] codes `0..SOURCES`).
pub const SOURCES: usize = 6;

/// Whether a record of data set `set`, game `game`, is held out.
pub fn is_held_out(seed: u64, set: usize, game: u32, one_in: u64) -> bool {
    let h = mix(seed ^ mix((set as u64) << 32 | game as u64));
    one_in > 1 && h.is_multiple_of(one_in)
}

/// Whether record `r` of data set `set` is held out: WTHOR records by the WTHOR game split
/// of the accuracy benchmark, others by [`is_held_out`].
pub fn is_record_held_out(seed: u64, set: usize, r: &Record, one_in: u64) -> bool {
    if matches!(r.source, Source::WthorTheoretical | Source::WthorSearch) {
        one_in > 1 && crate::wthor::is_held_out(r.game as usize, seed, one_in)
    } else {
        is_held_out(seed, set, r.game, one_in)
    }
}

/// Where the tables live in the fitted parameters: `phases` fine tables, then the coarse ones.
#[derive(Clone, Copy, Debug)]
struct Layout {
    phases: usize,
    wpp: usize,
    group_size: usize,
}

impl Layout {
    fn new<M: FeatureModel>(model: &M, cfg: &FitConfig) -> Layout {
        Layout {
            phases: model.num_phases(),
            wpp: model.weights_per_phase(),
            group_size: cfg.group_size,
        }
    }

    fn groups(&self) -> usize {
        if self.group_size == 0 {
            0
        } else {
            self.phases.div_ceil(self.group_size)
        }
    }

    fn len(&self) -> usize {
        (self.phases + self.groups()) * self.wpp
    }

    /// The table bases phase `q`'s value sums: its own, and its group's if any.
    fn bases(&self, q: usize) -> [Option<usize>; 2] {
        let coarse = q
            .checked_div(self.group_size)
            .map(|g| (self.phases + g) * self.wpp);
        [Some(q * self.wpp), coarse]
    }

    /// One table per phase: the fine table plus its group's coarse table.
    fn combine(&self, params: &[f32]) -> Vec<f32> {
        let n = self.phases * self.wpp;
        let mut out = params[..n].to_vec();
        for q in 0..self.phases {
            if let [_, Some(c)] = self.bases(q) {
                let fine = &mut out[q * self.wpp..(q + 1) * self.wpp];
                for (f, g) in fine.iter_mut().zip(&params[c..c + self.wpp]) {
                    *f += g;
                }
            }
        }
        out
    }
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
    }
}

/// One training example ready for the model.
struct Example {
    phase: usize,
    features: Vec<u32>,
    label: f32,
    weight: f32,
}

fn prepare<M: FeatureModel>(model: &M, r: &Record, cfg: &FitConfig) -> Example {
    let mut features = Vec::with_capacity(80);
    let phase = model.features(&r.board, &mut features);
    Example {
        phase,
        features,
        label: r.label_discs() as f32,
        weight: cfg.source_weights[r.source as usize] as f32,
    }
}

#[inline]
fn predict(params: &[f32], base: usize, features: &[u32]) -> f32 {
    features.iter().map(|&f| params[base + f as usize]).sum()
}

#[inline]
fn predict_bases(params: &[f32], bases: &[Option<usize>; 2], features: &[u32]) -> f32 {
    bases
        .iter()
        .flatten()
        .map(|&b| predict(params, b, features))
        .sum()
}

/// Adam state of the sparse update.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    grad: Vec<f32>,
    stamp: Vec<u32>,
    touched: Vec<u32>,
    step: u32,
    /// Step size of the current epoch.
    lr: f32,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            grad: vec![0.0; n],
            stamp: vec![0; n],
            touched: Vec::new(),
            step: 0,
            lr: 0.0,
        }
    }

    /// Applies the accumulated gradient; entries below `fine_end` are fine tables, whose
    /// penalty pulls toward `prior` when there is one (else toward zero).
    fn apply(
        &mut self,
        params: &mut [f32],
        cfg: &FitConfig,
        fine_end: usize,
        prior: Option<&[f32]>,
    ) {
        let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        let t = self.step as i32;
        let c1 = 1.0 - b1.powi(t);
        let c2 = 1.0 - b2.powi(t);
        let lr = self.lr;
        let l2 = cfg.l2 as f32;
        let fine_l2 = if cfg.group_size > 0 {
            cfg.fine_l2 as f32
        } else {
            l2
        };
        for &i in &self.touched {
            let i = i as usize;
            let (l2, anchor) = if i < fine_end {
                (fine_l2, prior.map_or(0.0, |p| p[i]))
            } else {
                (l2, 0.0)
            };
            let g = self.grad[i] + 2.0 * l2 * (params[i] - anchor);
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * g;
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * g * g;
            params[i] -= lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + eps);
            self.grad[i] = 0.0;
        }
        self.touched.clear();
    }
}

/// The gradient contributions of one part of a batch: (global weight index, d loss / d w).
fn part_gradient(
    params: &[f32],
    examples: &[Example],
    layout: Layout,
    cfg: &FitConfig,
    batch_len: usize,
) -> Vec<(u32, f32)> {
    let phases = layout.phases;
    let tables = if layout.group_size > 0 { 2 } else { 1 };
    let mut out = Vec::with_capacity(examples.len() * 80 * tables * (1 + 2 * cfg.phase_overlap));
    let scale = 2.0 / batch_len as f32;
    for e in examples {
        let lo = e.phase.saturating_sub(cfg.phase_overlap);
        let hi = (e.phase + cfg.phase_overlap).min(phases - 1);
        for q in lo..=hi {
            let w = if q == e.phase {
                e.weight
            } else {
                e.weight * cfg.overlap_weight as f32
            };
            if w == 0.0 {
                continue;
            }
            let bases = layout.bases(q);
            let err = predict_bases(params, &bases, &e.features) - e.label;
            let g = scale * w * err;
            for base in bases.into_iter().flatten() {
                out.extend(e.features.iter().map(|&f| ((base + f as usize) as u32, g)));
            }
        }
    }
    out
}

/// Fits `model` on the records of the data set directories `sets`.
pub fn fit<M: FeatureModel>(
    model: &M,
    sets: &[PathBuf],
    cfg: &FitConfig,
) -> Result<Fitted, String> {
    fit_chunks(model, &chunk_list(sets)?, cfg)
}

/// Fits `model` on the records of `chunks` (each with its data set's index, as
/// [`chunk_list`] gives them: a generator may add chunks during a fit, and a report that
/// validates another evaluation afterwards should use the same list).
pub fn fit_chunks<M: FeatureModel>(
    model: &M,
    chunks: &[(usize, PathBuf)],
    cfg: &FitConfig,
) -> Result<Fitted, String> {
    let layout = Layout::new(model, cfg);
    let chunks = chunks.to_vec();
    let mut total = 0u64;
    for (_, c) in &chunks {
        let len = std::fs::metadata(c)
            .map_err(|e| format!("{}: {e}", c.display()))?
            .len();
        total += len.saturating_sub(dataset::HEADER_LEN as u64) / dataset::RECORD_LEN as u64;
    }
    let mut params = vec![0f32; layout.len()];
    let mut best = vec![0f32; layout.phases * layout.wpp];
    let mut best_val: Option<Validation> = None;
    let prior = match &cfg.start {
        Start::Zero => None,
        Start::From(w) => {
            if w.len() != best.len() {
                return Err(format!(
                    "the starting weights have {} entries, the model {}",
                    w.len(),
                    best.len()
                ));
            }
            params[..w.len()].copy_from_slice(w);
            best.copy_from_slice(w);
            let val = validate(model, w, &chunks, cfg)?;
            eprintln!("epoch 0 (the starting weights): {}", val.summary());
            best_val = Some(val);
            Some(w.clone())
        }
    };
    let mut adam = Adam::new(params.len());
    let mut rng = Rng(cfg.seed ^ 0x05EE_DF17);
    let mut best_epoch = 0;
    let mut epochs_run = 0;
    for epoch in 1..=cfg.max_epochs {
        epochs_run = epoch;
        adam.lr = (cfg.learning_rate * cfg.lr_decay.powi(epoch as i32 - 1)) as f32;
        let progress = Progress::new(format!("fit epoch {epoch}"), total);
        let mut order = chunks.clone();
        rng.shuffle(&mut order);
        for window in order.chunks(cfg.window.max(1)) {
            let mut recs: Vec<Record> = Vec::new();
            let mut seen = 0u64;
            for (set, path) in window {
                for r in dataset::read_chunk(path)? {
                    seen += 1;
                    if !is_record_held_out(cfg.seed, *set, &r, cfg.held_out_one_in) {
                        recs.push(r);
                    }
                }
            }
            rng.shuffle(&mut recs);
            for batch in recs.chunks(cfg.batch.max(1)) {
                step(
                    model,
                    &mut params,
                    &mut adam,
                    batch,
                    cfg,
                    layout,
                    prior.as_deref(),
                );
            }
            progress.inc(seen);
        }
        progress.finish();
        let combined = layout.combine(&params);
        let val = validate(model, &combined, &chunks, cfg)?;
        eprintln!("epoch {epoch}: {}", val.summary());
        // Early stopping on the held-out error weighted like the loss (by source), so noisy
        // labels that the fit weighs down do not decide when the trusted ones stop improving.
        let score = val.weighted_mse(&cfg.source_weights);
        let better = best_val
            .as_ref()
            .is_none_or(|b| score < b.weighted_mse(&cfg.source_weights));
        if better {
            best = combined;
            best_val = Some(val);
            best_epoch = epoch;
        } else if epoch - best_epoch >= cfg.patience.max(1) {
            eprintln!("early stop: no better held-out error since epoch {best_epoch}");
            break;
        }
    }
    Ok(Fitted {
        params: best,
        best_epoch,
        validation: best_val.unwrap_or_default(),
        epochs_run,
    })
}

fn step<M: FeatureModel>(
    model: &M,
    params: &mut [f32],
    adam: &mut Adam,
    batch: &[Record],
    cfg: &FitConfig,
    layout: Layout,
    prior: Option<&[f32]>,
) {
    let part_len = batch.len().div_ceil(PARTS);
    let parts: Vec<&[Record]> = batch.chunks(part_len.max(1)).collect();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Vec<(u32, f32)>>> = Mutex::new(vec![Vec::new(); parts.len()]);
    {
        let params: &[f32] = params;
        let work = || loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= parts.len() {
                break;
            }
            let ex: Vec<Example> = parts[i].iter().map(|r| prepare(model, r, cfg)).collect();
            let g = part_gradient(params, &ex, layout, cfg, batch.len());
            if let Ok(mut r) = results.lock() {
                r[i] = g;
            }
        };
        std::thread::scope(|s| {
            for _ in 1..cfg.threads.max(1) {
                s.spawn(work);
            }
            work();
        });
    }
    adam.step += 1;
    let stamp = adam.step;
    for part in results.into_inner().unwrap_or_default() {
        for (i, g) in part {
            let iu = i as usize;
            if adam.stamp[iu] != stamp {
                adam.stamp[iu] = stamp;
                adam.touched.push(i);
            }
            adam.grad[iu] += g;
        }
    }
    adam.apply(params, cfg, layout.phases * layout.wpp, prior);
}

/// Errors of `params` on the held-out records of `chunks` (each chunk's data set index given).
pub fn validate<M: FeatureModel>(
    model: &M,
    params: &[f32],
    chunks: &[(usize, PathBuf)],
    cfg: &FitConfig,
) -> Result<Validation, String> {
    let wpp = model.weights_per_phase();
    let mut features = Vec::with_capacity(80);
    validate_by(model.num_phases(), chunks, cfg, |board| {
        features.clear();
        let p = model.features(board, &mut features);
        (p, predict(params, p * wpp, &features) as f64)
    })
}

/// Errors of any predictor (`board -> (phase, value in discs)`) on the held-out records, e.g.
/// the previous generation's evaluation on the same split, for a side-by-side report.
pub fn validate_by(
    phases: usize,
    chunks: &[(usize, PathBuf)],
    cfg: &FitConfig,
    mut predict: impl FnMut(&virada_rules::Board) -> (usize, f64),
) -> Result<Validation, String> {
    let mut per = vec![(0u64, 0f64, 0f64); phases];
    let mut sources = [(0u64, 0f64, 0f64); SOURCES];
    for (set, path) in chunks {
        for r in dataset::read_chunk(path)? {
            if !is_record_held_out(cfg.seed, *set, &r, cfg.held_out_one_in) {
                continue;
            }
            let (p, v) = predict(&r.board);
            let p = p.min(phases - 1);
            let err = (v - r.label_discs()).clamp(-128.0, 128.0);
            for acc in [&mut per[p], &mut sources[r.source as usize]] {
                acc.0 += 1;
                acc.1 += err.abs();
                acc.2 += err * err;
            }
        }
    }
    for s in &mut sources {
        let d = s.0.max(1) as f64;
        s.1 /= d;
        s.2 /= d;
    }
    let records: u64 = per.iter().map(|x| x.0).sum();
    let n = records.max(1) as f64;
    let mae = per.iter().map(|x| x.1).sum::<f64>() / n;
    let mse = per.iter().map(|x| x.2).sum::<f64>() / n;
    let phases = per
        .into_iter()
        .map(|(c, a, s)| {
            let d = c.max(1) as f64;
            (c, a / d, s / d)
        })
        .collect();
    Ok(Validation {
        phases,
        records,
        mse,
        mae,
        sources,
    })
}

/// The chunk files of data set directories, each with its data set's index.
pub fn chunk_list(sets: &[PathBuf]) -> Result<Vec<(usize, PathBuf)>, String> {
    let mut chunks = Vec::new();
    for (k, dir) in sets.iter().enumerate() {
        let list = dataset::list_chunks(dir)?;
        if list.is_empty() {
            return Err(format!("{}: no chunk-*.vds files", dir.display()));
        }
        chunks.extend(list.into_iter().map(|c| (k, c)));
    }
    Ok(chunks)
}

/// Two validations side by side (same split): positions, then MAE of each.
pub fn side_by_side(
    a: (&str, &Validation),
    b: (&str, &Validation),
    empties_of_phase: impl Fn(usize) -> String,
) -> String {
    let mut s = format!(
        "| phase | empties | positions | MAE {} | MAE {} |\n|---|---|---|---|---|\n",
        a.0, b.0
    );
    for (p, (x, y)) in a.1.phases.iter().zip(&b.1.phases).enumerate() {
        if x.0 > 0 {
            s += &format!(
                "| {p} | {} | {} | {:.2} | {:.2} |\n",
                empties_of_phase(p),
                x.0,
                x.1,
                y.1
            );
        }
    }
    s += &format!(
        "| all | | {} | {:.2} | {:.2} |\n",
        a.1.records, a.1.mae, b.1.mae
    );
    s
}

/// The name of a source in `--source-weights`.
pub fn source_name(s: Source) -> &'static str {
    match s {
        Source::Exact => "exact",
        Source::Search => "search",
        Source::WthorTheoretical => "wthor",
        Source::WthorResult => "wthor-result",
        Source::WthorSearch => "wthor-search",
        Source::SelfPlay => "selfplay",
    }
}

/// Source weights from `exact=1,search=0.5,wthor=1` (unnamed sources keep weight 1).
pub fn parse_source_weights(s: &str) -> Result<[f64; SOURCES], String> {
    let mut w = [1.0; SOURCES];
    for part in s.split(',').filter(|p| !p.is_empty()) {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| format!("source weight {part:?}: expected name=value"))?;
        let v: f64 = v
            .parse()
            .map_err(|_| format!("source weight {part:?}: {v:?} is not a number"))?;
        let src = match k {
            "exact" => Source::Exact,
            "search" => Source::Search,
            "wthor" => Source::WthorTheoretical,
            "wthor-result" => Source::WthorResult,
            "wthor-search" => Source::WthorSearch,
            "selfplay" => Source::SelfPlay,
            _ => return Err(format!("source weight {part:?}: unknown source {k:?}")),
        };
        w[src as usize] = v;
    }
    Ok(w)
}
