//! Puzzle ratings in SQLite: each puzzle's Glicko-2 rating once it has a rated result, each
//! browser's solver rating, and each browser's first result on each puzzle (only the first
//! result on a puzzle is rated; retries are practice).

use crate::error::AppResult;
use crate::identity::BrowserId;
use crate::store::{PuzzleRating, PuzzleResult, RatedResult};
use rusqlite::{params, Connection, OptionalExtension, Row};
use virada_engine::puzzles::Rating;

/// v6: the puzzle tables.
pub const MIGRATION: &str = "CREATE TABLE puzzle_ratings (
        puzzle_id  TEXT PRIMARY KEY,
        rating     REAL NOT NULL,
        rd         REAL NOT NULL,
        volatility REAL NOT NULL,
        attempts   INTEGER NOT NULL,
        solved     INTEGER NOT NULL
    );
    CREATE TABLE puzzle_solvers (
        browser    TEXT PRIMARY KEY,
        rating     REAL NOT NULL,
        rd         REAL NOT NULL,
        volatility REAL NOT NULL,
        attempts   INTEGER NOT NULL,
        solved     INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
    );
    CREATE TABLE puzzle_results (
        browser    TEXT NOT NULL,
        puzzle_id  TEXT NOT NULL,
        solved     INTEGER NOT NULL,
        at         INTEGER NOT NULL,
        PRIMARY KEY (browser, puzzle_id)
    );";

fn rating_of(r: &Row<'_>) -> rusqlite::Result<PuzzleRating> {
    Ok(PuzzleRating {
        rating: Rating::new(r.get(0)?, r.get(1)?, r.get(2)?),
        attempts: r.get(3)?,
        solved: r.get(4)?,
    })
}

pub fn solver_rating(conn: &Connection, browser: BrowserId) -> AppResult<Option<PuzzleRating>> {
    Ok(conn
        .query_row(
            "SELECT rating, rd, volatility, attempts, solved FROM puzzle_solvers
             WHERE browser = ?1",
            params![browser.to_string()],
            rating_of,
        )
        .optional()?)
}

pub fn puzzle_rating(conn: &Connection, id: &str) -> AppResult<Option<PuzzleRating>> {
    Ok(conn
        .query_row(
            "SELECT rating, rd, volatility, attempts, solved FROM puzzle_ratings
             WHERE puzzle_id = ?1",
            params![id],
            rating_of,
        )
        .optional()?)
}

pub fn puzzle_ratings(conn: &Connection) -> AppResult<Vec<(String, PuzzleRating)>> {
    let mut st = conn.prepare(
        "SELECT rating, rd, volatility, attempts, solved, puzzle_id FROM puzzle_ratings",
    )?;
    let rows = st.query_map([], |r| Ok((r.get::<_, String>(5)?, rating_of(r)?)))?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

pub fn puzzle_results(conn: &Connection, browser: BrowserId) -> AppResult<Vec<(String, bool)>> {
    let mut st = conn.prepare("SELECT puzzle_id, solved FROM puzzle_results WHERE browser = ?1")?;
    let rows = st.query_map(params![browser.to_string()], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, bool>(1)?))
    })?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

/// Rates `result` if it is its browser's first on the puzzle, in one transaction.
pub fn rate_puzzle(conn: &Connection, result: &PuzzleResult) -> AppResult<RatedResult> {
    let tx = conn.unchecked_transaction()?;
    let solver = solver_rating(&tx, result.browser)?
        .unwrap_or_else(|| PuzzleRating::unplayed(Rating::NEW_PLAYER));
    let puzzle = puzzle_rating(&tx, &result.puzzle)?
        .unwrap_or_else(|| PuzzleRating::unplayed(result.initial));
    let browser = result.browser.to_string();
    let inserted = tx.execute(
        "INSERT OR IGNORE INTO puzzle_results (browser, puzzle_id, solved, at)
         VALUES (?1, ?2, ?3, ?4)",
        params![browser, result.puzzle, result.solved, result.at],
    )?;
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
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT(browser) DO UPDATE SET rating = ?2, rd = ?3, volatility = ?4,
             attempts = ?5, solved = ?6, updated_at = ?7",
        params![
            browser,
            solver.rating.rating,
            solver.rating.rd,
            solver.rating.volatility,
            solver.attempts,
            solver.solved,
            result.at
        ],
    )?;
    tx.execute(
        "INSERT INTO puzzle_ratings (puzzle_id, rating, rd, volatility, attempts, solved)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT(puzzle_id) DO UPDATE SET rating = ?2, rd = ?3, volatility = ?4,
             attempts = ?5, solved = ?6",
        params![
            result.puzzle,
            puzzle.rating.rating,
            puzzle.rating.rd,
            puzzle.rating.volatility,
            puzzle.attempts,
            puzzle.solved
        ],
    )?;
    tx.commit()?;
    Ok(RatedResult {
        rated: true,
        solver,
        puzzle,
    })
}

/// Deletes the browsers whose rating last changed before `before`, with their results.
pub fn sweep_solvers(conn: &Connection, before: i64) -> AppResult<usize> {
    let tx = conn.unchecked_transaction()?;
    tx.execute(
        "DELETE FROM puzzle_results WHERE browser IN
             (SELECT browser FROM puzzle_solvers WHERE updated_at < ?1)",
        params![before],
    )?;
    let n = tx.execute(
        "DELETE FROM puzzle_solvers WHERE updated_at < ?1",
        params![before],
    )?;
    tx.commit()?;
    Ok(n)
}

/// At sign-up: the guest browser's puzzle rating and results become the new account's (it has
/// none yet).
pub fn give_to_account(conn: &Connection, guest: BrowserId, account: BrowserId) -> AppResult<()> {
    let (from, to) = (guest.to_string(), account.to_string());
    conn.execute(
        "UPDATE puzzle_solvers SET browser = ?2 WHERE browser = ?1
            AND NOT EXISTS (SELECT 1 FROM puzzle_solvers WHERE browser = ?2)",
        params![from, to],
    )?;
    conn.execute(
        "UPDATE puzzle_results SET browser = ?2 WHERE browser = ?1",
        params![from, to],
    )?;
    Ok(())
}
