//! Blocks, reports, the admin role, bans and chat-off in PostgreSQL, the SQLite store's tables
//! in this dialect (`store::safety`). Every method is one transaction.

use super::super::safety::{
    AccountFlags, BlockRow, Blocked, ChatSides, NewReport, ReportRow, Reported, SafetyStore,
};
use super::super::StoreFuture;
use super::PgStore;
use crate::error::{AppError, AppResult};
use crate::identity::BrowserId;
use crate::model::online::OnlineGame;
use crate::model::GameRecord;
use tokio_postgres::{Row, Transaction};
use virada_rules::Color;

/// The safety tables (see the SQLite store's). Report ids are given as the largest plus one
/// under a table lock (no sequence: `db copy` writes ids as they are).
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

async fn holder_of(tx: &Transaction<'_>, key: &str) -> AppResult<Option<(String, String)>> {
    Ok(tx
        .query_opt(
            "SELECT holder, username FROM accounts WHERE username_key = $1",
            &[&key],
        )
        .await?
        .map(|r| (r.get(0), r.get(1))))
}

fn hexes(ids: &[BrowserId]) -> Vec<String> {
    ids.iter().map(ToString::to_string).collect()
}

async fn any_block(tx: &Transaction<'_>, from: &[BrowserId], to: &[BrowserId]) -> AppResult<bool> {
    if from.is_empty() || to.is_empty() {
        return Ok(false);
    }
    Ok(tx
        .query_one(
            "SELECT EXISTS (SELECT 1 FROM blocks WHERE blocker = ANY($1) AND blocked = ANY($2))",
            &[&hexes(from), &hexes(to)],
        )
        .await?
        .get(0))
}

