//! Blocks, reports, the admin role, bans and chat-off (`store::safety`), for either database.
//! Every method is one transaction.

use super::super::safety::{
    AccountFlags, BlockRow, Blocked, ChatSides, NewReport, ReportRow, Reported, SafetyStore,
};
use super::super::StoreFuture;
use crate::backend::Backend;
use crate::error::StoreResult;
use crate::exec::{args, Db, Row};
use crate::rows::Cell;
use virada_domain::identity::BrowserId;
use virada_domain::model::online::OnlineGame;
use virada_domain::model::GameRecord;
use virada_rules::Color;

/// Schema version 10: the safety tables. Report ids are given as the largest plus one (under a
/// table lock on PostgreSQL; no sequence: `db copy` writes ids as they are).
pub const MIGRATION: &str = "
    ALTER TABLE accounts ADD COLUMN admin BIGINT NOT NULL DEFAULT 0;
    ALTER TABLE accounts ADD COLUMN banned_at BIGINT;
    ALTER TABLE accounts ADD COLUMN ban_reason TEXT;
    ALTER TABLE accounts ADD COLUMN chat_off BIGINT NOT NULL DEFAULT 0;
    CREATE TABLE blocks (
        blocker    TEXT NOT NULL REFERENCES accounts(holder) ON DELETE CASCADE,
        blocked    TEXT NOT NULL REFERENCES accounts(holder) ON DELETE CASCADE,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (blocker, blocked)
    );
    CREATE INDEX blocks_blocked ON blocks(blocked);
    CREATE TABLE reports (
        id            BIGINT PRIMARY KEY,
        reporter      TEXT REFERENCES accounts(holder) ON DELETE SET NULL,
        player_holder TEXT REFERENCES accounts(holder) ON DELETE SET NULL,
        player        TEXT NOT NULL,
        game_id       TEXT,
        chat_line     BIGINT,
        chat_text     TEXT,
        reason        TEXT NOT NULL,
        created_at    BIGINT NOT NULL,
        resolved_at   BIGINT,
        resolution    TEXT
    );
    CREATE INDEX reports_open ON reports(resolved_at, id);
    CREATE INDEX reports_reporter ON reports(reporter, created_at);
    CREATE TABLE chat_off_games (
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        color   TEXT NOT NULL,
        PRIMARY KEY (game_id, color)
    );";

async fn holder_of(db: &Db<'_>, key: &str) -> StoreResult<Option<(String, String)>> {
    db.query_opt(
        "SELECT holder, username FROM accounts WHERE username_key = $1",
        args![key],
    )
    .await?
    .map(|r| Ok((r.get(0)?, r.get(1)?)))
    .transpose()
}

