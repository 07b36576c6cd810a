//! Labelled positions: the intermediate data of training, and its binary file format.
//!
//! A sample file is a 16-byte header (`VIRSAMP1` then the record count as u64 LE) followed by
//! 18-byte records: `player` u64 LE, `opponent` u64 LE (discs of the side to move and of the other
//! side, bit 0 = a1), `label` i8 (the WOF final disc difference for the side to move, -64..=64)
//! and `source` u8 (see [`Source`]). Files are written and read whole; a few million samples take
//! tens of megabytes.

use std::fmt;
use std::io::{self, Read, Write};
use std::path::Path;
use virada_rules::Board;

/// File magic.
pub const MAGIC: &[u8; 8] = b"VIRSAMP1";
/// Bytes per record.
pub const RECORD_LEN: usize = 18;

/// Where a label comes from.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum Source {
    /// WTHOR game: the theoretical score at 24 empties (perfect play from there on), given to the
    /// earlier positions of the game.
    WthorTheoretical = 0,
    /// Exact value from our endgame solver.
    Exact = 1,
    /// WTHOR game: the final result of the game as played.
    WthorResult = 2,
    /// Self-play game of our engine: its final result.
    SelfPlay = 3,
    /// Value of a search that used a previous generation of weights.
    Search = 4,
    /// WTHOR game position: value of a search that used a previous generation of weights
    /// (held out by the WTHOR game split).
    WthorSearch = 5,
}

impl Source {
    /// The source with this code, if any.
    pub fn from_code(c: u8) -> Option<Source> {
        Some(match c {
            0 => Source::WthorTheoretical,
            1 => Source::Exact,
            2 => Source::WthorResult,
            3 => Source::SelfPlay,
            4 => Source::Search,
            5 => Source::WthorSearch,
            _ => return None,
        })
    }
}

/// One labelled position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Sample {
    pub board: Board,
    /// WOF final disc difference for the side to move.
    pub label: i8,
    pub source: Source,
}

/// A sample file that cannot be read.
#[derive(Debug)]
pub enum SampleFileError {
    Io(io::Error),
    BadMagic,
    /// The header count and the file length disagree.
    Length {
        records: u64,
        bytes: u64,
    },
    /// Record `index` is not a valid sample (overlapping discs, label out of range, bad source).
    BadRecord {
        index: u64,
        reason: &'static str,
    },
}

impl fmt::Display for SampleFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SampleFileError::Io(e) => write!(f, "{e}"),
            SampleFileError::BadMagic => f.write_str("not a Virada sample file (bad magic)"),
            SampleFileError::Length { records, bytes } => write!(
                f,
                "sample file header says {records} records but the data is {bytes} bytes"
            ),
            SampleFileError::BadRecord { index, reason } => {
                write!(f, "sample record {index}: {reason}")
            }
        }
    }
}

impl std::error::Error for SampleFileError {}

impl From<io::Error> for SampleFileError {
    fn from(e: io::Error) -> Self {
        SampleFileError::Io(e)
    }
}

/// Encodes samples into the file format.
pub fn encode(samples: &[Sample]) -> Vec<u8> {
    let mut out = Vec::with_capacity(16 + RECORD_LEN * samples.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(samples.len() as u64).to_le_bytes());
    for s in samples {
        out.extend_from_slice(&s.board.player.to_le_bytes());
        out.extend_from_slice(&s.board.opponent.to_le_bytes());
        out.push(s.label as u8);
        out.push(s.source as u8);
    }
    out
}

/// Decodes a whole sample file, checking every record.
pub fn decode(bytes: &[u8]) -> Result<Vec<Sample>, SampleFileError> {
    if bytes.len() < 16 || &bytes[..8] != MAGIC {
        return Err(SampleFileError::BadMagic);
    }
    let records = u64::from_le_bytes(bytes[8..16].try_into().unwrap_or([0; 8]));
    let body = &bytes[16..];
    if body.len() as u64 != records.saturating_mul(RECORD_LEN as u64) {
        return Err(SampleFileError::Length {
            records,
            bytes: body.len() as u64,
        });
    }
    body.chunks_exact(RECORD_LEN)
        .enumerate()
        .map(|(i, r)| {
            let bad = |reason| SampleFileError::BadRecord {
                index: i as u64,
                reason,
            };
            let player = u64::from_le_bytes(r[0..8].try_into().unwrap_or([0; 8]));
            let opponent = u64::from_le_bytes(r[8..16].try_into().unwrap_or([0; 8]));
            if player & opponent != 0 {
                return Err(bad("a square holds discs of both sides"));
            }
            let label = r[16] as i8;
            if !(-64..=64).contains(&label) {
                return Err(bad("label outside -64..=64"));
            }
            let source = Source::from_code(r[17]).ok_or_else(|| bad("unknown source code"))?;
            Ok(Sample {
                board: Board::new(player, opponent),
                label,
                source,
            })
        })
        .collect()
}

/// Writes a sample file.
pub fn write_file(path: &Path, samples: &[Sample]) -> io::Result<()> {
    let mut f = io::BufWriter::new(std::fs::File::create(path)?);
    f.write_all(&encode(samples))?;
    f.flush()
}

/// Reads a sample file.
pub fn read_file(path: &Path) -> Result<Vec<Sample>, SampleFileError> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)?.read_to_end(&mut bytes)?;
    decode(&bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_errors() {
        let s = vec![
            Sample {
                board: Board::start(),
                label: -12,
                source: Source::Exact,
            },
            Sample {
                board: Board::new(1, 2),
                label: 64,
                source: Source::WthorTheoretical,
            },
        ];
        let bytes = encode(&s);
        assert_eq!(bytes.len(), 16 + 2 * RECORD_LEN);
        assert_eq!(decode(&bytes).unwrap(), s);
        assert!(matches!(
            decode(&bytes[..bytes.len() - 1]),
            Err(SampleFileError::Length { .. })
        ));
        let mut bad = bytes.clone();
        bad[16 + RECORD_LEN + 17] = 77;
        let err = decode(&bad).unwrap_err();
        assert_eq!(err.to_string(), "sample record 1: unknown source code");
        let mut overlap = bytes;
        overlap[16] = 0xFF;
        overlap[24] = 0x01;
        assert!(matches!(
            decode(&overlap),
            Err(SampleFileError::BadRecord { index: 0, .. })
        ));
    }
}
