//! Accounts (docs/API.md, "Accounts"): sign-up, sign-in and out, who am I, password change,
//! recovery with the code shown at sign-up, deletion; and players' public profiles with their
//! ratings (`players`).
//!
//! An account has an identity of its own (a random [`BrowserId`] no browser holds as a token):
//! a signed-in browser acts as it (`identity::layer`), so the account's games and seats follow
//! it to every device. Signing up or in from a guest browser gives the account that browser's
//! games. Passwords are hashed with argon2id (`password`); attempts are limited per address
//! (`limits::Kind::Account`) and per account (a lockout after [`MAX_FAILURES`] wrong passwords
//! in a row). Numbers: docs/SECURITY.md.

pub mod password;
pub mod players;

use crate::error::{AppError, AppResult};
use crate::http::extract::JsonBody;
use crate::http::limits::Kind;
use crate::http::ownership::Asker;
use crate::identity::layer::{Identity, SignedIn};
use crate::identity::{new_token, session_cookie_value, token_hash, BrowserId, SESSION_SECONDS};
use crate::runtime::state::AppState;
use crate::util::now_millis;
use axum::extract::State;
use axum::http::header::SET_COOKIE;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::json;
use virada_store::accounts::name_key;
use virada_store::{AccountRow, NewAccount, SessionRow};

/// Username length bounds (characters of `[A-Za-z0-9_-]`).
pub const USERNAME_MIN: usize = 3;
pub const USERNAME_MAX: usize = 20;
/// Password length bounds (characters).
pub const PASSWORD_MIN: usize = 8;
pub const PASSWORD_MAX: usize = 128;
/// Wrong passwords (or recovery codes) in a row that lock an account, and for how long.
pub const MAX_FAILURES: u32 = 5;
pub const LOCK_MS: i64 = 15 * 60 * 1000;

/// Checks a username: 3 to 20 of `A-Z a-z 0-9 _ -`; else 400 `invalid_username`.
pub fn checked_username(name: &str) -> AppResult<&str> {
    let ok = (USERNAME_MIN..=USERNAME_MAX).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if ok {
        Ok(name)
    } else {
        Err(AppError::account(
            StatusCode::BAD_REQUEST,
            "invalid_username",
            &format!(
                "a username has {USERNAME_MIN} to {USERNAME_MAX} characters, each a letter \
                 (A-Z, a-z), a digit, _ or -"
            ),
            &[("min", USERNAME_MIN.into()), ("max", USERNAME_MAX.into())],
        ))
    }
}

/// Checks a new password's length: 8 to 128 characters; else 400 `invalid_password`.
fn checked_password(password: &str) -> AppResult<()> {
    let n = password.chars().count();
    if (PASSWORD_MIN..=PASSWORD_MAX).contains(&n) {
        Ok(())
    } else {
        Err(AppError::account(
            StatusCode::BAD_REQUEST,
            "invalid_password",
            &format!("a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters"),
            &[("min", PASSWORD_MIN.into()), ("max", PASSWORD_MAX.into())],
        ))
    }
}

fn wrong_password() -> AppError {
    AppError::account(
        StatusCode::UNAUTHORIZED,
        "wrong_password",
        "wrong username or password",
        &[],
    )
}

/// 401 `sign_in_required`.
pub fn sign_in_required() -> AppError {
    AppError::account(
        StatusCode::UNAUTHORIZED,
        "sign_in_required",
        "sign in first",
        &[],
    )
}

/// Whether `account` is locked at `now` (after [`MAX_FAILURES`] wrong secrets in a row).
fn is_locked(account: &AccountRow, now: i64) -> bool {
    account.locked_until.is_some_and(|until| until > now)
}

/// 403 `banned` (params `reason`) if the account `holder` is banned: it cannot sign in
/// (`virada admin ban` also ended its sessions).
pub async fn check_not_banned(state: &AppState, holder: BrowserId) -> AppResult<()> {
    let flags = state.shared.store.safety().flags(holder).await?;
    match flags.filter(|f| f.banned_at.is_some()) {
        Some(f) => {
            let reason = f.ban_reason.unwrap_or_default();
            Err(AppError::account(
                StatusCode::FORBIDDEN,
                "banned",
                &format!("this account is banned: {reason}"),
                &[("reason", reason.as_str().into())],
            ))
        }
        None => Ok(()),
    }
}

/// A new session for `holder` and the token its cookie carries.
fn new_session(holder: BrowserId) -> AppResult<(SessionRow, String)> {
    let token =
        new_token().map_err(|e| AppError::Internal(format!("no random session token: {e}")))?;
    let now = now_millis();
    let row = SessionRow {
        hash: token_hash(&token),
        holder,
        created_at: now,
        expires_at: now + SESSION_SECONDS as i64 * 1000,
    };
    Ok((row, token))
}

