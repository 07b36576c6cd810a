//! The trained pattern evaluation: the sum of one weight per pattern instance plus a parity
//! weight, from the weight tables of the board's phase.

use crate::eval::lookup::padded_table;
use crate::eval::pattern::{
    features, phase_of_empties, PatternIndices, INSTANCE_PATTERN, NUM_INSTANCES, TABLE_OFFSETS,
    WEIGHTS_PER_PHASE,
};
use crate::eval::pattern_state::PatternState;
use crate::eval::pattern_weights::{PatternWeights, WeightsError};
use crate::eval::{Evaluator, MAX_EVAL};
use std::path::Path;
use std::sync::{Arc, OnceLock};
use virada_rules::Board;

/// Per-instance offsets of the weight tables inside a phase.
const INSTANCE_OFFSETS: [u32; NUM_INSTANCES] = {
    let mut o = [0u32; NUM_INSTANCES];
    let mut k = 0;
    while k < NUM_INSTANCES {
        o[k] = TABLE_OFFSETS[INSTANCE_PATTERN[k] as usize] as u32;
        k += 1;
    }
    o
};

/// Offset of the parity table inside a phase.
pub const PARITY_OFFSET: usize = TABLE_OFFSETS[11];

/// Entries between the starts of two phases in [`PatternEval`]'s lookup table: a phase's
/// weights, then zeros up to the last instance's table offset plus 65,536, so that every
/// instance offset plus any `u16` index stays inside the phase and the lookups need no bounds
/// check.
pub const PHASE_STRIDE: usize =
    crate::eval::lookup::phase_stride(&INSTANCE_OFFSETS, WEIGHTS_PER_PHASE);

/// A pattern evaluation with its weights.
#[derive(Clone, Debug)]
pub struct PatternEval {
    weights: PatternWeights,
    /// The weights laid out for lookups: phase `q` starts at `q * PHASE_STRIDE`.
    table: Box<[i16]>,
    /// Multiplier from weight units to hundredths of a disc, as a fraction `num / den`.
    num: i32,
    den: i32,
}

impl PatternEval {
    /// An evaluation with these weights.
    pub fn new(weights: PatternWeights) -> PatternEval {
        let den = weights.units_per_disc as i32;
        let table = padded_table(&weights.weights, WEIGHTS_PER_PHASE, PHASE_STRIDE);
        PatternEval {
            weights,
            table,
            num: 100,
            den,
        }
    }

    /// The weights in use.
    pub fn weights(&self) -> &PatternWeights {
        &self.weights
    }

    /// The value of `board` for the side to move in hundredths of a disc (not clamped).
    #[inline]
    pub fn evaluate_centidiscs(&self, board: &Board) -> i32 {
        self.sum_tables(&features(board), board.empty_count())
    }

    /// The value from incrementally maintained indices ([`PatternState`]) of a board with
    /// `empties` empty squares, in hundredths of a disc (not clamped).
    #[inline]
    pub fn evaluate_state(&self, state: &PatternState, empties: u32) -> i32 {
        self.sum_tables(state.indices(), empties)
    }

    /// The value of a board with `empties` empty squares whose pattern indices (side to move's
    /// view, as [`features`] gives them) are `f`, in hundredths of a disc (not clamped).
    #[inline]
    pub fn evaluate_indices(&self, f: &PatternIndices, empties: u32) -> i32 {
        self.sum_tables(f, empties)
    }

    #[inline]
    fn sum_tables(&self, f: &PatternIndices, empties: u32) -> i32 {
        let phase = phase_of_empties(empties);
        let w: &[i16; PHASE_STRIDE] = self.table[phase * PHASE_STRIDE..(phase + 1) * PHASE_STRIDE]
            .try_into()
            .expect("a phase is PHASE_STRIDE entries");
        let mut sum = w[PARITY_OFFSET + (empties & 1) as usize] as i32;
        for k in 0..NUM_INSTANCES {
            let at = INSTANCE_OFFSETS[k] as usize + f[k] as usize;
            // SAFETY: `at` is at most the largest instance offset plus `u16::MAX`, which is
            // below `PHASE_STRIDE` = `w.len()` by the definition of `PHASE_STRIDE`.
            sum += unsafe { *w.get_unchecked(at) } as i32;
        }
        if self.num == self.den {
            sum
        } else {
            sum * self.num / self.den
        }
    }
}

impl Evaluator for PatternEval {
    fn name(&self) -> &str {
        &self.weights.name
    }

    #[inline]
    fn evaluate(&self, board: &Board) -> i32 {
        self.evaluate_centidiscs(board).clamp(-MAX_EVAL, MAX_EVAL)
    }

