//! # virada-server
//!
//! The Virada web server: a JSON API (documented in docs/API.md) to create, play, undo, hint,
//! analyse, list, resume, delete and export games; every game played and followed over one
//! WebSocket (one game actor per game, whatever its mode); logs through `tracing`; SQLite
//! persistence (WAL, fsync per move, versioned schema); the web front end embedded in the
//! binary. Engine work runs on a bounded pool of worker threads, never on the async runtime.
//!
//! ```no_run
//! # async fn demo() -> Result<(), virada_server::StartError> {
//! use virada_server::{Server, ServerConfig};
//! let server = Server::start(ServerConfig::default()).await?;
//! println!("open {}", server.url());
//! server.shutdown().await;
//! # Ok(()) }
//! ```
#![forbid(unsafe_code)]

pub(crate) mod accounts;
pub(crate) mod api;
pub(crate) mod arena;
pub mod assets;
pub mod config;
pub mod error;
pub mod explorer;
pub mod http;
pub mod identity;
pub(crate) mod lobby;
pub(crate) mod online;
pub(crate) mod position;
pub(crate) mod practice;
pub(crate) mod profiles;
pub(crate) mod puzzles;
pub(crate) mod retention;
pub(crate) mod review;
pub mod runtime;
pub mod safety;
pub(crate) mod server;
pub(crate) mod setup;
pub(crate) mod user_text;
pub mod util;
pub mod watch;
pub mod wthor_file;

// The pure model, ratings and JSON shapes live in virada-domain; these keep their old paths
// (`crate::model`, `crate::view`, ...) for the server's modules, its stores and its tests.
pub use virada_domain::{analysis, bots, export, level_text, model, rating, view};

pub use config::ServerConfig;
pub use error::AppError;
pub use server::{run_blocking, Server, StartError};
