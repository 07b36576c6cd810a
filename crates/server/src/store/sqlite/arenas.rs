//! Arena tournaments in SQLite (`crate::store::arenas`). Every function runs inside the
//! transaction its caller opened (SQLite runs one at a time: the caps a new arena is checked
//! against and the players' cap cannot race).

use crate::error::AppResult;
use crate::identity::BrowserId;
use crate::model::online::OnlineGame;
use crate::model::GameRecord;
use crate::store::arenas::{
    arena_full, holder_from, result_of, stored_result, time_control_from, time_control_text,
    ArenaCaps, ArenaFull, ArenaGameRow, ArenaListed, ArenaPlayerRow, ArenaRow,
};
use rusqlite::{params, Connection, OptionalExtension, Row};

/// Schema version 11: arenas, their players and their games.
pub const MIGRATION: &str = "
    CREATE TABLE arenas (
        id            TEXT PRIMARY KEY,
        name          TEXT NOT NULL,
        creator       TEXT NOT NULL,
        creator_name  TEXT NOT NULL,
        created_at    INTEGER NOT NULL,
        starts_at     INTEGER NOT NULL,
        ends_at       INTEGER NOT NULL,
        time_control  TEXT NOT NULL,
        rated         INTEGER NOT NULL
    );
    CREATE INDEX arenas_ends ON arenas(ends_at);
    CREATE INDEX arenas_creator ON arenas(creator, created_at);
    CREATE TABLE arena_players (
        arena_id   TEXT NOT NULL REFERENCES arenas(id) ON DELETE CASCADE,
        holder     TEXT NOT NULL REFERENCES accounts(holder) ON DELETE CASCADE,
        username   TEXT NOT NULL,
        rating     REAL NOT NULL,
        joined_at  INTEGER NOT NULL,
        active     INTEGER NOT NULL,
        seq        INTEGER NOT NULL,
        PRIMARY KEY (arena_id, holder)
    );
    CREATE TABLE arena_games (
        game_id    TEXT PRIMARY KEY,
        arena_id   TEXT NOT NULL REFERENCES arenas(id) ON DELETE CASCADE,
        seq        INTEGER NOT NULL,
        black      TEXT NOT NULL,
        white      TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        result     TEXT,
        ended_at   INTEGER
    );
    CREATE UNIQUE INDEX arena_games_seq ON arena_games(arena_id, seq);
    CREATE INDEX arena_games_running ON arena_games(arena_id) WHERE result IS NULL;";

const ARENA_COLUMNS: &str =
    "id, name, creator, creator_name, created_at, starts_at, ends_at, time_control, rated";

fn arena_of(r: &Row) -> rusqlite::Result<(ArenaRowText, i64)> {
    Ok((
        ArenaRowText {
            id: r.get(0)?,
            name: r.get(1)?,
            creator: r.get(2)?,
            creator_name: r.get(3)?,
            created_at: r.get(4)?,
            starts_at: r.get(5)?,
            ends_at: r.get(6)?,
            time_control: r.get(7)?,
            rated: r.get(8)?,
        },
        r.get(9).unwrap_or(0),
    ))
}

/// An arena row as read, before its texts are checked.
struct ArenaRowText {
    id: String,
    name: String,
    creator: String,
    creator_name: String,
    created_at: i64,
    starts_at: i64,
    ends_at: i64,
    time_control: String,
    rated: bool,
}

impl ArenaRowText {
    fn checked(self) -> AppResult<ArenaRow> {
        Ok(ArenaRow {
            id: self.id,
            name: self.name,
            creator: holder_from(&self.creator)?,
            creator_name: self.creator_name,
            created_at: self.created_at,
            starts_at: self.starts_at,
            ends_at: self.ends_at,
            time_control: time_control_from(&self.time_control)?,
            rated: self.rated,
        })
    }
}

pub fn insert_arena(conn: &Connection, a: &ArenaRow, caps: ArenaCaps) -> AppResult<()> {
    let creator = a.creator.to_string();
    let (open, open_mine, today_mine): (i64, i64, i64) = conn.query_row(
        "SELECT COUNT(*),
                COALESCE(SUM(creator = ?2), 0),
                (SELECT COUNT(*) FROM arenas WHERE creator = ?2 AND created_at > ?3)
         FROM arenas WHERE ends_at > ?1",
        params![caps.now, creator, caps.day_start()],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?;
    caps.check(open, open_mine, today_mine)?;
    conn.execute(
        &format!(
            "INSERT INTO arenas ({ARENA_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
        ),
        params![
            a.id,
            a.name,
            creator,
            a.creator_name,
            a.created_at,
            a.starts_at,
            a.ends_at,
            time_control_text(a.time_control),
            a.rated
        ],
    )?;
    Ok(())
}

pub fn list_arenas(conn: &Connection, ended_after: i64, limit: u32) -> AppResult<Vec<ArenaListed>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT {ARENA_COLUMNS},
            (SELECT COUNT(*) FROM arena_players p WHERE p.arena_id = arenas.id)
         FROM arenas WHERE ends_at > ?1 ORDER BY starts_at DESC, id LIMIT ?2"
    ))?;
    let rows = stmt
        .query_map(params![ended_after, limit], arena_of)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    rows.into_iter()
        .map(|(a, n)| {
            Ok(ArenaListed {
                arena: a.checked()?,
                players: n as u32,
            })
        })
        .collect()
}

