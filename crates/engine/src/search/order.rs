//! Move ordering: the hash move first, then a shallow search or the evaluation, corrected by
//! the opponent's resulting mobility (fewer replies first) and by corners.

use crate::eval::features::CORNERS;
use virada_rules::movegen::{flips, legal_moves};
use virada_rules::Board;

/// Upper bound on legal moves in any position (the known maximum is well below 40).
pub const MAX_MOVES: usize = 40;

/// One candidate move with its flips and ordering key.
#[derive(Clone, Copy, Debug, Default)]
pub struct Candidate {
    /// Square index (0..64).
    pub square: u8,
    /// Discs flipped.
    pub flips: u64,
    /// Ordering key: higher is tried first.
    pub key: i32,
}

impl Candidate {
    /// The board after this move (from the opponent's view).
    #[inline]
    pub fn child(&self, board: &Board) -> Board {
        Board::new(
            board.opponent ^ self.flips,
            board.player | self.flips | (1u64 << self.square),
        )
    }
}

/// A fixed-capacity list of candidate moves (no allocation in the search tree).
#[derive(Clone, Copy)]
pub struct MoveList {
    items: [Candidate; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// The legal moves of `board` in generation order, keys zeroed.
    #[inline]
    pub fn new(board: &Board, moves: u64) -> MoveList {
        let mut list = MoveList {
            items: [Candidate::default(); MAX_MOVES],
            len: 0,
        };
        let mut m = moves;
        while m != 0 {
            let sq = m.trailing_zeros() as u8;
            m &= m - 1;
            list.items[list.len] = Candidate {
                square: sq,
                flips: flips(board.player, board.opponent, sq as usize),
                key: 0,
            };
            list.len += 1;
        }
        list
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is no move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Candidate] {
        &self.items[..self.len]
    }

    /// The moves as a mutable slice (to set keys).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Candidate] {
        &mut self.items[..self.len]
    }

    /// Sorts by key, highest first (stable, so equal keys keep generation order and search
    /// stays deterministic).
    #[inline]
    pub fn sort(&mut self) {
        // Insertion sort: lists are short and often nearly sorted.
        let items = &mut self.items[..self.len];
        for i in 1..items.len() {
            let c = items[i];
            let mut j = i;
            while j > 0 && items[j - 1].key < c.key {
                items[j] = items[j - 1];
                j -= 1;
            }
            items[j] = c;
        }
    }
}

/// The cheap part of the ordering key of `child` (the board after the move, opponent to
/// move): opponent mobility weighted heavily (a move that leaves few replies is usually good),
/// corner bonus, and potential mobility.
#[inline]
pub fn mobility_key(child: &Board, square: u8) -> i32 {
    let opp_moves = legal_moves(child.player, child.opponent);
    let corner_moves = (opp_moves & CORNERS).count_ones() as i32;
    let mut key = -(opp_moves.count_ones() as i32) * 150 - corner_moves * 300;
    if (1u64 << square) & CORNERS != 0 {
        key += 400;
    }
    key
}

/// The shallow-search depth used to order the moves of a node searched to `depth`
/// (`None`: order by mobility only).
#[inline]
pub fn ordering_depth(depth: i32) -> Option<i32> {
    match depth {
        i32::MIN..=3 => None,
        4..=6 => Some(0),
        7..=10 => Some(1),
        _ => Some(2),
    }
}
