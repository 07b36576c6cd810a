//! What the gen3 fitter fits: a linear model with one weight table per phase, a board
//! activating a few entries of its phase's table.

use virada_engine::eval::gen3::patterns::{
    global_offsets, indices, phase_of_empties, tie_maps, INSTANCE_OFFSETS, INSTANCE_PATTERN,
    NUM_PHASES, PATTERNS, TABLE_OFFSETS, WEIGHTS_PER_PHASE,
};
use virada_engine::eval::gen3::weights::Gen3Weights;
use virada_rules::Board;

/// A linear evaluation model: `value(board) = Σ w[phase][f]` over its active entries `f`.
pub trait FeatureModel: Sync {
    fn num_phases(&self) -> usize;
    fn weights_per_phase(&self) -> usize;
    /// Appends the active entries of `board` (offsets inside a phase's table, repeats allowed)
    /// to `out`; returns the board's phase.
    fn features(&self, board: &Board, out: &mut Vec<u32>) -> usize;
}

/// The gen3 evaluation as a model. Entries that are mirror images inside a symmetric pattern
/// are tied to one weight (the smallest index, see `tie_maps`); [`Gen3Model::to_weights`]
/// copies it back to the others.
pub struct Gen3Model;

impl FeatureModel for Gen3Model {
    fn num_phases(&self) -> usize {
        NUM_PHASES
    }

    fn weights_per_phase(&self) -> usize {
        WEIGHTS_PER_PHASE
    }

    #[inline]
    fn features(&self, board: &Board, out: &mut Vec<u32>) -> usize {
        let maps = tie_maps();
        let f = indices(board);
        for (k, &idx) in f.iter().enumerate() {
            let p = INSTANCE_PATTERN[k] as usize;
            out.push(INSTANCE_OFFSETS[k] + maps[p][idx as usize] as u32);
        }
        for o in global_offsets(board, board.moves()) {
            out.push(o as u32);
        }
        phase_of_empties(board.empty_count())
    }
}

impl Gen3Model {
    /// Fitted weights (discs) to a weights file at `units_per_disc` (entries rounded and
    /// clamped to i16; tied entries copied from their representative).
    pub fn to_weights(params: &[f32], name: &str, units_per_disc: u32) -> Gen3Weights {
        let maps = tie_maps();
        let mut w = Gen3Weights::zeros(name, units_per_disc);
        let scale = units_per_disc as f32;
        for phase in 0..NUM_PHASES {
            let base = phase * WEIGHTS_PER_PHASE;
            for i in 0..WEIGHTS_PER_PHASE {
                let src = match (0..PATTERNS.len()).find(|&p| i < TABLE_OFFSETS[p + 1]) {
                    Some(p) => TABLE_OFFSETS[p] + maps[p][i - TABLE_OFFSETS[p]] as usize,
                    None => i,
                };
                let v = (params[base + src] * scale).round();
                w.weights[base + i] = v.clamp(i16::MIN as f32, i16::MAX as f32) as i16;
            }
        }
        w
    }
}
