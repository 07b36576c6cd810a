//! Accounts, sessions and game ratings (schema version 7). Every function runs inside the
//! transaction its caller opened.

use crate::accounts::AccountStore;
use crate::accounts::{name_key, AccountRow, HistoryEntry, NewAccount, Player, SessionRow};
use crate::accounts::{ANONYMOUS, HISTORY_SHOWN};
use crate::backend::Backend;
use crate::error::{StoreError, StoreResult};
use crate::exec::{args, Db, Row};
use crate::StoreFuture;
use virada_domain::identity::BrowserId;
use virada_domain::model::online::OnlineGame;
use virada_domain::model::GameRecord;
use virada_domain::rating::{self, Category, PlayerRating};
use virada_engine::glicko::Rating;

/// Schema version 7.
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

fn holder_of(hex: &str) -> StoreResult<BrowserId> {
    BrowserId::from_hex(hex)
        .ok_or_else(|| StoreError::Db(format!("stored account identity {hex:?}")))
}

fn count(n: i64) -> StoreResult<u32> {
    u32::try_from(n).map_err(|_| StoreError::Db(format!("stored count {n}")))
}

fn account_of(r: &Row) -> StoreResult<AccountRow> {
    Ok(AccountRow {
        holder: holder_of(&r.get::<String>(0)?)?,
        username: r.get(1)?,
        password_hash: r.get(2)?,
        recovery_hash: r.get(3)?,
        created_at: r.get(4)?,
        failed_logins: count(r.get(5)?)?,
        locked_until: r.get(6)?,
    })
}

pub async fn create_account(
    db: &Db<'_>,
    a: &NewAccount,
    session: &SessionRow,
    guest: BrowserId,
) -> StoreResult<Vec<String>> {
    let key = name_key(&a.username);
    // Two sign-ups for one name at once: the second waits here, then finds it taken.
    db.postgres_only("SELECT pg_advisory_xact_lock(3, hashtext($1))", args![key])
        .await?;
    let taken = db
        .query_opt("SELECT 1 FROM accounts WHERE username_key = $1", args![key])
        .await?
        .is_some();
    if taken {
        return Err(StoreError::UsernameTaken(a.username.clone()));
    }
    db.execute(
        "INSERT INTO accounts (holder, username, username_key, password_hash, recovery_hash,
            created_at) VALUES ($1, $2, $3, $4, $5, $6)",
        args![
            a.holder.to_string(),
            a.username,
            key,
            a.password_hash,
            a.recovery_hash,
            a.created_at,
        ],
    )
    .await?;
    insert_session(db, session).await?;
    // The guest's puzzle rating comes along too.
    super::puzzles::give_to_account(db, guest, a.holder).await?;
    adopt(db, guest, a.holder).await
}

pub async fn account_by_name(db: &Db<'_>, key: &str) -> StoreResult<Option<AccountRow>> {
    db.query_opt(
        &format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE username_key = $1"),
        args![key],
    )
    .await?
    .as_ref()
    .map(account_of)
    .transpose()
}

pub async fn account_by_holder(db: &Db<'_>, holder: BrowserId) -> StoreResult<Option<AccountRow>> {
    db.query_opt(
        &format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE holder = $1"),
        args![holder.to_string()],
    )
    .await?
    .as_ref()
    .map(account_of)
    .transpose()
}

pub async fn login_failed(
    db: &Db<'_>,
    holder: BrowserId,
    now: i64,
    max_failures: u32,
    lock_ms: i64,
) -> StoreResult<()> {
    // One statement: concurrent failures each count (the row is locked while it changes).
    db.execute(
        "UPDATE accounts SET
            failed_logins = CASE WHEN failed_logins + 1 >= $3 THEN 0 ELSE failed_logins + 1 END,
            locked_until = CASE WHEN failed_logins + 1 >= $3 THEN $2 ELSE locked_until END
         WHERE holder = $1",
        args![holder.to_string(), now + lock_ms, i64::from(max_failures),],
    )
    .await?;
    Ok(())
}

