//! Move ordering: the hash move first, then a shallow search or the evaluation, corrected by
//! the opponent's resulting mobility (fewer replies first) and by corners.

use virada_rules::masks::CORNERS;
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

    /// Moves the move at `square` to the front, the others keeping their order; false (and no
    /// change) when it is not in the list.
    #[inline]
    pub fn bring_to_front(&mut self, square: u8) -> bool {
        match self.as_slice().iter().position(|c| c.square == square) {
            Some(k) => {
                self.items[..=k].rotate_right(1);
                true
            }
            None => false,
        }
    }

    /// Sorts the moves from position `start` on by key, highest first (stable, so equal keys
    /// keep generation order and search stays deterministic).
    #[inline]
    pub fn sort_from(&mut self, start: usize) {
        // Insertion sort: lists are short and often nearly sorted.
        let items = &mut self.items[start..self.len];
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorting_a_tail_leaves_the_head_alone() {
        let b = Board::start().play_unchecked("f5".parse().unwrap());
        let b = b.play_unchecked("f6".parse().unwrap());
        let mut list = MoveList::new(&b, b.moves());
        assert!(list.len() >= 4, "{}", list.len());
        for (i, c) in list.as_mut_slice().iter_mut().enumerate() {
            c.key = [5, 1, 7, 1, 7, 0, 7][i % 7];
        }
        let before: Vec<(u8, i32)> = list.as_slice().iter().map(|c| (c.square, c.key)).collect();
        list.sort_from(1);
        let got: Vec<(u8, i32)> = list.as_slice().iter().map(|c| (c.square, c.key)).collect();
        // Highest key first, equal keys in generation order (a stable sort).
        let mut want = before.clone();
        want[1..].sort_by_key(|c| std::cmp::Reverse(c.1));
        assert_eq!(got, want);
        assert_ne!(got, before);
    }

    #[test]
    fn bring_to_front_keeps_the_others_in_order() {
        let b = Board::start();
        let mut list = MoveList::new(&b, b.moves());
        let squares: Vec<u8> = list.as_slice().iter().map(|c| c.square).collect();
        assert!(list.bring_to_front(squares[2]));
        let after: Vec<u8> = list.as_slice().iter().map(|c| c.square).collect();
        assert_eq!(after, vec![squares[2], squares[0], squares[1], squares[3]]);
        assert!(!list.bring_to_front(0)); // a1 is not a legal move at the start
    }
}
