//! `virada nboard`: Virada as an engine for NBoard and other GUIs speaking its protocol, on
//! standard input and output (docs/PROTOCOLS.md).

use super::args::ProtocolEngineArgs;
use super::CmdResult;
use crate::protocol::{nboard, Output};
use clap::Args;

#[derive(Args)]
pub struct NboardArgs {
    #[command(flatten)]
    pub engine: ProtocolEngineArgs,
}

pub fn run(args: NboardArgs) -> CmdResult {
    let book = args.engine.book.load()?;
    nboard::serve(
        std::io::stdin().lock(),
        Output::stdout(),
        args.engine.config(),
        book,
    );
    Ok(())
}
