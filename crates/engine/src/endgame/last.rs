//! The last few empties: specialised null-window code without move generation, hashing or
//! sorting, where most of the solver's nodes are.
//!
//! Below [`super::search::SHALLOW_MAX`] empties, moves are tried square by square straight from
//! the empty-square mask (a square that flips nothing is skipped), in an order that favours
//! regions with an odd number of empties (parity: the side that moves last in a region usually
//! gains), then corners, then ordinary squares, then C- and X-squares.

use super::stability::stability_cutoff;
use virada_rules::movegen::{flips, last_flip_count, neighbours};

/// Below every reachable score.
pub const NEG_INF: i32 = -100;

use virada_rules::masks::{CORNERS, C_SQUARES, X_SQUARES};
const ORDINARY: u64 = !(CORNERS | X_SQUARES | C_SQUARES);

/// The four 4x4 quadrants.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// Squares of the quadrants that hold an odd number of the given empties.
#[inline]
pub fn odd_quadrants(empties: u64) -> u64 {
    let mut odd = 0;
    for q in QUADRANTS {
        if (empties & q).count_ones() & 1 == 1 {
            odd |= q;
        }
    }
    odd
}

/// Score of a finished game, side to move's view, WOF rule (empties to the winner).
#[inline]
pub fn game_over_score(player: u64, opponent: u64) -> i32 {
    virada_rules::score::wof_diff(player.count_ones(), opponent.count_ones())
}

/// Exact score with one empty square `sq` (the board is otherwise full).
#[inline]
pub fn solve_1(player: u64, opponent: u64, sq: usize, nodes: &mut u64) -> i32 {
    *nodes += 1;
    let own = player.count_ones() as i32;
    // Only the number of flips matters here (every other square is taken).
    let f = last_flip_count(player, sq) as i32;
    if f > 0 {
        // Own discs after the move: own + f + 1 on a full board.
        return 2 * (own + f) - 62;
    }
    let g = last_flip_count(opponent, sq) as i32;
    if g > 0 {
        return 2 * (own - g) - 64;
    }
    // Nobody can play the last square: it goes to the winner (the difference is odd).
    if 2 * own > 63 {
        2 * own - 62
    } else {
        2 * own - 64
    }
}

/// Null-window search (window `alpha, alpha + 1`) with two empties; fail-soft.
#[inline]
pub fn solve_2(player: u64, opponent: u64, alpha: i32, empties: u64, nodes: &mut u64) -> i32 {
    *nodes += 1;
    let x1 = empties.trailing_zeros() as usize;
    let x2 = (empties & (empties - 1)).trailing_zeros() as usize;
    let mut best = NEG_INF;
    let f = flips(player, opponent, x1);
    if f != 0 {
        best = -solve_1(opponent & !f, player | f | 1 << x1, x2, nodes);
        if best > alpha {
            return best;
        }
    }
    let f = flips(player, opponent, x2);
    if f != 0 {
        let v = -solve_1(opponent & !f, player | f | 1 << x2, x1, nodes);
        return v.max(best);
    }
    if best != NEG_INF {
        return best;
    }
    // The side to move passes: the opponent minimises.
    *nodes += 1;
    let mut worst = -NEG_INF;
    let f = flips(opponent, player, x1);
    if f != 0 {
        worst = solve_1(player & !f, opponent | f | 1 << x1, x2, nodes);
        if worst <= alpha {
            return worst;
        }
    }
    let f = flips(opponent, player, x2);
    if f != 0 {
        let v = solve_1(player & !f, opponent | f | 1 << x2, x1, nodes);
        return v.min(worst);
    }
    if worst != -NEG_INF {
        return worst;
    }
    game_over_score(player, opponent)
}

/// The order in which square classes are tried: odd regions first, then by square type.
#[inline]
fn ordered_classes(empties: u64) -> [u64; 8] {
    let odd = odd_quadrants(empties);
    let even = !odd;
    [
        empties & odd & CORNERS,
        empties & odd & ORDINARY,
        empties & odd & C_SQUARES,
        empties & odd & X_SQUARES,
        empties & even & CORNERS,
        empties & even & ORDINARY,
        empties & even & C_SQUARES,
        empties & even & X_SQUARES,
    ]
}

/// Null-window search with `n` (3 or more) empties and no table; fail-soft.
pub fn solve_shallow(
    player: u64,
    opponent: u64,
    alpha: i32,
    empties: u64,
    n: u32,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    if let Some(cap) = stability_cutoff(player, opponent, alpha, n) {
        return cap;
    }
    let mut best = NEG_INF;
    // Only squares next to an opponent disc can flip anything.
    let candidates = neighbours(opponent);
    for class in ordered_classes(empties) {
        let mut m = class & candidates;
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            let f = flips(player, opponent, sq);
            if f == 0 {
                continue;
            }
            let cp = opponent & !f;
            let co = player | f | 1 << sq;
            let rest = empties & !(1 << sq);
            let v = if n == 3 {
                -solve_2(cp, co, -alpha - 1, rest, nodes)
            } else {
                -solve_shallow(cp, co, -alpha - 1, rest, n - 1, nodes)
            };
            if v > best {
                if v > alpha {
                    return v;
                }
                best = v;
            }
        }
    }
    if best != NEG_INF {
        return best;
    }
    if virada_rules::movegen::legal_moves(opponent, player) != 0 {
        -solve_shallow(opponent, player, -alpha - 1, empties, n, nodes)
    } else {
        game_over_score(player, opponent)
    }
}

/// Null-window search for any number of empties up to the shallow limit, from 0.
pub fn solve_small(player: u64, opponent: u64, alpha: i32, nodes: &mut u64) -> i32 {
    let empties = !(player | opponent);
    match empties.count_ones() {
        0 => {
            *nodes += 1;
            game_over_score(player, opponent)
        }
        1 => solve_1(player, opponent, empties.trailing_zeros() as usize, nodes),
        2 => solve_2(player, opponent, alpha, empties, nodes),
        n => solve_shallow(player, opponent, alpha, empties, n, nodes),
    }
}
