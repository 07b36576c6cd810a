//! The `games` table: one row per game (start position, moves, redo list, summary columns),
//! the per-address quota, listing and retention's deletions.

use super::super::columns::{mode_from_columns, summary, RawGame};
use super::super::{Abandoned, GameRow, ListedGame, Quota};
use super::{color_from, color_text};
use crate::error::{AppError, AppResult};
use crate::identity::BrowserId;
use crate::model::Owner;
use crate::model::{moves_to_text, GameRecord, Level, Status};
use rusqlite::{params, Connection, OptionalExtension};

/// Inserts a new game.
pub fn insert_game(conn: &Connection, rec: &GameRecord) -> AppResult<()> {
    let s = summary(rec);
    let m = &rec.meta;
    conn.execute(
        "INSERT INTO games (id, created_at, updated_at, mode, level, human_color, start_kind,
            start_pos, opening, seed, moves, redo, status, black_discs, white_discs, ply_count,
            transcript, owner)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
            ?18)",
        params![
            m.id,
            m.created_at,
            m.updated_at,
            m.mode.name(),
            m.mode.level().map(Level::get),
            m.mode.human_color().map(color_text),
            m.start_kind.as_str(),
            rec.game.start().to_string(),
            m.opening,
            m.seed as i64,
            moves_to_text(rec.game.moves().iter().copied()),
            moves_to_text(rec.game.redo_moves()),
            s.status.as_str(),
            s.black,
            s.white,
            s.plies as i64,
            s.transcript,
            m.owner.column(),
        ],
    )?;
    Ok(())
}

/// Stores the moves (and redo list) of an existing game. Returns false if the game is gone.
pub fn update_moves(conn: &Connection, rec: &GameRecord) -> AppResult<bool> {
    let s = summary(rec);
    let n = conn.execute(
        "UPDATE games SET updated_at = ?2, moves = ?3, redo = ?4, status = ?5, black_discs = ?6,
            white_discs = ?7, ply_count = ?8, transcript = ?9
         WHERE id = ?1",
        params![
            rec.meta.id,
            rec.meta.updated_at,
            moves_to_text(rec.game.moves().iter().copied()),
            moves_to_text(rec.game.redo_moves()),
            s.status.as_str(),
            s.black,
            s.white,
            s.plies as i64,
            s.transcript,
        ],
    )?;
    Ok(n == 1)
}

/// Loads and replays a game. `Ok(None)`: no such game. A row that does not replay is reported as
/// 409 `corrupt_game` naming the game and the fault (the server goes on).
pub fn load_game(conn: &Connection, id: &str) -> AppResult<Option<GameRecord>> {
    let row = conn
        .query_row(
            "SELECT id, created_at, updated_at, mode, level, human_color, start_kind, start_pos,
                opening, seed, moves, redo, owner FROM games WHERE id = ?1",
            params![id],
            |r| {
                Ok(RawGame {
                    id: r.get(0)?,
                    created_at: r.get(1)?,
                    updated_at: r.get(2)?,
                    mode: r.get(3)?,
                    level: r.get(4)?,
                    human_color: r.get(5)?,
                    start_kind: r.get(6)?,
                    start_pos: r.get(7)?,
                    opening: r.get(8)?,
                    seed: r.get(9)?,
                    moves: r.get(10)?,
                    redo: r.get(11)?,
                    owner: r.get(12)?,
                })
            },
        )
        .optional()?;
    match row {
        None => Ok(None),
        Some(raw) => raw
            .into_record()
            .map(Some)
            .map_err(|e| AppError::corrupt_game(id, &e)),
    }
}

