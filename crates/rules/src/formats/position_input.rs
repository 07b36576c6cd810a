//! Any position a person pastes or types: one reader for every kind of input.
//!
//! [`parse`] first decides what the text is ([`classify`]) and then reads it with that format's
//! reader, so an error speaks the terms of what was given: a board string with a bad character
//! is a board-string error naming the square, never a transcript error.
//!
//! | Kind | Example |
//! |---|---|
//! | [`InputKind::BoardString`] | `---------------------------OX------XO--------------------------- X` |
//! | [`InputKind::Obf`] | the same, then `; F5:+0; D3:+0;` |
//! | [`InputKind::Transcript`] | `f5d6c3`, `f5 d6 c3`, `f5, d6, pa, c3` |
//! | [`InputKind::NumberedTranscript`] | `1. f5 d6 2. c3` |
//! | [`InputKind::Ggf`] | `(;GM[Othello]...BO[8 ... *]B[f5]W[d6];)` |
//!
//! ```
//! use virada_rules::formats::position_input::{self, InputKind};
//! use virada_rules::Color;
//! let input = position_input::parse("1. f5 d6 2. c3").unwrap();
//! assert_eq!(input.kind(), InputKind::NumberedTranscript);
//! assert_eq!(input.position().side_to_move(), Color::White);
//! assert_eq!(input.game().unwrap().to_string(), "f5d6c3");
//!
//! let mut board = virada_rules::Position::start().to_string();
//! board.replace_range(9..10, "Z");
//! let e = position_input::parse(&board).unwrap_err();
//! assert!(e.to_string().contains("square b2: 'Z' is not X, O or -"), "{e}");
//! ```

use super::ggf::{read_ggf, GgfGame};
use super::obf::{read_obf, ObfEntry};
use super::transcript::Transcript;
use super::{Format, FormatError};
use crate::{Game, Position};
use std::fmt;

/// What a piece of text was read as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InputKind {
    /// 64 squares and the side to move.
    BoardString,
    /// An OBF line: a board string, then `; MOVE:score` pairs.
    Obf,
    /// Moves from the standard start, like `f5d6c3` or `f5 d6 c3`.
    Transcript,
    /// Moves with move numbers, like `1. f5 d6 2. c3`.
    NumberedTranscript,
    /// A GGF game record `(;GM[Othello]...;)`.
    Ggf,
}

impl fmt::Display for InputKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            InputKind::BoardString => "board string",
            InputKind::Obf => "OBF line",
            InputKind::Transcript => "transcript",
            InputKind::NumberedTranscript => "numbered transcript",
            InputKind::Ggf => "GGF game",
        })
    }
}

/// A position input that was read, with everything it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionInput {
    /// A board string: the position as given.
    Board(Position),
    /// An OBF line: the position and its listed (scored) moves.
    Obf(ObfEntry),
    /// A transcript replayed from the standard start (forced passes included, also after the
    /// last move).
    Transcript(Game),
    /// A numbered transcript replayed from the standard start.
    NumberedTranscript(Game),
    /// A GGF record and the game it replays to.
    Ggf { record: Box<GgfGame>, game: Game },
}

impl PositionInput {
    /// What the text was read as.
    pub fn kind(&self) -> InputKind {
        match self {
            PositionInput::Board(_) => InputKind::BoardString,
            PositionInput::Obf(_) => InputKind::Obf,
            PositionInput::Transcript(_) => InputKind::Transcript,
            PositionInput::NumberedTranscript(_) => InputKind::NumberedTranscript,
            PositionInput::Ggf { .. } => InputKind::Ggf,
        }
    }

    /// The position the input describes: for a game, the position after its last move.
    pub fn position(&self) -> Position {
        match self {
            PositionInput::Board(p) => *p,
            PositionInput::Obf(e) => e.position,
            PositionInput::Transcript(g) | PositionInput::NumberedTranscript(g) => g.position(),
            PositionInput::Ggf { game, .. } => game.position(),
        }
    }

    /// The game, for inputs that hold moves (transcripts and GGF records).
    pub fn game(&self) -> Option<&Game> {
        match self {
            PositionInput::Board(_) | PositionInput::Obf(_) => None,
            PositionInput::Transcript(g) | PositionInput::NumberedTranscript(g) => Some(g),
            PositionInput::Ggf { game, .. } => Some(game),
        }
    }

    /// The game the input holds, or a game that starts at the given position.
    pub fn into_game(self) -> Game {
        match self {
            PositionInput::Board(p) => Game::from_position(p),
            PositionInput::Obf(e) => Game::from_position(e.position),
            PositionInput::Transcript(g) | PositionInput::NumberedTranscript(g) => g,
            PositionInput::Ggf { game, .. } => game,
        }
    }
}

/// Why a text is not a position input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseInputError {
    /// Nothing but blanks (and comments).
    Empty,
    /// The text is of this kind, and that format's reader found this problem.
    Invalid { kind: InputKind, error: FormatError },
}

