//! The JSON request body extractor: `Content-Type: application/json` required (415), the body
//! read within the configured time (408) and size (413), a JSON object required (400), and the
//! typed request (`#[serde(deny_unknown_fields)]` structs) read through axum's [`Json`], every
//! rejection mapped into the API's JSON error format.

use crate::config::BODY_LIMIT;
use crate::error::AppError;
use crate::runtime::state::AppState;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{header, HeaderMap, StatusCode};
use axum::Json;
use serde::de::DeserializeOwned;

/// A request body of type `T`, read as described in the module documentation.
#[derive(Debug, Clone, Copy, Default)]
pub struct JsonBody<T>(pub T);

/// `application/json`, `application/json; charset=utf-8`, `application/something+json`.
fn is_json(headers: &HeaderMap) -> bool {
    let Some(value) = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let essence = value
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    match essence.split_once('/') {
        Some(("application", sub)) => sub == "json" || sub.ends_with("+json"),
        _ => false,
    }
}

impl<T: DeserializeOwned> FromRequest<AppState> for JsonBody<T> {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, AppError> {
        if !is_json(req.headers()) {
            return Err(AppError::UnsupportedMediaType(
                "send the request body as JSON, with the header Content-Type: application/json"
                    .into(),
            ));
        }
        let limit = state.shared.config.body_timeout;
        let bytes = match tokio::time::timeout(limit, Bytes::from_request(req, state)).await {
            Err(_) => {
                return Err(AppError::RequestTimeout(format!(
                    "the request body did not arrive within {} s",
                    limit.as_secs_f64()
                )))
            }
            Ok(Err(e)) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                return Err(AppError::PayloadTooLarge(format!(
                    "the request body exceeds {BODY_LIMIT} bytes"
                )))
            }
            Ok(Err(e)) => {
                return Err(AppError::BadRequest(format!(
                    "cannot read the request body: {}",
                    e.body_text()
                )))
            }
            Ok(Ok(bytes)) => bytes,
        };
        // An empty body is an empty object (every field then takes its default, if it has one).
        let text = bytes.trim_ascii();
        let text: &[u8] = if text.is_empty() { b"{}" } else { text };
        if text[0] != b'{' {
            return Err(AppError::BadRequest(
                "the request body must be a JSON object ({\"field\": value, ...})".into(),
            ));
        }
        match Json::<T>::from_bytes(text) {
            Ok(Json(value)) => Ok(JsonBody(value)),
            Err(e) => Err(AppError::BadRequest(format!(
                "request body: {}",
                rejection_detail(&e.body_text())
            ))),
        }
    }
}

/// The part of an axum rejection's text that says what is wrong (`colour: unknown field
/// ...`), without axum's preamble (`Failed to deserialize the JSON body into the target type: `).
pub fn rejection_detail(text: &str) -> &str {
    const PREAMBLES: [&str; 4] = [
        "Failed to deserialize the JSON body into the target type: ",
        "Failed to parse the request body as JSON: ",
        "Failed to deserialize query string: ",
        "Failed to deserialize path: ",
    ];
    PREAMBLES
        .iter()
        .find_map(|p| text.strip_prefix(p))
        .unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn json_content_types() {
        let mut h = HeaderMap::new();
        assert!(!is_json(&h));
        for (v, want) in [
            ("application/json", true),
            ("Application/JSON; charset=utf-8", true),
            ("application/merge-patch+json", true),
            ("text/plain", false),
            ("application/x-www-form-urlencoded", false),
            ("multipart/form-data; boundary=x", false),
            ("application/jsonx", false),
        ] {
            h.insert(header::CONTENT_TYPE, HeaderValue::from_static(v));
            assert_eq!(is_json(&h), want, "{v}");
        }
    }
}
