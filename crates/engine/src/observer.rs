//! What a search, an analysis or a solve reports as it goes: each completed [`Iteration`],
//! given to an [`Observer`]. Its own module because both the midgame search and the endgame
//! solver report through it.

use std::time::Duration;
use virada_rules::Move;

/// One completed iteration of a search, an analysis or a solve, as an [`Observer`] sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration {
    /// Depth of the iteration (plies; the number of empties for a solve or a selective pass of
    /// the solver).
    pub depth: u32,
    /// Confidence of its selective search in percent (100 = no selective pruning).
    pub selectivity: u8,
    /// Value of `best_move` for the side to move (discs, WOF scoring).
    pub value: f32,
    /// The value is proven (searched to the end without selective pruning).
    pub exact: bool,
    /// The best move of the iteration (`Pass` when the side to move must pass).
    pub best_move: Move,
    /// Principal variation, starting with `best_move`.
    pub pv: Vec<Move>,
    /// Nodes searched so far (all iterations, all threads).
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
}

/// Receives each completed iteration of a search, analysis or solve, in order, on the thread
/// that called it (so it needs neither `Send` nor `Sync`), between iterations: a slow observer
/// delays the search but never changes its result or node count. Any `FnMut(&Iteration)` is an
/// observer; to watch from another thread, send clones down a channel:
///
/// ```
/// use virada_engine::{Engine, EngineConfig, Iteration, Limits};
/// use virada_rules::Board;
/// let mut engine = Engine::new(EngineConfig { tt_mb: 4, threads: 1, ..EngineConfig::default() });
/// let (tx, rx) = std::sync::mpsc::channel::<Iteration>();
/// let r = engine.search_observed(Board::start(), &Limits::depth(4), None, &mut |it: &Iteration| {
///     let _ = tx.send(it.clone());
/// });
/// let depths: Vec<u32> = rx.try_iter().map(|it| it.depth).collect();
/// assert_eq!(depths, [1, 2, 3, 4]);
/// assert_eq!(r.depth, 4);
/// ```
pub trait Observer {
    /// Called once per completed iteration.
    fn iteration(&mut self, it: &Iteration);
}

impl<F: FnMut(&Iteration)> Observer for F {
    fn iteration(&mut self, it: &Iteration) {
        self(it)
    }
}

/// An observer that ignores everything (the plain `search` / `analyze` / `solve`).
pub(crate) struct Unobserved;

impl Observer for Unobserved {
    fn iteration(&mut self, _: &Iteration) {}
}