impl fmt::Display for ParseInputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseInputError::Empty => f.write_str(
                "empty input: give a board string (64 squares and X or O to move), an OBF \
                 line, a transcript (f5d6c3 or 1. f5 d6) or a GGF game",
            ),
            ParseInputError::Invalid { error, .. } => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for ParseInputError {}

/// Characters only a board string uses (discs and empty squares).
fn is_board_only(c: char) -> bool {
    matches!(c, 'X' | 'x' | '*' | 'O' | 'o' | 'W' | 'w' | '-' | '.' | '_')
}

/// Characters only a transcript uses (column letters that are no disc, row digits, passes).
fn is_transcript_only(c: char) -> bool {
    matches!(
        c.to_ascii_lowercase(),
        'a' | 'c' | 'd' | 'f' | 'g' | 'h' | '1'..='9' | 'p' | 's'
    )
}

/// The text without `%` comment lines (OBF files start with them).
fn without_comment_lines(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim_start().starts_with('%'))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Decides what `text` is, without reading it; `None` for blank text.
///
/// A text starting with `(;` is GGF. Otherwise the text before the first `;` is a board if it
/// has more disc and empty-square characters (`X O - .`...) than transcript characters
/// (`a`-`h` columns, `1`-`8` rows, passes); a board followed by `;` is an OBF line. A
/// transcript is numbered when one of its words starts with a digit.
///
/// ```
/// use virada_rules::formats::position_input::{classify, InputKind};
/// assert_eq!(classify("f5d6"), Some(InputKind::Transcript));
/// let board = format!("{} X", "-".repeat(63)); // one square short
/// assert_eq!(classify(&board), Some(InputKind::BoardString));
/// assert_eq!(classify(&format!("{board}; F5:+2")), Some(InputKind::Obf));
/// assert_eq!(classify("  "), None);
/// ```
pub fn classify(text: &str) -> Option<InputKind> {
    let body = without_comment_lines(text);
    let body = body.trim();
    if body.is_empty() {
        return None;
    }
    if body.starts_with("(;") {
        return Some(InputKind::Ggf);
    }
    let head = &body[..body.find(';').unwrap_or(body.len())];
    let board_chars = head.chars().filter(|&c| is_board_only(c)).count();
    let move_chars = head.chars().filter(|&c| is_transcript_only(c)).count();
    if board_chars > move_chars {
        return Some(if head.len() < body.len() {
            InputKind::Obf
        } else {
            InputKind::BoardString
        });
    }
    let numbered = body
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .any(|w| w.starts_with(|c: char| c.is_ascii_digit()));
    Some(if numbered {
        InputKind::NumberedTranscript
    } else {
        InputKind::Transcript
    })
}

