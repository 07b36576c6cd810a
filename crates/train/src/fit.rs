//! Fitting the pattern weights: regularised least squares per phase, solved by preconditioned
//! conjugate gradients on the normal equations.
//!
//! For the samples of a phase, with `A` the 0/1 design matrix (one column per weight, one row per
//! sample with a 1 for each of its 46 pattern instances and its parity) and `y` the labels in
//! discs, the fitter solves `(AᵀWA + λI) w = AᵀWy`, `W` the diagonal of sample weights (1, or
//! `search_weight` for search labels). The preconditioner is the diagonal of
//! `AᵀA + λI` (how often each weight occurs, plus λ). Configurations that are mirror images of
//! each other inside a pattern share one weight (see `mirror_tie_maps`).
//!
//! Work is split into a fixed number of chunks whatever the thread count, and chunk results are
//! added in chunk order, so the weights are bit-for-bit the same with 1 or 16 threads.

use crate::progress::Progress;
use crate::samples::{Sample, Source};
use virada_engine::eval::pattern::{
    features, mirror_tie_maps, phase_of_empties, INSTANCE_PATTERN, NUM_INSTANCES, NUM_PHASES,
    TABLE_OFFSETS, WEIGHTS_PER_PHASE,
};
use virada_engine::eval::pattern_eval::PARITY_OFFSET;
use virada_engine::eval::pattern_weights::PatternWeights;

/// Fixed work split (determinism does not depend on the thread count).
const CHUNKS: usize = 16;

/// Fitting settings.
#[derive(Clone, Debug)]
pub struct FitConfig {
    /// Ridge penalty λ (in "occurrences": a weight seen λ times is shrunk about halfway).
    pub lambda: f64,
    /// Conjugate-gradient iterations per phase.
    pub iterations: usize,
    /// Worker threads.
    pub threads: usize,
    /// A phase also trains on samples up to this many empties outside its bucket (smoothing).
    pub overlap: u32,
    /// Weight of a sample with a search label ([`Source::Search`]) in the least-squares sum
    /// (every other sample weighs 1).
    pub search_weight: f64,
}

impl Default for FitConfig {
    fn default() -> Self {
        FitConfig {
            lambda: 3.0,
            iterations: 60,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            overlap: 2,
            search_weight: 1.0,
        }
    }
}

/// One design-matrix row: the tied table index of each instance and the parity.
#[derive(Clone, Copy)]
struct Row {
    idx: [u16; NUM_INSTANCES],
    parity: u8,
    weight: f32,
}

impl Row {
    fn new(s: &Sample, search_weight: f64) -> Row {
        let maps = mirror_tie_maps();
        let f = features(&s.board);
        let mut idx = [0u16; NUM_INSTANCES];
        for k in 0..NUM_INSTANCES {
            idx[k] = maps[INSTANCE_PATTERN[k] as usize][f[k] as usize];
        }
        Row {
            idx,
            parity: (s.board.empty_count() & 1) as u8,
            weight: if s.source == Source::Search {
                search_weight as f32
            } else {
                1.0
            },
        }
    }

    #[inline]
    fn params(&self) -> impl Iterator<Item = usize> + '_ {
        (0..NUM_INSTANCES)
            .map(|k| TABLE_OFFSETS[INSTANCE_PATTERN[k] as usize] + self.idx[k] as usize)
            .chain(std::iter::once(PARITY_OFFSET + self.parity as usize))
    }
}

/// The empties range `lo..=hi` of the samples a phase trains on.
pub fn phase_window(phase: usize, overlap: u32) -> (u32, u32) {
    let lo = 4 * phase as u32 + 1;
    let hi = if phase + 1 == NUM_PHASES { 60 } else { lo + 3 };
    (lo.saturating_sub(overlap).max(1), hi + overlap)
}

/// Runs `work(chunk_index, chunk_range)` over `n` items split in [`CHUNKS`] chunks on `threads`.
fn for_chunks<F>(n: usize, threads: usize, work: F)
where
    F: Fn(usize, std::ops::Range<usize>) + Sync,
{
    let per = n.div_ceil(CHUNKS).max(1);
    let threads = threads.clamp(1, CHUNKS);
    std::thread::scope(|s| {
        for t in 0..threads {
            let work = &work;
            s.spawn(move || {
                let mut c = t;
                while c < CHUNKS {
                    let lo = (c * per).min(n);
                    let hi = ((c + 1) * per).min(n);
                    work(c, lo..hi);
                    c += threads;
                }
            });
        }
    });
}

