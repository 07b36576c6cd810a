//! Server settings, with defaults that just work.

use crate::http::limits::{LimitsConfig, Rate};
// The store owns what names its database; the configuration only holds one.
use crate::runtime::engine_port::Effort;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;
use virada_engine::ReviewEffort;
pub use virada_store::target::{is_postgres_url, PgTarget, TEST_PG_VAR};

/// The default address: the local machine only, port 8080.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";
/// The default database file, relative to the working directory.
pub const DEFAULT_DB: &str = "virada.sqlite";
/// Largest accepted request body.
pub const BODY_LIMIT: usize = 64 * 1024;
/// Largest request head (request line and headers); a larger one is refused with 431.
pub const HEADER_LIMIT: usize = 16 * 1024;
/// Default for [`ServerConfig::max_connections`].
pub const DEFAULT_MAX_CONNECTIONS: usize = 1024;
/// Default for [`ServerConfig::header_timeout`].
pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// The server's review budget for a game of 60 moves (a shorter game gets its share a move):
/// a full game's review in about 10 s of one core, so that one player's analysis does not hold
/// a worker for a minute. `virada analyze --game` keeps the deeper `ReviewEffort::STANDARD`
/// (400 M nodes), where BENCHMARKS.md measures the false flags.
pub const SERVER_REVIEW_NODES: u64 = 60_000_000;
/// Default for [`ServerConfig::analysis_time_cap`]: far above what the standard review's node
/// budget takes on one core (about 2 minutes at 20 M nodes a second).
pub const DEFAULT_ANALYSIS_TIME_CAP: Duration = Duration::from_secs(300);
/// Default for [`ServerConfig::body_timeout`].
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// Everything the server needs to start.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// Where to listen; port 0 lets the system choose.
    pub addr: SocketAddr,
    /// The SQLite database file (created if missing); unused when `postgres` is set.
    pub db_path: PathBuf,
    /// A PostgreSQL database instead of the SQLite file (`--db postgres://...`).
    pub postgres: Option<PgTarget>,
    /// Engine worker threads (the most engine jobs running at once).
    pub engine_workers: usize,
    /// Hard cap on the time of one computer move, whatever the level asks.
    pub move_time_limit: Duration,
    /// Effort for `GET /hint`.
    pub hint_effort: Effort,
    /// Effort for `GET /analysis`: the node budget of a game's review and how it is spent.
    pub analysis_effort: ReviewEffort,
    /// A review still running after this long is stopped (and answered as incomplete). The
    /// node budget, not this, decides a review; the cap only guards a worker on a slow or
    /// overloaded machine.
    pub analysis_time_cap: Duration,
    /// A game with no live connection and no request for this long is abandoned: its search is
    /// cancelled and it is dropped from memory (it stays in the database).
    pub idle_timeout: Duration,
    /// Host names (`virada.example.org`, or with a port: `virada.example.org:8443`) this server
    /// also answers to, besides its bound address (and `localhost` when bound to a loopback or
    /// unspecified address): set this behind a reverse proxy. Requests whose `Host` or `Origin`
    /// is anything else are refused (421 / 403); see docs/SECURITY.md.
    pub allowed_hosts: Vec<String>,
    /// Reverse proxies whose `X-Forwarded-For` is believed: a request from one of these
    /// addresses counts as coming from the last address of that header (the one the proxy
    /// added), for every per-address limit and the local-user rule, and the proxy's own
    /// connections count only against `max_connections`. Empty (the default): the header is
    /// ignored. See docs/SECURITY.md.
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// Most HTTP connections open at once (live streams included); beyond it, new connections
    /// wait in the listen queue until one closes.
    pub max_connections: usize,
    /// A connection waiting for a request (a new one, or an idle kept-alive one) must deliver the
    /// complete request head within this time, or it is closed. This is also the idle timeout.
    pub header_timeout: Duration,
    /// A request body must arrive completely within this time (408 otherwise).
    pub body_timeout: Duration,
    /// Per-address rate limits and caps (see `limits` and docs/SECURITY.md).
    pub limits: LimitsConfig,
    /// How long abandoned games and old chat are kept (see `retention` and docs/SECURITY.md).
    pub retention: RetentionConfig,
    /// The time source of online games' clocks (tests put a manual clock here).
    pub clock: crate::runtime::time::Clock,
    /// This process's name among the instances sharing one PostgreSQL database (random at
    /// start unless `--instance-id` names it; see [`is_valid_instance_id`]): the owner of the
    /// games it runs (`crate::runtime::cluster`), shown by `/api/health`.
    pub instance_id: String,
    /// Several instances: how long an instance waits for the owner's answer to a request it
    /// forwarded (a move on a game another instance runs) before it looks at the game's lease
    /// again (the owner may be dead). The answer is awaited, never this whole time when it
    /// comes sooner.
    pub forward_wait: Duration,
    /// The browser app's files (`virada_web::FILES`, handed over by the `virada` binary); none
    /// by default: `/` then says the server runs without its front end.
    pub web: crate::assets::WebFiles,
}

