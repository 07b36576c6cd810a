//! `virada nboard`: Virada as an engine for NBoard and other GUIs speaking its protocol, on
//! standard input and output (docs/PROTOCOLS.md).

use super::args::{BookArg, ThreadsArg};
use super::CmdResult;
use crate::protocol::{nboard, Output};
use clap::Args;
use virada_engine::EngineConfig;

#[derive(Args)]
pub struct NboardArgs {
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    pub tt_mb: usize,
    #[command(flatten)]
    pub book: BookArg,
}

pub fn run(args: NboardArgs) -> CmdResult {
    let mut config = EngineConfig {
        tt_mb: args.tt_mb.clamp(1, 65536),
        ..EngineConfig::default()
    };
    if let Some(t) = args.threads.given() {
        config.threads = t;
    }
    let book = args.book.load()?;
    nboard::serve(std::io::stdin().lock(), Output::stdout(), config, book);
    Ok(())
}
