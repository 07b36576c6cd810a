//! Quick pairing: a player joins a pool (a time control and a start, rated or casual) and is
//! paired with the waiting player nearest in rating whose difference both windows allow. A
//! window is ±[`WINDOW_BASE`] plus [`WINDOW_PER_SECOND`] for every second waited, at most
//! ±[`WINDOW_MAX`]; the pools are matched when someone joins and at every lobby tick.

use super::{holder_of, rating_of, refused, seat_of, Event, Lobby};
use crate::error::AppResult;
use crate::http::extract::JsonBody;
use crate::http::limits::Kind;
use crate::http::ownership::Asker;
use crate::identity::layer::Identity;
use crate::identity::BrowserId;
use crate::model::online::TimeControl;
use crate::online::http::check_rated;
use crate::online::paired::{start_paired, Seat, Start};
use crate::rating::Category;
use crate::runtime::state::AppState;
use crate::util::random_u64;
use axum::extract::State;
use axum::http::StatusCode;
use axum::{Extension, Json};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::net::IpAddr;
use std::sync::Arc;
use virada_rules::Color;

/// The window at joining (rating points either side).
pub const WINDOW_BASE: f64 = 100.0;
/// How much the window widens per second waited.
pub const WINDOW_PER_SECOND: f64 = 25.0;
/// The widest window (reached after 20 s).
pub const WINDOW_MAX: f64 = 600.0;
/// Players waiting in all pools together.
pub const WAITING_MAX: usize = 5000;

/// A pool: its name, clock and start.
#[derive(Clone, Copy, Debug)]
pub struct Pool {
    pub name: &'static str,
    pub minutes: u32,
    pub increment_seconds: u32,
    pub start: Start,
}

impl Pool {
    pub fn time_control(&self) -> TimeControl {
        TimeControl::Clock {
            minutes: self.minutes,
            increment_seconds: self.increment_seconds,
        }
    }
}

/// The pools, as the buttons show them.
pub const POOLS: [Pool; 5] = [
    Pool {
        name: "1+0",
        minutes: 1,
        increment_seconds: 0,
        start: Start::Standard,
    },
    Pool {
        name: "3+2",
        minutes: 3,
        increment_seconds: 2,
        start: Start::Standard,
    },
    Pool {
        name: "5+0",
        minutes: 5,
        increment_seconds: 0,
        start: Start::Standard,
    },
    Pool {
        name: "10+5",
        minutes: 10,
        increment_seconds: 5,
        start: Start::Standard,
    },
    Pool {
        name: "xot-3+2",
        minutes: 3,
        increment_seconds: 2,
        start: Start::Xot,
    },
];

/// The window of a player who has waited `waited_ms`.
pub fn window(waited_ms: i64) -> f64 {
    (WINDOW_BASE + WINDOW_PER_SECOND * (waited_ms.max(0) / 1000) as f64).min(WINDOW_MAX)
}

/// A player waiting in a pool.
#[derive(Clone, Debug)]
pub struct Waiting {
    pub seat: Seat,
    pub pool: usize,
    pub rated: bool,
    pub rating: f64,
    pub joined_at: i64,
    /// Players this one must not be paired with (one of the two blocks the other).
    pub avoid: Vec<BrowserId>,
}

/// Two players to seat in a game of `pool`.
#[derive(Debug)]
pub struct Pair {
    pub pool: usize,
    pub rated: bool,
    pub a: Waiting,
    pub b: Waiting,
}

/// Everyone waiting, oldest first.
#[derive(Default, Debug)]
pub struct Pools {
    waiting: Vec<Waiting>,
}

impl Pools {
    /// Takes `holder` out of any pool; whether they were in one.
    pub fn remove(&mut self, holder: BrowserId) -> bool {
        let before = self.waiting.len();
        self.waiting.retain(|w| w.seat.holder != holder);
        self.waiting.len() != before
    }

    /// Whether `holder` waits in a pool.
    pub fn contains(&self, holder: BrowserId) -> bool {
        self.waiting.iter().any(|w| w.seat.holder == holder)
    }

