//! The online tables: seats and their holders, clocks, offers, chat, device links, the
//! server's heartbeat. The functions write inside the transaction their caller
//! ([`super::SqliteStore`]) opened, so a game row's moves and its online row change together.

use super::super::{Change, LinkRow};
use super::{color_from, color_text};
use crate::error::{AppError, AppResult};
use crate::identity::BrowserId;
use crate::model::online::{
    flag_at, ChatLine, End, Offers, OnlineGame, Phase, SeatState, TimeControl, CHAT_SHOWN,
};
use crate::model::GameRecord;
use rusqlite::{params, Connection, OptionalExtension};
use virada_rules::Color;

/// The schema migration for online games (appended to `db::MIGRATIONS`; independent of the
/// others: it only adds tables).
pub const MIGRATION: &str = "
    CREATE TABLE online_games (
        game_id         TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        time_control    TEXT NOT NULL,
        phase           TEXT NOT NULL,
        turn_started_at INTEGER,
        end_reason      TEXT,
        end_loser       TEXT,
        black_name      TEXT,
        white_name      TEXT,
        black_ms        INTEGER NOT NULL,
        white_ms        INTEGER NOT NULL,
        takeback_offer  TEXT,
        rematch_offer   TEXT,
        rematch_game    TEXT,
        chat_count      INTEGER NOT NULL
    );
    CREATE TABLE online_holders (
        game_id   TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        color     TEXT NOT NULL,
        browser   TEXT NOT NULL,
        added_at  INTEGER NOT NULL,
        PRIMARY KEY (game_id, browser)
    );
    CREATE INDEX online_holders_browser ON online_holders(browser);
    CREATE TABLE online_chat (
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        n       INTEGER NOT NULL,
        color   TEXT NOT NULL,
        text    TEXT NOT NULL,
        at      INTEGER NOT NULL,
        PRIMARY KEY (game_id, n)
    );
    CREATE TABLE device_links (
        token_hash TEXT PRIMARY KEY,
        game_id    TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        color      TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        used_at    INTEGER
    );
    CREATE TABLE server_alive (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        at INTEGER NOT NULL
    );";

/// The schema migration that stores each running clock's deadline (`flag_at`, Unix ms: when the
/// side to move loses on time; NULL when no clock runs), watched by the flag scheduler
/// ([`super::scheduler`]). Rows from before it are filled by [`fill_missing_flags`].
pub const MIGRATION_FLAGS: &str = "
    ALTER TABLE online_games ADD COLUMN flag_at INTEGER;
    CREATE INDEX online_games_flag ON online_games(flag_at);";

/// Adds the online row and holders of the new game `rec` (its game row is written already).
pub(super) fn insert_online(
    conn: &Connection,
    rec: &GameRecord,
    online: &OnlineGame,
) -> AppResult<()> {
    ensure_row(conn, &rec.meta.id)?;
    write_online(conn, rec, online)?;
    for c in [Color::Black, Color::White] {
        if let SeatState::Taken { holders, .. } = online.seat(c) {
            for h in holders {
                add_holder(conn, &rec.meta.id, c, *h, rec.meta.created_at)?;
            }
        }
    }
    Ok(())
}

/// Adds a blank online row for game `id` if it has none (it is filled by [`write_online`]).
pub(super) fn ensure_row(conn: &Connection, id: &str) -> AppResult<()> {
    conn.execute(
        "INSERT OR IGNORE INTO online_games
            (game_id, time_control, phase, black_ms, white_ms, chat_count)
         VALUES (?1, '', '', 0, 0, 0)",
        params![id],
    )?;
    Ok(())
}

fn add_holder(conn: &Connection, id: &str, c: Color, who: BrowserId, at: i64) -> AppResult<()> {
    conn.execute(
        "INSERT OR IGNORE INTO online_holders (game_id, color, browser, added_at)
         VALUES (?1, ?2, ?3, ?4)",
        params![id, color_text(c), who.to_string(), at],
    )?;
    Ok(())
}

