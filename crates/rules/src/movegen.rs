//! Bitboard move generation and flips, the hot path of every search.
//!
//! Squares are bits (`a1` = bit 0, `h1` = bit 7, `a8` = bit 56). Shifting left by 1 moves a disc
//! east, by 8 south, by 7 south-west and by 9 south-east; the column masks stop wrap-around.

/// Every square except those in columns a and h: discs that may be stepped over horizontally.
const NOT_AH: u64 = 0x7E7E_7E7E_7E7E_7E7E;

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

/// For each square and each of the 8 directions, the ray of squares leaving that square.
/// Directions 0..4 go toward higher indices (E, SW, S, SE), 4..8 toward lower (W, NE, N, NW).
static RAYS: [[u64; 8]; 64] = build_rays();

const fn build_rays() -> [[u64; 8]; 64] {
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
    let mut rays = [[0u64; 8]; 64];
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
            rays[sq][d] = ray;
            d += 1;
        }
        sq += 1;
    }
    rays
}

/// The discs that flip when `player` plays on square index `sq` (0 if the move is illegal or the
/// square is occupied by... anything: the caller checks emptiness when it matters).
#[inline]
pub fn flips(player: u64, opponent: u64, sq: usize) -> u64 {
    let rays = &RAYS[sq & 63];
    let mut flipped = 0u64;
    // Toward higher indices: the first non-opponent square is the lowest set bit.
    for ray in &rays[0..4] {
        let ray = *ray;
        let stop = ray & !opponent;
        let first = stop & stop.wrapping_neg();
        if first & player != 0 {
            flipped |= ray & (first - 1);
        }
    }
    // Toward lower indices: the first non-opponent square is the highest set bit.
    for ray in &rays[4..8] {
        let ray = *ray;
        let stop = ray & !opponent;
        if stop != 0 {
            let first = 1u64 << (63 - stop.leading_zeros());
            if first & player != 0 {
                flipped |= ray & !((first << 1).wrapping_sub(1));
            }
        }
    }
    flipped
}

/// Bits of squares that are adjacent (8 directions) to some square of `b`.
#[inline]
pub fn neighbours(b: u64) -> u64 {
    let h = ((b << 1) & 0xFEFE_FEFE_FEFE_FEFE) | ((b >> 1) & 0x7F7F_7F7F_7F7F_7F7F);
    let row = b | h;
    h | (row << 8) | (row >> 8)
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
