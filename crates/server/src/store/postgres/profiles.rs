//! Profiles and "my games" in PostgreSQL (the SQL is shared with SQLite: `store::profiles`).

use crate::error::AppResult;
use crate::identity::BrowserId;
use crate::store::profiles::{
    account_games_sql, decode_all, finished_row, finished_sql, AccountGame, FinishedRow,
    GamesQuery, RawGame,
};
use tokio_postgres::Transaction;

pub async fn account_games(tx: &Transaction<'_>, q: &GamesQuery) -> AppResult<Vec<AccountGame>> {
    let (before_at, before_id) = match &q.before {
        Some((at, id)) => (Some(*at), Some(id.clone())),
        None => (None, None),
    };
    let holder = q.holder.to_string();
    let limit = q.limit as i64;
    let rows = tx
        .query(
            &account_games_sql(q.phases, '$', "COLLATE \"C\""),
            &[&holder, &q.opponent, &before_at, &before_id, &limit],
        )
        .await?;
    let mut raw = Vec::with_capacity(rows.len());
    for r in &rows {
        raw.push(RawGame {
            id: r.try_get(0)?,
            created_at: r.try_get(1)?,
            updated_at: r.try_get(2)?,
            ply_count: r.try_get(3)?,
            black_discs: r.try_get(4)?,
            white_discs: r.try_get(5)?,
            transcript: r.try_get(6)?,
            start: r.try_get(7)?,
            time_control: r.try_get(8)?,
            phase: r.try_get(9)?,
            end_reason: r.try_get(10)?,
            end_loser: r.try_get(11)?,
            black_name: r.try_get(12)?,
            white_name: r.try_get(13)?,
            rated: r.try_get(14)?,
            flag_at: r.try_get(15)?,
            color: r.try_get(16)?,
            black_account: r.try_get(17)?,
            white_account: r.try_get(18)?,
        });
    }
    Ok(decode_all(raw))
}

pub async fn finished_games(
    tx: &Transaction<'_>,
    holder: BrowserId,
) -> AppResult<Vec<FinishedRow>> {
    let holder = holder.to_string();
    let rows = tx.query(&finished_sql('$'), &[&holder]).await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in &rows {
        let row = finished_row(
            &r.try_get::<_, String>(0)?,
            r.try_get::<_, Option<String>>(1)?.as_deref(),
            r.try_get::<_, Option<String>>(2)?.as_deref(),
            r.try_get(3)?,
            r.try_get(4)?,
            r.try_get(5)?,
        );
        out.extend(row);
    }
    Ok(out)
}
