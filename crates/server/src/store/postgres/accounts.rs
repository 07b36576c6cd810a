//! Accounts, sessions and game ratings in PostgreSQL (schema version 7), the SQLite store's
//! tables in this dialect. Every function runs inside the transaction its caller opened.

use crate::error::{AppError, AppResult};
use crate::identity::BrowserId;
use crate::model::online::OnlineGame;
use crate::model::GameRecord;
use crate::rating::{self, Category, PlayerRating};
use crate::store::accounts::{name_key, AccountRow, HistoryEntry, NewAccount, Player, SessionRow};
use crate::store::accounts::{ANONYMOUS, HISTORY_SHOWN};
use tokio_postgres::{Row, Transaction};
use virada_engine::glicko::Rating;

/// Schema version 7 (see the SQLite store's).
pub const MIGRATION: &str = "
    CREATE TABLE accounts (
        holder         TEXT PRIMARY KEY,
        username       TEXT NOT NULL,
        username_key   TEXT NOT NULL UNIQUE,
        password_hash  TEXT NOT NULL,
        recovery_hash  TEXT NOT NULL,
        created_at     BIGINT NOT NULL,
        failed_logins  BIGINT NOT NULL DEFAULT 0,
        locked_until   BIGINT
    );
    CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        holder     TEXT NOT NULL REFERENCES accounts(holder) ON DELETE CASCADE,
        created_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL
    );
    CREATE INDEX sessions_holder ON sessions(holder);
    CREATE TABLE ratings (
        holder     TEXT NOT NULL REFERENCES accounts(holder) ON DELETE CASCADE,
        category   TEXT NOT NULL,
        rating     DOUBLE PRECISION NOT NULL,
        deviation  DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        games      BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        PRIMARY KEY (holder, category)
    );
    CREATE TABLE rating_history (
        game_id    TEXT NOT NULL,
        holder     TEXT NOT NULL REFERENCES accounts(holder) ON DELETE CASCADE,
        category   TEXT NOT NULL,
        rating     DOUBLE PRECISION NOT NULL,
        deviation  DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        at         BIGINT NOT NULL,
        PRIMARY KEY (game_id, holder)
    );
    CREATE INDEX rating_history_holder ON rating_history(holder, at DESC);
    ALTER TABLE online_games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;";

const ACCOUNT_COLUMNS: &str = "holder, username, password_hash, recovery_hash, created_at,
    failed_logins, locked_until";

fn holder_of(hex: &str) -> AppResult<BrowserId> {
    BrowserId::from_hex(hex)
        .ok_or_else(|| AppError::Internal(format!("stored account identity {hex:?}")))
}

fn count(n: i64) -> AppResult<u32> {
    u32::try_from(n).map_err(|_| AppError::Internal(format!("stored count {n}")))
}

fn account_of(r: &Row) -> AppResult<AccountRow> {
    Ok(AccountRow {
        holder: holder_of(&r.try_get::<_, String>(0)?)?,
        username: r.try_get(1)?,
        password_hash: r.try_get(2)?,
        recovery_hash: r.try_get(3)?,
        created_at: r.try_get(4)?,
        failed_logins: count(r.try_get(5)?)?,
        locked_until: r.try_get(6)?,
    })
}

pub async fn create_account(
    tx: &Transaction<'_>,
    a: &NewAccount,
    session: &SessionRow,
    guest: BrowserId,
) -> AppResult<Vec<String>> {
    let key = name_key(&a.username);
    // Two sign-ups for one name at once: the second waits here, then finds it taken.
    tx.execute("SELECT pg_advisory_xact_lock(3, hashtext($1))", &[&key])
        .await?;
    let taken = tx
        .query_opt("SELECT 1 FROM accounts WHERE username_key = $1", &[&key])
        .await?
        .is_some();
    if taken {
        return Err(AppError::username_taken(&a.username));
    }
    tx.execute(
        "INSERT INTO accounts (holder, username, username_key, password_hash, recovery_hash,
            created_at) VALUES ($1, $2, $3, $4, $5, $6)",
        &[
            &a.holder.to_string(),
            &a.username,
            &key,
            &a.password_hash,
            &a.recovery_hash,
            &a.created_at,
        ],
    )
    .await?;
    insert_session(tx, session).await?;
    // The guest's puzzle rating comes along too.
    super::puzzles::give_to_account(tx, guest, a.holder).await?;
    adopt(tx, guest, a.holder).await
}

