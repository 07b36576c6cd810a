//! API errors: one enum, each variant mapped to an HTTP status and a JSON body
//! `{"error": {"code": ..., "message": ..., "square": ..., "params": {...}}}` (a stale request
//! also carries the current game: `{"error": {...}, "game": {...}}`). The code and its params are
//! for pages to phrase the error in their own language; the message is English.

use crate::view::GameView;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use virada_store::StoreError;

/// Everything that can go wrong in a request, as the client should see it.
#[derive(Debug, Clone, PartialEq)]
pub enum AppError {
    /// 422: the move is not legal; `square` names the square when there is one.
    IllegalMove {
        square: Option<String>,
        message: String,
    },
    /// 409: it is not the client's turn (the computer is to move or thinking).
    NotYourTurn(String),
    /// 409: the game has ended.
    GameOver(String),
    /// 409: the request answers an earlier state of the game (its `ply` is not the game's);
    /// the body carries the current game.
    Stale(Box<GameView>),
    /// 403: the browser does not hold the seat that may do this (online games).
    NotYourSeat(String),
    /// 409: both seats of an online game are taken by other browsers.
    SeatTaken(String),
    /// 409: the rules of online games refuse this now (takeback in a clock game, abort after
    /// two moves, answering an offer nobody made, ...).
    NotAllowed(String),
    /// 404: no such game (or route).
    NotFound(String),
    /// 400: malformed JSON, a bad field.
    BadRequest(String),
    /// 400: a set-up text that is no position; `params` say what it was read as and where it
    /// failed (see [`crate::setup::setup_error`]).
    BadSetup {
        message: String,
        params: ErrorParams,
    },
    /// 400 `bad_request` with `params` naming the field and what was wrong (`field`, and e.g.
    /// `max`, `count`, `index`, `value`), for pages to phrase it.
    Invalid {
        message: String,
        params: ErrorParams,
    },
    /// 413: the body exceeds the limit.
    PayloadTooLarge(String),
    /// 415: a request that changes state without `Content-Type: application/json`.
    UnsupportedMediaType(String),
    /// 408: the request body did not arrive in time.
    RequestTimeout(String),
    /// 403: a request from another site (its `Origin` is not this server).
    ForbiddenOrigin(String),
    /// 421: a `Host` this server does not answer to (e.g. DNS rebinding).
    MisdirectedHost(String),
    /// 405: the route exists, the method does not.
    MethodNotAllowed,
    /// 429: this game already has as many engine requests in progress as it may
    /// ([`crate::runtime::pool::MAX_BACKGROUND_JOBS_PER_GAME`]).
    TooManyRequests(String),
    /// 429: this address exceeded a rate or a cap (`limits`); the answer carries
    /// `Retry-After: retry_after` (seconds).
    RateLimited { message: String, retry_after: u64 },
    /// 503: the engine queue is full ([`crate::runtime::pool::MAX_BACKGROUND_WAITING`]), or the request
    /// was cancelled before the engine started on it.
    EngineBusy(String),
    /// A refusal with a code of its own (see [`Refusal`] and the constructors below).
    Refused(Box<Refusal>),
    /// 500: a fault on our side (database, engine).
    Internal(String),
}

/// A refusal that carries its own status, code and params.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    pub params: ErrorParams,
}

fn refused(
    status: StatusCode,
    code: &'static str,
    message: String,
    params: &[(&str, serde_json::Value)],
) -> AppError {
    AppError::Refused(Box::new(Refusal {
        status,
        code,
        message,
        params: params
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    }))
}

