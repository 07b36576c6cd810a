//! SQLite persistence: one row per game (start position + move list + metadata), WAL mode with
//! `synchronous=FULL` so a move is on disk before the server acknowledges it, and a versioned
//! schema upgraded by [`migrations`](MIGRATIONS) at start-up.
//!
//! Every method here is blocking; async callers go through [`Db::call`], which runs the closure on
//! tokio's blocking pool.

use crate::error::{AppError, AppResult};
use crate::model::{
    color_str, moves_from_text, moves_to_text, parse_color, rebuild_game, GameMeta, GameRecord,
    Mode, StartKind,
};
use rusqlite::{params, Connection, OptionalExtension};
use std::path::Path;
use std::sync::{Arc, Mutex};
use virada_rules::Position;

/// Schema migrations, applied in order; entry `i` brings the schema to version `i + 1`.
/// Never edit a released entry: append a new one.
const MIGRATIONS: &[&str] = &[
    // v1: games as start position + moves (+ redo list), with summary columns for listing.
    "CREATE TABLE games (
        id           TEXT PRIMARY KEY,
        created_at   INTEGER NOT NULL,
        updated_at   INTEGER NOT NULL,
        mode         TEXT NOT NULL,
        level        INTEGER,
        human_color  TEXT,
        start_kind   TEXT NOT NULL,
        start_pos    TEXT NOT NULL,
        opening      TEXT,
        seed         INTEGER NOT NULL,
        moves        TEXT NOT NULL,
        redo         TEXT NOT NULL,
        status       TEXT NOT NULL,
        black_discs  INTEGER NOT NULL,
        white_discs  INTEGER NOT NULL,
        ply_count    INTEGER NOT NULL,
        transcript   TEXT NOT NULL
    );
    CREATE INDEX games_updated ON games(updated_at DESC);",
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// A shareable handle on the database.
#[derive(Clone)]
pub struct Db {
    conn: Arc<Mutex<Connection>>,
}

/// One line of the saved-games list (read from the summary columns, without replaying).
#[derive(Clone, Debug)]
pub struct GameSummary {
    pub id: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub mode: String,
    pub level: Option<u8>,
    pub human_color: Option<String>,
    pub status: String,
    pub black_discs: u8,
    pub white_discs: u8,
    pub ply_count: u32,
    pub transcript: String,
}

impl Db {
    /// Opens (creating if needed) the database file and brings its schema up to date.
    pub fn open(path: &Path) -> Result<Db, String> {
        let conn = Connection::open(path)
            .map_err(|e| format!("cannot open database {}: {e}", path.display()))?;
        Db::configure(conn, &path.display().to_string())
    }

    fn configure(mut conn: Connection, name: &str) -> Result<Db, String> {
        let err = |e: rusqlite::Error| format!("database {name}: {e}");
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(err)?;
        // WAL: readers never block the writer, and a commit is one append to the log.
        // synchronous=FULL: the log is fsynced at every commit, so an acknowledged move survives
        // kill -9 and also a power cut (NORMAL would survive kill -9 only).
        let mode: String = conn
            .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
            .map_err(err)?;
        if !mode.eq_ignore_ascii_case("wal") && !mode.eq_ignore_ascii_case("memory") {
            return Err(format!("database {name}: cannot enable WAL (mode {mode})"));
        }
        conn.execute_batch("PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;")
            .map_err(err)?;
        migrate(&mut conn).map_err(|e| format!("database {name}: {e}"))?;
        Ok(Db {
            conn: Arc::new(Mutex::new(conn)),
        })
    }

