//! Reads the text of a "set up" game with the rules crate's one position reader
//! ([`position_input::parse`]): a transcript (`f5d6c3`, `1. f5 d6 2. c3`), a 64-square board
//! string with the side to move, an OBF line or a GGF game record. The text is classified first,
//! so errors say what failed in the terms of what was given, and where.

use crate::error::{AppError, ErrorParams};
use virada_rules::formats::position_input::{self, InputKind, ParseInputError, PositionInput};
use virada_rules::formats::Format;
use virada_rules::Game;

/// A set-up text that was read: what kind it was and the game it describes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    input: PositionInput,
}

impl Setup {
    /// What the text was read as (the tests ask; the routes read the input itself).
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn kind(&self) -> InputKind {
        self.input.kind()
    }

    /// The players a GGF record names (`PB`, `PW`), as written there; `None` for any other
    /// text and for a tag that is missing or blank.
    pub fn named_players(&self) -> (Option<String>, Option<String>) {
        match &self.input {
            PositionInput::Ggf { record, .. } => {
                let tag = |name: &str| {
                    record
                        .tag(name)
                        .map(str::trim)
                        .filter(|v| !v.is_empty())
                        .map(str::to_string)
                };
                (tag("PB"), tag("PW"))
            }
            _ => (None, None),
        }
    }

    /// The game to play on: the moves read (for a transcript or GGF record) from their start,
    /// then any pass the rules force.
    pub fn into_game(self) -> Game {
        let mut game = self.input.into_game();
        game.play_forced_passes();
        game
    }
}

/// Refuses (400 `finished_position`) a new game with nothing to play: one whose start position
/// is already over (no side has a move), and an online game whose current position is over
/// (the seats would sit at a finished board). A local game may be a whole finished game read
/// from a transcript or record (a replay): it starts from a live position.
pub fn refuse_finished(game: &Game, online: bool) -> Result<(), AppError> {
    if game.start().is_game_over() {
        return Err(AppError::finished_position(
            "the position is finished: neither side has a move, so there is no game to play",
        ));
    }
    if online && game.position().is_game_over() {
        return Err(AppError::finished_position(
            "the moves given end the game: an online game must start with moves left to play",
        ));
    }
    Ok(())
}

/// Parses setup text (see the module documentation).
pub fn parse_setup(text: &str) -> Result<Setup, AppError> {
    position_input::parse(text)
        .map(|input| Setup { input })
        .map_err(|e| setup_error(&e))
}

