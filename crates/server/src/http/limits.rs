//! Per-address limits: token buckets per client IP for each kind of request ([`Kind`]), and caps
//! on the connections and live game sockets (WebSocket) one address holds open at once.
//!
//! Memory is bounded: at most [`LimitsConfig::tracked_addresses`] addresses are tracked; a sweep
//! (at most once a minute, or when the table is full, at most once a second) forgets addresses
//! whose buckets have refilled and that hold nothing open. An address that finds the table full
//! shares one "overflow" entry with every other such address (so an attacker with many addresses
//! slows down newcomers, but cannot grow the table). IPv6 addresses are counted per /64 (the
//! block one subscriber gets), so a single host cannot rotate through its own addresses.
//!
//! The numbers are in [`LimitsConfig`] (defaults below; docs/SECURITY.md lists them); addresses
//! in [`LimitsConfig::exempt`] skip every per-address limit (a load test from 127.0.0.1).
//!
//! ```
//! use virada_server::http::limits::{Kind, Limiter, LimitsConfig};
//! let limits = Limiter::new(LimitsConfig::default());
//! let ip = "203.0.113.7".parse().unwrap();
//! for _ in 0..10 {
//!     limits.check(ip, Kind::CreateGame).unwrap();
//! }
//! let refused = limits.check(ip, Kind::CreateGame).unwrap_err();
//! assert_eq!(refused.code(), "too_many_requests");
//! ```

use crate::error::AppError;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// What a request does, for rate limiting.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// Any `/api` request (checked by [`limit_api`] for every one).
    Api,
    /// Creating or importing a game.
    CreateGame,
    /// Taking a seat, or joining through a device link.
    Seat,
    /// A chat line.
    Chat,
    /// A move (or resign, abort, takeback, rematch) message.
    Move,
    /// Making a device link (each is a stored row).
    DeviceLink,
    /// A puzzle attempt or hint (a wrong move costs an exact solve; a first result is a stored
    /// row).
    Puzzle,
    /// Signing up or in, changing a password, a recovery, deleting an account (each hashes a
    /// password: argon2id, `crate::accounts`).
    Account,
}

const KINDS: usize = 8;
const ALL_KINDS: [Kind; KINDS] = [
    Kind::Api,
    Kind::CreateGame,
    Kind::Seat,
    Kind::Chat,
    Kind::Move,
    Kind::DeviceLink,
    Kind::Puzzle,
    Kind::Account,
];

impl Kind {
    fn index(self) -> usize {
        match self {
            Kind::Api => 0,
            Kind::CreateGame => 1,
            Kind::Seat => 2,
            Kind::Chat => 3,
            Kind::Move => 4,
            Kind::DeviceLink => 5,
            Kind::Puzzle => 6,
            Kind::Account => 7,
        }
    }

    fn what(self) -> &'static str {
        match self {
            Kind::Api => "requests",
            Kind::CreateGame => "new games",
            Kind::Seat => "seat and join attempts",
            Kind::Chat => "chat lines",
            Kind::Move => "moves",
            Kind::DeviceLink => "device links",
            Kind::Puzzle => "puzzle attempts and hints",
            Kind::Account => "account attempts (sign-up, sign-in, passwords)",
        }
    }
}

/// A token bucket's size: `burst` at once, refilled at `per_minute`.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Rate {
    /// Tokens added a minute (at least 1).
    pub per_minute: u32,
    /// The bucket's capacity: how many may come at once after a quiet time (at least 1).
    pub burst: u32,
}

impl Rate {
    pub const fn new(per_minute: u32, burst: u32) -> Rate {
        Rate { per_minute, burst }
    }

    fn per_second(self) -> f64 {
        f64::from(self.per_minute.max(1)) / 60.0
    }

    fn capacity(self) -> f64 {
        f64::from(self.burst.max(1))
    }
}

