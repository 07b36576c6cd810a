//! Puzzle ratings (the server's `puzzles`): each solver's and each puzzle's Glicko-2 rating
//! and the results that moved them. [`PuzzleStore`] is reached through
//! [`super::Store::puzzles`]; both stores implement it with the statements of
//! `queries::puzzles`.

use super::StoreFuture;
use virada_domain::identity::BrowserId;
use virada_engine::puzzles::glicko::after_attempt;
use virada_engine::puzzles::Rating;

/// A puzzle's or a solver's Glicko-2 rating, with its counts of rated results.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuzzleRating {
    pub rating: Rating,
    /// Rated results (a browser's first result on a puzzle; retries are not rated).
    pub attempts: u32,
    /// Of them, solved.
    pub solved: u32,
}

impl PuzzleRating {
    /// A rating nobody has played against yet.
    pub fn unplayed(rating: Rating) -> PuzzleRating {
        PuzzleRating {
            rating,
            attempts: 0,
            solved: 0,
        }
    }

    /// Both ratings after one rated result (the solver's and the puzzle's), each against the
    /// other's rating before it. Every store computes a result with this, inside its
    /// transaction.
    pub fn after_result(
        solver: PuzzleRating,
        puzzle: PuzzleRating,
        solved: bool,
    ) -> (PuzzleRating, PuzzleRating) {
        let (s, p) = after_attempt(solver.rating, puzzle.rating, solved);
        let won = u32::from(solved);
        (
            PuzzleRating {
                rating: s,
                attempts: solver.attempts + 1,
                solved: solver.solved + won,
            },
            PuzzleRating {
                rating: p,
                attempts: puzzle.attempts + 1,
                solved: puzzle.solved + won,
            },
        )
    }
}

/// A browser's result on a puzzle, to rate if it is its first there.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleResult {
    pub browser: BrowserId,
    pub puzzle: String,
    /// The puzzle's shipped rating (its rating while it has no stored row).
    pub initial: Rating,
    /// Solved; false for a wrong move or a hint.
    pub solved: bool,
    /// Unix ms.
    pub at: i64,
}

/// What [`PuzzleStore::rate_puzzle`] did, and both ratings afterwards.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatedResult {
    /// Whether this result was rated (the browser's first on the puzzle).
    pub rated: bool,
    pub solver: PuzzleRating,
    pub puzzle: PuzzleRating,
}

/// The puzzle ratings and results.
pub trait PuzzleStore: Send + Sync {
    /// `browser`'s puzzle rating (`None`: no rated result yet; a newcomer's rating holds).
    fn solver_rating(&self, browser: BrowserId) -> StoreFuture<'_, Option<PuzzleRating>>;
    /// The stored rating of every puzzle with a rated result (at most one row a shipped
    /// puzzle; a puzzle without one keeps its shipped rating).
    fn puzzle_ratings(&self) -> StoreFuture<'_, Vec<(String, PuzzleRating)>>;
    /// Puzzle `id`'s stored rating (`None`: no rated result yet).
    fn puzzle_rating(&self, id: &str) -> StoreFuture<'_, Option<PuzzleRating>>;
    /// `browser`'s rated results: (puzzle id, solved), at most one a puzzle.
    fn puzzle_results(&self, browser: BrowserId) -> StoreFuture<'_, Vec<(String, bool)>>;
    /// In one transaction: if `result.browser` has no result on `result.puzzle` yet, stores it
    /// and both ratings after it ([`PuzzleRating::after_result`] from the stored ratings, or
    /// [`Rating::NEW_PLAYER`] and `result.initial` when there are none); otherwise changes
    /// nothing. Returns whether it rated, and both ratings afterwards. Two concurrent calls
    /// on one puzzle or one browser must not lose an update (serialised, or row locks).
    fn rate_puzzle(&self, result: PuzzleResult) -> StoreFuture<'_, RatedResult>;
    /// Deletes the puzzle rating and results of every browser whose rating last changed before
    /// `before` (Unix ms; the puzzles' own ratings stay); returns how many browsers.
    fn sweep_puzzle_solvers(&self, before: i64) -> StoreFuture<'_, usize>;
}
