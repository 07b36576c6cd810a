//! Incremental pattern indices: updated as moves are made (copy-make), so a search can evaluate
//! its leaves without recomputing the 46 base-3 indices from the bitboards.
//!
//! A [`PatternState`] keeps two views of every instance index: the side to move's (digit 1 = its
//! discs, as [`features`] computes) and the other side's (digit 1 = the other side's discs).
//! A move changes the placed square and the flipped squares; each square belongs to at most
//! [`MAX_INSTANCES_PER_SQUARE`] instances, whose indices change by `±3^digit` in each view.
//! Then the two views swap, because the other side is now to move. Undo is free: keep the
//! parent's state (it is 184 bytes).
//!
//! ```
//! use virada_engine::eval::pattern::features;
//! use virada_engine::eval::pattern_state::PatternState;
//! use virada_rules::Board;
//! let b = Board::start();
//! let sq = "f5".parse().unwrap();
//! let flips = b.flips(sq).0;
//! let next = PatternState::new(&b).play(sq, flips);
//! assert_eq!(next.indices(), &features(&b.play_unchecked(sq)));
//! ```

use crate::eval::pattern::{features, PatternIndices, NUM_INSTANCES, PATTERNS};
use std::sync::OnceLock;
use virada_rules::{Board, Square};

/// The most pattern instances any one square belongs to.
pub const MAX_INSTANCES_PER_SQUARE: usize = 10;

/// For each square: (instance, 3^digit) pairs, and how many are used.
struct SquareTable {
    entries: [[(u8, u16); MAX_INSTANCES_PER_SQUARE]; 64],
    len: [u8; 64],
}

fn square_table() -> &'static SquareTable {
    static TABLE: OnceLock<SquareTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = SquareTable {
            entries: [[(0, 0); MAX_INSTANCES_PER_SQUARE]; 64],
            len: [0; 64],
        };
        let mut k = 0u8;
        for pattern in PATTERNS.iter() {
            for sym in pattern.instances() {
                for (digit, &sq) in pattern.squares.iter().enumerate() {
                    let img = sym.apply(1u64 << sq).trailing_zeros() as usize;
                    let n = t.len[img] as usize;
                    // The pattern set puts at most MAX_INSTANCES_PER_SQUARE instances on a
                    // square (checked by tests), so `n` stays in range.
                    t.entries[img][n.min(MAX_INSTANCES_PER_SQUARE - 1)] =
                        (k, 3u16.pow(digit as u32));
                    t.len[img] = (n + 1).min(MAX_INSTANCES_PER_SQUARE) as u8;
                }
                k += 1;
            }
        }
        t
    })
}

/// Pattern indices of a position in both views; see the module documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PatternState {
    mover: PatternIndices,
    other: PatternIndices,
}

impl PatternState {
    /// The state of `board` computed from scratch.
    pub fn new(board: &Board) -> PatternState {
        PatternState {
            mover: features(board),
            other: features(&board.pass()),
        }
    }

    /// The indices for the side to move (what [`features`] returns for the board).
    #[inline]
    pub fn indices(&self) -> &PatternIndices {
        &self.mover
    }

    /// The state after the side to move plays `sq`, flipping `flips` (from
    /// `virada_rules::movegen::flips`).
    #[inline]
    pub fn play(&self, sq: Square, flips: u64) -> PatternState {
        let t = square_table();
        let mut mover = self.mover;
        let mut other = self.other;
        let s = sq.index();
        for &(k, p) in &t.entries[s][..t.len[s] as usize] {
            mover[k as usize] += p; // empty -> own disc (digit 1)
            other[k as usize] += 2 * p; // empty -> the other side's disc (digit 2)
        }
        let mut f = flips;
        while f != 0 {
            let s = f.trailing_zeros() as usize;
            f &= f - 1;
            for &(k, p) in &t.entries[s][..t.len[s] as usize] {
                mover[k as usize] -= p; // digit 2 -> 1
                other[k as usize] += p; // digit 1 -> 2
            }
        }
        PatternState {
            mover: other,
            other: mover,
        }
    }

    /// The state after a pass.
    #[inline]
    pub fn pass(&self) -> PatternState {
        PatternState {
            mover: self.other,
            other: self.mover,
        }
    }
}

/// Number of instances each square belongs to (for documentation and tests).
pub fn instances_per_square() -> [usize; 64] {
    let t = square_table();
    let mut out = [0usize; 64];
    for (o, &n) in out.iter_mut().zip(t.len.iter()) {
        *o = n as usize;
    }
    out
}

const _: () = assert!(NUM_INSTANCES <= u8::MAX as usize);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_square_overflows_the_table() {
        let mut count = [0usize; 64];
        for pattern in PATTERNS.iter() {
            for sym in pattern.instances() {
                for &sq in pattern.squares {
                    count[sym.apply(1u64 << sq).trailing_zeros() as usize] += 1;
                }
            }
        }
        assert!(
            count.iter().all(|&n| n <= MAX_INSTANCES_PER_SQUARE),
            "{count:?}"
        );
        assert_eq!(count, instances_per_square());
    }

    #[test]
    fn incremental_matches_scratch_along_random_games() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..40 {
            let mut b = Board::start();
            let mut st = PatternState::new(&b);
            loop {
                let m = b.moves();
                if m == 0 {
                    if b.is_game_over() {
                        break;
                    }
                    b = b.pass();
                    st = st.pass();
                    assert_eq!(st, PatternState::new(&b));
                    continue;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let mut pick = m;
                for _ in 0..(seed % m.count_ones() as u64) {
                    pick &= pick - 1;
                }
                let sq = Square::from_index(pick.trailing_zeros() as u8);
                let flips = b.flips(sq).0;
                st = st.play(sq, flips);
                b = b.play_unchecked(sq);
                assert_eq!(st, PatternState::new(&b));
            }
        }
    }
}