/// Whose game `id` is, from its row alone (no replay): `None` if there is no such row or its
/// owner column does not read (then nobody can show the game is theirs).
pub fn game_row(conn: &Connection, id: &str) -> AppResult<Option<GameRow>> {
    let row: Option<(Option<String>, String, Option<String>)> = conn
        .query_row(
            "SELECT owner, mode, created_from FROM games WHERE id = ?1",
            params![id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?;
    Ok(row.and_then(|(owner, mode, created_from)| {
        Owner::from_column(owner.as_deref())
            .ok()
            .map(|owner| GameRow {
                owner,
                online: mode == "online",
                created_from,
            })
    }))
}

/// Which games the list shows to browser `?3`: the games it owns, and the online games it
/// holds a seat in.
const VISIBLE_TO_BROWSER: &str =
    "owner = ?3 OR id IN (SELECT game_id FROM online_holders WHERE browser = ?3)";

/// The saved games of `viewer` (see [`VISIBLE_TO_BROWSER`]), most recently updated first;
/// `status` filters them.
pub fn list_games(
    conn: &Connection,
    viewer: BrowserId,
    status: Option<Status>,
    limit: u32,
) -> AppResult<Vec<ListedGame>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT id, created_at, updated_at, mode, level, human_color, status, black_discs,
            white_discs, ply_count, transcript, start_pos, o.end_reason, o.end_loser,
            o.black_name, o.white_name
         FROM games LEFT JOIN online_games o ON o.game_id = games.id
         WHERE (?1 IS NULL OR status = ?1) AND ({VISIBLE_TO_BROWSER})
         ORDER BY updated_at DESC, id LIMIT ?2"
    ))?;
    let rows = stmt.query_map(
        params![status.map(Status::as_str), limit, viewer.to_string()],
        |r| {
            let id: String = r.get(0)?;
            let mode: String = r.get(3)?;
            let level: Option<i64> = r.get(4)?;
            let human: Option<String> = r.get(5)?;
            let status: String = r.get(6)?;
            let corrupt = |e: String| format!("stored game {id} is corrupt: {e}");
            let mode = match mode_from_columns(&mode, level, human.as_deref()) {
                Ok(mode) => mode,
                Err(e) => return Ok(Err(corrupt(e))),
            };
            let Some(status) = Status::parse(&status) else {
                return Ok(Err(corrupt(format!("status {status:?}"))));
            };
            let end = match r.get::<_, Option<String>>(12)? {
                Some(reason) => {
                    let loser = match r
                        .get::<_, Option<String>>(13)?
                        .as_deref()
                        .map(color_from)
                        .transpose()
                    {
                        Ok(loser) => loser,
                        Err(e) => return Ok(Err(corrupt(e))),
                    };
                    match crate::model::online::End::from_columns(&reason, loser) {
                        Some(end) => Some(end),
                        None => return Ok(Err(corrupt(format!("end {reason:?}")))),
                    }
                }
                None => None,
            };
            Ok(Ok(ListedGame {
                created_at: r.get(1)?,
                updated_at: r.get(2)?,
                mode,
                status,
                black_discs: r.get::<_, i64>(7)?.clamp(0, 64) as u8,
                white_discs: r.get::<_, i64>(8)?.clamp(0, 64) as u8,
                ply_count: r.get::<_, i64>(9)?.max(0) as u32,
                transcript: r.get(10)?,
                start: r.get(11)?,
                end,
                black_name: r.get(14)?,
                white_name: r.get(15)?,
                id,
            }))
        },
    )?;
    // A corrupt line is left out of the list (and logged), not a failure of the whole list.
    let mut games = Vec::new();
    for row in rows {
        match row? {
            Ok(listed) => games.push(listed),
            Err(e) => tracing::error!(error = %e, "a stored game is left out of the list"),
        }
    }
    Ok(games)
}

/// Gives the unclaimed game `id` (stored before owners) to `browser`; returns the game's owner
/// afterwards (another browser's, if it was claimed first; `None` if there is no such game).
pub fn claim_game(conn: &Connection, id: &str, browser: BrowserId) -> AppResult<Option<Owner>> {
    conn.execute(
        "UPDATE games SET owner = ?2 WHERE id = ?1 AND owner IS NULL",
        params![id, browser.to_string()],
    )?;
    let owner: Option<Option<String>> = conn
        .query_row("SELECT owner FROM games WHERE id = ?1", params![id], |r| {
            r.get(0)
        })
        .optional()?;
    owner
        .map(|o| Owner::from_column(o.as_deref()))
        .transpose()
        .map_err(|e| AppError::Internal(format!("stored game {id} is corrupt: {e}")))
}

