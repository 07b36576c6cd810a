//! One module per subcommand.

use std::fmt;

#[cfg(feature = "server")]
pub mod admin;
pub mod analyze;
pub mod args;
pub mod bench;
pub mod bench_accuracy;
pub mod bench_coach;
pub mod bench_coach_check;
pub mod bench_depths;
pub mod bench_ffo;
pub mod bench_probcut;
pub mod bench_review;
pub mod bench_search;
pub mod book;
mod coach_model;
#[cfg(feature = "server")]
pub mod db;
pub mod gtp;
pub mod matchcmd;
pub mod nboard;
pub mod openings;
mod openings_rating;
pub mod perft;
pub mod play;
pub mod puzzles;
pub mod replay;
#[cfg(feature = "server")]
pub mod serve;
pub mod show;
pub mod solve;
mod solve_input;
pub mod train;

/// A command failure: a message for the user and the process exit code.
#[derive(Debug)]
pub struct CliError {
    pub message: String,
    /// 2 = bad input or arguments, 1 = the command ran and failed (e.g. a mismatch).
    pub code: u8,
}

impl CliError {
    /// Bad user input (exit code 2).
    pub fn input(message: impl Into<String>) -> CliError {
        CliError {
            message: message.into(),
            code: 2,
        }
    }

    /// The command ran but the outcome is a failure (exit code 1).
    pub fn failed(message: impl Into<String>) -> CliError {
        CliError {
            message: message.into(),
            code: 1,
        }
    }

    /// Writing to standard output failed. A closed pipe (`virada ... | head`) is no failure of
    /// ours: it ends the command quietly with [`CliError::CLOSED_PIPE`].
    pub fn stdout(e: std::io::Error) -> CliError {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            CliError {
                message: String::new(),
                code: CliError::CLOSED_PIPE,
            }
        } else {
            CliError::failed(format!("cannot write the output: {e}"))
        }
    }

    /// Exit status when standard output was closed early (128 + SIGPIPE, as a shell says).
    pub const CLOSED_PIPE: u8 = 141;

    pub fn exit_code(&self) -> u8 {
        self.code
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

pub type CmdResult = Result<(), CliError>;

/// The shared data directory: `$VIRADA_DATA`, else `../shared/data` next to the workspace
/// (found from the current directory or from where the binary was built).
pub fn data_dir() -> std::path::PathBuf {
    if let Some(d) = std::env::var_os("VIRADA_DATA") {
        return d.into();
    }
    let candidates = [
        std::path::PathBuf::from("../shared/data"),
        std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data")),
    ];
    for c in &candidates {
        if c.is_dir() {
            return c.clone();
        }
    }
    candidates[0].clone()
}