pub async fn account_by_name(tx: &Transaction<'_>, key: &str) -> AppResult<Option<AccountRow>> {
    tx.query_opt(
        &format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE username_key = $1"),
        &[&key],
    )
    .await?
    .as_ref()
    .map(account_of)
    .transpose()
}

pub async fn account_by_holder(
    tx: &Transaction<'_>,
    holder: BrowserId,
) -> AppResult<Option<AccountRow>> {
    tx.query_opt(
        &format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE holder = $1"),
        &[&holder.to_string()],
    )
    .await?
    .as_ref()
    .map(account_of)
    .transpose()
}

pub async fn login_failed(
    tx: &Transaction<'_>,
    holder: BrowserId,
    now: i64,
    max_failures: u32,
    lock_ms: i64,
) -> AppResult<()> {
    // One statement: concurrent failures each count (the row is locked while it changes).
    tx.execute(
        "UPDATE accounts SET
            failed_logins = CASE WHEN failed_logins + 1 >= $3 THEN 0 ELSE failed_logins + 1 END,
            locked_until = CASE WHEN failed_logins + 1 >= $3 THEN $2 ELSE locked_until END
         WHERE holder = $1",
        &[
            &holder.to_string(),
            &(now + lock_ms),
            &i64::from(max_failures),
        ],
    )
    .await?;
    Ok(())
}

pub async fn sign_in(
    tx: &Transaction<'_>,
    holder: BrowserId,
    session: &SessionRow,
    guest: BrowserId,
) -> AppResult<Vec<String>> {
    tx.execute(
        "UPDATE accounts SET failed_logins = 0, locked_until = NULL WHERE holder = $1",
        &[&holder.to_string()],
    )
    .await?;
    insert_session(tx, session).await?;
    adopt(tx, guest, holder).await
}

async fn insert_session(tx: &Transaction<'_>, s: &SessionRow) -> AppResult<()> {
    tx.execute(
        "INSERT INTO sessions (token_hash, holder, created_at, expires_at) VALUES ($1, $2, $3, $4)",
        &[&s.hash, &s.holder.to_string(), &s.created_at, &s.expires_at],
    )
    .await?;
    Ok(())
}

async fn games_of(tx: &Transaction<'_>, who: &str) -> AppResult<Vec<String>> {
    let rows = tx
        .query(
            "SELECT id FROM games WHERE owner = $1
             UNION SELECT game_id FROM online_holders WHERE browser = $1",
            &[&who],
        )
        .await?;
    let mut ids = rows
        .iter()
        .map(|r| r.try_get(0))
        .collect::<Result<Vec<String>, _>>()?;
    ids.sort();
    Ok(ids)
}

/// Gives `to` the games of `from` (owned, and seats held); the ids of the games moved.
async fn adopt(tx: &Transaction<'_>, from: BrowserId, to: BrowserId) -> AppResult<Vec<String>> {
    let (from, to) = (from.to_string(), to.to_string());
    let ids = games_of(tx, &from).await?;
    tx.execute(
        "UPDATE games SET owner = $2 WHERE owner = $1",
        &[&from, &to],
    )
    .await?;
    tx.execute(
        "UPDATE online_holders SET browser = $2 WHERE browser = $1
            AND game_id NOT IN (SELECT game_id FROM online_holders WHERE browser = $2)",
        &[&from, &to],
    )
    .await?;
    tx.execute("DELETE FROM online_holders WHERE browser = $1", &[&from])
        .await?;
    Ok(ids)
}

