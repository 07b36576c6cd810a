//! Starting and stopping the server, and the accept loop with its connection limits: at most
//! `max_connections` open at once, `header_timeout` to send a request head (also the idle
//! timeout of a kept-alive connection), `body_timeout` for a body (see `extract`).

use crate::config::{ServerConfig, HEADER_LIMIT};
use crate::http::guard::HostPolicy;
use crate::http::limits::{connection_refused_response, Limiter};
use crate::runtime::engine_port;
use crate::runtime::pool::{EngineFactory, EnginePool};
use crate::runtime::shared::Shared;
use crate::runtime::state::AppState;
use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper::service::Service as _;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::fmt;
use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};
use tokio::task::JoinHandle;
use virada_store::postgres::{PgError, PgStore};
use virada_store::sqlite::{DbError, SqliteStore};
use virada_store::Store;

/// Why the server could not start.
#[derive(Debug)]
pub enum StartError {
    Database(DbError),
    /// The PostgreSQL database cannot be reached or upgraded.
    Postgres(PgError),
    /// The database task itself failed (it panicked or was cancelled).
    DatabaseTask(String),
    /// The address is taken, not local, or not allowed.
    Listen {
        addr: SocketAddr,
        source: std::io::Error,
    },
    /// The async runtime could not start (`run_blocking`).
    Runtime(std::io::Error),
    /// The instance id is live in another process on the same database, or was taken by one
    /// while this server ran (several instances; the text says which).
    InstanceId(String),
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::Database(e) => e.fmt(f),
            StartError::Postgres(e) => e.fmt(f),
            StartError::DatabaseTask(e) => write!(f, "database start-up failed: {e}"),
            StartError::Listen { addr, source } => write!(f, "cannot listen on {addr}: {source}"),
            StartError::Runtime(e) => write!(f, "cannot start the async runtime: {e}"),
            StartError::InstanceId(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for StartError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StartError::Database(e) => Some(e),
            StartError::Postgres(e) => Some(e),
            StartError::Listen { source, .. } | StartError::Runtime(source) => Some(source),
            StartError::DatabaseTask(_) | StartError::InstanceId(_) => None,
        }
    }
}

impl From<PgError> for StartError {
    fn from(e: PgError) -> Self {
        StartError::Postgres(e)
    }
}

impl From<DbError> for StartError {
    fn from(e: DbError) -> Self {
        StartError::Database(e)
    }
}

/// Opens the store `config` names: its PostgreSQL database, or else its SQLite file.
async fn open_store(config: &ServerConfig) -> Result<Arc<dyn Store>, StartError> {
    if let Some(target) = &config.postgres {
        return Ok(Arc::new(PgStore::open(target).await?));
    }
    let path = config.db_path.clone();
    let store = tokio::task::spawn_blocking(move || SqliteStore::open(&path))
        .await
        .map_err(|e| StartError::DatabaseTask(e.to_string()))??;
    Ok(Arc::new(store))
}

/// A running server.
pub struct Server {
    addr: SocketAddr,
    shutdown: watch::Sender<bool>,
    task: JoinHandle<()>,
    /// Online games' heartbeat (its last beat is written at shutdown).
    heartbeat: JoinHandle<()>,
    shared: Arc<Shared>,
}

/// How long shutdown waits for open connections before giving up on them.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);
/// Pause after a failed `accept` (e.g. out of file descriptors) before trying again.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

impl Server {
    /// Opens the database, starts the engine workers and listens on `config.addr` (port 0: any
    /// free port; see [`Server::addr`]).
    pub async fn start(config: ServerConfig) -> Result<Server, StartError> {
        Server::start_with_engine(config, Arc::new(engine_port::new_engine)).await
    }

