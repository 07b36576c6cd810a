//! Positions to solve, from a board string, a transcript or an OBF file.

use super::CliError;
use std::path::Path;
use virada_rules::formats::obf::read_obf;
use virada_rules::formats::transcript::Transcript;
use virada_rules::{Move, Position};

/// d4 e4 d5 e5.
const CENTRE: u64 = 0x0000_0018_1800_0000;

/// One position to solve, with the scores an OBF line expects (if any).
pub struct SolveInput {
    /// "line 3 of file.obf", "board", ...
    pub label: String,
    pub position: Position,
    /// Best expected score (side to move's view).
    pub expected_best: Option<i32>,
    /// Every listed move with its expected score.
    pub expected_moves: Vec<(Move, i32)>,
}

/// Interprets the command-line argument: an existing file (OBF), a board string or a
/// transcript.
pub fn read_positions(arg: &str) -> Result<Vec<SolveInput>, CliError> {
    let path = Path::new(arg);
    if path.is_file() {
        return read_obf_file(path);
    }
    if arg.ends_with(".obf") {
        return Err(CliError::input(format!("{arg}: no such file")));
    }
    // A board string is made of square characters (then a side to move); a transcript of
    // letter-digit pairs. Decide by the first 64 non-blank characters.
    let squares: String = arg
        .chars()
        .filter(|c| !c.is_whitespace())
        .take(64)
        .collect();
    // Transcripts always contain row digits 1-8; board strings never do.
    let looks_like_board = !squares.is_empty()
        && !squares.chars().any(|c| ('1'..='8').contains(&c))
        && !virada_rules::moves::is_pass_token(arg.trim());
    if looks_like_board {
        let position = arg
            .parse::<Position>()
            .map_err(|e| CliError::input(e.to_string()))?;
        if position.black().count() + position.white().count() < 4
            || (position.black() | position.white()).0 & CENTRE != CENTRE
        {
            eprintln!(
                "warning: the four centre squares d4 e4 d5 e5 are never empty in a real game; \
                 solving the position anyway"
            );
        }
        return Ok(vec![SolveInput {
            label: "board".to_string(),
            position,
            expected_best: None,
            expected_moves: Vec::new(),
        }]);
    }
    let position = replay_transcript(arg)?;
    Ok(vec![SolveInput {
        label: "transcript".to_string(),
        position,
        expected_best: None,
        expected_moves: Vec::new(),
    }])
}

/// The position after a transcript from the standard start (forced passes may be omitted).
fn replay_transcript(text: &str) -> Result<Position, CliError> {
    let transcript = text.parse::<Transcript>().map_err(|e| {
        CliError::input(format!(
            "{text:?} is neither a board string (64 squares and a side to move) nor a \
             transcript: {e}"
        ))
    })?;
    if transcript.is_empty() {
        return Err(CliError::input(
            "empty input: give a board string, a transcript or an OBF file",
        ));
    }
    let game = transcript
        .replay(Position::start())
        .map_err(|e| CliError::input(e.to_string()))?;
    Ok(game.position())
}

/// Reads an OBF file (one position a line, with the expected score of every move).
pub fn read_obf_file(path: &Path) -> Result<Vec<SolveInput>, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
    let entries =
        read_obf(&text).map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
    if entries.is_empty() {
        return Err(CliError::input(format!(
            "{}: no positions in the file",
            path.display()
        )));
    }
    Ok(entries
        .into_iter()
        .enumerate()
        .map(|(i, e)| {
            let expected_moves: Vec<(Move, i32)> = e
                .moves
                .iter()
                .filter_map(|m| m.score.map(|s| (m.mv, s)))
                .collect();
            SolveInput {
                label: format!("{} #{}", path.display(), i + 1),
                position: e.position,
                expected_best: e.best_score(),
                expected_moves,
            }
        })
        .collect())
}
