//! Puzzle ratings: each puzzle's Glicko-2 rating once it has a rated result, each browser's
//! solver rating, and each browser's first result on each puzzle.

use crate::backend::Backend;
use crate::error::StoreResult;
use crate::exec::{args, Db, Row};
use crate::puzzles::{PuzzleRating, PuzzleResult, PuzzleStore, RatedResult};
use crate::StoreFuture;
use virada_domain::identity::BrowserId;
use virada_engine::puzzles::Rating;

/// Schema version 6.
pub const MIGRATION: &str = "CREATE TABLE puzzle_ratings (
        puzzle_id  TEXT PRIMARY KEY,
        rating     DOUBLE PRECISION NOT NULL,
        rd         DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        attempts   BIGINT NOT NULL,
        solved     BIGINT NOT NULL
    );
    CREATE TABLE puzzle_solvers (
        browser    TEXT PRIMARY KEY,
        rating     DOUBLE PRECISION NOT NULL,
        rd         DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        attempts   BIGINT NOT NULL,
        solved     BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
    );
    CREATE TABLE puzzle_results (
        browser    TEXT NOT NULL,
        puzzle_id  TEXT NOT NULL,
        solved     BOOLEAN NOT NULL,
        at         BIGINT NOT NULL,
        PRIMARY KEY (browser, puzzle_id)
    );";

/// Columns 0 to 4: rating, rd, volatility, attempts, solved.
fn rating_of(r: &Row) -> StoreResult<PuzzleRating> {
    Ok(PuzzleRating {
        rating: Rating::new(r.get(0)?, r.get(1)?, r.get(2)?),
        attempts: r.get(3)?,
        solved: r.get(4)?,
    })
}

pub async fn solver_rating(db: &Db<'_>, browser: BrowserId) -> StoreResult<Option<PuzzleRating>> {
    db.query_opt(
        "SELECT rating, rd, volatility, attempts, solved FROM puzzle_solvers WHERE browser = $1",
        args![browser.to_string()],
    )
    .await?
    .as_ref()
    .map(rating_of)
    .transpose()
}

pub async fn puzzle_rating(db: &Db<'_>, id: &str) -> StoreResult<Option<PuzzleRating>> {
    db.query_opt(
        "SELECT rating, rd, volatility, attempts, solved FROM puzzle_ratings
         WHERE puzzle_id = $1",
        args![id],
    )
    .await?
    .as_ref()
    .map(rating_of)
    .transpose()
}

pub async fn puzzle_ratings(db: &Db<'_>) -> StoreResult<Vec<(String, PuzzleRating)>> {
    let rows = db
        .query(
            "SELECT rating, rd, volatility, attempts, solved, puzzle_id FROM puzzle_ratings",
            &[],
        )
        .await?;
    rows.iter()
        .map(|r| Ok((r.get(5)?, rating_of(r)?)))
        .collect()
}

pub async fn puzzle_results(db: &Db<'_>, browser: BrowserId) -> StoreResult<Vec<(String, bool)>> {
    let rows = db
        .query(
            "SELECT puzzle_id, solved FROM puzzle_results WHERE browser = $1",
            args![browser.to_string()],
        )
        .await?;
    rows.iter().map(|r| Ok((r.get(0)?, r.get(1)?))).collect()
}