/// A fresh instance id: `i` and 12 hex digits.
pub fn new_instance_id() -> String {
    format!("i{:012x}", crate::util::random_u64() & 0xffff_ffff_ffff)
}

/// Whether `s` may name an instance: 1 to 32 ASCII lower-case letters, digits, `_` or `-`
/// (it is part of a PostgreSQL channel name).
pub fn is_valid_instance_id(s: &str) -> bool {
    (1..=32).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            // DEFAULT_ADDR.
            addr: SocketAddr::from((Ipv4Addr::LOCALHOST, 8080)),
            db_path: PathBuf::from(DEFAULT_DB),
            postgres: None,
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
            analysis_effort: ReviewEffort::with_nodes(SERVER_REVIEW_NODES),
            analysis_time_cap: DEFAULT_ANALYSIS_TIME_CAP,
            idle_timeout: Duration::from_secs(120),
            allowed_hosts: Vec::new(),
            trusted_proxies: Vec::new(),
            max_connections: DEFAULT_MAX_CONNECTIONS,
            header_timeout: DEFAULT_HEADER_TIMEOUT,
            body_timeout: DEFAULT_BODY_TIMEOUT,
            limits: LimitsConfig::default(),
            retention: RetentionConfig::default(),
            clock: crate::runtime::time::Clock::system(),
            instance_id: new_instance_id(),
            forward_wait: Duration::from_secs(1),
            web: crate::assets::WebFiles::default(),
        }
    }
}

impl ServerConfig {
    /// Light settings for tests: shallow hints and analysis, one worker, and room for the many
    /// games and requests a test makes in a second (the tests of the limits set their own).
    ///
    /// The store is the SQLite file `db_path`, or, when `VIRADA_TEST_STORE=postgres`, a schema
    /// of the PostgreSQL database `VIRADA_TEST_PG` named after `db_path` (the same path gives
    /// the same schema in this process, so a test that restarts its server finds its games).
    pub fn for_tests(db_path: PathBuf) -> ServerConfig {
        ServerConfig {
            addr: SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
            postgres: test_store_is_postgres().then(|| PgTarget::for_test_path(&db_path)),
            db_path,
            engine_workers: 1,
            move_time_limit: Duration::from_secs(5),
            hint_effort: Effort {
                depth: 2,
                exact_empties: 8,
                time: Duration::from_secs(2),
            },
            analysis_effort: ReviewEffort {
                nodes: 200_000,
                exact_empties: 6,
                max_depth: 2,
                ..ReviewEffort::STANDARD
            },
            analysis_time_cap: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(60),
            limits: LimitsConfig {
                api: Rate::new(60_000, 10_000),
                create_game: Rate::new(6_000, 1_000),
                seat: Rate::new(6_000, 1_000),
                chat: Rate::new(6_000, 1_000),
                moves: Rate::new(60_000, 10_000),
                puzzle: Rate::new(6_000, 1_000),
                streams_per_ip: 64,
                online_games_per_ip: 1_000,
                ..LimitsConfig::default()
            },
            ..ServerConfig::default()
        }
    }
}

