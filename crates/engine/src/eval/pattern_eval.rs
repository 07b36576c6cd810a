//! The trained pattern evaluation: the sum of one weight per pattern instance plus a parity
//! weight, from the weight tables of the board's phase.

use crate::eval::pattern::{
    features, phase_of_empties, INSTANCE_PATTERN, NUM_INSTANCES, TABLE_OFFSETS, WEIGHTS_PER_PHASE,
};
use crate::eval::pattern_weights::PatternWeights;
use crate::eval::{Evaluator, MAX_EVAL};
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

/// A pattern evaluation with its weights.
#[derive(Clone, Debug)]
pub struct PatternEval {
    weights: PatternWeights,
    /// Multiplier from weight units to hundredths of a disc, as a fraction `num / den`.
    num: i32,
    den: i32,
}

impl PatternEval {
    /// An evaluation with these weights.
    pub fn new(weights: PatternWeights) -> PatternEval {
        let den = weights.units_per_disc as i32;
        PatternEval {
            weights,
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
        let empties = board.empty_count();
        let phase = phase_of_empties(empties);
        let w = &self.weights.weights[phase * WEIGHTS_PER_PHASE..(phase + 1) * WEIGHTS_PER_PHASE];
        let f = features(board);
        let mut sum = w[PARITY_OFFSET + (empties & 1) as usize] as i32;
        for k in 0..NUM_INSTANCES {
            sum += w[INSTANCE_OFFSETS[k] as usize + f[k] as usize] as i32;
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
}