    /// [`Server::start`] with the engine workers' engines made by `engine` (tests put a
    /// scripted engine there).
    pub async fn start_with_engine(
        config: ServerConfig,
        engine: EngineFactory,
    ) -> Result<Server, StartError> {
        let store = open_store(&config).await?;
        let listener =
            TcpListener::bind(config.addr)
                .await
                .map_err(|source| StartError::Listen {
                    addr: config.addr,
                    source,
                })?;
        let addr = listener.local_addr().map_err(|source| StartError::Listen {
            addr: config.addr,
            source,
        })?;
        let pool = EnginePool::new(config.engine_workers, engine);
        let (shutdown, shutdown_rx) = watch::channel(false);
        let policy = Arc::new(HostPolicy::new(addr, &config.allowed_hosts));
        let limits = Limits {
            max_connections: config.max_connections.max(1),
            header_timeout: config.header_timeout,
            trusted_proxies: config
                .trusted_proxies
                .iter()
                .map(|ip| ip.to_canonical())
                .collect(),
        };
        let shared = Arc::new(Shared::new(config, store, pool, shutdown_rx.clone()));
        if shared.cluster.is_shared() {
            // Before anything runs a game: two processes must never run games as one id.
            (shared.cluster.join().await).map_err(|e| StartError::InstanceId(e.to_string()))?;
        }
        let state = AppState::new(shared.clone());
        let heartbeat = crate::online::start_up(&state)
            .await
            .map_err(|e| StartError::DatabaseTask(e.message()))?;
        let connections = state.connections.clone();
        let per_ip = state.limits.clone();
        let app = crate::api::router(state, policy);
        let task = tokio::spawn(serve(
            listener,
            app,
            limits,
            per_ip,
            connections,
            shutdown_rx,
        ));
        Ok(Server {
            addr,
            shutdown,
            task,
            heartbeat,
            shared,
        })
    }

    /// The address actually bound.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The URL to open.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Stops accepting connections, ends live streams and searches, and waits (a few seconds at
    /// most) for requests in flight.
    pub async fn shutdown(self) {
        let _ = self.shutdown.send(true);
        let mut task = self.task;
        if tokio::time::timeout(SHUTDOWN_GRACE, &mut task)
            .await
            .is_err()
        {
            task.abort();
        }
        let mut beat = self.heartbeat;
        if tokio::time::timeout(SHUTDOWN_GRACE, &mut beat)
            .await
            .is_err()
        {
            beat.abort();
        }
        self.shared.cluster.leave().await;
    }

    /// Resolves if another process took this server's instance id while it ran (several
    /// instances on PostgreSQL): the server stores nothing more and should stop.
    pub async fn lost_instance_id(&self) {
        self.shared.cluster.lost_id().await
    }
}

struct Limits {
    max_connections: usize,
    header_timeout: Duration,
    /// `ServerConfig::trusted_proxies`.
    trusted_proxies: Arc<[IpAddr]>,
}

