//! Positions to solve: any position input (a board string, a pasted OBF line with its scored
//! moves, a transcript, a GGF game) or an OBF file, one position a line.

use super::args::argument_text;
use super::CliError;
use std::path::Path;
use virada_rules::formats::obf::ObfEntry;
use virada_rules::formats::position_input::{self, classify, InputKind, PositionInput};
use virada_rules::{masks, Move, Position};

/// One position to solve, with the scores an OBF line expects (if any).
pub struct SolveInput {
    /// "file.obf line 3", "board string", "OBF line", "transcript", ...
    pub label: String,
    pub position: Position,
    /// Best expected score (side to move's view).
    pub expected_best: Option<i32>,
    /// Every listed move with its expected score.
    pub expected_moves: Vec<(Move, i32)>,
}

impl SolveInput {
    fn from_obf(label: String, e: &ObfEntry) -> SolveInput {
        SolveInput {
            label,
            position: e.position,
            expected_best: e.best_score(),
            expected_moves: e
                .moves
                .iter()
                .filter_map(|m| m.score.map(|s| (m.mv, s)))
                .collect(),
        }
    }

    fn plain(label: String, position: Position) -> SolveInput {
        SolveInput {
            label,
            position,
            expected_best: None,
            expected_moves: Vec::new(),
        }
    }
}

/// A set-up board whose centre is not full cannot come from a game: say so, then solve it.
fn warn_if_unreal(p: &Position) {
    if (p.black() | p.white()).0 & masks::CENTRE != masks::CENTRE {
        eprintln!(
            "warning: the four centre squares d4 e4 d5 e5 are never empty in a real game; \
             solving the position anyway"
        );
    }
}

/// Interprets the command-line argument: an OBF file (numbered by line), or one position in
/// any input form, or a file holding one (a transcript or a GGF game).
pub fn read_positions(arg: &str) -> Result<Vec<SolveInput>, CliError> {
    let (text, file) = argument_text(arg)?;
    if let Some(file) = &file {
        if matches!(
            classify(&text),
            Some(InputKind::Obf | InputKind::BoardString)
        ) {
            return read_obf_text(&text, file);
        }
    }
    let input = position_input::parse(&text).map_err(|e| match &file {
        Some(f) => CliError::input(format!("{f}: {e}")),
        None => CliError::input(e.to_string()),
    })?;
    let label = file.unwrap_or_else(|| input.kind().to_string());
    Ok(vec![match input {
        PositionInput::Board(p) => {
            warn_if_unreal(&p);
            SolveInput::plain(label, p)
        }
        PositionInput::Obf(e) => {
            warn_if_unreal(&e.position);
            SolveInput::from_obf(label, &e)
        }
        other => SolveInput::plain(label, other.position()),
    }])
}

/// Reads an OBF file (one position a line, with the expected score of every move).
pub fn read_obf_file(path: &Path) -> Result<Vec<SolveInput>, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
    read_obf_text(&text, &path.display().to_string())
}

/// The positions of OBF text, each labelled with its file and line number (blank lines and
/// `%` comments are skipped, and do count as lines).
fn read_obf_text(text: &str, file: &str) -> Result<Vec<SolveInput>, CliError> {
    let mut inputs = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('%') {
            continue;
        }
        let entry: ObfEntry = line
            .parse()
            .map_err(|e: virada_rules::formats::FormatError| {
                CliError::input(format!("{file}: {}", e.at_line(i + 1)))
            })?;
        inputs.push(SolveInput::from_obf(
            format!("{file} line {}", i + 1),
            &entry,
        ));
    }
    if inputs.is_empty() {
        return Err(CliError::input(format!("{file}: no positions in the file")));
    }
    Ok(inputs)
}