/// `$first, $first+1, ...`: `n` parameters (a list for `IN (...)`).
fn marks(n: usize, first: usize) -> String {
    (first..first + n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn hexes(ids: &[BrowserId]) -> Vec<String> {
    ids.iter().map(ToString::to_string).collect()
}

async fn any_block(db: &Db<'_>, from: &[BrowserId], to: &[BrowserId]) -> StoreResult<bool> {
    if from.is_empty() || to.is_empty() {
        return Ok(false);
    }
    let sql = format!(
        "SELECT EXISTS (SELECT 1 FROM blocks WHERE blocker IN ({}) AND blocked IN ({}))",
        marks(from.len(), 1),
        marks(to.len(), from.len() + 1)
    );
    let values: Vec<Cell> = hexes(from)
        .into_iter()
        .chain(hexes(to))
        .map(Cell::Text)
        .collect();
    db.value(&sql, &values).await
}

async fn seat_holders(db: &Db<'_>, game: &str) -> StoreResult<(Vec<BrowserId>, Vec<BrowserId>)> {
    let mut seats = (Vec::new(), Vec::new());
    for r in db
        .query(
            "SELECT color, browser FROM online_holders WHERE game_id = $1",
            args![game],
        )
        .await?
    {
        let (color, browser): (String, String) = (r.get(0)?, r.get(1)?);
        if let Some(id) = BrowserId::from_hex(&browser) {
            if color == "black" {
                seats.0.push(id);
            } else {
                seats.1.push(id);
            }
        }
    }
    Ok(seats)
}

async fn any_chat_off(db: &Db<'_>, holders: &[BrowserId]) -> StoreResult<bool> {
    if holders.is_empty() {
        return Ok(false);
    }
    let sql = format!(
        "SELECT EXISTS (SELECT 1 FROM accounts WHERE chat_off <> 0 AND holder IN ({}))",
        marks(holders.len(), 1)
    );
    let values: Vec<Cell> = hexes(holders).into_iter().map(Cell::Text).collect();
    db.value(&sql, &values).await
}

async fn chat_sides(db: &Db<'_>, game: &str, who: BrowserId) -> StoreResult<ChatSides> {
    let (black, white) = seat_holders(db, game).await?;
    let muted: Vec<String> = db
        .query(
            "SELECT color FROM chat_off_games WHERE game_id = $1",
            args![game],
        )
        .await?
        .iter()
        .map(|r| r.get(0))
        .collect::<StoreResult<_>>()?;
    let mut sides = ChatSides {
        seat: if black.contains(&who) {
            Some(Color::Black)
        } else if white.contains(&who) {
            Some(Color::White)
        } else {
            None
        },
        own_setting_off: any_chat_off(db, &[who]).await?,
        ..ChatSides::default()
    };
    for (i, (holders, name)) in [(black, "black"), (white, "white")].into_iter().enumerate() {
        let others: Vec<BrowserId> = holders.iter().copied().filter(|h| *h != who).collect();
        sides.off[i] = muted.iter().any(|m| m == name) || any_chat_off(db, &holders).await?;
        sides.blocked[i] = any_block(db, &[who], &others).await?;
    }
    Ok(sides)
}

fn flags_of(r: &Row) -> StoreResult<AccountFlags> {
    Ok(AccountFlags {
        admin: r.get(0)?,
        banned_at: r.get(1)?,
        ban_reason: r.get(2)?,
        chat_off: r.get(3)?,
    })
}

/// The flags of the account whose `column` is `value`.
async fn flags_where(db: &Db<'_>, column: &str, value: &str) -> StoreResult<Option<AccountFlags>> {
    db.query_opt(
        &format!("SELECT admin, banned_at, ban_reason, chat_off FROM accounts WHERE {column} = $1"),
        args![value],
    )
    .await?
    .as_ref()
    .map(flags_of)
    .transpose()
}

fn report_of(r: &Row) -> StoreResult<ReportRow> {
    Ok(ReportRow {
        id: r.get(0)?,
        reporter: r.get(1)?,
        player: r.get(2)?,
        game: r.get(3)?,
        chat_line: r.get(4)?,
        chat_text: r.get(5)?,
        reason: r.get(6)?,
        created_at: r.get(7)?,
        resolved_at: r.get(8)?,
        resolution: r.get(9)?,
    })
}

async fn insert_report(
    db: &Db<'_>,
    r: &NewReport,
    max: usize,
    since: i64,
) -> StoreResult<Reported> {
    let Some((player_holder, player)) = holder_of(db, &r.player_key).await? else {
        return Ok(Reported::NoSuchPlayer);
    };
    db.postgres_only("LOCK TABLE reports IN EXCLUSIVE MODE", &[])
        .await?;
    let reporter = r.reporter.to_string();
    let made: i64 = db
        .query_one(
            "SELECT COUNT(*) FROM reports WHERE reporter = $1 AND created_at >= $2",
            args![reporter, since],
        )
        .await?
        .get(0)?;
    if made >= max as i64 {
        return Ok(Reported::TooMany);
    }
    let line = r.chat_line.map(i64::from);
    let chat_text: Option<String> = match (&r.game, line) {
        (Some(game), Some(n)) => db
            .query_opt(
                "SELECT text FROM online_chat WHERE game_id = $1 AND n = $2",
                args![game, n],
            )
            .await?
            .map(|row| row.get(0))
            .transpose()?,
        _ => None,
    };
    let id: i64 = db
        .query_one("SELECT COALESCE(MAX(id), 0) + 1 FROM reports", &[])
        .await?
        .get(0)?;
    db.execute(
        "INSERT INTO reports (id, reporter, player_holder, player, game_id, chat_line,
            chat_text, reason, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        args![
            id,
            reporter,
            player_holder,
            player,
            r.game,
            line,
            chat_text,
            r.reason,
            r.at,
        ],
    )
    .await?;
    Ok(Reported::Done(id))
}

impl<B: Backend> SafetyStore for B {
    fn block(
        &self,
        blocker: BrowserId,
        key: &str,
        max: usize,
        at: i64,
    ) -> StoreFuture<'_, Blocked> {
        let key = key.to_string();
        self.write(move |db| Box::pin(async move { Ok({
            match holder_of(db, &key).await? {
                None => Blocked::NoSuchPlayer,
                Some((holder, username)) => {
                    let b = blocker.to_string();
                    // Two blocks by one account at once: the second waits, then counts.
                    db.postgres_only("SELECT pg_advisory_xact_lock(5, hashtext($1))", args![b])
                        .await?;
                    let row = db
                        .query_one(
                            "SELECT COUNT(*), COALESCE(MAX(CASE WHEN blocked = $2 THEN 1 ELSE 0 END), 0)
                             FROM blocks WHERE blocker = $1",
                            args![b, holder],
                        )
                        .await?;
                    let (count, already): (i64, bool) = (row.get(0)?, row.get(1)?);
                    if !already && count >= max as i64 {
                        Blocked::Full
                    } else {
                        db.execute(
                            "INSERT INTO blocks (blocker, blocked, created_at) VALUES ($1, $2, $3)
                             ON CONFLICT (blocker, blocked) DO NOTHING",
                            args![b, holder, at],
                        )
                        .await?;
                        Blocked::Done(username)
                    }
                }
            }
        }) }))
    }

    fn unblock(&self, blocker: BrowserId, key: &str) -> StoreFuture<'_, bool> {
        let key = key.to_string();
        self.write(move |db| {
            Box::pin(async move {
                Ok({
                    db.execute(
                        "DELETE FROM blocks WHERE blocker = $1 AND blocked =
                    (SELECT holder FROM accounts WHERE username_key = $2)",
                        args![blocker.to_string(), key],
                    )
                    .await?
                        == 1
                })
            })
        })
    }

    fn blocks(&self, blocker: BrowserId) -> StoreFuture<'_, Vec<BlockRow>> {
        self.write(move |db| {
            Box::pin(async move {
                Ok({
                    db.query(
                        "SELECT a.username, b.created_at FROM blocks b
                 JOIN accounts a ON a.holder = b.blocked
                 WHERE b.blocker = $1 ORDER BY a.username_key",
                        args![blocker.to_string()],
                    )
                    .await?
                    .iter()
                    .map(|r| {
                        Ok(BlockRow {
                            username: r.get(0)?,
                            at: r.get(1)?,
                        })
                    })
                    .collect::<StoreResult<Vec<_>>>()?
                })
            })
        })
    }

    fn blocked_between(&self, a: Vec<BrowserId>, b: Vec<BrowserId>) -> StoreFuture<'_, bool> {
        self.write(move |db| {
            Box::pin(
                async move { Ok(any_block(db, &a, &b).await? || any_block(db, &b, &a).await?) },
            )
        })
    }

    fn blocks_any(&self, blocker: BrowserId, others: Vec<BrowserId>) -> StoreFuture<'_, bool> {
        self.write(move |db| Box::pin(async move { any_block(db, &[blocker], &others).await }))
    }

    fn seat_holders(&self, game: &str) -> StoreFuture<'_, (Vec<BrowserId>, Vec<BrowserId>)> {
        let game = game.to_string();
        self.write(move |db| Box::pin(async move { seat_holders(db, &game).await }))
    }

    fn insert_report(
        &self,
        report: NewReport,
        max: usize,
        since: i64,
    ) -> StoreFuture<'_, Reported> {
        self.write(move |db| Box::pin(async move { insert_report(db, &report, max, since).await }))
    }

    fn reports(&self, open_only: bool, limit: usize) -> StoreFuture<'_, Vec<ReportRow>> {
        let filter = if open_only {
            "WHERE r.resolved_at IS NULL"
        } else {
            ""
        };
        self.write(move |db| {
            Box::pin(async move {
                Ok({
                    db.query(
                        &format!(
                    "SELECT r.id, a.username, r.player, r.game_id, r.chat_line, r.chat_text,
                        r.reason, r.created_at, r.resolved_at, r.resolution
                     FROM reports r LEFT JOIN accounts a ON a.holder = r.reporter
                     {filter} ORDER BY r.id LIMIT $1"
                ),
                        args![limit as i64],
                    )
                    .await?
                    .iter()
                    .map(report_of)
                    .collect::<StoreResult<Vec<_>>>()?
                })
            })
        })
    }

    fn resolve_report(&self, id: i64, note: String, at: i64) -> StoreFuture<'_, bool> {
        self.write(move |db| {
            Box::pin(async move {
                Ok({
                    db.execute(
                        "UPDATE reports SET resolved_at = $2, resolution = $3
                 WHERE id = $1 AND resolved_at IS NULL",
                        args![id, at, note],
                    )
                    .await?
                        == 1
                })
            })
        })
    }

    fn flags_by_name(&self, key: &str) -> StoreFuture<'_, Option<AccountFlags>> {
        let key = key.to_string();
        self.write(move |db| Box::pin(async move { flags_where(db, "username_key", &key).await }))
    }

    fn flags(&self, holder: BrowserId) -> StoreFuture<'_, Option<AccountFlags>> {
        let holder = holder.to_string();
        self.write(move |db| Box::pin(async move { flags_where(db, "holder", &holder).await }))
    }

    fn set_admin(&self, key: &str, admin: bool) -> StoreFuture<'_, bool> {
        let key = key.to_string();
        self.write(move |db| {
            Box::pin(async move {
                Ok({
                    db.execute(
                        "UPDATE accounts SET admin = $2 WHERE username_key = $1",
                        args![key, i64::from(admin)],
                    )
                    .await?
                        == 1
                })
            })
        })
    }

    fn set_ban(&self, key: &str, ban: Option<String>, at: i64) -> StoreFuture<'_, bool> {
        let key = key.to_string();
        self.write(move |db| {
            Box::pin(async move {
                Ok({
                    match holder_of(db, &key).await? {
                        None => false,
                        Some((holder, _)) => {
                            let banned_at = ban.as_ref().map(|_| at);
                            db.execute(
                        "UPDATE accounts SET banned_at = $2, ban_reason = $3 WHERE holder = $1",
                        args![holder, banned_at, ban],
                    )
                    .await?;
                            if ban.is_some() {
                                db.execute("DELETE FROM sessions WHERE holder = $1", args![holder])
                                    .await?;
                            }
                            true
                        }
                    }
                })
            })
        })
    }

    fn set_game_chat_off(&self, game: &str, color: Color, off: bool) -> StoreFuture<'_, ()> {
        let game = game.to_string();
        let color = crate::columns::color_text(color);
        self.write(move |db| {
            Box::pin(async move {
                let sql = if off {
                    "INSERT INTO chat_off_games (game_id, color) VALUES ($1, $2)
                     ON CONFLICT (game_id, color) DO NOTHING"
                } else {
                    "DELETE FROM chat_off_games WHERE game_id = $1 AND color = $2"
                };
                db.execute(sql, args![game, color]).await.map(drop)
            })
        })
    }

    fn chat_sides(&self, game: &str, who: BrowserId) -> StoreFuture<'_, ChatSides> {
        let game = game.to_string();
        self.write(move |db| Box::pin(async move { chat_sides(db, &game, who).await }))
    }

    fn set_chat_off(&self, holder: BrowserId, off: bool) -> StoreFuture<'_, ()> {
        self.write(move |db| {
            Box::pin(async move {
                db.execute(
                    "UPDATE accounts SET chat_off = $2 WHERE holder = $1",
                    args![holder.to_string(), i64::from(off)],
                )
                .await
                .map(drop)
            })
        })
    }
}

