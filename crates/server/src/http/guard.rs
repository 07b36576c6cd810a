//! Who may talk to the server: the `Host` of every request and its `Origin` (when the browser
//! sends one) must name this server, so a page on another site cannot drive the API, and DNS
//! rebinding (a foreign name resolved to this machine) reaches nothing. See docs/SECURITY.md.

use crate::error::AppError;
use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

/// The names and addresses this server answers to.
#[derive(Clone, Debug)]
pub struct HostPolicy {
    bound: SocketAddr,
    /// Configured names (lower case), each with the port it must carry, if one was given.
    names: Vec<(String, Option<u16>)>,
}

/// A `Host` or `Origin` authority split into its host (lower case, IPv6 without brackets) and
/// port.
fn split_authority(authority: &str) -> Option<(String, Option<u16>)> {
    let a = authority.trim();
    let (host, port) = if let Some(rest) = a.strip_prefix('[') {
        let (host, after) = rest.split_once(']')?;
        match after {
            "" => (host, None),
            p => (host, Some(p.strip_prefix(':')?.parse().ok()?)),
        }
    } else {
        match a.rsplit_once(':') {
            Some((host, p)) => (host, Some(p.parse().ok()?)),
            None => (a, None),
        }
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    (!host.is_empty()).then_some((host, port))
}

impl HostPolicy {
    /// `allowed` entries are `name` (any port) or `name:port`.
    pub fn new(bound: SocketAddr, allowed: &[String]) -> HostPolicy {
        HostPolicy {
            bound,
            names: allowed.iter().filter_map(|a| split_authority(a)).collect(),
        }
    }

    /// Whether `host` (with `port`, or the scheme's default port `default_port`) names this
    /// server: a configured name, or the bound address itself (any local address when bound to
    /// all of them; `localhost` and loopback addresses when bound to loopback or all).
    fn allows(&self, host: &str, port: Option<u16>, default_port: u16) -> bool {
        if self
            .names
            .iter()
            .any(|(name, p)| name == host && p.is_none_or(|p| Some(p) == port))
        {
            return true;
        }
        if port.unwrap_or(default_port) != self.bound.port() {
            return false;
        }
        let bound = self.bound.ip();
        let local_ok = bound.is_loopback() || bound.is_unspecified();
        match host.parse::<IpAddr>() {
            Ok(ip) => {
                ip == bound || bound.is_unspecified() || (bound.is_loopback() && ip.is_loopback())
            }
            Err(_) => local_ok && host == "localhost",
        }
    }

    /// Checks a `Host` header value.
    pub fn check_host(&self, value: &str) -> Result<(), AppError> {
        match split_authority(value) {
            Some((host, port)) if self.allows(&host, port, 80) => Ok(()),
            _ => Err(AppError::MisdirectedHost(format!(
                "this server does not answer to the host {value:?} (it is {}); behind a \
                 reverse proxy, start it with --allowed-host NAME",
                self.bound
            ))),
        }
    }

    /// Checks an `Origin` header value (`scheme://host[:port]`).
    pub fn check_origin(&self, value: &str) -> Result<(), AppError> {
        let ok = match value.split_once("://") {
            Some(("http", authority)) => {
                split_authority(authority).is_some_and(|(h, p)| self.allows(&h, p, 80))
            }
            Some(("https", authority)) => {
                split_authority(authority).is_some_and(|(h, p)| self.allows(&h, p, 443))
            }
            _ => false,
        };
        if ok {
            Ok(())
        } else {
            Err(AppError::ForbiddenOrigin(format!(
                "requests from the page {value:?} are refused: only this server's own pages may \
                 use the API"
            )))
        }
    }
}

/// Middleware: refuses a request whose `Host` (or absolute URI) or `Origin` is not this server.
pub async fn check_host_and_origin(
    State(policy): State<Arc<HostPolicy>>,
    req: Request,
    next: Next,
) -> Response {
    let headers = req.headers();
    let host = match (req.uri().authority(), headers.get(header::HOST)) {
        (Some(authority), _) => Some(authority.as_str().to_string()),
        (None, Some(v)) => v.to_str().ok().map(str::to_string),
        (None, None) => None,
    };
    let verdict = match host {
        None => Err(AppError::MisdirectedHost(
            "the request has no (readable) Host header".into(),
        )),
        Some(h) => policy.check_host(&h),
    }
    .and_then(|()| match headers.get(header::ORIGIN) {
        None => Ok(()),
        Some(v) => policy.check_origin(v.to_str().unwrap_or("")),
    });
    match verdict {
        Ok(()) => next.run(req).await,
        Err(e) => e.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(bound: &str, names: &[&str]) -> HostPolicy {
        let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        HostPolicy::new(bound.parse().unwrap(), &names)
    }

    #[test]
    fn loopback_binding() {
        let p = policy("127.0.0.1:8080", &[]);
        for ok in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST.:8080",
            "[::1]:8080",
        ] {
            assert!(p.check_host(ok).is_ok(), "{ok}");
        }
        for bad in [
            "127.0.0.1:9999",
            "127.0.0.1",
            "evil.example:8080",
            "192.168.1.5:8080",
            "localhost.evil.example:8080",
            "",
            "[::1",
        ] {
            assert!(p.check_host(bad).is_err(), "{bad}");
        }
        assert!(p.check_origin("http://127.0.0.1:8080").is_ok());
        assert!(p.check_origin("http://localhost:8080").is_ok());
        for bad in [
            "null",
            "http://evil.example:8080",
            "https://127.0.0.1:8080.evil.example",
            "file://",
            "http://127.0.0.1:8081",
        ] {
            assert!(p.check_origin(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn reverse_proxy_and_wildcard_binding() {
        let p = policy("0.0.0.0:8080", &["virada.example.org", "alt.example:8443"]);
        assert!(p.check_host("10.0.0.7:8080").is_ok());
        assert!(p.check_host("virada.example.org").is_ok());
        assert!(p.check_origin("https://virada.example.org").is_ok());
        assert!(p.check_origin("https://alt.example:8443").is_ok());
        assert!(p.check_origin("https://alt.example").is_err());
        assert!(p.check_host("other.example:8080").is_err());
        // Bound to one interface: only its address.
        let p = policy("192.168.1.5:80", &[]);
        assert!(p.check_host("192.168.1.5").is_ok());
        assert!(p.check_host("localhost").is_err());
        assert!(p.check_host("127.0.0.1").is_err());
    }
}