    /// Runs `f` with the connection on the blocking thread pool.
    pub async fn call<T, F>(&self, f: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> AppResult<T> + Send + 'static,
    {
        let conn = self.conn.clone();
        tokio::task::spawn_blocking(move || {
            // A panic while holding the lock poisons it; the connection itself is still sound
            // (SQLite rolls back an unfinished transaction), so keep using it.
            let guard = conn.lock().unwrap_or_else(|p| p.into_inner());
            f(&guard)
        })
        .await
        .map_err(|e| AppError::Internal(format!("database task failed: {e}")))?
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> i64 {
        let guard = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        current_version(&guard).unwrap_or(0)
    }
}

fn current_version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row(
        "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
        [],
        |r| r.get(0),
    )
}

fn migrate(conn: &mut Connection) -> Result<(), String> {
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
            version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)",
    )
    .map_err(|e| e.to_string())?;
    let version = current_version(conn).map_err(|e| e.to_string())?;
    if version > SCHEMA_VERSION {
        return Err(format!(
            "schema version {version} is newer than this program understands ({SCHEMA_VERSION}); \
             use a newer virada or another --db file"
        ));
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        let tx = conn.transaction().map_err(|e| e.to_string())?;
        tx.execute_batch(sql)
            .map_err(|e| format!("migration {}: {e}", i + 1))?;
        tx.execute(
            "INSERT INTO schema_migrations (version, applied_at) VALUES (?1, ?2)",
            params![i as i64 + 1, crate::util::now_millis()],
        )
        .map_err(|e| e.to_string())?;
        tx.commit().map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Summary columns derived from the game.
struct Summary {
    status: &'static str,
    black: u32,
    white: u32,
    plies: usize,
    transcript: String,
}

fn summary(rec: &GameRecord) -> Summary {
    let pos = rec.game.position();
    Summary {
        status: if pos.is_game_over() {
            "finished"
        } else {
            "ongoing"
        },
        black: pos.black().count(),
        white: pos.white().count(),
        plies: rec.game.ply(),
        transcript: rec.game.to_string(),
    }
}

/// Inserts a new game.
pub fn insert_game(conn: &Connection, rec: &GameRecord) -> AppResult<()> {
    let s = summary(rec);
    let m = &rec.meta;
    conn.execute(
        "INSERT INTO games (id, created_at, updated_at, mode, level, human_color, start_kind,
            start_pos, opening, seed, moves, redo, status, black_discs, white_discs, ply_count,
            transcript)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
        params![
            m.id,
            m.created_at,
            m.updated_at,
            m.mode.as_str(),
            m.level,
            m.human_color.map(color_str),
            m.start_kind.as_str(),
            rec.game.start().to_string(),
            m.opening,
            m.seed as i64,
            moves_to_text(rec.game.moves().iter().copied()),
            moves_to_text(rec.game.redo_moves()),
            s.status,
            s.black,
            s.white,
            s.plies as i64,
            s.transcript,
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
            s.status,
            s.black,
            s.white,
            s.plies as i64,
            s.transcript,
        ],
    )?;
    Ok(n == 1)
}

/// Loads and replays a game. `Ok(None)`: no such game. A row that does not replay is reported as
/// an internal error naming the game and the fault (the server goes on).
pub fn load_game(conn: &Connection, id: &str) -> AppResult<Option<GameRecord>> {
    let row = conn
        .query_row(
            "SELECT id, created_at, updated_at, mode, level, human_color, start_kind, start_pos,
                opening, seed, moves, redo FROM games WHERE id = ?1",
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
                })
            },
        )
        .optional()?;
    match row {
        None => Ok(None),
        Some(raw) => raw
            .into_record()
            .map(Some)
            .map_err(|e| AppError::Internal(format!("stored game {id} is corrupt: {e}"))),
    }
}

struct RawGame {
    id: String,
    created_at: i64,
    updated_at: i64,
    mode: String,
    level: Option<i64>,
    human_color: Option<String>,
    start_kind: String,
    start_pos: String,
    opening: Option<String>,
    seed: i64,
    moves: String,
    redo: String,
}

