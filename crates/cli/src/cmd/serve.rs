//! `virada serve` (also what `virada` does with no subcommand): the web app and JSON API.

use super::{CliError, CmdResult};
use clap::Args;
use std::net::{IpAddr, SocketAddr};
use virada_server::assets::WebFiles;
use virada_server::config::{DEFAULT_ADDR, DEFAULT_DB};
use virada_server::ServerConfig;

#[derive(Args, Default)]
pub struct ServeArgs {
    /// Address to listen on (HOST:PORT; port 0 picks a free port).
    #[arg(long, default_value = DEFAULT_ADDR)]
    pub addr: Option<String>,
    /// Where games are saved: a SQLite file (created if missing; default virada.sqlite) or a
    /// PostgreSQL database, postgres://USER[:PASSWORD]@HOST[:PORT]/DBNAME. Without --db, the
    /// VIRADA_DB environment variable is used when set.
    #[arg(long, value_name = "FILE|URL")]
    pub db: Option<String>,
    /// Engine worker threads (default: one per core).
    #[arg(long)]
    pub workers: Option<usize>,
    /// A host name the server also answers to (repeatable), e.g. behind a reverse proxy:
    /// `--allowed-host virada.example.org` (any port) or `--allowed-host NAME:PORT`. Requests
    /// with any other Host or Origin are refused (docs/SECURITY.md).
    #[arg(long = "allowed-host", value_name = "NAME[:PORT]")]
    pub allowed_hosts: Vec<String>,
    /// Most HTTP connections open at once, live streams included (default 1024).
    #[arg(long)]
    pub max_connections: Option<usize>,
    /// Most connections one client address holds open at once (default 64).
    #[arg(long, value_name = "N")]
    pub max_connections_per_ip: Option<usize>,
    /// Most live game sockets (WebSocket) one client address holds open at once
    /// (default 8).
    #[arg(long, value_name = "N")]
    pub max_streams_per_ip: Option<usize>,
    /// A client address that skips every per-address limit (repeatable), e.g. a load test:
    /// `--rate-limit-exempt 127.0.0.1`. The global --max-connections still applies.
    #[arg(long = "rate-limit-exempt", value_name = "IP")]
    pub rate_limit_exempt: Vec<String>,
    /// The address of a reverse proxy in front of the server (repeatable): its requests count
    /// as coming from the last address of their `X-Forwarded-For` header, for every
    /// per-address limit, and its connections only against --max-connections. Without it the
    /// header is ignored (docs/SECURITY.md).
    #[arg(long = "trusted-proxy", value_name = "IP")]
    pub trusted_proxies: Vec<String>,
    /// This instance's name among several sharing one PostgreSQL database (1 to 32 of a-z,
    /// 0-9, _ and -; default: random at start). Shown by /api/health.
    #[arg(long, value_name = "ID")]
    pub instance_id: Option<String>,
}

pub fn run(args: ServeArgs) -> CmdResult {
    let mut config = ServerConfig {
        // The browser app, embedded by crates/web (the server crate does not depend on it).
        web: WebFiles(virada_web::FILES),
        ..ServerConfig::default()
    };
    if let Some(addr) = args.addr {
        config.addr = addr.parse::<SocketAddr>().map_err(|e| {
            CliError::input(format!(
                "--addr {addr:?}: {e} (expected HOST:PORT, e.g. 127.0.0.1:8080)"
            ))
        })?;
    }
    let db = args
        .db
        .or_else(|| std::env::var("VIRADA_DB").ok().filter(|v| !v.is_empty()))
        .unwrap_or_else(|| DEFAULT_DB.to_string());
    config.set_db(&db);
    if let Some(w) = args.workers {
        if w == 0 {
            return Err(CliError::input("--workers must be at least 1"));
        }
        config.engine_workers = w;
    }
    if let Some(n) = args.max_connections {
        if n == 0 {
            return Err(CliError::input("--max-connections must be at least 1"));
        }
        config.max_connections = n;
    }
    if let Some(n) = args.max_connections_per_ip {
        if n == 0 {
            return Err(CliError::input(
                "--max-connections-per-ip must be at least 1",
            ));
        }
        config.limits.connections_per_ip = n;
    }
    if let Some(n) = args.max_streams_per_ip {
        if n == 0 {
            return Err(CliError::input("--max-streams-per-ip must be at least 1"));
        }
        config.limits.streams_per_ip = n;
    }
    for ip in args.rate_limit_exempt {
        let parsed = ip.parse::<IpAddr>().map_err(|e| {
            CliError::input(format!(
                "--rate-limit-exempt {ip:?}: {e} (expected an IP address, e.g. 127.0.0.1)"
            ))
        })?;
        config.limits.exempt.push(parsed);
    }
    for ip in args.trusted_proxies {
        let parsed = ip.parse::<IpAddr>().map_err(|e| {
            CliError::input(format!(
                "--trusted-proxy {ip:?}: {e} (expected the proxy's IP address, e.g. 127.0.0.1)"
            ))
        })?;
        config.trusted_proxies.push(parsed);
    }
    if let Some(id) = args.instance_id {
        if !virada_server::config::is_valid_instance_id(&id) {
            return Err(CliError::input(format!(
                "--instance-id {id:?}: use 1 to 32 of a-z, 0-9, _ and -"
            )));
        }
        config.instance_id = id;
    }
    config.allowed_hosts = args.allowed_hosts;
    virada_server::run_blocking(config).map_err(|e| CliError::failed(e.to_string()))
}