/// Accepts connections until shutdown, each served by hyper (HTTP/1.1) with the limits above.
async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    per_ip: Arc<Limiter>,
    connections: Arc<AtomicUsize>,
    mut stop: watch::Receiver<bool>,
) {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(HEADER_LIMIT.max(8192));
    let permits = Arc::new(Semaphore::new(limits.max_connections));
    // Every connection task holds a sender: when all are dropped, all connections are done.
    // (hyper-util's GracefulShutdown does not take upgradeable connections.)
    let (alive, mut all_done) = tokio::sync::mpsc::channel::<()>(1);
    let conn_stop = stop.clone();
    let stopped = async move {
        let _ = stop.wait_for(|v| *v).await;
    };
    tokio::pin!(stopped);
    loop {
        // A permit first: at the cap, connections wait in the kernel's listen queue.
        let permit = tokio::select! {
            p = permits.clone().acquire_owned() => match p {
                Ok(p) => p,
                Err(_) => break,
            },
            _ = &mut stopped => break,
        };
        let (tcp, peer) = tokio::select! {
            r = listener.accept() => match r {
                Ok(accepted) => accepted,
                Err(e) => {
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            },
            _ = &mut stopped => break,
        };
        // Small JSON answers and SSE events must leave at once: no Nagle delay (which, with the
        // client's delayed ACK, adds ~40 ms to many responses).
        let _ = tcp.set_nodelay(true);
        // Beyond its address's cap a connection gets a 429 (if its buffer takes it) and is
        // closed at once, never queued: one address cannot hold the global permits. A trusted
        // proxy carries many clients' connections: only the global cap counts them.
        let from_proxy = limits.trusted_proxies.contains(&peer.ip().to_canonical());
        let counted = if from_proxy {
            None
        } else {
            match per_ip.open_connection(peer.ip()) {
                Some(counted) => Some(counted),
                None => {
                    let _ = tcp.try_write(&connection_refused_response());
                    drop(tcp);
                    drop(permit);
                    continue;
                }
            }
        };
        // Every request of the connection knows its peer (`ConnectInfo`) and its client
        // (`ClientAddr`: the peer, or the address a trusted proxy forwarded for): the
        // per-address limits and the local-user rule of `ownership` read the client.
        let service = TowerToHyperService::new(app.clone());
        let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
            let client = if from_proxy {
                crate::http::ownership::forwarded_client(req.headers()).unwrap_or(peer.ip())
            } else {
                peer.ip()
            };
            req.extensions_mut().insert(ConnectInfo(peer));
            req.extensions_mut()
                .insert(crate::http::ownership::ClientAddr(client.to_canonical()));
            service.call(req)
        });
        // With upgrades: the WebSocket of online games takes over the connection.
        let conn = http
            .serve_connection(TokioIo::new(tcp), service)
            .with_upgrades();
        let connections = connections.clone();
        connections.fetch_add(1, Ordering::Relaxed);
        let (alive, mut stop) = (alive.clone(), conn_stop.clone());
        tokio::spawn(async move {
            tokio::pin!(conn);
            let stopping = async move {
                let _ = stop.wait_for(|v| *v).await;
            };
            // Errors here are the client's (reset, timeout, malformed request): nothing to do.
            tokio::select! {
                _ = conn.as_mut() => {}
                _ = stopping => {
                    // Finish the request in flight, then close.
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
            connections.fetch_sub(1, Ordering::Relaxed);
            drop(counted);
            drop(permit);
            drop(alive);
        });
    }
    drop(listener);
    drop(alive);
    let _ = all_done.recv().await;
}

/// Runs the server until Ctrl-C (or SIGTERM): the `virada serve` command.
pub fn run_blocking(config: ServerConfig) -> Result<(), StartError> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(StartError::Runtime)?;
    crate::runtime::logging::init();
    rt.block_on(async move {
        // The handlers are in place before the log says "listening": a SIGTERM sent by
        // whoever read that line stops the server gracefully, never by the default action.
        let stop = StopSignals::install();
        let db = config.db_description();
        let server = Server::start(config).await?;
        tracing::info!(url = %server.url(), db = %db, "listening");
        let mut out = std::io::stdout();
        let _ = writeln!(out, "listening on {}", server.url());
        let _ = writeln!(
            out,
            "Virada is ready: open {} in your browser. Games are saved in {}. Press Ctrl-C to stop.",
            server.url(),
            db
        );
        let _ = out.flush();
        let displaced = tokio::select! {
            _ = stop.wait() => false,
            _ = server.lost_instance_id() => true,
        };
        tracing::info!("stopping");
        let id = server.shared.config.instance_id.clone();
        server.shutdown().await;
        if displaced {
            return Err(StartError::InstanceId(format!(
                "another virada server took instance id {id:?} while this one could not reach \
                 the database: stopped"
            )));
        }
        Ok(())
    })
}

/// SIGINT and SIGTERM, listened for from the moment they are installed.
struct StopSignals {
    #[cfg(unix)]
    interrupt: Option<tokio::signal::unix::Signal>,
    #[cfg(unix)]
    terminate: Option<tokio::signal::unix::Signal>,
}

impl StopSignals {
    fn install() -> Self {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            StopSignals {
                interrupt: signal(SignalKind::interrupt()).ok(),
                terminate: signal(SignalKind::terminate()).ok(),
            }
        }
        #[cfg(not(unix))]
        {
            StopSignals {}
        }
    }

    /// Returns at the first SIGINT or SIGTERM (Ctrl-C elsewhere).
    async fn wait(self) {
        #[cfg(unix)]
        {
            async fn next(signal: Option<tokio::signal::unix::Signal>) {
                match signal {
                    Some(mut s) => {
                        s.recv().await;
                    }
                    None => std::future::pending().await,
                }
            }
            if self.interrupt.is_none() && self.terminate.is_none() {
                let _ = tokio::signal::ctrl_c().await;
                return;
            }
            tokio::select! {
                _ = next(self.interrupt) => {}
                _ = next(self.terminate) => {}
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}
