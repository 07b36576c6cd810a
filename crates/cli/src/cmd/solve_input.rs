//! Positions to solve, from a board string, a transcript or an OBF file.

use super::CliError;
use std::path::Path;
use virada_rules::{Move, Position};

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
    let compact: String = arg.chars().filter(|c| !c.is_whitespace()).collect();
    // A board string has 64 squares (and a side); a transcript is pairs of letter + digit.
    let looks_like_board = compact.len() >= 64
        && compact[..64.min(compact.len())]
            .chars()
            .all(|c| "XOxo*-._0wWbBeE".contains(c));
    if looks_like_board {
        let position = arg
            .parse::<Position>()
            .map_err(|e| CliError::input(format!("board: {e}")))?;
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

/// The position after a transcript from the standard start (passes may be omitted).
fn replay_transcript(text: &str) -> Result<Position, CliError> {
    let mut game = virada_rules::Game::new();
    for (ply, mv) in transcript_moves(text)?.into_iter().enumerate() {
        if matches!(mv, Move::Play(_)) {
            game.pass_if_forced();
        }
        game.play(mv)
            .map_err(|e| CliError::input(format!("transcript, move {} ({mv}): {e}", ply + 1)))?;
    }
    Ok(game.position())
}

fn transcript_moves(text: &str) -> Result<Vec<Move>, CliError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(CliError::input(
            "empty input: give a board string, a transcript or an OBF file",
        ));
    }
    let mut moves = Vec::new();
    let chars: Vec<char> = t.chars().filter(|c| !c.is_whitespace()).collect();
    let mut i = 0;
    while i < chars.len() {
        if i + 1 >= chars.len() {
            return Err(CliError::input(format!(
                "{text:?} is neither a board string (64 squares and a side to move) nor a \
                 transcript: character {} is incomplete",
                i + 1
            )));
        }
        let token: String = chars[i..i + 2].iter().collect();
        let mv = token.parse::<Move>().map_err(|_| {
            CliError::input(format!(
                "{text:?} is neither a board string (64 squares and a side to move) nor a \
                 transcript: {token:?} at character {} is not a square",
                i + 1
            ))
        })?;
        moves.push(mv);
        i += 2;
    }
    Ok(moves)
}

/// Reads an OBF file: `<64 squares> <side>; <MOVE>:<score>; ...`, `%` comments.
pub fn read_obf_file(path: &Path) -> Result<Vec<SolveInput>, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('%') {
            continue;
        }
        let mut fields = t.split(';');
        let board = fields.next().unwrap_or("");
        let position = board.parse::<Position>().map_err(|e| {
            CliError::input(format!("{}, line {}: {e}", path.display(), i + 1))
        })?;
        let mut expected_moves = Vec::new();
        for f in fields.map(str::trim).filter(|f| !f.is_empty()) {
            let (m, s) = f.split_once(':').ok_or_else(|| {
                CliError::input(format!(
                    "{}, line {}: {f:?} is not MOVE:SCORE",
                    path.display(),
                    i + 1
                ))
            })?;
            let mv = m.parse::<Move>().map_err(|e| {
                CliError::input(format!("{}, line {}: {e}", path.display(), i + 1))
            })?;
            let score = s.trim().trim_start_matches('+').parse::<i32>().map_err(|_| {
                CliError::input(format!(
                    "{}, line {}: score {s:?} is not a number",
                    path.display(),
                    i + 1
                ))
            })?;
            expected_moves.push((mv, score));
        }
        out.push(SolveInput {
            label: format!("{} line {}", path.display(), i + 1),
            position,
            expected_best: expected_moves.iter().map(|(_, s)| *s).max(),
            expected_moves,
        });
    }
    if out.is_empty() {
        return Err(CliError::input(format!(
            "{}: no positions in the file",
            path.display()
        )));
    }
    Ok(out)
}
