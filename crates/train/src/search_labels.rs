//! Search labels (source [`Source::Search`]): the value of a fixed-depth midgame search that uses
//! the previous generation's evaluation, for positions too early for the exact solver.
//!
//! Why: a WTHOR position with 30 or more empties is labelled with the outcome of the game from
//! there (its theoretical score at 24 empties), which depends on moves the players chose later;
//! a depth-8 search with the first generation's weights errs by about 4 discs at 24 empties and
//! 5.4 on FFO #60-#79 (`virada bench accuracy`), while the trained evaluation's error against the
//! game labels is 7-15 discs in those phases, most of it label noise. A search label is also
//! defined for any position (self-play positions included), not only for positions of games with
//! a known outcome.
//!
//! Each position is searched on its own by a one-thread engine with its tables cleared first, so
//! a label depends only on the position, the depth and the evaluation (not on the thread count
//! or the order of work).

use crate::progress::Progress;
use crate::samples::{Sample, Source};
use std::sync::atomic::{AtomicI8, AtomicUsize, Ordering};
use std::sync::Arc;
use virada_engine::search::Selectivity;
use virada_engine::{Engine, EngineConfig, Evaluator, Limits};
use virada_rules::Board;

/// Which positions get search labels, and how.
#[derive(Clone, Copy, Debug)]
pub struct SearchPlan {
    /// Positions with at least this many empties (0 = none).
    pub min_empties: u32,
    /// Search depth (plies).
    pub depth: u32,
    /// One position in this many is selected (by a seeded hash of the position).
    pub one_in: u64,
    pub seed: u64,
}

impl SearchPlan {
    /// Whether `board` gets a search label under this plan.
    pub fn selects(&self, board: &Board) -> bool {
        if self.min_empties == 0 || board.empty_count() < self.min_empties {
            return false;
        }
        let h = board.hash() ^ self.seed.wrapping_mul(0xD1B5_4A32_D192_ED03);
        let h = (h ^ (h >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        (h ^ (h >> 32)).checked_rem(self.one_in.max(1)) == Some(0)
    }

    /// A short tag naming the plan in cache file names.
    pub fn tag(&self) -> String {
        format!(
            "search{}-d{}-1in{}",
            self.min_empties, self.depth, self.one_in
        )
    }
}

/// The value (discs, side to move's view, rounded, clamped to -64..=64) of a fixed-depth midgame
/// search of `board` with the default selectivity and no exact solving.
pub fn search_label(engine: &mut Engine, board: Board, depth: u32) -> i8 {
    fixed_depth_value(engine, board, depth)
        .round()
        .clamp(-64.0, 64.0) as i8
}

/// The value (discs, side to move's view) of a fixed-depth midgame search of `board` with the
/// default selectivity and no exact solving, from a cleared table.
pub fn fixed_depth_value(engine: &mut Engine, board: Board, depth: u32) -> f32 {
    engine.clear();
    let limits = Limits {
        depth: Some(depth),
        exact_empties: Some(0),
        selectivity: Some(Selectivity::DEFAULT),
        ..Limits::default()
    };
    engine.search(board, &limits, None).score
}

/// Replaces the labels of the positions `plan` selects by search values of `eval`, on `threads`
/// threads; the other samples (and every exact label) are returned unchanged. Deterministic for any thread count.
pub fn relabel_search(
    set: &[Sample],
    plan: &SearchPlan,
    threads: usize,
    eval: &Arc<dyn Evaluator>,
    what: &str,
) -> Vec<Sample> {
    let todo: Vec<usize> = (0..set.len())
        .filter(|&i| set[i].source != Source::Exact && plan.selects(&set[i].board))
        .collect();
    let progress = Progress::new(
        format!("search labels d{} ({what})", plan.depth),
        todo.len() as u64,
    );
    let next = AtomicUsize::new(0);
    let labels: Vec<AtomicI8> = todo.iter().map(|_| AtomicI8::new(0)).collect();
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                // Small tables: they are cleared before every search, and a depth-8 search
                // visits tens of thousands of nodes.
                let mut engine = Engine::new(EngineConfig {
                    tt_mb: 4,
                    threads: 1,
                    evaluator: eval.clone(),
                });
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= todo.len() {
                        break;
                    }
                    let label = search_label(&mut engine, set[todo[k]].board, plan.depth);
                    labels[k].store(label, Ordering::Relaxed);
                    progress.inc(1);
                }
            });
        }
    });
    progress.finish();
    let mut out = set.to_vec();
    for (&i, label) in todo.iter().zip(&labels) {
        out[i].label = label.load(Ordering::Relaxed);
        out[i].source = Source::Search;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use virada_engine::eval::EvalV1;

    fn positions() -> Vec<Sample> {
        let mut b = Board::start();
        let mut out = Vec::new();
        while b.moves() != 0 {
            out.push(Sample {
                board: b,
                label: 7,
                source: Source::SelfPlay,
            });
            let m = b.moves();
            let sq = virada_rules::Square::from_index_unchecked((63 - m.leading_zeros()) as u8);
            b = b.play_unchecked(sq);
        }
        out
    }

    #[test]
    fn labels_selected_positions_deterministically() {
        let set = positions();
        let plan = SearchPlan {
            min_empties: 40,
            depth: 3,
            one_in: 1,
            seed: 1,
        };
        let eval: Arc<dyn Evaluator> = Arc::new(EvalV1::new());
        let a = relabel_search(&set, &plan, 2, &eval, "test");
        let b = relabel_search(&set, &plan, 1, &eval, "test");
        assert_eq!(a, b);
        for (old, new) in set.iter().zip(&a) {
            if old.board.empty_count() >= 40 {
                assert_eq!(new.source, Source::Search);
            } else {
                assert_eq!(new, old);
            }
        }
        assert!(a.iter().any(|s| s.source == Source::Search && s.label != 7));
        // Sampling keeps about one in `one_in`.
        let sparse = SearchPlan { one_in: 4, ..plan };
        let n = (0..4000u64)
            .filter(|&k| sparse.selects(&Board::new(k << 20 | 1 << 63, 2)))
            .count();
        assert!((800..1200).contains(&n), "{n}");
    }
}
