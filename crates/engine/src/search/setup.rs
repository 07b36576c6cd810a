//! What a search runs with: the engine's long-lived resources.

use super::probcut_log::ProbcutLog;
use crate::eval::Gen3Eval;
use crate::time::TimeSource;
use crate::tt::TranspositionTable;

/// The long-lived resources a search uses.
pub struct SearchSetup<'a> {
    pub tt: &'a TranspositionTable,
    pub eval: &'a Gen3Eval,
    /// Search threads (1 = single-threaded and deterministic).
    pub threads: usize,
    /// Where time limits read the time.
    pub time_source: TimeSource,
    /// Where Multi-ProbCut's decisions are recorded, if anywhere (a measurement).
    pub probcut_log: Option<&'a ProbcutLog>,
}
