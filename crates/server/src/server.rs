//! Starting and stopping the server.

use crate::config::ServerConfig;
use crate::db::Db;
use crate::engine_port;
use crate::pool::{EngineFactory, EnginePool};
use crate::state::{AppState, Shared};
use axum::serve::ListenerExt;
use std::collections::HashMap;
use std::io::Write;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// A running server.
pub struct Server {
    addr: SocketAddr,
    shutdown: watch::Sender<bool>,
    task: JoinHandle<std::io::Result<()>>,
}

/// How long shutdown waits for open connections before giving up on them.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

impl Server {
    /// Opens the database, starts the engine workers and listens on `config.addr` (port 0: any
    /// free port; see [`Server::addr`]).
    pub async fn start(config: ServerConfig) -> Result<Server, String> {
        Server::start_with_engine(config, Arc::new(engine_port::new_engine)).await
    }

    /// [`Server::start`] with the engine workers' engines made by `engine` (tests put a
    /// scripted engine there).
    pub async fn start_with_engine(
        config: ServerConfig,
        engine: EngineFactory,
    ) -> Result<Server, String> {
        let path = config.db_path.clone();
        let db = tokio::task::spawn_blocking(move || Db::open(&path))
            .await
            .map_err(|e| format!("database start-up failed: {e}"))??;
        let listener = TcpListener::bind(config.addr)
            .await
            .map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("local address: {e}"))?;
        // Small JSON answers and SSE events must leave at once: no Nagle delay (which, with the
        // client's delayed ACK, adds ~40 ms to many responses).
        let listener = listener.tap_io(|tcp| {
            let _ = tcp.set_nodelay(true);
        });
        let pool = EnginePool::new(config.engine_workers, engine);
        let (shutdown, shutdown_rx) = watch::channel(false);
        let shared = Arc::new(Shared {
            config,
            db,
            pool,
            shutdown: shutdown_rx.clone(),
            analysis_cache: Mutex::new(HashMap::new()),
        });
        let app = crate::api::router(AppState::new(shared));
        let mut stop = shutdown_rx;
        let task = tokio::spawn(async move {
            axum::serve(listener, app)
                .with_graceful_shutdown(async move {
                    let _ = stop.wait_for(|v| *v).await;
                })
                .await
        });
        Ok(Server {
            addr,
            shutdown,
            task,
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
    }
}

/// Runs the server until Ctrl-C (or SIGTERM): the `virada serve` command.
pub fn run_blocking(config: ServerConfig) -> Result<(), String> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    rt.block_on(async move {
        let db_path = config.db_path.clone();
        let server = Server::start(config).await?;
        let mut out = std::io::stdout();
        let _ = writeln!(out, "listening on {}", server.url());
        let _ = writeln!(
            out,
            "Virada is ready: open {} in your browser. Games are saved in {}. Press Ctrl-C to stop.",
            server.url(),
            db_path.display()
        );
        let _ = out.flush();
        wait_for_signal().await;
        println!("stopping...");
        server.shutdown().await;
        Ok(())
    })
}

async fn wait_for_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
