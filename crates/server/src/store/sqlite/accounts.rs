//! Accounts, sessions and game ratings in SQLite (schema version 7). Every function runs inside
//! the transaction its caller opened.

use super::super::accounts::{AccountRow, HistoryEntry, NewAccount, Player, SessionRow};
use super::super::accounts::{ANONYMOUS, HISTORY_SHOWN};
use crate::error::{AppError, AppResult};
use crate::identity::BrowserId;
use crate::model::online::OnlineGame;
use crate::model::GameRecord;
use crate::rating::{self, Category, PlayerRating};
use rusqlite::{params, Connection, OptionalExtension, Row};
use virada_engine::glicko::Rating;

/// Schema version 7: accounts, sessions, ratings and their history, and whether an online game
/// is rated.
pub const MIGRATION: &str = "
    CREATE TABLE accounts (
        holder         TEXT PRIMARY KEY,
        username       TEXT NOT NULL,
        username_key   TEXT NOT NULL UNIQUE,
        password_hash  TEXT NOT NULL,
        recovery_hash  TEXT NOT NULL,
        created_at     INTEGER NOT NULL,
        failed_logins  INTEGER NOT NULL DEFAULT 0,
        locked_until   INTEGER
    );
    CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        holder     TEXT NOT NULL REFERENCES accounts(holder) ON DELETE CASCADE,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
    );
    CREATE INDEX sessions_holder ON sessions(holder);
    CREATE TABLE ratings (
        holder     TEXT NOT NULL REFERENCES accounts(holder) ON DELETE CASCADE,
        category   TEXT NOT NULL,
        rating     REAL NOT NULL,
        deviation  REAL NOT NULL,
        volatility REAL NOT NULL,
        games      INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (holder, category)
    );
    CREATE TABLE rating_history (
        game_id    TEXT NOT NULL,
        holder     TEXT NOT NULL REFERENCES accounts(holder) ON DELETE CASCADE,
        category   TEXT NOT NULL,
        rating     REAL NOT NULL,
        deviation  REAL NOT NULL,
        volatility REAL NOT NULL,
        at         INTEGER NOT NULL,
        PRIMARY KEY (game_id, holder)
    );
    CREATE INDEX rating_history_holder ON rating_history(holder, at DESC);
    ALTER TABLE online_games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;";

const ACCOUNT_COLUMNS: &str = "holder, username, password_hash, recovery_hash, created_at,
    failed_logins, locked_until";

fn holder_of(hex: &str) -> rusqlite::Result<BrowserId> {
    BrowserId::from_hex(hex).ok_or_else(|| {
        rusqlite::Error::FromSqlConversionFailure(
            0,
            rusqlite::types::Type::Text,
            format!("account identity {hex:?}").into(),
        )
    })
}

fn account_of(r: &Row) -> rusqlite::Result<AccountRow> {
    Ok(AccountRow {
        holder: holder_of(&r.get::<_, String>(0)?)?,
        username: r.get(1)?,
        password_hash: r.get(2)?,
        recovery_hash: r.get(3)?,
        created_at: r.get(4)?,
        failed_logins: r.get(5)?,
        locked_until: r.get(6)?,
    })
}

pub fn create_account(
    conn: &Connection,
    a: &NewAccount,
    session: &SessionRow,
    guest: BrowserId,
) -> AppResult<Vec<String>> {
    let key = super::super::accounts::name_key(&a.username);
    let taken: bool = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM accounts WHERE username_key = ?1)",
        params![key],
        |r| r.get(0),
    )?;
    if taken {
        return Err(AppError::username_taken(&a.username));
    }
    conn.execute(
        "INSERT INTO accounts (holder, username, username_key, password_hash, recovery_hash,
            created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            a.holder.to_string(),
            a.username,
            key,
            a.password_hash,
            a.recovery_hash,
            a.created_at
        ],
    )?;
    insert_session(conn, session)?;
    // The guest's puzzle rating comes along too.
    super::puzzles::give_to_account(conn, guest, a.holder)?;
    adopt(conn, guest, a.holder)
}

pub fn account_by_name(conn: &Connection, key: &str) -> AppResult<Option<AccountRow>> {
    Ok(conn
        .query_row(
            &format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE username_key = ?1"),
            params![key],
            account_of,
        )
        .optional()?)
}

pub fn account_by_holder(conn: &Connection, holder: BrowserId) -> AppResult<Option<AccountRow>> {
    Ok(conn
        .query_row(
            &format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE holder = ?1"),
            params![holder.to_string()],
            account_of,
        )
        .optional()?)
}

