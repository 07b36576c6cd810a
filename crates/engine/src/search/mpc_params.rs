//! Multi-ProbCut parameters. PROVISIONAL values (a = 1, b = 0, sigma guessed), to be replaced by
//! the output of `virada bench mpc-fit`.

use super::mpc::MpcParams;

const fn p(depth: u8, phase: u8, a: f32, b: f32, sigma: f32) -> MpcParams {
    MpcParams {
        depth,
        phase,
        a,
        b,
        sigma,
    }
}

/// Fitted lines, one per (deep depth, phase).
pub(super) static MPC_TABLE: &[MpcParams] = &[
    p(3, 0, 1.0, 0.0, 300.0),
    p(3, 1, 1.0, 0.0, 350.0),
    p(3, 2, 1.0, 0.0, 400.0),
];
