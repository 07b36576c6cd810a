//! `POST /api/wthor`: the games of a WTHOR database file (`.wtb`), read by the rules crate's
//! WTHOR reader, listed for the page's game viewer. The body is the file's bytes (at most
//! [`WTHOR_LIMIT`]); nothing is stored: the page opens the game chosen through `POST /api/import`
//! with its transcript, like any other game file.

use crate::error::{AppError, AppResult, ErrorParams};
use crate::runtime::state::AppState;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request, State};
use axum::http::{header, StatusCode};
use axum::Json;
use serde::Serialize;
use virada_rules::formats::transcript::Transcript;
use virada_rules::formats::wthor::{read_wtb, WthorFile};
use virada_rules::formats::FormatError;

/// Largest `.wtb` file read: 1 MiB, about 15,400 games (a year of the federation's database
/// holds a few thousand).
pub const WTHOR_LIMIT: usize = 1024 * 1024;

/// The answer: the file's year and every game in it, in file order.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct WthorListView {
    pub year: u16,
    pub games: Vec<WthorGameView>,
}

/// One game of the file. A record whose moves do not replay has no `transcript` and says at
/// which ply (passes included) it fails.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct WthorGameView {
    /// 1-based, in file order.
    pub number: usize,
    /// The players' numbers in the federation's player file (`WTH.JOU`, not sent).
    pub black_player: u16,
    pub white_player: u16,
    /// Black's final count as recorded (empties to the winner).
    pub black_score: u8,
    /// Moves played (passes not counted).
    pub moves: usize,
    /// The moves from the standard start, compact (`f5d6c3...`), or `null`.
    pub transcript: Option<String>,
    /// The ply where the record stops replaying, when it does.
    pub error_ply: Option<usize>,
}

/// The listing of a `.wtb` file's bytes; a file that is no WTHOR game file is a `bad_setup`
/// error with `format: "wthor"` and the byte where reading failed.
pub fn list_wtb(bytes: &[u8]) -> AppResult<WthorListView> {
    let file: WthorFile = read_wtb(bytes).map_err(|e| wthor_error(&e))?;
    let games = file
        .games
        .iter()
        .enumerate()
        .map(|(i, record)| {
            let (transcript, moves, error_ply) = match record.replay() {
                Ok(game) => {
                    let t = Transcript::from_game(&game);
                    (Some(t.to_string()), t.len(), None)
                }
                Err(e) => (None, 0, Some(e.location.ply.unwrap_or(1))),
            };
            WthorGameView {
                number: i + 1,
                black_player: record.black_player,
                white_player: record.white_player,
                black_score: record.black_discs,
                moves,
                transcript,
                error_ply,
            }
        })
        .collect();
    Ok(WthorListView {
        year: file.header.game_year,
        games,
    })
}

fn wthor_error(e: &FormatError) -> AppError {
    let mut params = ErrorParams::new();
    params.insert("format".into(), "wthor".into());
    if let Some(byte) = e.location.byte {
        params.insert("byte".into(), byte.into());
    }
    AppError::BadSetup {
        message: format!("setup: {e}"),
        params,
    }
}

/// The handler: the body read within the server's body time, at most [`WTHOR_LIMIT`] bytes
/// (413 `payload_too_large` beyond; the route raises axum's default limit to it).
/// Like the JSON routes, it takes only a content type a cross-site form cannot send without a
/// preflight: `application/octet-stream` (415 `unsupported_media_type` otherwise).
pub async fn list(State(state): State<AppState>, req: Request) -> AppResult<Json<WthorListView>> {
    let binary = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/octet-stream"));
    if !binary {
        return Err(AppError::UnsupportedMediaType(
            "send the WTHOR file's bytes with the header Content-Type: application/octet-stream"
                .into(),
        ));
    }
    let limit = state.shared.config.body_timeout;
    let bytes = match tokio::time::timeout(limit, Bytes::from_request(req, &state)).await {
        Err(_) => {
            return Err(AppError::RequestTimeout(format!(
                "the file did not arrive within {} s",
                limit.as_secs_f64()
            )))
        }
        Ok(Err(e)) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            return Err(AppError::PayloadTooLarge(format!(
                "a WTHOR file may have at most {WTHOR_LIMIT} bytes"
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
    // Parsing a megabyte of records takes well under a millisecond per thousand games: no
    // engine work, so it runs on the request's task.
    Ok(Json(list_wtb(&bytes)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use virada_rules::formats::wthor::{write_wtb, WthorGame, WthorHeader};
    use virada_rules::{Game, Move, Position};

    #[test]
    fn lists_games_and_flags_bad_records() {
        let game = Game::from_moves(
            Position::start(),
            ["f5", "d6", "c3"].map(|m| m.parse::<Move>().unwrap()),
        )
        .unwrap();
        let good = WthorGame::from_game(&game, 0, 7, 9, 0).unwrap();
        let mut bad = good;
        bad.move_bytes[1] = 11; // a1 for White: illegal at ply 2
        let file = WthorFile {
            header: WthorHeader::for_games(2001, 2),
            games: vec![good, bad],
        };
        let list = list_wtb(&write_wtb(&file)).unwrap();
        assert_eq!(list.year, 2001);
        assert_eq!(list.games[0].transcript.as_deref(), Some("f5d6c3"));
        assert_eq!(list.games[0].moves, 3);
        assert_eq!(
            (list.games[0].black_player, list.games[0].white_player),
            (7, 9)
        );
        assert_eq!(list.games[1].transcript, None);
        assert_eq!(list.games[1].error_ply, Some(2));
        let e = list_wtb(b"not a wthor file").unwrap_err();
        assert_eq!(e.code(), "bad_setup");
    }
}
