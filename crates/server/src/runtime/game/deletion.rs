//! Whether a player may delete a game (`DELETE /api/games/{id}`), judged on the stored game.
//!
//! A game that involves someone else's record cannot be made to vanish by one player: an online
//! game once its opponent sat down, and a rated game against the computer (whose end moves the
//! player's rating). Such a game, once both sides have moved, is left by resigning (or by
//! letting the clock run out), and once finished with a result it stays, so both players'
//! records and rating histories keep it. Before both sides have moved, deleting an online game
//! with an opponent aborts it (no result, never rated), and it stays for the opponent; an
//! aborted game has no result and may then be deleted.

use crate::error::AppError;
use crate::model::online::{End, Phase};
use crate::model::Mode;
use crate::rating::both_moved;
use axum::http::StatusCode;
use virada_store::StoredGame;

/// What `DELETE` does to a game its owner asks to delete.
#[derive(Debug, PartialEq)]
pub enum Deletion {
    /// Nobody else's record holds it: deleted.
    Delete,
    /// An online game with an opponent, before both sides moved: aborted at `ply`, kept.
    Abort { ply: usize },
    /// Kept as it is: the error says why and what to do instead.
    Refuse(&'static str),
}

/// The verdict on `game` (see the module documentation).
pub fn judge(game: &StoredGame) -> Deletion {
    let Some(online) = &game.online else {
        return Deletion::Delete;
    };
    let involves_another = match game.rec.meta.mode {
        // Both seats are taken once the game left waiting.
        Mode::Online => !matches!(online.phase, Phase::Waiting),
        Mode::Computer { .. } => online.rated,
        Mode::Friend => false,
    };
    if !involves_another {
        return Deletion::Delete;
    }
    match online.phase {
        Phase::Finished(End::Abort) => Deletion::Delete,
        Phase::Finished(_) => Deletion::Refuse("finished"),
        // A rated game against the computer is not rated before both sides moved: nobody else
        // keeps it.
        _ if !both_moved(&game.rec) && matches!(game.rec.meta.mode, Mode::Computer { .. }) => {
            Deletion::Delete
        }
        _ if !both_moved(&game.rec) && !game.rec.game.position().is_game_over() => {
            Deletion::Abort {
                ply: game.rec.game.ply(),
            }
        }
        _ => Deletion::Refuse("in_play"),
    }
}

/// 409 `game_kept` (params `reason`: `in_play` or `finished`): the game is someone else's
/// record too.
pub fn game_kept(reason: &'static str) -> AppError {
    let message = match reason {
        "in_play" => {
            "this game has an opponent (or is rated) and both sides have moved: it cannot be \
             deleted; resign to leave it, or let your clock run out"
        }
        _ => {
            "this game has ended with a result that counts in both players' records: it cannot \
             be deleted"
        }
    };
    AppError::account(
        StatusCode::CONFLICT,
        "game_kept",
        message,
        &[("reason", reason.into())],
    )
}