/// Every per-address number.
#[derive(Clone, Debug, PartialEq)]
pub struct LimitsConfig {
    /// Any `/api` request: 600 a minute, 120 at once.
    pub api: Rate,
    /// Games created or imported: 10 a minute, 10 at once.
    pub create_game: Rate,
    /// Seat and device-link join attempts: 20 a minute, 10 at once.
    pub seat: Rate,
    /// Chat lines: 30 a minute, 10 at once (each seat also has its own limit in the game).
    pub chat: Rate,
    /// Move messages: 20 a second, 40 at once (each socket also has its own limit).
    pub moves: Rate,
    /// Device links made: 20 a minute, 10 at once (as seats).
    pub device_link: Rate,
    /// Puzzle attempts and hints: 60 a minute, 30 at once.
    pub puzzle: Rate,
    /// Account attempts (sign-up, sign-in, password change, recovery, deletion): 5 a minute,
    /// 10 at once; an address that used them up waits 12 s an attempt (its lockout).
    pub account: Rate,
    /// Connections one address holds open at once (64); beyond it, new ones are refused.
    pub connections_per_ip: usize,
    /// Live game sockets (WebSocket) one address holds open at once (8).
    pub streams_per_ip: usize,
    /// Most addresses tracked at once (65,536 entries, a few MB at most).
    pub tracked_addresses: usize,
    /// Unfinished online games (waiting or playing) created from one address (30); beyond it,
    /// creating one is refused with 429 until one ends or is deleted.
    pub online_games_per_ip: usize,
    /// Games stored from one address, any mode, finished or not (10,000); beyond it, creating or
    /// importing one is refused with 429 until some are deleted (or expire: `retention`).
    pub stored_games_per_ip: usize,
    /// Addresses that skip every per-address limit (the global connection cap still applies).
    pub exempt: Vec<IpAddr>,
}

impl Default for LimitsConfig {
    fn default() -> Self {
        LimitsConfig {
            api: Rate::new(600, 120),
            create_game: Rate::new(10, 10),
            seat: Rate::new(20, 10),
            chat: Rate::new(30, 10),
            moves: Rate::new(1200, 40),
            device_link: Rate::new(20, 10),
            puzzle: Rate::new(60, 30),
            account: Rate::new(5, 10),
            connections_per_ip: 64,
            streams_per_ip: 8,
            tracked_addresses: 65_536,
            online_games_per_ip: 30,
            stored_games_per_ip: 10_000,
            exempt: Vec::new(),
        }
    }
}

impl LimitsConfig {
    fn rate(&self, kind: Kind) -> Rate {
        match kind {
            Kind::Api => self.api,
            Kind::CreateGame => self.create_game,
            Kind::Seat => self.seat,
            Kind::Chat => self.chat,
            Kind::Move => self.moves,
            Kind::DeviceLink => self.device_link,
            Kind::Puzzle => self.puzzle,
            Kind::Account => self.account,
        }
    }
}

/// Where the limiter reads the time (tests inject a manual clock).
pub trait Clock: Send + Sync {
    fn now(&self) -> Instant;
}

/// The real monotonic clock.
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// The key an address is counted under.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Key {
    V4(u32),
    /// The /64 network of an IPv6 address.
    V6Net(u64),
    /// Every address that found the table full.
    Overflow,
}

impl Key {
    fn of(ip: IpAddr) -> Key {
        match ip.to_canonical() {
            IpAddr::V4(v4) => Key::V4(u32::from(v4)),
            IpAddr::V6(v6) => Key::V6Net((u128::from(v6) >> 64) as u64),
        }
    }
}

/// The address `ip` is counted as, written out (stored with the games it creates, for the caps
/// on stored games): an IPv4 address, or the /64 network of an IPv6 one (`2001:db8:1:2::/64`).
pub fn address_key(ip: IpAddr) -> String {
    match Key::of(ip) {
        Key::V4(v4) => std::net::Ipv4Addr::from(v4).to_string(),
        Key::V6Net(net) => format!("{}/64", std::net::Ipv6Addr::from(u128::from(net) << 64)),
        Key::Overflow => "overflow".into(),
    }
}

#[derive(Clone, Copy, Debug)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    fn full(rate: Rate, now: Instant) -> Bucket {
        Bucket {
            tokens: rate.capacity(),
            at: now,
        }
    }

    fn level(&self, rate: Rate, now: Instant) -> f64 {
        let elapsed = now.saturating_duration_since(self.at).as_secs_f64();
        (self.tokens + elapsed * rate.per_second()).min(rate.capacity())
    }

    /// Takes a token, or says how long until one is there.
    fn take(&mut self, rate: Rate, now: Instant) -> Result<(), Duration> {
        let level = self.level(rate, now);
        self.at = now;
        // The epsilon absorbs rounding: a token due after exactly 6 s is there after 6 s.
        if level >= 1.0 - 1e-9 {
            self.tokens = (level - 1.0).max(0.0);
            Ok(())
        } else {
            self.tokens = level;
            Err(Duration::from_secs_f64((1.0 - level) / rate.per_second()))
        }
    }
}

struct Entry {
    buckets: [Bucket; KINDS],
    connections: usize,
    streams: usize,
}

impl Entry {
    fn new(config: &LimitsConfig, now: Instant) -> Entry {
        Entry {
            buckets: ALL_KINDS.map(|k| Bucket::full(config.rate(k), now)),
            connections: 0,
            streams: 0,
        }
    }

