//! What runs: the game actors and their registry, the engine pool and its fair queue, the
//! instances of a cluster and the relay between them, the flag scheduler, the time source, and
//! the channels that tell tasks a deadline moved, a game ended or a player has a move to make.
//! No route lives here; the features (`crate::lobby`, `crate::arena`, ...) build on it.

pub mod cluster;
pub mod engine_client;
pub mod engine_port;
pub mod fair_queue;
pub mod flag_watch;
pub mod game;
pub mod game_ends;
pub mod logging;
pub mod notices;
pub mod pool;
pub mod relay;
pub mod scheduler;
pub mod shared;
pub mod state;
pub mod time;
