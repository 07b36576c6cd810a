//! The guard against feeding a rating: two accounts whose rated games against each other
//! already moved their ratings [`PAIR_RATED_PER_WINDOW`] times in the last [`PAIR_WINDOW_MS`]
//! move them no more (the game ends as it ends, with no rating change and no rating history),
//! and the pair is flagged for the admins once a window: a report with no reporter, on the
//! account that would have gained, listed by `GET /api/admin/reports` like any report.

use crate::error::StoreResult;
use crate::exec::{args, Db};
use virada_domain::model::GameRecord;
use virada_domain::rating::{PAIR_RATED_PER_WINDOW, PAIR_WINDOW_MS};

/// Within `rate_game`'s transaction (both players locked on PostgreSQL): whether the pair
/// `black`, `white` is full, in which case game `rec` is not rated and the pair is flagged.
pub async fn pair_is_full(
    db: &Db<'_>,
    rec: &GameRecord,
    black: &str,
    white: &str,
    black_score: f64,
) -> StoreResult<bool> {
    let at = rec.meta.updated_at;
    let since = at - PAIR_WINDOW_MS;
    let together: i64 = db
        .query_one(
            "SELECT COUNT(*) FROM rating_history a
             JOIN rating_history b ON b.game_id = a.game_id
             WHERE a.holder = $1 AND b.holder = $2 AND a.at > $3",
            args![black, white, since],
        )
        .await?
        .get(0)?;
    if together < PAIR_RATED_PER_WINDOW {
        return Ok(false);
    }
    let name = |holder: &str| {
        let holder = holder.to_string();
        async move {
            db.query_one(
                "SELECT username FROM accounts WHERE holder = $1",
                args![holder],
            )
            .await?
            .get::<String>(0)
        }
    };
    let (black_name, white_name) = (name(black).await?, name(white).await?);
    let mut pair = [black_name.as_str(), white_name.as_str()];
    pair.sort();
    // The same words for the pair whoever plays which colour: the one flag of its window.
    let reason = format!(
        "automatic: {} and {} played more than {PAIR_RATED_PER_WINDOW} rated games against each \
         other within 24 h; the later ones are not rated (possible rating feeding)",
        pair[0], pair[1]
    );
    db.postgres_only("LOCK TABLE reports IN EXCLUSIVE MODE", &[])
        .await?;
    let flagged: bool = db
        .query_one(
            "SELECT EXISTS (SELECT 1 FROM reports
                 WHERE reporter IS NULL AND reason = $1 AND created_at > $2)",
            args![reason, since],
        )
        .await?
        .get(0)?;
    if flagged {
        return Ok(true);
    }
    let (gainer, gainer_name) = if black_score >= 0.5 {
        (black, black_name)
    } else {
        (white, white_name)
    };
    let id: i64 = db
        .query_one("SELECT COALESCE(MAX(id), 0) + 1 FROM reports", &[])
        .await?
        .get(0)?;
    db.execute(
        "INSERT INTO reports (id, reporter, player_holder, player, game_id, reason, created_at)
         VALUES ($1, NULL, $2, $3, $4, $5, $6)",
        args![id, gainer, gainer_name, rec.meta.id, reason, at],
    )
    .await?;
    Ok(true)
}
