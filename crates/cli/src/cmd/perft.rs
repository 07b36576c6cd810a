//! `virada perft`: leaf counts from a position.

use super::{CliError, CmdResult};
use clap::Args;
use std::time::Instant;
use virada_rules::{perft, PerftMode, Position};

#[derive(Args)]
pub struct PerftArgs {
    /// Number of plies.
    pub depth: u32,
    /// Start position as a 64-character board string and side to move (default: standard start).
    #[arg(long)]
    pub position: Option<String>,
    /// Do not count a pass as a ply (the other common convention).
    #[arg(long)]
    pub no_pass_ply: bool,
}

pub fn run(args: PerftArgs) -> CmdResult {
    let pos = match &args.position {
        Some(s) => s
            .parse::<Position>()
            .map_err(|e| CliError::input(format!("--position: {e}")))?,
        None => Position::start(),
    };
    let mode = if args.no_pass_ply {
        PerftMode::PassNotPly
    } else {
        PerftMode::PassIsPly
    };
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