/// Gives every unclaimed game to `browser`; returns how many there were.
pub fn claim_all_games(conn: &Connection, browser: BrowserId) -> AppResult<usize> {
    Ok(conn.execute(
        "UPDATE games SET owner = ?1 WHERE owner IS NULL",
        params![browser.to_string()],
    )?)
}

/// Deletes a game. Returns whether it existed.
pub fn delete_game(conn: &Connection, id: &str) -> AppResult<bool> {
    Ok(conn.execute("DELETE FROM games WHERE id = ?1", params![id])? == 1)
}

/// Refuses a new game (`online`: an online one) from `quota.address` if that address has as many
/// stored games, or unfinished online games, as it may: 429 `too_many_requests`.
pub fn check_quota(conn: &Connection, quota: &Quota, online: bool) -> AppResult<()> {
    let stored: i64 = conn.query_row(
        "SELECT COUNT(*) FROM games WHERE created_from = ?1",
        params![quota.address],
        |r| r.get(0),
    )?;
    if stored as usize >= quota.stored_games {
        return Err(AppError::TooManyRequests(format!(
            "your address has {} saved games, the most kept per address: delete some to make room",
            quota.stored_games
        )));
    }
    if online {
        let unfinished: i64 = conn.query_row(
            "SELECT COUNT(*) FROM games
             WHERE created_from = ?1 AND mode = 'online' AND status <> 'finished'",
            params![quota.address],
            |r| r.get(0),
        )?;
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
pub fn set_created_from(conn: &Connection, id: &str, address: &str) -> AppResult<()> {
    conn.execute(
        "UPDATE games SET created_from = ?2 WHERE id = ?1",
        params![id, address],
    )?;
    Ok(())
}

/// Gives game `to` the address game `from` was created from (a rematch).
pub fn copy_created_from(conn: &Connection, from: &str, to: &str) -> AppResult<()> {
    conn.execute(
        "UPDATE games SET created_from = (SELECT created_from FROM games WHERE id = ?1)
         WHERE id = ?2",
        params![from, to],
    )?;
    Ok(())
}

/// The games [`Abandoned`] describes (parameters ?1, ?2, ?3: its three times).
const ABANDONED: &str = "status <> 'finished' AND (
        (mode <> 'online' AND updated_at < ?1)
        OR (mode = 'online' AND updated_at < ?2
            AND id IN (SELECT game_id FROM online_games WHERE phase = 'waiting'))
        OR (mode = 'online' AND updated_at < ?3
            AND id IN (SELECT game_id FROM online_games WHERE phase = 'playing')))";

/// Abandoned games (at most `limit`, the longest unchanged first).
pub fn abandoned_games(
    conn: &Connection,
    when: &Abandoned,
    limit: usize,
) -> AppResult<Vec<String>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT id FROM games WHERE {ABANDONED} ORDER BY updated_at, id LIMIT ?4"
    ))?;
    let ids = stmt
        .query_map(
            params![
                when.local_before,
                when.waiting_before,
                when.playing_before,
                limit as i64
            ],
            |r| r.get::<_, String>(0),
        )?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ids)
}

/// Deletes game `id` (with its seats, chat and links) if it is still abandoned. Returns whether
/// it was.
pub fn delete_if_abandoned(conn: &Connection, id: &str, when: &Abandoned) -> AppResult<bool> {
    let n = conn.execute(
        &format!("DELETE FROM games WHERE id = ?4 AND {ABANDONED}"),
        params![
            when.local_before,
            when.waiting_before,
            when.playing_before,
            id
        ],
    )?;
    Ok(n == 1)
}

#[cfg(test)]
mod tests {
    use super::super::{SqliteStore, MIGRATIONS, SCHEMA_VERSION};
    use super::*;
    use crate::model::{GameMeta, Mode, StartKind};
    use virada_rules::Game;

    fn record(id: &str) -> GameRecord {
        let mut game = Game::new();
        game.play("f5".parse().unwrap()).unwrap();
        GameRecord {
            meta: GameMeta {
                id: id.into(),
                created_at: 1,
                updated_at: 2,
                mode: Mode::Friend,
                start_kind: StartKind::Standard,
                opening: None,
                seed: 7,
                owner: Owner::Browser(BrowserId::of_token("me")),
            },
            game,
        }
    }