    pub fn len(&self) -> usize {
        self.waiting.len()
    }

    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.waiting.is_empty()
    }

    /// Puts `w` in its pool (out of any other), keeping the oldest first.
    pub fn add(&mut self, w: Waiting) {
        self.remove(w.seat.holder);
        self.waiting.push(w);
    }

    /// The pairs to make at `now`: the longest waiting first, each with the unpaired player
    /// of the same pool nearest in rating whose difference is within both windows.
    pub fn match_all(&mut self, now: i64) -> Vec<Pair> {
        let mut used = vec![false; self.waiting.len()];
        let mut pairs = Vec::new();
        for i in 0..self.waiting.len() {
            if used[i] {
                continue;
            }
            let a = &self.waiting[i];
            let wa = window(now - a.joined_at);
            let mut best: Option<(usize, f64)> = None;
            for (j, b) in self.waiting.iter().enumerate() {
                if j == i
                    || used[j]
                    || b.pool != a.pool
                    || b.rated != a.rated
                    || a.avoid.contains(&b.seat.holder)
                    || b.avoid.contains(&a.seat.holder)
                {
                    continue;
                }
                let diff = (a.rating - b.rating).abs();
                if diff <= wa.min(window(now - b.joined_at)) && best.is_none_or(|(_, d)| diff < d) {
                    best = Some((j, diff));
                }
            }
            if let Some((j, _)) = best {
                used[i] = true;
                used[j] = true;
                pairs.push((i, j));
            }
        }
        let mut out = Vec::new();
        for (i, j) in &pairs {
            out.push(Pair {
                pool: self.waiting[*i].pool,
                rated: self.waiting[*i].rated,
                a: self.waiting[*i].clone(),
                b: self.waiting[*j].clone(),
            });
        }
        let mut k = 0;
        self.waiting.retain(|_| {
            k += 1;
            !used[k - 1]
        });
        out
    }
}

/// Seats a pair in a game and tells both (over their lobby sockets). Two players of whom one
/// blocks the other go back to the pool, never to be paired together.
pub async fn start(state: AppState, lobby: Arc<Lobby>, mut pair: Pair) {
    let pool = POOLS[pair.pool];
    let (ha, hb) = (pair.a.seat.holder, pair.b.seat.holder);
    match crate::safety::blocked_either_way(&state, ha, hb).await {
        Ok(false) => {}
        Ok(true) => {
            pair.a.avoid.push(hb);
            pair.b.avoid.push(ha);
            // Back in the pool; the next tick pairs them with others. Each is told in words
            // why a waiting player was passed over (instead of waiting silently).
            let told: Vec<(BrowserId, usize)> = {
                let mut inner = lobby.lock();
                let mut told = Vec::new();
                for w in [pair.a, pair.b] {
                    if !inner.pools.contains(w.seat.holder) {
                        told.push((w.seat.holder, w.avoid.len()));
                        inner.pools.add(w);
                    }
                }
                told
            };
            for (holder, skipped) in told {
                lobby.send(Event::PoolSkipped { holder, skipped });
            }
            return;
        }
        Err(e) => {
            tracing::warn!(error = %e, "blocks could not be read for a quick pairing");
            for holder in [ha, hb] {
                lobby.send(Event::PoolLeft {
                    holder,
                    reason: "failed",
                });
            }
            return;
        }
    }
    let (white, black) = if random_u64() & 1 == 0 {
        (pair.a, pair.b)
    } else {
        (pair.b, pair.a)
    };
    let (wh, bh) = (white.seat.holder, black.seat.holder);
    match start_paired(
        &state,
        white.seat,
        black.seat,
        pool.time_control(),
        pair.rated,
        pool.start,
    )
    .await
    {
        Ok(game) => {
            for (holder, color) in [(wh, Color::White), (bh, Color::Black)] {
                lobby.send(Event::Paired {
                    holder,
                    game: game.clone(),
                    color,
                    seek: None,
                    pool: Some(pool.name),
                });
            }
        }
        Err(e) => {
            tracing::warn!(error = %e, "a quick pairing's game could not be made");
            for holder in [wh, bh] {
                lobby.send(Event::PoolLeft {
                    holder,
                    reason: "failed",
                });
            }
        }
    }
}

/// `POST /api/pairing` (and the lobby socket's `pool_join`).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    pub pool: String,
    #[serde(default)]
    pub rated: bool,
    #[serde(default)]
    pub name: Option<String>,
}

#[derive(Serialize, Debug)]
pub struct Joined {
    pub pool: &'static str,
    pub rated: bool,
    pub rating: f64,
    pub window: f64,
}

