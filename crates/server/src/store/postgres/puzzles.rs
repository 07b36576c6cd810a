//! Puzzle ratings in PostgreSQL: each puzzle's Glicko-2 rating once it has a rated result, each
//! browser's solver rating, and each browser's first result on each puzzle.

use crate::error::{AppError, AppResult};
use crate::identity::BrowserId;
use crate::store::{PuzzleRating, PuzzleResult, RatedResult};
use tokio_postgres::{Row, Transaction};
use virada_engine::puzzles::Rating;

/// Schema version 6 in PostgreSQL's dialect (`DOUBLE PRECISION` for SQLite's 8-byte `REAL`).
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
fn rating_of(r: &Row) -> AppResult<PuzzleRating> {
    let count = |i: usize| -> AppResult<u32> {
        let n: i64 = r.try_get(i)?;
        u32::try_from(n).map_err(|_| AppError::Internal(format!("puzzle rating count {n}")))
    };
    Ok(PuzzleRating {
        rating: Rating::new(r.try_get(0)?, r.try_get(1)?, r.try_get(2)?),
        attempts: count(3)?,
        solved: count(4)?,
    })
}

pub async fn solver_rating(
    tx: &Transaction<'_>,
    browser: BrowserId,
) -> AppResult<Option<PuzzleRating>> {
    tx.query_opt(
        "SELECT rating, rd, volatility, attempts, solved FROM puzzle_solvers WHERE browser = $1",
        &[&browser.to_string()],
    )
    .await?
    .as_ref()
    .map(rating_of)
    .transpose()
}

pub async fn puzzle_rating(tx: &Transaction<'_>, id: &str) -> AppResult<Option<PuzzleRating>> {
    tx.query_opt(
        "SELECT rating, rd, volatility, attempts, solved FROM puzzle_ratings
         WHERE puzzle_id = $1",
        &[&id],
    )
    .await?
    .as_ref()
    .map(rating_of)
    .transpose()
}

pub async fn puzzle_ratings(tx: &Transaction<'_>) -> AppResult<Vec<(String, PuzzleRating)>> {
    let rows = tx
        .query(
            "SELECT rating, rd, volatility, attempts, solved, puzzle_id FROM puzzle_ratings",
            &[],
        )
        .await?;
    rows.iter()
        .map(|r| Ok((r.try_get(5)?, rating_of(r)?)))
        .collect()
}

pub async fn puzzle_results(
    tx: &Transaction<'_>,
    browser: BrowserId,
) -> AppResult<Vec<(String, bool)>> {
    let rows = tx
        .query(
            "SELECT puzzle_id, solved FROM puzzle_results WHERE browser = $1",
            &[&browser.to_string()],
        )
        .await?;
    rows.iter()
        .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
        .collect()
}

/// Rates `result` if it is its browser's first on the puzzle. The browser and then the puzzle
/// are locked for the rest of the transaction (advisory locks, always in that order, so two
/// calls cannot wait for each other), so concurrent results on one puzzle or from one browser
/// each start from the ratings the other left.
pub async fn rate_puzzle(tx: &Transaction<'_>, result: &PuzzleResult) -> AppResult<RatedResult> {
    let browser = result.browser.to_string();
    tx.execute("SELECT pg_advisory_xact_lock(1, hashtext($1))", &[&browser])
        .await?;
    tx.execute(
        "SELECT pg_advisory_xact_lock(2, hashtext($1))",
        &[&result.puzzle],
    )
    .await?;
    let solver = solver_rating(tx, result.browser)
        .await?
        .unwrap_or_else(|| PuzzleRating::unplayed(Rating::NEW_PLAYER));
    let puzzle = puzzle_rating(tx, &result.puzzle)
        .await?
        .unwrap_or_else(|| PuzzleRating::unplayed(result.initial));
    let inserted = tx
        .execute(
            "INSERT INTO puzzle_results (browser, puzzle_id, solved, at) VALUES ($1, $2, $3, $4)
             ON CONFLICT DO NOTHING",
            &[&browser, &result.puzzle, &result.solved, &result.at],
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
    tx.execute(
        "INSERT INTO puzzle_solvers (browser, rating, rd, volatility, attempts, solved, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (browser) DO UPDATE SET rating = $2, rd = $3, volatility = $4,
             attempts = $5, solved = $6, updated_at = $7",
        &[
            &browser,
            &solver.rating.rating,
            &solver.rating.rd,
            &solver.rating.volatility,
            &i64::from(solver.attempts),
            &i64::from(solver.solved),
            &result.at,
        ],
    )
    .await?;
    tx.execute(
        "INSERT INTO puzzle_ratings (puzzle_id, rating, rd, volatility, attempts, solved)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (puzzle_id) DO UPDATE SET rating = $2, rd = $3, volatility = $4,
             attempts = $5, solved = $6",
        &[
            &result.puzzle,
            &puzzle.rating.rating,
            &puzzle.rating.rd,
            &puzzle.rating.volatility,
            &i64::from(puzzle.attempts),
            &i64::from(puzzle.solved),
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
pub async fn sweep_solvers(tx: &Transaction<'_>, before: i64) -> AppResult<usize> {
    tx.execute(
        "DELETE FROM puzzle_results WHERE browser IN
             (SELECT browser FROM puzzle_solvers WHERE updated_at < $1)",
        &[&before],
    )
    .await?;
    let n = tx
        .execute(
            "DELETE FROM puzzle_solvers WHERE updated_at < $1",
            &[&before],
        )
        .await?;
    Ok(n as usize)
}

/// At sign-up: the guest browser's puzzle rating and results become the new account's (it has
/// none yet).
pub async fn give_to_account(
    tx: &Transaction<'_>,
    guest: BrowserId,
    account: BrowserId,
) -> AppResult<()> {
    let (from, to) = (guest.to_string(), account.to_string());
    tx.execute(
        "UPDATE puzzle_solvers SET browser = $2 WHERE browser = $1
            AND NOT EXISTS (SELECT 1 FROM puzzle_solvers WHERE browser = $2)",
        &[&from, &to],
    )
    .await?;
    tx.execute(
        "UPDATE puzzle_results SET browser = $2 WHERE browser = $1",
        &[&from, &to],
    )
    .await?;
    Ok(())
}
