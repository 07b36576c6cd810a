//! Bitboard features shared by evaluations: stable discs, frontier, corner-adjacent squares.

use virada_rules::movegen::neighbours;

use virada_rules::masks::{
    COLUMN_A as COL_A, COLUMN_H as COL_H, CORNERS, EDGES as RING, ROW_1, ROW_8,
};

/// `LINES[sq]`: the row, the column, the a1-h8 diagonal and the h1-a8 diagonal through `sq`.
static LINES: [[u64; 4]; 64] = build_lines();

const fn build_lines() -> [[u64; 4]; 64] {
    let mut lines = [[0u64; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut other = 0usize;
        while other < 64 {
            let (oc, or) = ((other % 8) as i32, (other / 8) as i32);
            let bit = 1u64 << other;
            if or == r {
                lines[sq][0] |= bit;
            }
            if oc == c {
                lines[sq][1] |= bit;
            }
            if oc - or == c - r {
                lines[sq][2] |= bit;
            }
            if oc + or == c + r {
                lines[sq][3] |= bit;
            }
            other += 1;
        }
        sq += 1;
    }
    lines
}

/// Squares whose horizontal, vertical and both diagonal lines are all completely filled: a
/// disc there can never be flipped by a move (a move needs an empty square on a line).
///
/// `[horizontal, vertical, a1-h8 diagonal, h1-a8 diagonal]`.
///
/// A line is full unless it passes through an empty square, so this is one table read per
/// empty square: few near the end of the game, where the exact solver asks (against a version
/// with shifts and folds in 28 fixed steps: FFO #40-#49, one thread, same nodes, 25.0 s ->
/// 24.1 s).
#[inline]
pub fn full_lines(filled: u64) -> [u64; 4] {
    let mut open = [0u64; 4];
    let mut e = !filled;
    while e != 0 {
        let lines = &LINES[e.trailing_zeros() as usize];
        e &= e - 1;
        for (o, l) in open.iter_mut().zip(lines) {
            *o |= l;
        }
    }
    open.map(|o| !o)
}

/// Discs of `own` that can never be flipped (a conservative under-estimate).
///
/// A disc is stable when, along each of the four axes, its line is full, or it touches the
/// board edge, or a neighbour on that axis is already a stable disc of the same colour: the
/// opponent can then never bracket it along that axis. The fixed point of that rule, seeded
/// by edges, finds corner-anchored regions, full edges and full lines.
pub fn stable_discs(own: u64, other: u64) -> u64 {
    let filled = own | other;
    if filled & CORNERS == 0 && filled & RING != RING {
        // No corner and no full edge: only full lines across the board could be stable,
        // which is too rare in play to be worth the work.
        return 0;
    }
    let [fh, fv, fd, fa] = full_lines(filled);
    let base_h = fh | COL_A | COL_H;
    let base_v = fv | ROW_1 | ROW_8;
    let base_d = fd | RING;
    let base_a = fa | RING;
    let mut stable = 0u64;
    loop {
        let s = stable;
        let safe_h = base_h | ((s << 1) & !COL_A) | ((s >> 1) & !COL_H);
        let safe_v = base_v | (s << 8) | (s >> 8);
        let safe_d = base_d | ((s << 9) & !COL_A) | ((s >> 9) & !COL_H);
        let safe_a = base_a | ((s << 7) & !COL_H) | ((s >> 7) & !COL_A);
        let next = own & safe_h & safe_v & safe_d & safe_a;
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// Empty squares next to at least one disc of `discs` (potential mobility of the other side).
#[inline]
pub fn adjacent_empties(discs: u64, empties: u64) -> u64 {
    neighbours(discs) & empties
}

/// Discs of `discs` next to at least one empty square (frontier discs).
#[inline]
pub fn frontier(discs: u64, empties: u64) -> u64 {
    discs & neighbours(empties)
}

/// For each corner, the X-square (diagonal neighbour) and the two C-squares (edge neighbours):
/// `(corner, x_square, c_squares)`.
pub const CORNER_ZONES: [(u64, u64, u64); 4] = [
    (1 << 0, 1 << 9, (1 << 1) | (1 << 8)),
    (1 << 7, 1 << 14, (1 << 6) | (1 << 15)),
    (1 << 56, 1 << 49, (1 << 57) | (1 << 48)),
    (1 << 63, 1 << 54, (1 << 62) | (1 << 55)),
];

/// X- and C-squares whose corner is still empty: the squares that risk giving a corner away.
#[inline]
pub fn risky_squares(empties: u64) -> (u64, u64) {
    let mut x = 0;
    let mut c = 0;
    for (corner, xsq, csq) in CORNER_ZONES {
        if empties & corner != 0 {
            x |= xsq;
            c |= csq;
        }
    }
    (x, c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use virada_rules::Symmetry;

    #[test]
    fn full_lines_match_a_walk_along_each_line() {
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            // Mostly full boards, where full lines exist.
            let empties = rng & (rng >> 11) & (rng >> 23);
            let lines = full_lines(!empties);
            for sq in 0..64i32 {
                let (c, r) = (sq % 8, sq / 8);
                for (axis, (dc, dr)) in [(1, 0), (0, 1), (1, 1), (-1, 1)].into_iter().enumerate() {
                    let mut full = true;
                    for sign in [-1, 1] {
                        let (mut x, mut y) = (c, r);
                        while (0..8).contains(&x) && (0..8).contains(&y) {
                            full &= empties & (1u64 << (y * 8 + x)) == 0;
                            x += sign * dc;
                            y += sign * dr;
                        }
                    }
                    let got = lines[axis] & (1u64 << sq) != 0;
                    assert_eq!(got, full, "empties {empties:#x} square {sq} axis {axis}");
                }
            }
        }
    }

    #[test]
    fn full_board_is_all_stable() {
        let own = 0x0F0F_0F0F_0F0F_0F0F;
        assert_eq!(stable_discs(own, !own), own);
    }

    #[test]
    fn corner_anchored_edge_is_stable() {
        // Black on a1, b1, c1 and a2; white on d1 and many centre squares: a1 b1 c1 a2 stable.
        let own = 0b111 | (1 << 8);
        let other = (1 << 3) | (1 << 27) | (1 << 28) | (1 << 9);
        let s = stable_discs(own, other);
        assert_eq!(s, own);
        // Without the corner nothing is stable.
        assert_eq!(stable_discs(own & !1, other), 0);
    }

    #[test]
    fn stability_is_symmetric() {
        let own = 0x0000_0000_0303_07FF;
        let other = 0x0000_0018_1C08_0000;
        let s = stable_discs(own, other);
        assert!(s.count_ones() >= 9, "row 1 is full and anchored: {s:#x}");
        for sym in Symmetry::ALL {
            assert_eq!(
                stable_discs(sym.apply(own), sym.apply(other)),
                sym.apply(s),
                "{sym:?}"
            );
        }
    }

    #[test]
    fn an_inner_disc_on_unfilled_lines_is_not_stable() {
        let own = 1u64 | (1 << 27);
        let s = stable_discs(own, 1 << 36);
        assert_eq!(s, 1);
    }

    #[test]
    fn risky_squares_follow_empty_corners() {
        let (x, c) = risky_squares(!1u64);
        assert_eq!(x.count_ones(), 3);
        assert_eq!(c.count_ones(), 6);
        assert_eq!(x & (1 << 9), 0);
    }
}
