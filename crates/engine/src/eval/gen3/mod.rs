//! Evaluation gen3: a larger pattern set ([`patterns`]: 16 shapes, 72 instances), 30 phases
//! and global features (parity, both sides' mobility), with i16 weights at a declared scale
//! in a versioned, checksummed file ([`weights`]) and incremental indices ([`state`]).
//!
//! The evaluation owns its Multi-ProbCut table ([`Gen3Eval::mpc`]): the search's selective
//! cuts are fitted to this evaluation's errors ([`mpc_table`]).

pub mod compact;
pub mod mpc_table;
pub mod patterns;
pub mod state;
pub mod sum;
pub mod table;
pub mod weights;

#[cfg(test)]
mod tests;

use crate::eval::incremental::IncrementalEval;
use crate::eval::mpc::{MpcModel, MpcParams};
use crate::eval::weights_file::WeightsError;
use crate::eval::{MAX_EVAL, SCALE};
use patterns::{global_offsets, indices, phase_of_empties, Indices, NUM_PHASES, WEIGHTS_PER_PHASE};
use state::Gen3State;
use std::borrow::Cow;
use std::path::Path;
use std::sync::{Arc, OnceLock};
pub use table::PHASE_STRIDE;
use table::{PhaseTable, PhaseTables};
use virada_rules::{Board, Square};
use weights::{Gen3Weights, Loaded};

/// The gen3 evaluation with its weights and its Multi-ProbCut table.
#[derive(Debug)]
pub struct Gen3Eval {
    name: String,
    units_per_disc: u32,
    /// The weights laid out for lookups, a table per phase ([`table`]).
    tables: PhaseTables,
    /// The Multi-ProbCut lines fitted for this evaluation, and their layout for the search
    /// (built on first use).
    mpc_table: &'static [MpcParams],
    mpc: OnceLock<MpcModel>,
}

impl Gen3Eval {
    /// The evaluation with `weights` and the Multi-ProbCut table fitted for gen3
    /// ([`mpc_table::mpc_table_gen3`]).
    pub fn new(weights: Gen3Weights) -> Gen3Eval {
        Gen3Eval::with_mpc_table(weights, mpc_table::mpc_table_gen3())
    }

    /// The evaluation with `weights` and the Multi-ProbCut lines `table` (an empty table: no
    /// selective cuts at all).
    pub fn with_mpc_table(weights: Gen3Weights, table: &'static [MpcParams]) -> Gen3Eval {
        Gen3Eval {
            tables: PhaseTables::from_weights(&weights.weights),
            name: weights.name,
            units_per_disc: weights.units_per_disc,
            mpc_table: table,
            mpc: OnceLock::new(),
        }
    }

    /// The evaluation with the weights of a gen3 file's bytes (every header field, the
    /// checksum and the payload checked; a compact payload's phases are decoded when first
    /// used, see [`table`]), and the gen3 Multi-ProbCut table.
    pub fn from_bytes(bytes: impl Into<Cow<'static, [u8]>>) -> Result<Gen3Eval, WeightsError> {
        Ok(match Gen3Weights::load(bytes.into())? {
            Loaded::Weights(w) => Gen3Eval::new(w),
            Loaded::Compact {
                name,
                units_per_disc,
                decoder,
            } => Gen3Eval {
                name,
                units_per_disc,
                tables: PhaseTables::from_decoder(decoder),
                mpc_table: mpc_table::mpc_table_gen3(),
                mpc: OnceLock::new(),
            },
        })
    }

    /// A short name for reports: the generation name stored in the weights file.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The value of `board` for the side to move, in [`SCALE`] units per disc, within
    /// `-MAX_EVAL..=MAX_EVAL`. The board may be one where the side to move must pass; the search
    /// never asks for finished games (it scores those exactly).
    #[inline]
    pub fn evaluate(&self, board: &Board) -> i32 {
        self.evaluate_centidiscs(board).clamp(-MAX_EVAL, MAX_EVAL)
    }

