//! The explorer's file (`.vex`), little-endian:
//!
//! ```text
//! magic "VIRADAEX", u32 version (1)
//! u32 meta length, meta (UTF-8)
//! u32 players; each: u8 name length, name (UTF-8), u16 Elo, varint games
//! u32 nodes; each, keys strictly increasing: u64 key, u8 moves; each move:
//!     u8 square (canonical), varint games, varint Black wins, varint draws,
//!     zigzag varint sum of Black's disc differences, u8 players, varint player index each
//! u64 FNV-1a of everything before it
//! ```
//!
//! Varints (7 bits a byte, low first) keep the counts small: most moves are played in a handful
//! of games.

use super::{Edge, Explorer, Node, Player, Stats, TOP_PLAYERS};
use crate::checksum::fnv1a64;
use std::fmt;
use virada_rules::Square;

const MAGIC: &[u8; 8] = b"VIRADAEX";
const VERSION: u32 = 1;

/// A file that is not a valid explorer file: what and at which byte.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExplorerError {
    pub byte: usize,
    pub message: String,
}

impl fmt::Display for ExplorerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "explorer file, byte {}: {}", self.byte, self.message)
    }
}

impl std::error::Error for ExplorerError {}

/// Writes the explorer in the format above.
pub fn write(e: &Explorer) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(e.meta.len() as u32).to_le_bytes());
    out.extend_from_slice(e.meta.as_bytes());
    out.extend_from_slice(&(e.players.len() as u32).to_le_bytes());
    for p in &e.players {
        let name = truncate_utf8(&p.name, 255);
        out.push(name.len() as u8);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(&p.elo.to_le_bytes());
        varint(&mut out, u64::from(p.games));
    }
    out.extend_from_slice(&(e.nodes.len() as u32).to_le_bytes());
    for n in &e.nodes {
        out.extend_from_slice(&n.key.to_le_bytes());
        out.push(n.edges.len() as u8);
        for edge in &n.edges {
            out.push(edge.square.index() as u8);
            varint(&mut out, u64::from(edge.stats.games));
            varint(&mut out, u64::from(edge.stats.black_wins));
            varint(&mut out, u64::from(edge.stats.draws));
            let s = edge.stats.black_disc_sum;
            varint(&mut out, ((s << 1) ^ (s >> 63)) as u64);
            out.push(edge.players.len() as u8);
            for &p in &edge.players {
                varint(&mut out, u64::from(p));
            }
        }
    }
    let sum = fnv1a64(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

fn truncate_utf8(s: &str, max: usize) -> &str {
    let mut end = s.len().min(max);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn err(&self, message: impl Into<String>) -> ExplorerError {
        ExplorerError {
            byte: self.at,
            message: message.into(),
        }
    }

    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], ExplorerError> {
        if self.bytes.len() - self.at < n {
            return Err(self.err(format!("the file ends inside {what}")));
        }
        let s = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }

    fn u8(&mut self, what: &str) -> Result<u8, ExplorerError> {
        Ok(self.take(1, what)?[0])
    }

    fn u16(&mut self, what: &str) -> Result<u16, ExplorerError> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn u32(&mut self, what: &str) -> Result<u32, ExplorerError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u64(&mut self, what: &str) -> Result<u64, ExplorerError> {
        let b = self.take(8, what)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }

    fn varint(&mut self, what: &str) -> Result<u64, ExplorerError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.u8(what)?;
            v |= u64::from(b & 0x7F) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(self.err(format!("{what}: a number longer than 64 bits")))
    }

    fn count(&mut self, what: &str) -> Result<u32, ExplorerError> {
        let v = self.varint(what)?;
        u32::try_from(v).map_err(|_| self.err(format!("{what}: {v} is too large")))
    }

    fn string(&mut self, len: usize, what: &str) -> Result<String, ExplorerError> {
        let start = self.at;
        let b = self.take(len, what)?;
        String::from_utf8(b.to_vec()).map_err(|_| ExplorerError {
            byte: start,
            message: format!("{what} is not UTF-8"),
        })
    }
}