pub async fn sign_in(
    db: &Db<'_>,
    holder: BrowserId,
    session: &SessionRow,
    guest: BrowserId,
) -> StoreResult<Vec<String>> {
    db.execute(
        "UPDATE accounts SET failed_logins = 0, locked_until = NULL WHERE holder = $1",
        args![holder.to_string()],
    )
    .await?;
    insert_session(db, session).await?;
    adopt(db, guest, holder).await
}

async fn insert_session(db: &Db<'_>, s: &SessionRow) -> StoreResult<()> {
    db.execute(
        "INSERT INTO sessions (token_hash, holder, created_at, expires_at) VALUES ($1, $2, $3, $4)",
        args![s.hash, s.holder.to_string(), s.created_at, s.expires_at],
    )
    .await?;
    Ok(())
}

async fn games_of(db: &Db<'_>, who: &str) -> StoreResult<Vec<String>> {
    let rows = db
        .query(
            "SELECT id FROM games WHERE owner = $1
             UNION SELECT game_id FROM online_holders WHERE browser = $1",
            args![who],
        )
        .await?;
    let mut ids = rows
        .iter()
        .map(|r| r.get(0))
        .collect::<Result<Vec<String>, _>>()?;
    ids.sort();
    Ok(ids)
}

/// Gives `to` the games of `from` (owned, and seats held); the ids of the games moved.
async fn adopt(db: &Db<'_>, from: BrowserId, to: BrowserId) -> StoreResult<Vec<String>> {
    let (from, to) = (from.to_string(), to.to_string());
    let ids = games_of(db, &from).await?;
    db.execute(
        "UPDATE games SET owner = $2 WHERE owner = $1",
        args![from, to],
    )
    .await?;
    db.execute(
        "UPDATE online_holders SET browser = $2 WHERE browser = $1
            AND game_id NOT IN (SELECT game_id FROM online_holders WHERE browser = $2)",
        args![from, to],
    )
    .await?;
    db.execute("DELETE FROM online_holders WHERE browser = $1", args![from])
        .await?;
    Ok(ids)
}

pub async fn session(
    db: &Db<'_>,
    hash: &str,
    now: i64,
) -> StoreResult<Option<(BrowserId, String)>> {
    let Some(r) = db
        .query_opt(
            "SELECT a.holder, a.username FROM sessions s JOIN accounts a ON a.holder = s.holder
             WHERE s.token_hash = $1 AND s.expires_at > $2",
            args![hash, now],
        )
        .await?
    else {
        return Ok(None);
    };
    Ok(Some((holder_of(&r.get::<String>(0)?)?, r.get(1)?)))
}

pub async fn delete_session(db: &Db<'_>, hash: &str) -> StoreResult<bool> {
    Ok(db
        .execute("DELETE FROM sessions WHERE token_hash = $1", args![hash])
        .await?
        == 1)
}

pub async fn set_password(
    db: &Db<'_>,
    holder: BrowserId,
    password_hash: &str,
    recovery_hash: Option<&str>,
    session: &SessionRow,
) -> StoreResult<()> {
    let h = holder.to_string();
    db.execute(
        "UPDATE accounts SET password_hash = $2, recovery_hash = COALESCE($3, recovery_hash),
            failed_logins = 0, locked_until = NULL WHERE holder = $1",
        args![h, password_hash, recovery_hash],
    )
    .await?;
    db.execute("DELETE FROM sessions WHERE holder = $1", args![h])
        .await?;
    insert_session(db, session).await
}

