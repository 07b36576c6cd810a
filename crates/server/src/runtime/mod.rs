//! What runs: the game actors and their registry, the engine pool and its fair queue, the
//! instances of a cluster and the relay between them, the flag scheduler, the time source, and
//! the channels that tell tasks a deadline moved, a game ended or a player has a move to make.
//! No route lives here; the features (`crate::lobby`, `crate::arena`, ...) build on it.

pub(crate) mod cluster;
pub(crate) mod engine_client;
pub mod engine_port;
pub(crate) mod fair_queue;
pub(crate) mod flag_watch;
pub(crate) mod game;
pub(crate) mod game_ends;
pub(crate) mod logging;
pub(crate) mod notices;
pub mod pool;
pub(crate) mod relay;
pub(crate) mod scheduler;
pub(crate) mod shared;
pub(crate) mod state;
pub mod time;
