//! The gen3 pattern set (set id [`SET_ID`]): 16 shapes of up to 10 squares, 72 instances under
//! the board symmetries, 30 phases of two empties, and two cheap global features (parity of
//! the empties, mobility of both sides).
//!
//! A pattern is a square mask at its canonical place near a1; its digits are its squares in
//! **decreasing** square order (digit `k` weighs `3^k`, cell 0 = empty, 1 = side to move, 2 =
//! other side), so the squares far from a1, which change more often in a search than the
//! corner and its edges, take the low digits and successive evaluations read nearby table
//! entries (cachegrind, `bench search` depth 12: 24% fewer first-level data misses than the
//! increasing order of set 3, which is read and reordered on load, see [`DigitOrder`]). Its instances are the distinct images of the mask under the 8 symmetries, in
//! [`Symmetry::ALL`] order, first symmetry kept; instance `s` reads the board transformed by
//! `s⁻¹` at the canonical mask, so the digit order follows the symmetry. All instances of a
//! pattern share one weight table.
//!
//! ```
//! use virada_engine::eval::gen3::patterns::{indices, NUM_INSTANCES, PATTERNS};
//! use virada_rules::Board;
//! let f = indices(&Board::start());
//! assert_eq!(f.len(), NUM_INSTANCES);
//! assert_eq!(PATTERNS.len(), 16);
//! ```

use std::sync::OnceLock;
use virada_rules::{Board, Symmetry};

/// Identifies this pattern set, its phases, global features and digit order in weight files.
pub const SET_ID: u32 = 5;

/// The earlier id of the same set with its digits in increasing square order; such files are
/// read and their tables reordered ([`DigitOrder::Increasing`]).
pub const INCREASING_SET_ID: u32 = 3;

/// The order of a pattern's squares as base-3 digits (digit 0 first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DigitOrder {
    /// Decreasing square index: the current order ([`SET_ID`]).
    Decreasing,
    /// Increasing square index: files of set [`INCREASING_SET_ID`].
    Increasing,
}

/// Number of phases: one per two empties (1-2 → 0, 3-4 → 1, …, 59-60 → 29).
pub const NUM_PHASES: usize = 30;

/// The phase of a board with `empties` empty squares (finished boards share phase 0).
#[inline]
pub const fn phase_of_empties(empties: u32) -> usize {
    let e = if empties == 0 { 0 } else { empties - 1 };
    let p = (e / 2) as usize;
    if p >= NUM_PHASES {
        NUM_PHASES - 1
    } else {
        p
    }
}

/// One pattern: a name and its squares as a mask (bit 0 = a1) at the canonical place.
#[derive(Debug)]
pub struct Pattern {
    pub name: &'static str,
    pub mask: u64,
}

impl Pattern {
    /// Number of squares (digits).
    pub const fn len(&self) -> usize {
        self.mask.count_ones() as usize
    }

    /// Whether the pattern has no squares (never true for the shipped set).
    pub const fn is_empty(&self) -> bool {
        self.mask == 0
    }

    /// Number of configurations, `3^len`.
    pub const fn size(&self) -> usize {
        3usize.pow(self.mask.count_ones())
    }

    /// The squares in digit order.
    pub fn squares(&self) -> Vec<u8> {
        self.squares_in(DigitOrder::Decreasing)
    }

    /// The squares in the digit order `order`.
    pub fn squares_in(&self, order: DigitOrder) -> Vec<u8> {
        let increasing = (0..64u8).filter(|&s| self.mask >> s & 1 != 0);
        match order {
            DigitOrder::Increasing => increasing.collect(),
            DigitOrder::Decreasing => increasing.rev().collect(),
        }
    }

    /// The index in the other digit order of the configuration whose index is `index`
    /// (reversing the order of the digits maps one order onto the other, both ways).
    pub fn reorder_index(&self, index: usize) -> usize {
        let (mut v, mut r) = (index, 0);
        for _ in 0..self.len() {
            r = r * 3 + v % 3;
            v /= 3;
        }
        r
    }

    /// The symmetries giving the distinct instances, in [`Symmetry::ALL`] order.
    pub fn instances(&self) -> Vec<Symmetry> {
        let mut seen = Vec::new();
        let mut out = Vec::new();
        for s in Symmetry::ALL {
            let m = s.apply(self.mask);
            if !seen.contains(&m) {
                seen.push(m);
                out.push(s);
            }
        }
        out
    }
}

