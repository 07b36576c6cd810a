//! Evaluation with a per-position state that a search updates as it makes moves, so leaves are
//! evaluated without recomputing everything from the bitboards.
//!
//! The search carries an [`IncrementalEval::State`] down the tree: computed from scratch at the
//! root of a search ([`IncrementalEval::state`]), updated for each move played
//! ([`IncrementalEval::play`]) or pass ([`IncrementalEval::pass`]); undo keeps the parent's
//! state (copy-make). The gen3 evaluation implements it ([`crate::eval::Gen3Eval`], its
//! indices in a [`crate::eval::gen3::state::Gen3State`]); the values are exactly those of
//! [`crate::eval::Gen3Eval::evaluate`], so the state changes speed, never results.
//!
//! ```
//! use virada_engine::eval::default_evaluator;
//! use virada_engine::eval::incremental::IncrementalEval;
//! use virada_rules::Board;
//! let eval = default_evaluator();
//! let board = Board::start();
//! let sq = "f5".parse().unwrap();
//! let state = eval.play(&eval.state(&board), sq, board.flips(sq).0);
//! let child = board.play_unchecked(sq);
//! assert_eq!(eval.evaluate_with(&child, &state), eval.evaluate(&child));
//! ```

use virada_rules::{Board, Square};

/// An evaluation that can follow a line of play incrementally; see the module documentation.
///
/// Contract: when `state` was obtained from `state(b0)` followed by the `play`/`pass` calls of
/// the moves leading from `b0` to `board`, `evaluate_with(board, state)` equals
/// the evaluation's `evaluate``(board)`.
pub trait IncrementalEval {
    /// What is kept per position (small and `Copy`: the search copies it for each child).
    type State: Copy;

    /// The state of `board`, computed from scratch.
    fn state(&self, board: &Board) -> Self::State;

    /// The state after the side to move plays `sq`, flipping the discs `flips`.
    fn play(&self, state: &Self::State, sq: Square, flips: u64) -> Self::State;

    /// The state after the side to move passes.
    fn pass(&self, state: &Self::State) -> Self::State;

    /// The value of `board` (whose state is `state`), as the evaluation's `evaluate` gives it.
    fn evaluate_with(&self, board: &Board, state: &Self::State) -> i32;

    /// The value of `board`, reached from the position whose state is `state` by the move `sq`
    /// flipping `flips`: `evaluate_with(board, &play(state, sq, flips))`, which an
    /// implementation may compute without building the whole new state (a leaf needs only
    /// the side to move's view).
    #[inline]
    fn evaluate_after(&self, board: &Board, state: &Self::State, sq: Square, flips: u64) -> i32 {
        self.evaluate_with(board, &self.play(state, sq, flips))
    }

    /// [`IncrementalEval::evaluate_after`] (or, without a move, `evaluate_with(board, state)`)
    /// for a caller that has already generated `moves`, the legal moves of `board`: an
    /// evaluation with a mobility feature need not generate them again.
    #[inline]
    fn evaluate_leaf(
        &self,
        board: &Board,
        state: &Self::State,
        mv: Option<(Square, u64)>,
        moves: u64,
    ) -> i32 {
        let _ = moves;
        match mv {
            Some((sq, flips)) => self.evaluate_after(board, state, sq, flips),
            None => self.evaluate_with(board, state),
        }
    }
}
