//! A record of Multi-ProbCut's decisions, for measuring the cuts (`virada bench probcut`):
//! how often each depth pair's test is tried and cuts, by range of empty squares, and a sample
//! of the cut positions so a deep search can check whether each cut was right.
//!
//! The search writes here only when a log is attached ([`crate::Engine::set_probcut_log`]);
//! without one it pays a single `None` test a probe.

use std::sync::Mutex;
use virada_rules::Board;

/// Width of a range of empty squares in the counts (0-7, 8-15, ...).
pub const EMPTIES_WIDTH: u32 = 8;
const DEPTHS: usize = 61;
const RANGES: usize = (64 / EMPTIES_WIDTH + 1) as usize;

/// What a probe concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CutSide {
    /// The shallow search predicted the deep value at or above beta: the node failed high.
    High,
    /// The shallow search predicted the deep value at or below alpha: the node failed low.
    Low,
}

/// One recorded cut: the node, its window and depth, and the side it cut to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cut {
    pub board: Board,
    pub alpha: i32,
    pub beta: i32,
    pub depth: i32,
    pub side: CutSide,
}

/// The counts of one depth and range of empty squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairCounts {
    /// Nodes where the probe ran.
    pub tried: u64,
    /// Probes that cut high / low.
    pub cut_high: u64,
    pub cut_low: u64,
}

struct Inner {
    counts: Vec<PairCounts>,
    cuts: Vec<Cut>,
    seen_cuts: Vec<u64>,
}

/// Counts of probes and cuts by deep depth and range of empty squares, and every
/// `sample_every`-th cut of each depth and range (deterministic with one thread).
pub struct ProbcutLog {
    sample_every: u64,
    inner: Mutex<Inner>,
}

fn slot(depth: i32, empties: u32) -> usize {
    depth.clamp(0, DEPTHS as i32 - 1) as usize * RANGES + (empties / EMPTIES_WIDTH) as usize
}

impl ProbcutLog {
    /// A log keeping every `sample_every`-th cut of each depth and range (0: none).
    pub fn new(sample_every: u64) -> ProbcutLog {
        ProbcutLog {
            sample_every,
            inner: Mutex::new(Inner {
                counts: vec![PairCounts::default(); DEPTHS * RANGES],
                cuts: Vec::new(),
                seen_cuts: vec![0; DEPTHS * RANGES],
            }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A probe ran at a node of `depth` with `empties` empty squares and cut to `side`, or
    /// did not cut (`None`).
    pub fn record(&self, board: &Board, alpha: i32, beta: i32, depth: i32, side: Option<CutSide>) {
        let s = slot(depth, board.empty_count());
        let mut inner = self.lock();
        let c = &mut inner.counts[s];
        c.tried += 1;
        let Some(side) = side else { return };
        match side {
            CutSide::High => c.cut_high += 1,
            CutSide::Low => c.cut_low += 1,
        }
        inner.seen_cuts[s] += 1;
        if self.sample_every > 0 && inner.seen_cuts[s] % self.sample_every == 1 % self.sample_every
        {
            inner.cuts.push(Cut {
                board: *board,
                alpha,
                beta,
                depth,
                side,
            });
        }
    }

    /// The counts of deep depth `depth` and the range of empty squares starting at
    /// `empties_min` (a multiple of [`EMPTIES_WIDTH`]).
    pub fn counts(&self, depth: i32, empties_min: u32) -> PairCounts {
        self.lock().counts[slot(depth, empties_min)]
    }

    /// The sampled cuts, in the order they happened.
    pub fn cuts(&self) -> Vec<Cut> {
        self.lock().cuts.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_by_depth_and_range_and_samples_every_nth_cut() {
        let log = ProbcutLog::new(2);
        let b = Board::start(); // 60 empties
        log.record(&b, -10, 10, 6, None);
        log.record(&b, -10, 10, 6, Some(CutSide::High));
        log.record(&b, -10, 10, 6, Some(CutSide::Low));
        log.record(&b, -10, 10, 6, Some(CutSide::Low));
        log.record(&b, -10, 10, 8, Some(CutSide::High));
        let c = log.counts(6, 60);
        assert_eq!((c.tried, c.cut_high, c.cut_low), (4, 1, 2));
        assert_eq!(log.counts(8, 60).cut_high, 1);
        assert_eq!(log.counts(6, 48), PairCounts::default());
        // Cuts 1 and 3 of depth 6, cut 1 of depth 8.
        let sides: Vec<(i32, CutSide)> = log.cuts().iter().map(|c| (c.depth, c.side)).collect();
        assert_eq!(
            sides,
            vec![(6, CutSide::High), (6, CutSide::Low), (8, CutSide::High)]
        );
    }
}
