//! Bitboard move generation and flips, the hot path of every search.
//!
//! Squares are bits (`a1` = bit 0, `h1` = bit 7, `a8` = bit 56). Shifting left by 1 moves a disc
//! east, by 8 south, by 7 south-west and by 9 south-east; the column masks stop wrap-around.

/// `NOT_AH`: every square except those in columns a and h, the discs that may be stepped over
/// horizontally.
use crate::masks::{COLUMN_A, COLUMN_H, NOT_COLUMNS_A_H as NOT_AH};
use crate::Square;

/// One direction of the doubling fill: the squares reached from `p` through a contiguous run of
/// `mask` discs, stepping `shift` bits left (`left == true`) or right.
#[inline(always)]
fn fill_moves(p: u64, mask: u64, shift: u32, left: bool) -> u64 {
    // Doubling: after these steps `run` holds every mask square reachable from `p` through up
    // to six contiguous mask squares (the longest possible run on an 8x8 board).
    let sh = |x: u64, n: u32| if left { x << n } else { x >> n };
    let mut run = mask & sh(p, shift);
    run |= mask & sh(run, shift);
    let pair = mask & sh(mask, shift);
    run |= pair & sh(run, 2 * shift);
    run |= pair & sh(run, 2 * shift);
    sh(run, shift)
}

/// Legal moves of `player` against `opponent`: empty squares that bracket at least one run.
///
/// ```
/// use virada_rules::movegen::legal_moves;
/// use virada_rules::Board;
/// let b = Board::start();
/// assert_eq!(legal_moves(b.player, b.opponent).count_ones(), 4);
/// ```
#[inline]
pub fn legal_moves(player: u64, opponent: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if COMPILED_FOR_AVX2 {
        // SAFETY: this build targets CPUs with the features the AVX2 path needs.
        #[allow(unused_unsafe)]
        return unsafe { avx2::legal_moves(player, opponent) };
    }
    legal_moves_portable(player, opponent)
}

/// Whether this build was compiled for the AVX2 path's features (e.g. `-C target-cpu=native`
/// on a recent x86-64): then [`legal_moves`] and [`flips`] use it with no run-time check.
pub const COMPILED_FOR_AVX2: bool = cfg!(all(
    target_arch = "x86_64",
    target_feature = "avx2",
    target_feature = "popcnt",
    target_feature = "bmi1",
    target_feature = "bmi2",
    target_feature = "lzcnt"
));

/// [`legal_moves`] in plain 64-bit integer code, for every CPU.
#[inline]
pub fn legal_moves_portable(player: u64, opponent: u64) -> u64 {
    let empty = !(player | opponent);
    let inner = opponent & NOT_AH;
    let moves = fill_moves(player, inner, 1, true)
        | fill_moves(player, inner, 1, false)
        | fill_moves(player, opponent, 8, true)
        | fill_moves(player, opponent, 8, false)
        | fill_moves(player, inner, 7, true)
        | fill_moves(player, inner, 7, false)
        | fill_moves(player, inner, 9, true)
        | fill_moves(player, inner, 9, false);
    moves & empty
}

/// The rays leaving each square toward higher indices (E, SW, S, SE) and toward lower indices
/// (W, NE, N, NW), four directions per 32-byte block so the AVX2 path can load them at once.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
pub(crate) struct Rays(pub(crate) [u64; 4]);

/// `RAYS[sq][0]`: rays toward higher indices; `RAYS[sq][1]`: toward lower indices.
pub(crate) static RAYS: [[Rays; 2]; 64] = build_rays();

const fn build_rays() -> [[Rays; 2]; 64] {
    // (column step, row step); the first four increase the index, the last four decrease it.
    const DIRS: [(i8, i8); 8] = [
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
        (-1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
    ];
    let mut rays = [[Rays([0; 4]); 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dc, dr) = DIRS[d];
            let mut c = (sq % 8) as i8 + dc;
            let mut r = (sq / 8) as i8 + dr;
            let mut ray = 0u64;
            while c >= 0 && c < 8 && r >= 0 && r < 8 {
                ray |= 1u64 << (r * 8 + c);
                c += dc;
                r += dr;
            }
            rays[sq][d / 4].0[d % 4] = ray;
            d += 1;
        }
        sq += 1;
    }
    rays
}

/// The discs that flip when `player` plays on square index `sq` (0 if the move flips nothing).
/// The caller checks that the square is empty when it matters.
///
/// Branch-free: in each direction the first square that is not an opponent disc must be the
/// player's for the run before it to flip.
#[inline]
pub fn flips(player: u64, opponent: u64, sq: usize) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if COMPILED_FOR_AVX2 {
        // SAFETY: this build targets CPUs with the features the AVX2 path needs.
        #[allow(unused_unsafe)]
        return unsafe { avx2::flips(player, opponent, sq) };
    }
    flips_portable(player, opponent, sq)
}

