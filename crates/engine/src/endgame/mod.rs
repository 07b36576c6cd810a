//! Exact endgame solver: perfect play from any position.
//!
//! [`solve`] finds the exact final score (WOF rule: empties go to the winner; side to move's
//! view) and a best move with its principal variation, or in [`SolveMode::Wld`] only whether the
//! side to move wins, draws or loses, which is much faster. With `all_moves` every legal move
//! gets its own score (hint displays, OBF files).
//!
//! A solve can be interrupted (stop flag, time or node limit). It then reports
//! `complete == false` and only the bounds it has proven; it never reports an unproven exact
//! score. Several threads give the same scores, best move and PV as one thread (only node counts
//! and times differ): exact scores are unique, and every choice between equal moves is made in
//! an order that does not depend on the threads.
//!
//! ```
//! use virada_engine::endgame::{solve, SolveOptions};
//! use virada_rules::Position;
//! // White to move, 12 empties.
//! let pos: Position = "OOOOOOOOOOXXXXOOOXXOOXOOOXXXXOOOOXXXXOOO--XXXX-O--XXX-----XX--X- O"
//!     .parse().unwrap();
//! let r = solve(pos.board(), &SolveOptions { threads: 1, ..SolveOptions::default() });
//! assert!(r.complete && r.score.is_exact());
//! assert_eq!(r.pv.first(), r.best_moves.first());
//! ```

mod eval_search;
mod full_lines;
pub(crate) mod last;
mod order;
mod root;
pub(crate) mod search;
pub mod stability;

pub use root::{
    solve_observed, solve_with_table, ScoreBound, SolveMode, SolveOptions, SolveResult,
};

use crate::eval::default_evaluator;
use crate::tt::TranspositionTable;
use virada_rules::Board;

/// Solves `board` as `opts` asks (exact score or win/loss/draw), with a fresh table of
/// `opts.tt_mib` MiB, ordering moves with the engine's evaluation ([`default_evaluator`]).
pub fn solve(board: Board, opts: &SolveOptions) -> SolveResult {
    let tt = TranspositionTable::new(opts.tt_mib);
    solve_with_table(board, opts, &tt, &default_evaluator())
}

/// Exact score (whatever `opts.mode` says).
pub fn solve_exact(board: Board, opts: &SolveOptions) -> SolveResult {
    let opts = SolveOptions {
        mode: SolveMode::Exact,
        ..opts.clone()
    };
    solve(board, &opts)
}

/// Win/loss/draw only (whatever `opts.mode` says).
pub fn solve_wld(board: Board, opts: &SolveOptions) -> SolveResult {
    let opts = SolveOptions {
        mode: SolveMode::Wld,
        ..opts.clone()
    };
    solve(board, &opts)
}
