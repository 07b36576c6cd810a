//! Practice sets (`crate::practice`): at most a given number a holder, one a game and side
//! (a new one for the same game and side replaces it, progress included). An account's sets
//! are in `practice_sets`, a guest browser's in `guest_practice_sets` (same columns, no account
//! to refer to); each function picks the table by whether the holder is an account, and
//! [`adopt`] moves a guest's sets to the account it signs up or in to, as its games are.

use crate::backend::Backend;
use crate::error::{StoreError, StoreResult};
use crate::exec::{args, Db, Row};
use crate::practice::PracticeStore;
use crate::practice::{solved_from_text, solved_text, PracticeSetRow};
use crate::StoreFuture;
use virada_domain::identity::BrowserId;

/// Schema version 14.
pub const MIGRATION: &str = "CREATE TABLE practice_sets (
        id          TEXT PRIMARY KEY,
        holder      TEXT NOT NULL REFERENCES accounts(holder) ON DELETE CASCADE,
        game_id     TEXT NOT NULL,
        color       TEXT NOT NULL,
        created_at  BIGINT NOT NULL,
        items       TEXT NOT NULL,
        solved      TEXT NOT NULL
    );
    CREATE UNIQUE INDEX practice_sets_game ON practice_sets(holder, game_id, color);
    CREATE INDEX practice_sets_holder ON practice_sets(holder, created_at);";

/// Schema version 15: a guest browser's practice sets (moved to the account at sign-up or
/// sign-in, [`adopt`]).
pub const GUEST_MIGRATION: &str = "CREATE TABLE guest_practice_sets (
        id          TEXT PRIMARY KEY,
        holder      TEXT NOT NULL,
        game_id     TEXT NOT NULL,
        color       TEXT NOT NULL,
        created_at  BIGINT NOT NULL,
        items       TEXT NOT NULL,
        solved      TEXT NOT NULL
    );
    CREATE UNIQUE INDEX guest_practice_sets_game ON guest_practice_sets(holder, game_id, color);
    CREATE INDEX guest_practice_sets_holder ON guest_practice_sets(holder, created_at);";