pub async fn session(
    tx: &Transaction<'_>,
    hash: &str,
    now: i64,
) -> AppResult<Option<(BrowserId, String)>> {
    let Some(r) = tx
        .query_opt(
            "SELECT a.holder, a.username FROM sessions s JOIN accounts a ON a.holder = s.holder
             WHERE s.token_hash = $1 AND s.expires_at > $2",
            &[&hash, &now],
        )
        .await?
    else {
        return Ok(None);
    };
    Ok(Some((
        holder_of(&r.try_get::<_, String>(0)?)?,
        r.try_get(1)?,
    )))
}

pub async fn delete_session(tx: &Transaction<'_>, hash: &str) -> AppResult<bool> {
    Ok(tx
        .execute("DELETE FROM sessions WHERE token_hash = $1", &[&hash])
        .await?
        == 1)
}

pub async fn set_password(
    tx: &Transaction<'_>,
    holder: BrowserId,
    password_hash: &str,
    recovery_hash: Option<&str>,
    session: &SessionRow,
) -> AppResult<()> {
    let h = holder.to_string();
    tx.execute(
        "UPDATE accounts SET password_hash = $2, recovery_hash = COALESCE($3, recovery_hash),
            failed_logins = 0, locked_until = NULL WHERE holder = $1",
        &[&h, &password_hash, &recovery_hash],
    )
    .await?;
    tx.execute("DELETE FROM sessions WHERE holder = $1", &[&h])
        .await?;
    insert_session(tx, session).await
}

pub async fn delete_account(
    tx: &Transaction<'_>,
    holder: BrowserId,
    tombstone: BrowserId,
) -> AppResult<Option<Vec<String>>> {
    let (h, t) = (holder.to_string(), tombstone.to_string());
    if account_by_holder(tx, holder).await?.is_none() {
        return Ok(None);
    }
    let ids = games_of(tx, &h).await?;
    tx.execute(
        "DELETE FROM games WHERE owner = $1 AND mode <> 'online'",
        &[&h],
    )
    .await?;
    tx.execute("UPDATE games SET owner = $2 WHERE owner = $1", &[&h, &t])
        .await?;
    for (color, column) in [("black", "black_name"), ("white", "white_name")] {
        tx.execute(
            &format!(
                "UPDATE online_games SET {column} = $3 WHERE game_id IN
                    (SELECT game_id FROM online_holders WHERE browser = $1 AND color = $2)"
            ),
            &[&h, &color, &ANONYMOUS],
        )
        .await?;
    }
    tx.execute("DELETE FROM online_holders WHERE browser = $1", &[&h])
        .await?;
    // Sessions, ratings and history go with it (ON DELETE CASCADE).
    tx.execute("DELETE FROM accounts WHERE holder = $1", &[&h])
        .await?;
    Ok(Some(ids))
}

fn rating_of(r: &Row, from: usize) -> AppResult<PlayerRating> {
    Ok(PlayerRating {
        rating: Rating::new(r.try_get(from)?, r.try_get(from + 1)?, r.try_get(from + 2)?),
        games: count(r.try_get(from + 3)?)?,
    })
}

fn category_of(name: &str) -> AppResult<Category> {
    Category::from_name(name)
        .ok_or_else(|| AppError::Internal(format!("stored rating category {name:?}")))
}

