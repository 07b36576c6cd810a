//! Incremental pattern indices: updated as moves are made (copy-make), so a search can evaluate
//! its leaves without recomputing the 46 base-3 indices from the bitboards.
//!
//! A [`PatternState`] keeps two views of every instance index: the side to move's (digit 1 = its
//! discs, as [`features`] computes) and the other side's (digit 1 = the other side's discs).
//! A move changes the placed square and the flipped squares; each square belongs to at most
//! [`MAX_INSTANCES_PER_SQUARE`] instances, whose indices change by `±3^digit` in each view.
//! Then the two views swap, because the other side is now to move. Undo is free: keep the
//! parent's state (it is 192 bytes: the indices are padded to whole vectors, so an update
//! is a few vector additions per changed square).
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

/// [`NUM_INSTANCES`] rounded up to a multiple of 16, so an update is a few whole vector
/// additions (the padding lanes stay 0).
const LANES: usize = NUM_INSTANCES.div_ceil(16) * 16;

/// One index per lane (instance), padded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
struct Lanes([u16; LANES]);

/// For each square: the change of every instance index when that square goes from digit 0 to
/// digit 1 (`3^digit` for the instances containing it, 0 elsewhere).
fn square_deltas() -> &'static [Lanes; 64] {
    static TABLE: OnceLock<[Lanes; 64]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [Lanes([0; LANES]); 64];
        let mut k = 0usize;
        for pattern in PATTERNS.iter() {
            for sym in pattern.instances() {
                for (digit, &sq) in pattern.squares.iter().enumerate() {
                    let img = sym.apply(1u64 << sq).trailing_zeros() as usize;
                    t[img].0[k] = 3u16.pow(digit as u32);
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
    mover: Lanes,
    other: Lanes,
}

fn padded(f: &PatternIndices) -> Lanes {
    let mut l = Lanes([0; LANES]);
    l.0[..NUM_INSTANCES].copy_from_slice(f);
    l
}

impl PatternState {
    /// The state of `board` computed from scratch.
    pub fn new(board: &Board) -> PatternState {
        PatternState {
            mover: padded(&features(board)),
            other: padded(&features(&board.pass())),
        }
    }

    /// The indices for the side to move (what [`features`] returns for the board).
    #[inline]
    pub fn indices(&self) -> &PatternIndices {
        self.mover.0[..NUM_INSTANCES]
            .try_into()
            .expect("LANES >= NUM_INSTANCES")
    }

    /// The state after the side to move plays `sq`, flipping `flips` (from
    /// `virada_rules::movegen::flips`).
    #[inline]
    pub fn play(&self, sq: Square, flips: u64) -> PatternState {
        let t = square_deltas();
        // Sum of the deltas of the flipped squares: each goes from digit 2 to 1 in the mover's
        // view and from 1 to 2 in the other's. Arithmetic wraps modulo 2^16 in between; the
        // final indices are in range.
        let mut flipped = [0u16; LANES];
        let mut f = flips;
        while f != 0 {
            let d = &t[f.trailing_zeros() as usize].0;
            f &= f - 1;
            for (a, &b) in flipped.iter_mut().zip(d.iter()) {
                *a = a.wrapping_add(b);
            }
        }
        let placed = &t[sq.index()].0;
        let mut mover = Lanes([0; LANES]);
        let mut other = Lanes([0; LANES]);
        for k in 0..LANES {
            // The placed square: empty -> own disc (digit 1) for the mover, -> the other
            // side's disc (digit 2) for the other side. Then the views swap.
            other.0[k] = self.mover.0[k]
                .wrapping_add(placed[k])
                .wrapping_sub(flipped[k]);
            mover.0[k] = self.other.0[k]
                .wrapping_add(placed[k].wrapping_mul(2))
                .wrapping_add(flipped[k]);
        }
        PatternState { mover, other }
    }

    /// The indices for the side to move after `play(sq, flips)`, without the other view
    /// (what a leaf of a search needs).
    #[inline]
    pub fn indices_after(&self, sq: Square, flips: u64) -> PatternIndices {
        let t = square_deltas();
        // As in `play`: the new mover is the other side, whose placed disc is digit 2 and
        // whose flipped discs go from 1 to 2.
        let mut lanes = self.other;
        let mut f = flips;
        while f != 0 {
            let d = &t[f.trailing_zeros() as usize].0;
            f &= f - 1;
            for (a, &b) in lanes.0.iter_mut().zip(d.iter()) {
                *a = a.wrapping_add(b);
            }
        }
        let placed = &t[sq.index()].0;
        for (a, &b) in lanes.0.iter_mut().zip(placed.iter()) {
            *a = a.wrapping_add(b.wrapping_mul(2));
        }
        lanes.0[..NUM_INSTANCES]
            .try_into()
            .expect("LANES >= NUM_INSTANCES")
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
    let t = square_deltas();
    let mut out = [0usize; 64];
    for (o, d) in out.iter_mut().zip(t.iter()) {
        *o = d.0.iter().filter(|&&p| p != 0).count();
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
                let sq = Square::lowest_of(pick);
                let flips = b.flips(sq).0;
                let after = st.indices_after(sq, flips);
                st = st.play(sq, flips);
                b = b.play_unchecked(sq);
                assert_eq!(st, PatternState::new(&b));
                assert_eq!(&after, st.indices());
            }
        }
    }
}