/// Rates `result` if it is its browser's first on the puzzle. The browser and then the puzzle
/// are locked for the rest of the transaction (advisory locks, always in that order, so two
/// calls cannot wait for each other), so concurrent results on one puzzle or from one browser
/// each start from the ratings the other left.
pub async fn rate_puzzle(db: &Db<'_>, result: &PuzzleResult) -> StoreResult<RatedResult> {
    let browser = result.browser.to_string();
    db.postgres_only(
        "SELECT pg_advisory_xact_lock(1, hashtext($1))",
        args![browser],
    )
    .await?;
    db.postgres_only(
        "SELECT pg_advisory_xact_lock(2, hashtext($1))",
        args![result.puzzle],
    )
    .await?;
    let solver = solver_rating(db, result.browser)
        .await?
        .unwrap_or_else(|| PuzzleRating::unplayed(Rating::NEW_PLAYER));
    let puzzle = puzzle_rating(db, &result.puzzle)
        .await?
        .unwrap_or_else(|| PuzzleRating::unplayed(result.initial));
    let inserted = db
        .execute(
            "INSERT INTO puzzle_results (browser, puzzle_id, solved, at) VALUES ($1, $2, $3, $4)
             ON CONFLICT DO NOTHING",
            args![browser, result.puzzle, result.solved, result.at],
        )
        .await?;
    if inserted == 0 {
        return Ok(RatedResult {
            rated: false,
            solver,
            puzzle,
        });
    }
    let (solver, puzzle) = PuzzleRating::after_result(solver, puzzle, result.solved);
    db.execute(
        "INSERT INTO puzzle_solvers (browser, rating, rd, volatility, attempts, solved, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (browser) DO UPDATE SET rating = $2, rd = $3, volatility = $4,
             attempts = $5, solved = $6, updated_at = $7",
        args![
            browser,
            solver.rating.rating,
            solver.rating.rd,
            solver.rating.volatility,
            i64::from(solver.attempts),
            i64::from(solver.solved),
            result.at,
        ],
    )
    .await?;
    db.execute(
        "INSERT INTO puzzle_ratings (puzzle_id, rating, rd, volatility, attempts, solved)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (puzzle_id) DO UPDATE SET rating = $2, rd = $3, volatility = $4,
             attempts = $5, solved = $6",
        args![
            result.puzzle,
            puzzle.rating.rating,
            puzzle.rating.rd,
            puzzle.rating.volatility,
            i64::from(puzzle.attempts),
            i64::from(puzzle.solved),
        ],
    )
    .await?;
    Ok(RatedResult {
        rated: true,
        solver,
        puzzle,
    })
}

/// Deletes the browsers whose rating last changed before `before`, with their results.
pub async fn sweep_solvers(db: &Db<'_>, before: i64) -> StoreResult<usize> {
    db.execute(
        "DELETE FROM puzzle_results WHERE browser IN
             (SELECT browser FROM puzzle_solvers WHERE updated_at < $1)",
        args![before],
    )
    .await?;
    let n = db
        .execute(
            "DELETE FROM puzzle_solvers WHERE updated_at < $1",
            args![before],
        )
        .await?;
    Ok(n as usize)
}

/// At sign-up: the guest browser's puzzle rating and results become the new account's (it has
/// none yet).
pub async fn give_to_account(db: &Db<'_>, guest: BrowserId, account: BrowserId) -> StoreResult<()> {
    let (from, to) = (guest.to_string(), account.to_string());
    db.execute(
        "UPDATE puzzle_solvers SET browser = $2 WHERE browser = $1
            AND NOT EXISTS (SELECT 1 FROM puzzle_solvers WHERE browser = $2)",
        args![from, to],
    )
    .await?;
    db.execute(
        "UPDATE puzzle_results SET browser = $2 WHERE browser = $1",
        args![from, to],
    )
    .await?;
    Ok(())
}

impl<B: Backend> PuzzleStore for B {
    fn solver_rating(&self, browser: BrowserId) -> StoreFuture<'_, Option<PuzzleRating>> {
        self.read(move |db| Box::pin(solver_rating(db, browser)))
    }

    fn puzzle_ratings(&self) -> StoreFuture<'_, Vec<(String, PuzzleRating)>> {
        self.read(|db| Box::pin(puzzle_ratings(db)))
    }

    fn puzzle_rating(&self, id: &str) -> StoreFuture<'_, Option<PuzzleRating>> {
        let id = id.to_string();
        self.read(move |db| Box::pin(async move { puzzle_rating(db, &id).await }))
    }

    fn puzzle_results(&self, browser: BrowserId) -> StoreFuture<'_, Vec<(String, bool)>> {
        self.read(move |db| Box::pin(puzzle_results(db, browser)))
    }

    fn rate_puzzle(&self, result: PuzzleResult) -> StoreFuture<'_, RatedResult> {
        self.write(move |db| Box::pin(async move { rate_puzzle(db, &result).await }))
    }

    fn sweep_puzzle_solvers(&self, before: i64) -> StoreFuture<'_, usize> {
        self.write(move |db| Box::pin(sweep_solvers(db, before)))
    }
}