impl ServerConfig {
    /// Sets the store from a `--db` value: a `postgres://` URL, or a SQLite file.
    pub fn set_db(&mut self, db: &str) {
        if is_postgres_url(db) {
            self.postgres = Some(PgTarget {
                url: db.to_string(),
                schema: None,
            });
        } else {
            self.db_path = PathBuf::from(db);
            self.postgres = None;
        }
    }

    /// The store in words for people: the SQLite file, or the PostgreSQL database (without
    /// its password).
    pub fn db_description(&self) -> String {
        match &self.postgres {
            Some(pg) => pg.describe(),
            None => self.db_path.display().to_string(),
        }
    }
}

const DAY: Duration = Duration::from_secs(24 * 3600);

/// The retention periods, and how often the sweep runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetentionConfig {
    /// An unfinished local game (computer, friend) unchanged this long is deleted (180 days).
    pub local_game: Duration,
    /// An online game still waiting for its second player, unchanged this long, is deleted
    /// (7 days).
    pub waiting_online_game: Duration,
    /// An online game being played, unchanged this long, is deleted (30 days; a timed game
    /// ends by its clock long before: correspondence allows 14 days a move at most).
    pub playing_online_game: Duration,
    /// The chat of an online game finished this long ago is deleted; the game stays (90 days).
    pub finished_chat: Duration,
    /// A browser's puzzle rating and results, unchanged this long, are deleted (365 days; it
    /// starts again as a newcomer; the puzzles' ratings stay).
    pub puzzle_solver: Duration,
    /// How often the sweep runs (1 hour; the first sweep runs one period after start-up).
    pub sweep_every: Duration,
}

impl Default for RetentionConfig {
    fn default() -> Self {
        RetentionConfig {
            local_game: 180 * DAY,
            waiting_online_game: 7 * DAY,
            playing_online_game: 30 * DAY,
            finished_chat: 90 * DAY,
            puzzle_solver: 365 * DAY,
            sweep_every: Duration::from_secs(3600),
        }
    }
}

/// Whether [`ServerConfig::for_tests`] puts the games in PostgreSQL (`VIRADA_TEST_STORE`).
pub fn test_store_is_postgres() -> bool {
    std::env::var("VIRADA_TEST_STORE").is_ok_and(|s| s == "postgres")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_address_is_the_documented_one() {
        assert_eq!(ServerConfig::default().addr.to_string(), DEFAULT_ADDR);
    }

    #[test]
    fn db_values_choose_the_store_and_passwords_are_never_shown() {
        let mut c = ServerConfig::default();
        c.set_db("postgres://ana:secret@db.example:5433/virada?connect_timeout=5");
        let pg = c.postgres.clone().unwrap();
        assert_eq!(pg.describe(), "postgres://ana@db.example:5433/virada");
        assert_eq!(c.db_description(), "postgres://ana@db.example:5433/virada");
        c.set_db("games.sqlite");
        assert_eq!(c.postgres, None);
        assert_eq!(c.db_path, PathBuf::from("games.sqlite"));
        assert!(is_postgres_url("postgresql://localhost/x"));
        assert!(!is_postgres_url("postgres.sqlite"));
    }

    #[test]
    fn instance_ids_are_random_and_checked() {
        let (a, b) = (ServerConfig::default(), ServerConfig::default());
        assert_ne!(a.instance_id, b.instance_id);
        assert!(is_valid_instance_id(&a.instance_id));
        assert!(is_valid_instance_id("web-1"));
        for bad in ["", "Web1", "a b", "x\"y", &"a".repeat(33)] {
            assert!(!is_valid_instance_id(bad), "{bad}");
        }
    }
}
