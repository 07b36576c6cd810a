//! How good a book's values are: a sample of its positions searched deeper than the book was,
//! compared with the book's (negamax) values (`virada book check`).

use crate::book::Book;
use crate::eval::Gen3Eval;
use crate::random::splitmix64;
use crate::{Engine, EngineConfig, Limits};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use virada_rules::Board;

/// One sampled position: the book's value and a deeper search's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Checked {
    pub board: Board,
    /// Book value (discs, side to move).
    pub book: f32,
    /// Value of the deeper search.
    pub search: f32,
    /// The search's best move is one of the book's best (within 0.01 disc).
    pub same_best: bool,
    /// Value of a plain search at the baseline depth, if one was asked (what the book's
    /// value is worth against simply searching at the book's depth).
    pub baseline: Option<f32>,
}

/// The comparison over the sample.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckReport {
    pub depth: u32,
    pub positions: Vec<Checked>,
}

impl CheckReport {
    /// Mean of |book - search| in discs.
    pub fn mean_abs_error(&self) -> f32 {
        let n = self.positions.len().max(1) as f32;
        self.positions
            .iter()
            .map(|c| (c.book - c.search).abs())
            .sum::<f32>()
            / n
    }

    /// Mean of book - search (positive: the book is optimistic for the side to move).
    pub fn mean_error(&self) -> f32 {
        let n = self.positions.len().max(1) as f32;
        self.positions
            .iter()
            .map(|c| c.book - c.search)
            .sum::<f32>()
            / n
    }

    /// Largest |book - search|.
    pub fn max_abs_error(&self) -> f32 {
        self.positions
            .iter()
            .map(|c| (c.book - c.search).abs())
            .fold(0.0, f32::max)
    }

    /// Mean |baseline - search| over the positions with a baseline.
    pub fn baseline_mean_abs_error(&self) -> Option<f32> {
        let v: Vec<f32> = self
            .positions
            .iter()
            .filter_map(|c| Some((c.baseline? - c.search).abs()))
            .collect();
        (!v.is_empty()).then(|| v.iter().sum::<f32>() / v.len() as f32)
    }

    /// Mean baseline - search.
    pub fn baseline_mean_error(&self) -> Option<f32> {
        let v: Vec<f32> = self
            .positions
            .iter()
            .filter_map(|c| Some(c.baseline? - c.search))
            .collect();
        (!v.is_empty()).then(|| v.iter().sum::<f32>() / v.len() as f32)
    }

    /// Share of positions where the deeper search's move is a book best move.
    pub fn same_best_rate(&self) -> f32 {
        let n = self.positions.len().max(1) as f32;
        self.positions.iter().filter(|c| c.same_best).count() as f32 / n
    }
}

/// Searches `sample` book positions (drawn with `seed`) to `depth` and compares; with a
/// `baseline` depth, also searches each to that depth alone.
pub fn check(
    book: &Book,
    sample: usize,
    depth: u32,
    baseline: Option<u32>,
    seed: u64,
    threads: usize,
    evaluator: Arc<Gen3Eval>,
) -> CheckReport {
    let mut keys: Vec<Board> = book.entries.keys().copied().collect();
    keys.sort_unstable_by_key(|k| (splitmix64(seed ^ k.hash()), k.player, k.opponent));
    keys.truncate(sample);
    let next = AtomicUsize::new(0);
    let out = Mutex::new(Vec::with_capacity(keys.len()));
    std::thread::scope(|s| {
        for _ in 0..threads.max(1).min(keys.len().max(1)) {
            s.spawn(|| {
                let mut engine = Engine::new(EngineConfig {
                    tt_mb: 16,
                    threads: 1,
                    evaluator: evaluator.clone(),
                });
                while let Some(&key) = keys.get(next.fetch_add(1, Ordering::Relaxed)) {
                    engine.clear();
                    let baseline = baseline.map(|d| {
                        engine.clear();
                        engine.search(key, &Limits::depth(d), None).score
                    });
                    engine.clear();
                    let r = engine.search(key, &Limits::depth(depth), None);
                    let probe = book.probe_board(key).expect("a book position");
                    let same_best = r.best_move.square().is_some_and(|sq| {
                        probe
                            .value_of(sq)
                            .is_some_and(|m| m.value >= probe.value - 0.01)
                    });
                    out.lock().expect("not poisoned").push(Checked {
                        board: key,
                        book: probe.value,
                        search: r.score,
                        same_best,
                        baseline,
                    });
                }
            });
        }
    });
    let mut positions = out.into_inner().expect("not poisoned");
    positions.sort_by_key(|c| (c.board.player, c.board.opponent));
    CheckReport { depth, positions }
}