pub async fn delete_account(
    db: &Db<'_>,
    holder: BrowserId,
    tombstone: BrowserId,
) -> StoreResult<Option<Vec<String>>> {
    let (h, t) = (holder.to_string(), tombstone.to_string());
    if account_by_holder(db, holder).await?.is_none() {
        return Ok(None);
    }
    let ids = games_of(db, &h).await?;
    db.execute(
        "DELETE FROM games WHERE owner = $1 AND mode <> 'online'",
        args![h],
    )
    .await?;
    db.execute("UPDATE games SET owner = $2 WHERE owner = $1", args![h, t])
        .await?;
    for (color, column) in [("black", "black_name"), ("white", "white_name")] {
        db.execute(
            &format!(
                "UPDATE online_games SET {column} = $3 WHERE game_id IN
                    (SELECT game_id FROM online_holders WHERE browser = $1 AND color = $2)"
            ),
            args![h, color, ANONYMOUS],
        )
        .await?;
    }
    db.execute("DELETE FROM online_holders WHERE browser = $1", args![h])
        .await?;
    // Sessions, ratings and history go with it (ON DELETE CASCADE).
    db.execute("DELETE FROM accounts WHERE holder = $1", args![h])
        .await?;
    Ok(Some(ids))
}

fn rating_of(r: &Row, from: usize) -> StoreResult<PlayerRating> {
    Ok(PlayerRating {
        rating: Rating::new(r.get(from)?, r.get(from + 1)?, r.get(from + 2)?),
        games: count(r.get(from + 3)?)?,
    })
}

fn category_of(name: &str) -> StoreResult<Category> {
    Category::from_name(name)
        .ok_or_else(|| StoreError::Db(format!("stored rating category {name:?}")))
}

pub async fn player(db: &Db<'_>, key: &str) -> StoreResult<Option<Player>> {
    let Some(a) = db
        .query_opt(
            "SELECT holder, username, created_at FROM accounts WHERE username_key = $1",
            args![key],
        )
        .await?
    else {
        return Ok(None);
    };
    let holder: String = a.get(0)?;
    let mut ratings = Vec::new();
    for r in &db
        .query(
            "SELECT category, rating, deviation, volatility, games FROM ratings WHERE holder = $1",
            args![holder],
        )
        .await?
    {
        ratings.push((category_of(&r.get::<String>(0)?)?, rating_of(r, 1)?));
    }
    ratings.sort_by_key(|(c, _)| *c);
    let mut history = Vec::new();
    for r in &db
        .query(
            "SELECT category, game_id, rating, deviation, at FROM rating_history
             WHERE holder = $1 ORDER BY at DESC, game_id COLLATE \"C\" LIMIT $2",
            args![holder, HISTORY_SHOWN as i64],
        )
        .await?
    {
        history.push(HistoryEntry {
            category: category_of(&r.get::<String>(0)?)?,
            game: r.get(1)?,
            rating: r.get(2)?,
            deviation: r.get(3)?,
            at: r.get(4)?,
        });
    }
    Ok(Some(Player {
        username: a.get(1)?,
        created_at: a.get(2)?,
        ratings,
        history,
    }))
}

pub(super) async fn current_rating(
    db: &Db<'_>,
    holder: &str,
    category: Category,
) -> StoreResult<PlayerRating> {
    match db
        .query_opt(
            "SELECT rating, deviation, volatility, games FROM ratings
             WHERE holder = $1 AND category = $2",
            args![holder, category.name()],
        )
        .await?
    {
        Some(r) => rating_of(&r, 0),
        None => Ok(PlayerRating::NEW),
    }
}

pub(super) async fn write_rating(
    db: &Db<'_>,
    game: &str,
    holder: &str,
    category: Category,
    r: PlayerRating,
    at: i64,
) -> StoreResult<()> {
    db.execute(
        "INSERT INTO ratings (holder, category, rating, deviation, volatility, games, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (holder, category) DO UPDATE SET rating = $3, deviation = $4,
            volatility = $5, games = $6, updated_at = $7",
        args![
            holder,
            category.name(),
            r.rating.rating,
            r.rating.rd,
            r.rating.volatility,
            r.games,
            at,
        ],
    )
    .await?;
    db.execute(
        "INSERT INTO rating_history (game_id, holder, category, rating, deviation, volatility, at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
        args![
            game,
            holder,
            category.name(),
            r.rating.rating,
            r.rating.rd,
            r.rating.volatility,
            at,
        ],
    )
    .await?;
    Ok(())
}

