//! The live games and the leaderboards (`store::watch`), for either database.

use super::super::watch::{LeaderRow, LiveGame, WatchStore};
use super::super::StoreFuture;
use crate::backend::Backend;
use crate::error::StoreResult;
use crate::exec::{args, Db};

/// Public games being played (an account in a seat: `store::watch`), recently changed.
const LIVE_SQL: &str = "SELECT g.id, g.updated_at, g.ply_count, g.black_discs, g.white_discs,
        o.time_control, o.rated, o.black_name, o.white_name,
        (SELECT a.username FROM online_holders x JOIN accounts a ON a.holder = x.browser
            WHERE x.game_id = g.id AND x.color = 'black' LIMIT 1),
        (SELECT a.username FROM online_holders x JOIN accounts a ON a.holder = x.browser
            WHERE x.game_id = g.id AND x.color = 'white' LIMIT 1)
     FROM online_games o JOIN games g ON g.id = o.game_id
     WHERE g.mode = 'online' AND o.phase = 'playing' AND g.updated_at >= $1
       AND EXISTS (SELECT 1 FROM online_holders x JOIN accounts a ON a.holder = x.browser
            WHERE x.game_id = g.id)
     ORDER BY g.updated_at DESC, g.id COLLATE \"C\" DESC
     LIMIT $2";

const LEADERBOARD_SQL: &str = "SELECT a.username, r.rating, r.deviation, r.games
     FROM ratings r JOIN accounts a ON a.holder = r.holder
     WHERE r.category = $1 AND r.deviation < $2 AND a.banned_at IS NULL
     ORDER BY r.rating DESC, a.username_key COLLATE \"C\"
     LIMIT $3";

async fn live_games(db: &Db<'_>, since: i64, limit: usize) -> StoreResult<Vec<LiveGame>> {
    let limit = limit as i64;
    let mut out = Vec::new();
    for r in db.query(LIVE_SQL, args![since, limit]).await? {
        out.push(LiveGame {
            id: r.get(0)?,
            updated_at: r.get(1)?,
            ply_count: r.get::<i64>(2)?.clamp(0, 200) as u32,
            black_discs: r.get::<i64>(3)?.clamp(0, 64) as u8,
            white_discs: r.get::<i64>(4)?.clamp(0, 64) as u8,
            time_control: r.get(5)?,
            rated: r.get(6)?,
            black_name: r.get(7)?,
            white_name: r.get(8)?,
            black_account: r.get(9)?,
            white_account: r.get(10)?,
        });
    }
    Ok(out)
}

async fn leaderboard(
    db: &Db<'_>,
    category: &str,
    max_deviation: f64,
    limit: usize,
) -> StoreResult<Vec<LeaderRow>> {
    let limit = limit as i64;
    let mut out = Vec::new();
    for r in db
        .query(LEADERBOARD_SQL, args![category, max_deviation, limit])
        .await?
    {
        out.push(LeaderRow {
            username: r.get(0)?,
            rating: r.get(1)?,
            deviation: r.get(2)?,
            games: r.get::<i64>(3)?.max(0) as u32,
        });
    }
    Ok(out)
}

impl<B: Backend> WatchStore for B {
    fn live_games(&self, since: i64, limit: usize) -> StoreFuture<'_, Vec<LiveGame>> {
        self.read(move |db| Box::pin(async move { live_games(db, since, limit).await }))
    }

    fn leaderboard(
        &self,
        category: &str,
        max_deviation: f64,
        limit: usize,
    ) -> StoreFuture<'_, Vec<LeaderRow>> {
        let category = category.to_string();
        self.read(move |db| {
            Box::pin(async move { leaderboard(db, &category, max_deviation, limit).await })
        })
    }
}
