//! The pattern set of the trained evaluation: which squares each pattern covers, how a board is
//! turned into one base-3 index per pattern instance, and the game phases.
//!
//! A *pattern* is an ordered list of squares defined once, near the a1 corner. Its *instances* are
//! its distinct images under the 8 board symmetries (a corner 3×3 has 4, a 2×5 corner block 8),
//! and all instances of a pattern share one weight table, so what is learnt in one corner is known
//! in the other three. An instance's index is `Σ 3^k · cell(k)` over its squares in order, with
//! cell 0 = empty, 1 = a disc of the side to move, 2 = a disc of the other side.
//!
//! Extraction works on symmetric images of the board: instance `i` of a pattern with symmetry `s`
//! covers squares `s(c_k)`, which is square `c_k` of the board transformed by `s⁻¹`. Every pattern
//! is read at its canonical place with a few shifts, masks and one multiply, and binary bits
//! become base-3 digits through a 1024-entry table.
//!
//! ```
//! use virada_engine::eval::pattern::{features, NUM_INSTANCES, PATTERNS};
//! use virada_rules::Board;
//! let f = features(&Board::start());
//! assert_eq!(f.len(), NUM_INSTANCES);
//! assert_eq!(PATTERNS.iter().map(|p| p.instances().len()).sum::<usize>(), NUM_INSTANCES);
//! ```

use std::sync::OnceLock;
use virada_rules::{Board, Symmetry};

/// Number of game phases; each has its own weights.
pub const NUM_PHASES: usize = 15;

/// The phase of a board with `empties` empty squares: buckets of 4 empties (1-4 → 0, 5-8 → 1, …,
/// 57-60 → 14). Finished boards (0 empties) share phase 0.
#[inline]
pub const fn phase_of_empties(empties: u32) -> usize {
    let e = if empties == 0 { 0 } else { empties - 1 };
    let p = (e / 4) as usize;
    if p >= NUM_PHASES {
        NUM_PHASES - 1
    } else {
        p
    }
}

/// One pattern: a name and its squares in digit order (digit `k` has weight `3^k`).
#[derive(Debug)]
pub struct Pattern {
    /// Short name used in documentation and reports.
    pub name: &'static str,
    /// Square indices (a1 = 0) at the canonical place, digit 0 first.
    pub squares: &'static [u8],
}

impl Pattern {
    /// Number of squares.
    pub const fn len(&self) -> usize {
        self.squares.len()
    }

    /// Whether the pattern has no squares (never true for the shipped set).
    pub const fn is_empty(&self) -> bool {
        self.squares.is_empty()
    }

    /// Number of distinct configurations, `3^len`.
    pub const fn size(&self) -> usize {
        3usize.pow(self.squares.len() as u32)
    }

    /// Bitmask of the canonical squares.
    pub fn mask(&self) -> u64 {
        self.squares.iter().fold(0, |m, &s| m | (1u64 << s))
    }

    /// The symmetries that give this pattern's distinct instances (first one wins when two
    /// symmetries cover the same squares).
    pub fn instances(&self) -> Vec<Symmetry> {
        let mut seen: Vec<u64> = Vec::new();
        let mut out = Vec::new();
        for s in Symmetry::ALL {
            let m = s.apply(self.mask());
            if !seen.contains(&m) {
                seen.push(m);
                out.push(s);
            }
        }
        out
    }
}

/// The pattern set (set id [`PATTERN_SET_ID`]). The order is the order of weight tables in a
/// phase and of [`PatternIndices`].
pub const PATTERNS: [Pattern; 11] = [
    Pattern {
        name: "corner3x3",
        squares: &[0, 1, 2, 8, 9, 10, 16, 17, 18],
    },
    Pattern {
        name: "corner2x5",
        squares: &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12],
    },
    Pattern {
        name: "edge+2X",
        squares: &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14],
    },
    Pattern {
        name: "row2",
        squares: &[8, 9, 10, 11, 12, 13, 14, 15],
    },
    Pattern {
        name: "row3",
        squares: &[16, 17, 18, 19, 20, 21, 22, 23],
    },
    Pattern {
        name: "row4",
        squares: &[24, 25, 26, 27, 28, 29, 30, 31],
    },
    Pattern {
        name: "diag8",
        squares: &[0, 9, 18, 27, 36, 45, 54, 63],
    },
    Pattern {
        name: "diag7",
        squares: &[1, 10, 19, 28, 37, 46, 55],
    },
    Pattern {
        name: "diag6",
        squares: &[2, 11, 20, 29, 38, 47],
    },
    Pattern {
        name: "diag5",
        squares: &[3, 12, 21, 30, 39],
    },
    Pattern {
        name: "diag4",
        squares: &[4, 13, 22, 31],
    },
];

