//! Chunked sample files of the gen3 data pipeline (`.vds`): compact, checksummed, written
//! atomically, read one chunk at a time (memory stays bounded whatever the data set's size).
//!
//! A data set is a directory of chunk files `chunk-000000.vds`, `chunk-000001.vds`, ... Each
//! chunk is (integers little-endian):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `VIRADADS` |
//! | 8 | 4 | format version (u32, [`VERSION`]) |
//! | 12 | 4 | record length in bytes (u32, [`RECORD_LEN`]) |
//! | 16 | 8 | number of records (u64) |
//! | 24 | 8 | FNV-1a 64 checksum of the records |
//! | 32 | 24·n | records |
//!
//! A record is `player` u64, `opponent` u64 (side to move's discs and the other side's, bit 0 =
//! a1), `label` i16 (the value for the side to move in hundredths of a disc, WOF final disc
//! difference), `source` u8 ([`Source`]), `depth` u8 (search depth of a search label, empties
//! of an exact solve, empties of the theoretical score of a WTHOR label) and `game` u32 (the
//! game the position comes from, for held-out splits by game).
//!
//! A chunk is written to a temporary name, flushed to disk and renamed: a reader never sees a
//! partial chunk, and a run killed at any point leaves only whole chunks behind.

use crate::samples::Source;
use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use virada_engine::checksum::fnv1a64;
use virada_rules::Board;

/// Chunk file magic.
pub const MAGIC: &[u8; 8] = b"VIRADADS";
/// Format version of the chunk files.
pub const VERSION: u32 = 1;
/// Header bytes.
pub const HEADER_LEN: usize = 32;
/// Bytes per record.
pub const RECORD_LEN: usize = 24;
/// Extension of chunk files.
pub const EXTENSION: &str = "vds";

/// One labelled position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Record {
    pub board: Board,
    /// Value for the side to move in hundredths of a disc.
    pub label: i16,
    pub source: Source,
    /// Search depth, or empties of an exact / theoretical label.
    pub depth: u8,
    /// Game number inside its data set.
    pub game: u32,
}

impl Record {
    /// The label in discs.
    pub fn label_discs(&self) -> f64 {
        self.label as f64 / 100.0
    }
}

/// A chunk file that cannot be read.
#[derive(Debug)]
pub enum DatasetError {
    Io(io::Error),
    BadMagic,
    UnsupportedVersion(u32),
    /// The header and the file length disagree.
    Length {
        records: u64,
        bytes: u64,
    },
    BadChecksum {
        expected: u64,
        found: u64,
    },
    BadRecord {
        index: u64,
        reason: &'static str,
    },
}

impl fmt::Display for DatasetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatasetError::Io(e) => write!(f, "{e}"),
            DatasetError::BadMagic => f.write_str("not a Virada data chunk (bad magic)"),
            DatasetError::UnsupportedVersion(v) => write!(
                f,
                "data chunk format version {v} is not supported (this build reads {VERSION})"
            ),
            DatasetError::Length { records, bytes } => write!(
                f,
                "data chunk header says {records} records but the file has {bytes} bytes"
            ),
            DatasetError::BadChecksum { expected, found } => write!(
                f,
                "data chunk corrupt: checksum {found:016x}, header says {expected:016x}"
            ),
            DatasetError::BadRecord { index, reason } => write!(f, "record {index}: {reason}"),
        }
    }
}

impl std::error::Error for DatasetError {}

impl From<io::Error> for DatasetError {
    fn from(e: io::Error) -> Self {
        DatasetError::Io(e)
    }
}

