//! `virada serve` (also what `virada` does with no subcommand): the web app and JSON API.

use super::{CliError, CmdResult};
use clap::Args;
use std::net::SocketAddr;
use std::path::PathBuf;
use virada_server::config::{DEFAULT_ADDR, DEFAULT_DB};
use virada_server::ServerConfig;

#[derive(Args, Default)]
pub struct ServeArgs {
    /// Address to listen on (HOST:PORT; port 0 picks a free port).
    #[arg(long, default_value = DEFAULT_ADDR)]
    pub addr: Option<String>,
    /// SQLite database file for saved games (created if missing).
    #[arg(long, default_value = DEFAULT_DB)]
    pub db: Option<PathBuf>,
    /// Engine worker threads (default: one per core).
    #[arg(long)]
    pub workers: Option<usize>,
}

pub fn run(args: ServeArgs) -> CmdResult {
    let mut config = ServerConfig::default();
    if let Some(addr) = args.addr {
        config.addr = addr.parse::<SocketAddr>().map_err(|e| {
            CliError::input(format!(
                "--addr {addr:?}: {e} (expected HOST:PORT, e.g. 127.0.0.1:8080)"
            ))
        })?;
    }
    if let Some(db) = args.db {
        config.db_path = db;
    }
    if let Some(w) = args.workers {
        if w == 0 {
            return Err(CliError::input("--workers must be at least 1"));
        }
        config.engine_workers = w;
    }
    virada_server::run_blocking(config).map_err(CliError::failed)
}
