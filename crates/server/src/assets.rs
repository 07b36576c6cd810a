//! The browser app's files, served with content types, `Cache-Control: no-cache` and ETags (so
//! a browser revalidates cheaply). The files themselves are embedded by the crate `virada-web`
//! (`crates/web`), which the `virada` binary hands over in [`crate::ServerConfig::web`]: the
//! server does not depend on it, so an edit of the app rebuilds that small crate, not this one.

use axum::body::Body;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;
use std::fmt;

/// The app's files: (path relative to the app's folder, contents), as `virada_web::FILES`.
#[derive(Clone, Copy, Default)]
pub struct WebFiles(pub &'static [(&'static str, &'static [u8])]);

impl fmt::Debug for WebFiles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "WebFiles({} files)", self.0.len())
    }
}

/// Shown when the server has no app (a server started without `ServerConfig::web`).
const FALLBACK_INDEX: &str = "<!doctype html><meta charset=utf-8><title>Virada</title>\
<p>Virada server is running, but without its web front end (crates/web). \
The JSON API is at <a href=/api/health>/api/health</a>.</p>";

/// The content security policy: everything from this server only (inline styles allowed).
const CSP: &str = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; \
object-src 'none'; frame-ancestors 'none'";

struct Asset {
    bytes: &'static [u8],
    etag: String,
}

/// The app's files by path, each with its ETag.
pub struct WebApp {
    table: HashMap<&'static str, Asset>,
}

impl WebApp {
    pub fn new(files: WebFiles) -> WebApp {
        WebApp {
            table: files
                .0
                .iter()
                .map(|(path, bytes)| {
                    (
                        *path,
                        Asset {
                            bytes,
                            etag: format!("\"{:016x}\"", fnv1a(bytes)),
                        },
                    )
                })
                .collect(),
        }
    }

    /// Whether the app has this file.
    pub fn exists(&self, path: &str) -> bool {
        self.table.contains_key(path)
    }

    /// Serves a file (path relative to the app's folder), honouring `If-None-Match`.
    pub fn serve(&self, path: &str, req_headers: &HeaderMap) -> Response {
        let Some(asset) = self.table.get(path) else {
            if path == "index.html" {
                return html_response(FALLBACK_INDEX.as_bytes(), None);
            }
            return (
                StatusCode::NOT_FOUND,
                [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
                format!("no such file: /assets/{path}\n"),
            )
                .into_response();
        };
        let matches = req_headers
            .get(header::IF_NONE_MATCH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.split(',').any(|t| t.trim() == asset.etag));
        let mut resp = if matches {
            StatusCode::NOT_MODIFIED.into_response()
        } else {
            let mut r = Response::new(Body::from(asset.bytes));
            r.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static(content_type(path)),
            );
            r
        };
        let h = resp.headers_mut();
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        if let Ok(v) = HeaderValue::from_str(&asset.etag) {
            h.insert(header::ETAG, v);
        }
        add_security_headers(h);
        resp
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The content type for a file name.
pub fn content_type(path: &str) -> &'static str {
    let ext = path.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    match ext.to_ascii_lowercase().as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "txt" | "md" => "text/plain; charset=utf-8",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        "webmanifest" => "application/manifest+json",
        "wasm" => "application/wasm",
        _ => "application/octet-stream",
    }
}

fn html_response(bytes: &'static [u8], etag: Option<&str>) -> Response {
    let mut r = Response::new(Body::from(bytes));
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Some(v) = etag.and_then(|e| HeaderValue::from_str(e).ok()) {
        h.insert(header::ETAG, v);
    }
    add_security_headers(h);
    r
}

fn add_security_headers(h: &mut HeaderMap) {
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types() {
        assert_eq!(content_type("app.js"), "text/javascript; charset=utf-8");
        assert_eq!(content_type("a/b/style.CSS"), "text/css; charset=utf-8");
        assert_eq!(content_type("noext"), "application/octet-stream");
    }

    #[test]
    fn index_always_served() {
        const FILES: &[(&str, &[u8])] = &[("app.js", b"export {};")];
        let app = WebApp::new(WebFiles(FILES));
        assert!(app.exists("app.js"));
        let r = app.serve("index.html", &HeaderMap::new());
        assert_eq!(r.status(), StatusCode::OK);
        assert!(r.headers()[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("text/html"));
        assert_eq!(
            app.serve("nope.js", &HeaderMap::new()).status(),
            StatusCode::NOT_FOUND
        );
        let js = app.serve("app.js", &HeaderMap::new());
        assert_eq!(js.status(), StatusCode::OK);
        let mut again = HeaderMap::new();
        again.insert(header::IF_NONE_MATCH, js.headers()[header::ETAG].clone());
        assert_eq!(
            app.serve("app.js", &again).status(),
            StatusCode::NOT_MODIFIED
        );
    }
}
