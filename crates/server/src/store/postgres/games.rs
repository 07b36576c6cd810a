//! The `games` table in PostgreSQL: one row per game, the per-address quota, listing and
//! retention's deletions (the same statements as the SQLite store's, in `$n` parameters).

use super::super::columns::{
    color_text, end_from_columns, mode_from_columns, moves_columns, summary, RawGame,
};
use super::super::{Abandoned, GameRow, ListedGame, Quota};
use crate::error::{AppError, AppResult};
use crate::identity::BrowserId;
use crate::model::Owner;
use crate::model::{GameRecord, Level, Status};
use tokio_postgres::{Row, Transaction};

/// Inserts a new game.
pub async fn insert_game(tx: &Transaction<'_>, rec: &GameRecord) -> AppResult<()> {
    let s = summary(rec);
    let m = &rec.meta;
    let (moves, redo) = moves_columns(rec);
    tx.execute(
        "INSERT INTO games (id, created_at, updated_at, mode, level, human_color, start_kind,
            start_pos, opening, seed, moves, redo, status, black_discs, white_discs, ply_count,
            transcript, owner)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,
            $18)",
        &[
            &m.id,
            &m.created_at,
            &m.updated_at,
            &m.mode.name(),
            &m.mode.level().map(|l| i64::from(Level::get(l))),
            &m.mode.human_color().map(color_text),
            &m.start_kind.as_str(),
            &rec.game.start().to_string(),
            &m.opening,
            &(m.seed as i64),
            &moves,
            &redo,
            &s.status.as_str(),
            &i64::from(s.black),
            &i64::from(s.white),
            &(s.plies as i64),
            &s.transcript,
            &m.owner.column(),
        ],
    )
    .await?;
    Ok(())
}

/// Stores the moves (and redo list) of an existing game. Returns false if the game is gone.
pub async fn update_moves(tx: &Transaction<'_>, rec: &GameRecord) -> AppResult<bool> {
    let s = summary(rec);
    let (moves, redo) = moves_columns(rec);
    let n = tx
        .execute(
            "UPDATE games SET updated_at = $2, moves = $3, redo = $4, status = $5,
                black_discs = $6, white_discs = $7, ply_count = $8, transcript = $9
             WHERE id = $1",
            &[
                &rec.meta.id,
                &rec.meta.updated_at,
                &moves,
                &redo,
                &s.status.as_str(),
                &i64::from(s.black),
                &i64::from(s.white),
                &(s.plies as i64),
                &s.transcript,
            ],
        )
        .await?;
    Ok(n == 1)
}

/// Loads and replays a game. `Ok(None)`: no such game; a row that does not replay is 409
/// `corrupt_game` naming the game.
pub async fn load_game(tx: &Transaction<'_>, id: &str) -> AppResult<Option<GameRecord>> {
    let row = tx
        .query_opt(
            "SELECT id, created_at, updated_at, mode, level, human_color, start_kind, start_pos,
                opening, seed, moves, redo, owner FROM games WHERE id = $1",
            &[&id],
        )
        .await?;
    let Some(r) = row else {
        return Ok(None);
    };
    let raw = RawGame {
        id: r.try_get(0)?,
        created_at: r.try_get(1)?,
        updated_at: r.try_get(2)?,
        mode: r.try_get(3)?,
        level: r.try_get(4)?,
        human_color: r.try_get(5)?,
        start_kind: r.try_get(6)?,
        start_pos: r.try_get(7)?,
        opening: r.try_get(8)?,
        seed: r.try_get(9)?,
        moves: r.try_get(10)?,
        redo: r.try_get(11)?,
        owner: r.try_get(12)?,
    };
    raw.into_record()
        .map(Some)
        .map_err(|e| AppError::corrupt_game(id, &e))
}

/// Whose game `id` is, from its row alone (no replay): `None` if there is no such row or its
/// owner column does not read.
pub async fn game_row(tx: &Transaction<'_>, id: &str) -> AppResult<Option<GameRow>> {
    let row = tx
        .query_opt(
            "SELECT owner, mode, created_from FROM games WHERE id = $1",
            &[&id],
        )
        .await?;
    let Some(r) = row else {
        return Ok(None);
    };
    let owner: Option<String> = r.try_get(0)?;
    let mode: String = r.try_get(1)?;
    let created_from: Option<String> = r.try_get(2)?;
    Ok(Owner::from_column(owner.as_deref())
        .ok()
        .map(|owner| GameRow {
            owner,
            online: mode == "online",
            created_from,
        }))
}

