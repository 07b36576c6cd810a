//! Incremental gen3 indices (copy-make): both
//! sides' views of the 72 instance indices, padded to 80 lanes so an update is a few whole
//! vector additions per changed square (the compiler vectorises the fixed-length loops).
//!
//! ```
//! use virada_engine::eval::gen3::patterns::indices;
//! use virada_engine::eval::gen3::state::Gen3State;
//! use virada_rules::Board;
//! let b = Board::start();
//! let sq = "f5".parse().unwrap();
//! let next = Gen3State::new(&b).play(sq, b.flips(sq).0);
//! assert_eq!(next.indices(), &indices(&b.play_unchecked(sq)));
//! ```

use super::patterns::{indices, Indices, NUM_INSTANCES, PATTERNS};
use std::sync::OnceLock;
use virada_rules::{Board, Square};

/// [`NUM_INSTANCES`] rounded up to a multiple of 16 lanes.
pub const LANES: usize = NUM_INSTANCES.div_ceil(16) * 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
struct Lanes([u16; LANES]);

/// For each square, the change of every instance index when the square goes from digit 0 to
/// digit 1 (`3^digit` in the instances containing it, 0 elsewhere).
fn square_deltas() -> &'static [Lanes; 64] {
    static TABLE: OnceLock<[Lanes; 64]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [Lanes([0; LANES]); 64];
        let mut k = 0usize;
        for p in PATTERNS.iter() {
            for sym in p.instances() {
                for (digit, &s) in p.squares().iter().enumerate() {
                    let img = sym.apply(1u64 << s).trailing_zeros() as usize;
                    t[img].0[k] = 3u16.pow(digit as u32);
                }
                k += 1;
            }
        }
        t
    })
}

/// Instance indices of a position from both sides' points of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gen3State {
    mover: Lanes,
    other: Lanes,
}

fn padded(f: &Indices) -> Lanes {
    let mut l = Lanes([0; LANES]);
    l.0[..NUM_INSTANCES].copy_from_slice(f);
    l
}

#[inline]
fn add_flips(lanes: &mut [u16; LANES], flips: u64, t: &[Lanes; 64]) {
    let mut f = flips;
    while f != 0 {
        let d = &t[f.trailing_zeros() as usize].0;
        f &= f - 1;
        for (a, &b) in lanes.iter_mut().zip(d.iter()) {
            *a = a.wrapping_add(b);
        }
    }
}

impl Gen3State {
    /// The state of `board` from scratch.
    pub fn new(board: &Board) -> Gen3State {
        Gen3State {
            mover: padded(&indices(board)),
            other: padded(&indices(&board.pass())),
        }
    }

    /// The side to move's indices.
    #[inline]
    pub fn indices(&self) -> &Indices {
        self.mover.0[..NUM_INSTANCES]
            .try_into()
            .expect("LANES >= NUM_INSTANCES")
    }

    /// The state after the side to move plays `sq` flipping `flips`.
    #[inline]
    pub fn play(&self, sq: Square, flips: u64) -> Gen3State {
        let t = square_deltas();
        // Flipped squares go from digit 2 to 1 in the mover's view and 1 to 2 in the other's;
        // arithmetic wraps in between, the final indices are in range.
        let mut flipped = [0u16; LANES];
        add_flips(&mut flipped, flips, t);
        let placed = &t[sq.index()].0;
        let mut mover = Lanes([0; LANES]);
        let mut other = Lanes([0; LANES]);
        for k in 0..LANES {
            other.0[k] = self.mover.0[k]
                .wrapping_add(placed[k])
                .wrapping_sub(flipped[k]);
            mover.0[k] = self.other.0[k]
                .wrapping_add(placed[k].wrapping_mul(2))
                .wrapping_add(flipped[k]);
        }
        Gen3State { mover, other }
    }

    /// The new side to move's indices after `play(sq, flips)`, without the other view.
    #[inline]
    pub fn indices_after(&self, sq: Square, flips: u64) -> Indices {
        let t = square_deltas();
        let mut lanes = self.other;
        add_flips(&mut lanes.0, flips, t);
        for (a, &b) in lanes.0.iter_mut().zip(t[sq.index()].0.iter()) {
            *a = a.wrapping_add(b.wrapping_mul(2));
        }
        lanes.0[..NUM_INSTANCES]
            .try_into()
            .expect("LANES >= NUM_INSTANCES")
    }

    /// The state after a pass.
    #[inline]
    pub fn pass(&self) -> Gen3State {
        Gen3State {
            mover: self.other,
            other: self.mover,
        }
    }
}
