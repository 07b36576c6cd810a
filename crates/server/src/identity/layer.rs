//! The identity layer on HTTP: the middleware that gives every request a [`BrowserId`] (and a
//! browser without a valid cookie a new one), and the extractors that read it back. A request
//! with a valid session cookie acts as its account's identity; a stale session cookie is
//! removed with the response.

use crate::error::AppError;
use crate::identity::{
    clear_session_cookie, new_token, session_token_in, set_cookie_value, token_hash, token_in,
    BrowserId, SESSION_COOKIE,
};
use axum::extract::{FromRequestParts, Request, State};
use axum::http::header::SET_COOKIE;
use axum::http::request::Parts;
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use virada_store::Store;

/// A signed-in browser's account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignedIn {
    /// The account's identity (what the request acts as).
    pub holder: BrowserId,
    pub username: String,
    /// The hash of the session's token (to end it).
    pub session_hash: String,
}

/// Who a request comes from: the browser's own (guest) identity, and its account if it is
/// signed in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    pub guest: BrowserId,
    pub account: Option<SignedIn>,
}

/// Middleware: makes sure every request has a [`BrowserId`] and an [`Identity`] (in its
/// extensions), that a browser without a valid cookie gets one with the response, and that a
/// session cookie the store does not know (expired, signed out elsewhere) is removed.
pub async fn identify(
    State(store): State<Arc<dyn Store>>,
    mut req: Request,
    next: Next,
) -> Response {
    let (guest, new_cookie) = match token_in(req.headers()) {
        Some(token) => (BrowserId::of_token(&token), None),
        None => match new_token() {
            Ok(token) => (BrowserId::of_token(&token), Some(set_cookie_value(&token))),
            Err(e) => {
                return AppError::Internal(format!("no random token for the browser cookie: {e}"))
                    .into_response()
            }
        },
    };
    let mut account = None;
    let mut stale_session = false;
    if let Some(token) = session_token_in(req.headers()) {
        let hash = token_hash(&token);
        match store
            .accounts()
            .session(&hash, crate::util::now_millis())
            .await
        {
            Ok(Some((holder, username))) => {
                account = Some(SignedIn {
                    holder,
                    username,
                    session_hash: hash,
                })
            }
            Ok(None) => stale_session = true,
            Err(e) => return AppError::from(e).into_response(),
        }
    }
    let acting = account.as_ref().map_or(guest, |a| a.holder);
    req.extensions_mut().insert(acting);
    req.extensions_mut().insert(Identity { guest, account });
    let mut response = next.run(req).await;
    // A handler that set a new session (sign-up, sign-in) replaced the stale one: clearing it
    // as well would sign the browser out again (the later header wins).
    let session_set = response.headers().get_all(SET_COOKIE).iter().any(|v| {
        v.as_bytes()
            .starts_with(format!("{SESSION_COOKIE}=").as_bytes())
    });
    let cookies = new_cookie
        .into_iter()
        .chain((stale_session && !session_set).then(clear_session_cookie));
    for cookie in cookies {
        if let Ok(value) = HeaderValue::from_str(&cookie) {
            response.headers_mut().append(SET_COOKIE, value);
        }
    }
    response
}

/// Extractor: the request's [`Identity`] (set by [`identify`]).
impl<S: Send + Sync> FromRequestParts<S> for Identity {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        parts
            .extensions
            .get::<Identity>()
            .cloned()
            .ok_or_else(|| AppError::Internal("the identity layer did not run".into()))
    }
}
