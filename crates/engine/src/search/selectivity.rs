//! Selectivity of the search: how boldly Multi-ProbCut prunes.
//!
//! A level is a confidence: Multi-ProbCut cuts a node when a shallow search predicts the deep
//! result falls outside the window with at least that probability (under the fitted normal
//! error model). `Selectivity::EXACT` turns pruning off: the results are proofs.

use std::fmt;

/// Confidence `t` values (in standard deviations) and their percentages.
const LEVELS: [(f32, u8); 6] = [
    (1.0, 68),
    (1.1, 73),
    (1.5, 87),
    (2.0, 95),
    (2.6, 99),
    (f32::INFINITY, 100),
];

/// A selectivity level, from 68% (boldest) to 100% (no selective pruning).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Selectivity(u8);

impl Selectivity {
    /// No selective pruning: results are exact (proofs) when the search reaches the end.
    pub const EXACT: Selectivity = Selectivity(5);
    /// The default for analysis and for searches to a fixed depth: 95% confidence cuts.
    pub const DEFAULT: Selectivity = Selectivity(3);
    /// The default of a move search limited only by time, a game clock or nodes: 73%
    /// confidence cuts. At equal time it beat 95% by about 90 Elo at 0.1 s a move (87% beat 95%
    /// by +47 ± 32 and 73% beat 87% by +46 ± 32, 400 games each; 68% was level with 73%,
    /// +8 ± 31), the bolder cuts buying more depth than they cost (docs/SEARCH.md).
    pub const TIME_LIMITED: Selectivity = Selectivity(1);
    /// The boldest level: 68% confidence cuts.
    pub const BOLDEST: Selectivity = Selectivity(0);

    /// The level with this confidence in percent (68, 73, 87, 95, 99 or 100), rounding to the
    /// nearest level not above `percent`.
    pub fn from_percent(percent: u8) -> Selectivity {
        let idx = LEVELS.iter().rposition(|l| l.1 <= percent).unwrap_or(0);
        Selectivity(idx as u8)
    }

    /// Confidence in percent (100 = exact).
    pub fn percent(self) -> u8 {
        LEVELS[self.0 as usize].1
    }

    /// Confidence in standard deviations of the Multi-ProbCut error model (infinite = off).
    pub fn t(self) -> f32 {
        LEVELS[self.0 as usize].0
    }

    /// Whether selective pruning is off.
    pub fn is_exact(self) -> bool {
        self == Selectivity::EXACT
    }

    /// The value stored in the transposition table: higher is safer, and exact searches use
    /// the table's `EXACT_SELECTIVITY` marker shared with the endgame solver.
    pub fn tt_code(self) -> u8 {
        if self.is_exact() {
            crate::tt::EXACT_SELECTIVITY
        } else {
            self.0
        }
    }
}

impl fmt::Display for Selectivity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}%", self.percent())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_round_trip() {
        for p in [68, 73, 87, 95, 99, 100] {
            assert_eq!(Selectivity::from_percent(p).percent(), p);
        }
        assert_eq!(Selectivity::from_percent(90).percent(), 87);
        assert_eq!(Selectivity::from_percent(10).percent(), 68);
        assert!(Selectivity::EXACT.is_exact());
        assert!(Selectivity::DEFAULT < Selectivity::EXACT);
        assert_eq!(Selectivity::TIME_LIMITED.percent(), 73);
        assert!(Selectivity::TIME_LIMITED < Selectivity::DEFAULT);
        assert_eq!(Selectivity::EXACT.tt_code(), crate::tt::EXACT_SELECTIVITY);
    }
}
