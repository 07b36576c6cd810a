//! The opening explorer: for a position of the first [`MAX_PLIES`] moves, the moves tournament
//! players chose there (WTHOR's games), how often, how they ended for Black, and the strongest
//! players who chose each (docs/EXPLORER.md).
//!
//! **Positions are keyed by symmetry.** A position's key is a hash of its canonical form (the
//! smallest of the 8 images of its absolute Black/White boards, `virada_rules::symmetry`) and its
//! side to move, so games that reach one position by different orders of moves, or in another
//! orientation (first move d3 instead of f5), count at the same node. A move is stored in the
//! canonical orientation; when the canonical position is symmetric in itself (the start, the
//! diagonal opening), moves that are images of each other under those self-symmetries lead to the
//! same position and are stored once, under the lowest square ([`representative`]). A lookup
//! turns each stored square back into the asked orientation and lists its images as `same_as`.
//!
//! The data is built by `virada openings explorer build` (`virada_train::explorer_build`) and
//! shipped as `data/explorer.vex` ([`format`]).

pub mod format;

use std::sync::OnceLock;
use virada_rules::hash::hash_board;
use virada_rules::symmetry::canonical;
use virada_rules::{Board, Color, Position, Square, Symmetry};

pub use format::ExplorerError;

/// The explorer holds the positions of the first 20 moves: those with at most 24 discs.
pub const MAX_PLIES: u32 = 20;

/// Positions with more discs than this are beyond the explorer.
pub const MAX_DISCS: u32 = 4 + MAX_PLIES;

/// Most players listed for one move.
pub const TOP_PLAYERS: usize = 3;

/// The shipped data (`virada openings explorer build --out crates/engine/data/explorer.vex`).
static SHIPPED_BYTES: &[u8] = include_bytes!("../../data/explorer.vex");

/// A player of the database: name, the Elo computed over the database, rated games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub name: String,
    pub elo: u16,
    pub games: u32,
}

/// One move from a stored position: the square in the canonical orientation and what the games
/// that played it did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    /// In the node's canonical orientation (the representative of its self-symmetric images).
    pub square: Square,
    pub stats: Stats,
    /// Indices into [`Explorer::players`], strongest first (at most [`TOP_PLAYERS`]).
    pub players: Vec<u16>,
}

/// How a set of games ended, from Black's view (final discs as replayed, empties to the winner).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub games: u32,
    pub black_wins: u32,
    pub draws: u32,
    /// The sum of Black's final disc differences (WOF scoring).
    pub black_disc_sum: i64,
}

impl Stats {
    /// Adds one game ending with Black's disc difference `diff`.
    pub fn add(&mut self, diff: i32) {
        self.games += 1;
        match diff.cmp(&0) {
            std::cmp::Ordering::Greater => self.black_wins += 1,
            std::cmp::Ordering::Equal => self.draws += 1,
            std::cmp::Ordering::Less => {}
        }
        self.black_disc_sum += i64::from(diff);
    }

    pub fn merge(&mut self, other: &Stats) {
        self.games += other.games;
        self.black_wins += other.black_wins;
        self.draws += other.draws;
        self.black_disc_sum += other.black_disc_sum;
    }

    pub fn white_wins(&self) -> u32 {
        self.games - self.black_wins - self.draws
    }

    /// Black's average disc difference (0 for no games).
    pub fn black_average(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.black_disc_sum as f64 / f64::from(self.games)
        }
    }

    /// Black's score in percent: a win 1, a draw 1/2 (0 for no games).
    pub fn black_score_percent(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            100.0 * (f64::from(self.black_wins) + 0.5 * f64::from(self.draws))
                / f64::from(self.games)
        }
    }
}

/// A stored position: its key and its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub key: u64,
    pub edges: Vec<Edge>,
}

/// A move of the asked position, in its orientation.
#[derive(Clone, Debug, PartialEq)]
pub struct ExplorerMove<'a> {
    pub square: Square,
    /// Other squares of the asked position that lead to the same position (its own symmetries).
    pub same_as: Vec<Square>,
    pub stats: Stats,
    pub players: Vec<&'a Player>,
}

/// The explorer's data (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Explorer {
    /// How the data was made (`key=value` lines).
    pub meta: String,
    pub players: Vec<Player>,
    /// Sorted by key, keys distinct.
    pub nodes: Vec<Node>,
}

