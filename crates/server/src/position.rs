//! `POST /api/position`: the rules applied to a position that is no stored game. The learning
//! pages (tutorial, lessons, the analysis' better line) ask it what a move flips, whether a square
//! is a move at all, and where a line of moves leads, so the page never re-implements the rules.
//! Nothing is stored; the answer has the shape of a game object's moving parts.

use crate::error::{AppError, AppResult};
use crate::http::extract::JsonBody;
use crate::model::Status;
use crate::setup::parse_setup;
use crate::view::{board_string, PlyView, ResultView};
use axum::Json;
use serde::{Deserialize, Serialize};
use virada_rules::{Color, Move, Square};

/// Most moves one request may play (a game has at most 60).
pub const MAX_MOVES: usize = 60;

/// `POST /api/position`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    /// A set-up text, as `POST /api/games` takes it (a board string with the side to move, a
    /// transcript, ...).
    setup: String,
    /// Moves to play from there, in order; forced passes are played by the rules.
    #[serde(default)]
    moves: Vec<Square>,
}

/// The answer: the start (the position the set-up text describes), every ply played from there
/// (passes included; `ply` counts from the set-up's own start) and the position reached.
#[derive(Serialize, Debug)]
pub struct PositionView {
    pub start_board: String,
    pub start_side_to_move: Color,
    pub plies: Vec<PlyView>,
    pub board: String,
    pub side_to_move: Option<Color>,
    pub legal_moves: Vec<Square>,
    pub black_discs: u32,
    pub white_discs: u32,
    pub empties: u32,
    pub status: Status,
    pub result: Option<ResultView>,
}

/// Plays `moves` from the position of `setup`; an illegal move is 422 `illegal_move` naming its
/// square (the message says which move of the list it was), a move after the end 409 `game_over`.
pub fn play_line(setup: &str, moves: &[Square]) -> AppResult<PositionView> {
    if moves.len() > MAX_MOVES {
        return Err(AppError::BadRequest(format!(
            "moves: {} moves; at most {MAX_MOVES}",
            moves.len()
        )));
    }
    let mut game = parse_setup(setup)?.into_game();
    let start = game.position();
    let skip = game.moves().len();
    for (i, &sq) in moves.iter().enumerate() {
        let pos = game.position();
        if pos.is_game_over() {
            return Err(AppError::GameOver(format!(
                "move {}: the game is over ({}): no more moves",
                i + 1,
                pos.disc_counts()
            )));
        }
        if let Err(reason) = pos.check(Move::Play(sq)) {
            return Err(AppError::IllegalMove {
                square: Some(sq.to_string()),
                message: format!("move {}: {reason}", i + 1),
            });
        }
        game.play_then_forced_passes(Move::Play(sq))
            .map_err(|e| AppError::Internal(e.to_string()))?;
    }
    let plies = crate::view::ply_views(&game, skip);
    let pos = game.position();
    let status = Status::of(&pos);
    Ok(PositionView {
        start_board: board_string(&start),
        start_side_to_move: start.side_to_move(),
        plies,
        board: board_string(&pos),
        side_to_move: (status == Status::Ongoing).then(|| pos.side_to_move()),
        legal_moves: pos.legal_moves().iter().collect(),
        black_discs: pos.black().count(),
        white_discs: pos.white().count(),
        empties: 64 - pos.black().count() - pos.white().count(),
        status,
        result: pos.result().map(ResultView::from),
    })
}

/// The handler.
pub async fn position(JsonBody(req): JsonBody<PositionRequest>) -> AppResult<Json<PositionView>> {
    play_line(&req.setup, &req.moves).map(Json)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().expect("square")
    }

    #[test]
    fn a_move_flips_and_a_forced_pass_is_played() {
        // Black c3, f6; White e3, c5, e5: d4 flips e5, then White has no move and passes.
        let mut b = ['-'; 64];
        for (s, c) in [
            ("c3", 'X'),
            ("f6", 'X'),
            ("e3", 'O'),
            ("c5", 'O'),
            ("e5", 'O'),
        ] {
            let i = sq(s).index();
            b[i] = c;
        }
        let setup: String = b.iter().collect::<String>() + " X";
        let v = play_line(&setup, &[sq("d4")]).expect("legal");
        assert_eq!(v.plies.len(), 2);
        assert_eq!(v.plies[0].flipped, vec![sq("e5")]);
        assert_eq!(v.plies[1].mv, Move::Pass);
        assert_eq!(v.side_to_move, Some(Color::Black));
        assert_eq!(v.legal_moves, vec![sq("f2"), sq("b6")]);
        // A square that flips nothing is refused, naming it.
        match play_line(&setup, &[sq("d3")]) {
            Err(AppError::IllegalMove { square, .. }) => assert_eq!(square.as_deref(), Some("d3")),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_end_gives_the_empties_to_the_winner() {
        let mut b = ['-'; 64];
        for (s, c) in [("c4", 'X'), ("f4", 'X'), ("e4", 'O'), ("c6", 'O')] {
            b[sq(s).index()] = c;
        }
        let setup: String = b.iter().collect::<String>() + " X";
        let v = play_line(&setup, &[sq("d4")]).expect("legal");
        assert_eq!(v.status, Status::Finished);
        let r = v.result.expect("over");
        assert_eq!((r.black_discs, r.white_discs), (4, 1));
        assert_eq!((r.black_score, r.white_score), (63, 1));
        assert!(matches!(
            play_line(&setup, &[sq("d4"), sq("b5")]),
            Err(AppError::GameOver(_))
        ));
        let too_many = vec![sq("d4"); MAX_MOVES + 1];
        assert!(matches!(
            play_line(&setup, &too_many),
            Err(AppError::BadRequest(_))
        ));
    }
}