pub(super) fn write_online(conn: &Connection, rec: &GameRecord, o: &OnlineGame) -> AppResult<()> {
    let tc = serde_json::to_string(&o.time_control)
        .map_err(|e| AppError::Internal(format!("time control: {e}")))?;
    let (turn_started_at, end) = match o.phase {
        Phase::Waiting => (None, None),
        Phase::Playing { turn_started_at } => (Some(turn_started_at), None),
        Phase::Finished(end) => (None, Some(end)),
    };
    let n = conn.execute(
        "UPDATE online_games SET time_control = ?2, phase = ?3, turn_started_at = ?4,
            end_reason = ?5, end_loser = ?6, black_name = ?7, white_name = ?8, black_ms = ?9,
            white_ms = ?10, takeback_offer = ?11, rematch_offer = ?12, rematch_game = ?13,
            chat_count = ?14, flag_at = ?15, rated = ?16
         WHERE game_id = ?1",
        params![
            rec.meta.id,
            tc,
            o.phase.name(),
            turn_started_at,
            end.map(End::reason),
            end.and_then(End::loser).map(color_text),
            o.black.name(),
            o.white.name(),
            o.black_ms,
            o.white_ms,
            o.offers.takeback.map(color_text),
            o.offers.rematch.map(color_text),
            o.rematch_game,
            o.chat_count,
            flag_at(rec, o),
            o.rated,
        ],
    )?;
    if n != 1 {
        return Err(AppError::not_found_game(&rec.meta.id));
    }
    // The list's status column: a resigned or timed-out game is finished whatever the board.
    if matches!(o.phase, Phase::Finished(_)) {
        conn.execute(
            "UPDATE games SET status = 'finished' WHERE id = ?1",
            params![rec.meta.id],
        )?;
    }
    Ok(())
}

/// Writes what `change` adds to game `id` (a new game is written by the caller).
pub(super) fn apply_change(conn: &Connection, id: &str, at: i64, change: &Change) -> AppResult<()> {
    match change {
        Change::Holder(c, who) => add_holder(conn, id, *c, *who, at)?,
        Change::Chat(line) => {
            conn.execute(
                "INSERT INTO online_chat (game_id, n, color, text, at) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![id, line.n, color_text(line.from), line.text, line.at],
            )?;
        }
        Change::LinkUsed(hash) => {
            let n = conn.execute(
                "UPDATE device_links SET used_at = ?2 WHERE token_hash = ?1 AND used_at IS NULL",
                params![hash, at],
            )?;
            if n != 1 {
                return Err(AppError::NotFound(
                    "no such device link (or it was used)".into(),
                ));
            }
        }
        Change::NewGame(_) => {}
    }
    Ok(())
}