    /// Whether forgetting this entry changes nothing: all buckets full, nothing open.
    fn idle(&self, config: &LimitsConfig, now: Instant) -> bool {
        self.connections == 0
            && self.streams == 0
            && ALL_KINDS.iter().all(|&k| {
                let rate = config.rate(k);
                self.buckets[k.index()].level(rate, now) >= rate.capacity()
            })
    }
}

struct Table {
    entries: HashMap<Key, Entry>,
    last_sweep: Instant,
}

/// How often the table forgets idle addresses.
const SWEEP_EVERY: Duration = Duration::from_secs(60);
/// A full table is swept at most this often (a sweep visits every entry).
const FULL_SWEEP_EVERY: Duration = Duration::from_secs(1);
/// What a refused stream is told to wait.
const STREAM_RETRY: Duration = Duration::from_secs(5);

/// The per-address limits of one server (see the module documentation).
pub struct Limiter {
    config: LimitsConfig,
    clock: Arc<dyn Clock>,
    table: Mutex<Table>,
}

impl Limiter {
    pub fn new(config: LimitsConfig) -> Limiter {
        Limiter::with_clock(config, Arc::new(SystemClock))
    }

    pub fn with_clock(config: LimitsConfig, clock: Arc<dyn Clock>) -> Limiter {
        let now = clock.now();
        Limiter {
            config,
            clock,
            table: Mutex::new(Table {
                entries: HashMap::new(),
                last_sweep: now,
            }),
        }
    }

    pub fn config(&self) -> &LimitsConfig {
        &self.config
    }

    /// Addresses tracked now.
    pub fn tracked(&self) -> usize {
        self.table().entries.len()
    }

    fn table(&self) -> MutexGuard<'_, Table> {
        // Every change under this lock is a few field updates that cannot panic half-way.
        self.table.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether `ip` skips every per-address limit ([`LimitsConfig::exempt`]).
    pub fn exempt(&self, ip: IpAddr) -> bool {
        let ip = ip.to_canonical();
        self.config.exempt.iter().any(|e| e.to_canonical() == ip)
    }