/// Within `save`'s transaction: if this change ends a rated game against a bot with a result
/// (`bots::outcome`) that was not rated yet, the player's rating moves against the bot's fixed
/// one (`bots::after`) and the change is kept in their history; the bot has no row. On
/// PostgreSQL the player is locked (the advisory lock of `accounts::rate_game`) so that two of
/// their games ending at once each start from the rating the other left.
pub async fn rate_bot_game(db: &Db<'_>, rec: &GameRecord, o: &OnlineGame) -> StoreResult<()> {
    let Some(out) = virada_domain::bots::outcome(rec, o) else {
        return Ok(());
    };
    let id = &rec.meta.id;
    let player = out.player.to_string();
    db.postgres_only(
        "SELECT pg_advisory_xact_lock(4, hashtext($1))",
        args![player],
    )
    .await?;
    let row = db
        .query_one(
            "SELECT EXISTS (SELECT 1 FROM rating_history WHERE game_id = $1),
                EXISTS (SELECT 1 FROM accounts WHERE holder = $2)",
            args![id, player],
        )
        .await?;
    let (rated_before, account): (bool, bool) = (row.get(0)?, row.get(1)?);
    if rated_before || !account {
        return Ok(());
    }
    let before = super::accounts::current_rating(db, &player, out.category).await?;
    let after = virada_domain::bots::after(before, &out);
    super::accounts::write_rating(db, id, &player, out.category, after, rec.meta.updated_at).await
}
