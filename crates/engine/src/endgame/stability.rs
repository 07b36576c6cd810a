//! Stable discs: discs that no sequence of moves can flip.
//!
//! The solver uses a safe under-estimate of the opponent's stable discs for the *stability
//! cutoff*: if the opponent already owns `s` discs forever, the side to move can score at most
//! `64 - 2s`, so a null-window search whose alpha is at least that fails low at once.
//!
//! The estimate starts from two sources that are cheap and exact: edge discs that are stable
//! within their edge (a precomputed table over all 3^8 edge patterns, combined with the fact
//! that an edge can only be entered from the edge itself), and discs whose four lines are all
//! full. It then grows: a disc is stable if, along each of the four axes, its line is full or
//! one of its two neighbours on that axis is off the board or a stable disc of the same colour.

use super::full_lines::full_lines;
use std::sync::OnceLock;

use virada_rules::masks::{COLUMN_A as COL_A, COLUMN_H as COL_H, ROW_1, ROW_8};

/// `EDGE_STABLE[own | other << 8]`: the `own` discs of an 8-square line that can never flip,
/// whatever is played on the line's empty squares by either side.
fn edge_table() -> &'static [u8; 65536] {
    static TABLE: OnceLock<Box<[u8; 65536]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        // Memo over every line state: 0xFFFF = not computed yet.
        let mut memo = vec![0xFFFFu16; 65536];
        let mut table = Box::new([0u8; 65536]);
        for own in 0..256u32 {
            for other in 0..256u32 {
                if own & other == 0 {
                    let stable_all = line_stable(own as u8, other as u8, &mut memo);
                    table[(own | other << 8) as usize] = stable_all as u8;
                }
            }
        }
        table
    })
}

/// Discs of either colour on a line (`own`, `other`) that keep their colour forever, as
/// `own_stable | other_stable << 8`. A move may be played on any empty square of the line by
/// either colour (moves can come from other directions), flipping the runs it brackets.
fn line_stable(own: u8, other: u8, memo: &mut [u16]) -> u16 {
    let key = own as usize | (other as usize) << 8;
    if memo[key] != 0xFFFF {
        return memo[key];
    }
    let empty = !(own | other);
    // Start with every disc; remove those that change colour (or lose stability) in some line.
    let mut stable = own as u16 | (other as u16) << 8;
    for x in 0..8 {
        if empty & (1 << x) == 0 {
            continue;
        }
        for side in 0..2 {
            let (p, o) = if side == 0 {
                (own, other)
            } else {
                (other, own)
            };
            let f = line_flips(p, o, x);
            let np = p | f | (1 << x);
            let no = o & !f;
            let (nown, nother) = if side == 0 { (np, no) } else { (no, np) };
            let child = line_stable(nown, nother, memo);
            // A disc stays stable only if it is unchanged in the child and stable there.
            let unchanged = (own & nown) as u16 | ((other & nother) as u16) << 8;
            stable &= unchanged & child;
        }
    }
    memo[key] = stable;
    stable
}

/// Discs of `o` flipped on a line when `p` plays at `x`.
fn line_flips(p: u8, o: u8, x: usize) -> u8 {
    let mut flips = 0u8;
    for dir in [-1i32, 1] {
        let mut run = 0u8;
        let mut i = x as i32 + dir;
        while (0..8).contains(&i) && o & (1 << i) != 0 {
            run |= 1 << i;
            i += dir;
        }
        if (0..8).contains(&i) && p & (1 << i) != 0 {
            flips |= run;
        }
    }
    flips
}

