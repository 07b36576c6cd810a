//! `virada`: the Reversi/Othello app, engine and analysis tools.
//!
//! Each subcommand lives in its own module under `cmd/`; this file only parses arguments.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod cmd;

#[derive(Parser)]
#[command(
    name = "virada",
    version,
    about = "Virada: Reversi/Othello with an exact engine",
    long_about = "Virada plays, solves and analyses Reversi/Othello.\n\
                  Squares are written a1 (top-left) to h8 (bottom-right); Black moves first."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count move sequences of a given length (move-generator check and benchmark).
    Perft(cmd::perft::PerftArgs),
    /// Solve positions exactly (perfect play): best moves, score, principal variation.
    Solve(cmd::solve::SolveArgs),
    /// Benchmarks (`bench ffo`: the FFO endgame positions).
    Bench(cmd::bench::BenchArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Perft(args)) => cmd::perft::run(args),
        Some(Command::Solve(args)) => cmd::solve::run(args),
        Some(Command::Bench(args)) => cmd::bench::run(args),
        None => {
            eprintln!("no subcommand given; see `virada --help`");
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
