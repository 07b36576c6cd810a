//! What every part of the server shares: settings, the database, the engine pool, the shutdown
//! signal. Game actors (`session`) and the game registry (`state`) both use it; it uses neither.

use crate::analysis::AnalysisView;
use crate::config::ServerConfig;
use crate::pool::EnginePool;
use crate::store::Store;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::watch;

/// What every part of the server shares.
pub struct Shared {
    pub config: ServerConfig,
    pub store: Arc<dyn Store>,
    pub pool: EnginePool,
    /// Becomes `true` when the server shuts down (actors and live streams stop).
    pub shutdown: watch::Receiver<bool>,
    /// Finished analyses by game id: (the moves analysed, the answer).
    pub analysis_cache: Mutex<HashMap<String, (String, Arc<AnalysisView>)>>,
    /// Online games' actors tell the flag scheduler here that a stored deadline changed.
    pub flags: crate::online::flag_watch::FlagWatch,
}