/// Builds a mask from square names (`"a1"` …): compile-time helper.
const fn sq(name: &str) -> u64 {
    let b = name.as_bytes();
    1u64 << ((b[0] - b'a') as u32 + 8 * (b[1] - b'1') as u32)
}

macro_rules! mask {
    ($($s:literal),* $(,)?) => { 0 $(| sq($s))* };
}

/// The 16 patterns, in weight-table order.
pub const PATTERNS: [Pattern; 16] = [
    Pattern {
        name: "edge+2X",
        mask: mask!("a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "b2", "g2"),
    },
    Pattern {
        name: "corner3x3",
        mask: mask!("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"),
    },
    Pattern {
        name: "corner2x5",
        mask: mask!("a1", "b1", "c1", "d1", "e1", "a2", "b2", "c2", "d2", "e2"),
    },
    Pattern {
        name: "triangle",
        mask: mask!("a1", "b1", "c1", "d1", "a2", "b2", "c2", "a3", "b3", "a4"),
    },
    Pattern {
        name: "edge-block",
        mask: mask!("a1", "c1", "d1", "e1", "f1", "h1", "c2", "d2", "e2", "f2"),
    },
    Pattern {
        name: "row2+corners",
        mask: mask!("a1", "h1", "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2"),
    },
    Pattern {
        name: "row3",
        mask: mask!("a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3"),
    },
    Pattern {
        name: "row4",
        mask: mask!("a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4"),
    },
    Pattern {
        name: "diag8+b1a2",
        mask: mask!("a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8", "b1", "a2"),
    },
    Pattern {
        name: "diag7+corners",
        mask: mask!("a1", "b1", "c2", "d3", "e4", "f5", "g6", "h7", "h8"),
    },
    Pattern {
        name: "diag6",
        mask: mask!("c1", "d2", "e3", "f4", "g5", "h6"),
    },
    Pattern {
        name: "diag5+diag4",
        mask: mask!("d1", "e2", "f3", "g4", "h5", "e1", "f2", "g3", "h4"),
    },
    Pattern {
        name: "x-line",
        mask: mask!("a1", "b1", "a2", "b2", "c2", "b3", "c3", "d3", "c4", "d4"),
    },
    Pattern {
        name: "band2x5",
        mask: mask!("a2", "b2", "c2", "d2", "e2", "a3", "b3", "c3", "d3", "e3"),
    },
    Pattern {
        name: "wing",
        mask: mask!("a1", "b1", "c1", "d1", "e1", "b2", "a2", "a3", "a4", "a5"),
    },
    Pattern {
        name: "centre-block",
        mask: mask!("c3", "d3", "e3", "f3", "c4", "d4", "e4", "f4"),
    },
];

/// Instances of each pattern (checked against [`Pattern::instances`] by tests).
pub const INSTANCES_PER_PATTERN: [usize; 16] = [4, 4, 8, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 8, 4, 4];

/// All instances on a board.
pub const NUM_INSTANCES: usize = 72;

/// Entries of the parity table (empties even / odd).
pub const PARITY_SIZE: usize = 2;
/// Entries of each mobility table (number of legal moves, capped at `MOBILITY_SIZE - 1`).
pub const MOBILITY_SIZE: usize = 32;

/// Offset of each pattern's table inside a phase; entry 16 is where the global tables start.
pub const TABLE_OFFSETS: [usize; 17] = {
    let mut o = [0usize; 17];
    let mut i = 0;
    while i < PATTERNS.len() {
        o[i + 1] = o[i] + PATTERNS[i].size();
        i += 1;
    }
    o
};
/// Offset of the parity table inside a phase.
pub const PARITY_OFFSET: usize = TABLE_OFFSETS[16];
/// Offset of the side to move's mobility table.
pub const MOBILITY_OFFSET: usize = PARITY_OFFSET + PARITY_SIZE;
/// Offset of the other side's mobility table.
pub const OPP_MOBILITY_OFFSET: usize = MOBILITY_OFFSET + MOBILITY_SIZE;
/// Weights of one phase.
pub const WEIGHTS_PER_PHASE: usize = OPP_MOBILITY_OFFSET + MOBILITY_SIZE;

/// The pattern of each instance.
pub const INSTANCE_PATTERN: [u8; NUM_INSTANCES] = {
    let mut out = [0u8; NUM_INSTANCES];
    let mut k = 0;
    let mut p = 0;
    while p < INSTANCES_PER_PATTERN.len() {
        let mut i = 0;
        while i < INSTANCES_PER_PATTERN[p] {
            out[k] = p as u8;
            k += 1;
            i += 1;
        }
        p += 1;
    }
    out
};

/// Offset of each instance's table inside a phase.
pub const INSTANCE_OFFSETS: [u32; NUM_INSTANCES] = {
    let mut o = [0u32; NUM_INSTANCES];
    let mut k = 0;
    while k < NUM_INSTANCES {
        o[k] = TABLE_OFFSETS[INSTANCE_PATTERN[k] as usize] as u32;
        k += 1;
    }
    o
};

/// Base-3 index of every instance, in pattern order.
pub type Indices = [u16; NUM_INSTANCES];

/// `BIN_TO_TERNARY[n][b]`: bit `k` of `b` (the `k`-th lowest square of an `n`-square
/// pattern) becomes `3^(n-1-k)`, its digit's weight in decreasing square order.
static BIN_TO_TERNARY: [[u16; 1024]; 11] = {
    let mut t = [[0u16; 1024]; 11];
    let mut n = 0;
    while n <= 10 {
        let mut b = 0;
        while b < 1024 {
            let mut v = 0u32;
            let mut k = 0;
            while k < n {
                v = v * 3 + ((b >> k) & 1) as u32;
                k += 1;
            }
            t[n][b] = v as u16;
            b += 1;
        }
        n += 1;
    }
    t
};

/// For each instance: which image of the board it reads (index into [`Symmetry::ALL`]) and the
/// canonical mask.
fn instance_table() -> &'static [(u8, u64); NUM_INSTANCES] {
    static T: OnceLock<[(u8, u64); NUM_INSTANCES]> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = [(0u8, 0u64); NUM_INSTANCES];
        let mut k = 0;
        for p in PATTERNS.iter() {
            for s in p.instances() {
                let i = Symmetry::ALL.iter().position(|x| *x == s).unwrap_or(0);
                t[k] = (i as u8, p.mask);
                k += 1;
            }
        }
        t
    })
}

