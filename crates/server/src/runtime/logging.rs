//! Logging: `tracing` events and spans, written to standard error by `tracing-subscriber`.
//!
//! The library only emits; [`init`] installs the subscriber, and only the server's command
//! ([`crate::run_blocking`]) calls it, so tests and embedders print nothing unless they install
//! one of their own. `RUST_LOG` chooses the levels (`info` when unset or unreadable; see
//! docs/SERVER.md, "Logs"). Every HTTP request runs in a `request` span ([`request_span`]), every
//! game actor in a `game` span, every WebSocket in a `socket` span.

use axum::extract::Request;
use tracing::Span;
use tracing_subscriber::EnvFilter;

/// The level filter used when `RUST_LOG` is not set.
pub const DEFAULT_FILTER: &str = "info";

/// Installs the subscriber: one line per event on standard error, filtered by `RUST_LOG`. Does
/// nothing if a subscriber is already installed.
pub fn init() {
    let (filter, unreadable) = match std::env::var("RUST_LOG") {
        Ok(text) if !text.trim().is_empty() => match EnvFilter::try_new(&text) {
            Ok(filter) => (filter, None),
            Err(e) => (EnvFilter::new(DEFAULT_FILTER), Some((text, e))),
        },
        _ => (EnvFilter::new(DEFAULT_FILTER), None),
    };
    let installed = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init()
        .is_ok();
    if let (true, Some((text, e))) = (installed, unreadable) {
        tracing::warn!(rust_log = %text, error = %e, "RUST_LOG not understood; logging at info");
    }
}

/// The span of one HTTP request: its method and path. A device link's token (`/join/<token>`,
/// a page route) is left out of the path, so logs never hold a usable link.
pub fn request_span(req: &Request) -> Span {
    let path = req.uri().path();
    let path = if path.starts_with("/join/") {
        "/join/…"
    } else {
        path
    };
    tracing::info_span!("request", method = %req.method(), path = %path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;

    #[test]
    fn a_device_link_token_is_not_in_the_request_span() {
        // Spans are disabled without a subscriber: record into one that keeps the fields.
        use std::sync::{Arc, Mutex};
        use tracing::field::{Field, Visit};
        use tracing::span::{Attributes, Id, Record};
        use tracing::{Event, Metadata, Subscriber};

        #[derive(Clone, Default)]
        struct Fields(Arc<Mutex<Vec<String>>>);
        struct Collect<'a>(&'a mut Vec<String>);
        impl Visit for Collect<'_> {
            fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
                self.0.push(format!("{}={:?}", field.name(), value));
            }
        }
        impl Subscriber for Fields {
            fn enabled(&self, _: &Metadata<'_>) -> bool {
                true
            }
            fn new_span(&self, span: &Attributes<'_>) -> Id {
                let mut out = self.0.lock().unwrap();
                span.record(&mut Collect(&mut out));
                Id::from_u64(1)
            }
            fn record(&self, _: &Id, _: &Record<'_>) {}
            fn record_follows_from(&self, _: &Id, _: &Id) {}
            fn event(&self, _: &Event<'_>) {}
            fn enter(&self, _: &Id) {}
            fn exit(&self, _: &Id) {}
        }

        let fields = Fields::default();
        let seen = fields.0.clone();
        tracing::subscriber::with_default(fields, || {
            let token = "a".repeat(32);
            let req = Request::get(format!("/join/{token}"))
                .body(Body::empty())
                .unwrap();
            let _ = request_span(&req);
            let req = Request::post("/api/games/g_abc/moves")
                .body(Body::empty())
                .unwrap();
            let _ = request_span(&req);
        });
        let seen = seen.lock().unwrap().join(" ");
        assert!(seen.contains("path=/join/…"), "{seen}");
        assert!(!seen.contains(&"a".repeat(32)), "{seen}");
        assert!(
            seen.contains("method=POST") && seen.contains("path=/api/games/g_abc/moves"),
            "{seen}"
        );
    }
}
