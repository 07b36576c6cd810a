//! What every part of the server shares: settings, the database, the engine pool, the shutdown
//! signal. Game actors (`game`) and the game registry (`state`) both use it; it uses neither.

use crate::analysis::AnalysisView;
use crate::config::ServerConfig;
use crate::runtime::pool::EnginePool;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::watch;
use virada_engine::GameAnalysis;
use virada_store::Store;

/// A cached review: the moves analysed, the answer as the API shows it, the engine's review.
pub type AnalysisEntry = (String, Arc<AnalysisView>, Arc<GameAnalysis>);

/// What every part of the server shares.
pub struct Shared {
    pub config: ServerConfig,
    pub store: Arc<dyn Store>,
    pub pool: EnginePool,
    /// Becomes `true` when the server shuts down (actors and live streams stop).
    pub shutdown: watch::Receiver<bool>,
    /// Finished analyses by game id: (the moves analysed, the answer, the engine's review).
    pub analysis_cache: Mutex<HashMap<String, AnalysisEntry>>,
    /// Online games' actors tell the flag scheduler here that a stored deadline changed.
    pub flags: crate::runtime::flag_watch::FlagWatch,
    /// Online games' actors announce here that a game ended (the arena director listens).
    pub game_ends: crate::runtime::game_ends::GameEnds,
    /// This instance among the others sharing the store (`crate::runtime::cluster`).
    pub cluster: crate::runtime::cluster::Cluster,
    /// "Your move" notices to the players' open sockets (`crate::runtime::notices`).
    pub notices: crate::runtime::notices::Notices,
}

impl Shared {
    /// What the server shares, with no analysis cached yet.
    pub fn new(
        config: ServerConfig,
        store: Arc<dyn Store>,
        pool: EnginePool,
        shutdown: watch::Receiver<bool>,
    ) -> Shared {
        Shared {
            cluster: crate::runtime::cluster::Cluster::new(
                config.instance_id.clone(),
                store.clone(),
            ),
            config,
            store,
            pool,
            shutdown,
            analysis_cache: Mutex::new(HashMap::new()),
            flags: Default::default(),
            game_ends: Default::default(),
            notices: Default::default(),
        }
    }
}
