//! Multi-ProbCut parameters fitted from our own searches for this evaluation: the table file
//! `crates/engine/data/mpc-gen3.txt` (how it was made is written at its top), read once.

use crate::eval::mpc::{parse_table, MpcParams};
use std::sync::OnceLock;

/// Fitted lines, one per (deep depth, range of empty squares).
pub fn mpc_table_gen3() -> &'static [MpcParams] {
    static TABLE: OnceLock<Vec<MpcParams>> = OnceLock::new();
    TABLE.get_or_init(|| {
        parse_table(include_str!("../../../data/mpc-gen3.txt"))
            .unwrap_or_else(|e| panic!("crates/engine/data/mpc-gen3.txt: {e}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every deep depth 2..=10 has a line for every number of empties.
    #[test]
    fn the_shipped_table_covers_every_depth_and_empties() {
        let t = mpc_table_gen3();
        for depth in 2..=10u8 {
            for empties in 0..=64 {
                let n = t
                    .iter()
                    .filter(|p| p.depth == depth && p.covers(empties))
                    .count();
                assert_eq!(n, 1, "depth {depth}, {empties} empties");
            }
        }
        assert!(parse_table("2 0 15 0.9 1.0").is_err());
        assert!(parse_table("2 0 x 0.9 1.0 3.0")
            .unwrap_err()
            .starts_with("line 1:"));
    }
}