impl RawGame {
    fn into_record(self) -> Result<GameRecord, String> {
        let mode = Mode::parse(&self.mode).ok_or_else(|| format!("mode {:?}", self.mode))?;
        let start_kind = StartKind::parse(&self.start_kind)
            .ok_or_else(|| format!("start kind {:?}", self.start_kind))?;
        let human_color = match &self.human_color {
            None => None,
            Some(c) => Some(parse_color(c).ok_or_else(|| format!("human colour {c:?}"))?),
        };
        let level = match self.level {
            None => None,
            Some(l) => Some(u8::try_from(l).map_err(|_| format!("level {l}"))?),
        };
        if mode == Mode::Computer && (human_color.is_none() || level.is_none()) {
            return Err("computer game without level or colour".into());
        }
        let start: Position = self
            .start_pos
            .parse()
            .map_err(|e| format!("start position: {e}"))?;
        let moves = moves_from_text(&self.moves).map_err(|e| format!("moves: {e}"))?;
        let redo = moves_from_text(&self.redo).map_err(|e| format!("redo list: {e}"))?;
        let game = rebuild_game(start, &moves, &redo)?;
        Ok(GameRecord {
            meta: GameMeta {
                id: self.id,
                created_at: self.created_at,
                updated_at: self.updated_at,
                mode,
                level,
                human_color,
                start_kind,
                opening: self.opening,
                seed: self.seed as u64,
            },
            game,
        })
    }
}

/// Saved games, most recently updated first; `status` filters on `ongoing` / `finished`.
pub fn list_games(
    conn: &Connection,
    status: Option<&str>,
    limit: u32,
) -> AppResult<Vec<GameSummary>> {
    let mut stmt = conn.prepare(
        "SELECT id, created_at, updated_at, mode, level, human_color, status, black_discs,
            white_discs, ply_count, transcript
         FROM games WHERE (?1 IS NULL OR status = ?1)
         ORDER BY updated_at DESC, id LIMIT ?2",
    )?;
    let rows = stmt.query_map(params![status, limit], |r| {
        Ok(GameSummary {
            id: r.get(0)?,
            created_at: r.get(1)?,
            updated_at: r.get(2)?,
            mode: r.get(3)?,
            level: r.get::<_, Option<i64>>(4)?.map(|l| l.clamp(0, 255) as u8),
            human_color: r.get(5)?,
            status: r.get(6)?,
            black_discs: r.get::<_, i64>(7)?.clamp(0, 64) as u8,
            white_discs: r.get::<_, i64>(8)?.clamp(0, 64) as u8,
            ply_count: r.get::<_, i64>(9)?.max(0) as u32,
            transcript: r.get(10)?,
        })
    })?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

/// Deletes a game. Returns whether it existed.
pub fn delete_game(conn: &Connection, id: &str) -> AppResult<bool> {
    Ok(conn.execute("DELETE FROM games WHERE id = ?1", params![id])? == 1)
}

#[cfg(test)]
mod tests {
    use super::*;
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
                level: None,
                human_color: None,
                start_kind: StartKind::Standard,
                opening: None,
                seed: 7,
            },
            game,
        }
    }

    #[test]
    fn roundtrip_migrate_and_corruption() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite");
        let db = Db::open(&path).unwrap();
        assert_eq!(db.schema_version(), SCHEMA_VERSION);
        let conn = db.conn.lock().unwrap();
        let mut rec = record("g_1");
        insert_game(&conn, &rec).unwrap();
        rec.game.play("d6".parse().unwrap()).unwrap();
        assert!(update_moves(&conn, &rec).unwrap());
        let back = load_game(&conn, "g_1").unwrap().unwrap();
        assert_eq!(back.game, rec.game);
        assert_eq!(back.meta, rec.meta);
        assert!(load_game(&conn, "g_2").unwrap().is_none());
        assert_eq!(list_games(&conn, Some("ongoing"), 10).unwrap().len(), 1);
        assert_eq!(list_games(&conn, Some("finished"), 10).unwrap().len(), 0);
        // A corrupt row is reported, not a panic.
        conn.execute("UPDATE games SET moves = 'f5 a1' WHERE id = 'g_1'", [])
            .unwrap();
        let err = load_game(&conn, "g_1").unwrap_err();
        assert!(err.message().contains("corrupt"), "{err}");
        assert!(delete_game(&conn, "g_1").unwrap());
        assert!(!delete_game(&conn, "g_1").unwrap());
        drop(conn);
        drop(db);
        // Re-opening does not re-apply migrations.
        let db = Db::open(&path).unwrap();
        assert_eq!(db.schema_version(), SCHEMA_VERSION);
    }
}