impl AppError {
    /// The machine-readable code of the JSON body.
    pub fn code(&self) -> &'static str {
        match self {
            AppError::IllegalMove { .. } => "illegal_move",
            AppError::NotYourTurn(_) => "not_your_turn",
            AppError::GameOver(_) => "game_over",
            AppError::Stale(_) => "stale",
            AppError::NotYourSeat(_) => "not_your_seat",
            AppError::SeatTaken(_) => "seat_taken",
            AppError::NotAllowed(_) => "not_allowed",
            AppError::NotFound(_) => "not_found",
            AppError::BadRequest(_) | AppError::Invalid { .. } => "bad_request",
            AppError::BadSetup { .. } => "bad_setup",
            AppError::PayloadTooLarge(_) => "payload_too_large",
            AppError::UnsupportedMediaType(_) => "unsupported_media_type",
            AppError::RequestTimeout(_) => "request_timeout",
            AppError::ForbiddenOrigin(_) => "forbidden_origin",
            AppError::MisdirectedHost(_) => "misdirected_host",
            AppError::MethodNotAllowed => "method_not_allowed",
            AppError::TooManyRequests(_) | AppError::RateLimited { .. } => "too_many_requests",
            AppError::EngineBusy(_) => "engine_busy",
            AppError::Refused(r) => r.code,
            AppError::Internal(_) => "internal",
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            AppError::IllegalMove { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            AppError::NotYourTurn(_)
            | AppError::GameOver(_)
            | AppError::Stale(_)
            | AppError::SeatTaken(_)
            | AppError::NotAllowed(_) => StatusCode::CONFLICT,
            AppError::NotYourSeat(_) => StatusCode::FORBIDDEN,
            AppError::NotFound(_) => StatusCode::NOT_FOUND,
            AppError::BadRequest(_) | AppError::BadSetup { .. } | AppError::Invalid { .. } => {
                StatusCode::BAD_REQUEST
            }
            AppError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            AppError::RequestTimeout(_) => StatusCode::REQUEST_TIMEOUT,
            AppError::ForbiddenOrigin(_) => StatusCode::FORBIDDEN,
            AppError::MisdirectedHost(_) => StatusCode::MISDIRECTED_REQUEST,
            AppError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            AppError::TooManyRequests(_) | AppError::RateLimited { .. } => {
                StatusCode::TOO_MANY_REQUESTS
            }
            AppError::EngineBusy(_) => StatusCode::SERVICE_UNAVAILABLE,
            AppError::Refused(r) => r.status,
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The human-readable message.
    pub fn message(&self) -> String {
        match self {
            AppError::IllegalMove { message, .. }
            | AppError::RateLimited { message, .. }
            | AppError::BadSetup { message, .. }
            | AppError::Invalid { message, .. } => message.clone(),
            AppError::NotYourTurn(m)
            | AppError::GameOver(m)
            | AppError::NotYourSeat(m)
            | AppError::SeatTaken(m)
            | AppError::NotAllowed(m)
            | AppError::NotFound(m)
            | AppError::BadRequest(m)
            | AppError::PayloadTooLarge(m)
            | AppError::UnsupportedMediaType(m)
            | AppError::RequestTimeout(m)
            | AppError::ForbiddenOrigin(m)
            | AppError::MisdirectedHost(m)
            | AppError::TooManyRequests(m)
            | AppError::EngineBusy(m)
            | AppError::Internal(m) => m.clone(),
            AppError::Stale(game) => format!(
                "the game has changed: it is at ply {} now; here is the current game",
                game.plies.len()
            ),
            AppError::MethodNotAllowed => "this method is not allowed on this path".into(),
            AppError::Refused(r) => r.message.clone(),
        }
    }

    /// The JSON body.
    pub fn body(&self) -> ErrorBody {
        ErrorBody {
            error: ErrorDetail {
                code: self.code(),
                message: self.message(),
                square: match self {
                    AppError::IllegalMove { square, .. } => square.clone(),
                    _ => None,
                },
                params: match self {
                    AppError::BadSetup { params, .. } | AppError::Invalid { params, .. } => {
                        Some(params.clone())
                    }
                    AppError::Refused(r) if !r.params.is_empty() => Some(r.params.clone()),
                    _ => None,
                },
            },
            game: match self {
                AppError::Stale(game) => Some(game.clone()),
                _ => None,
            },
        }
    }

    pub fn not_found_game(id: &str) -> AppError {
        AppError::NotFound(format!("no game with id {id:?}"))
    }

    /// 429 `too_many_computer_moves`: the client already has `max` computer moves waiting for
    /// the engine (`pool`); params `max`.
    pub fn too_many_computer_moves(max: usize) -> AppError {
        refused(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_computer_moves",
            format!(
                "you already have {max} computer moves waiting for the engine; wait for one of \
                 them before asking for another"
            ),
            &[("max", max.into())],
        )
    }

    /// 400 `invisible_character`: `field` (`name`, `chat`) contains a character that is not
    /// shown or that changes how the text around it is shown (`user_text`); params `field` and
    /// `char` (`U+202E`).
    pub fn invisible_character(field: &str, c: char) -> AppError {
        let code_point = format!("U+{:04X}", c as u32);
        refused(
            StatusCode::BAD_REQUEST,
            "invisible_character",
            format!("{field} contains the invisible or formatting character {code_point}"),
            &[("field", field.into()), ("char", code_point.into())],
        )
    }

    /// 400 `blank_text`: `field` (`name`, `chat`, `reason`, ...) would look blank (only white
    /// space, U+2800 braille blanks or combining marks: `virada_domain::user_text::looks_blank`).
    pub fn blank_text(field: &str) -> AppError {
        refused(
            StatusCode::BAD_REQUEST,
            "blank_text",
            format!("{field} looks blank: it has no letter, digit or symbol that shows"),
            &[("field", field.into())],
        )
    }

    /// 403 `rated_seat`: a device link of a rated game's seat, made or used: a rated seat is
    /// played only by its account (signed in on any device), never by a linked browser.
    pub fn rated_seat() -> AppError {
        refused(
            StatusCode::FORBIDDEN,
            "rated_seat",
            "a rated game's seat is played only by its account: sign in to that account on the \
             other device instead of using a device link"
                .to_string(),
            &[],
        )
    }

    /// 400 `finished_position`: a new game would start where no move is left.
    pub fn finished_position(message: &str) -> AppError {
        refused(
            StatusCode::BAD_REQUEST,
            "finished_position",
            message.to_string(),
            &[],
        )
    }

    /// 409 `username_taken`: another account has this username (without regard to case);
    /// params `username`.
    pub fn username_taken(username: &str) -> AppError {
        refused(
            StatusCode::CONFLICT,
            "username_taken",
            format!("the username {username:?} is taken"),
            &[("username", username.into())],
        )
    }

    /// An accounts refusal (`crate::accounts`): `status`, `code`, English `message`, `params`.
    pub fn account(
        status: StatusCode,
        code: &'static str,
        message: &str,
        params: &[(&str, serde_json::Value)],
    ) -> AppError {
        refused(status, code, message.to_string(), params)
    }

    /// 409 `corrupt_game`: game `id` is stored but its row no longer reads back as a game
    /// (`why`); it can still be deleted.
    pub fn corrupt_game(id: &str, why: &str) -> AppError {
        refused(
            StatusCode::CONFLICT,
            "corrupt_game",
            format!("stored game {id} is corrupt and cannot be opened ({why}); you may delete it"),
            &[],
        )
    }
}

impl AppError {
    /// 503 `not_owner`: this instance lost game `id` to another (its lease expired, see
    /// `crate::runtime::cluster`) before the change was stored; nothing was stored, the client may
    /// try again.
    pub fn not_owner(id: &str) -> AppError {
        refused(
            StatusCode::SERVICE_UNAVAILABLE,
            "not_owner",
            format!("game {id} moved to another server instance meanwhile; try again"),
            &[],
        )
    }

    /// The error as sent between instances (`crate::runtime::cluster`); `stale` travels without its
    /// game (the receiver adds its own view).
    pub fn to_wire(&self) -> WireError {
        let body = self.body();
        WireError {
            status: self.status().as_u16(),
            code: self.code().to_string(),
            message: body.error.message,
            square: body.error.square,
            params: body.error.params,
            retry_after: match self {
                AppError::RateLimited { retry_after, .. } => Some(*retry_after),
                _ => None,
            },
        }
    }

    /// The error [`AppError::to_wire`] sent (`stale`: `Stale` with `current`, the game as
    /// the receiver sees it).
    pub fn from_wire(w: WireError, current: impl FnOnce() -> GameView) -> AppError {
        let m = w.message;
        match w.code.as_str() {
            "illegal_move" => AppError::IllegalMove {
                square: w.square,
                message: m,
            },
            "not_your_turn" => AppError::NotYourTurn(m),
            "game_over" => AppError::GameOver(m),
            "stale" => AppError::Stale(Box::new(current())),
            "not_your_seat" => AppError::NotYourSeat(m),
            "seat_taken" => AppError::SeatTaken(m),
            "not_allowed" => AppError::NotAllowed(m),
            "not_found" => AppError::NotFound(m),
            "bad_request" => match w.params {
                Some(params) => AppError::Invalid { message: m, params },
                None => AppError::BadRequest(m),
            },
            "too_many_requests" => match w.retry_after {
                Some(retry_after) => AppError::RateLimited {
                    message: m,
                    retry_after,
                },
                None => AppError::TooManyRequests(m),
            },
            "engine_busy" => AppError::EngineBusy(m),
            "internal" => AppError::Internal(m),
            other => match REFUSAL_CODES.iter().find(|c| **c == other) {
                Some(code) => AppError::Refused(Box::new(Refusal {
                    status: StatusCode::from_u16(w.status)
                        .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
                    code,
                    message: m,
                    params: w.params.unwrap_or_default(),
                })),
                None => AppError::Internal(format!("{other}: {m}")),
            },
        }
    }
}

/// The codes of [`AppError::Refused`] (what [`AppError::from_wire`] can rebuild).
const REFUSAL_CODES: &[&str] = &[
    "too_many_computer_moves",
    "invisible_character",
    "blank_text",
    "rated_seat",
    "finished_position",
    "corrupt_game",
    "not_owner",
];

/// An error on its way between instances.
#[derive(Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
pub struct WireError {
    pub status: u16,
    pub code: String,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub square: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub params: Option<ErrorParams>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub retry_after: Option<u64>,
}

/// `{"error": {...}}`, plus the current game for `stale`.
#[derive(Serialize, Debug)]
pub struct ErrorBody {
    pub error: ErrorDetail,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<Box<GameView>>,
}

#[derive(Serialize, Debug)]
pub struct ErrorDetail {
    pub code: &'static str,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub square: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub params: Option<ErrorParams>,
}

/// Named values of an error (a column, a ply, a format), for pages to phrase it.
pub type ErrorParams = serde_json::Map<String, serde_json::Value>;

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code(), self.message())
    }
}