/// Within `save`'s transaction: if this change ends a rated game with a result
/// ([`rating::outcome`]) that was not rated yet, both players' ratings move
/// ([`rating::after`]) and the change is kept in their history. On PostgreSQL both players are
/// locked (advisory locks, in a fixed order) so that two of their games ending at once each
/// start from the ratings the other left.
pub async fn rate_game(db: &Db<'_>, rec: &GameRecord, o: &OnlineGame) -> StoreResult<()> {
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
        db.postgres_only("SELECT pg_advisory_xact_lock(4, hashtext($1))", args![h])
            .await?;
    }
    let rated_before: bool = db
        .query_one(
            "SELECT EXISTS (SELECT 1 FROM rating_history WHERE game_id = $1)",
            args![id],
        )
        .await?
        .get(0)?;
    let accounts: i64 = db
        .query_one(
            "SELECT COUNT(*) FROM accounts WHERE holder IN ($1, $2)",
            args![black, white],
        )
        .await?
        .get(0)?;
    if rated_before || accounts != 2 {
        return Ok(());
    }
    if super::feeding::pair_is_full(db, rec, &black, &white, out.black_score).await? {
        return Ok(());
    }
    let b = current_rating(db, &black, out.category).await?;
    let w = current_rating(db, &white, out.category).await?;
    let (b, w) = rating::after(b, w, out.black_score);
    let at = rec.meta.updated_at;
    write_rating(db, id, &black, out.category, b, at).await?;
    write_rating(db, id, &white, out.category, w, at).await
}

impl<B: Backend> AccountStore for B {
    fn create_account(
        &self,
        account: NewAccount,
        session: SessionRow,
        guest: BrowserId,
    ) -> StoreFuture<'_, Vec<String>> {
        self.write(move |db| {
            Box::pin(async move { create_account(db, &account, &session, guest).await })
        })
    }

    fn account_by_name(&self, key: &str) -> StoreFuture<'_, Option<AccountRow>> {
        let key = key.to_string();
        self.write(move |db| Box::pin(async move { account_by_name(db, &key).await }))
    }

    fn account_by_holder(&self, holder: BrowserId) -> StoreFuture<'_, Option<AccountRow>> {
        self.write(move |db| Box::pin(async move { account_by_holder(db, holder).await }))
    }

    fn login_failed(
        &self,
        holder: BrowserId,
        now: i64,
        max_failures: u32,
        lock_ms: i64,
    ) -> StoreFuture<'_, ()> {
        self.write(move |db| {
            Box::pin(async move { login_failed(db, holder, now, max_failures, lock_ms).await })
        })
    }

    fn sign_in(
        &self,
        holder: BrowserId,
        session: SessionRow,
        guest: BrowserId,
    ) -> StoreFuture<'_, Vec<String>> {
        self.write(move |db| Box::pin(async move { sign_in(db, holder, &session, guest).await }))
    }

    fn session(&self, hash: &str, now: i64) -> StoreFuture<'_, Option<(BrowserId, String)>> {
        let hash = hash.to_string();
        self.write(move |db| Box::pin(async move { session(db, &hash, now).await }))
    }

    fn delete_session(&self, hash: &str) -> StoreFuture<'_, bool> {
        let hash = hash.to_string();
        self.write(move |db| Box::pin(async move { delete_session(db, &hash).await }))
    }

    fn set_password(
        &self,
        holder: BrowserId,
        password_hash: String,
        recovery_hash: Option<String>,
        session: SessionRow,
    ) -> StoreFuture<'_, ()> {
        self.write(move |db| {
            Box::pin(async move {
                set_password(
                    db,
                    holder,
                    &password_hash,
                    recovery_hash.as_deref(),
                    &session,
                )
                .await
            })
        })
    }

    fn delete_account(
        &self,
        holder: BrowserId,
        tombstone: BrowserId,
    ) -> StoreFuture<'_, Option<Vec<String>>> {
        self.write(move |db| Box::pin(async move { delete_account(db, holder, tombstone).await }))
    }

    fn player(&self, key: &str) -> StoreFuture<'_, Option<Player>> {
        let key = key.to_string();
        self.read(move |db| Box::pin(async move { player(db, &key).await }))
    }
}
