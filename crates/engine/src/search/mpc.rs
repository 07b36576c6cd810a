//! Multi-ProbCut: the error model relating shallow and deep search values.
//!
//! For a deep search of depth `d` the model uses a shallow search of depth
//! [`shallow_depth`]`(d)` and predicts `deep ≈ a * shallow + b` with residual standard
//! deviation `sigma`, separately for three game phases. The parameters live in
//! `mpc_params.rs`, fitted from our own searches by `virada bench mpc-fit` (see
//! `docs/SEARCH.md`).

use super::mpc_params::MPC_TABLE_V1;
use super::mpc_params_gen3::MPC_TABLE_GEN3;
use super::mpc_params_trained::MPC_TABLE_TRAINED;

/// Smallest deep depth a table may have a line for: depth 2, whose shallow search is the
/// static evaluation (depth 0). A table without depth-2 lines starts at its smallest depth
/// ([`min_depth`]); the v1 and gen2 tables start at 3.
pub const MPC_MIN_DEPTH: i32 = 2;

/// One fitted line of the model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MpcParams {
    /// Deep search depth.
    pub depth: u8,
    /// Phase bucket (see [`phase_of`]).
    pub phase: u8,
    /// Slope of deep on shallow.
    pub a: f32,
    /// Intercept (evaluation units).
    pub b: f32,
    /// Residual standard deviation (evaluation units).
    pub sigma: f32,
}

/// The shallow depth paired with deep depth `d`: about half, with the same parity as `d`
/// (odd and even depths disagree systematically in Othello, so pairs keep one parity).
pub fn shallow_depth(d: i32) -> i32 {
    let h = d / 2;
    if (d - h) % 2 == 1 {
        (h - 1).max(0)
    } else {
        h
    }
}

/// Phase bucket of a position with `empties` empty squares: 0 opening (40+), 1 midgame
/// (24..40), 2 late midgame (under 24).
pub fn phase_of(empties: u32) -> u8 {
    match empties {
        40.. => 0,
        24..=39 => 1,
        _ => 2,
    }
}

/// The fitted table for an evaluation: the error model depends on the evaluation's accuracy,
/// so v1, the trained evaluation (gen2) and gen3 (every gen3 weights file is named `gen3...`)
/// have their own (any other evaluation uses the trained one's).
pub(crate) fn table_for(eval_name: &str) -> &'static [MpcParams] {
    if eval_name == "v1" {
        MPC_TABLE_V1
    } else if eval_name.starts_with("gen3") {
        MPC_TABLE_GEN3
    } else {
        MPC_TABLE_TRAINED
    }
}

/// The smallest deep depth `table` has a line for (no line: never).
pub fn min_depth(table: &[MpcParams]) -> i32 {
    table
        .iter()
        .map(|p| p.depth as i32)
        .min()
        .unwrap_or(i32::MAX)
        .max(MPC_MIN_DEPTH)
}

/// The model for a deep search of `depth` at `empties`, from `table`. Depths beyond the fitted
/// range reuse the deepest fitted line with sigma grown by 5% per extra ply (errors grow with
/// depth); depths below the table's smallest line have none.
pub fn params(table: &[MpcParams], depth: i32, empties: u32) -> Option<MpcParams> {
    if depth < MPC_MIN_DEPTH {
        return None;
    }
    let phase = phase_of(empties);
    let mut best: Option<MpcParams> = None;
    for p in table.iter().filter(|p| p.phase == phase) {
        if p.depth as i32 == depth {
            return Some(*p);
        }
        if (p.depth as i32) < depth && !matches!(best, Some(b) if b.depth >= p.depth) {
            best = Some(*p);
        }
    }
    best.map(|p| MpcParams {
        sigma: p.sigma * (1.0 + 0.05 * (depth - p.depth as i32) as f32),
        depth: depth as u8,
        ..p
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_depths_keep_parity() {
        assert_eq!(
            shallow_depth(2),
            0,
            "depth 2 is predicted by the static evaluation"
        );
        for d in 3..30 {
            let s = shallow_depth(d);
            assert!(s >= 1 && s < d, "{d} -> {s}");
            assert_eq!((d - s) % 2, 0, "{d} -> {s}");
        }
    }

    #[test]
    fn every_phase_has_parameters() {
        for table in [table_for("v1"), table_for("trained"), table_for("gen3")] {
            for e in [10, 30, 50] {
                for d in min_depth(table)..25 {
                    let p = params(table, d, e).expect("fitted");
                    assert!(p.sigma > 0.0 && p.a > 0.0, "{p:?}");
                }
            }
            assert!(params(table, 1, 30).is_none());
            assert!(params(table, min_depth(table) - 1, 30).is_none());
        }
    }
}