/// Puts the asker in a pool and pairs at once if someone fits.
pub async fn join_pool(
    state: &AppState,
    lobby: &Arc<Lobby>,
    identity: &Identity,
    ip: IpAddr,
    req: JoinRequest,
) -> AppResult<Joined> {
    state.limits.check(ip, Kind::Seat)?;
    let Some(index) = POOLS.iter().position(|p| p.name == req.pool) else {
        let names: Vec<&str> = POOLS.iter().map(|p| p.name).collect();
        return Err(refused(
            StatusCode::BAD_REQUEST,
            "unknown_pool",
            &format!("pool {:?}: must be one of {}", req.pool, names.join(", ")),
            &[("pools", json!(names))],
        ));
    };
    let pool = POOLS[index];
    if req.rated {
        check_rated(identity, pool.time_control())?;
    }
    let seat = seat_of(identity, req.name, ip)?;
    let rating = rating_of(state, identity, Category::of(pool.time_control()))
        .await?
        .rating
        .rating;
    let now = state.shared.config.clock.now_ms();
    let pairs = {
        let mut inner = lobby.lock();
        let holder = seat.holder;
        let already = inner.pools.remove(holder);
        if !already && inner.pools.len() >= WAITING_MAX {
            return Err(refused(
                StatusCode::SERVICE_UNAVAILABLE,
                "lobby_full",
                "too many players are waiting; try again in a moment",
                &[("max", json!(WAITING_MAX))],
            ));
        }
        Lobby::seen(&mut inner, holder, now);
        inner.pools.add(Waiting {
            seat,
            pool: index,
            rated: req.rated,
            rating,
            joined_at: now,
            avoid: Vec::new(),
        });
        inner.pools.match_all(now)
    };
    for pair in pairs {
        tokio::spawn(start(state.clone(), lobby.clone(), pair));
    }
    Ok(Joined {
        pool: pool.name,
        rated: req.rated,
        rating: rating.round(),
        window: WINDOW_BASE,
    })
}

/// Takes the asker out of the pools; whether they were in one.
pub fn leave_pool(lobby: &Lobby, holder: BrowserId) -> bool {
    let left = lobby.lock().pools.remove(holder);
    if left {
        lobby.send(Event::PoolLeft {
            holder,
            reason: "cancelled",
        });
    }
    left
}

/// `POST /api/pairing`: 202, the result comes over the lobby socket.
pub async fn join(
    State(state): State<AppState>,
    Extension(lobby): Extension<Arc<Lobby>>,
    asker: Asker,
    identity: Identity,
    JsonBody(req): JsonBody<JoinRequest>,
) -> AppResult<(StatusCode, Json<Joined>)> {
    let joined = join_pool(&state, &lobby, &identity, asker.ip, req).await?;
    Ok((StatusCode::ACCEPTED, Json(joined)))
}

/// `DELETE /api/pairing`: 204 (also when the asker was in no pool).
pub async fn leave(
    Extension(lobby): Extension<Arc<Lobby>>,
    identity: Identity,
) -> AppResult<StatusCode> {
    leave_pool(&lobby, holder_of(&identity));
    Ok(StatusCode::NO_CONTENT)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(n: u8, rating: f64, joined_at: i64) -> Waiting {
        Waiting {
            seat: Seat {
                holder: crate::identity::BrowserId::of_token(&n.to_string()),
                name: format!("p{n}"),
                account: false,
                ip: "127.0.0.1".parse().unwrap(),
            },
            pool: 1,
            rated: false,
            rating,
            joined_at,
            avoid: Vec::new(),
        }
    }

    #[test]
    fn windows_widen_with_waiting() {
        assert_eq!(window(0), 100.0);
        assert_eq!(window(999), 100.0);
        assert_eq!(window(4_000), 200.0);
        assert_eq!(window(60_000), WINDOW_MAX);
        let mut pools = Pools::default();
        pools.add(w(1, 1500.0, 0));
        pools.add(w(2, 1800.0, 0));
        assert!(pools.match_all(0).is_empty());
        // 300 apart: both windows must reach 300, i.e. 8 s.
        assert!(pools.match_all(7_999).is_empty());
        let pairs = pools.match_all(8_000);
        assert_eq!(pairs.len(), 1);
        assert!(pools.is_empty());
    }

    #[test]
    fn the_nearest_rating_is_chosen_and_pools_stay_apart() {
        let mut pools = Pools::default();
        pools.add(w(1, 1500.0, 0));
        let mut other = w(2, 1500.0, 0);
        other.pool = 2;
        pools.add(other);
        pools.add(w(3, 1590.0, 1));
        pools.add(w(4, 1520.0, 2));
        let pairs = pools.match_all(2);
        assert_eq!(pairs.len(), 1);
        assert_eq!(
            (pairs[0].a.seat.name.as_str(), pairs[0].b.seat.name.as_str()),
            ("p1", "p4")
        );
        assert_eq!(pools.len(), 2);
    }
}