    /// The entry of `ip`, made if needed (sweeping first if it is time, or the table is full).
    fn entry<'t>(&self, table: &'t mut Table, ip: IpAddr, now: Instant) -> (Key, &'t mut Entry) {
        let mut key = Key::of(ip);
        let since = now.saturating_duration_since(table.last_sweep);
        let full = table.entries.len() >= self.config.tracked_addresses.max(1);
        if since >= SWEEP_EVERY || (full && since >= FULL_SWEEP_EVERY) {
            table.entries.retain(|_, e| !e.idle(&self.config, now));
            table.last_sweep = now;
        }
        if !table.entries.contains_key(&key)
            && table.entries.len() >= self.config.tracked_addresses.max(1)
        {
            key = Key::Overflow;
        }
        let entry = table
            .entries
            .entry(key)
            .or_insert_with(|| Entry::new(&self.config, now));
        (key, entry)
    }

    /// Takes one `kind` token of `ip`'s bucket: `Err` is 429 `too_many_requests` with the wait
    /// (`Retry-After`). This is the call for handlers: `state.limits.check(ip, Kind::Chat)?`.
    pub fn check(&self, ip: IpAddr, kind: Kind) -> Result<(), AppError> {
        if self.exempt(ip) {
            return Ok(());
        }
        let now = self.clock.now();
        let mut table = self.table();
        let (_, entry) = self.entry(&mut table, ip, now);
        let rate = self.config.rate(kind);
        entry.buckets[kind.index()]
            .take(rate, now)
            .map_err(|wait| AppError::RateLimited {
                message: format!(
                    "too many {} from your address (at most {} a minute); try again in {} s",
                    kind.what(),
                    rate.per_minute,
                    retry_seconds(wait)
                ),
                retry_after: retry_seconds(wait),
            })
    }

    /// Counts a new connection of `ip`; `None` when the address holds
    /// [`LimitsConfig::connections_per_ip`] already. The count drops with the guard.
    pub fn open_connection(self: &Arc<Self>, ip: IpAddr) -> Option<OpenGuard> {
        self.open(ip, Counter::Connection)
    }

    /// Counts a new live game socket (WebSocket) of `ip`: `Err` is 429 `too_many_requests` when
    /// the address holds [`LimitsConfig::streams_per_ip`] already. Keep the guard for as long
    /// as the stream is open.
    pub fn open_stream(self: &Arc<Self>, ip: IpAddr) -> Result<OpenGuard, AppError> {
        self.open(ip, Counter::Stream)
            .ok_or_else(|| AppError::RateLimited {
                message: format!(
                    "your address has {} live game streams open already (the most at once); \
                     close a tab or wait for one to end",
                    self.config.streams_per_ip
                ),
                retry_after: retry_seconds(STREAM_RETRY),
            })
    }

    fn open(self: &Arc<Self>, ip: IpAddr, counter: Counter) -> Option<OpenGuard> {
        if self.exempt(ip) {
            return Some(OpenGuard {
                limiter: self.clone(),
                counted: None,
            });
        }
        let now = self.clock.now();
        let mut table = self.table();
        let (key, entry) = self.entry(&mut table, ip, now);
        let (count, cap) = match counter {
            Counter::Connection => (&mut entry.connections, self.config.connections_per_ip),
            Counter::Stream => (&mut entry.streams, self.config.streams_per_ip),
        };
        // The overflow entry is shared by many addresses: it gets the cap of all of them.
        let cap = if key == Key::Overflow {
            cap.saturating_mul(16)
        } else {
            cap
        };
        if *count >= cap {
            return None;
        }
        *count += 1;
        Some(OpenGuard {
            limiter: self.clone(),
            counted: Some((key, counter)),
        })
    }

    fn close(&self, key: Key, counter: Counter) {
        let mut table = self.table();
        if let Some(entry) = table.entries.get_mut(&key) {
            let count = match counter {
                Counter::Connection => &mut entry.connections,
                Counter::Stream => &mut entry.streams,
            };
            *count = count.saturating_sub(1);
        }
    }

    /// Connections and streams `ip` holds open now.
    pub fn open_counts(&self, ip: IpAddr) -> (usize, usize) {
        self.table()
            .entries
            .get(&Key::of(ip))
            .map_or((0, 0), |e| (e.connections, e.streams))
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Counter {
    Connection,
    Stream,
}

/// An open connection or stream, counted against its address until dropped.
pub struct OpenGuard {
    limiter: Arc<Limiter>,
    counted: Option<(Key, Counter)>,
}

impl Drop for OpenGuard {
    fn drop(&mut self) {
        if let Some((key, counter)) = self.counted {
            self.limiter.close(key, counter);
        }
    }
}

/// Whole seconds to wait, at least 1 (what `Retry-After` carries).
fn retry_seconds(wait: Duration) -> u64 {
    wait.as_secs_f64().ceil().max(1.0) as u64
}

/// Middleware on `/api`: every request takes a [`Kind::Api`] token of its address.
pub async fn limit_api(State(limits): State<Arc<Limiter>>, req: Request, next: Next) -> Response {
    let Some(ip) = crate::http::ownership::peer_ip(req.extensions()) else {
        return AppError::Internal("the request has no peer address".into()).into_response();
    };
    match limits.check(ip, Kind::Api) {
        Ok(()) => next.run(req).await,
        Err(e) => e.into_response(),
    }
}

/// The answer to a connection beyond its address's cap, written before it is closed.
pub fn connection_refused_response() -> Vec<u8> {
    let body = AppError::RateLimited {
        message: "too many connections from your address at once".into(),
        retry_after: retry_seconds(STREAM_RETRY),
    }
    .body();
    let body = serde_json::to_string(&body).unwrap_or_default();
    format!(
        "HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\nretry-after: {}\r\n\
         connection: close\r\ncontent-length: {}\r\n\r\n{body}",
        retry_seconds(STREAM_RETRY),
        body.len()
    )
    .into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    struct ManualClock(Mutex<Instant>);

    impl ManualClock {
        fn advance(&self, d: Duration) {
            *self.0.lock().unwrap() += d;
        }
    }

    impl Clock for ManualClock {
        fn now(&self) -> Instant {
            *self.0.lock().unwrap()
        }
    }

    fn limiter(config: LimitsConfig) -> (Arc<Limiter>, Arc<ManualClock>) {
        let clock = Arc::new(ManualClock(Mutex::new(Instant::now())));
        (Arc::new(Limiter::with_clock(config, clock.clone())), clock)
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn a_burst_beyond_the_bucket_is_refused_and_the_bucket_refills() {
        let (l, clock) = limiter(LimitsConfig::default());
        let a = ip("198.51.100.1");
        for _ in 0..10 {
            l.check(a, Kind::CreateGame).unwrap();
        }
        let e = l.check(a, Kind::CreateGame).unwrap_err();
        assert_eq!(e.code(), "too_many_requests");
        assert_eq!(e.status(), axum::http::StatusCode::TOO_MANY_REQUESTS);
        // 10 a minute: one token every 6 s.
        assert!(
            matches!(e, AppError::RateLimited { retry_after: 6, .. }),
            "{e:?}"
        );
        // Another address and another kind are not affected.
        l.check(ip("198.51.100.2"), Kind::CreateGame).unwrap();
        l.check(a, Kind::Api).unwrap();
        clock.advance(Duration::from_secs(5));
        assert!(l.check(a, Kind::CreateGame).is_err());
        clock.advance(Duration::from_secs(1));
        l.check(a, Kind::CreateGame).unwrap();
        assert!(l.check(a, Kind::CreateGame).is_err());
        // A minute later the whole burst is back.
        clock.advance(Duration::from_secs(60));
        for _ in 0..10 {
            l.check(a, Kind::CreateGame).unwrap();
        }
        assert!(l.check(a, Kind::CreateGame).is_err());
    }

    #[test]
    fn ipv6_counts_per_64_and_exempt_addresses_skip_limits() {
        let config = LimitsConfig {
            exempt: vec![ip("127.0.0.1")],
            ..LimitsConfig::default()
        };
        let (l, _) = limiter(config);
        for i in 0..10 {
            l.check(ip(&format!("2001:db8:1:2::{i:x}")), Kind::CreateGame)
                .unwrap();
        }
        assert!(l
            .check(ip("2001:db8:1:2:ffff::1"), Kind::CreateGame)
            .is_err());
        l.check(ip("2001:db8:1:3::1"), Kind::CreateGame).unwrap();
        for _ in 0..100 {
            l.check(ip("127.0.0.1"), Kind::CreateGame).unwrap();
            l.check(ip("::ffff:127.0.0.1"), Kind::CreateGame).unwrap();
        }
        assert_eq!(l.tracked(), 2);
    }

    #[test]
    fn connections_and_streams_are_capped_until_closed() {
        let config = LimitsConfig {
            connections_per_ip: 2,
            streams_per_ip: 1,
            ..LimitsConfig::default()
        };
        let (l, _) = limiter(config);
        let a = ip("198.51.100.1");
        let c1 = l.open_connection(a).unwrap();
        let _c2 = l.open_connection(a).unwrap();
        assert!(l.open_connection(a).is_none());
        assert!(l.open_connection(ip("198.51.100.2")).is_some());
        drop(c1);
        let _c3 = l.open_connection(a).unwrap();
        let s1 = l.open_stream(a).unwrap();
        let e = l.open_stream(a).err().unwrap();
        assert_eq!(e.code(), "too_many_requests");
        assert_eq!(l.open_counts(a), (2, 1));
        drop(s1);
        assert_eq!(l.open_counts(a), (2, 0));
        l.open_stream(a).unwrap();
    }

    #[test]
    fn the_table_is_bounded_and_idle_addresses_are_forgotten() {
        let config = LimitsConfig {
            tracked_addresses: 4,
            ..LimitsConfig::default()
        };
        let (l, clock) = limiter(config);
        for i in 0..4 {
            l.check(ip(&format!("10.0.0.{i}")), Kind::CreateGame)
                .unwrap();
        }
        assert_eq!(l.tracked(), 4);
        // Full: newcomers share the overflow entry (one more entry, never more).
        for i in 10..30 {
            let _ = l.check(ip(&format!("10.0.0.{i}")), Kind::Api);
        }
        assert_eq!(l.tracked(), 5);
        for _ in 0..10 {
            l.check(ip("10.0.1.1"), Kind::CreateGame).unwrap_or(());
        }
        assert!(l.check(ip("10.0.1.2"), Kind::CreateGame).is_err());
        // An address holding a connection is kept; the others are swept once refilled.
        let held = l.open_connection(ip("10.0.0.0")).unwrap();
        clock.advance(Duration::from_secs(120));
        l.check(ip("10.0.2.1"), Kind::Api).unwrap();
        assert_eq!(l.tracked(), 2);
        drop(held);
    }

    #[test]
    fn address_keys_are_ipv4_addresses_and_ipv6_networks() {
        assert_eq!(address_key(ip("198.51.100.7")), "198.51.100.7");
        assert_eq!(address_key(ip("::ffff:198.51.100.7")), "198.51.100.7");
        assert_eq!(address_key(ip("2001:db8:1:2:3:4:5:6")), "2001:db8:1:2::/64");
    }

    #[test]
    fn the_refusal_response_is_well_formed() {
        let bytes = connection_refused_response();
        let text = std::str::from_utf8(&bytes).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 429 "));
        assert!(head.contains(&format!("content-length: {}", body.len())));
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(v["error"]["code"], "too_many_requests");
    }
}