pub async fn player(tx: &Transaction<'_>, key: &str) -> AppResult<Option<Player>> {
    let Some(a) = tx
        .query_opt(
            "SELECT holder, username, created_at FROM accounts WHERE username_key = $1",
            &[&key],
        )
        .await?
    else {
        return Ok(None);
    };
    let holder: String = a.try_get(0)?;
    let mut ratings = Vec::new();
    for r in &tx
        .query(
            "SELECT category, rating, deviation, volatility, games FROM ratings WHERE holder = $1",
            &[&holder],
        )
        .await?
    {
        ratings.push((category_of(&r.try_get::<_, String>(0)?)?, rating_of(r, 1)?));
    }
    ratings.sort_by_key(|(c, _)| *c);
    let mut history = Vec::new();
    for r in &tx
        .query(
            "SELECT category, game_id, rating, deviation, at FROM rating_history
             WHERE holder = $1 ORDER BY at DESC, game_id COLLATE \"C\" LIMIT $2",
            &[&holder, &(HISTORY_SHOWN as i64)],
        )
        .await?
    {
        history.push(HistoryEntry {
            category: category_of(&r.try_get::<_, String>(0)?)?,
            game: r.try_get(1)?,
            rating: r.try_get(2)?,
            deviation: r.try_get(3)?,
            at: r.try_get(4)?,
        });
    }
    Ok(Some(Player {
        username: a.try_get(1)?,
        created_at: a.try_get(2)?,
        ratings,
        history,
    }))
}

pub(super) async fn current_rating(
    tx: &Transaction<'_>,
    holder: &str,
    category: Category,
) -> AppResult<PlayerRating> {
    match tx
        .query_opt(
            "SELECT rating, deviation, volatility, games FROM ratings
             WHERE holder = $1 AND category = $2",
            &[&holder, &category.name()],
        )
        .await?
    {
        Some(r) => rating_of(&r, 0),
        None => Ok(PlayerRating::NEW),
    }
}

pub(super) async fn write_rating(
    tx: &Transaction<'_>,
    game: &str,
    holder: &str,
    category: Category,
    r: PlayerRating,
    at: i64,
) -> AppResult<()> {
    let values: [&(dyn tokio_postgres::types::ToSql + Sync); 7] = [
        &holder,
        &category.name(),
        &r.rating.rating,
        &r.rating.rd,
        &r.rating.volatility,
        &i64::from(r.games),
        &at,
    ];
    tx.execute(
        "INSERT INTO ratings (holder, category, rating, deviation, volatility, games, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (holder, category) DO UPDATE SET rating = $3, deviation = $4,
            volatility = $5, games = $6, updated_at = $7",
        &values,
    )
    .await?;
    tx.execute(
        "INSERT INTO rating_history (game_id, holder, category, rating, deviation, volatility, at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
        &[
            &game,
            &holder,
            &category.name(),
            &r.rating.rating,
            &r.rating.rd,
            &r.rating.volatility,
            &at,
        ],
    )
    .await?;
    Ok(())
}

/// Within `save`'s transaction: as the SQLite store's `rate_game`. Both players are locked
/// (advisory locks, in a fixed order) so that two of their games ending at once each start from
/// the ratings the other left.
pub async fn rate_game(tx: &Transaction<'_>, rec: &GameRecord, o: &OnlineGame) -> AppResult<()> {
    let Some(out) = rating::outcome(rec, o) else {
        return Ok(());
    };
    let id = &rec.meta.id;
    let (black, white) = (out.black.to_string(), out.white.to_string());
    if black == white {
        return Ok(());
    }
    let mut both = [&black, &white];
    both.sort();
    for h in both {
        tx.execute("SELECT pg_advisory_xact_lock(4, hashtext($1))", &[h])
            .await?;
    }
    let rated_before: bool = tx
        .query_one(
            "SELECT EXISTS (SELECT 1 FROM rating_history WHERE game_id = $1)",
            &[id],
        )
        .await?
        .try_get(0)?;
    let accounts: i64 = tx
        .query_one(
            "SELECT COUNT(*) FROM accounts WHERE holder IN ($1, $2)",
            &[&black, &white],
        )
        .await?
        .try_get(0)?;
    if rated_before || accounts != 2 {
        return Ok(());
    }
    let b = current_rating(tx, &black, out.category).await?;
    let w = current_rating(tx, &white, out.category).await?;
    let (b, w) = rating::after(b, w, out.black_score);
    let at = rec.meta.updated_at;
    write_rating(tx, id, &black, out.category, b, at).await?;
    write_rating(tx, id, &white, out.category, w, at).await
}
