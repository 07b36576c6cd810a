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
    /// Print a board (board string or transcript): discs, side to move, legal moves, status.
    Show(cmd::show::ShowArgs),
    /// Validate a GGF file, a WTHOR .wtb file or a transcript and print the result.
    Replay(cmd::replay::ReplayArgs),
    /// Benchmarks (`virada bench perft`, ...).
    #[command(subcommand_required = true)]
    Bench(cmd::bench::BenchArgs),
    /// Start the web app and JSON API (the default when no subcommand is given).
    Serve(cmd::serve::ServeArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Perft(args)) => cmd::perft::run(args),
        Some(Command::Show(args)) => cmd::show::run(args),
        Some(Command::Replay(args)) => cmd::replay::run(args),
        Some(Command::Bench(args)) => cmd::bench::run(args),
        Some(Command::Serve(args)) => cmd::serve::run(args),
        None => cmd::serve::run(cmd::serve::ServeArgs::default()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
