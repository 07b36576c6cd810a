//! Whose a game is, and who is asking.
//!
//! Every game stores the browser that created it (its owner, a [`BrowserId`]). Local games
//! (against the computer, or two people on one device) are private: a request from any other
//! browser gets exactly the 404 of an unknown id, so ids of other people's games reveal
//! nothing. Games stored before owners existed are [`Owner::Unclaimed`]: the first browser
//! that opens or lists them from this machine ([`Asker::local`]) becomes their owner (so a local
//! user keeps their games across the upgrade); from anywhere else they do not exist.

use crate::error::AppError;
use crate::identity::BrowserId;
use crate::model::{Mode, Owner};
use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::HeaderMap;
use std::net::{IpAddr, SocketAddr};

/// The browser making a request, and from where.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Asker {
    pub browser: BrowserId,
    /// The client's address (the TCP peer; see docs/SECURITY.md about proxies).
    pub ip: IpAddr,
    /// Whether the request comes from this machine itself: a loopback peer, and no proxy
    /// header saying it was forwarded for someone else (a reverse proxy on the same machine
    /// connects from loopback too, for every visitor).
    pub local: bool,
}

/// Headers a proxy adds when it forwards a request for someone else.
const FORWARDED_HEADERS: [&str; 3] = ["forwarded", "x-forwarded-for", "x-real-ip"];

/// Whether a request from `ip` with `headers` was made on this machine.
pub fn is_local(ip: IpAddr, headers: &HeaderMap) -> bool {
    ip.to_canonical().is_loopback() && !FORWARDED_HEADERS.iter().any(|h| headers.contains_key(*h))
}

/// The client address of a request, as the accept loop decided it (`server.rs`): the TCP peer,
/// or for a trusted proxy the address it forwarded for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ClientAddr(pub IpAddr);

/// The client's address of a request: [`ClientAddr`] if the accept loop recorded it, else the
/// TCP peer's.
pub fn peer_ip(parts: &axum::http::Extensions) -> Option<IpAddr> {
    if let Some(ClientAddr(ip)) = parts.get::<ClientAddr>() {
        return Some(ip.to_canonical());
    }
    parts
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip().to_canonical())
}

/// The client a proxy forwarded a request for: the last address of the last
/// `X-Forwarded-For` header (a proxy appends the address that connected to it; earlier ones
/// come from the client and prove nothing). An address with a port (`203.0.113.7:5120`,
/// `[2001:db8::1]:443`) is read without it. `None` if there is no such header or its last
/// entry is not an address (`unknown`).
pub fn forwarded_client(headers: &HeaderMap) -> Option<IpAddr> {
    let last = headers.get_all("x-forwarded-for").iter().next_back()?;
    let entry = last.to_str().ok()?.rsplit(',').next()?.trim();
    entry
        .parse::<IpAddr>()
        .ok()
        .or_else(|| entry.parse::<SocketAddr>().ok().map(|a| a.ip()))
        .map(|ip| ip.to_canonical())
}

impl<S: Send + Sync> FromRequestParts<S> for Asker {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        // The identity the request acts as (the account's when signed in, else the browser's),
        // which the identity layer (`crate::identity::layer::identify`) put there.
        let browser = parts
            .extensions
            .get::<BrowserId>()
            .copied()
            .ok_or_else(|| AppError::Internal("the identity layer did not run".into()))?;
        let ip = peer_ip(&parts.extensions)
            .ok_or_else(|| AppError::Internal("the request has no peer address".into()))?;
        Ok(Asker {
            browser,
            ip,
            local: is_local(ip, &parts.headers),
        })
    }
}

/// Whether `asker` may see and use a game owned by `owner` in `mode`. Local games: the owner
/// only (an unclaimed game is claimed before this is asked, or stays invisible). Online games:
/// anyone with the link may read them (spectators); their actor checks every action against
/// the seat holders (`online::actor`).
pub fn may_access(owner: Owner, mode: Mode, asker: &Asker) -> bool {
    match (mode, owner) {
        (Mode::Online, _) => true,
        (_, Owner::Browser(id)) => id == asker.browser,
        (_, Owner::Unclaimed) => false,
    }
}

/// Whether `asker` may delete a game owned by `owner`: its owner only, whatever the mode (an
/// online game is read by anyone with the link, but only its creator may delete it).
pub fn may_delete(owner: Owner, asker: &Asker) -> bool {
    owner == Owner::Browser(asker.browser)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn the_forwarded_client_is_the_last_address_a_proxy_added() {
        let with = |values: &[&str]| {
            let mut h = HeaderMap::new();
            for v in values {
                h.append("x-forwarded-for", HeaderValue::from_str(v).unwrap());
            }
            forwarded_client(&h)
        };
        let ip = |s: &str| Some(s.parse::<IpAddr>().unwrap());
        assert_eq!(with(&[]), None);
        assert_eq!(with(&["203.0.113.7"]), ip("203.0.113.7"));
        // The client wrote the first entries itself; the proxy appended the last one.
        assert_eq!(with(&["10.0.0.1, 198.51.100.2"]), ip("198.51.100.2"));
        assert_eq!(with(&["10.0.0.1", "198.51.100.3"]), ip("198.51.100.3"));
        assert_eq!(with(&["203.0.113.7:5120"]), ip("203.0.113.7"));
        assert_eq!(with(&["[2001:db8::1]:443"]), ip("2001:db8::1"));
        assert_eq!(with(&["::ffff:192.0.2.4"]), ip("192.0.2.4"));
        assert_eq!(with(&["203.0.113.7, unknown"]), None);
        assert_eq!(with(&[""]), None);
    }

    #[test]
    fn owner_column_round_trips() {
        let id = BrowserId::of_token("t");
        let col = Owner::Browser(id).column();
        assert_eq!(Owner::from_column(col.as_deref()), Ok(Owner::Browser(id)));
        assert_eq!(Owner::from_column(None), Ok(Owner::Unclaimed));
        assert!(Owner::from_column(Some("nope")).is_err());
    }

    #[test]
    fn local_means_loopback_and_not_forwarded() {
        let mut h = HeaderMap::new();
        assert!(is_local("127.0.0.1".parse().unwrap(), &h));
        assert!(is_local("::1".parse().unwrap(), &h));
        assert!(is_local("::ffff:127.0.0.1".parse().unwrap(), &h));
        assert!(!is_local("192.168.1.9".parse().unwrap(), &h));
        h.insert("x-forwarded-for", HeaderValue::from_static("203.0.113.7"));
        assert!(!is_local("127.0.0.1".parse().unwrap(), &h));
    }

    #[test]
    fn only_the_owner_has_access() {
        let me = BrowserId::of_token("me");
        let asker = Asker {
            browser: me,
            ip: "127.0.0.1".parse().unwrap(),
            local: true,
        };
        let other = Owner::Browser(BrowserId::of_token("other"));
        assert!(may_access(Owner::Browser(me), Mode::Friend, &asker));
        assert!(!may_access(other, Mode::Friend, &asker));
        assert!(!may_access(Owner::Unclaimed, Mode::Friend, &asker));
        // Online games are readable by anyone with the link (seats are checked per action).
        assert!(may_access(other, Mode::Online, &asker));
        assert!(may_delete(Owner::Browser(me), &asker));
        assert!(!may_delete(other, &asker));
    }
}
