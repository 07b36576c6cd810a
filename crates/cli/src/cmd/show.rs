//! `virada show`: a board diagram with disc counts, side to move, legal moves and status.

use super::args::read_position_input;
use super::{CliError, CmdResult};
use clap::Args;
use virada_rules::formats::position_input::PositionInput;
use virada_rules::formats::transcript::Transcript;
use virada_rules::{Color, Position};

#[derive(Args)]
pub struct ShowArgs {
    /// A position: a board string and side to move (`X`/`O`), an OBF line, a transcript such
    /// as `f5d6c3` or `1. f5 2. d6` (several words are joined with spaces), a GGF game, or a
    /// file holding one of them.
    #[arg(required = true, num_args = 1.., allow_hyphen_values = true)]
    pub input: Vec<String>,
    /// Replay the transcript from this board string instead of the standard start.
    #[arg(long, allow_hyphen_values = true)]
    pub start: Option<String>,
}

/// The position to show and, for a game, a header line with its moves.
fn parse_input(text: &str, start: Option<&str>) -> Result<(Position, Option<String>), CliError> {
    if let Some(start) = start {
        // An explicit start: the input is a transcript from it, nothing to guess.
        let start_pos = match read_position_input(start)
            .map_err(|e| CliError::input(format!("--start: {e}")))?
        {
            PositionInput::Board(p) => p,
            PositionInput::Obf(e) => e.position,
            other => {
                return Err(CliError::input(format!(
                    "--start: give a board string, not a {}",
                    other.kind()
                )))
            }
        };
        let t: Transcript = text
            .parse()
            .map_err(|e| CliError::input(format!("{e} (after --start, give a transcript)")))?;
        let mut game = t
            .replay(start_pos)
            .map_err(|e| CliError::input(e.to_string()))?;
        game.play_forced_passes();
        return Ok((game.position(), Some(format!("{} moves: {t}", game.ply()))));
    }
    let input = read_position_input(text)?;
    let header = input.game().map(|g| {
        format!(
            "{} ({}), {} moves: {}",
            input.kind(),
            if g.start() == Position::start() {
                "from the start"
            } else {
                "from a set-up position"
            },
            g.ply(),
            Transcript::from_game(g)
        )
    });
    Ok((input.position(), header))
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
