//! `virada gtp`: Virada as an engine for Go Text Protocol tools that play Othello, on
//! standard input and output (docs/PROTOCOLS.md).

use super::args::{BookArg, ThreadsArg};
use super::{CliError, CmdResult};
use crate::protocol::{gtp, Output};
use clap::Args;
use virada_engine::levels::MAX_LEVEL;
use virada_engine::{EngineConfig, Level};

#[derive(Args)]
pub struct GtpArgs {
    /// Playing level 1-21 until the GUI sends `level N` (see `virada play --help`).
    #[arg(long, default_value_t = gtp::DEFAULT_LEVEL)]
    pub level: u8,
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    pub tt_mb: usize,
    #[command(flatten)]
    pub book: BookArg,
}

pub fn run(args: GtpArgs) -> CmdResult {
    if !(1..=MAX_LEVEL).contains(&args.level) {
        return Err(CliError::input(format!(
            "--level {} is not a level (1 to {MAX_LEVEL})",
            args.level
        )));
    }
    let mut config = EngineConfig {
        tt_mb: args.tt_mb.clamp(1, 65536),
        ..EngineConfig::default()
    };
    if let Some(t) = args.threads.given() {
        config.threads = t;
    }
    gtp::serve(
        std::io::stdin().lock(),
        Output::stdout(),
        config,
        Level(args.level),
        args.book.load()?,
    );
    Ok(())
}