/// Reads a file written by [`write`]; every count, square, index and the checksum are checked.
pub fn read(bytes: &[u8]) -> Result<Explorer, ExplorerError> {
    let mut r = Reader { bytes, at: 0 };
    if r.take(8, "the magic")? != MAGIC {
        return Err(ExplorerError {
            byte: 0,
            message: "not an explorer file (no VIRADAEX magic)".into(),
        });
    }
    let version = r.u32("the version")?;
    if version != VERSION {
        return Err(r.err(format!("version {version}; this build reads {VERSION}")));
    }
    if bytes.len() < 8 + 4 + 8 {
        return Err(r.err("too short for a checksum"));
    }
    let body = &bytes[..bytes.len() - 8];
    let mut stored = [0u8; 8];
    stored.copy_from_slice(&bytes[bytes.len() - 8..]);
    if fnv1a64(body) != u64::from_le_bytes(stored) {
        return Err(ExplorerError {
            byte: body.len(),
            message: "the checksum does not match (a damaged file)".into(),
        });
    }
    let mut r = Reader {
        bytes: body,
        at: r.at,
    };
    let meta_len = r.u32("the meta length")? as usize;
    let meta = r.string(meta_len, "the meta text")?;
    let player_count = r.u32("the player count")?;
    let mut players = Vec::with_capacity(player_count.min(1 << 16) as usize);
    for _ in 0..player_count {
        let len = usize::from(r.u8("a player's name length")?);
        let name = r.string(len, "a player's name")?;
        let elo = r.u16("a player's Elo")?;
        let games = r.count("a player's games")?;
        players.push(Player { name, elo, games });
    }
    let node_count = r.u32("the node count")?;
    let mut nodes: Vec<Node> = Vec::with_capacity(node_count.min(1 << 22) as usize);
    for _ in 0..node_count {
        let key = r.u64("a node's key")?;
        if nodes.last().is_some_and(|n| n.key >= key) {
            return Err(r.err("node keys are not strictly increasing"));
        }
        let edge_count = r.u8("a node's move count")?;
        let mut edges = Vec::with_capacity(usize::from(edge_count));
        for _ in 0..edge_count {
            let sq = r.u8("a move's square")?;
            let square = Square::from_index(sq)
                .ok_or_else(|| r.err(format!("square index {sq} is not 0-63")))?;
            let games = r.count("a move's games")?;
            let black_wins = r.count("a move's Black wins")?;
            let draws = r.count("a move's draws")?;
            if u64::from(black_wins) + u64::from(draws) > u64::from(games) {
                return Err(r.err("more wins and draws than games"));
            }
            let z = r.varint("a move's disc sum")?;
            let black_disc_sum = ((z >> 1) as i64) ^ -((z & 1) as i64);
            if black_disc_sum.unsigned_abs() > 64 * u64::from(games) {
                return Err(r.err("a disc sum beyond 64 per game"));
            }
            let n = usize::from(r.u8("a move's player count")?);
            if n > TOP_PLAYERS {
                return Err(r.err(format!("{n} players; at most {TOP_PLAYERS}")));
            }
            let mut ps = Vec::with_capacity(n);
            for _ in 0..n {
                let p = r.count("a player index")?;
                if p >= player_count {
                    return Err(r.err(format!("player {p} of {player_count}")));
                }
                ps.push(p as u16);
            }
            edges.push(Edge {
                square,
                stats: Stats {
                    games,
                    black_wins,
                    draws,
                    black_disc_sum,
                },
                players: ps,
            });
        }
        nodes.push(Node { key, edges });
    }
    if r.at != body.len() {
        return Err(r.err("bytes after the last node"));
    }
    Ok(Explorer {
        meta,
        players,
        nodes,
    })
}