/// The `bad_setup` error of a text that is no position: the English message, and as params
/// `format` (`transcript`, `board`, `obf`, `ggf`; `empty` for blank text) and the place, each
/// when known: `line`, `column`, `square`, `ply` (1-based).
pub fn setup_error(e: &ParseInputError) -> AppError {
    let mut params = ErrorParams::new();
    match e {
        ParseInputError::Empty => {
            params.insert("format".into(), "empty".into());
        }
        ParseInputError::Invalid { error, .. } => {
            let format = match error.format {
                Format::Transcript => "transcript",
                Format::BoardString => "board",
                Format::Obf => "obf",
                Format::Ggf => "ggf",
                Format::Wthor => "wthor",
                Format::Xot => "xot",
            };
            params.insert("format".into(), format.into());
            let at = error.location;
            let places = [("line", at.line), ("column", at.column), ("ply", at.ply)];
            for (name, value) in places {
                if let Some(v) = value {
                    params.insert(name.into(), v.into());
                }
            }
            if let Some(square) = at.square {
                params.insert("square".into(), square.to_string().into());
            }
        }
    }
    AppError::BadSetup {
        message: format!("setup: {e}"),
        params,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use virada_rules::{Color, Position};

    #[test]
    fn transcript_board_and_errors() {
        let s = parse_setup("f5 d6c3").unwrap();
        assert_eq!(s.kind(), InputKind::Transcript);
        assert_eq!(s.into_game().ply(), 3);
        let s = parse_setup("1. f5 d6 2. c3").unwrap();
        assert_eq!(s.kind(), InputKind::NumberedTranscript);
        let start = Position::start().to_string();
        let s = parse_setup(&start).unwrap();
        assert_eq!(s.kind(), InputKind::BoardString);
        assert_eq!(s.into_game().position(), Position::start());
        let s = parse_setup(&format!("{start}; F5:+0;")).unwrap();
        assert_eq!(s.kind(), InputKind::Obf);
        let e = parse_setup("f5d6z9").unwrap_err().message();
        assert!(e.contains("column 5"), "{e}");
        let e = parse_setup("f5f5").unwrap_err().message();
        assert!(e.contains("ply 2") && e.contains("occupied"), "{e}");
        let ggf = "(;GM[Othello]PC[x]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6];)";
        let s = parse_setup(ggf).unwrap();
        assert_eq!(s.kind(), InputKind::Ggf);
        assert_eq!(s.into_game().ply(), 2);
        assert!(parse_setup("(;GM[Othello]BO[8 zz").is_err());
        let e = parse_setup("  ").unwrap_err().message();
        assert!(e.starts_with("setup: empty input"), "{e}");
    }

    /// Found by probing the server: 63 squares and a side letter were read as 64 squares (the
    /// letter on h8, Black to move), and a bad board character was a transcript error.
    #[test]
    fn board_text_is_read_as_a_board() {
        let start = Position::start().to_string();
        let e = parse_setup(&start[1..]).unwrap_err().message();
        assert!(e.starts_with("setup: board string"), "{e}");
        assert!(
            e.contains("expected 64 squares before the side to move, found 63"),
            "{e}"
        );
        let mut bad = start.clone();
        bad.replace_range(9..10, "Z");
        let e = parse_setup(&bad).unwrap_err().message();
        assert!(e.starts_with("setup: board string"), "{e}");
        assert!(e.contains("square b2: 'Z' is not X, O or -"), "{e}");
        // White to move after a side word, and the forced pass of a side without moves.
        let white = format!("{} white", &start[..64]);
        let game = parse_setup(&white).unwrap().into_game();
        assert_eq!(game.position().side_to_move(), Color::White);
        let no_move = Position::from_colors(1, 2, Color::White)
            .unwrap()
            .to_string();
        let game = parse_setup(&no_move).unwrap().into_game();
        assert_eq!(game.ply(), 1, "White has no move and passes");
        assert_eq!(game.position().side_to_move(), Color::Black);
    }

    #[test]
    fn finished_positions_are_refused() {
        // A full board: no move for anyone.
        let full = parse_setup(&format!("{} black", "X".repeat(64)))
            .unwrap()
            .into_game();
        for online in [false, true] {
            let e = refuse_finished(&full, online).unwrap_err();
            assert_eq!((e.code(), e.status().as_u16()), ("finished_position", 400));
        }
        // A whole game played out from the start: a replay locally, not an online game.
        let mut over = Game::new();
        while let Some(sq) = over.position().legal_moves().iter().next() {
            over.play(virada_rules::Move::Play(sq)).unwrap();
            over.play_forced_passes();
        }
        assert!(over.position().is_game_over());
        assert!(refuse_finished(&over, false).is_ok());
        assert!(refuse_finished(&over, true).is_err());
        assert!(refuse_finished(&Game::new(), true).is_ok());
    }

    /// The params a page phrases the error with: the format read and the place.
    #[test]
    fn errors_carry_format_and_place() {
        let params = |text: &str| match parse_setup(text).unwrap_err() {
            AppError::BadSetup { params, .. } => serde_json::Value::Object(params),
            other => panic!("not a bad_setup error: {other}"),
        };
        assert_eq!(
            params("f5d6z9"),
            serde_json::json!({"format": "transcript", "column": 5})
        );
        assert_eq!(
            params("f5f5"),
            serde_json::json!({"format": "transcript", "ply": 2})
        );
        let mut bad = Position::start().to_string();
        bad.replace_range(9..10, "Z");
        assert_eq!(
            params(&bad),
            serde_json::json!({"format": "board", "column": 10, "square": "b2"})
        );
        assert_eq!(params(" "), serde_json::json!({"format": "empty"}));
        assert_eq!(parse_setup("z").unwrap_err().code(), "bad_setup");
    }
}
