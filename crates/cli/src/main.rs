//! `virada`: the Reversi/Othello app, engine and analysis tools.
//!
//! Each subcommand lives in its own module under `cmd/`; this file only parses arguments.
#![forbid(unsafe_code)]

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod cmd;
mod matchplay;
mod parallel;
mod protocol;

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
    /// Balanced 8-move openings (`openings generate`).
    Openings(cmd::openings::OpeningsArgs),
    /// Play a game in the terminal against the engine (or two people).
    Play(cmd::play::PlayArgs),
    /// Values of every move of a position (or of where a transcript leads); `--game`: a game's review.
    Analyze(cmd::analyze::AnalyzeArgs),
    /// Opening books: build, extend, add games, fix, info, show, export/import (Edax too).
    #[command(subcommand_required = true)]
    Book(cmd::book::BookArgs),
    /// Engine against engine from balanced openings, with an Elo estimate; either side may be
    /// an external engine (`gtp:<command>`, `nboard:<command>`).
    Match(cmd::matchcmd::MatchArgs),
    /// Speak the NBoard engine protocol on stdin/stdout (for NBoard and other Othello GUIs).
    Nboard(cmd::nboard::NboardArgs),
    /// Speak the Go Text Protocol on stdin/stdout (for GTP tools that play Othello).
    Gtp(cmd::gtp::GtpArgs),
    /// Print a board (board string or transcript): discs, side to move, legal moves, status.
    Show(cmd::show::ShowArgs),
    /// Validate a GGF file, a WTHOR .wtb file or a transcript and print the result.
    Replay(cmd::replay::ReplayArgs),
    /// Benchmarks (`virada bench perft`, `virada bench ffo`, ...).
    #[command(subcommand_required = true)]
    Bench(cmd::bench::BenchArgs),
    /// Regenerate the evaluation's weights (gen3 pipeline: data sets, relabelling, fit).
    Train(cmd::train::TrainArgs),
    /// Puzzles: generate (resumable), export as OBF, verify with the solver, stats.
    #[command(subcommand_required = true)]
    Puzzles(cmd::puzzles::PuzzlesArgs),
    #[cfg(feature = "server")]
    /// Start the web app and JSON API (the default when no subcommand is given).
    Serve(cmd::serve::ServeArgs),
    #[cfg(feature = "server")]
    /// The server's database: `db migrate` (schema to this build's version), `db copy`
    /// (SQLite and PostgreSQL, either way).
    #[command(subcommand_required = true)]
    Db(cmd::db::DbArgs),
    #[cfg(feature = "server")]
    /// Players' safety on the server's database: `admin grant|revoke NAME`, `admin ban NAME
    /// [--reason R]`, `admin unban NAME`, `admin reports [--open]`, `admin resolve ID`.
    #[command(subcommand_required = true)]
    Admin(cmd::admin::AdminArgs),
}

/// `virada ... | head` closes our standard output early. Rust ignores SIGPIPE, so the next
/// `println!` panics with "failed printing to stdout"; the reader has what it wanted, so end
/// quietly the way command-line tools do instead of printing a panic. Other panics keep the
/// default report.
fn end_quietly_on_closed_stdout() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(i32::from(cmd::CliError::CLOSED_PIPE));
        }
        default(info);
    }));
}

fn main() -> ExitCode {
    end_quietly_on_closed_stdout();
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Perft(args)) => cmd::perft::run(args),
        Some(Command::Solve(args)) => cmd::solve::run(args),
        Some(Command::Openings(args)) => cmd::openings::run(args),
        Some(Command::Play(args)) => cmd::play::run(args),
        Some(Command::Analyze(args)) => cmd::analyze::run(args),
        Some(Command::Book(args)) => cmd::book::run(args),
        Some(Command::Match(args)) => cmd::matchcmd::run(args),
        Some(Command::Nboard(args)) => cmd::nboard::run(args),
        Some(Command::Gtp(args)) => cmd::gtp::run(args),
        Some(Command::Show(args)) => cmd::show::run(args),
        Some(Command::Replay(args)) => cmd::replay::run(args),
        Some(Command::Bench(args)) => cmd::bench::run(args),
        Some(Command::Train(args)) => cmd::train::run(args),
        Some(Command::Puzzles(args)) => cmd::puzzles::run(args),
        #[cfg(feature = "server")]
        Some(Command::Serve(args)) => cmd::serve::run(args),
        #[cfg(feature = "server")]
        Some(Command::Db(args)) => cmd::db::run(args),
        #[cfg(feature = "server")]
        Some(Command::Admin(args)) => cmd::admin::run(args),
        #[cfg(feature = "server")]
        None => cmd::serve::run(cmd::serve::ServeArgs::default()),
        #[cfg(not(feature = "server"))]
        None => Err(cmd::CliError::input(
            "this build has no web server (built without the `server` feature): give a \
             subcommand (virada --help)",
        )),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.code == cmd::CliError::CLOSED_PIPE => ExitCode::from(e.code),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