/// The table of `holder`'s sets: an account's, or a guest browser's.
async fn table_of(db: &Db<'_>, holder: &str) -> StoreResult<&'static str> {
    let account = db
        .query_opt("SELECT 1 FROM accounts WHERE holder = $1", args![holder])
        .await?
        .is_some();
    Ok(if account {
        "practice_sets"
    } else {
        "guest_practice_sets"
    })
}

const COLUMNS: &str = "id, holder, game_id, color, created_at, items, solved";

fn set_of(r: &Row) -> StoreResult<PracticeSetRow> {
    let holder: String = r.get(1)?;
    Ok(PracticeSetRow {
        id: r.get(0)?,
        holder: BrowserId::from_hex(&holder)
            .ok_or_else(|| StoreError::Db(format!("stored practice set holder {holder:?}")))?,
        game_id: r.get(2)?,
        color: r.get(3)?,
        created_at: r.get(4)?,
        items: r.get(5)?,
        solved: solved_from_text(&r.get::<String>(6)?),
    })
}

/// Stores `set` (its `created_at` moved past the holder's newest set if need be), replacing
/// the holder's set of the same game and side; then drops the holder's oldest sets beyond
/// `keep`. The holder is locked for the transaction on PostgreSQL
/// (class 6), so two sets stored at once cannot both count the other out.
pub async fn save(db: &Db<'_>, set: &PracticeSetRow, keep: usize) -> StoreResult<()> {
    let h = set.holder.to_string();
    db.postgres_only("SELECT pg_advisory_xact_lock(6, hashtext($1))", args![h])
        .await?;
    let t = table_of(db, &h).await?;
    // Each set of a holder is newer than the last one stored, even within a millisecond, so
    // "the oldest" beyond `keep` is always one set.
    let newest: Option<i64> = db
        .query_opt(
            &format!("SELECT MAX(created_at) FROM {t} WHERE holder = $1"),
            args![h],
        )
        .await?
        .map(|r| r.get(0))
        .transpose()?
        .flatten();
    let created_at = newest.map_or(set.created_at, |n| set.created_at.max(n + 1));
    db.execute(
        &format!("DELETE FROM {t} WHERE holder = $1 AND game_id = $2 AND color = $3"),
        args![h, set.game_id, set.color],
    )
    .await?;
    db.execute(
        &format!("INSERT INTO {t} ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)"),
        args![
            set.id,
            h,
            set.game_id,
            set.color,
            created_at,
            set.items,
            solved_text(&set.solved)
        ],
    )
    .await?;
    let ids: Vec<String> = db
        .query(
            &format!("SELECT id FROM {t} WHERE holder = $1 ORDER BY created_at DESC, id DESC"),
            args![h],
        )
        .await?
        .iter()
        .map(|r| r.get(0))
        .collect::<StoreResult<_>>()?;
    for id in ids.iter().skip(keep) {
        db.execute(&format!("DELETE FROM {t} WHERE id = $1"), args![id])
            .await?;
    }
    Ok(())
}

/// The holder's sets, the newest first.
pub async fn list(db: &Db<'_>, holder: BrowserId) -> StoreResult<Vec<PracticeSetRow>> {
    let h = holder.to_string();
    let t = table_of(db, &h).await?;
    db.query(
        &format!(
            "SELECT {COLUMNS} FROM {t} WHERE holder = $1
             ORDER BY created_at DESC, id DESC"
        ),
        args![h],
    )
    .await?
    .iter()
    .map(set_of)
    .collect()
}

/// Adds `ply` to the solved plies of the holder's set `id`; the set afterwards (`None`: the
/// holder has no such set).
pub async fn solve(
    db: &Db<'_>,
    holder: BrowserId,
    id: &str,
    ply: u32,
) -> StoreResult<Option<PracticeSetRow>> {
    let h = holder.to_string();
    db.postgres_only("SELECT pg_advisory_xact_lock(6, hashtext($1))", args![h])
        .await?;
    let t = table_of(db, &h).await?;
    let Some(row) = db
        .query_opt(
            &format!("SELECT {COLUMNS} FROM {t} WHERE holder = $1 AND id = $2"),
            args![h, id],
        )
        .await?
    else {
        return Ok(None);
    };
    let mut set = set_of(&row)?;
    if !set.solved.contains(&ply) {
        set.solved.push(ply);
        set.solved.sort_unstable();
        db.execute(
            &format!("UPDATE {t} SET solved = $3 WHERE holder = $1 AND id = $2"),
            args![h, id, solved_text(&set.solved)],
        )
        .await?;
    }
    Ok(Some(set))
}

/// Deletes the holder's set `id`; whether there was one.
pub async fn delete(db: &Db<'_>, holder: BrowserId, id: &str) -> StoreResult<bool> {
    let h = holder.to_string();
    let t = table_of(db, &h).await?;
    Ok(db
        .execute(
            &format!("DELETE FROM {t} WHERE holder = $1 AND id = $2"),
            args![h, id],
        )
        .await?
        > 0)
}

/// Moves the guest browser `guest`'s sets to the account `account` (oldest first, each stored
/// as [`save`] does: replacing the account's set of the same game and side, the account keeping
/// at most `keep`); the number moved. Nothing happens when `guest` is itself an account.
pub async fn adopt(
    db: &Db<'_>,
    guest: BrowserId,
    account: BrowserId,
    keep: usize,
) -> StoreResult<usize> {
    let g = guest.to_string();
    if guest == account || table_of(db, &g).await? != "guest_practice_sets" {
        return Ok(0);
    }
    let mut sets = list(db, guest).await?;
    sets.reverse();
    let moved = sets.len();
    for set in sets {
        save(
            db,
            &PracticeSetRow {
                holder: account,
                ..set
            },
            keep,
        )
        .await?;
    }
    db.execute(
        "DELETE FROM guest_practice_sets WHERE holder = $1",
        args![g],
    )
    .await?;
    Ok(moved)
}

impl<B: Backend> PracticeStore for B {
    fn save_practice_set(&self, set: PracticeSetRow, keep: usize) -> StoreFuture<'_, ()> {
        self.write(move |db| Box::pin(async move { save(db, &set, keep).await }))
    }

    fn practice_sets(&self, holder: BrowserId) -> StoreFuture<'_, Vec<PracticeSetRow>> {
        self.read(move |db| Box::pin(list(db, holder)))
    }

    fn solve_practice(
        &self,
        holder: BrowserId,
        id: &str,
        ply: u32,
    ) -> StoreFuture<'_, Option<PracticeSetRow>> {
        let id = id.to_string();
        self.write(move |db| Box::pin(async move { solve(db, holder, &id, ply).await }))
    }

    fn delete_practice_set(&self, holder: BrowserId, id: &str) -> StoreFuture<'_, bool> {
        let id = id.to_string();
        self.write(move |db| Box::pin(async move { delete(db, holder, &id).await }))
    }

    fn adopt_practice_sets(
        &self,
        guest: BrowserId,
        account: BrowserId,
        keep: usize,
    ) -> StoreFuture<'_, usize> {
        self.write(move |db| Box::pin(async move { adopt(db, guest, account, keep).await }))
    }
}
