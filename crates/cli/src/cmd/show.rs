//! `virada show`: a board diagram with disc counts, side to move, legal moves and status.

use super::{CliError, CmdResult};
use clap::Args;
use virada_rules::formats::transcript::Transcript;
use virada_rules::{Color, Position};

#[derive(Args)]
pub struct ShowArgs {
    /// A 64-character board string and side to move (`X`/`O`), or a transcript such as
    /// `f5d6c3` or `1. f5 2. d6` (several words are joined with spaces).
    #[arg(required = true, num_args = 1.., allow_hyphen_values = true)]
    pub input: Vec<String>,
    /// Replay the transcript from this board string instead of the standard start.
    #[arg(long, allow_hyphen_values = true)]
    pub start: Option<String>,
}

/// Reads the input as a board string if it has 64 squares, else as a transcript.
fn parse_input(text: &str, start: Option<&str>) -> Result<(Position, Option<String>), CliError> {
    let looks_like_board = text.chars().filter(|c| !c.is_whitespace()).count() >= 64;
    if start.is_none() && looks_like_board {
        let p = text
            .parse::<Position>()
            .map_err(|e| CliError::input(e.to_string()))?;
        return Ok((p, None));
    }
    let start_pos = match start {
        Some(s) => s
            .parse::<Position>()
            .map_err(|e| CliError::input(format!("--start: {e}")))?,
        None => Position::start(),
    };
    let t: Transcript = text
        .parse()
        .map_err(|e| CliError::input(format!("{e} (expected a board string or a transcript)")))?;
    let game = t
        .replay(start_pos)
        .map_err(|e| CliError::input(e.to_string()))?;
    Ok((game.position(), Some(format!("{} moves: {t}", game.ply()))))
}

/// The text `show` prints for a position.
pub fn describe(p: &Position) -> String {
    let mut s = p.to_diagram();
    let (b, w) = (p.black().count(), p.white().count());
    s.push_str(&format!(
        "Black (X) {b} discs, White (O) {w} discs, {} empty\n",
        64 - b - w
    ));
    let side = p.side_to_move();
    if let Some(r) = p.result() {
        let (wb, ww) = r.wof();
        let verdict = match r.winner() {
            Some(Color::Black) => "Black wins",
            Some(Color::White) => "White wins",
            None => "draw",
        };
        s.push_str(&format!(
            "Game over: {verdict} {wb}-{ww} (WOF score; discs {b}-{w})\n"
        ));
    } else if p.must_pass() {
        s.push_str(&format!(
            "{side} to move: no legal move, {side} must pass\n"
        ));
    } else {
        s.push_str(&format!(
            "{side} to move; legal moves (*): {}\n",
            p.legal_moves()
        ));
    }
    s.push_str(&format!("Board: {p}\n"));
    s
}

pub fn run(args: ShowArgs) -> CmdResult {
    let text = args.input.join(" ");
    let (pos, header) = parse_input(&text, args.start.as_deref())?;
    if let Some(h) = header {
        println!("{h}");
    }
    print!("{}", describe(&pos));
    Ok(())
}
