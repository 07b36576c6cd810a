//! `virada gtp`: Virada as an engine for Go Text Protocol tools that play Othello, on
//! standard input and output (docs/PROTOCOLS.md).

use super::args::ProtocolEngineArgs;
use super::{CliError, CmdResult};
use crate::protocol::{gtp, Output};
use clap::Args;
use virada_engine::levels::MAX_LEVEL;
use virada_engine::Level;

#[derive(Args)]
pub struct GtpArgs {
    /// Playing level 1-21 until the GUI sends `level N` (see `virada play --help`).
    #[arg(long, default_value_t = gtp::DEFAULT_LEVEL)]
    pub level: u8,
    #[command(flatten)]
    pub engine: ProtocolEngineArgs,
}

pub fn run(args: GtpArgs) -> CmdResult {
    if !(1..=MAX_LEVEL).contains(&args.level) {
        return Err(CliError::input(format!(
            "--level {} is not a level (1 to {MAX_LEVEL})",
            args.level
        )));
    }
    gtp::serve(
        std::io::stdin().lock(),
        Output::stdout(),
        args.engine.config(),
        Level(args.level),
        args.engine.book.load()?,
    );
    Ok(())
}
