//! Arena tournaments in PostgreSQL (`crate::store::arenas`), the SQLite store's tables in this
//! dialect. Every function runs inside the transaction its caller opened. Transactions run side
//! by side here, so the caps are kept with transaction-level advisory locks (class 42): one
//! for every new arena (the counts it is checked against), one per arena for its joins (the
//! players' cap).

use crate::error::AppResult;
use crate::identity::BrowserId;
use crate::model::online::OnlineGame;
use crate::model::GameRecord;
use crate::store::arenas::{
    arena_full, holder_from, result_of, stored_result, time_control_from, time_control_text,
    ArenaCaps, ArenaFull, ArenaGameRow, ArenaListed, ArenaPlayerRow, ArenaRow,
};
use tokio_postgres::{Row, Transaction};

/// Schema version 11 (see the SQLite store's).
pub const MIGRATION: &str = "
    CREATE TABLE arenas (
        id            TEXT PRIMARY KEY,
        name          TEXT NOT NULL,
        creator       TEXT NOT NULL,
        creator_name  TEXT NOT NULL,
        created_at    BIGINT NOT NULL,
        starts_at     BIGINT NOT NULL,
        ends_at       BIGINT NOT NULL,
        time_control  TEXT NOT NULL,
        rated         BOOLEAN NOT NULL
    );
    CREATE INDEX arenas_ends ON arenas(ends_at);
    CREATE INDEX arenas_creator ON arenas(creator, created_at);
    CREATE TABLE arena_players (
        arena_id   TEXT NOT NULL REFERENCES arenas(id) ON DELETE CASCADE,
        holder     TEXT NOT NULL REFERENCES accounts(holder) ON DELETE CASCADE,
        username   TEXT NOT NULL,
        rating     DOUBLE PRECISION NOT NULL,
        joined_at  BIGINT NOT NULL,
        active     BOOLEAN NOT NULL,
        seq        BIGINT NOT NULL,
        PRIMARY KEY (arena_id, holder)
    );
    CREATE TABLE arena_games (
        game_id    TEXT PRIMARY KEY,
        arena_id   TEXT NOT NULL REFERENCES arenas(id) ON DELETE CASCADE,
        seq        BIGINT NOT NULL,
        black      TEXT NOT NULL,
        white      TEXT NOT NULL,
        started_at BIGINT NOT NULL,
        result     TEXT,
        ended_at   BIGINT
    );
    CREATE UNIQUE INDEX arena_games_seq ON arena_games(arena_id, seq);
    CREATE INDEX arena_games_running ON arena_games(arena_id) WHERE result IS NULL;";

const ARENA_COLUMNS: &str =
    "id, name, creator, creator_name, created_at, starts_at, ends_at, time_control, rated";

fn arena_of(r: &Row) -> AppResult<ArenaRow> {
    Ok(ArenaRow {
        id: r.try_get(0)?,
        name: r.try_get(1)?,
        creator: holder_from(&r.try_get::<_, String>(2)?)?,
        creator_name: r.try_get(3)?,
        created_at: r.try_get(4)?,
        starts_at: r.try_get(5)?,
        ends_at: r.try_get(6)?,
        time_control: time_control_from(&r.try_get::<_, String>(7)?)?,
        rated: r.try_get(8)?,
    })
}

pub async fn insert_arena(tx: &Transaction<'_>, a: &ArenaRow, caps: ArenaCaps) -> AppResult<()> {
    tx.execute("SELECT pg_advisory_xact_lock(42, 0)", &[])
        .await?;
    let creator = a.creator.to_string();
    let row = tx
        .query_one(
            "SELECT COUNT(*),
                    COUNT(*) FILTER (WHERE creator = $2),
                    (SELECT COUNT(*) FROM arenas WHERE creator = $2 AND created_at > $3)
             FROM arenas WHERE ends_at > $1",
            &[&caps.now, &creator, &caps.day_start()],
        )
        .await?;
    caps.check(row.try_get(0)?, row.try_get(1)?, row.try_get(2)?)?;
    tx.execute(
        &format!(
            "INSERT INTO arenas ({ARENA_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
        ),
        &[
            &a.id,
            &a.name,
            &creator,
            &a.creator_name,
            &a.created_at,
            &a.starts_at,
            &a.ends_at,
            &time_control_text(a.time_control),
            &a.rated,
        ],
    )
    .await?;
    Ok(())
}

pub async fn list_arenas(
    tx: &Transaction<'_>,
    ended_after: i64,
    limit: u32,
) -> AppResult<Vec<ArenaListed>> {
    let rows = tx
        .query(
            &format!(
                "SELECT {ARENA_COLUMNS},
                    (SELECT COUNT(*) FROM arena_players p WHERE p.arena_id = arenas.id)
                 FROM arenas WHERE ends_at > $1 ORDER BY starts_at DESC, id LIMIT $2"
            ),
            &[&ended_after, &i64::from(limit)],
        )
        .await?;
    rows.iter()
        .map(|r| {
            Ok(ArenaListed {
                arena: arena_of(r)?,
                players: r.try_get::<_, i64>(9)? as u32,
            })
        })
        .collect()
}