/// The bits of `x` under `mask`, packed in increasing square order (BMI2 `pext` when the build
/// has it).
#[inline(always)]
pub fn gather(x: u64, mask: u64) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the `bmi2` target feature is enabled at compile time (cfg above), so the
        // instruction exists on every machine this code runs on.
        unsafe { core::arch::x86_64::_pext_u64(x, mask) as usize }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        gather_portable(x, mask)
    }
}

/// [`gather`] without BMI2 (and its reference in tests).
#[inline]
pub fn gather_portable(x: u64, mut mask: u64) -> usize {
    let mut out = 0usize;
    let mut bit = 0;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if x & low != 0 {
            out |= 1 << bit;
        }
        bit += 1;
        mask &= mask - 1;
    }
    out
}

/// The 8 images of a bitboard, image `i` transformed by the inverse of `Symmetry::ALL[i]`.
#[inline]
fn images(b: u64) -> [u64; 8] {
    Symmetry::ALL.map(|s| s.inverse().apply(b))
}

/// The indices of every instance of `board` from scratch (side to move = digit 1).
#[inline]
pub fn indices(board: &Board) -> Indices {
    let pi = images(board.player);
    let oi = images(board.opponent);
    let t = instance_table();
    let mut out = [0u16; NUM_INSTANCES];
    for (o, &(img, mask)) in out.iter_mut().zip(t.iter()) {
        let (p, q) = (pi[img as usize], oi[img as usize]);
        let t = &BIN_TO_TERNARY[mask.count_ones() as usize];
        *o = t[gather(p, mask)] + 2 * t[gather(q, mask)];
    }
    out
}

/// One instance's index square by square (slow reference for tests and tools).
pub fn instance_index_slow(board: &Board, pattern: &Pattern, sym: Symmetry) -> u16 {
    instance_index_slow_in(board, pattern, sym, DigitOrder::Decreasing)
}

