//! The `games` table: one row per game (start position, moves, redo list, summary columns),
//! the per-address quota, listing and retention's deletions.

use super::super::columns::{
    color_text, end_from_columns, mode_from_columns, moves_columns, summary, RawGame,
};
use super::super::{Abandoned, Change, GameRow, ListedGame, Quota, StoredGame};
use crate::backend::Backend;
use crate::error::{StoreError, StoreResult};
use crate::exec::{args, Db, Row};
use crate::games::GameStore;
use crate::StoreFuture;
use virada_domain::identity::BrowserId;
use virada_domain::model::online::OnlineGame;
use virada_domain::model::Owner;
use virada_domain::model::{GameRecord, Level, Status};

/// Inserts a new game.
pub async fn insert_game(db: &Db<'_>, rec: &GameRecord) -> StoreResult<()> {
    let s = summary(rec);
    let m = &rec.meta;
    let (moves, redo) = moves_columns(rec);
    db.execute(
        "INSERT INTO games (id, created_at, updated_at, mode, level, human_color, start_kind,
            start_pos, opening, seed, moves, redo, status, black_discs, white_discs, ply_count,
            transcript, owner, record_names)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,
            $18, $19)",
        args![
            m.id,
            m.created_at,
            m.updated_at,
            m.mode.name(),
            m.mode.level().map(|l| i64::from(Level::get(l))),
            m.mode.human_color().map(color_text),
            m.start_kind.as_str(),
            rec.game.start().to_string(),
            m.opening,
            m.seed as i64,
            moves,
            redo,
            s.status.as_str(),
            i64::from(s.black),
            i64::from(s.white),
            s.plies as i64,
            s.transcript,
            m.owner.column(),
            m.record.as_ref().map(|r| r.to_column()),
        ],
    )
    .await?;
    Ok(())
}

/// Stores the moves (and redo list) of an existing game. Returns false if the game is gone.
pub async fn update_moves(db: &Db<'_>, rec: &GameRecord) -> StoreResult<bool> {
    let s = summary(rec);
    let (moves, redo) = moves_columns(rec);
    let n = db
        .execute(
            "UPDATE games SET updated_at = $2, moves = $3, redo = $4, status = $5,
                black_discs = $6, white_discs = $7, ply_count = $8, transcript = $9
             WHERE id = $1",
            args![
                rec.meta.id,
                rec.meta.updated_at,
                moves,
                redo,
                s.status.as_str(),
                i64::from(s.black),
                i64::from(s.white),
                s.plies as i64,
                s.transcript,
            ],
        )
        .await?;
    Ok(n == 1)
}

/// Loads and replays a game. `Ok(None)`: no such game; a row that does not replay is 409
/// `corrupt_game` naming the game.
pub async fn load_game(db: &Db<'_>, id: &str) -> StoreResult<Option<GameRecord>> {
    let row = db
        .query_opt(
            "SELECT id, created_at, updated_at, mode, level, human_color, start_kind, start_pos,
                opening, seed, moves, redo, owner, record_names FROM games WHERE id = $1",
            args![id],
        )
        .await?;
    let Some(r) = row else {
        return Ok(None);
    };
    let raw = RawGame {
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
        record_names: r.get(13)?,
    };
    raw.into_record()
        .map(Some)
        .map_err(|e| StoreError::CorruptGame {
            id: id.to_string(),
            why: e,
        })
}

/// Whose game `id` is, from its row alone (no replay): `None` if there is no such row or its
/// owner column does not read.
pub async fn game_row(db: &Db<'_>, id: &str) -> StoreResult<Option<GameRow>> {
    let row = db
        .query_opt(
            "SELECT owner, mode, created_from FROM games WHERE id = $1",
            args![id],
        )
        .await?;
    let Some(r) = row else {
        return Ok(None);
    };
    let owner: Option<String> = r.get(0)?;
    let mode: String = r.get(1)?;
    let created_from: Option<String> = r.get(2)?;
    Ok(Owner::from_column(owner.as_deref())
        .ok()
        .map(|owner| GameRow {
            owner,
            online: mode == "online",
            created_from,
        }))
}