pub fn arena(conn: &Connection, id: &str) -> AppResult<Option<ArenaFull>> {
    let found = conn
        .query_row(
            &format!("SELECT {ARENA_COLUMNS}, 0 FROM arenas WHERE id = ?1"),
            params![id],
            arena_of,
        )
        .optional()?;
    let Some((row, _)) = found else {
        return Ok(None);
    };
    let arena = row.checked()?;
    let mut stmt = conn.prepare(
        "SELECT holder, username, rating, joined_at, active FROM arena_players
         WHERE arena_id = ?1 ORDER BY seq",
    )?;
    let players = stmt
        .query_map(params![id], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, f64>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, bool>(4)?,
            ))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?
        .into_iter()
        .map(|(h, username, rating, joined_at, active)| {
            Ok(ArenaPlayerRow {
                holder: holder_from(&h)?,
                username,
                rating,
                joined_at,
                active,
            })
        })
        .collect::<AppResult<Vec<_>>>()?;
    let mut stmt = conn.prepare(
        "SELECT game_id, seq, black, white, started_at, result, ended_at,
                EXISTS (SELECT 1 FROM games g WHERE g.id = arena_games.game_id)
             FROM arena_games
         WHERE arena_id = ?1 ORDER BY seq",
    )?;
    let games = stmt
        .query_map(params![id], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, i64>(4)?,
                r.get::<_, Option<String>>(5)?,
                r.get::<_, Option<i64>>(6)?,
                r.get::<_, bool>(7)?,
            ))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?
        .into_iter()
        .map(
            |(game_id, seq, b, w, started_at, result, ended_at, exists)| {
                Ok(ArenaGameRow {
                    game_id,
                    seq,
                    black: holder_from(&b)?,
                    white: holder_from(&w)?,
                    started_at,
                    result: stored_result(result.as_deref(), exists),
                    ended_at,
                })
            },
        )
        .collect::<AppResult<Vec<_>>>()?;
    Ok(Some(ArenaFull {
        arena,
        players,
        games,
    }))
}

/// Joins (or rejoins) `id`; `Ok(false)`: no such arena.
pub fn join_arena(
    conn: &Connection,
    id: &str,
    p: &ArenaPlayerRow,
    max_players: usize,
) -> AppResult<bool> {
    let exists: bool = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM arenas WHERE id = ?1)",
        params![id],
        |r| r.get(0),
    )?;
    if !exists {
        return Ok(false);
    }
    let holder = p.holder.to_string();
    let rejoined = conn.execute(
        "UPDATE arena_players SET active = 1, username = ?3 WHERE arena_id = ?1 AND holder = ?2",
        params![id, holder, p.username],
    )?;
    if rejoined == 1 {
        return Ok(true);
    }
    let players: i64 = conn.query_row(
        "SELECT COUNT(*) FROM arena_players WHERE arena_id = ?1",
        params![id],
        |r| r.get(0),
    )?;
    if players >= max_players as i64 {
        return Err(arena_full(max_players));
    }
    conn.execute(
        "INSERT INTO arena_players (arena_id, holder, username, rating, joined_at, active, seq)
         VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6)",
        params![id, holder, p.username, p.rating, p.joined_at, players + 1],
    )?;
    Ok(true)
}

/// Withdraws (pauses) `holder` from `id`; whether they were a player there.
pub fn withdraw_arena(conn: &Connection, id: &str, holder: BrowserId) -> AppResult<bool> {
    Ok(conn.execute(
        "UPDATE arena_players SET active = 0 WHERE arena_id = ?1 AND holder = ?2",
        params![id, holder.to_string()],
    )? == 1)
}

pub fn add_arena_game(conn: &Connection, arena: &str, g: &ArenaGameRow) -> AppResult<()> {
    conn.execute(
        "INSERT INTO arena_games (game_id, arena_id, seq, black, white, started_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            g.game_id,
            arena,
            g.seq,
            g.black.to_string(),
            g.white.to_string(),
            g.started_at
        ],
    )?;
    Ok(())
}

/// Arenas not over at `now`: not ended, or with a game still running.
pub fn open_arenas(conn: &Connection, now: i64) -> AppResult<Vec<String>> {
    let mut stmt = conn.prepare(
        "SELECT id FROM arenas WHERE ends_at > ?1
         UNION SELECT DISTINCT arena_id FROM arena_games
         WHERE result IS NULL
           AND EXISTS (SELECT 1 FROM games g WHERE g.id = arena_games.game_id)",
    )?;
    let ids = stmt
        .query_map(params![now], |r| r.get(0))?
        .collect::<rusqlite::Result<Vec<String>>>()?;
    Ok(ids)
}

/// Within `save`'s transaction: the end of an arena game writes its result into the arena
/// (once).
pub fn record_end(conn: &Connection, rec: &GameRecord, o: &OnlineGame) -> AppResult<()> {
    let Some(result) = result_of(rec, o) else {
        return Ok(());
    };
    conn.execute(
        "UPDATE arena_games SET result = ?2, ended_at = ?3 WHERE game_id = ?1 AND result IS NULL",
        params![rec.meta.id, result.name(), rec.meta.updated_at],
    )?;
    Ok(())
}
