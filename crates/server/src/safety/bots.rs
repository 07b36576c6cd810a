//! `GET /api/bots`: every computer level as a bot with its fixed rating per category
//! (`crate::bots`).

use crate::bots::{bot_rating, CATEGORIES, LEVEL1_OVER_RANDOM, RANDOM_MOVER};
use crate::error::AppResult;
use axum::Json;
use serde_json::{json, Map, Value};

/// `GET /api/bots`: `{"anchor", "bots": [{"level", "ratings": {"blitz": {"rating",
/// "deviation"}, ...}}]}`, levels 1 to 21.
pub async fn list() -> AppResult<Json<Value>> {
    let bots: Vec<Value> = (virada_engine::levels::MIN_LEVEL..=virada_engine::levels::MAX_LEVEL)
        .filter_map(|level| {
            let r = bot_rating(level)?;
            let ratings: Map<String, Value> = CATEGORIES
                .iter()
                .map(|c| {
                    (
                        c.name().to_string(),
                        json!({"rating": r.rating.round(), "deviation": r.rd.round()}),
                    )
                })
                .collect();
            Some(json!({"level": level, "ratings": ratings}))
        })
        .collect();
    Ok(Json(json!({
        "anchor": {
            "random_mover": RANDOM_MOVER,
            "level_1_over_random": LEVEL1_OVER_RANDOM.0,
        },
        "bots": bots,
    })))
}