/// `body` with `status` and the cookie header `cookie`.
fn with_cookie(status: StatusCode, body: serde_json::Value, cookie: &str) -> Response {
    let mut response = (status, Json(body)).into_response();
    if let Ok(value) = HeaderValue::from_str(cookie) {
        response.headers_mut().append(SET_COOKIE, value);
    }
    response
}

/// Ends the session `identity` came with, if any: signing up or in again replaces the browser's
/// session, so its old token must not stay valid (whoever copied it would stay signed in).
async fn end_replaced_session(state: &AppState, identity: &Identity) -> AppResult<()> {
    if let Some(old) = &identity.account {
        state
            .shared
            .store
            .accounts()
            .delete_session(&old.session_hash)
            .await?;
    }
    Ok(())
}

/// The account behind `identity`, or 401 `sign_in_required`.
fn signed_in(identity: &Identity) -> AppResult<&SignedIn> {
    identity.account.as_ref().ok_or_else(sign_in_required)
}

/// One of an account's secrets, as typed.
enum Secret {
    Password(String),
    RecoveryCode(String),
}

/// Checks a secret of `account` (the password, or the recovery code): answered `wrong()` while the
/// account is locked, as for an unknown name; a wrong one counts toward the lock and is answered with `wrong()`. The request's
/// address was limited by the caller.
async fn verify_secret(
    state: &AppState,
    account: &AccountRow,
    secret: Secret,
    wrong: fn() -> AppError,
) -> AppResult<()> {
    let now = now_millis();
    if is_locked(account, now) {
        // A locked account answers exactly as an unknown name does (same status, code and
        // message, and for a password the same hashing time), so the lock tells nobody which
        // names exist; its owner learns of it only from the documented rule.
        if let Secret::Password(p) = secret {
            password::verify_nobody(p).await?;
        }
        return Err(wrong());
    }
    let right = match secret {
        Secret::Password(p) => password::verify(p, account.password_hash.clone()).await?,
        Secret::RecoveryCode(c) => password::recovery_hash(&c) == account.recovery_hash,
    };
    if right {
        return Ok(());
    }
    state
        .shared
        .store
        .accounts()
        .login_failed(account.holder, now, MAX_FAILURES, LOCK_MS)
        .await?;
    Err(wrong())
}

/// [`verify_secret`] with the password (401 `wrong_password`).
async fn check_password(state: &AppState, account: &AccountRow, password: String) -> AppResult<()> {
    verify_secret(state, account, Secret::Password(password), wrong_password).await
}

/// The signed-in account `holder`, once `password` is confirmed to be its own (what changing the
/// password and deleting the account ask first).
async fn confirmed_account(
    state: &AppState,
    holder: BrowserId,
    password: String,
) -> AppResult<AccountRow> {
    let account = state
        .shared
        .store
        .accounts()
        .account_by_holder(holder)
        .await?
        .ok_or_else(sign_in_required)?;
    check_password(state, &account, password).await?;
    Ok(account)
}

fn wrong_code() -> AppError {
    AppError::account(
        StatusCode::UNAUTHORIZED,
        "wrong_recovery_code",
        "wrong username or recovery code",
        &[],
    )
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    username: String,
    password: String,
}

#[derive(Serialize, Debug)]
struct SessionView<'a> {
    username: Option<&'a str>,
}

/// `POST /api/accounts`: 201 `{"username", "recovery_code"}`, signed in; the guest browser's
/// games become the account's.
pub async fn sign_up(
    State(state): State<AppState>,
    asker: Asker,
    identity: Identity,
    JsonBody(req): JsonBody<Credentials>,
) -> AppResult<Response> {
    let username = checked_username(&req.username)?.to_string();
    checked_password(&req.password)?;
    state.limits.check(asker.ip, Kind::Account)?;
    let code = password::new_recovery_code()?;
    let account = NewAccount {
        holder: BrowserId::of_token(
            &new_token().map_err(|e| AppError::Internal(format!("no random identity: {e}")))?,
        ),
        username: username.clone(),
        password_hash: password::hash(req.password).await?,
        recovery_hash: password::recovery_hash(&code),
        created_at: now_millis(),
    };
    let (session, token) = new_session(account.holder)?;
    let holder = account.holder;
    let moved = state
        .shared
        .store
        .accounts()
        .create_account(account, session, identity.guest)
        .await?;
    crate::practice::adopt_guest_sets(&state, identity.guest, holder).await;
    end_replaced_session(&state, &identity).await?;
    state.games.reload(&moved).await;
    Ok(with_cookie(
        StatusCode::CREATED,
        json!({"username": username, "recovery_code": code}),
        &session_cookie_value(&token),
    ))
}

