//! Move lists and move ordering for the solver.
//!
//! Near the end of the tree the cheapest good order is *fastest first*: try first the move
//! that leaves the opponent the fewest replies (corners counted twice), which shrinks the tree
//! below it; ties go to moves in odd regions (parity). Higher in the tree, where a node is
//! expensive, moves are ordered by a shallow search with an evaluation function.

use super::last::odd_quadrants;
use std::mem::MaybeUninit;
use virada_rules::masks::CORNERS;
use virada_rules::movegen::{flips, legal_moves, neighbours};

/// One legal move with its flips and ordering value.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct MoveItem {
    pub sq: u8,
    pub flips: u64,
    pub value: i32,
}

impl MoveItem {
    /// The board after the move, from the opponent's side (player, opponent).
    #[inline]
    pub fn child(&self, player: u64, opponent: u64) -> (u64, u64) {
        (
            opponent & !self.flips,
            player | self.flips | 1u64 << self.sq,
        )
    }
}

/// The legal moves of a position (at most 33 exist in Othello; 34 slots for safety).
///
/// The slots are left uninitialised (zero-filling 34 slots cost about 5% of the solver's
/// time): only the first `len` are ever written before being read.
pub(crate) struct MoveList {
    items: [MaybeUninit<MoveItem>; 34],
    pub len: usize,
}

impl MoveList {
    /// The moves in `moves` (a legal-move mask of `player`), unsorted, value 0.
    ///
    /// The hot paths use [`Self::empty`] and [`Self::fill`] instead: a list built here and
    /// returned was copied whole (552 bytes) into the caller's frame, 2.4% of the solver's time.
    #[inline]
    pub fn new(player: u64, opponent: u64, moves: u64) -> MoveList {
        let mut list = MoveList::empty();
        list.fill(player, opponent, moves);
        list
    }

    /// A list with no moves (nothing written: returning it copies nothing).
    #[inline(always)]
    pub fn empty() -> MoveList {
        MoveList {
            items: [MaybeUninit::uninit(); 34],
            len: 0,
        }
    }

    /// Replaces the list's moves by those in `moves` (a legal-move mask of `player`),
    /// unsorted, value 0, in place.
    #[inline(always)]
    pub fn fill(&mut self, player: u64, opponent: u64, moves: u64) {
        self.len = 0;
        let mut m = moves;
        // A legal-move mask has at most 33 bits in Othello; the bound keeps every write in
        // the array even for a nonsense mask.
        while m != 0 && self.len < 34 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            self.items[self.len].write(MoveItem {
                sq: sq as u8,
                flips: flips(player, opponent, sq),
                value: 0,
            });
            self.len += 1;
        }
    }

    /// Takes the move on `sq` out of the list (which must hold it); the order of the rest
    /// changes (the last move fills the gap).
    #[inline]
    pub fn remove(&mut self, sq: u8) -> MoveItem {
        let slice = self.as_mut_slice();
        let i = slice.iter().position(|m| m.sq == sq).unwrap_or(0);
        let item = slice[i];
        slice[i] = slice[slice.len() - 1];
        self.len -= 1;
        item
    }

    #[inline]
    pub fn as_slice(&self) -> &[MoveItem] {
        // SAFETY: the first `len` slots were written by `new` (and `remove` only shortens the
        // prefix); `MaybeUninit<MoveItem>` has the same layout as `MoveItem`.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr().cast::<MoveItem>(), self.len) }
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [MoveItem] {
        // SAFETY: as in `as_slice`; the borrow of `self` is exclusive.
        unsafe {
            std::slice::from_raw_parts_mut(self.items.as_mut_ptr().cast::<MoveItem>(), self.len)
        }
    }

    /// Sorts by value, best first; equal values keep square order (deterministic).
    #[inline]
    pub fn sort(&mut self) {
        // Insertion sort: lists are short and often nearly sorted.
        let items = self.as_mut_slice();
        for i in 1..items.len() {
            let x = items[i];
            let mut j = i;
            while j > 0 && items[j - 1].value < x.value {
                items[j] = items[j - 1];
                j -= 1;
            }
            items[j] = x;
        }
    }
}

/// Weighted number of replies: every legal move of `player`, corners twice.
#[inline]
pub(crate) fn weighted_mobility(player: u64, opponent: u64) -> i32 {
    let m = legal_moves(player, opponent);
    (m.count_ones() + (m & CORNERS).count_ones()) as i32
}

/// Fastest-first values: fewer opponent replies is better; odd-region moves and a stored best
/// move (`hint`) go earlier.
#[inline]
pub(crate) fn fastest_first(list: &mut MoveList, player: u64, opponent: u64, hint: Option<u8>) {
    let odd = odd_quadrants(!(player | opponent));
    for item in list.as_mut_slice() {
        let (cp, co) = item.child(player, opponent);
        let mut v = -16 * weighted_mobility(cp, co);
        if odd & (1u64 << item.sq) != 0 {
            v += 4;
        }
        if (1u64 << item.sq) & CORNERS != 0 {
            v += 2;
        }
        // Corners we hold after the move (stable discs to build on): about 5% fewer nodes.
        v += 8 * (co & CORNERS).count_ones() as i32;
        // Fewer empties next to our discs (the opponent's potential mobility): a tie-breaker.
        v -= 2 * (neighbours(co) & !(cp | co)).count_ones() as i32;
        if Some(item.sq) == hint {
            v += 1 << 20;
        }
        item.value = v;
    }
    list.sort();
}

#[cfg(test)]
mod tests {
    use super::*;
    use virada_rules::Board;

    /// A list filled in place holds exactly the moves of the position it was last filled for,
    /// in square order, with their flips (a reused list keeps nothing of its earlier moves).
    #[test]
    fn a_filled_list_holds_exactly_the_moves_and_their_flips() {
        let mut list = MoveList::empty();
        assert_eq!(list.len, 0);
        let mut b = Board::start();
        let mut s = 0x1234_5678_9ABC_DEF1u64;
        let mut seen_lengths = 0u64;
        while !b.is_game_over() {
            let moves = legal_moves(b.player, b.opponent);
            if moves == 0 {
                b = b.pass();
                continue;
            }
            list.fill(b.player, b.opponent, moves);
            assert_eq!(list.len, moves.count_ones() as usize);
            let mut m = moves;
            for item in list.as_slice() {
                assert_eq!(item.sq as u32, m.trailing_zeros());
                m &= m - 1;
                assert_eq!(item.flips, flips(b.player, b.opponent, item.sq as usize));
                assert_eq!(item.value, 0);
            }
            let fresh = MoveList::new(b.player, b.opponent, moves);
            let squares = |l: &MoveList| {
                l.as_slice()
                    .iter()
                    .map(|i| (i.sq, i.flips))
                    .collect::<Vec<_>>()
            };
            assert_eq!(squares(&fresh), squares(&list));
            seen_lengths |= 1 << list.len;
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let pick = list.as_slice()[(s % list.len as u64) as usize].sq;
            b = b.play_unchecked(virada_rules::Square::from_index_unchecked(pick));
        }
        // Lists both grew and shrank from one fill to the next.
        assert!(seen_lengths.count_ones() >= 4, "{seen_lengths:#b}");
    }
}
