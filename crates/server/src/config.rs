//! Server settings, with defaults that just work.

use crate::engine_port::Effort;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// The default address: the local machine only, port 8080.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";
/// The default database file, relative to the working directory.
pub const DEFAULT_DB: &str = "virada.sqlite";
/// Largest accepted request body.
pub const BODY_LIMIT: usize = 64 * 1024;

/// Everything the server needs to start.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// Where to listen; port 0 lets the system choose.
    pub addr: SocketAddr,
    /// The SQLite database file (created if missing).
    pub db_path: PathBuf,
    /// Engine worker threads (the most engine jobs running at once).
    pub engine_workers: usize,
    /// Hard cap on the time of one computer move, whatever the level asks.
    pub move_time_limit: Duration,
    /// Effort for `GET /hint`.
    pub hint_effort: Effort,
    /// Effort for `GET /analysis` (per game).
    pub analysis_effort: Effort,
    /// A game with no live connection and no request for this long is abandoned: its search is
    /// cancelled and it is dropped from memory (it stays in the database).
    pub idle_timeout: Duration,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            addr: DEFAULT_ADDR.parse().expect("valid default address"),
            db_path: PathBuf::from(DEFAULT_DB),
            engine_workers: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2)
                .clamp(1, 8),
            move_time_limit: Duration::from_secs(30),
            hint_effort: Effort {
                depth: 10,
                exact_empties: 16,
                time: Duration::from_secs(5),
            },
            analysis_effort: Effort {
                depth: 8,
                exact_empties: 14,
                time: Duration::from_secs(30),
            },
            idle_timeout: Duration::from_secs(120),
        }
    }
}

impl ServerConfig {
    /// Light settings for tests: shallow hints and analysis, one worker.
    pub fn for_tests(db_path: PathBuf) -> ServerConfig {
        ServerConfig {
            addr: "127.0.0.1:0".parse().expect("valid address"),
            db_path,
            engine_workers: 1,
            move_time_limit: Duration::from_secs(5),
            hint_effort: Effort {
                depth: 2,
                exact_empties: 8,
                time: Duration::from_secs(2),
            },
            analysis_effort: Effort {
                depth: 1,
                exact_empties: 6,
                time: Duration::from_secs(5),
            },
            idle_timeout: Duration::from_secs(60),
        }
    }
}
