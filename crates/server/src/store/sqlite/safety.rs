//! Blocks, reports, the admin role, bans and chat-off in SQLite (`store::safety`). Every
//! method is one transaction.

use super::super::safety::{
    AccountFlags, BlockRow, Blocked, ChatSides, NewReport, ReportRow, Reported, SafetyStore,
};
use super::super::StoreFuture;
use super::color_text;
use super::{in_tx, SqliteStore};
use crate::error::AppResult;
use crate::identity::BrowserId;
use crate::model::online::OnlineGame;
use crate::model::GameRecord;
use rusqlite::{params, params_from_iter, Connection, OptionalExtension};
use virada_rules::Color;

/// The safety tables: flags on accounts, blocks and reports.
pub const MIGRATION: &str = "
    ALTER TABLE accounts ADD COLUMN admin INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE accounts ADD COLUMN banned_at INTEGER;
    ALTER TABLE accounts ADD COLUMN ban_reason TEXT;
    ALTER TABLE accounts ADD COLUMN chat_off INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE blocks (
        blocker    TEXT NOT NULL REFERENCES accounts(holder) ON DELETE CASCADE,
        blocked    TEXT NOT NULL REFERENCES accounts(holder) ON DELETE CASCADE,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (blocker, blocked)
    );
    CREATE INDEX blocks_blocked ON blocks(blocked);
    CREATE TABLE reports (
        id            INTEGER PRIMARY KEY,
        reporter      TEXT REFERENCES accounts(holder) ON DELETE SET NULL,
        player_holder TEXT REFERENCES accounts(holder) ON DELETE SET NULL,
        player        TEXT NOT NULL,
        game_id       TEXT,
        chat_line     INTEGER,
        chat_text     TEXT,
        reason        TEXT NOT NULL,
        created_at    INTEGER NOT NULL,
        resolved_at   INTEGER,
        resolution    TEXT
    );
    CREATE INDEX reports_open ON reports(resolved_at, id);
    CREATE INDEX reports_reporter ON reports(reporter, created_at);
    CREATE TABLE chat_off_games (
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        color   TEXT NOT NULL,
        PRIMARY KEY (game_id, color)
    );";

