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
    /// Start the web app and JSON API (the default when no subcommand is given).
    Serve(cmd::serve::ServeArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Perft(args)) => cmd::perft::run(args),
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
