//! The identity layer on HTTP: the middleware that gives every request a [`BrowserId`] (and a
//! browser without a valid cookie a new one), and the extractor that reads it back.

use crate::error::AppError;
use crate::identity::{new_token, set_cookie_value, token_in, BrowserId};
use axum::extract::{FromRequestParts, Request};
use axum::http::header::SET_COOKIE;
use axum::http::request::Parts;
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// Middleware: makes sure every request has a [`BrowserId`] (in its extensions) and that a
/// browser without a valid cookie gets one with the response.
pub async fn identify(mut req: Request, next: Next) -> Response {
    let (id, new_cookie) = match token_in(req.headers()) {
        Some(token) => (BrowserId::of_token(&token), None),
        None => match new_token() {
            Ok(token) => (BrowserId::of_token(&token), Some(set_cookie_value(&token))),
            Err(e) => {
                return AppError::Internal(format!("no random token for the browser cookie: {e}"))
                    .into_response()
            }
        },
    };
    req.extensions_mut().insert(id);
    let mut response = next.run(req).await;
    if let Some(cookie) = new_cookie {
        if let Ok(value) = HeaderValue::from_str(&cookie) {
            response.headers_mut().append(SET_COOKIE, value);
        }
    }
    response
}

/// Extractor: the asking browser (set by [`identify`]).
impl<S: Send + Sync> FromRequestParts<S> for BrowserId {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        parts
            .extensions
            .get::<BrowserId>()
            .copied()
            .ok_or_else(|| AppError::Internal("the identity layer did not run".into()))
    }
}