impl std::error::Error for AppError {}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        if let AppError::Internal(m) = &self {
            tracing::error!(message = %m, "internal error");
        }
        let mut response = (self.status(), Json(self.body())).into_response();
        if let AppError::RateLimited { retry_after, .. } = &self {
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from(*retry_after),
            );
        }
        response
    }
}

/// A store's failure as the server answers it: a refusal keeps its code and params, a failed
/// database is a 500 whose text is logged.
impl From<StoreError> for AppError {
    fn from(e: StoreError) -> AppError {
        match e {
            StoreError::Db(m) => AppError::Internal(m),
            StoreError::NoGame(id) => AppError::not_found_game(&id),
            StoreError::NotFound(m) => AppError::NotFound(m),
            StoreError::CorruptGame { id, why } => AppError::corrupt_game(&id, &why),
            StoreError::QuotaFull(m) => AppError::TooManyRequests(m),
            StoreError::UsernameTaken(name) => AppError::username_taken(&name),
            StoreError::ArenaFull { max } => refused(
                StatusCode::CONFLICT,
                "arena_full",
                format!("this arena has its {max} players"),
                &[("max", max.into())],
            ),
            StoreError::TooManyArenas { limit, max, what } => refused(
                StatusCode::TOO_MANY_REQUESTS,
                "too_many_arenas",
                format!("at most {max} {what}"),
                &[("limit", limit.into()), ("max", max.into())],
            ),
            StoreError::NotOwner(id) => AppError::not_owner(&id),
        }
    }
}

pub type AppResult<T> = Result<T, AppError>;

#[cfg(test)]
mod tests {
    use super::*;

    /// An error answered by another instance reads back as the same error.
    #[test]
    fn errors_cross_between_instances_unchanged() {
        let errors = [
            AppError::IllegalMove {
                square: Some("a1".into()),
                message: "no".into(),
            },
            AppError::NotYourTurn("wait".into()),
            AppError::NotYourSeat("no".into()),
            AppError::SeatTaken("full".into()),
            AppError::TooManyRequests("slow".into()),
            AppError::RateLimited {
                message: "slow".into(),
                retry_after: 3,
            },
            AppError::too_many_computer_moves(4),
            AppError::invisible_character("chat", '\u{202E}'),
            AppError::not_owner("g_1"),
            AppError::Internal("boom".into()),
        ];
        for e in errors {
            let wire: WireError =
                serde_json::from_str(&serde_json::to_string(&e.to_wire()).unwrap()).unwrap();
            let back = AppError::from_wire(wire, || unreachable!("not stale"));
            assert_eq!(back, e);
        }
    }
}
