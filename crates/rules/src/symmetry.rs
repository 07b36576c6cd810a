//! The 8 symmetries of the square board, and canonical forms.

use crate::{Board, Square};

/// One of the 8 symmetries of the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Symmetry {
    Identity,
    /// Mirror left-right (a1 <-> h1).
    FlipHorizontal,
    /// Mirror top-bottom (a1 <-> a8).
    FlipVertical,
    /// Rotate 180 degrees (a1 <-> h8).
    Rotate180,
    /// Mirror in the a1-h8 diagonal (b1 <-> a2).
    FlipDiagonal,
    /// Mirror in the h1-a8 diagonal (a1 <-> h8 stays on... g1 <-> h2).
    FlipAntiDiagonal,
    /// Rotate 90 degrees clockwise.
    Rotate90,
    /// Rotate 90 degrees counter-clockwise.
    Rotate270,
}

impl Symmetry {
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::FlipHorizontal,
        Symmetry::FlipVertical,
        Symmetry::Rotate180,
        Symmetry::FlipDiagonal,
        Symmetry::FlipAntiDiagonal,
        Symmetry::Rotate90,
        Symmetry::Rotate270,
    ];

    /// Applies the symmetry to a bitboard.
    #[inline]
    pub fn apply(self, b: u64) -> u64 {
        match self {
            Symmetry::Identity => b,
            Symmetry::FlipHorizontal => flip_horizontal(b),
            Symmetry::FlipVertical => b.swap_bytes(),
            Symmetry::Rotate180 => b.reverse_bits(),
            Symmetry::FlipDiagonal => flip_diagonal(b),
            Symmetry::FlipAntiDiagonal => flip_diagonal(b).reverse_bits(),
            Symmetry::Rotate90 => flip_horizontal(flip_diagonal(b)),
            Symmetry::Rotate270 => flip_diagonal(flip_horizontal(b)),
        }
    }

    /// Applies the symmetry to a square.
    pub fn apply_square(self, sq: Square) -> Square {
        Square::from_index_unchecked(self.apply(sq.bit()).trailing_zeros() as u8)
    }

    /// Applies the symmetry to both sides of a board.
    pub fn apply_board(self, b: Board) -> Board {
        Board::new(self.apply(b.player), self.apply(b.opponent))
    }

    /// The symmetry that undoes this one.
    pub fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            s => s,
        }
    }
}

/// Mirrors each row (column a <-> h).
#[inline]
pub fn flip_horizontal(mut b: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    b = ((b >> 1) & K1) | ((b & K1) << 1);
    b = ((b >> 2) & K2) | ((b & K2) << 2);
    ((b >> 4) & K4) | ((b & K4) << 4)
}

/// Transposes the board in the a1-h8 diagonal (column <-> row).
#[inline]
pub fn flip_diagonal(mut b: u64) -> u64 {
    // Three delta swaps exchange 4x4, 2x2 and 1x1 blocks across the diagonal.
    let mut t = (b ^ (b >> 28)) & 0x0000_0000_F0F0_F0F0;
    b ^= t ^ (t << 28);
    t = (b ^ (b >> 14)) & 0x0000_CCCC_0000_CCCC;
    b ^= t ^ (t << 14);
    t = (b ^ (b >> 7)) & 0x00AA_00AA_00AA_00AA;
    b ^ t ^ (t << 7)
}

/// The smallest of the 8 symmetric images of `b` (ordered by (player, opponent)), and the
/// symmetry that produces it. Equal positions up to symmetry share a canonical form.
pub fn canonical(b: Board) -> (Board, Symmetry) {
    let mut best = (b, Symmetry::Identity);
    for s in &Symmetry::ALL[1..] {
        let img = s.apply_board(b);
        if (img.player, img.opponent) < (best.0.player, best.0.opponent) {
            best = (img, *s);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_images() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        assert_eq!(Symmetry::FlipHorizontal.apply_square(sq("a1")), sq("h1"));
        assert_eq!(Symmetry::FlipVertical.apply_square(sq("a1")), sq("a8"));
        assert_eq!(Symmetry::Rotate180.apply_square(sq("b1")), sq("g8"));
        assert_eq!(Symmetry::FlipDiagonal.apply_square(sq("b1")), sq("a2"));
        assert_eq!(Symmetry::FlipAntiDiagonal.apply_square(sq("g1")), sq("h2"));
        assert_eq!(Symmetry::Rotate90.apply_square(sq("a1")), sq("h1"));
        assert_eq!(Symmetry::Rotate270.apply_square(sq("a1")), sq("a8"));
        for s in Symmetry::ALL {
            for q in Square::all() {
                assert_eq!(s.inverse().apply_square(s.apply_square(q)), q);
            }
        }
    }
}