/// [`flips`] in plain 64-bit integer code, for every CPU.
#[inline]
pub fn flips_portable(player: u64, opponent: u64, sq: usize) -> u64 {
    let [up, down] = &RAYS[sq & 63];
    let mut flipped = 0u64;
    // Toward higher indices the first non-opponent square is the lowest set bit.
    for &ray in &up.0 {
        let stop = ray & !opponent;
        let first = stop & stop.wrapping_neg();
        let keep = 0u64.wrapping_sub(((first & player) != 0) as u64);
        flipped |= ray & first.wrapping_sub(1) & keep;
    }
    // Toward lower indices it is the highest set bit. Bit 0 is a sentinel that keeps `stop`
    // non-zero; it only counts as an outflank if it is on the ray and the player's.
    for &ray in &down.0 {
        let stop = (ray & !opponent) | 1;
        let first = (1u64 << 63) >> stop.leading_zeros();
        let keep = 0u64.wrapping_sub(((first & player & ray) != 0) as u64);
        flipped |= ray & !((first << 1).wrapping_sub(1)) & keep;
    }
    flipped
}

#[cfg(target_arch = "x86_64")]
pub mod avx2;
mod last_flip;
pub use last_flip::last_flip_count;

/// An implementation of move generation and flips. All give identical results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// Plain 64-bit integer code, for every CPU.
    Portable,
    /// Four directions per AVX2 register (x86-64 CPUs with AVX2, BMI1/2, POPCNT, LZCNT).
    Avx2,
}

impl Backend {
    /// The fastest backend this CPU runs.
    pub fn detect() -> Backend {
        #[cfg(target_arch = "x86_64")]
        if avx2::available() {
            return Backend::Avx2;
        }
        Backend::Portable
    }

    /// Every backend this CPU runs (for tests that compare them).
    pub fn available() -> Vec<Backend> {
        let mut v = vec![Backend::Portable];
        if Backend::detect() == Backend::Avx2 {
            v.push(Backend::Avx2);
        }
        v
    }

    /// Legal moves with this backend. Falls back to the portable code if it is not available.
    #[inline]
    pub fn legal_moves(self, player: u64, opponent: u64) -> u64 {
        match self {
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 if avx2::available() => {
                // SAFETY: the CPU features were checked just above.
                unsafe { avx2::legal_moves(player, opponent) }
            }
            _ => legal_moves_portable(player, opponent),
        }
    }

    /// Flips with this backend. Falls back to the portable code if it is not available.
    #[inline]
    pub fn flips(self, player: u64, opponent: u64, sq: usize) -> u64 {
        match self {
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 if avx2::available() => {
                // SAFETY: the CPU features were checked just above.
                unsafe { avx2::flips(player, opponent, sq) }
            }
            _ => flips_portable(player, opponent, sq),
        }
    }
}

/// Bits of squares that are adjacent (8 directions) to some square of `b`.
#[inline]
pub fn neighbours(b: u64) -> u64 {
    let h = ((b << 1) & !COLUMN_A) | ((b >> 1) & !COLUMN_H);
    let row = b | h;
    h | (row << 8) | (row >> 8)
}

/// The squares of `set` connected to `sq` by steps between neighbours (8 directions) that stay
/// inside `set`: with `set` the empty squares, the endgame's region containing `sq` (empty if
/// `sq` is not in `set`).
pub fn region_of(set: u64, sq: Square) -> u64 {
    let mut region = sq.bit() & set;
    loop {
        let grown = (region | neighbours(region)) & set;
        if grown == region {
            return region;
        }
        region = grown;
    }
}

/// The connected regions of `set` (see [`region_of`]), lowest square first.
///
/// ```
/// use virada_rules::movegen::regions;
/// // a1-b1 and h8 are two regions; c1 joins nothing it does not touch.
/// let set = 0b11 | 1 << 63;
/// assert_eq!(regions(set).collect::<Vec<_>>(), vec![0b11, 1 << 63]);
/// ```
pub fn regions(mut set: u64) -> impl Iterator<Item = u64> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let r = region_of(set, Square::lowest_of(set));
        set &= !r;
        Some(r)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_moves() {
        let black = (1u64 << 35) | (1u64 << 28); // d5 e4
        let white = (1u64 << 27) | (1u64 << 36); // d4 e5
        let m = legal_moves(black, white);
        // d3 = 19, c4 = 26, f5 = 37, e6 = 44
        assert_eq!(m, (1 << 19) | (1 << 26) | (1 << 37) | (1 << 44));
        assert_eq!(flips(black, white, 19), 1 << 27);
    }
}
