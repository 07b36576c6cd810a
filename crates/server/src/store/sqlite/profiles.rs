//! Profiles and "my games" in SQLite: an account's online games and its finished games'
//! outcomes (the SQL is shared with PostgreSQL: `store::profiles`).

use super::super::profiles::{
    account_games_sql, decode_all, finished_row, finished_sql, AccountGame, FinishedRow,
    GamesQuery, RawGame,
};
use crate::error::AppResult;
use crate::identity::BrowserId;
use rusqlite::{params, Connection};

pub fn account_games(conn: &Connection, q: &GamesQuery) -> AppResult<Vec<AccountGame>> {
    let (before_at, before_id) = match &q.before {
        Some((at, id)) => (Some(*at), Some(id.as_str())),
        None => (None, None),
    };
    let mut stmt = conn.prepare(&account_games_sql(q.phases, '?', ""))?;
    let rows = stmt
        .query_map(
            params![
                q.holder.to_string(),
                q.opponent,
                before_at,
                before_id,
                q.limit as i64
            ],
            |r| {
                Ok(RawGame {
                    id: r.get(0)?,
                    created_at: r.get(1)?,
                    updated_at: r.get(2)?,
                    ply_count: r.get(3)?,
                    black_discs: r.get(4)?,
                    white_discs: r.get(5)?,
                    transcript: r.get(6)?,
                    start: r.get(7)?,
                    time_control: r.get(8)?,
                    phase: r.get(9)?,
                    end_reason: r.get(10)?,
                    end_loser: r.get(11)?,
                    black_name: r.get(12)?,
                    white_name: r.get(13)?,
                    rated: r.get(14)?,
                    flag_at: r.get(15)?,
                    color: r.get(16)?,
                    black_account: r.get(17)?,
                    white_account: r.get(18)?,
                })
            },
        )?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(decode_all(rows))
}

pub fn finished_games(conn: &Connection, holder: BrowserId) -> AppResult<Vec<FinishedRow>> {
    let mut stmt = conn.prepare(&finished_sql('?'))?;
    let rows = stmt
        .query_map(params![holder.to_string()], |r| {
            Ok(finished_row(
                &r.get::<_, String>(0)?,
                r.get::<_, Option<String>>(1)?.as_deref(),
                r.get::<_, Option<String>>(2)?.as_deref(),
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
            ))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows.into_iter().flatten().collect())
}