/// `POST /api/session`: 200 `{"username"}`, signed in (401 `wrong_password`); the guest
/// browser's games become the account's.
pub async fn sign_in(
    State(state): State<AppState>,
    asker: Asker,
    identity: Identity,
    JsonBody(req): JsonBody<Credentials>,
) -> AppResult<Response> {
    state.limits.check(asker.ip, Kind::Account)?;
    let accounts = state.shared.store.accounts();
    let Some(account) = accounts.account_by_name(&name_key(&req.username)).await? else {
        password::verify_nobody(req.password).await?;
        return Err(wrong_password());
    };
    check_password(&state, &account, req.password).await?;
    check_not_banned(&state, account.holder).await?;
    let (session, token) = new_session(account.holder)?;
    let moved = accounts
        .sign_in(account.holder, session, identity.guest)
        .await?;
    crate::practice::adopt_guest_sets(&state, identity.guest, account.holder).await;
    end_replaced_session(&state, &identity).await?;
    state.games.reload(&moved).await;
    Ok(with_cookie(
        StatusCode::OK,
        json!({"username": account.username}),
        &session_cookie_value(&token),
    ))
}

/// `DELETE /api/session`: 204, signed out (the browser is a guest again, without the
/// account's games).
pub async fn sign_out(State(state): State<AppState>, identity: Identity) -> AppResult<Response> {
    if let Some(account) = &identity.account {
        state
            .shared
            .store
            .accounts()
            .delete_session(&account.session_hash)
            .await?;
    }
    let mut response = StatusCode::NO_CONTENT.into_response();
    if let Ok(value) = HeaderValue::from_str(&crate::identity::clear_session_cookie()) {
        response.headers_mut().append(SET_COOKIE, value);
    }
    Ok(response)
}

/// `GET /api/session`: 200 `{"username"}` (`null` for a guest).
pub async fn whoami(identity: Identity) -> Json<serde_json::Value> {
    Json(json!(SessionView {
        username: identity.account.as_ref().map(|a| a.username.as_str()),
    }))
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    old_password: String,
    new_password: String,
}

/// `POST /api/account/password`: 200 `{"username"}`; every other session of the account ends.
pub async fn change_password(
    State(state): State<AppState>,
    asker: Asker,
    identity: Identity,
    JsonBody(req): JsonBody<PasswordChange>,
) -> AppResult<Response> {
    let me = signed_in(&identity)?;
    checked_password(&req.new_password)?;
    state.limits.check(asker.ip, Kind::Account)?;
    let accounts = state.shared.store.accounts();
    let account = confirmed_account(&state, me.holder, req.old_password).await?;
    let hash = password::hash(req.new_password).await?;
    let (session, token) = new_session(account.holder)?;
    accounts
        .set_password(account.holder, hash, None, session)
        .await?;
    Ok(with_cookie(
        StatusCode::OK,
        json!({"username": account.username}),
        &session_cookie_value(&token),
    ))
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Recovery {
    username: String,
    recovery_code: String,
    new_password: String,
}

/// `POST /api/account/recover`: a new password with the recovery code; 200 `{"username",
/// "recovery_code"}` (a new code: the old one is used up), signed in, every other session
/// ended. 401 `wrong_recovery_code` (counted as a wrong password).
pub async fn recover(
    State(state): State<AppState>,
    asker: Asker,
    JsonBody(req): JsonBody<Recovery>,
) -> AppResult<Response> {
    checked_password(&req.new_password)?;
    state.limits.check(asker.ip, Kind::Account)?;
    let accounts = state.shared.store.accounts();
    let Some(account) = accounts.account_by_name(&name_key(&req.username)).await? else {
        return Err(wrong_code());
    };
    verify_secret(
        &state,
        &account,
        Secret::RecoveryCode(req.recovery_code),
        wrong_code,
    )
    .await?;
    check_not_banned(&state, account.holder).await?;
    let code = password::new_recovery_code()?;
    let hash = password::hash(req.new_password).await?;
    let (session, token) = new_session(account.holder)?;
    accounts
        .set_password(
            account.holder,
            hash,
            Some(password::recovery_hash(&code)),
            session,
        )
        .await?;
    Ok(with_cookie(
        StatusCode::OK,
        json!({"username": account.username, "recovery_code": code}),
        &session_cookie_value(&token),
    ))
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Deletion {
    password: String,
}

/// `DELETE /api/account` with `{"password"}`: 204; the account, its sessions and ratings are
/// gone, its games against others stay for them with its seats anonymised.
pub async fn delete_account(
    State(state): State<AppState>,
    asker: Asker,
    identity: Identity,
    JsonBody(req): JsonBody<Deletion>,
) -> AppResult<Response> {
    let me = signed_in(&identity)?;
    state.limits.check(asker.ip, Kind::Account)?;
    let accounts = state.shared.store.accounts();
    let account = confirmed_account(&state, me.holder, req.password).await?;
    let tombstone = BrowserId::of_token(
        &new_token().map_err(|e| AppError::Internal(format!("no random identity: {e}")))?,
    );
    let touched = accounts
        .delete_account(account.holder, tombstone)
        .await?
        .unwrap_or_default();
    state.games.reload(&touched).await;
    let mut response = StatusCode::NO_CONTENT.into_response();
    if let Ok(value) = HeaderValue::from_str(&crate::identity::clear_session_cookie()) {
        response.headers_mut().append(SET_COOKIE, value);
    }
    Ok(response)
}