pub fn login_failed(
    conn: &Connection,
    holder: BrowserId,
    now: i64,
    max_failures: u32,
    lock_ms: i64,
) -> AppResult<()> {
    conn.execute(
        "UPDATE accounts SET failed_logins = failed_logins + 1 WHERE holder = ?1",
        params![holder.to_string()],
    )?;
    conn.execute(
        "UPDATE accounts SET failed_logins = 0, locked_until = ?2
         WHERE holder = ?1 AND failed_logins >= ?3",
        params![holder.to_string(), now + lock_ms, max_failures],
    )?;
    Ok(())
}

pub fn sign_in(
    conn: &Connection,
    holder: BrowserId,
    session: &SessionRow,
    guest: BrowserId,
) -> AppResult<Vec<String>> {
    conn.execute(
        "UPDATE accounts SET failed_logins = 0, locked_until = NULL WHERE holder = ?1",
        params![holder.to_string()],
    )?;
    insert_session(conn, session)?;
    adopt(conn, guest, holder)
}

fn insert_session(conn: &Connection, s: &SessionRow) -> AppResult<()> {
    conn.execute(
        "INSERT INTO sessions (token_hash, holder, created_at, expires_at) VALUES (?1, ?2, ?3, ?4)",
        params![s.hash, s.holder.to_string(), s.created_at, s.expires_at],
    )?;
    Ok(())
}

