//! Arguments several subcommands share: `--threads`, and reading a position argument (a file or
//! the text itself) with the rules crate's one position reader.

use super::CliError;
use clap::Args;
use std::path::Path;
use virada_engine::Book;
use virada_rules::formats::position_input::{self, PositionInput};

/// Most threads any command accepts.
pub const MAX_THREADS: usize = 256;

/// `--threads N`, declared once and flattened into every command that searches.
#[derive(Args, Clone, Copy, Debug, Default)]
pub struct ThreadsArg {
    /// Threads, 1 to 256 (default: all cores; `bench search`: 1, for its reproducible node
    /// count).
    #[arg(
        long = "threads",
        value_name = "N",
        value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS as i64)
    )]
    threads: Option<u16>,
}

impl ThreadsArg {
    /// The number given, if any.
    pub fn given(&self) -> Option<usize> {
        self.threads.map(usize::from)
    }

    /// The number given, else every core.
    pub fn or_all_cores(&self) -> usize {
        self.given()
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    }
}

/// What an engine serving a protocol (`gtp`, `nboard`) is given: threads, table size, book.
#[derive(Args, Clone, Debug)]
pub struct ProtocolEngineArgs {
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    pub tt_mb: usize,
    #[command(flatten)]
    pub book: BookArg,
}

impl ProtocolEngineArgs {
    /// The engine's configuration (the table clamped to 1 MiB - 64 GiB).
    pub fn config(&self) -> virada_engine::EngineConfig {
        let mut config = virada_engine::EngineConfig {
            tt_mb: self.tt_mb.clamp(1, 65536),
            ..virada_engine::EngineConfig::default()
        };
        if let Some(t) = self.threads.given() {
            config.threads = t;
        }
        config
    }
}

/// `--book on|off|FILE`: the opening book a command's engine plays from and shows.
#[derive(Args, Clone, Debug)]
pub struct BookArg {
    /// Opening book: `on` (the book shipped with Virada), `off` (search every move), or a book
    /// file (Virada's `.vbk`, or Edax's `book.dat`).
    #[arg(long = "book", value_name = "on|off|FILE", default_value = "on")]
    book: String,
}

impl BookArg {
    /// The book to use: `None` for `off`, or when `on` and this build ships an empty book. A
    /// file's book lives as long as the program (it is read once).
    pub fn load(&self) -> Result<Option<&'static Book>, CliError> {
        match self.book.as_str() {
            "on" => Ok(Book::shipped()),
            "off" => Ok(None),
            path => {
                let book =
                    Book::open(path).map_err(|e| CliError::input(format!("--book {path}: {e}")))?;
                Ok(Some(Box::leak(Box::new(book))))
            }
        }
    }
}

/// Whether an argument names a file (rather than being a board string or a transcript, which
/// never hold a `/` or a file extension).
fn looks_like_a_path(arg: &str) -> bool {
    let lower = arg.trim().to_ascii_lowercase();
    arg.contains(['/', '\\'])
        || [".obf", ".ggf", ".txt", ".wtb"]
            .iter()
            .any(|e| lower.ends_with(e))
}

/// The text of a position argument: the file's contents if it names a file, else the argument
/// itself. The label says where the text came from (for error messages).
pub fn argument_text(arg: &str) -> Result<(String, Option<String>), CliError> {
    let path = Path::new(arg);
    if path.is_file() {
        let text =
            std::fs::read_to_string(path).map_err(|e| CliError::input(format!("{arg}: {e}")))?;
        return Ok((text, Some(arg.to_string())));
    }
    if looks_like_a_path(arg) {
        return Err(CliError::input(format!("{arg}: no such file")));
    }
    Ok((arg.to_string(), None))
}

/// Reads a position argument (a board string, an OBF line, a transcript, a numbered
/// transcript, a GGF game, or a file holding one of them).
pub fn read_position_input(arg: &str) -> Result<PositionInput, CliError> {
    let (text, file) = argument_text(arg)?;
    position_input::parse(&text).map_err(|e| match file {
        Some(f) => CliError::input(format!("{f}: {e}")),
        None => CliError::input(e.to_string()),
    })
}