/// A position's key and the symmetry that takes it to its canonical orientation.
pub fn key_of(pos: &Position) -> (u64, Symmetry) {
    let (c, sym) = canonical(Board::new(pos.black().0, pos.white().0));
    (key_of_canonical(c, pos.side_to_move()), sym)
}

/// The key of a canonical absolute board (`player` = Black) with `side` to move.
pub fn key_of_canonical(c: Board, side: Color) -> u64 {
    // White to move changes every bit of the key: a board with either side to move is two nodes.
    let side_salt = match side {
        Color::Black => 0,
        Color::White => 0xA076_1D64_78BD_642F,
    };
    hash_board(c.player, c.opponent) ^ side_salt
}

/// The symmetries that leave the absolute board `c` unchanged (the identity always).
pub fn self_symmetries(c: Board) -> Vec<Symmetry> {
    Symmetry::ALL
        .into_iter()
        .filter(|s| s.apply_board(c) == c)
        .collect()
}

/// The square a move `sq` (in the asked orientation) is stored under: its canonical image, the
/// lowest among the images under the canonical position's own symmetries.
pub fn representative(pos: &Position, sq: Square) -> Square {
    let abs = Board::new(pos.black().0, pos.white().0);
    let (c, sym) = canonical(abs);
    let img = sym.apply_square(sq);
    self_symmetries(c)
        .into_iter()
        .map(|t| t.apply_square(img))
        .min_by_key(|s| s.index())
        .unwrap_or(img)
}

impl Explorer {
    /// The explorer shipped with Virada, parsed once on first use; `None` if this build ships an
    /// empty one.
    pub fn shipped() -> Option<&'static Explorer> {
        static SHIPPED: OnceLock<Option<Explorer>> = OnceLock::new();
        SHIPPED
            .get_or_init(|| {
                let e = Explorer::from_bytes(SHIPPED_BYTES).expect("the shipped explorer is valid");
                (!e.nodes.is_empty()).then_some(e)
            })
            .as_ref()
    }

    /// The bytes of the shipped file.
    pub fn shipped_bytes() -> &'static [u8] {
        SHIPPED_BYTES
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Explorer, ExplorerError> {
        format::read(bytes)
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        format::write(self)
    }

    /// The stored node of a key.
    pub fn node(&self, key: u64) -> Option<&Node> {
        self.nodes
            .binary_search_by_key(&key, |n| n.key)
            .ok()
            .map(|i| &self.nodes[i])
    }

    /// The moves played from `pos`, most played first (ties by square), in `pos`'s orientation;
    /// `None` when the position is not stored (beyond the first 20 moves, or reached by too few
    /// games).
    pub fn moves_at(&self, pos: &Position) -> Option<Vec<ExplorerMove<'_>>> {
        let abs = Board::new(pos.black().0, pos.white().0);
        let (c, sym) = canonical(abs);
        let node = self.node(key_of_canonical(c, pos.side_to_move()))?;
        let back = sym.inverse();
        let selfs = self_symmetries(c);
        let mut out: Vec<ExplorerMove> = node
            .edges
            .iter()
            .map(|e| {
                let square = back.apply_square(e.square);
                let mut same_as: Vec<Square> = selfs
                    .iter()
                    .map(|t| back.apply_square(t.apply_square(e.square)))
                    .filter(|&s| s != square)
                    .collect();
                same_as.sort_by_key(|s| s.index());
                same_as.dedup();
                ExplorerMove {
                    square,
                    same_as,
                    stats: e.stats,
                    players: e
                        .players
                        .iter()
                        .filter_map(|&i| self.players.get(usize::from(i)))
                        .collect(),
                }
            })
            .collect();
        out.sort_by(|a, b| {
            b.stats
                .games
                .cmp(&a.stats.games)
                .then(a.square.index().cmp(&b.square.index()))
        });
        Some(out)
    }

    /// The games through `pos` (the sum over its moves), if stored.
    pub fn stats_at(&self, pos: &Position) -> Option<Stats> {
        let (key, _) = key_of(pos);
        let node = self.node(key)?;
        let mut s = Stats::default();
        for e in &node.edges {
            s.merge(&e.stats);
        }
        Some(s)
    }
}

#[cfg(test)]
mod tests;