pub async fn arena(tx: &Transaction<'_>, id: &str) -> AppResult<Option<ArenaFull>> {
    let Some(row) = tx
        .query_opt(
            &format!("SELECT {ARENA_COLUMNS} FROM arenas WHERE id = $1"),
            &[&id],
        )
        .await?
    else {
        return Ok(None);
    };
    let arena = arena_of(&row)?;
    let players = tx
        .query(
            "SELECT holder, username, rating, joined_at, active FROM arena_players
             WHERE arena_id = $1 ORDER BY seq",
            &[&id],
        )
        .await?
        .iter()
        .map(|r| {
            Ok(ArenaPlayerRow {
                holder: holder_from(&r.try_get::<_, String>(0)?)?,
                username: r.try_get(1)?,
                rating: r.try_get(2)?,
                joined_at: r.try_get(3)?,
                active: r.try_get(4)?,
            })
        })
        .collect::<AppResult<Vec<_>>>()?;
    let games = tx
        .query(
            "SELECT game_id, seq, black, white, started_at, result, ended_at,
                EXISTS (SELECT 1 FROM games g WHERE g.id = arena_games.game_id)
             FROM arena_games
             WHERE arena_id = $1 ORDER BY seq",
            &[&id],
        )
        .await?
        .iter()
        .map(|r| {
            Ok(ArenaGameRow {
                game_id: r.try_get(0)?,
                seq: r.try_get(1)?,
                black: holder_from(&r.try_get::<_, String>(2)?)?,
                white: holder_from(&r.try_get::<_, String>(3)?)?,
                started_at: r.try_get(4)?,
                result: stored_result(r.try_get::<_, Option<String>>(5)?.as_deref(), r.try_get(7)?),
                ended_at: r.try_get(6)?,
            })
        })
        .collect::<AppResult<Vec<_>>>()?;
    Ok(Some(ArenaFull {
        arena,
        players,
        games,
    }))
}

/// Joins (or rejoins) `id`; `Ok(false)`: no such arena.
pub async fn join_arena(
    tx: &Transaction<'_>,
    id: &str,
    p: &ArenaPlayerRow,
    max_players: usize,
) -> AppResult<bool> {
    tx.execute("SELECT pg_advisory_xact_lock(42, hashtext($1))", &[&id])
        .await?;
    let exists: bool = tx
        .query_one("SELECT EXISTS (SELECT 1 FROM arenas WHERE id = $1)", &[&id])
        .await?
        .try_get(0)?;
    if !exists {
        return Ok(false);
    }
    let holder = p.holder.to_string();
    let rejoined = tx
        .execute(
            "UPDATE arena_players SET active = TRUE, username = $3
             WHERE arena_id = $1 AND holder = $2",
            &[&id, &holder, &p.username],
        )
        .await?;
    if rejoined == 1 {
        return Ok(true);
    }
    let players: i64 = tx
        .query_one(
            "SELECT COUNT(*) FROM arena_players WHERE arena_id = $1",
            &[&id],
        )
        .await?
        .try_get(0)?;
    if players >= max_players as i64 {
        return Err(arena_full(max_players));
    }
    tx.execute(
        "INSERT INTO arena_players (arena_id, holder, username, rating, joined_at, active, seq)
         VALUES ($1, $2, $3, $4, $5, TRUE, $6)",
        &[
            &id,
            &holder,
            &p.username,
            &p.rating,
            &p.joined_at,
            &(players + 1),
        ],
    )
    .await?;
    Ok(true)
}

/// Withdraws (pauses) `holder` from `id`; whether they were a player there.
pub async fn withdraw_arena(tx: &Transaction<'_>, id: &str, holder: BrowserId) -> AppResult<bool> {
    Ok(tx
        .execute(
            "UPDATE arena_players SET active = FALSE WHERE arena_id = $1 AND holder = $2",
            &[&id, &holder.to_string()],
        )
        .await?
        == 1)
}

pub async fn add_arena_game(tx: &Transaction<'_>, arena: &str, g: &ArenaGameRow) -> AppResult<()> {
    tx.execute(
        "INSERT INTO arena_games (game_id, arena_id, seq, black, white, started_at)
         VALUES ($1, $2, $3, $4, $5, $6)",
        &[
            &g.game_id,
            &arena,
            &g.seq,
            &g.black.to_string(),
            &g.white.to_string(),
            &g.started_at,
        ],
    )
    .await?;
    Ok(())
}

/// Arenas not over at `now`: not ended, or with a game still running.
pub async fn open_arenas(tx: &Transaction<'_>, now: i64) -> AppResult<Vec<String>> {
    tx.query(
        "SELECT id FROM arenas WHERE ends_at > $1
         UNION SELECT DISTINCT arena_id FROM arena_games
         WHERE result IS NULL
           AND EXISTS (SELECT 1 FROM games g WHERE g.id = arena_games.game_id)",
        &[&now],
    )
    .await?
    .iter()
    .map(|r| Ok(r.try_get(0)?))
    .collect()
}

/// Within `save`'s transaction: the end of an arena game writes its result into the arena
/// (once).
pub async fn record_end(tx: &Transaction<'_>, rec: &GameRecord, o: &OnlineGame) -> AppResult<()> {
    let Some(result) = result_of(rec, o) else {
        return Ok(());
    };
    tx.execute(
        "UPDATE arena_games SET result = $2, ended_at = $3 WHERE game_id = $1 AND result IS NULL",
        &[&rec.meta.id, &result.name(), &rec.meta.updated_at],
    )
    .await?;
    Ok(())
}
