//! A game's review as `GET /api/games/{id}/analysis` answers it and the practice sets read
//! it: from the cache when the moves are those analysed, else reviewed afresh on the engine
//! pool as a background job (and cached when complete).

use crate::analysis::AnalysisView;
use crate::error::AppResult;
use crate::http::ownership::Asker;
use crate::model::GameRecord;
use crate::runtime::pool::{JobSpec, Priority};
use crate::runtime::state::AppState;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use virada_engine::GameAnalysis;

/// A hint or analysis job for game `id`. Its stop flag is raised if the client hangs up (the
/// pool cancels the job when this handler's future is dropped); its time is the engine's own
/// limit, counted from when the search starts.
pub(crate) fn background_job(id: &str, asker: &Asker) -> JobSpec {
    JobSpec {
        priority: Priority::Background,
        game: id.to_string(),
        client: crate::runtime::engine_client::of_asker(asker),
        stop: Arc::new(AtomicBool::new(false)),
        time_cap: None,
    }
}

/// The game `id` as `asker` may see it, with its review as the API shows it and as the engine
/// made it: from the cache when the moves are those analysed, else reviewed afresh (and cached
/// when complete). Used by `GET /analysis` and the practice sets (`crate::practice`).
pub(crate) async fn reviewed(
    state: &AppState,
    asker: &Asker,
    id: &str,
) -> AppResult<(GameRecord, Arc<AnalysisView>, Arc<GameAnalysis>)> {
    let rec = state
        .with_game(asker, id, |h| async move { h.engine_snapshot().await })
        .await?;
    let key = crate::model::moves_to_text(rec.game.moves().iter().copied());
    if let Some((k, v, r)) = state
        .shared
        .analysis_cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(id)
    {
        if *k == key {
            return Ok((rec, v.clone(), r.clone()));
        }
    }
    let effort = state.shared.config.analysis_effort;
    let game = rec.game.clone();
    let spec = JobSpec {
        // The node budget decides the review; the time cap only guards the worker.
        time_cap: Some(state.shared.config.analysis_time_cap),
        ..background_job(id, asker)
    };
    let stop = spec.stop.clone();
    let review = Arc::new(
        state
            .shared
            .pool
            .run(spec, move |engine| {
                engine.review_game(&game, &effort, &stop)
            })
            .await?,
    );
    let value = Arc::new(crate::analysis::analysis_view(&rec.game, &review));
    // A review cut short by its time cap says so ("complete": false) and is never cached: the
    // next request analyses afresh.
    if review.complete {
        let mut cache = state
            .shared
            .analysis_cache
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if cache.len() > 256 {
            cache.clear();
        }
        cache.insert(id.to_string(), (key, value.clone(), review.clone()));
    }
    Ok((rec, value, review))
}