    fn as_pattern_eval(&self) -> Option<&PatternEval> {
        Some(self)
    }
}

/// The weights file shipped in the engine binary (`crates/engine/weights/pattern.vpw`).
pub static EMBEDDED_WEIGHTS: &[u8] = include_bytes!("../../weights/pattern.vpw");

/// Environment variable naming a weights file to use instead of the shipped one.
pub const WEIGHTS_ENV: &str = "VIRADA_WEIGHTS";

impl PatternEval {
    /// The evaluation with the shipped weights (checked: magic, version, pattern set, size and
    /// checksum).
    pub fn embedded() -> Result<PatternEval, WeightsError> {
        PatternWeights::from_bytes(EMBEDDED_WEIGHTS).map(PatternEval::new)
    }

    /// The evaluation with the weights of a file.
    pub fn from_file(path: &Path) -> Result<PatternEval, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        PatternWeights::from_bytes(&bytes)
            .map(PatternEval::new)
            .map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// The trained evaluation, loaded once per process: the file named by `VIRADA_WEIGHTS` if set,
/// else the shipped weights. The error says why the weights could not be used.
pub fn trained() -> Result<Arc<PatternEval>, String> {
    static LOADED: OnceLock<Result<Arc<PatternEval>, String>> = OnceLock::new();
    LOADED
        .get_or_init(|| {
            let eval = match std::env::var_os(WEIGHTS_ENV) {
                Some(p) => PatternEval::from_file(Path::new(&p))
                    .map_err(|e| format!("{WEIGHTS_ENV}: {e}"))?,
                None => PatternEval::embedded().map_err(|e| format!("shipped weights: {e}"))?,
            };
            Ok(Arc::new(eval))
        })
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::pattern::{features, PATTERNS};

    #[test]
    fn shipped_weights_load_and_are_sane() {
        let e = PatternEval::embedded().expect("shipped weights load");
        assert!(!e.name().is_empty());
        // The start is balanced; a nearly full board where the side to move owns 50 discs
        // including the corners is a big win for it, and a big loss for the other side.
        let start = e.evaluate(&Board::start());
        assert!(start.abs() < 300, "start {start}");
        let empty = (1u64 << 20) | (1u64 << 43);
        let opponent = 0x0000_3C3C_3C00_0000u64 & !empty;
        let won = Board::new(!(opponent | empty), opponent);
        assert!(e.evaluate(&won) > 2000, "{}", e.evaluate(&won));
        assert!(
            e.evaluate(&won.pass()) < -2000,
            "{}",
            e.evaluate(&won.pass())
        );
    }

    #[test]
    fn evaluation_is_the_sum_of_table_entries() {
        let mut w = PatternWeights::zeros("t");
        let phase = 14;
        let b = Board::start();
        let f = features(&b);
        // Put distinct values on the entries the start position uses (instances of a pattern
        // in the same configuration share an entry and count it once each).
        let at =
            |k: usize| phase * WEIGHTS_PER_PHASE + INSTANCE_OFFSETS[k] as usize + f[k] as usize;
        for k in 0..NUM_INSTANCES {
            w.weights[at(k)] = 3 * k as i16 + 1;
        }
        let mut want: i32 = (0..NUM_INSTANCES).map(|k| w.weights[at(k)] as i32).sum();
        w.weights[phase * WEIGHTS_PER_PHASE + PARITY_OFFSET] = 1000; // 60 empties: even
        want += 1000;
        let e = PatternEval::new(w);
        assert_eq!(e.evaluate(&b), want);
        assert_eq!(PATTERNS.len(), 11);
    }

    #[test]
    fn lookups_stay_inside_their_phase_for_any_index() {
        // The lookups skip bounds checks because a phase's table is padded for any `u16`
        // index (std checks `get_unchecked` in builds with debug assertions, as the tests
        // are): the largest indices read another table of the same phase or the zero
        // padding after it, in every phase.
        let mut w = PatternWeights::zeros("t");
        for (i, x) in w.weights.iter_mut().enumerate() {
            *x = (i % 997) as i16 - 498;
        }
        let e = PatternEval::new(w.clone());
        for empties in 0..=60 {
            let phase = w.phase(phase_of_empties(empties));
            let read = |at: usize| phase.get(at).map_or(0, |&x| x as i32);
            let want: i32 = (0..NUM_INSTANCES)
                .map(|k| read(INSTANCE_OFFSETS[k] as usize + u16::MAX as usize))
                .sum::<i32>()
                + read(PARITY_OFFSET + (empties & 1) as usize);
            let v = e.evaluate_indices(&[u16::MAX; NUM_INSTANCES], empties);
            assert_eq!(v, want);
        }
    }
}