/// The online part of game `id`; `Ok(None)` if it has none (a local game).
pub(super) fn load(conn: &Connection, id: &str) -> AppResult<Option<OnlineGame>> {
    let corrupt = |e: String| AppError::corrupt_game(id, &format!("its online part: {e}"));
    let row = conn
        .query_row(
            "SELECT time_control, phase, turn_started_at, end_reason, end_loser, black_name,
                white_name, black_ms, white_ms, takeback_offer, rematch_offer, rematch_game,
                chat_count, rated
             FROM online_games WHERE game_id = ?1",
            params![id],
            |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Option<i64>>(2)?,
                    r.get::<_, Option<String>>(3)?,
                    r.get::<_, Option<String>>(4)?,
                    [
                        r.get::<_, Option<String>>(5)?,
                        r.get::<_, Option<String>>(6)?,
                    ],
                    (r.get::<_, i64>(7)?, r.get::<_, i64>(8)?),
                    [
                        r.get::<_, Option<String>>(9)?,
                        r.get::<_, Option<String>>(10)?,
                    ],
                    r.get::<_, Option<String>>(11)?,
                    r.get::<_, i64>(12)?,
                    r.get::<_, bool>(13)?,
                ))
            },
        )
        .optional()?;
    let Some((
        tc,
        phase,
        started,
        reason,
        loser,
        names,
        (black_ms, white_ms),
        offers,
        rematch,
        chats,
        rated,
    )) = row
    else {
        return Ok(None);
    };
    let time_control: TimeControl =
        serde_json::from_str(&tc).map_err(|e| corrupt(format!("time control: {e}")))?;
    let opt_color = |s: &Option<String>| s.as_deref().map(color_from).transpose();
    let phase = match (phase.as_str(), started, reason.as_deref()) {
        ("waiting", None, None) => Phase::Waiting,
        ("playing", Some(turn_started_at), None) => Phase::Playing { turn_started_at },
        ("finished", None, Some(reason)) => {
            let loser = opt_color(&loser).map_err(corrupt)?;
            Phase::Finished(
                End::from_columns(reason, loser)
                    .ok_or_else(|| corrupt(format!("end {reason:?} with loser {loser:?}")))?,
            )
        }
        (p, s, r) => return Err(corrupt(format!("phase {p:?} with {s:?} and {r:?}"))),
    };
    let mut holders: [Vec<BrowserId>; 2] = [Vec::new(), Vec::new()];
    let mut stmt = conn.prepare(
        "SELECT color, browser FROM online_holders WHERE game_id = ?1 ORDER BY added_at, browser",
    )?;
    for row in stmt.query_map(params![id], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
    })? {
        let (c, b) = row?;
        let who = BrowserId::from_hex(&b).ok_or_else(|| corrupt(format!("holder {b:?}")))?;
        match color_from(&c).map_err(corrupt)? {
            Color::Black => holders[0].push(who),
            Color::White => holders[1].push(who),
        }
    }
    let seat = |name: &Option<String>, holders: Vec<BrowserId>| match name {
        Some(name) => SeatState::Taken {
            name: name.clone(),
            holders,
        },
        None => SeatState::Free,
    };
    let [black_holders, white_holders] = holders;
    let mut chat = Vec::new();
    let mut stmt = conn.prepare(
        "SELECT n, color, text, at FROM online_chat WHERE game_id = ?1 ORDER BY n DESC LIMIT ?2",
    )?;
    for row in stmt.query_map(params![id, CHAT_SHOWN as i64], |r| {
        Ok((
            r.get::<_, u32>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, i64>(3)?,
        ))
    })? {
        let (n, c, text, at) = row?;
        chat.push(ChatLine {
            n,
            from: color_from(&c).map_err(corrupt)?,
            text,
            at,
        });
    }
    chat.reverse();
    Ok(Some(OnlineGame {
        time_control,
        black: seat(&names[0], black_holders),
        white: seat(&names[1], white_holders),
        phase,
        black_ms,
        white_ms,
        offers: Offers {
            takeback: opt_color(&offers[0]).map_err(corrupt)?,
            rematch: opt_color(&offers[1]).map_err(corrupt)?,
        },
        rematch_game: rematch,
        chat,
        chat_count: u32::try_from(chats).map_err(|_| corrupt(format!("chat count {chats}")))?,
        rated,
    }))
}

/// Stores a device link (its token's hash), keeping at most `per_seat` unused ones for the seat
/// (the oldest go), in one transaction.
pub(super) fn insert_link(conn: &Connection, link: &LinkRow, per_seat: usize) -> AppResult<()> {
    let LinkRow {
        hash,
        game,
        color,
        created_at: now,
        expires_at,
    } = link;
    let (color, now) = (*color, *now);
    let tx = conn.unchecked_transaction()?;
    tx.execute(
        "INSERT INTO device_links (token_hash, game_id, color, created_at, expires_at)
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![hash, game, color_text(color), now, expires_at],
    )?;
    tx.execute(
        "DELETE FROM device_links
         WHERE game_id = ?1 AND color = ?2 AND used_at IS NULL AND token_hash NOT IN (
            SELECT token_hash FROM device_links
            WHERE game_id = ?1 AND color = ?2 AND used_at IS NULL
            ORDER BY created_at DESC, token_hash LIMIT ?3)",
        params![game, color_text(color), per_seat as i64],
    )?;
    // Expired links are of no use to anyone: drop them as new ones are made.
    tx.execute(
        "DELETE FROM device_links WHERE expires_at <= ?1",
        params![now],
    )?;
    tx.commit()?;
    Ok(())
}