/// One listed row; the inner error says what in it is corrupt.
fn listed(r: &Row) -> AppResult<Result<ListedGame, String>> {
    let id: String = r.try_get(0)?;
    let human: Option<String> = r.try_get(5)?;
    let status: String = r.try_get(6)?;
    let reason: Option<String> = r.try_get(12)?;
    let loser: Option<String> = r.try_get(13)?;
    let corrupt = |e: String| format!("stored game {id} is corrupt: {e}");
    let mode = match mode_from_columns(&r.try_get::<_, String>(3)?, r.try_get(4)?, human.as_deref())
    {
        Ok(mode) => mode,
        Err(e) => return Ok(Err(corrupt(e))),
    };
    let Some(status) = Status::parse(&status) else {
        return Ok(Err(corrupt(format!("status {status:?}"))));
    };
    let end = match end_from_columns(reason.as_deref(), loser.as_deref()) {
        Ok(end) => end,
        Err(e) => return Ok(Err(corrupt(e))),
    };
    Ok(Ok(ListedGame {
        created_at: r.try_get(1)?,
        updated_at: r.try_get(2)?,
        mode,
        status,
        black_discs: r.try_get::<_, i64>(7)?.clamp(0, 64) as u8,
        white_discs: r.try_get::<_, i64>(8)?.clamp(0, 64) as u8,
        ply_count: r.try_get::<_, i64>(9)?.clamp(0, i64::from(u32::MAX)) as u32,
        transcript: r.try_get(10)?,
        start: r.try_get(11)?,
        end,
        black_name: r.try_get(14)?,
        white_name: r.try_get(15)?,
        id,
    }))
}

/// The saved games of `viewer` (the games it owns and the online games it holds a seat in),
/// most recently updated first; `status` filters them.
pub async fn list_games(
    tx: &Transaction<'_>,
    viewer: BrowserId,
    status: Option<Status>,
    limit: u32,
) -> AppResult<Vec<ListedGame>> {
    let rows = tx
        .query(
            "SELECT id, created_at, updated_at, mode, level, human_color, status, black_discs,
                white_discs, ply_count, transcript, start_pos, o.end_reason, o.end_loser,
                o.black_name, o.white_name
             FROM games LEFT JOIN online_games o ON o.game_id = games.id
             WHERE ($1::TEXT IS NULL OR status = $1::TEXT)
                AND (owner = $3 OR id IN (SELECT game_id FROM online_holders WHERE browser = $3))
             ORDER BY updated_at DESC, id COLLATE \"C\" LIMIT $2",
            &[
                &status.map(Status::as_str),
                &i64::from(limit),
                &viewer.to_string(),
            ],
        )
        .await?;
    // A corrupt line is left out of the list (and logged), not a failure of the whole list.
    let mut games = Vec::new();
    for r in &rows {
        match listed(r)? {
            Ok(g) => games.push(g),
            Err(e) => tracing::error!(error = %e, "a stored game is left out of the list"),
        }
    }
    Ok(games)
}

/// Gives the unclaimed game `id` to `browser`; returns the game's owner afterwards.
pub async fn claim_game(
    tx: &Transaction<'_>,
    id: &str,
    browser: BrowserId,
) -> AppResult<Option<Owner>> {
    tx.execute(
        "UPDATE games SET owner = $2 WHERE id = $1 AND owner IS NULL",
        &[&id, &browser.to_string()],
    )
    .await?;
    let row = tx
        .query_opt("SELECT owner FROM games WHERE id = $1", &[&id])
        .await?;
    let owner: Option<Option<String>> = row.map(|r| r.try_get(0)).transpose()?;
    owner
        .map(|o| Owner::from_column(o.as_deref()))
        .transpose()
        .map_err(|e| AppError::Internal(format!("stored game {id} is corrupt: {e}")))
}