fn holder_of(conn: &Connection, key: &str) -> AppResult<Option<(String, String)>> {
    Ok(conn
        .query_row(
            "SELECT holder, username FROM accounts WHERE username_key = ?1",
            params![key],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?)
}

fn hexes(ids: &[BrowserId]) -> Vec<String> {
    ids.iter().map(ToString::to_string).collect()
}

fn marks(n: usize, from: usize) -> String {
    (from..from + n)
        .map(|i| format!("?{i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn any_block(conn: &Connection, from: &[BrowserId], to: &[BrowserId]) -> AppResult<bool> {
    if from.is_empty() || to.is_empty() {
        return Ok(false);
    }
    let sql = format!(
        "SELECT EXISTS (SELECT 1 FROM blocks WHERE blocker IN ({}) AND blocked IN ({}))",
        marks(from.len(), 1),
        marks(to.len(), from.len() + 1)
    );
    let values: Vec<String> = hexes(from).into_iter().chain(hexes(to)).collect();
    Ok(conn.query_row(&sql, params_from_iter(values), |r| r.get(0))?)
}

fn seat_holders(conn: &Connection, game: &str) -> AppResult<(Vec<BrowserId>, Vec<BrowserId>)> {
    let mut seats = (Vec::new(), Vec::new());
    let rows: Vec<(String, String)> = conn
        .prepare("SELECT color, browser FROM online_holders WHERE game_id = ?1")?
        .query_map(params![game], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    for (color, browser) in rows {
        let Some(id) = BrowserId::from_hex(&browser) else {
            continue;
        };
        if color == "black" {
            seats.0.push(id);
        } else {
            seats.1.push(id);
        }
    }
    Ok(seats)
}

fn any_chat_off(conn: &Connection, holders: &[BrowserId]) -> AppResult<bool> {
    if holders.is_empty() {
        return Ok(false);
    }
    let sql = format!(
        "SELECT EXISTS (SELECT 1 FROM accounts WHERE chat_off <> 0 AND holder IN ({}))",
        marks(holders.len(), 1)
    );
    Ok(conn.query_row(&sql, params_from_iter(hexes(holders)), |r| r.get(0))?)
}

fn chat_sides(conn: &Connection, game: &str, who: BrowserId) -> AppResult<ChatSides> {
    let (black, white) = seat_holders(conn, game)?;
    let muted: Vec<String> = conn
        .prepare("SELECT color FROM chat_off_games WHERE game_id = ?1")?
        .query_map(params![game], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let mut sides = ChatSides {
        seat: if black.contains(&who) {
            Some(Color::Black)
        } else if white.contains(&who) {
            Some(Color::White)
        } else {
            None
        },
        own_setting_off: any_chat_off(conn, &[who])?,
        ..ChatSides::default()
    };
    for (i, (holders, name)) in [(black, "black"), (white, "white")].into_iter().enumerate() {
        let others: Vec<BrowserId> = holders.iter().copied().filter(|h| *h != who).collect();
        sides.off[i] = muted.iter().any(|m| m == name) || any_chat_off(conn, &holders)?;
        sides.blocked[i] = any_block(conn, &[who], &others)?;
    }
    Ok(sides)
}

fn flags_where(conn: &Connection, column: &str, value: &str) -> AppResult<Option<AccountFlags>> {
    Ok(conn
        .query_row(
            &format!(
                "SELECT admin, banned_at, ban_reason, chat_off FROM accounts WHERE {column} = ?1"
            ),
            params![value],
            |r| {
                Ok(AccountFlags {
                    admin: r.get::<_, i64>(0)? != 0,
                    banned_at: r.get(1)?,
                    ban_reason: r.get(2)?,
                    chat_off: r.get::<_, i64>(3)? != 0,
                })
            },
        )
        .optional()?)
}

fn insert_report(conn: &Connection, r: &NewReport, max: usize, since: i64) -> AppResult<Reported> {
    let Some((player_holder, player)) = holder_of(conn, &r.player_key)? else {
        return Ok(Reported::NoSuchPlayer);
    };
    let made: i64 = conn.query_row(
        "SELECT COUNT(*) FROM reports WHERE reporter = ?1 AND created_at >= ?2",
        params![r.reporter.to_string(), since],
        |row| row.get(0),
    )?;
    if made >= max as i64 {
        return Ok(Reported::TooMany);
    }
    let chat_text: Option<String> = match (&r.game, r.chat_line) {
        (Some(game), Some(n)) => conn
            .query_row(
                "SELECT text FROM online_chat WHERE game_id = ?1 AND n = ?2",
                params![game, n],
                |row| row.get(0),
            )
            .optional()?,
        _ => None,
    };
    conn.execute(
        "INSERT INTO reports (reporter, player_holder, player, game_id, chat_line, chat_text,
            reason, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            r.reporter.to_string(),
            player_holder,
            player,
            r.game,
            r.chat_line,
            chat_text,
            r.reason,
            r.at
        ],
    )?;
    Ok(Reported::Done(conn.last_insert_rowid()))
}

fn reports(conn: &Connection, open_only: bool, limit: usize) -> AppResult<Vec<ReportRow>> {
    let filter = if open_only {
        "WHERE r.resolved_at IS NULL"
    } else {
        ""
    };
    let rows = conn
        .prepare(&format!(
            "SELECT r.id, a.username, r.player, r.game_id, r.chat_line, r.chat_text, r.reason,
                r.created_at, r.resolved_at, r.resolution
             FROM reports r LEFT JOIN accounts a ON a.holder = r.reporter
             {filter} ORDER BY r.id LIMIT ?1"
        ))?
        .query_map(params![limit as i64], |r| {
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
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

impl SafetyStore for SqliteStore {
    fn block(
        &self,
        blocker: BrowserId,
        key: &str,
        max: usize,
        at: i64,
    ) -> StoreFuture<'_, Blocked> {
        let key = key.to_string();
        self.run(move |conn| {
            in_tx(conn, |tx| {
                let Some((holder, username)) = holder_of(tx, &key)? else {
                    return Ok(Blocked::NoSuchPlayer);
                };
                let b = blocker.to_string();
                let (count, already): (i64, bool) = tx.query_row(
                    "SELECT COUNT(*), COALESCE(MAX(blocked = ?2), 0) FROM blocks
                     WHERE blocker = ?1",
                    params![b, holder],
                    |r| Ok((r.get(0)?, r.get::<_, i64>(1)? != 0)),
                )?;
                if !already && count >= max as i64 {
                    return Ok(Blocked::Full);
                }
                tx.execute(
                    "INSERT INTO blocks (blocker, blocked, created_at) VALUES (?1, ?2, ?3)
                     ON CONFLICT (blocker, blocked) DO NOTHING",
                    params![b, holder, at],
                )?;
                Ok(Blocked::Done(username))
            })
        })
    }

    fn unblock(&self, blocker: BrowserId, key: &str) -> StoreFuture<'_, bool> {
        let key = key.to_string();
        self.run(move |conn| {
            Ok(conn.execute(
                "DELETE FROM blocks WHERE blocker = ?1 AND blocked =
                    (SELECT holder FROM accounts WHERE username_key = ?2)",
                params![blocker.to_string(), key],
            )? == 1)
        })
    }

    fn blocks(&self, blocker: BrowserId) -> StoreFuture<'_, Vec<BlockRow>> {
        self.run(move |conn| {
            let rows = conn
                .prepare(
                    "SELECT a.username, b.created_at FROM blocks b
                     JOIN accounts a ON a.holder = b.blocked
                     WHERE b.blocker = ?1 ORDER BY a.username_key",
                )?
                .query_map(params![blocker.to_string()], |r| {
                    Ok(BlockRow {
                        username: r.get(0)?,
                        at: r.get(1)?,
                    })
                })?
                .collect::<rusqlite::Result<_>>()?;
            Ok(rows)
        })
    }

    fn blocked_between(&self, a: Vec<BrowserId>, b: Vec<BrowserId>) -> StoreFuture<'_, bool> {
        self.run(move |conn| Ok(any_block(conn, &a, &b)? || any_block(conn, &b, &a)?))
    }

    fn blocks_any(&self, blocker: BrowserId, others: Vec<BrowserId>) -> StoreFuture<'_, bool> {
        self.run(move |conn| any_block(conn, &[blocker], &others))
    }

    fn seat_holders(&self, game: &str) -> StoreFuture<'_, (Vec<BrowserId>, Vec<BrowserId>)> {
        let game = game.to_string();
        self.run(move |conn| seat_holders(conn, &game))
    }

    fn insert_report(
        &self,
        report: NewReport,
        max: usize,
        since: i64,
    ) -> StoreFuture<'_, Reported> {
        self.run(move |conn| in_tx(conn, |tx| insert_report(tx, &report, max, since)))
    }

    fn reports(&self, open_only: bool, limit: usize) -> StoreFuture<'_, Vec<ReportRow>> {
        self.run(move |conn| reports(conn, open_only, limit))
    }

    fn resolve_report(&self, id: i64, note: String, at: i64) -> StoreFuture<'_, bool> {
        self.run(move |conn| {
            Ok(conn.execute(
                "UPDATE reports SET resolved_at = ?2, resolution = ?3
                 WHERE id = ?1 AND resolved_at IS NULL",
                params![id, at, note],
            )? == 1)
        })
    }

    fn flags_by_name(&self, key: &str) -> StoreFuture<'_, Option<AccountFlags>> {
        let key = key.to_string();
        self.run(move |conn| flags_where(conn, "username_key", &key))
    }

    fn flags(&self, holder: BrowserId) -> StoreFuture<'_, Option<AccountFlags>> {
        self.run(move |conn| flags_where(conn, "holder", &holder.to_string()))
    }

    fn set_admin(&self, key: &str, admin: bool) -> StoreFuture<'_, bool> {
        let key = key.to_string();
        self.run(move |conn| {
            Ok(conn.execute(
                "UPDATE accounts SET admin = ?2 WHERE username_key = ?1",
                params![key, i64::from(admin)],
            )? == 1)
        })
    }

    fn set_ban(&self, key: &str, ban: Option<String>, at: i64) -> StoreFuture<'_, bool> {
        let key = key.to_string();
        self.run(move |conn| {
            in_tx(conn, |tx| {
                let Some((holder, _)) = holder_of(tx, &key)? else {
                    return Ok(false);
                };
                let banned_at = ban.as_ref().map(|_| at);
                tx.execute(
                    "UPDATE accounts SET banned_at = ?2, ban_reason = ?3 WHERE holder = ?1",
                    params![holder, banned_at, ban],
                )?;
                if ban.is_some() {
                    tx.execute("DELETE FROM sessions WHERE holder = ?1", params![holder])?;
                }
                Ok(true)
            })
        })
    }

    fn set_game_chat_off(&self, game: &str, color: Color, off: bool) -> StoreFuture<'_, ()> {
        let game = game.to_string();
        self.run(move |conn| {
            let color = color_text(color);
            if off {
                conn.execute(
                    "INSERT INTO chat_off_games (game_id, color) VALUES (?1, ?2)
                     ON CONFLICT (game_id, color) DO NOTHING",
                    params![game, color],
                )?;
            } else {
                conn.execute(
                    "DELETE FROM chat_off_games WHERE game_id = ?1 AND color = ?2",
                    params![game, color],
                )?;
            }
            Ok(())
        })
    }

    fn chat_sides(&self, game: &str, who: BrowserId) -> StoreFuture<'_, ChatSides> {
        let game = game.to_string();
        self.run(move |conn| chat_sides(conn, &game, who))
    }

    fn set_chat_off(&self, holder: BrowserId, off: bool) -> StoreFuture<'_, ()> {
        self.run(move |conn| {
            conn.execute(
                "UPDATE accounts SET chat_off = ?2 WHERE holder = ?1",
                params![holder.to_string(), i64::from(off)],
            )?;
            Ok(())
        })
    }
}

/// Within `save`'s transaction: if this change ends a rated game against a bot with a result
/// (`bots::outcome`) that was not rated yet, the player's rating moves against the bot's fixed
/// one (`bots::after`) and the change is kept in their history; the bot has no row.
pub fn rate_bot_game(conn: &Connection, rec: &GameRecord, o: &OnlineGame) -> AppResult<()> {
    let Some(out) = crate::bots::outcome(rec, o) else {
        return Ok(());
    };
    let id = &rec.meta.id;
    let player = out.player.to_string();
    let (rated_before, account): (bool, bool) = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM rating_history WHERE game_id = ?1),
            EXISTS (SELECT 1 FROM accounts WHERE holder = ?2)",
        params![id, player],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    if rated_before || !account {
        return Ok(());
    }
    let before = super::accounts::current_rating(conn, &player, out.category)?;
    let after = crate::bots::after(before, &out);
    super::accounts::write_rating(conn, id, &player, out.category, after, rec.meta.updated_at)
}