/// `out = Aᵀ(A v)` using per-chunk buffers added in chunk order.
fn normal_product(rows: &[Row], v: &[f64], threads: usize, bufs: &mut [Vec<f64>], out: &mut [f64]) {
    let n = rows.len();
    let per = n.div_ceil(CHUNKS).max(1);
    {
        let cells: Vec<std::sync::Mutex<&mut Vec<f64>>> =
            bufs.iter_mut().map(std::sync::Mutex::new).collect();
        for_chunks(n, threads, |c, range| {
            let mut guard = match cells[c].lock() {
                Ok(g) => g,
                Err(p) => p.into_inner(),
            };
            let buf: &mut Vec<f64> = &mut guard;
            buf.iter_mut().for_each(|x| *x = 0.0);
            for row in &rows[range] {
                let s: f64 = row.weight as f64 * row.params().map(|j| v[j]).sum::<f64>();
                for j in row.params() {
                    buf[j] += s;
                }
            }
        });
    }
    debug_assert!(per * CHUNKS >= n);
    out.iter_mut().for_each(|x| *x = 0.0);
    for buf in bufs.iter() {
        for (o, b) in out.iter_mut().zip(buf) {
            *o += b;
        }
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Fits one phase's weights (in discs, tied indices filled in) on `samples`.
pub fn fit_phase(samples: &[&Sample], cfg: &FitConfig, progress: &Progress) -> Vec<f64> {
    let rows: Vec<Row> = samples
        .iter()
        .map(|s| Row::new(s, cfg.search_weight))
        .collect();
    let m = WEIGHTS_PER_PHASE;
    let mut diag = vec![cfg.lambda; m];
    let mut b = vec![0.0f64; m];
    for (row, s) in rows.iter().zip(samples) {
        let w = row.weight as f64;
        for j in row.params() {
            diag[j] += w;
            b[j] += w * s.label as f64;
        }
    }
    let mut w = vec![0.0f64; m];
    let mut r = b;
    let mut z: Vec<f64> = r.iter().zip(&diag).map(|(r, d)| r / d).collect();
    let mut p = z.clone();
    let mut rz = dot(&r, &z);
    let mut q = vec![0.0f64; m];
    let mut bufs = vec![vec![0.0f64; m]; CHUNKS];
    for _ in 0..cfg.iterations {
        if rz <= 0.0 {
            progress.inc(1);
            continue;
        }
        normal_product(&rows, &p, cfg.threads, &mut bufs, &mut q);
        for (qj, pj) in q.iter_mut().zip(&p) {
            *qj += cfg.lambda * pj;
        }
        let pq = dot(&p, &q);
        if pq <= 0.0 {
            progress.inc(1);
            continue;
        }
        let alpha = rz / pq;
        for j in 0..m {
            w[j] += alpha * p[j];
            r[j] -= alpha * q[j];
            z[j] = r[j] / diag[j];
        }
        let rz_new = dot(&r, &z);
        let beta = rz_new / rz;
        rz = rz_new;
        for j in 0..m {
            p[j] = z[j] + beta * p[j];
        }
        progress.inc(1);
    }
    untie(&w)
}

/// Copies each tied weight to every index that shares it.
fn untie(w: &[f64]) -> Vec<f64> {
    let maps = mirror_tie_maps();
    let mut out = w.to_vec();
    for (p, map) in maps.iter().enumerate() {
        let off = TABLE_OFFSETS[p];
        for (i, &t) in map.iter().enumerate() {
            out[off + i] = w[off + t as usize];
        }
    }
    out
}

/// Fits all phases and returns the weights in hundredths of a disc.
pub fn fit_all(samples: &[Sample], cfg: &FitConfig, name: &str) -> PatternWeights {
    let mut out = PatternWeights::zeros(name);
    let progress = Progress::new(
        format!("fit {NUM_PHASES} phases"),
        (NUM_PHASES * cfg.iterations) as u64,
    );
    for phase in (0..NUM_PHASES).rev() {
        let (lo, hi) = phase_window(phase, cfg.overlap);
        let set: Vec<&Sample> = samples
            .iter()
            .filter(|s| (lo..=hi).contains(&s.board.empty_count()))
            .collect();
        let w = fit_phase(&set, cfg, &progress);
        let dst = &mut out.weights[phase * WEIGHTS_PER_PHASE..(phase + 1) * WEIGHTS_PER_PHASE];
        for (d, x) in dst.iter_mut().zip(&w) {
            *d = (x * 100.0).round().clamp(-32767.0, 32767.0) as i16;
        }
    }
    progress.finish();
    out
}

/// Mean absolute error (discs) of `predict` against the labels, per phase: `(count, mae)`.
pub fn mae_by_phase(samples: &[Sample], predict: impl Fn(&Sample) -> f64) -> Vec<(u64, f64)> {
    let mut acc = vec![(0u64, 0.0f64); NUM_PHASES];
    for s in samples {
        let p = phase_of_empties(s.board.empty_count());
        acc[p].0 += 1;
        acc[p].1 += (predict(s) - s.label as f64).abs();
    }
    acc.into_iter()
        .map(|(n, e)| (n, if n > 0 { e / n as f64 } else { f64::NAN }))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use virada_engine::eval::pattern_eval::PatternEval;
    use virada_rules::Board;

    /// Random positions reached by random play, labelled by a known linear rule the pattern set
    /// can represent exactly: +1 disc for each corner of the side to move, -1 for the other's.
    fn synthetic(n: usize, seed: u64) -> Vec<Sample> {
        let mut s = seed;
        let mut rnd = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let mut out = Vec::new();
        while out.len() < n {
            let mut b = Board::start();
            for _ in 0..60 {
                let m = b.moves();
                if m == 0 {
                    if b.is_game_over() {
                        break;
                    }
                    b = b.pass();
                    continue;
                }
                let k = (rnd() % m.count_ones() as u64) as u32;
                let mut mm = m;
                for _ in 0..k {
                    mm &= mm - 1;
                }
                let sq = virada_rules::Square::lowest_of(mm);
                b = b.play_unchecked(sq);
                let corners = virada_rules::masks::CORNERS;
                let label = 4
                    * ((b.player & corners).count_ones() as i32
                        - (b.opponent & corners).count_ones() as i32);
                if b.empty_count() > 0 {
                    out.push(Sample {
                        board: b,
                        label: label as i8,
                        source: Source::Exact,
                    });
                }
            }
        }
        out
    }

    #[test]
    fn learns_a_representable_rule_and_is_deterministic() {
        let data = synthetic(40_000, 7);
        let mut cfg = FitConfig {
            lambda: 0.5,
            iterations: 40,
            threads: 2,
            overlap: 2,
            search_weight: 1.0,
        };
        let w2 = fit_all(&data, &cfg, "t");
        cfg.threads = 1;
        let w1 = fit_all(&data, &cfg, "t");
        assert_eq!(w1, w2, "weights depend on the thread count");
        let eval = PatternEval::new(w1);
        let overall = |set: &[Sample]| {
            let (n, e) = mae_by_phase(set, |s| eval.evaluate_centidiscs(&s.board) as f64 / 100.0)
                .iter()
                .filter(|(n, _)| *n > 0)
                .fold((0, 0.0), |(a, b), (n, m)| (a + n, b + m * *n as f64));
            e / n as f64
        };
        let test = synthetic(3_000, 99);
        let baseline = test.iter().map(|s| (s.label as f64).abs()).sum::<f64>() / test.len() as f64;
        let (train_mae, test_mae) = (overall(&data), overall(&test));
        // The fit must nearly reproduce its training labels and beat "always 0" on new positions
        // by a wide margin (a corner only appears inside large patterns, so new positions with
        // unseen configurations are partly shrunk toward 0).
        assert!(train_mae < 0.25, "training mean absolute error {train_mae}");
        assert!(
            test_mae < 0.5 * baseline,
            "held-out error {test_mae}, baseline {baseline}"
        );
    }

    #[test]
    fn search_labels_weigh_as_configured() {
        // The same positions twice: the true label (exact) and 0 (search). Weighted least
        // squares then predicts label / (1 + w) for a rule the patterns can represent.
        let exact = synthetic(12_000, 11);
        let mut data = exact.clone();
        data.extend(exact.iter().map(|s| Sample {
            label: 0,
            source: Source::Search,
            ..*s
        }));
        for (weight, want) in [(1.0, 0.5), (3.0, 0.25)] {
            let cfg = FitConfig {
                lambda: 0.1,
                iterations: 40,
                threads: 2,
                overlap: 2,
                search_weight: weight,
            };
            let eval = PatternEval::new(fit_all(&data, &cfg, "t"));
            let (mut num, mut den) = (0.0, 0.0);
            for s in exact.iter().filter(|s| s.label != 0) {
                num += eval.evaluate_centidiscs(&s.board) as f64 / 100.0 * s.label as f64;
                den += (s.label as f64).powi(2);
            }
            let ratio = num / den;
            assert!(
                (ratio - want).abs() < 0.06,
                "weight {weight}: ratio {ratio}"
            );
        }
    }
}