/// Gives every unclaimed game to `browser`; returns how many there were.
pub async fn claim_all_games(tx: &Transaction<'_>, browser: BrowserId) -> AppResult<u64> {
    Ok(tx
        .execute(
            "UPDATE games SET owner = $1 WHERE owner IS NULL",
            &[&browser.to_string()],
        )
        .await?)
}

/// Deletes a game. Returns whether it existed.
pub async fn delete_game(tx: &Transaction<'_>, id: &str) -> AppResult<bool> {
    Ok(tx
        .execute("DELETE FROM games WHERE id = $1", &[&id])
        .await?
        == 1)
}

/// Refuses a new game from `quota.address` if that address has as many stored games, or
/// unfinished online games, as it may: 429 `too_many_requests`.
pub async fn check_quota(tx: &Transaction<'_>, quota: &Quota, online: bool) -> AppResult<()> {
    let stored: i64 = tx
        .query_one(
            "SELECT COUNT(*) FROM games WHERE created_from = $1",
            &[&quota.address],
        )
        .await?
        .try_get(0)?;
    if stored as usize >= quota.stored_games {
        return Err(AppError::TooManyRequests(format!(
            "your address has {} saved games, the most kept per address: delete some to make room",
            quota.stored_games
        )));
    }
    if online {
        let unfinished: i64 = tx
            .query_one(
                "SELECT COUNT(*) FROM games
                 WHERE created_from = $1 AND mode = 'online' AND status <> 'finished'",
                &[&quota.address],
            )
            .await?
            .try_get(0)?;
        if unfinished as usize >= quota.unfinished_online_games {
            return Err(AppError::TooManyRequests(format!(
                "your address has {} unfinished online games, the most at once: finish, resign \
                 or delete one first",
                quota.unfinished_online_games
            )));
        }
    }
    Ok(())
}

/// Records the address game `id` was created from.
pub async fn set_created_from(tx: &Transaction<'_>, id: &str, address: &str) -> AppResult<()> {
    tx.execute(
        "UPDATE games SET created_from = $2 WHERE id = $1",
        &[&id, &address],
    )
    .await?;
    Ok(())
}

/// Gives game `to` the address game `from` was created from (a rematch).
pub async fn copy_created_from(tx: &Transaction<'_>, from: &str, to: &str) -> AppResult<()> {
    tx.execute(
        "UPDATE games SET created_from = (SELECT created_from FROM games WHERE id = $1)
         WHERE id = $2",
        &[&from, &to],
    )
    .await?;
    Ok(())
}

/// The games [`Abandoned`] describes (parameters $1, $2, $3: its three times).
const ABANDONED: &str = "status <> 'finished' AND (
        (mode <> 'online' AND updated_at < $1)
        OR (mode = 'online' AND updated_at < $2
            AND id IN (SELECT game_id FROM online_games WHERE phase = 'waiting'))
        OR (mode = 'online' AND updated_at < $3
            AND id IN (SELECT game_id FROM online_games WHERE phase = 'playing')))";

/// Abandoned games (at most `limit`, the longest unchanged first).
pub async fn abandoned_games(
    tx: &Transaction<'_>,
    when: &Abandoned,
    limit: usize,
) -> AppResult<Vec<String>> {
    let rows = tx
        .query(
            &format!(
                "SELECT id FROM games WHERE {ABANDONED}
                 ORDER BY updated_at, id COLLATE \"C\" LIMIT $4"
            ),
            &[
                &when.local_before,
                &when.waiting_before,
                &when.playing_before,
                &(limit.min(i64::MAX as usize) as i64),
            ],
        )
        .await?;
    rows.iter()
        .map(|r| r.try_get(0).map_err(AppError::from))
        .collect()
}

/// Deletes game `id` (with its seats, chat and links) if it is still abandoned. Returns whether
/// it was.
pub async fn delete_if_abandoned(
    tx: &Transaction<'_>,
    id: &str,
    when: &Abandoned,
) -> AppResult<bool> {
    let n = tx
        .execute(
            &format!("DELETE FROM games WHERE id = $4 AND {ABANDONED}"),
            &[
                &when.local_before,
                &when.waiting_before,
                &when.playing_before,
                &id,
            ],
        )
        .await?;
    Ok(n == 1)
}
