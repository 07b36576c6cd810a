//! Flip counts for the last move of a game: with one empty square left, every other square
//! holds a disc, so a move's flips along a line depend only on which squares of that line are
//! the mover's. The four lines through the square are read as 8-bit masks (one bit per
//! square, by column or by row) and a table gives the flips of each line.
//!
//! An endgame solver needs only the number of flipped discs for the last move (the final
//! score), not which ones, so this is much cheaper than [`super::flips`].

/// `LINE_FLIPS[pos][own]`: discs flipped along one line of a full board when the square at
/// `pos` (0..8) is played and `own` (bit `i` = square `i` of the line) marks the mover's discs;
/// every other square of the line is the opponent's. Squares off the end of a short diagonal
/// read as 0 bits: a run into them never meets a mover's disc, so it flips nothing, as the edge
/// does.
static LINE_FLIPS: [[u8; 256]; 8] = {
    let mut t = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut own = 0;
        while own < 256 {
            let mut total = 0u8;
            // Toward higher positions, then toward lower ones.
            let mut i = pos + 1;
            while i < 8 && own & (1 << i) == 0 {
                i += 1;
            }
            if i < 8 {
                total += (i - pos - 1) as u8;
            }
            let mut j = pos as i32 - 1;
            while j >= 0 && own & (1 << j) == 0 {
                j -= 1;
            }
            if j >= 0 {
                total += (pos as i32 - j - 1) as u8;
            }
            t[pos][own] = total;
            own += 1;
        }
        pos += 1;
    }
    t
};

/// The two diagonals through each square: `[a1-h8 direction, h1-a8 direction]`.
static DIAGONALS: [[u64; 2]; 64] = {
    let mut t = [[0u64; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut other = 0usize;
        while other < 64 {
            let (r2, c2) = ((other / 8) as i32, (other % 8) as i32);
            if r2 - c2 == r - c {
                t[sq][0] |= 1u64 << other;
            }
            if r2 + c2 == r + c {
                t[sq][1] |= 1u64 << other;
            }
            other += 1;
        }
        sq += 1;
    }
    t
};

use crate::masks::COLUMN_A as COL_A;

/// The discs of `bits` on the diagonal `mask` as an 8-bit mask by column: each square of a
/// diagonal has its own column, so the multiplication gathers them into the top byte without
/// carries.
#[inline(always)]
fn diagonal_by_column(bits: u64, mask: u64) -> usize {
    ((bits & mask).wrapping_mul(COL_A) >> 56) as usize
}

/// How many discs flip when `player` plays on `sq`, the only empty square of the board (every
/// other square is the opponent's). 0 means the move is illegal.
///
/// ```
/// use virada_rules::movegen::{flips, last_flip_count};
/// let sq = 27; // d4
/// let player = 0x00FF_0000_0000_00FFu64; // rows 1 and 7
/// let opponent = !player & !(1u64 << sq);
/// assert_eq!(last_flip_count(player, sq), flips(player, opponent, sq).count_ones());
/// ```
#[inline]
pub fn last_flip_count(player: u64, sq: usize) -> u32 {
    let sq = sq & 63;
    let (r, c) = (sq >> 3, sq & 7);
    let row = ((player >> (8 * r)) & 0xFF) as usize;
    // Column c gathered into the top byte by row: bit 8k moves to bit 56 + k.
    let col = ((((player >> c) & COL_A).wrapping_mul(0x0102_0408_1020_4080)) >> 56) as usize;
    let [diag, anti] = DIAGONALS[sq];
    let d = diagonal_by_column(player, diag);
    let a = diagonal_by_column(player, anti);
    u32::from(LINE_FLIPS[c][row])
        + u32::from(LINE_FLIPS[r][col])
        + u32::from(LINE_FLIPS[c][d])
        + u32::from(LINE_FLIPS[c][a])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::flips;

    #[test]
    fn equals_the_popcount_of_flips_on_random_full_boards() {
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        for round in 0..4000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            // Vary the density: sparse, dense and balanced boards.
            let player = match round % 3 {
                0 => s,
                1 => s & s.rotate_left(17),
                _ => s | s.rotate_left(29),
            };
            for sq in 0..64 {
                let p = player & !(1u64 << sq);
                let o = !p & !(1u64 << sq);
                assert_eq!(
                    last_flip_count(p, sq),
                    flips(p, o, sq).count_ones(),
                    "player {p:#x} square {sq}"
                );
            }
        }
    }

    #[test]
    fn lines_flip_what_they_bracket() {
        // Played on position 0 with the mover's disc on 3: two discs flip.
        assert_eq!(LINE_FLIPS[0][0b1000], 2);
        // Played on 4, own discs on 0 and 7: 3 + 2.
        assert_eq!(LINE_FLIPS[4][0b1000_0001], 5);
        // No own disc: nothing is bracketed.
        assert_eq!(LINE_FLIPS[5][0], 0);
        // A neighbour of the mover's flips nothing in that direction.
        assert_eq!(LINE_FLIPS[2][0b1000], 0);
    }
}
