//! Evaluation with a per-position state that a search updates as it makes moves, so leaves are
//! evaluated without recomputing everything from the bitboards.
//!
//! The search carries an [`IncrementalEval::State`] down the tree: computed from scratch at the
//! root of a search ([`IncrementalEval::state`]), updated for each move played
//! ([`IncrementalEval::play`]) or pass ([`IncrementalEval::pass`]); undo keeps the parent's
//! state (copy-make). Two implementations exist:
//!
//! - [`PatternEval`] keeps the pattern indices in a [`PatternState`];
//! - any `dyn Evaluator` has the empty state `()` and evaluates from scratch (evaluation v1,
//!   test evaluators).
//!
//! [`Evaluator::as_pattern_eval`] tells the search which of the two to use. Both give exactly
//! [`Evaluator::evaluate`]'s value, so the choice changes speed, never results.
//!
//! ```
//! use virada_engine::eval::incremental::IncrementalEval;
//! use virada_engine::eval::pattern_eval::PatternEval;
//! use virada_engine::eval::Evaluator;
//! use virada_rules::Board;
//! let eval = PatternEval::embedded().unwrap();
//! let board = Board::start();
//! let sq = "f5".parse().unwrap();
//! let state = eval.play(&eval.state(&board), sq, board.flips(sq).0);
//! let child = board.play_unchecked(sq);
//! assert_eq!(eval.evaluate_with(&child, &state), eval.evaluate(&child));
//! ```

use crate::eval::pattern_eval::PatternEval;
use crate::eval::pattern_state::PatternState;
use crate::eval::{Evaluator, MAX_EVAL};
use virada_rules::{Board, Square};

/// An evaluation that can follow a line of play incrementally; see the module documentation.
///
/// Contract: when `state` was obtained from `state(b0)` followed by the `play`/`pass` calls of
/// the moves leading from `b0` to `board`, `evaluate_with(board, state)` equals
/// [`Evaluator::evaluate`]`(board)`.
pub trait IncrementalEval {
    /// What is kept per position (small and `Copy`: the search copies it for each child).
    type State: Copy;

    /// The state of `board`, computed from scratch.
    fn state(&self, board: &Board) -> Self::State;

    /// The state after the side to move plays `sq`, flipping the discs `flips`.
    fn play(&self, state: &Self::State, sq: Square, flips: u64) -> Self::State;

    /// The state after the side to move passes.
    fn pass(&self, state: &Self::State) -> Self::State;

    /// The value of `board` (whose state is `state`), as [`Evaluator::evaluate`] gives it.
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

impl IncrementalEval for PatternEval {
    type State = PatternState;

    #[inline]
    fn state(&self, board: &Board) -> PatternState {
        PatternState::new(board)
    }

    #[inline]
    fn play(&self, state: &PatternState, sq: Square, flips: u64) -> PatternState {
        state.play(sq, flips)
    }

    #[inline]
    fn pass(&self, state: &PatternState) -> PatternState {
        state.pass()
    }

    #[inline]
    fn evaluate_with(&self, board: &Board, state: &PatternState) -> i32 {
        self.evaluate_state(state, board.empty_count())
            .clamp(-MAX_EVAL, MAX_EVAL)
    }

    #[inline]
    fn evaluate_after(&self, board: &Board, state: &PatternState, sq: Square, flips: u64) -> i32 {
        self.evaluate_indices(&state.indices_after(sq, flips), board.empty_count())
            .clamp(-MAX_EVAL, MAX_EVAL)
    }
}

/// The generic path: no state, every evaluation from scratch.
impl IncrementalEval for dyn Evaluator + '_ {
    type State = ();

    #[inline]
    fn state(&self, _board: &Board) {}

    #[inline]
    fn play(&self, _state: &(), _sq: Square, _flips: u64) {}

    #[inline]
    fn pass(&self, _state: &()) {}

    #[inline]
    fn evaluate_with(&self, board: &Board, _state: &()) -> i32 {
        self.evaluate(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::EvalV1;

    /// Plays random games; at every position, the incremental value equals `evaluate`.
    fn check_random_games<E: IncrementalEval + Evaluator + ?Sized>(eval: &E, games: usize) {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut checked = 0;
        for _ in 0..games {
            let mut b = Board::start();
            let mut st = eval.state(&b);
            while !b.is_game_over() {
                let m = b.moves();
                if m == 0 {
                    b = b.pass();
                    st = eval.pass(&st);
                } else {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let mut pick = m;
                    for _ in 0..(seed % m.count_ones() as u64) {
                        pick &= pick - 1;
                    }
                    let sq = Square::lowest_of(pick);
                    st = eval.play(&st, sq, b.flips(sq).0);
                    b = b.play_unchecked(sq);
                }
                assert_eq!(eval.evaluate_with(&b, &st), eval.evaluate(&b), "{b:?}");
                // Every move from here, evaluated without building the child's state.
                let mut m = b.moves();
                while m != 0 {
                    let sq = Square::lowest_of(m);
                    m &= m - 1;
                    let child = b.play_unchecked(sq);
                    let after = eval.evaluate_after(&child, &st, sq, b.flips(sq).0);
                    assert_eq!(after, eval.evaluate(&child), "{b:?} {sq}");
                    let leaf =
                        eval.evaluate_leaf(&child, &st, Some((sq, b.flips(sq).0)), child.moves());
                    assert_eq!(leaf, after, "{b:?} {sq}");
                }
                checked += 1;
            }
        }
        assert!(checked > games * 50, "{checked}");
    }

    #[test]
    fn pattern_state_values_equal_evaluate() {
        check_random_games(&PatternEval::embedded().expect("shipped weights"), 30);
    }

    #[test]
    fn generic_path_values_equal_evaluate() {
        let v1 = EvalV1::new();
        check_random_games(&v1 as &dyn Evaluator, 10);
    }

    #[test]
    fn only_the_pattern_evaluation_is_recognised() {
        let p = PatternEval::embedded().expect("shipped weights");
        assert!(p.as_pattern_eval().is_some());
        assert!(EvalV1::new().as_pattern_eval().is_none());
    }
}