/// The bytes of a chunk holding `records`.
pub fn encode(records: &[Record]) -> Vec<u8> {
    let mut body = Vec::with_capacity(RECORD_LEN * records.len());
    for r in records {
        body.extend_from_slice(&r.board.player.to_le_bytes());
        body.extend_from_slice(&r.board.opponent.to_le_bytes());
        body.extend_from_slice(&r.label.to_le_bytes());
        body.push(r.source as u8);
        body.push(r.depth);
        body.extend_from_slice(&r.game.to_le_bytes());
    }
    let mut out = Vec::with_capacity(HEADER_LEN + body.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(RECORD_LEN as u32).to_le_bytes());
    out.extend_from_slice(&(records.len() as u64).to_le_bytes());
    out.extend_from_slice(&fnv1a64(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut a = [0u8; 4];
    a.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(a)
}

/// Reads and checks a whole chunk.
pub fn decode(bytes: &[u8]) -> Result<Vec<Record>, DatasetError> {
    if bytes.len() < HEADER_LEN || &bytes[..8] != MAGIC {
        return Err(DatasetError::BadMagic);
    }
    let version = u32_at(bytes, 8);
    if version != VERSION || u32_at(bytes, 12) as usize != RECORD_LEN {
        return Err(DatasetError::UnsupportedVersion(version));
    }
    let records = u64_at(bytes, 16);
    let body = &bytes[HEADER_LEN..];
    if body.len() as u64 != records.saturating_mul(RECORD_LEN as u64) {
        return Err(DatasetError::Length {
            records,
            bytes: bytes.len() as u64,
        });
    }
    let expected = u64_at(bytes, 24);
    let found = fnv1a64(body);
    if expected != found {
        return Err(DatasetError::BadChecksum { expected, found });
    }
    body.chunks_exact(RECORD_LEN)
        .enumerate()
        .map(|(i, r)| {
            let bad = |reason| DatasetError::BadRecord {
                index: i as u64,
                reason,
            };
            let player = u64_at(r, 0);
            let opponent = u64_at(r, 8);
            if player & opponent != 0 {
                return Err(bad("a square holds discs of both sides"));
            }
            let label = i16::from_le_bytes([r[16], r[17]]);
            if !(-6400..=6400).contains(&label) {
                return Err(bad("label outside -64..=64 discs"));
            }
            let source = Source::from_code(r[18]).ok_or_else(|| bad("unknown source code"))?;
            Ok(Record {
                board: Board::new(player, opponent),
                label,
                source,
                depth: r[19],
                game: u32_at(r, 20),
            })
        })
        .collect()
}

/// Writes `bytes` to `path` atomically: a temporary file in the same directory, flushed to
/// disk, then renamed over `path`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("chunk");
    let tmp = path.with_file_name(format!(".{name}.tmp"));
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)?;
    if let Some(dir) = path.parent() {
        // Make the rename itself durable (best effort: not every platform opens directories).
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

/// The path of chunk `k` in `dir`.
pub fn chunk_path(dir: &Path, k: u64) -> PathBuf {
    dir.join(format!("chunk-{k:06}.{EXTENSION}"))
}

/// Reads one chunk file.
pub fn read_chunk(path: &Path) -> Result<Vec<Record>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    decode(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// The chunk files of a data set directory, in order (`chunk-*.vds`; temporary files ignored).
pub fn list_chunks(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("chunk-") && n.ends_with(".vds"))
        })
        .collect();
    out.sort();
    Ok(out)
}

/// The chunk files of several data set directories (each in order, directories in the order
/// given).
pub fn list_sets(dirs: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for d in dirs {
        let c = list_chunks(d)?;
        if c.is_empty() {
            return Err(format!("{}: no chunk-*.vds files", d.display()));
        }
        out.extend(c);
    }
    Ok(out)
}

/// Calls `f` on every record of `chunks`, one chunk in memory at a time.
pub fn for_each_record(chunks: &[PathBuf], mut f: impl FnMut(&Record)) -> Result<u64, String> {
    let mut n = 0;
    for c in chunks {
        for r in read_chunk(c)? {
            f(&r);
            n += 1;
        }
    }
    Ok(n)
}

/// The default cache folder for training data: `$VIRADA_CACHE/train`, else
/// `$XDG_CACHE_HOME/virada/train`, else `~/.cache/virada/train` (never inside the repository).
pub fn default_cache_dir() -> PathBuf {
    if let Some(c) = std::env::var_os("VIRADA_CACHE") {
        return PathBuf::from(c).join("train");
    }
    if let Some(c) = std::env::var_os("XDG_CACHE_HOME") {
        return PathBuf::from(c).join("virada/train");
    }
    let home = std::env::var_os("HOME").map_or_else(|| PathBuf::from("."), PathBuf::from);
    home.join(".cache/virada/train")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<Record> {
        vec![
            Record {
                board: Board::start(),
                label: -1234,
                source: Source::Search,
                depth: 8,
                game: 7,
            },
            Record {
                board: Board::new(1, 2),
                label: 6400,
                source: Source::Exact,
                depth: 22,
                game: u32::MAX,
            },
        ]
    }

    #[test]
    fn round_trip_and_corruption_is_refused() {
        let r = sample();
        let bytes = encode(&r);
        assert_eq!(bytes.len(), HEADER_LEN + 2 * RECORD_LEN);
        assert_eq!(decode(&bytes).unwrap(), r);
        let mut flipped = bytes.clone();
        flipped[HEADER_LEN + 3] ^= 4;
        assert!(matches!(
            decode(&flipped),
            Err(DatasetError::BadChecksum { .. })
        ));
        assert!(matches!(
            decode(&bytes[..bytes.len() - 1]),
            Err(DatasetError::Length { .. })
        ));
        let mut version = bytes.clone();
        version[8] = 9;
        assert_eq!(
            decode(&version).unwrap_err().to_string(),
            "data chunk format version 9 is not supported (this build reads 1)"
        );
        let mut magic = bytes;
        magic[0] = b'x';
        assert!(matches!(decode(&magic), Err(DatasetError::BadMagic)));
    }

    #[test]
    fn atomic_write_and_listing() {
        let dir = std::env::temp_dir().join(format!("virada-ds-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for k in [1, 0] {
            write_atomic(&chunk_path(&dir, k), &encode(&sample())).unwrap();
        }
        std::fs::write(dir.join(".chunk-000002.vds.tmp"), b"partial").unwrap();
        let chunks = list_chunks(&dir).unwrap();
        assert_eq!(chunks, vec![chunk_path(&dir, 0), chunk_path(&dir, 1)]);
        let mut n = 0;
        assert_eq!(for_each_record(&chunks, |_| n += 1).unwrap(), 4);
        assert_eq!(n, 4);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
