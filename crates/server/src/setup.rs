//! Reads the text of a "set up" game: a transcript (`f5d6c3`), a 64-character board string with
//! the side to move, or a GGF game record. Errors say what failed and where.

use crate::session::play_forced_passes;
use virada_rules::formats::ggf::read_ggf;
use virada_rules::formats::transcript::Transcript;
use virada_rules::formats::FormatError;
use virada_rules::{Game, Move, Position};

/// A start position and the moves played from it (passes included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub start: Position,
    pub moves: Vec<Move>,
}

impl Setup {
    /// Replays the moves (they were checked when parsed).
    pub fn into_game(self) -> Game {
        let mut game = Game::from_position(self.start);
        for mv in self.moves {
            if game.play(mv).is_err() {
                break;
            }
        }
        play_forced_passes(&mut game);
        game
    }
}

fn is_board_char(c: char) -> bool {
    matches!(
        c,
        'X' | 'x' | '*' | 'b' | 'B' | 'O' | 'o' | 'w' | 'W' | '0' | '-' | '.' | '_' | 'e' | 'E'
    )
}

/// Parses setup text (see the module documentation).
pub fn parse_setup(text: &str) -> Result<Setup, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("setup text is empty: give a transcript (f5d6c3), a 64-square board and side to move, or a GGF game".into());
    }
    if t.starts_with("(;") {
        let games = read_ggf(t).map_err(|e| e.to_string())?;
        let first = games
            .first()
            .ok_or_else(|| "GGF: no game found".to_string())?;
        let game = first.replay().map_err(|e| e.to_string())?;
        return Ok(Setup {
            start: first.start,
            moves: game.moves().to_vec(),
        });
    }
    let squares: Vec<char> = t.chars().filter(|c| !c.is_whitespace()).take(64).collect();
    if squares.len() == 64 && squares.iter().all(|&c| is_board_char(c)) {
        let start: Position = t.parse().map_err(|e| format!("{e}"))?;
        return Ok(Setup {
            start,
            moves: Vec::new(),
        });
    }
    let transcript: Transcript = t.parse().map_err(|e: FormatError| e.to_string())?;
    let game = transcript
        .replay(Position::start())
        .map_err(|e| e.to_string())?;
    Ok(Setup {
        start: Position::start(),
        moves: game.moves().to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcript_board_and_errors() {
        let s = parse_setup("f5 d6c3").unwrap();
        assert_eq!(s.moves.len(), 3);
        let start = Position::start().to_string();
        let s = parse_setup(&start).unwrap();
        assert_eq!(s.start, Position::start());
        let e = parse_setup("f5d6z9").unwrap_err();
        assert!(e.contains("column 5"), "{e}");
        let e = parse_setup("f5f5").unwrap_err();
        assert!(e.contains("ply 2") && e.contains("occupied"), "{e}");
        let ggf = "(;GM[Othello]PC[x]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6];)";
        let s = parse_setup(ggf).unwrap();
        assert_eq!(s.moves.len(), 2);
        assert!(parse_setup("(;GM[Othello]BO[8 zz").is_err());
        assert!(parse_setup("  ").is_err());
    }
}