async fn seat_holders(
    tx: &Transaction<'_>,
    game: &str,
) -> AppResult<(Vec<BrowserId>, Vec<BrowserId>)> {
    let mut seats = (Vec::new(), Vec::new());
    for r in tx
        .query(
            "SELECT color, browser FROM online_holders WHERE game_id = $1",
            &[&game],
        )
        .await?
    {
        let (color, browser): (String, String) = (r.get(0), r.get(1));
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

async fn any_chat_off(tx: &Transaction<'_>, holders: &[BrowserId]) -> AppResult<bool> {
    if holders.is_empty() {
        return Ok(false);
    }
    Ok(tx
        .query_one(
            "SELECT EXISTS (SELECT 1 FROM accounts WHERE chat_off <> 0 AND holder = ANY($1))",
            &[&hexes(holders)],
        )
        .await?
        .get(0))
}

async fn chat_sides(tx: &Transaction<'_>, game: &str, who: BrowserId) -> AppResult<ChatSides> {
    let (black, white) = seat_holders(tx, game).await?;
    let muted: Vec<String> = tx
        .query(
            "SELECT color FROM chat_off_games WHERE game_id = $1",
            &[&game],
        )
        .await?
        .iter()
        .map(|r| r.get(0))
        .collect();
    let mut sides = ChatSides {
        seat: if black.contains(&who) {
            Some(Color::Black)
        } else if white.contains(&who) {
            Some(Color::White)
        } else {
            None
        },
        own_setting_off: any_chat_off(tx, &[who]).await?,
        ..ChatSides::default()
    };
    for (i, (holders, name)) in [(black, "black"), (white, "white")].into_iter().enumerate() {
        let others: Vec<BrowserId> = holders.iter().copied().filter(|h| *h != who).collect();
        sides.off[i] = muted.iter().any(|m| m == name) || any_chat_off(tx, &holders).await?;
        sides.blocked[i] = any_block(tx, &[who], &others).await?;
    }
    Ok(sides)
}

fn flags_of(r: &Row) -> AccountFlags {
    AccountFlags {
        admin: r.get::<_, i64>(0) != 0,
        banned_at: r.get(1),
        ban_reason: r.get(2),
        chat_off: r.get::<_, i64>(3) != 0,
    }
}

fn report_of(r: &Row) -> AppResult<ReportRow> {
    let line: Option<i64> = r.get(4);
    Ok(ReportRow {
        id: r.get(0),
        reporter: r.get(1),
        player: r.get(2),
        game: r.get(3),
        chat_line: line
            .map(|n| u32::try_from(n).map_err(|_| AppError::Internal(format!("chat line {n}"))))
            .transpose()?,
        chat_text: r.get(5),
        reason: r.get(6),
        created_at: r.get(7),
        resolved_at: r.get(8),
        resolution: r.get(9),
    })
}

async fn insert_report(
    tx: &Transaction<'_>,
    r: &NewReport,
    max: usize,
    since: i64,
) -> AppResult<Reported> {
    let Some((player_holder, player)) = holder_of(tx, &r.player_key).await? else {
        return Ok(Reported::NoSuchPlayer);
    };
    tx.batch_execute("LOCK TABLE reports IN EXCLUSIVE MODE")
        .await?;
    let reporter = r.reporter.to_string();
    let made: i64 = tx
        .query_one(
            "SELECT COUNT(*) FROM reports WHERE reporter = $1 AND created_at >= $2",
            &[&reporter, &since],
        )
        .await?
        .get(0);
    if made >= max as i64 {
        return Ok(Reported::TooMany);
    }
    let line = r.chat_line.map(i64::from);
    let chat_text: Option<String> = match (&r.game, line) {
        (Some(game), Some(n)) => tx
            .query_opt(
                "SELECT text FROM online_chat WHERE game_id = $1 AND n = $2",
                &[game, &n],
            )
            .await?
            .map(|row| row.get(0)),
        _ => None,
    };
    let id: i64 = tx
        .query_one("SELECT COALESCE(MAX(id), 0) + 1 FROM reports", &[])
        .await?
        .get(0);
    tx.execute(
        "INSERT INTO reports (id, reporter, player_holder, player, game_id, chat_line,
            chat_text, reason, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        &[
            &id,
            &reporter,
            &player_holder,
            &player,
            &r.game,
            &line,
            &chat_text,
            &r.reason,
            &r.at,
        ],
    )
    .await?;
    Ok(Reported::Done(id))
}

/// `$body` (using `$tx`) in one transaction of `$store`, committed when it succeeded.
macro_rules! tx {
    ($store:expr, |$tx:ident| $body:expr) => {
        Box::pin(async move {
            let mut client = $store.pool.get().await?;
            let $tx = client.transaction().await?;
            let out = $body;
            $tx.commit().await?;
            Ok::<_, AppError>(out)
        })
    };
}

impl SafetyStore for PgStore {
    fn block(
        &self,
        blocker: BrowserId,
        key: &str,
        max: usize,
        at: i64,
    ) -> StoreFuture<'_, Blocked> {
        let key = key.to_string();
        tx!(self, |tx| {
            match holder_of(&tx, &key).await? {
                None => Blocked::NoSuchPlayer,
                Some((holder, username)) => {
                    let b = blocker.to_string();
                    // Two blocks by one account at once: the second waits, then counts.
                    tx.execute("SELECT pg_advisory_xact_lock(5, hashtext($1))", &[&b])
                        .await?;
                    let row = tx
                        .query_one(
                            "SELECT COUNT(*), COALESCE(BOOL_OR(blocked = $2), FALSE)
                             FROM blocks WHERE blocker = $1",
                            &[&b, &holder],
                        )
                        .await?;
                    let (count, already): (i64, bool) = (row.get(0), row.get(1));
                    if !already && count >= max as i64 {
                        Blocked::Full
                    } else {
                        tx.execute(
                            "INSERT INTO blocks (blocker, blocked, created_at) VALUES ($1, $2, $3)
                             ON CONFLICT (blocker, blocked) DO NOTHING",
                            &[&b, &holder, &at],
                        )
                        .await?;
                        Blocked::Done(username)
                    }
                }
            }
        })
    }

    fn unblock(&self, blocker: BrowserId, key: &str) -> StoreFuture<'_, bool> {
        let key = key.to_string();
        tx!(self, |tx| {
            tx.execute(
                "DELETE FROM blocks WHERE blocker = $1 AND blocked =
                    (SELECT holder FROM accounts WHERE username_key = $2)",
                &[&blocker.to_string(), &key],
            )
            .await?
                == 1
        })
    }

    fn blocks(&self, blocker: BrowserId) -> StoreFuture<'_, Vec<BlockRow>> {
        tx!(self, |tx| {
            tx.query(
                "SELECT a.username, b.created_at FROM blocks b
                 JOIN accounts a ON a.holder = b.blocked
                 WHERE b.blocker = $1 ORDER BY a.username_key",
                &[&blocker.to_string()],
            )
            .await?
            .iter()
            .map(|r| BlockRow {
                username: r.get(0),
                at: r.get(1),
            })
            .collect::<Vec<_>>()
        })
    }

    fn blocked_between(&self, a: Vec<BrowserId>, b: Vec<BrowserId>) -> StoreFuture<'_, bool> {
        tx!(self, |tx| any_block(&tx, &a, &b).await?
            || any_block(&tx, &b, &a).await?)
    }

    fn blocks_any(&self, blocker: BrowserId, others: Vec<BrowserId>) -> StoreFuture<'_, bool> {
        tx!(self, |tx| any_block(&tx, &[blocker], &others).await?)
    }

    fn seat_holders(&self, game: &str) -> StoreFuture<'_, (Vec<BrowserId>, Vec<BrowserId>)> {
        let game = game.to_string();
        tx!(self, |tx| seat_holders(&tx, &game).await?)
    }

    fn insert_report(
        &self,
        report: NewReport,
        max: usize,
        since: i64,
    ) -> StoreFuture<'_, Reported> {
        tx!(self, |tx| insert_report(&tx, &report, max, since).await?)
    }

    fn reports(&self, open_only: bool, limit: usize) -> StoreFuture<'_, Vec<ReportRow>> {
        let filter = if open_only {
            "WHERE r.resolved_at IS NULL"
        } else {
            ""
        };
        tx!(self, |tx| {
            tx.query(
                &format!(
                    "SELECT r.id, a.username, r.player, r.game_id, r.chat_line, r.chat_text,
                        r.reason, r.created_at, r.resolved_at, r.resolution
                     FROM reports r LEFT JOIN accounts a ON a.holder = r.reporter
                     {filter} ORDER BY r.id LIMIT $1"
                ),
                &[&(limit as i64)],
            )
            .await?
            .iter()
            .map(report_of)
            .collect::<AppResult<Vec<_>>>()?
        })
    }

    fn resolve_report(&self, id: i64, note: String, at: i64) -> StoreFuture<'_, bool> {
        tx!(self, |tx| {
            tx.execute(
                "UPDATE reports SET resolved_at = $2, resolution = $3
                 WHERE id = $1 AND resolved_at IS NULL",
                &[&id, &at, &note],
            )
            .await?
                == 1
        })
    }

    fn flags_by_name(&self, key: &str) -> StoreFuture<'_, Option<AccountFlags>> {
        let key = key.to_string();
        tx!(self, |tx| tx
            .query_opt(
                "SELECT admin, banned_at, ban_reason, chat_off FROM accounts
                 WHERE username_key = $1",
                &[&key],
            )
            .await?
            .as_ref()
            .map(flags_of))
    }

    fn flags(&self, holder: BrowserId) -> StoreFuture<'_, Option<AccountFlags>> {
        tx!(self, |tx| tx
            .query_opt(
                "SELECT admin, banned_at, ban_reason, chat_off FROM accounts WHERE holder = $1",
                &[&holder.to_string()],
            )
            .await?
            .as_ref()
            .map(flags_of))
    }

    fn set_admin(&self, key: &str, admin: bool) -> StoreFuture<'_, bool> {
        let key = key.to_string();
        tx!(self, |tx| {
            tx.execute(
                "UPDATE accounts SET admin = $2 WHERE username_key = $1",
                &[&key, &i64::from(admin)],
            )
            .await?
                == 1
        })
    }

    fn set_ban(&self, key: &str, ban: Option<String>, at: i64) -> StoreFuture<'_, bool> {
        let key = key.to_string();
        tx!(self, |tx| {
            match holder_of(&tx, &key).await? {
                None => false,
                Some((holder, _)) => {
                    let banned_at = ban.as_ref().map(|_| at);
                    tx.execute(
                        "UPDATE accounts SET banned_at = $2, ban_reason = $3 WHERE holder = $1",
                        &[&holder, &banned_at, &ban],
                    )
                    .await?;
                    if ban.is_some() {
                        tx.execute("DELETE FROM sessions WHERE holder = $1", &[&holder])
                            .await?;
                    }
                    true
                }
            }
        })
    }

    fn set_game_chat_off(&self, game: &str, color: Color, off: bool) -> StoreFuture<'_, ()> {
        let game = game.to_string();
        let color = crate::store::columns::color_text(color);
        tx!(self, |tx| {
            if off {
                tx.execute(
                    "INSERT INTO chat_off_games (game_id, color) VALUES ($1, $2)
                     ON CONFLICT (game_id, color) DO NOTHING",
                    &[&game, &color],
                )
                .await?;
            } else {
                tx.execute(
                    "DELETE FROM chat_off_games WHERE game_id = $1 AND color = $2",
                    &[&game, &color],
                )
                .await?;
            }
        })
    }

    fn chat_sides(&self, game: &str, who: BrowserId) -> StoreFuture<'_, ChatSides> {
        let game = game.to_string();
        tx!(self, |tx| chat_sides(&tx, &game, who).await?)
    }

    fn set_chat_off(&self, holder: BrowserId, off: bool) -> StoreFuture<'_, ()> {
        tx!(self, |tx| {
            tx.execute(
                "UPDATE accounts SET chat_off = $2 WHERE holder = $1",
                &[&holder.to_string(), &i64::from(off)],
            )
            .await?;
        })
    }
}

/// Within `save`'s transaction: as the SQLite store's `rate_bot_game`; the player is locked
/// (the advisory lock of `accounts::rate_game`) so that two of their games ending at once each
/// start from the rating the other left.
pub async fn rate_bot_game(
    tx: &Transaction<'_>,
    rec: &GameRecord,
    o: &OnlineGame,
) -> AppResult<()> {
    let Some(out) = crate::bots::outcome(rec, o) else {
        return Ok(());
    };
    let id = &rec.meta.id;
    let player = out.player.to_string();
    tx.execute("SELECT pg_advisory_xact_lock(4, hashtext($1))", &[&player])
        .await?;
    let row = tx
        .query_one(
            "SELECT EXISTS (SELECT 1 FROM rating_history WHERE game_id = $1),
                EXISTS (SELECT 1 FROM accounts WHERE holder = $2)",
            &[id, &player],
        )
        .await?;
    let (rated_before, account): (bool, bool) = (row.try_get(0)?, row.try_get(1)?);
    if rated_before || !account {
        return Ok(());
    }
    let before = super::accounts::current_rating(tx, &player, out.category).await?;
    let after = crate::bots::after(before, &out);
    super::accounts::write_rating(tx, id, &player, out.category, after, rec.meta.updated_at).await
}