/// [`instance_index_slow`] with the digits in the order `order`.
pub fn instance_index_slow_in(
    board: &Board,
    pattern: &Pattern,
    sym: Symmetry,
    order: DigitOrder,
) -> u16 {
    let mut idx = 0u32;
    for &s in pattern.squares_in(order).iter().rev() {
        let bit = sym.apply(1u64 << s);
        let cell = if board.player & bit != 0 {
            1
        } else if board.opponent & bit != 0 {
            2
        } else {
            0
        };
        idx = idx * 3 + cell;
    }
    idx as u16
}

/// For each pattern, index → the smallest index of the same configuration read through a
/// symmetry that maps the pattern's squares onto themselves; the fit ties such entries.
pub fn tie_maps() -> &'static [Vec<u16>; 16] {
    tie_maps_in(DigitOrder::Decreasing)
}

/// [`tie_maps`] for the digit order `order`.
pub fn tie_maps_in(order: DigitOrder) -> &'static [Vec<u16>; 16] {
    static DECREASING: OnceLock<[Vec<u16>; 16]> = OnceLock::new();
    static INCREASING: OnceLock<[Vec<u16>; 16]> = OnceLock::new();
    let cell = match order {
        DigitOrder::Decreasing => &DECREASING,
        DigitOrder::Increasing => &INCREASING,
    };
    cell.get_or_init(|| std::array::from_fn(|p| build_tie_map(&PATTERNS[p], order)))
}

/// The tie map of `p` in the digit order `order` (see [`tie_maps`]).
///
/// Walks the indices in increasing order like an odometer, updating the index of each image
/// (one per self-symmetry) by the digits that changed: about two digit updates per index
/// instead of decoding every index digit by digit (the whole set in about 2 ms instead of
/// 20-30 ms, at every start of the program).
pub(crate) fn build_tie_map(p: &Pattern, order: DigitOrder) -> Vec<u16> {
    let squares = p.squares_in(order);
    let n = squares.len();
    let mut pow = vec![1usize; n];
    for k in 1..n {
        pow[k] = pow[k - 1] * 3;
    }
    // For each symmetry mapping the pattern's squares onto themselves (the identity aside):
    // the weight, in the image's index, of each digit (`pow` of the digit that the square's
    // image occupies).
    let weights: Vec<Vec<usize>> = Symmetry::ALL
        .iter()
        .filter(|s| s.apply(p.mask) == p.mask && !is_identity(**s, p.mask))
        .map(|s| {
            squares
                .iter()
                .map(|&q| {
                    let img = s.apply(1u64 << q).trailing_zeros() as u8;
                    pow[squares.iter().position(|&x| x == img).unwrap_or(0)]
                })
                .collect()
        })
        .collect();
    let mut digits = vec![0u8; n];
    let mut images = vec![0usize; weights.len()];
    let mut map = Vec::with_capacity(p.size());
    for idx in 0..p.size() {
        map.push(images.iter().fold(idx, |best, &img| best.min(img)) as u16);
        // Next index: add one to digit 0, carrying.
        for k in 0..n {
            if digits[k] < 2 {
                digits[k] += 1;
                for (img, w) in images.iter_mut().zip(&weights) {
                    *img += w[k];
                }
                break;
            }
            digits[k] = 0;
            for (img, w) in images.iter_mut().zip(&weights) {
                *img -= 2 * w[k];
            }
        }
    }
    map
}

/// Whether `s` leaves every square of `mask` in place.
fn is_identity(s: Symmetry, mask: u64) -> bool {
    let mut m = mask;
    while m != 0 {
        let bit = m & m.wrapping_neg();
        if s.apply(bit) != bit {
            return false;
        }
        m &= m - 1;
    }
    true
}

/// The global features' offsets inside a phase for `board` whose legal moves are `moves`
/// (parity, own mobility, other side's mobility).
#[inline]
pub fn global_offsets(board: &Board, moves: u64) -> [usize; 3] {
    debug_assert_eq!(moves, board.moves());
    let own = (moves.count_ones() as usize).min(MOBILITY_SIZE - 1);
    let opp = (board.pass().moves().count_ones() as usize).min(MOBILITY_SIZE - 1);
    [
        PARITY_OFFSET + (board.empty_count() & 1) as usize,
        MOBILITY_OFFSET + own,
        OPP_MOBILITY_OFFSET + opp,
    ]
}
