//! Why a book could not be read, written or built.

use std::fmt;
use std::path::Path;

/// Why a book file was refused or could not be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// Reading or writing a file failed.
    Io { path: String, message: String },
    /// The file is not a book in a format we know.
    BadMagic,
    /// A newer (or unknown) version of our format.
    UnsupportedVersion(u16),
    /// The file ends before the data it announces.
    Truncated { expected: usize, found: usize },
    /// More bytes than the header announces.
    TrailingBytes { expected: usize, found: usize },
    /// The stored checksum does not match the contents: the file is damaged.
    BadChecksum { expected: u64, found: u64 },
    /// An entry makes no sense (overlapping discs, illegal move, not canonical, ...).
    BadEntry { index: usize, reason: String },
    /// A build journal that does not belong to this build or is damaged.
    Journal { line: usize, reason: String },
    /// Something else, with a file attached.
    InFile { path: String, error: Box<BookError> },
}

impl BookError {
    /// The same error, saying which file it is about.
    pub fn in_file(self, path: &Path) -> BookError {
        match self {
            e @ (BookError::Io { .. } | BookError::InFile { .. }) => e,
            e => BookError::InFile {
                path: path.display().to_string(),
                error: Box::new(e),
            },
        }
    }
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io { path, message } => write!(f, "{path}: {message}"),
            BookError::BadMagic => f.write_str(
                "not a book file: the header is neither Virada's (VIRADABK) nor Edax's (EDAX BOOK)",
            ),
            BookError::UnsupportedVersion(v) => write!(
                f,
                "book format version {v} is not supported (this Virada reads version {})",
                super::FORMAT_VERSION
            ),
            BookError::Truncated { expected, found } => write!(
                f,
                "book file truncated: {found} bytes, the header announces {expected}"
            ),
            BookError::TrailingBytes { expected, found } => write!(
                f,
                "book file has {found} bytes, the header announces {expected}: extra data after the end"
            ),
            BookError::BadChecksum { expected, found } => write!(
                f,
                "book file corrupt: checksum {found:016x}, header says {expected:016x}"
            ),
            BookError::BadEntry { index, reason } => {
                write!(f, "book entry {index}: {reason}")
            }
            BookError::Journal { line, reason } => {
                write!(f, "build journal line {line}: {reason}")
            }
            BookError::InFile { path, error } => write!(f, "{path}: {error}"),
        }
    }
}

impl std::error::Error for BookError {}