/// Reads any position input (see the module documentation). Games are replayed from their
/// start, with the passes the rules force, also after the last move.
pub fn parse(text: &str) -> Result<PositionInput, ParseInputError> {
    let kind = classify(text).ok_or(ParseInputError::Empty)?;
    let invalid = |error: FormatError| ParseInputError::Invalid { kind, error };
    match kind {
        InputKind::BoardString => text
            .trim()
            .parse::<Position>()
            .map(PositionInput::Board)
            .map_err(|e| invalid(e.into())),
        InputKind::Obf => {
            let mut entries = read_obf(text).map_err(|e| {
                // One line: the line number says nothing.
                if text.trim().lines().count() == 1 {
                    invalid(FormatError {
                        location: super::Location {
                            line: None,
                            ..e.location
                        },
                        ..e
                    })
                } else {
                    invalid(e)
                }
            })?;
            if entries.len() != 1 {
                return Err(invalid(FormatError::new(
                    Format::Obf,
                    format!("{} positions found; give one OBF line", entries.len()),
                )));
            }
            Ok(PositionInput::Obf(entries.remove(0)))
        }
        InputKind::Transcript | InputKind::NumberedTranscript => {
            let transcript: Transcript = text.parse().map_err(invalid)?;
            let mut game = transcript.replay(Position::start()).map_err(invalid)?;
            game.play_forced_passes();
            Ok(if kind == InputKind::Transcript {
                PositionInput::Transcript(game)
            } else {
                PositionInput::NumberedTranscript(game)
            })
        }
        InputKind::Ggf => {
            let mut records = read_ggf(text).map_err(invalid)?;
            if records.len() != 1 {
                return Err(invalid(FormatError::new(
                    Format::Ggf,
                    format!("{} games found; give one game", records.len()),
                )));
            }
            let record = records.remove(0);
            let mut game = record.replay().map_err(invalid)?;
            game.play_forced_passes();
            Ok(PositionInput::Ggf {
                record: Box::new(record),
                game,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Color, Move, Square};

    const START: &str = "---------------------------OX------XO--------------------------- X";

    fn error(text: &str) -> (InputKind, FormatError) {
        match parse(text).unwrap_err() {
            ParseInputError::Invalid { kind, error } => (kind, error),
            ParseInputError::Empty => panic!("{text:?} read as empty"),
        }
    }

    #[test]
    fn every_kind_is_read() {
        let p = parse(START).unwrap();
        assert_eq!(p.kind(), InputKind::BoardString);
        assert_eq!(p.position(), Position::start());
        assert!(p.game().is_none());

        let obf = parse(&format!("{START}; F5:+0; D3:+0;")).unwrap();
        assert_eq!(obf.kind(), InputKind::Obf);
        match &obf {
            PositionInput::Obf(e) => assert_eq!(e.best_score(), Some(0)),
            other => panic!("{other:?}"),
        }
        let commented = parse(&format!("% FFO\n{START}; F5:+0;\n")).unwrap();
        assert_eq!(commented.kind(), InputKind::Obf);

        let t = parse("f5d6c3").unwrap();
        assert_eq!(t.kind(), InputKind::Transcript);
        assert_eq!(t.game().unwrap().ply(), 3);
        let n = parse("1. f5 d6 2. c3").unwrap();
        assert_eq!(n.kind(), InputKind::NumberedTranscript);
        assert_eq!(n.position(), t.position());

        let ggf = "(;GM[Othello]PC[x]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6];)";
        let g = parse(ggf).unwrap();
        assert_eq!(g.kind(), InputKind::Ggf);
        assert_eq!(g.game().unwrap().to_string(), "f5d6");
        assert_eq!(g.into_game().ply(), 2);
    }

    #[test]
    fn a_63_square_board_and_a_side_is_a_board_error() {
        let short = &START[1..];
        let (kind, e) = error(short);
        assert_eq!(kind, InputKind::BoardString);
        assert_eq!(e.format, Format::BoardString);
        assert!(e.message.contains("found 63"), "{e}");
        let (kind, e) = error(&format!("{short}; F5:+0;"));
        assert_eq!(kind, InputKind::Obf);
        assert!(e.message.contains("found 63"), "{e}");
    }

    #[test]
    fn a_bad_square_is_a_board_error() {
        let mut board = START.to_string();
        board.replace_range(9..10, "Z");
        let (kind, e) = error(&board);
        assert_eq!(kind, InputKind::BoardString);
        assert_eq!(e.location.square, Some(Square::B2));
        assert_eq!(
            e.to_string(),
            "board string column 10, square b2: 'Z' is not X, O or - (black, white, empty; \
             also *, x, b / o, w, 0 / ., _)"
        );
        let (_, e) = error(&format!("{START} Q"));
        assert!(e.message.contains("side to move"), "{e}");
    }

    #[test]
    fn errors_of_each_kind_speak_its_terms() {
        let (kind, e) = error("f5 d6 x9");
        assert_eq!(kind, InputKind::Transcript);
        assert_eq!((e.format, e.location.column), (Format::Transcript, Some(7)));
        let (kind, e) = error("1. f5 2. f5");
        assert_eq!(kind, InputKind::NumberedTranscript);
        assert_eq!(e.location.ply, Some(2));
        assert!(e.message.contains("occupied"), "{e}");
        let (kind, e) = error(&format!("{START}; F5:+99;"));
        assert_eq!(kind, InputKind::Obf);
        assert_eq!(e.location.line, None);
        assert!(e.message.contains("outside"), "{e}");
        let (_, e) = error(&format!("{START}; F5:+0;\n{START}; F5:+0;"));
        assert!(e.message.contains("2 positions"), "{e}");
        let (kind, e) = error("(;GM[Othello]BO[8 zz");
        assert_eq!((kind, e.format), (InputKind::Ggf, Format::Ggf));
        let (_, e) = error("(;GM[Othello]B[f5];)(;GM[Othello]B[f5];)");
        assert!(e.message.contains("2 games"), "{e}");
        assert_eq!(parse(" \n % only a comment\n"), Err(ParseInputError::Empty));
        assert!(ParseInputError::Empty.to_string().contains("board string"));
    }

    /// Random games until one has a move that forces a pass (passes are rare but not that rare).
    fn game_ending_in_a_forced_pass() -> Game {
        for seed in 1..10_000u64 {
            let mut game = Game::new();
            let mut state = seed;
            while !game.is_over() {
                let moves = game.position().legal_moves();
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let pick = moves
                    .iter()
                    .nth((state >> 33) as usize % moves.count() as usize);
                game.play(Move::Play(pick.expect("a legal move"))).unwrap();
                if game.position().must_pass() {
                    return game;
                }
            }
        }
        panic!("no forced pass in 10,000 random games");
    }

    #[test]
    fn games_end_with_the_forced_passes() {
        let game = game_ending_in_a_forced_pass();
        let t = Transcript::from_game(&game).to_string();
        let input = parse(&t).unwrap();
        let read = input.game().unwrap();
        assert_eq!(read.ply(), game.ply() + 1, "{t}");
        assert_eq!(read.moves().last(), Some(&Move::Pass), "{t}");
        assert!(!read.position().must_pass());
        assert_eq!(input.position(), game.position().play(Move::Pass).unwrap());
    }

    #[test]
    fn side_words_and_layouts() {
        let rows: Vec<&str> = (0..8).map(|r| &START[r * 8..r * 8 + 8]).collect();
        let p = parse(&format!("{}\nwhite", rows.join("\n"))).unwrap();
        assert_eq!(p.kind(), InputKind::BoardString);
        assert_eq!(p.position().side_to_move(), Color::White);
    }
}