/// Identifies this exact pattern set and phase scheme in weight files.
pub const PATTERN_SET_ID: u32 = 1;

/// Instances per pattern, in [`PATTERNS`] order (checked against [`Pattern::instances`] by tests).
pub const INSTANCES_PER_PATTERN: [usize; 11] = [4, 8, 4, 4, 4, 4, 2, 4, 4, 4, 4];

/// Total pattern instances on a board.
pub const NUM_INSTANCES: usize = 46;

/// Extra one-instance feature after the patterns: the parity of the number of empty squares
/// (index 0 = even, 1 = odd), so the side that will move last can be told apart within a phase.
pub const PARITY_SIZE: usize = 2;

/// Weights of one phase: all pattern tables in order, then the parity table.
pub const WEIGHTS_PER_PHASE: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < PATTERNS.len() {
        n += PATTERNS[i].size();
        i += 1;
    }
    n + PARITY_SIZE
};

/// Offset of each pattern's table inside a phase (the parity table follows the last one).
pub const TABLE_OFFSETS: [usize; 12] = {
    let mut o = [0usize; 12];
    let mut i = 0;
    while i < PATTERNS.len() {
        o[i + 1] = o[i] + PATTERNS[i].size();
        i += 1;
    }
    o
};

/// The pattern each instance belongs to, in [`PatternIndices`] order.
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

/// Base-3 index of every pattern instance of a board, grouped by pattern in [`PATTERNS`] order.
pub type PatternIndices = [u16; NUM_INSTANCES];

/// `BIN_TO_TERNARY[b]` reads the bits of `b` as base-3 digits: bit `k` → `3^k`.
static BIN_TO_TERNARY: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut b = 0;
    while b < 1024 {
        let mut v = 0u32;
        let mut k = 9i32;
        while k >= 0 {
            v = v * 3 + ((b >> k) & 1) as u32;
            k -= 1;
        }
        t[b] = v as u16;
        b += 1;
    }
    t
};

/// The 8 symmetric images of one bitboard, in [`Symmetry::ALL`] order, each transformed by the
/// *inverse* symmetry so that instance `s` reads its squares at the canonical place.
#[inline]
fn images(b: u64) -> [u64; 8] {
    use virada_rules::symmetry::{flip_diagonal, flip_horizontal};
    // One transpose serves the four diagonal symmetries: Rotate270 = FlipVertical ∘
    // FlipDiagonal and Rotate90 = FlipHorizontal ∘ FlipDiagonal.
    let d = flip_diagonal(b);
    let dr = d.reverse_bits();
    [
        b,                  // Identity
        flip_horizontal(b), // FlipHorizontal
        b.swap_bytes(),     // FlipVertical
        b.reverse_bits(),   // Rotate180
        d,                  // FlipDiagonal
        dr,                 // FlipAntiDiagonal
        d.swap_bytes(),     // inverse of Rotate90 = Rotate270
        dr.swap_bytes(),    // inverse of Rotate270 = Rotate90
    ]
}

const DIAG_MASKS: [u64; 5] = [
    0x8040_2010_0804_0201,
    0x0080_4020_1008_0402,
    0x0000_8040_2010_0804,
    0x0000_0080_4020_1008,
    0x0000_0000_8040_2010,
];

/// Binary digits of each pattern at its canonical place, bit `k` = square `squares[k]`.
#[inline(always)]
fn corner3x3(x: u64) -> usize {
    ((x & 7) | ((x >> 5) & 0x38) | ((x >> 10) & 0x1C0)) as usize
}
#[inline(always)]
fn corner2x5(x: u64) -> usize {
    ((x & 0x1F) | ((x >> 3) & 0x3E0)) as usize
}
#[inline(always)]
fn edge2x(x: u64) -> usize {
    ((x & 0xFF) | ((x >> 1) & 0x100) | ((x >> 5) & 0x200)) as usize
}
#[inline(always)]
fn row(x: u64, r: u32) -> usize {
    ((x >> (8 * r)) & 0xFF) as usize
}
#[inline(always)]
fn diag(x: u64, d: usize) -> usize {
    // Each diagonal has at most one square per column, so the multiply gathers them into the
    // top byte without carries, ordered by column.
    (((x & DIAG_MASKS[d]).wrapping_mul(0x0101_0101_0101_0101) >> 56) >> d) as usize
}

