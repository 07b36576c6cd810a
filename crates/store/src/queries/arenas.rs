//! Arena tournaments (`crate::arenas`). Every function runs inside the transaction its
//! caller opened. PostgreSQL runs transactions side by side, so there the caps are kept with
//! transaction-level advisory locks (class 42): one for every new arena (the counts it is
//! checked against), one per arena for its joins (the players' cap). SQLite runs them one at
//! a time: the caps cannot race.

use crate::arenas::ArenaStore;
use crate::arenas::{
    arena_full, holder_from, result_of, stored_result, time_control_from, time_control_text,
    ArenaCaps, ArenaFull, ArenaGameRow, ArenaListed, ArenaPlayerRow, ArenaRow,
};
use crate::backend::Backend;
use crate::error::StoreResult;
use crate::exec::{args, Db, Row};
use crate::StoreFuture;
use virada_domain::identity::BrowserId;
use virada_domain::model::online::OnlineGame;
use virada_domain::model::GameRecord;

/// Schema version 11.
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

fn arena_of(r: &Row) -> StoreResult<ArenaRow> {
    Ok(ArenaRow {
        id: r.get(0)?,
        name: r.get(1)?,
        creator: holder_from(&r.get::<String>(2)?)?,
        creator_name: r.get(3)?,
        created_at: r.get(4)?,
        starts_at: r.get(5)?,
        ends_at: r.get(6)?,
        time_control: time_control_from(&r.get::<String>(7)?)?,
        rated: r.get(8)?,
    })
}

pub async fn insert_arena(db: &Db<'_>, a: &ArenaRow, caps: ArenaCaps) -> StoreResult<()> {
    db.postgres_only("SELECT pg_advisory_xact_lock(42, 0)", &[])
        .await?;
    let creator = a.creator.to_string();
    let row = db
        .query_one(
            "SELECT COUNT(*),
                    COUNT(*) FILTER (WHERE creator = $2),
                    (SELECT COUNT(*) FROM arenas WHERE creator = $2 AND created_at > $3)
             FROM arenas WHERE ends_at > $1",
            args![caps.now, creator, caps.day_start()],
        )
        .await?;
    caps.check(row.get(0)?, row.get(1)?, row.get(2)?)?;
    db.execute(
        &format!(
            "INSERT INTO arenas ({ARENA_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
        ),
        args![
            a.id,
            a.name,
            creator,
            a.creator_name,
            a.created_at,
            a.starts_at,
            a.ends_at,
            time_control_text(a.time_control),
            a.rated,
        ],
    )
    .await?;
    Ok(())
}

pub async fn list_arenas(
    db: &Db<'_>,
    ended_after: i64,
    limit: u32,
) -> StoreResult<Vec<ArenaListed>> {
    let rows = db
        .query(
            &format!(
                "SELECT {ARENA_COLUMNS},
                    (SELECT COUNT(*) FROM arena_players p WHERE p.arena_id = arenas.id)
                 FROM arenas WHERE ends_at > $1 ORDER BY starts_at DESC, id LIMIT $2"
            ),
            args![ended_after, i64::from(limit)],
        )
        .await?;
    rows.iter()
        .map(|r| {
            Ok(ArenaListed {
                arena: arena_of(r)?,
                players: r.get::<i64>(9)? as u32,
            })
        })
        .collect()
}

pub async fn arena(db: &Db<'_>, id: &str) -> StoreResult<Option<ArenaFull>> {
    let Some(row) = db
        .query_opt(
            &format!("SELECT {ARENA_COLUMNS} FROM arenas WHERE id = $1"),
            args![id],
        )
        .await?
    else {
        return Ok(None);
    };
    let arena = arena_of(&row)?;
    let players = db
        .query(
            "SELECT holder, username, rating, joined_at, active FROM arena_players
             WHERE arena_id = $1 ORDER BY seq",
            args![id],
        )
        .await?
        .iter()
        .map(|r| {
            Ok(ArenaPlayerRow {
                holder: holder_from(&r.get::<String>(0)?)?,
                username: r.get(1)?,
                rating: r.get(2)?,
                joined_at: r.get(3)?,
                active: r.get(4)?,
            })
        })
        .collect::<StoreResult<Vec<_>>>()?;
    let games = db
        .query(
            "SELECT game_id, seq, black, white, started_at, result, ended_at,
                EXISTS (SELECT 1 FROM games g WHERE g.id = arena_games.game_id)
             FROM arena_games
             WHERE arena_id = $1 ORDER BY seq",
            args![id],
        )
        .await?
        .iter()
        .map(|r| {
            Ok(ArenaGameRow {
                game_id: r.get(0)?,
                seq: r.get(1)?,
                black: holder_from(&r.get::<String>(2)?)?,
                white: holder_from(&r.get::<String>(3)?)?,
                started_at: r.get(4)?,
                result: stored_result(r.get::<Option<String>>(5)?.as_deref(), r.get(7)?),
                ended_at: r.get(6)?,
            })
        })
        .collect::<StoreResult<Vec<_>>>()?;
    Ok(Some(ArenaFull {
        arena,
        players,
        games,
    }))
}