/// One listed row; the inner error says what in it is corrupt.
fn listed(r: &Row) -> StoreResult<Result<ListedGame, String>> {
    let id: String = r.get(0)?;
    let human: Option<String> = r.get(5)?;
    let status: String = r.get(6)?;
    let reason: Option<String> = r.get(12)?;
    let loser: Option<String> = r.get(13)?;
    let corrupt = |e: String| format!("stored game {id} is corrupt: {e}");
    let mode = match mode_from_columns(&r.get::<String>(3)?, r.get(4)?, human.as_deref()) {
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
        created_at: r.get(1)?,
        updated_at: r.get(2)?,
        mode,
        status,
        black_discs: r.get::<i64>(7)?.clamp(0, 64) as u8,
        white_discs: r.get::<i64>(8)?.clamp(0, 64) as u8,
        ply_count: r.get::<i64>(9)?.clamp(0, i64::from(u32::MAX)) as u32,
        transcript: r.get(10)?,
        start: r.get(11)?,
        end,
        black_name: r.get(14)?,
        white_name: r.get(15)?,
        id,
    }))
}

/// The saved games of `viewer` (the games it owns and the online games it holds a seat in),
/// most recently updated first; `status` filters them.
pub async fn list_games(
    db: &Db<'_>,
    viewer: BrowserId,
    status: Option<Status>,
    limit: u32,
) -> StoreResult<Vec<ListedGame>> {
    let rows = db
        .query(
            "SELECT id, created_at, updated_at, mode, level, human_color, status, black_discs,
                white_discs, ply_count, transcript, start_pos, o.end_reason, o.end_loser,
                o.black_name, o.white_name
             FROM games LEFT JOIN online_games o ON o.game_id = games.id
             WHERE (CAST($1 AS TEXT) IS NULL OR status = CAST($1 AS TEXT))
                AND (owner = $3 OR id IN (SELECT game_id FROM online_holders WHERE browser = $3))
             ORDER BY updated_at DESC, id COLLATE \"C\" LIMIT $2",
            args![
                status.map(Status::as_str),
                i64::from(limit),
                viewer.to_string(),
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
pub async fn claim_game(db: &Db<'_>, id: &str, browser: BrowserId) -> StoreResult<Option<Owner>> {
    db.execute(
        "UPDATE games SET owner = $2 WHERE id = $1 AND owner IS NULL",
        args![id, browser.to_string()],
    )
    .await?;
    let row = db
        .query_opt("SELECT owner FROM games WHERE id = $1", args![id])
        .await?;
    let owner: Option<Option<String>> = row.map(|r| r.get(0)).transpose()?;
    owner
        .map(|o| Owner::from_column(o.as_deref()))
        .transpose()
        .map_err(|e| StoreError::Db(format!("stored game {id} is corrupt: {e}")))
}

/// Gives every unclaimed game to `browser`; returns how many there were.
pub async fn claim_all_games(db: &Db<'_>, browser: BrowserId) -> StoreResult<u64> {
    db.execute(
        "UPDATE games SET owner = $1 WHERE owner IS NULL",
        args![browser.to_string()],
    )
    .await
}

/// Deletes a game. Returns whether it existed.
pub async fn delete_game(db: &Db<'_>, id: &str) -> StoreResult<bool> {
    // Its lease too (only instances sharing a PostgreSQL database take leases).
    db.execute("DELETE FROM game_leases WHERE game_id = $1", args![id])
        .await?;
    Ok(db
        .execute("DELETE FROM games WHERE id = $1", args![id])
        .await?
        == 1)
}

/// Refuses a new game from `quota.address` if that address has as many stored games, or
/// unfinished online games, as it may: 429 `too_many_requests`.
pub async fn check_quota(db: &Db<'_>, quota: &Quota, online: bool) -> StoreResult<()> {
    let stored: i64 = db
        .query_one(
            "SELECT COUNT(*) FROM games WHERE created_from = $1",
            args![quota.address],
        )
        .await?
        .get(0)?;
    if stored as usize >= quota.stored_games {
        return Err(StoreError::QuotaFull(format!(
            "your address has {} saved games, the most kept per address: delete some to make room",
            quota.stored_games
        )));
    }
    if online {
        let unfinished: i64 = db
            .query_one(
                "SELECT COUNT(*) FROM games
                 WHERE created_from = $1 AND mode = 'online' AND status <> 'finished'",
                args![quota.address],
            )
            .await?
            .get(0)?;
        if unfinished as usize >= quota.unfinished_online_games {
            return Err(StoreError::QuotaFull(format!(
                "your address has {} unfinished online games, the most at once: finish, resign \
                 or delete one first",
                quota.unfinished_online_games
            )));
        }
    }
    Ok(())
}

/// Records the address game `id` was created from.
pub async fn set_created_from(db: &Db<'_>, id: &str, address: &str) -> StoreResult<()> {
    db.execute(
        "UPDATE games SET created_from = $2 WHERE id = $1",
        args![id, address],
    )
    .await?;
    Ok(())
}

/// Gives game `to` the address game `from` was created from (a rematch).
pub async fn copy_created_from(db: &Db<'_>, from: &str, to: &str) -> StoreResult<()> {
    db.execute(
        "UPDATE games SET created_from = (SELECT created_from FROM games WHERE id = $1)
         WHERE id = $2",
        args![from, to],
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
    db: &Db<'_>,
    when: &Abandoned,
    limit: usize,
) -> StoreResult<Vec<String>> {
    let rows = db
        .query(
            &format!(
                "SELECT id FROM games WHERE {ABANDONED}
                 ORDER BY updated_at, id COLLATE \"C\" LIMIT $4"
            ),
            args![
                when.local_before,
                when.waiting_before,
                when.playing_before,
                limit.min(i64::MAX as usize) as i64,
            ],
        )
        .await?;
    rows.iter().map(|r| r.get(0)).collect()
}

/// Deletes game `id` (with its seats, chat and links) if it is still abandoned. Returns whether
/// it was.
pub async fn delete_if_abandoned(db: &Db<'_>, id: &str, when: &Abandoned) -> StoreResult<bool> {
    let n = db
        .execute(
            &format!("DELETE FROM games WHERE id = $4 AND {ABANDONED}"),
            args![
                when.local_before,
                when.waiting_before,
                when.playing_before,
                id,
            ],
        )
        .await?;
    Ok(n == 1)
}

/// Writes a new game's rows (inside the caller's transaction).
async fn insert_rows(db: &Db<'_>, game: &StoredGame) -> StoreResult<()> {
    insert_game(db, &game.rec).await?;
    if let Some(o) = &game.online {
        super::online::insert_online(db, &game.rec, o).await?;
    }
    Ok(())
}

/// Inserts a new game, within `quota` if given. The quota's address is locked for the rest of
/// the transaction, so two new games from one address cannot both take its last place.
pub async fn insert_within(
    db: &Db<'_>,
    game: &StoredGame,
    quota: Option<&Quota>,
) -> StoreResult<()> {
    if let Some(q) = quota {
        db.postgres_only(
            "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
            args![q.address],
        )
        .await?;
        check_quota(
            db,
            q,
            game.rec.meta.mode == virada_domain::model::Mode::Online,
        )
        .await?;
    }
    insert_rows(db, game).await?;
    if let Some(q) = quota {
        set_created_from(db, game.id(), &q.address).await?;
    }
    Ok(())
}

/// Reads game `id` with everything its actor needs.
pub async fn load(db: &Db<'_>, id: &str) -> StoreResult<Option<StoredGame>> {
    let Some(rec) = load_game(db, id).await? else {
        return Ok(None);
    };
    if rec.meta.mode != virada_domain::model::Mode::Online {
        // A local game has an online row once it has a clock or has been resigned.
        let online = super::online::load(db, id).await?;
        return Ok(Some(StoredGame { rec, online }));
    }
    match super::online::load(db, id).await? {
        Some(o) => Ok(Some(StoredGame {
            rec,
            online: Some(o),
        })),
        None => Err(StoreError::CorruptGame {
            id: id.to_string(),
            why: "an online game without its seats".into(),
        }),
    }
}

/// Stores a change: the moves, the online row and `changes`.
pub async fn save(
    db: &Db<'_>,
    rec: &GameRecord,
    o: Option<&OnlineGame>,
    changes: &[Change],
) -> StoreResult<()> {
    if !update_moves(db, rec).await? {
        return Err(StoreError::NoGame(rec.meta.id.clone()));
    }
    if let Some(o) = o {
        // A local game's first online state (its resignation) adds the row.
        super::online::ensure_row(db, &rec.meta.id).await?;
        super::online::write_online(db, rec, o).await?;
        // The end of a rated game moves the ratings in this same transaction.
        super::accounts::rate_game(db, rec, o).await?;
        super::safety::rate_bot_game(db, rec, o).await?;
        // The end of an arena game scores it in this same transaction.
        super::arenas::record_end(db, rec, o).await?;
    }
    for change in changes {
        super::online::apply_change(db, &rec.meta.id, rec.meta.updated_at, change).await?;
        if let Change::NewGame(new) = change {
            insert_rows(db, new).await?;
            // A rematch counts against the address its first game came from.
            copy_created_from(db, &rec.meta.id, new.id()).await?;
        }
    }
    Ok(())
}

/// Playing timed games whose deadline is missing get it computed once (rows stored at schema
/// version 3, or copied from such a database). Returns how many were filled.
pub async fn fill_missing_flags(db: &Db<'_>) -> StoreResult<usize> {
    let mut filled = 0;
    for id in super::online::missing_flags(db).await? {
        let Some(StoredGame {
            rec,
            online: Some(o),
        }) = load(db, &id).await?
        else {
            continue;
        };
        filled += super::online::set_flag(db, &id, virada_domain::model::online::flag_at(&rec, &o))
            .await?;
    }
    Ok(filled)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::dialect;
    use crate::migrations::{MIGRATIONS, SCHEMA_VERSION};
    use crate::sqlite::SqliteStore;
    use rusqlite::Connection;
    use virada_domain::model::{GameMeta, Mode, StartKind};
    use virada_rules::Game;

    /// `$e` (a future using the transaction `$d`) run in one transaction of `$store`.
    macro_rules! on {
        ($store:expr, |$d:ident| $e:expr) => {
            $store
                .exec_db()
                .run_here(move |$d| Box::pin(async move { $e.await }))
        };
    }

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
                record: None,
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
            conn.execute_batch(&dialect::sqlite(MIGRATIONS[0])).unwrap();
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
        let old = on!(db, |d| load_game(d, "g_old")).unwrap().unwrap();
        assert_eq!(old.meta.owner, Owner::Unclaimed);
        let other = BrowserId::of_token("other");
        on!(db, |d| insert_game(d, &record("g_mine"))).unwrap();
        let mut theirs = record("g_theirs");
        theirs.meta.owner = Owner::Browser(other);
        on!(db, |d| insert_game(d, &theirs)).unwrap();
        let ids = |b| -> Vec<String> {
            on!(db, |d| list_games(d, b, None, 10))
                .unwrap()
                .into_iter()
                .map(|g| g.id)
                .collect()
        };
        assert_eq!(ids(me()), ["g_mine"]);
        assert_eq!(ids(other), ["g_theirs"]);
        // The first claim wins; a second one reports the owner.
        assert_eq!(
            on!(db, |d| claim_game(d, "g_old", other)).unwrap(),
            Some(Owner::Browser(other))
        );
        assert_eq!(
            on!(db, |d| claim_game(d, "g_old", me())).unwrap(),
            Some(Owner::Browser(other))
        );
        assert_eq!(on!(db, |d| claim_game(d, "g_none", me())).unwrap(), None);
        assert_eq!(ids(other), ["g_theirs", "g_old"]);
        assert_eq!(on!(db, |d| claim_all_games(d, me())).unwrap(), 0);
    }

    #[test]
    fn roundtrip_migrate_and_corruption() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite");
        let db = SqliteStore::open(&path).unwrap();
        assert_eq!(db.schema_version(), SCHEMA_VERSION);
        let mut rec = record("g_1");
        let first = rec.clone();
        on!(db, |d| insert_game(d, &first)).unwrap();
        rec.game.play("d6".parse().unwrap()).unwrap();
        let moved = rec.clone();
        assert!(on!(db, |d| update_moves(d, &moved)).unwrap());
        let back = on!(db, |d| load_game(d, "g_1")).unwrap().unwrap();
        assert_eq!(back.game, rec.game);
        assert_eq!(back.meta, rec.meta);
        assert!(on!(db, |d| load_game(d, "g_2")).unwrap().is_none());
        assert_eq!(
            on!(db, |d| list_games(d, me(), Some(Status::Ongoing), 10))
                .unwrap()
                .len(),
            1
        );
        assert_eq!(
            on!(db, |d| list_games(d, me(), Some(Status::Finished), 10))
                .unwrap()
                .len(),
            0
        );
        // A corrupt row is reported, not a panic.
        db.hold_connection()
            .execute("UPDATE games SET moves = 'f5 a1' WHERE id = 'g_1'", [])
            .unwrap();
        let err = on!(db, |d| load_game(d, "g_1")).unwrap_err();
        assert!(matches!(err, StoreError::CorruptGame { .. }), "{err}");
        // Its owner is still read from the row.
        let row = on!(db, |d| game_row(d, "g_1"))
            .unwrap()
            .expect("the row is there");
        assert!(!row.online);
        assert_eq!(on!(db, |d| game_row(d, "nope")).unwrap(), None);
        assert!(on!(db, |d| delete_game(d, "g_1")).unwrap());
        assert!(!on!(db, |d| delete_game(d, "g_1")).unwrap());
        drop(db);
        // Re-opening does not re-apply migrations.
        let db = SqliteStore::open(&path).unwrap();
        assert_eq!(db.schema_version(), SCHEMA_VERSION);
    }
}

impl<B: Backend> GameStore for B {
    fn insert_game(&self, game: StoredGame, quota: Option<Quota>) -> StoreFuture<'_, ()> {
        self.write(move |db| {
            Box::pin(async move { insert_within(db, &game, quota.as_ref()).await })
        })
    }

    fn load_game(&self, id: &str) -> StoreFuture<'_, Option<StoredGame>> {
        let id = id.to_string();
        self.read(move |db| Box::pin(async move { load(db, &id).await }))
    }

    fn save(
        &self,
        rec: GameRecord,
        online: Option<OnlineGame>,
        changes: Vec<Change>,
    ) -> StoreFuture<'_, ()> {
        self.write(move |db| {
            Box::pin(async move { save(db, &rec, online.as_ref(), &changes).await })
        })
    }

    fn game_row(&self, id: &str) -> StoreFuture<'_, Option<GameRow>> {
        let id = id.to_string();
        self.read(move |db| Box::pin(async move { game_row(db, &id).await }))
    }

    fn claim_game(&self, id: &str, browser: BrowserId) -> StoreFuture<'_, Option<Owner>> {
        let id = id.to_string();
        self.write(move |db| Box::pin(async move { claim_game(db, &id, browser).await }))
    }

    fn list_games(
        &self,
        viewer: BrowserId,
        status: Option<Status>,
        limit: u32,
        claim_unowned: bool,
    ) -> StoreFuture<'_, Vec<ListedGame>> {
        self.write(move |db| {
            Box::pin(async move {
                if claim_unowned {
                    claim_all_games(db, viewer).await?;
                }
                list_games(db, viewer, status, limit).await
            })
        })
    }

    fn delete_game(&self, id: &str) -> StoreFuture<'_, bool> {
        let id = id.to_string();
        self.write(move |db| Box::pin(async move { delete_game(db, &id).await }))
    }

    fn abandoned_games(&self, when: Abandoned, limit: usize) -> StoreFuture<'_, Vec<String>> {
        self.read(move |db| Box::pin(async move { abandoned_games(db, &when, limit).await }))
    }

    fn delete_if_abandoned(&self, id: &str, when: Abandoned) -> StoreFuture<'_, bool> {
        let id = id.to_string();
        self.write(move |db| Box::pin(async move { delete_if_abandoned(db, &id, &when).await }))
    }
}