/// The base-3 indices of all pattern instances of `board` (side to move = digit 1).
#[inline]
pub fn features(board: &Board) -> PatternIndices {
    let pi = images(board.player);
    let oi = images(board.opponent);
    let mut out = [0u16; NUM_INSTANCES];
    let t = |pb: usize, ob: usize| BIN_TO_TERNARY[pb] + 2 * BIN_TO_TERNARY[ob];
    // Fully unrolled (the loops have constant bounds): this is the evaluation's hot path.
    let mut k = 0;
    for s in [0, 1, 2, 3] {
        out[k] = t(corner3x3(pi[s]), corner3x3(oi[s]));
        k += 1;
    }
    for s in [0, 1, 2, 3, 4, 5, 6, 7] {
        out[k] = t(corner2x5(pi[s]), corner2x5(oi[s]));
        k += 1;
    }
    for s in [0, 2, 4, 5] {
        out[k] = t(edge2x(pi[s]), edge2x(oi[s]));
        out[k + 4] = t(row(pi[s], 1), row(oi[s], 1));
        out[k + 8] = t(row(pi[s], 2), row(oi[s], 2));
        out[k + 12] = t(row(pi[s], 3), row(oi[s], 3));
        k += 1;
    }
    k += 12;
    for s in [0, 1] {
        out[k] = t(diag(pi[s], 0), diag(oi[s], 0));
        k += 1;
    }
    for s in [0, 1, 2, 3] {
        out[k] = t(diag(pi[s], 1), diag(oi[s], 1));
        out[k + 4] = t(diag(pi[s], 2), diag(oi[s], 2));
        out[k + 8] = t(diag(pi[s], 3), diag(oi[s], 3));
        out[k + 12] = t(diag(pi[s], 4), diag(oi[s], 4));
        k += 1;
    }
    debug_assert_eq!(k + 12, NUM_INSTANCES);
    out
}

