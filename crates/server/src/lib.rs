//! # virada-server
//!
//! The Virada web server: a JSON API (documented in docs/API.md) to create, play, undo, hint,
//! analyse, list, resume, delete and export games; every game played and followed over one
//! WebSocket (one game actor per game, whatever its mode); logs through `tracing`; SQLite
//! persistence (WAL, fsync per move, versioned schema); the web front end embedded in the
//! binary. Engine work runs on a bounded pool of worker threads, never on the async runtime.
//!
//! ```no_run
//! # async fn demo() -> Result<(), virada_server::server::StartError> {
//! use virada_server::{Server, ServerConfig};
//! let server = Server::start(ServerConfig::default()).await?;
//! println!("open {}", server.url());
//! server.shutdown().await;
//! # Ok(()) }
//! ```
#![forbid(unsafe_code)]

pub mod accounts;
pub mod analysis;
pub mod api;
pub mod arena;
pub mod assets;
pub mod bots;
pub mod cluster;
pub mod config;
pub mod engine_client;
pub mod engine_port;
pub mod error;
pub mod export;
pub mod extract;
pub mod fair_queue;
pub mod game;
pub mod guard;
pub mod identity;
pub mod level_text;
pub mod limits;
pub mod lobby;
pub mod logging;
pub mod model;
pub mod online;
pub mod ownership;
pub mod pool;
pub mod position;
pub mod profiles;
pub mod puzzles;
pub mod rating;
pub mod relay;
pub mod retention;
pub mod safety;
pub mod server;
pub mod setup;
pub mod shared;
pub mod state;
pub mod store;
pub mod user_text;
pub mod util;
pub mod view;
pub mod wthor_file;

pub use config::ServerConfig;
pub use error::AppError;
pub use server::{run_blocking, Server, StartError};
