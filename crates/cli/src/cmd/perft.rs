//! `virada perft`: leaf counts from a position.

use super::args::read_position_input;
use super::{CliError, CmdResult};
use clap::Args;
use std::time::Instant;
use virada_rules::{perft, PerftMode, Position};

/// From this depth a perft from an open position takes minutes: warn first. Depth 13 from the
/// start counts 18.4 billion leaves, and each further ply multiplies the count by about 10.
const SLOW_DEPTH: u32 = 13;

#[derive(Args)]
pub struct PerftArgs {
    /// Number of plies.
    pub depth: u32,
    /// Start position: a board string and side to move, a transcript, or any other position
    /// input (default: the standard start).
    #[arg(long, allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Do not count a pass as a ply (the other common convention).
    #[arg(long)]
    pub no_pass_ply: bool,
}

pub fn run(args: PerftArgs) -> CmdResult {
    let pos = match &args.position {
        Some(s) => read_position_input(s)
            .map_err(|e| CliError::input(format!("--position: {e}")))?
            .position(),
        None => Position::start(),
    };
    let mode = if args.no_pass_ply {
        PerftMode::PassNotPly
    } else {
        PerftMode::PassIsPly
    };
    let empties = pos.board().empty_count();
    if args.depth >= SLOW_DEPTH && empties >= SLOW_DEPTH {
        eprintln!(
            "warning: perft {} may take minutes or more (depth {SLOW_DEPTH} from the start counts \
             18 billion leaves, and each ply multiplies the count by about 10)",
            args.depth
        );
    }
    let t = Instant::now();
    let n = perft(pos.board(), args.depth, mode);
    let secs = t.elapsed().as_secs_f64();
    println!("perft {} = {n}", args.depth);
    println!(
        "time {secs:.3} s, {:.1} M leaves/s",
        n as f64 / secs.max(1e-9) / 1e6
    );
    Ok(())
}