    /// The Multi-ProbCut lines fitted for this evaluation.
    pub fn mpc_table(&self) -> &'static [MpcParams] {
        self.mpc_table
    }

    /// Replaces the Multi-ProbCut lines (a table fitted for these weights, to compare tables).
    pub fn set_mpc_table(&mut self, table: &'static [MpcParams]) {
        self.mpc_table = table;
        self.mpc = OnceLock::new();
    }

    /// [`Gen3Eval::set_mpc_table`] with the table file at `path` (kept for the program's
    /// life: a command loads one or two).
    pub fn load_mpc_table(&mut self, path: &Path) -> Result<(), String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let table =
            crate::eval::mpc::parse_table(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        if table.is_empty() {
            return Err(format!("{}: no Multi-ProbCut line", path.display()));
        }
        self.set_mpc_table(Box::leak(table.into_boxed_slice()));
        Ok(())
    }

    /// This evaluation's Multi-ProbCut model, laid out for the search.
    pub fn mpc(&self) -> &MpcModel {
        self.mpc.get_or_init(|| MpcModel::new(self.mpc_table))
    }

    /// The weights (as in the file; builds every phase's table).
    pub fn weights(&self) -> Gen3Weights {
        let mut weights = Vec::with_capacity(NUM_PHASES * WEIGHTS_PER_PHASE);
        for phase in 0..NUM_PHASES {
            weights.extend_from_slice(&self.tables.phase(phase)[..WEIGHTS_PER_PHASE]);
        }
        Gen3Weights {
            name: self.name.clone(),
            units_per_disc: self.units_per_disc,
            weights,
        }
    }

    /// The evaluation with the weights of a gen3 file.
    pub fn from_file(path: &Path) -> Result<Gen3Eval, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Gen3Eval::from_bytes(bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The value (hundredths of a disc, side to move, not clamped) of `board` whose instance
    /// indices are `f`.
    #[inline]
    pub fn evaluate_indices(&self, board: &Board, f: &Indices) -> i32 {
        self.evaluate_indices_moves(board, f, board.moves())
    }

    /// [`Gen3Eval::evaluate_indices`] with the legal moves of `board` already generated.
    #[inline]
    pub fn evaluate_indices_moves(&self, board: &Board, f: &Indices, moves: u64) -> i32 {
        let w: &PhaseTable = self.tables.phase(phase_of_empties(board.empty_count()));
        let mut sum = sum::pattern_sum(w, f);
        for o in global_offsets(board, moves) {
            sum += w[o] as i32;
        }
        let units = self.units_per_disc as i32;
        if units == SCALE {
            sum
        } else {
            (sum as i64 * SCALE as i64 / units as i64) as i32
        }
    }

    /// The value of `board` from scratch (hundredths of a disc, not clamped).
    #[inline]
    pub fn evaluate_centidiscs(&self, board: &Board) -> i32 {
        self.evaluate_indices(board, &indices(board))
    }
}

impl IncrementalEval for Gen3Eval {
    type State = Gen3State;

    #[inline]
    fn state(&self, board: &Board) -> Gen3State {
        Gen3State::new(board)
    }

    #[inline]
    fn play(&self, state: &Gen3State, sq: Square, flips: u64) -> Gen3State {
        state.play(sq, flips)
    }

    #[inline]
    fn pass(&self, state: &Gen3State) -> Gen3State {
        state.pass()
    }

    #[inline]
    fn evaluate_with(&self, board: &Board, state: &Gen3State) -> i32 {
        self.evaluate_indices(board, state.indices())
            .clamp(-MAX_EVAL, MAX_EVAL)
    }

    #[inline]
    fn evaluate_after(&self, board: &Board, state: &Gen3State, sq: Square, flips: u64) -> i32 {
        self.evaluate_indices(board, &state.indices_after(sq, flips))
            .clamp(-MAX_EVAL, MAX_EVAL)
    }

    #[inline]
    fn evaluate_leaf(
        &self,
        board: &Board,
        state: &Gen3State,
        mv: Option<(Square, u64)>,
        moves: u64,
    ) -> i32 {
        let v = match mv {
            Some((sq, flips)) => {
                self.evaluate_indices_moves(board, &state.indices_after(sq, flips), moves)
            }
            None => self.evaluate_indices_moves(board, state.indices(), moves),
        };
        v.clamp(-MAX_EVAL, MAX_EVAL)
    }
}

/// The gen3 weights shipped in the engine binary (`crates/engine/weights/gen3.vpw`, compact
/// payload): the default evaluation ([`crate::eval::default_evaluator`]).
pub static EMBEDDED_GEN3: &[u8] = include_bytes!("../../../weights/gen3.vpw");

impl Gen3Eval {
    /// The evaluation with the shipped gen3 weights (every header field and the checksum
    /// checked, the payload decoded).
    pub fn embedded() -> Result<Gen3Eval, WeightsError> {
        Gen3Eval::from_bytes(EMBEDDED_GEN3)
    }

    /// Builds every phase's table now (they are otherwise built on first use, see [`table`]):
    /// for benchmarks, whose timings then measure the search alone.
    pub fn build_all_phases(&self) {
        for phase in 0..NUM_PHASES {
            self.tables.phase(phase);
        }
    }

    /// Number of phase tables built so far (see [`table`]).
    pub fn phases_built(&self) -> usize {
        self.tables.built()
    }
}

/// The shipped gen3 evaluation (the default evaluation), loaded once per process. The shipped
/// weights are checked by the tests; should a build's be refused all the same, the evaluation
/// is flat (every position 0, the search still plays legal moves) with one message on standard
/// error saying why.
pub fn shipped() -> Arc<Gen3Eval> {
    static LOADED: OnceLock<Arc<Gen3Eval>> = OnceLock::new();
    LOADED
        .get_or_init(|| match Gen3Eval::embedded() {
            Ok(e) => Arc::new(e),
            Err(why) => {
                eprintln!("virada: shipped gen3 weights: {why}; using a flat evaluation");
                Arc::new(Gen3Eval::new(Gen3Weights::zeros("flat", SCALE as u32)))
            }
        })
        .clone()
}
