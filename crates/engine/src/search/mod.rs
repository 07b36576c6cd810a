//! Midgame search: iterative deepening over a principal variation search with aspiration
//! windows, the shared transposition table, move ordering (hash move, shallow search,
//! mobility), Multi-ProbCut selective search and an exact search when few empties remain.
//! Several threads search together (lazy SMP: they share the table and help each other).
//!
//! Values are in evaluation units (hundredths of a disc, [`crate::eval::SCALE`]) inside the
//! search and in discs (`f32`) in results.

pub(crate) mod handoff;
pub(crate) mod order;
pub mod probcut_log;
pub(crate) mod root;
mod selectivity;
mod setup;
pub(crate) mod tree;

pub(crate) use crate::observer::Unobserved;
pub use crate::observer::{Iteration, Observer};
pub(crate) use root::{pv_from_tt, search};
pub use selectivity::Selectivity;
pub(crate) use setup::SearchSetup;

use crate::time::Clock;
use std::time::Duration;
use virada_rules::Move;

/// Depth searched when no limit at all is given.
pub const DEFAULT_DEPTH: u32 = 10;

/// Default number of empty squares from which the search solves exactly.
pub const DEFAULT_EXACT_EMPTIES: u32 = 16;

/// When a search stops. Unset fields do not limit; with nothing set the search goes to
/// [`DEFAULT_DEPTH`]. Build with struct update syntax:
///
/// ```
/// use virada_engine::search::Limits;
/// let l = Limits { depth: Some(8), ..Limits::default() };
/// assert_eq!(l.depth, Some(8));
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Maximum midgame depth (plies).
    pub depth: Option<u32>,
    /// Maximum nodes (all threads together).
    pub nodes: Option<u64>,
    /// Time for this move.
    pub time: Option<Duration>,
    /// The game clock of the side to move: the time manager decides this move's share.
    pub clock: Option<Clock>,
    /// Solve exactly (no selectivity, to the end) when at most this many squares are empty
    /// (default [`DEFAULT_EXACT_EMPTIES`]).
    pub exact_empties: Option<u32>,
    /// Selectivity of the midgame search; when `None`, [`Limits::search_selectivity`] decides.
    pub selectivity: Option<Selectivity>,
    /// With a fixed `time`: the share of it after which no deeper iteration starts (0 to 1;
    /// default [`crate::time::FIXED_LAST_ITERATION_START`]). A tuning knob (the `last` key of
    /// `virada match`); a game clock keeps its own rule.
    pub last_iteration_start: Option<f32>,
}

impl Limits {
    /// A fixed-depth search.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// A fixed-depth midgame search at `selectivity` that never switches to the exact solver
    /// (measurements of the evaluation and the search itself).
    pub fn midgame(depth: u32, selectivity: Selectivity) -> Limits {
        Limits {
            depth: Some(depth),
            exact_empties: Some(0),
            selectivity: Some(selectivity),
            ..Limits::default()
        }
    }

    /// A fixed-time search (as deep as the time allows, exact when it gets there).
    pub fn time(time: Duration) -> Limits {
        Limits {
            time: Some(time),
            ..Limits::default()
        }
    }

    /// The selectivity of a move search (`Engine::search`) under these limits: the one they name,
    /// else [`Selectivity::TIME_LIMITED`] (73%) when only time, a game clock or nodes end the
    /// search (no depth), since equal-time matches measured it strongest, else
    /// [`Selectivity::DEFAULT`] (95%), so a depth keeps the meaning it was measured with.
    /// The analysis of every move (`Engine::analyze`) uses the named one or 95%.
    pub fn search_selectivity(&self) -> Selectivity {
        match self.selectivity {
            Some(s) => s,
            None if self.depth.is_none()
                && (self.time.is_some() || self.clock.is_some() || self.nodes.is_some()) =>
            {
                Selectivity::TIME_LIMITED
            }
            None => Selectivity::DEFAULT,
        }
    }
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play (`Pass` when the side to move has none; `Pass` as well on a finished
    /// game, where `exact` is true and `score` the final score).
    pub best_move: Move,
    /// Expected final disc difference for the side to move (WOF scoring).
    pub score: f32,
    /// Depth of the last completed iteration (plies; the number of empties for a solve).
    pub depth: u32,
    /// Confidence of the selective search in percent (100 = no selective pruning).
    pub selectivity: u8,
    /// The score is proven (searched to the end without selective pruning).
    pub exact: bool,
    /// Principal variation, starting with `best_move` (passes included).
    pub pv: Vec<Move>,
    /// Nodes searched (all threads).
    pub nodes: u64,
    pub elapsed: Duration,
}

impl SearchResult {
    /// Nodes per second.
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}
