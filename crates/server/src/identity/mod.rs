//! Browser identity: who is asking (a guest browser, or the account it is signed in to).
//!
//! Every browser holds a random 256-bit token in the HttpOnly cookie `virada_id`, issued on its
//! first request (any path). The server never stores the token, only its SHA-256 ([`BrowserId`]),
//! so a copy of the database cannot be used to act as anyone. Games record the browser that
//! created them and the browsers that hold their seats; a request acts for a game or a seat
//! only when its cookie hashes to the stored id.
//!
//! A signed-in browser also holds a session cookie (`virada_session`, `crate::accounts`): its
//! requests then act as the account's identity (a [`BrowserId`] made at sign-up that no
//! browser holds as a token), so its games and seats are the account's on every device, and
//! [`layer::Identity`] says which account and which guest browser it is.
//!
//! The cookie is `SameSite=Lax` (a cross-site `POST` does not carry it; the Origin check in
//! `guard.rs` refuses those anyway), `HttpOnly` (page scripts cannot read it, so an injected
//! script could not send it elsewhere), `Path=/`, and lives 400 days (the longest browsers keep).

pub mod layer;

use axum::http::header::COOKIE;

/// The cookie's name.
pub const COOKIE_NAME: &str = "virada_id";
/// The session cookie of a signed-in browser (`crate::accounts`): a random token like
/// `virada_id`'s, of which the store keeps only the SHA-256.
pub const SESSION_COOKIE: &str = "virada_session";
/// A session's lifetime in seconds (30 days).
pub const SESSION_SECONDS: u64 = 30 * 24 * 3600;
/// Random bytes in a token (256 bits).
const TOKEN_BYTES: usize = 32;
/// Cookie lifetime in seconds (400 days).
const MAX_AGE_SECONDS: u64 = 400 * 24 * 3600;

pub use virada_domain::identity::BrowserId;

/// A fresh secret token: 32 bytes from the operating system's generator, as 64 hex digits.
pub fn new_token() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; TOKEN_BYTES];
    getrandom::fill(&mut bytes)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Whether `token` has the shape `new_token` gives (so junk cookies are replaced, not hashed).
fn is_token(token: &str) -> bool {
    token.len() == 2 * TOKEN_BYTES && token.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The `virada_id` token among the request's cookies, if there is a well-formed one.
pub fn token_in(parts: &axum::http::HeaderMap) -> Option<String> {
    cookie_token(parts, COOKIE_NAME)
}

/// The `virada_session` token among the request's cookies, if there is a well-formed one.
pub fn session_token_in(parts: &axum::http::HeaderMap) -> Option<String> {
    cookie_token(parts, SESSION_COOKIE)
}

fn cookie_token(parts: &axum::http::HeaderMap, cookie: &str) -> Option<String> {
    parts
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, value)| *name == cookie && is_token(value))
        .map(|(_, value)| value.to_string())
}

/// SHA-256 of a token, as 64 hex digits (what the store keeps of a session).
pub fn token_hash(token: &str) -> String {
    BrowserId::of_token(token).to_string()
}

/// The `Set-Cookie` value that gives a browser the session `token`.
pub fn session_cookie_value(token: &str) -> String {
    format!("{SESSION_COOKIE}={token}; Path=/; Max-Age={SESSION_SECONDS}; HttpOnly; SameSite=Lax")
}

/// The `Set-Cookie` value that removes the session cookie.
pub fn clear_session_cookie() -> String {
    format!("{SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax")
}

/// The `Set-Cookie` value that gives a browser `token`.
pub fn set_cookie_value(token: &str) -> String {
    format!("{COOKIE_NAME}={token}; Path=/; Max-Age={MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax")
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::{HeaderMap, HeaderValue};

    #[test]
    fn tokens_are_fresh_and_well_formed() {
        let a = new_token().unwrap();
        let b = new_token().unwrap();
        assert!(is_token(&a) && is_token(&b));
        assert_ne!(a, b);
        assert_ne!(BrowserId::of_token(&a), BrowserId::of_token(&b));
    }

    #[test]
    fn id_hex_round_trips_and_is_not_the_token() {
        let token = new_token().unwrap();
        let id = BrowserId::of_token(&token);
        let hex = id.to_string();
        assert_eq!(hex.len(), 64);
        assert_ne!(hex, token);
        assert_eq!(BrowserId::from_hex(&hex), Some(id));
        assert_eq!(BrowserId::from_hex("zz"), None);
        assert_eq!(BrowserId::from_hex(&"g".repeat(64)), None);
    }

    #[test]
    fn the_cookie_is_found_among_others_and_junk_is_ignored() {
        let token = new_token().unwrap();
        let mut headers = HeaderMap::new();
        headers.append(COOKIE, HeaderValue::from_static("a=1; virada_id=short"));
        headers.append(
            COOKIE,
            HeaderValue::from_str(&format!("b=2; {COOKIE_NAME}={token}")).unwrap(),
        );
        assert_eq!(token_in(&headers), Some(token));
        let mut junk = HeaderMap::new();
        junk.append(COOKIE, HeaderValue::from_static("virada_id=<script>"));
        assert_eq!(token_in(&junk), None);
    }
}