    fn me() -> BrowserId {
        BrowserId::of_token("me")
    }

    #[test]
    fn lists_are_per_browser_and_old_games_are_claimed_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite");
        // A version-1 database with one game, as stored before owners.
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(MIGRATIONS[0]).unwrap();
            conn.execute_batch(
                "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY,
                    applied_at INTEGER NOT NULL);
                 INSERT INTO schema_migrations VALUES (1, 0);
                 INSERT INTO games VALUES ('g_old', 1, 1, 'friend', NULL, NULL, 'standard',
                    '---------------------------OX------XO--------------------------- X', NULL,
                    3, 'f5', '', 'ongoing', 4, 1, 1, 'f5');",
            )
            .unwrap();
        }
        let db = SqliteStore::open(&path).unwrap();
        assert_eq!(db.schema_version(), SCHEMA_VERSION);
        let conn = db.hold_connection();
        let old = load_game(&conn, "g_old").unwrap().unwrap();
        assert_eq!(old.meta.owner, Owner::Unclaimed);
        let other = BrowserId::of_token("other");
        insert_game(&conn, &record("g_mine")).unwrap();
        let mut theirs = record("g_theirs");
        theirs.meta.owner = Owner::Browser(other);
        insert_game(&conn, &theirs).unwrap();
        let ids = |b| -> Vec<String> {
            list_games(&conn, b, None, 10)
                .unwrap()
                .into_iter()
                .map(|g| g.id)
                .collect()
        };
        assert_eq!(ids(me()), ["g_mine"]);
        assert_eq!(ids(other), ["g_theirs"]);
        // The first claim wins; a second one reports the owner.
        assert_eq!(
            claim_game(&conn, "g_old", other).unwrap(),
            Some(Owner::Browser(other))
        );
        assert_eq!(
            claim_game(&conn, "g_old", me()).unwrap(),
            Some(Owner::Browser(other))
        );
        assert_eq!(claim_game(&conn, "g_none", me()).unwrap(), None);
        assert_eq!(ids(other), ["g_theirs", "g_old"]);
        assert_eq!(claim_all_games(&conn, me()).unwrap(), 0);
    }

    #[test]
    fn roundtrip_migrate_and_corruption() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite");
        let db = SqliteStore::open(&path).unwrap();
        assert_eq!(db.schema_version(), SCHEMA_VERSION);
        let conn = db.hold_connection();
        let mut rec = record("g_1");
        insert_game(&conn, &rec).unwrap();
        rec.game.play("d6".parse().unwrap()).unwrap();
        assert!(update_moves(&conn, &rec).unwrap());
        let back = load_game(&conn, "g_1").unwrap().unwrap();
        assert_eq!(back.game, rec.game);
        assert_eq!(back.meta, rec.meta);
        assert!(load_game(&conn, "g_2").unwrap().is_none());
        assert_eq!(
            list_games(&conn, me(), Some(Status::Ongoing), 10)
                .unwrap()
                .len(),
            1
        );
        assert_eq!(
            list_games(&conn, me(), Some(Status::Finished), 10)
                .unwrap()
                .len(),
            0
        );
        // A corrupt row is reported, not a panic.
        conn.execute("UPDATE games SET moves = 'f5 a1' WHERE id = 'g_1'", [])
            .unwrap();
        let err = load_game(&conn, "g_1").unwrap_err();
        assert_eq!(err.code(), "corrupt_game", "{err}");
        // Its owner is still read from the row.
        let row = game_row(&conn, "g_1").unwrap().expect("the row is there");
        assert!(!row.online);
        assert_eq!(game_row(&conn, "nope").unwrap(), None);
        assert!(delete_game(&conn, "g_1").unwrap());
        assert!(!delete_game(&conn, "g_1").unwrap());
        drop(conn);
        drop(db);
        // Re-opening does not re-apply migrations.
        let db = SqliteStore::open(&path).unwrap();
        assert_eq!(db.schema_version(), SCHEMA_VERSION);
    }
}