/// Extracts column a (bit per row) as an 8-bit line.
#[inline]
fn col_a_to_line(b: u64) -> u8 {
    ((b & COL_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// Inverse of [`col_a_to_line`].
#[inline]
fn line_to_col_a(l: u8) -> u64 {
    // Bit r moves to bit 8r (multiplier: sum of 2^(7r)). Bit 7 is handled apart: with it in
    // the product, bits 0 and 7 would land on the same position and carry.
    (((l as u64) & 0x7F).wrapping_mul(0x0002_0408_1020_4081) & COL_A) | (((l as u64) & 0x80) << 49)
}

/// Stable discs of `own` on the four edges (edge-local stability).
#[inline]
fn edge_stable(own: u64, other: u64) -> u64 {
    let t = edge_table();
    let top = t[(own as u8) as usize | ((other as u8) as usize) << 8] as u64;
    let bottom = t[((own >> 56) as u8) as usize | (((other >> 56) as u8) as usize) << 8] as u64;
    let left = t[col_a_to_line(own) as usize | (col_a_to_line(other) as usize) << 8];
    let right = t[col_a_to_line(own >> 7) as usize | (col_a_to_line(other >> 7) as usize) << 8];
    top | bottom << 56 | line_to_col_a(left) | line_to_col_a(right) << 7
}

/// A safe under-estimate of the stable discs of `own` (the other side's discs are `other`).
pub fn stable_discs(own: u64, other: u64) -> u64 {
    let occupied = own | other;
    let [h, v, d9, d7] = full_lines(occupied);
    let mut stable = (edge_stable(own, other) | (own & h & v & d9 & d7)) & own;
    if stable == 0 {
        return 0;
    }
    loop {
        let old = stable;
        let horiz = h | COL_A | COL_H | (stable << 1) | (stable >> 1);
        let vert = v | ROW_1 | ROW_8 | (stable << 8) | (stable >> 8);
        let diag9 = d9 | COL_A | COL_H | ROW_1 | ROW_8 | (stable << 9) | (stable >> 9);
        let diag7 = d7 | COL_A | COL_H | ROW_1 | ROW_8 | (stable << 7) | (stable >> 7);
        stable |= own & horiz & vert & diag9 & diag7;
        if stable == old {
            return stable;
        }
    }
}

/// Number of stable discs of `own` (see [`stable_discs`]).
#[inline]
pub fn stable_count(own: u64, other: u64) -> i32 {
    stable_discs(own, other).count_ones() as i32
}

/// The stability cutoff of a null-window search at `alpha` with `empties` empty squares:
/// `Some(cap)` when the opponent's stable discs cap the side to move's score at `cap <= alpha`
/// (the search fails low at once).
///
/// Tried at every null-window node of the solver from 3 empties when `alpha >= empties` (and
/// the opponent has enough discs for it to succeed). Measured (FFO #40-#52, one thread, two runs
/// each): before, from 7 empties when `alpha >= 2 * empties`: 1,870 M nodes, 65.5 / 64.8 s;
/// now 1,348 M, 61.9 / 57.5 s. Without the `alpha >= empties` condition 1,328 M, 60.8 / 60.8 s,
/// but #53 became slower (50.4 s against 47.4 s: the counts rarely succeed there); with Edax's
/// `alpha >= 2 * empties - 2`, 1,388 M, 61.6 / 59.2 s.
#[inline]
pub fn stability_cutoff(player: u64, opponent: u64, alpha: i32, empties: u32) -> Option<i32> {
    // The cap is at least 64 - 2 * (the opponent's discs): no need to count below that.
    if alpha < empties as i32 || alpha < 64 - 2 * opponent.count_ones() as i32 {
        return None;
    }
    let cap = 64 - 2 * stable_count(opponent, player);
    (cap <= alpha).then_some(cap)
}

#[cfg(test)]
mod tests {
    use super::*;
    use virada_rules::movegen;

    /// Brute force: a disc is stable if no reachable position (any player, any order, passes
    /// allowed) flips it. Only feasible on nearly full boards.
    fn flippable(p: u64, o: u64, depth: u32, seen: &mut u64) {
        if depth == 0 {
            return;
        }
        let empties = !(p | o);
        let mut e = empties;
        while e != 0 {
            let sq = e.trailing_zeros() as usize;
            e &= e - 1;
            for (a, b) in [(p, o), (o, p)] {
                let f = movegen::flips(a, b, sq);
                if f != 0 {
                    *seen |= f;
                    flippable(a | f | 1 << sq, b & !f, depth - 1, seen);
                }
            }
        }
    }

    #[test]
    fn estimate_is_safe_on_random_nearly_full_boards() {
        let mut rng = 0x1234_5678_9ABC_DEF1u64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let mut total_stable = 0;
        for _ in 0..300 {
            let occupied = !(next() & next() & next() & next());
            let own = next() & occupied;
            let other = occupied & !own;
            let empties = (!occupied).count_ones();
            if empties > 6 {
                continue;
            }
            let mut flipped = 0u64;
            flippable(own, other, empties, &mut flipped);
            let stable = stable_discs(own, other);
            assert_eq!(stable & !own, 0);
            assert_eq!(stable & flipped, 0, "own {own:#x} other {other:#x}");
            total_stable += stable.count_ones();
        }
        assert!(total_stable > 100, "estimate too weak: {total_stable}");
    }

    #[test]
    fn corners_and_full_board() {
        assert_eq!(stable_discs(1, 2), 1); // a1 corner
        assert_eq!(stable_discs(2, 1), 0); // b1 next to an other-colour corner, h1 side empty
        assert_eq!(
            stable_count(0xFFFF_0000_0000_0000, 0x0000_FFFF_FFFF_FFFF),
            16
        );
        assert_eq!(line_to_col_a(col_a_to_line(COL_A)), COL_A);
        assert_eq!(col_a_to_line(1 << 56), 0x80);
    }
}