/// Gives `to` the games of `from` (owned, and seats held); the ids of the games moved.
fn adopt(conn: &Connection, from: BrowserId, to: BrowserId) -> AppResult<Vec<String>> {
    let (from, to) = (from.to_string(), to.to_string());
    let mut ids: Vec<String> = conn
        .prepare(
            "SELECT id FROM games WHERE owner = ?1
             UNION SELECT game_id FROM online_holders WHERE browser = ?1",
        )?
        .query_map(params![from], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    ids.sort();
    conn.execute(
        "UPDATE games SET owner = ?2 WHERE owner = ?1",
        params![from, to],
    )?;
    conn.execute(
        "UPDATE online_holders SET browser = ?2 WHERE browser = ?1
            AND game_id NOT IN (SELECT game_id FROM online_holders WHERE browser = ?2)",
        params![from, to],
    )?;
    conn.execute(
        "DELETE FROM online_holders WHERE browser = ?1",
        params![from],
    )?;
    Ok(ids)
}

pub fn session(conn: &Connection, hash: &str, now: i64) -> AppResult<Option<(BrowserId, String)>> {
    Ok(conn
        .query_row(
            "SELECT a.holder, a.username FROM sessions s JOIN accounts a ON a.holder = s.holder
             WHERE s.token_hash = ?1 AND s.expires_at > ?2",
            params![hash, now],
            |r| Ok((holder_of(&r.get::<_, String>(0)?)?, r.get(1)?)),
        )
        .optional()?)
}

pub fn delete_session(conn: &Connection, hash: &str) -> AppResult<bool> {
    Ok(conn.execute("DELETE FROM sessions WHERE token_hash = ?1", params![hash])? == 1)
}

pub fn set_password(
    conn: &Connection,
    holder: BrowserId,
    password_hash: &str,
    recovery_hash: Option<&str>,
    session: &SessionRow,
) -> AppResult<()> {
    let h = holder.to_string();
    conn.execute(
        "UPDATE accounts SET password_hash = ?2, recovery_hash = COALESCE(?3, recovery_hash),
            failed_logins = 0, locked_until = NULL WHERE holder = ?1",
        params![h, password_hash, recovery_hash],
    )?;
    conn.execute("DELETE FROM sessions WHERE holder = ?1", params![h])?;
    insert_session(conn, session)
}

pub fn delete_account(
    conn: &Connection,
    holder: BrowserId,
    tombstone: BrowserId,
) -> AppResult<Option<Vec<String>>> {
    let (h, t) = (holder.to_string(), tombstone.to_string());
    if account_by_holder(conn, holder)?.is_none() {
        return Ok(None);
    }
    let mut ids: Vec<String> = conn
        .prepare(
            "SELECT id FROM games WHERE owner = ?1
             UNION SELECT game_id FROM online_holders WHERE browser = ?1",
        )?
        .query_map(params![h], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    ids.sort();
    conn.execute(
        "DELETE FROM games WHERE owner = ?1 AND mode <> 'online'",
        params![h],
    )?;
    conn.execute(
        "UPDATE games SET owner = ?2 WHERE owner = ?1",
        params![h, t],
    )?;
    for (color, column) in [("black", "black_name"), ("white", "white_name")] {
        conn.execute(
            &format!(
                "UPDATE online_games SET {column} = ?3 WHERE game_id IN
                    (SELECT game_id FROM online_holders WHERE browser = ?1 AND color = ?2)"
            ),
            params![h, color, ANONYMOUS],
        )?;
    }
    conn.execute("DELETE FROM online_holders WHERE browser = ?1", params![h])?;
    // Sessions, ratings and history go with it (ON DELETE CASCADE).
    conn.execute("DELETE FROM accounts WHERE holder = ?1", params![h])?;
    Ok(Some(ids))
}

fn rating_of(r: &Row, from: usize) -> rusqlite::Result<PlayerRating> {
    Ok(PlayerRating {
        rating: Rating::new(r.get(from)?, r.get(from + 1)?, r.get(from + 2)?),
        games: r.get(from + 3)?,
    })
}

fn category_of(name: &str) -> rusqlite::Result<Category> {
    Category::from_name(name).ok_or_else(|| {
        rusqlite::Error::FromSqlConversionFailure(
            0,
            rusqlite::types::Type::Text,
            format!("rating category {name:?}").into(),
        )
    })
}

pub fn player(conn: &Connection, key: &str) -> AppResult<Option<Player>> {
    let Some((holder, username, created_at)) = conn
        .query_row(
            "SELECT holder, username, created_at FROM accounts WHERE username_key = ?1",
            params![key],
            |r| Ok((r.get::<_, String>(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?
    else {
        return Ok(None);
    };
    let mut ratings: Vec<(Category, PlayerRating)> = conn
        .prepare(
            "SELECT category, rating, deviation, volatility, games FROM ratings WHERE holder = ?1",
        )?
        .query_map(params![holder], |r| {
            Ok((category_of(&r.get::<_, String>(0)?)?, rating_of(r, 1)?))
        })?
        .collect::<rusqlite::Result<_>>()?;
    ratings.sort_by_key(|(c, _)| *c);
    let history = conn
        .prepare(
            "SELECT category, game_id, rating, deviation, at FROM rating_history
             WHERE holder = ?1 ORDER BY at DESC, game_id LIMIT ?2",
        )?
        .query_map(params![holder, HISTORY_SHOWN as i64], |r| {
            Ok(HistoryEntry {
                category: category_of(&r.get::<_, String>(0)?)?,
                game: r.get(1)?,
                rating: r.get(2)?,
                deviation: r.get(3)?,
                at: r.get(4)?,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(Some(Player {
        username,
        created_at,
        ratings,
        history,
    }))
}

pub(super) fn current_rating(
    conn: &Connection,
    holder: &str,
    category: Category,
) -> AppResult<PlayerRating> {
    Ok(conn
        .query_row(
            "SELECT rating, deviation, volatility, games FROM ratings
             WHERE holder = ?1 AND category = ?2",
            params![holder, category.name()],
            |r| rating_of(r, 0),
        )
        .optional()?
        .unwrap_or(PlayerRating::NEW))
}

pub(super) fn write_rating(
    conn: &Connection,
    game: &str,
    holder: &str,
    category: Category,
    r: PlayerRating,
    at: i64,
) -> AppResult<()> {
    conn.execute(
        "INSERT INTO ratings (holder, category, rating, deviation, volatility, games, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT (holder, category) DO UPDATE SET rating = ?3, deviation = ?4,
            volatility = ?5, games = ?6, updated_at = ?7",
        params![
            holder,
            category.name(),
            r.rating.rating,
            r.rating.rd,
            r.rating.volatility,
            r.games,
            at
        ],
    )?;
    conn.execute(
        "INSERT INTO rating_history (game_id, holder, category, rating, deviation, volatility, at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            game,
            holder,
            category.name(),
            r.rating.rating,
            r.rating.rd,
            r.rating.volatility,
            at
        ],
    )?;
    Ok(())
}

/// Within `save`'s transaction: if this change ends a rated game with a result
/// ([`rating::outcome`]) that was not rated yet, both players' ratings move
/// ([`rating::after`]) and the change is kept in their history.
pub fn rate_game(conn: &Connection, rec: &GameRecord, o: &OnlineGame) -> AppResult<()> {
    let Some(out) = rating::outcome(rec, o) else {
        return Ok(());
    };
    let id = &rec.meta.id;
    let (black, white) = (out.black.to_string(), out.white.to_string());
    let rated_before: bool = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM rating_history WHERE game_id = ?1)",
        params![id],
        |r| r.get(0),
    )?;
    let accounts: i64 = conn.query_row(
        "SELECT COUNT(*) FROM accounts WHERE holder IN (?1, ?2)",
        params![black, white],
        |r| r.get(0),
    )?;
    if rated_before || black == white || accounts != 2 {
        return Ok(());
    }
    let b = current_rating(conn, &black, out.category)?;
    let w = current_rating(conn, &white, out.category)?;
    let (b, w) = rating::after(b, w, out.black_score);
    let at = rec.meta.updated_at;
    write_rating(conn, id, &black, out.category, b, at)?;
    write_rating(conn, id, &white, out.category, w, at)
}
