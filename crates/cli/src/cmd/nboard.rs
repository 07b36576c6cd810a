//! `virada nboard`: Virada as an engine for NBoard and other GUIs speaking its protocol, on
//! standard input and output (docs/PROTOCOLS.md).

use super::CmdResult;
use crate::protocol::{nboard, Output};
use clap::Args;
use virada_engine::EngineConfig;

#[derive(Args)]
pub struct NboardArgs {
    /// Search threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    pub tt_mb: usize,
}

pub fn run(args: NboardArgs) -> CmdResult {
    let mut config = EngineConfig {
        tt_mb: args.tt_mb.clamp(1, 65536),
        ..EngineConfig::default()
    };
    if let Some(t) = args.threads {
        config.threads = t.max(1);
    }
    nboard::serve(std::io::stdin().lock(), Output::stdout(), config);
    Ok(())
}