/// Joins (or rejoins) `id`; `Ok(false)`: no such arena.
pub async fn join_arena(
    db: &Db<'_>,
    id: &str,
    p: &ArenaPlayerRow,
    max_players: usize,
) -> StoreResult<bool> {
    db.postgres_only("SELECT pg_advisory_xact_lock(42, hashtext($1))", args![id])
        .await?;
    let exists: bool = db
        .query_one(
            "SELECT EXISTS (SELECT 1 FROM arenas WHERE id = $1)",
            args![id],
        )
        .await?
        .get(0)?;
    if !exists {
        return Ok(false);
    }
    let holder = p.holder.to_string();
    let rejoined = db
        .execute(
            "UPDATE arena_players SET active = TRUE, username = $3
             WHERE arena_id = $1 AND holder = $2",
            args![id, holder, p.username],
        )
        .await?;
    if rejoined == 1 {
        return Ok(true);
    }
    let players: i64 = db
        .query_one(
            "SELECT COUNT(*) FROM arena_players WHERE arena_id = $1",
            args![id],
        )
        .await?
        .get(0)?;
    if players >= max_players as i64 {
        return Err(arena_full(max_players));
    }
    db.execute(
        "INSERT INTO arena_players (arena_id, holder, username, rating, joined_at, active, seq)
         VALUES ($1, $2, $3, $4, $5, TRUE, $6)",
        args![id, holder, p.username, p.rating, p.joined_at, players + 1,],
    )
    .await?;
    Ok(true)
}

/// Withdraws (pauses) `holder` from `id`; whether they were a player there.
pub async fn withdraw_arena(db: &Db<'_>, id: &str, holder: BrowserId) -> StoreResult<bool> {
    Ok(db
        .execute(
            "UPDATE arena_players SET active = FALSE WHERE arena_id = $1 AND holder = $2",
            args![id, holder.to_string()],
        )
        .await?
        == 1)
}

pub async fn add_arena_game(db: &Db<'_>, arena: &str, g: &ArenaGameRow) -> StoreResult<()> {
    db.execute(
        "INSERT INTO arena_games (game_id, arena_id, seq, black, white, started_at)
         VALUES ($1, $2, $3, $4, $5, $6)",
        args![
            g.game_id,
            arena,
            g.seq,
            g.black.to_string(),
            g.white.to_string(),
            g.started_at,
        ],
    )
    .await?;
    Ok(())
}

/// The arena a game was paired in.
pub async fn arena_of_game(db: &Db<'_>, game_id: &str) -> StoreResult<Option<String>> {
    db.query(
        "SELECT arena_id FROM arena_games WHERE game_id = $1",
        args![game_id],
    )
    .await?
    .first()
    .map(|r| r.get(0))
    .transpose()
}

/// Arenas not over at `now`: not ended, or with a game still running.
pub async fn open_arenas(db: &Db<'_>, now: i64) -> StoreResult<Vec<String>> {
    db.query(
        "SELECT id FROM arenas WHERE ends_at > $1
         UNION SELECT DISTINCT arena_id FROM arena_games
         WHERE result IS NULL
           AND EXISTS (SELECT 1 FROM games g WHERE g.id = arena_games.game_id)",
        args![now],
    )
    .await?
    .iter()
    .map(|r| r.get(0))
    .collect()
}

/// Within `save`'s transaction: the end of an arena game writes its result into the arena
/// (once).
pub async fn record_end(db: &Db<'_>, rec: &GameRecord, o: &OnlineGame) -> StoreResult<()> {
    let Some(result) = result_of(rec, o) else {
        return Ok(());
    };
    db.execute(
        "UPDATE arena_games SET result = $2, ended_at = $3 WHERE game_id = $1 AND result IS NULL",
        args![rec.meta.id, result.name(), rec.meta.updated_at],
    )
    .await?;
    Ok(())
}

impl<B: Backend> ArenaStore for B {
    fn insert_arena(&self, arena: ArenaRow, caps: ArenaCaps) -> StoreFuture<'_, ()> {
        self.write(move |db| Box::pin(async move { insert_arena(db, &arena, caps).await }))
    }

    fn list_arenas(&self, ended_after: i64, limit: u32) -> StoreFuture<'_, Vec<ArenaListed>> {
        self.read(move |db| Box::pin(async move { list_arenas(db, ended_after, limit).await }))
    }

    fn arena_of_game(&self, game_id: &str) -> StoreFuture<'_, Option<String>> {
        let id = game_id.to_string();
        self.read(move |db| Box::pin(async move { arena_of_game(db, &id).await }))
    }

    fn arena(&self, id: &str) -> StoreFuture<'_, Option<ArenaFull>> {
        let id = id.to_string();
        self.read(move |db| Box::pin(async move { arena(db, &id).await }))
    }

    fn join_arena(
        &self,
        id: &str,
        player: ArenaPlayerRow,
        max_players: usize,
    ) -> StoreFuture<'_, bool> {
        let id = id.to_string();
        self.write(move |db| {
            Box::pin(async move { join_arena(db, &id, &player, max_players).await })
        })
    }

    fn withdraw_arena(&self, id: &str, holder: BrowserId) -> StoreFuture<'_, bool> {
        let id = id.to_string();
        self.write(move |db| Box::pin(async move { withdraw_arena(db, &id, holder).await }))
    }

    fn add_arena_game(&self, arena: &str, game: ArenaGameRow) -> StoreFuture<'_, ()> {
        let arena = arena.to_string();
        self.write(move |db| Box::pin(async move { add_arena_game(db, &arena, &game).await }))
    }

    fn open_arenas(&self, now: i64) -> StoreFuture<'_, Vec<String>> {
        self.read(move |db| Box::pin(async move { open_arenas(db, now).await }))
    }
}