/// Drops the device links expired at `now` (time source), and the chat of online games
/// finished before `chat_before` (Unix ms of `games.updated_at`). Returns (links, chat lines)
/// deleted.
pub(super) fn sweep_links_and_chat(
    conn: &Connection,
    now: i64,
    chat_before: i64,
) -> AppResult<(usize, usize)> {
    let tx = conn.unchecked_transaction()?;
    let links = tx.execute(
        "DELETE FROM device_links WHERE expires_at <= ?1",
        params![now],
    )?;
    let chat = tx.execute(
        "DELETE FROM online_chat WHERE game_id IN (
            SELECT id FROM games
            WHERE mode = 'online' AND status = 'finished' AND updated_at < ?1)",
        params![chat_before],
    )?;
    tx.commit()?;
    Ok((links, chat))
}

/// The game and seat of an unused, unexpired device link.
pub(super) fn find_link(
    conn: &Connection,
    hash: &str,
    now: i64,
) -> AppResult<Option<(String, Color)>> {
    let row = conn
        .query_row(
            "SELECT game_id, color FROM device_links
             WHERE token_hash = ?1 AND used_at IS NULL AND expires_at > ?2",
            params![hash, now],
            |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)),
        )
        .optional()?;
    match row {
        None => Ok(None),
        Some((game, c)) => Ok(Some((game, color_from(&c).map_err(AppError::Internal)?))),
    }
}

/// Records that the server is alive at `at` (Unix ms).
pub(super) fn beat(conn: &Connection, at: i64) -> AppResult<()> {
    conn.execute(
        "INSERT INTO server_alive (id, at) VALUES (1, ?1)
         ON CONFLICT(id) DO UPDATE SET at = MAX(at, excluded.at)",
        params![at],
    )?;
    Ok(())
}

/// After a restart: the running clocks of playing games are moved on by the downtime, so a
/// player is charged only for the time the server was up during their turn. `last_alive` is
/// the last heartbeat of the previous run, `now` this run's start. Returns the games changed.
pub(super) fn forgive_downtime(conn: &Connection, now: i64) -> AppResult<usize> {
    let last: Option<i64> = conn
        .query_row("SELECT at FROM server_alive WHERE id = 1", [], |r| r.get(0))
        .optional()?;
    let Some(last) = last else {
        beat(conn, now)?;
        return Ok(0);
    };
    let tx = conn.unchecked_transaction()?;
    let n = tx.execute(
        "UPDATE online_games SET turn_started_at = ?2 - MAX(0, ?1 - turn_started_at),
            flag_at = flag_at + (?2 - MAX(0, ?1 - turn_started_at) - turn_started_at)
         WHERE phase = 'playing' AND ?2 > ?1",
        params![last, now],
    )?;
    beat(&tx, now)?;
    tx.commit()?;
    Ok(n)
}

/// Playing timed games stored before deadlines were (schema version 3): their ids.
pub(super) fn missing_flags(conn: &Connection) -> AppResult<Vec<String>> {
    let mut stmt = conn.prepare(
        "SELECT game_id FROM online_games
         WHERE phase = 'playing' AND flag_at IS NULL AND time_control NOT LIKE '%\"none\"%'",
    )?;
    let ids = stmt
        .query_map([], |r| r.get::<_, String>(0))?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ids)
}

/// Stores the deadline of game `id`.
pub(super) fn set_flag(conn: &Connection, id: &str, at: Option<i64>) -> AppResult<usize> {
    Ok(conn.execute(
        "UPDATE online_games SET flag_at = ?2 WHERE game_id = ?1",
        params![id, at],
    )?)
}

/// Games whose stored deadline is at or before `now`, earliest first (at most `limit`).
pub(super) fn due_flags(conn: &Connection, now: i64, limit: usize) -> AppResult<Vec<String>> {
    let mut stmt = conn.prepare(
        "SELECT game_id FROM online_games WHERE flag_at <= ?1 ORDER BY flag_at, game_id LIMIT ?2",
    )?;
    let ids = stmt
        .query_map(params![now, limit as i64], |r| r.get::<_, String>(0))?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ids)
}

/// The earliest stored deadline after `now`.
pub(super) fn next_flag_after(conn: &Connection, now: i64) -> AppResult<Option<i64>> {
    Ok(conn.query_row(
        "SELECT MIN(flag_at) FROM online_games WHERE flag_at > ?1",
        params![now],
        |r| r.get(0),
    )?)
}
