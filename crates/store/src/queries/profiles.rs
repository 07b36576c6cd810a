//! Profiles and "my games": an account's games by the seats it holds (the SQL and what its rows
//! mean: `store::profiles`).

use crate::backend::Backend;
use crate::error::StoreResult;
use crate::exec::{args, Db};
use crate::profiles::ProfileStore;
use crate::profiles::{
    account_games_sql, decode_all, finished_row, AccountGame, FinishedRow, GamesQuery, RawGame,
    FINISHED_SQL,
};
use crate::StoreFuture;
use virada_domain::identity::BrowserId;

pub async fn account_games(db: &Db<'_>, q: &GamesQuery) -> StoreResult<Vec<AccountGame>> {
    let (before_at, before_id) = match &q.before {
        Some((at, id)) => (Some(*at), Some(id.clone())),
        None => (None, None),
    };
    let holder = q.holder.to_string();
    let limit = q.limit as i64;
    let rows = db
        .query(
            &account_games_sql(q.phases),
            args![holder, q.opponent, before_at, before_id, limit],
        )
        .await?;
    let mut raw = Vec::with_capacity(rows.len());
    for r in &rows {
        raw.push(RawGame {
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
            rating_after: r.get(19)?,
            rating_before: r.get(20)?,
        });
    }
    Ok(decode_all(raw))
}

pub async fn finished_games(db: &Db<'_>, holder: BrowserId) -> StoreResult<Vec<FinishedRow>> {
    let holder = holder.to_string();
    let rows = db.query(FINISHED_SQL, args![holder]).await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in &rows {
        let row = finished_row(
            &r.get::<String>(0)?,
            r.get::<Option<String>>(1)?.as_deref(),
            r.get::<Option<String>>(2)?.as_deref(),
            r.get(3)?,
            r.get(4)?,
            r.get(5)?,
        );
        out.extend(row);
    }
    Ok(out)
}

impl<B: Backend> ProfileStore for B {
    fn account_games(&self, q: GamesQuery) -> StoreFuture<'_, Vec<AccountGame>> {
        self.read(move |db| Box::pin(async move { account_games(db, &q).await }))
    }

    fn finished_games(&self, holder: BrowserId) -> StoreFuture<'_, Vec<FinishedRow>> {
        self.read(move |db| Box::pin(async move { finished_games(db, holder).await }))
    }
}