/// The index of one instance computed square by square (slow reference for tests and tools).
pub fn instance_index_slow(board: &Board, pattern: &Pattern, sym: Symmetry) -> u16 {
    let mut idx = 0u32;
    for &sq in pattern.squares.iter().rev() {
        let bit = sym.apply(1u64 << sq);
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

/// For each pattern, a map from an index to the smallest index of the same configuration read
/// through a symmetry that maps the pattern's squares onto themselves (e.g. the 3×3 corner is
/// symmetric in the a1-h8 diagonal). Training ties such indices to one weight.
pub fn mirror_tie_maps() -> &'static [Vec<u16>; 11] {
    static MAPS: OnceLock<[Vec<u16>; 11]> = OnceLock::new();
    MAPS.get_or_init(|| std::array::from_fn(|p| build_tie_map(&PATTERNS[p])))
}

fn build_tie_map(pattern: &Pattern) -> Vec<u16> {
    let n = pattern.len();
    // Digit permutations of the symmetries that keep the square set.
    let mut perms: Vec<Vec<usize>> = Vec::new();
    for s in Symmetry::ALL {
        if s.apply(pattern.mask()) != pattern.mask() {
            continue;
        }
        let perm: Vec<usize> = pattern
            .squares
            .iter()
            .map(|&sq| {
                let img = s.apply(1u64 << sq).trailing_zeros() as u8;
                pattern.squares.iter().position(|&q| q == img).unwrap_or(0)
            })
            .collect();
        perms.push(perm);
    }
    let size = pattern.size();
    let mut map = vec![0u16; size];
    let mut digits = vec![0u32; n];
    for (idx, slot) in map.iter_mut().enumerate() {
        let mut v = idx;
        for d in digits.iter_mut() {
            *d = (v % 3) as u32;
            v /= 3;
        }
        let mut best = idx;
        for perm in &perms {
            // Digit k moves to position perm[k].
            let mut img = 0usize;
            for k in (0..n).rev() {
                let src = perm.iter().position(|&t| t == k).unwrap_or(k);
                img = img * 3 + digits[src] as usize;
            }
            best = best.min(img);
        }
        *slot = best as u16;
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Symmetry images (indices into [`Symmetry::ALL`]) that [`features`] reads for each pattern.
    const INSTANCE_SYMS: [&[usize]; 11] = [
        &[0, 1, 2, 3],
        &[0, 1, 2, 3, 4, 5, 6, 7],
        &[0, 2, 4, 5],
        &[0, 2, 4, 5],
        &[0, 2, 4, 5],
        &[0, 2, 4, 5],
        &[0, 1],
        &[0, 1, 2, 3],
        &[0, 1, 2, 3],
        &[0, 1, 2, 3],
        &[0, 1, 2, 3],
    ];

    fn random_boards(n: usize, seed: u64) -> Vec<Board> {
        let mut s = seed;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        (0..n)
            .map(|_| {
                let a = next();
                let b = next() & !a;
                Board::new(a, b)
            })
            .collect()
    }

    #[test]
    fn instance_table_matches_symmetries() {
        for (p, pat) in PATTERNS.iter().enumerate() {
            let syms = pat.instances();
            assert_eq!(syms.len(), INSTANCES_PER_PATTERN[p], "{}", pat.name);
            let want: Vec<usize> = syms
                .iter()
                .map(|s| Symmetry::ALL.iter().position(|t| t == s).unwrap())
                .collect();
            assert_eq!(want, INSTANCE_SYMS[p], "{}", pat.name);
        }
        assert_eq!(INSTANCES_PER_PATTERN.iter().sum::<usize>(), NUM_INSTANCES);
        assert_eq!(WEIGHTS_PER_PHASE, TABLE_OFFSETS[11] + PARITY_SIZE);
    }

    #[test]
    fn fast_features_match_slow_reference() {
        for b in random_boards(300, 0x1234_5678_9ABC_DEF1) {
            let f = features(&b);
            let mut k = 0;
            for pat in PATTERNS.iter() {
                for s in pat.instances() {
                    let slow = instance_index_slow(&b, pat, s);
                    assert_eq!(f[k], slow, "{} {:?} {:?}", pat.name, s, b);
                    assert!((slow as usize) < pat.size());
                    k += 1;
                }
            }
        }
    }

    #[test]
    fn symmetric_boards_have_the_same_feature_multiset() {
        for b in random_boards(50, 99) {
            let mut base = features(&b);
            for s in Symmetry::ALL {
                let mut f = features(&s.apply_board(b));
                // Instances of the same pattern may swap places; compare per pattern, tied.
                let maps = mirror_tie_maps();
                for (k, v) in f.iter_mut().enumerate() {
                    *v = maps[INSTANCE_PATTERN[k] as usize][*v as usize];
                }
                for (k, v) in base.iter_mut().enumerate() {
                    *v = maps[INSTANCE_PATTERN[k] as usize][*v as usize];
                }
                for p in 0..11 {
                    let start: usize = INSTANCES_PER_PATTERN[..p].iter().sum();
                    let end = start + INSTANCES_PER_PATTERN[p];
                    let mut x = f[start..end].to_vec();
                    let mut y = base[start..end].to_vec();
                    x.sort_unstable();
                    y.sort_unstable();
                    assert_eq!(x, y, "pattern {} symmetry {:?}", PATTERNS[p].name, s);
                }
            }
        }
    }

    #[test]
    fn tie_map_is_idempotent_and_merges_mirrors() {
        let maps = mirror_tie_maps();
        for (p, map) in maps.iter().enumerate() {
            for (i, &m) in map.iter().enumerate() {
                assert!(m as usize <= i);
                assert_eq!(map[m as usize], m, "pattern {p}");
            }
        }
        // corner3x3: a disc on b1 alone (digit 1) mirrors to a disc on a2 alone (digit 3).
        assert_eq!(maps[0][3usize.pow(3)], 3);
        assert_eq!(maps[0][3], 3);
        // row2 is mirror-symmetric: one disc on a2 equals one disc on h2.
        assert_eq!(maps[3][3usize.pow(7)], 1);
        // corner2x5 has no self-symmetry.
        assert!(maps[1].iter().enumerate().all(|(i, &m)| i == m as usize));
    }

    #[test]
    fn phases() {
        assert_eq!(phase_of_empties(0), 0);
        assert_eq!(phase_of_empties(4), 0);
        assert_eq!(phase_of_empties(5), 1);
        assert_eq!(phase_of_empties(60), 14);
        assert_eq!(phase_of_empties(64), 14);
    }
}
