//! Named sets of squares as raw 64-bit masks (bit `i` = square index `i`, `a1` = bit 0), for
//! code that works on `u64` boards. [`Bitboard`](crate::Bitboard) has the same sets as
//! constants (`Bitboard::CORNERS`, ...).
//!
//! ```
//! use virada_rules::{masks, Bitboard};
//! assert_eq!(Bitboard(masks::CORNERS).to_string(), "a1 h1 a8 h8");
//! assert_eq!(Bitboard(masks::X_SQUARES).to_string(), "b2 g2 b7 g7");
//! assert_eq!(masks::EDGES, masks::COLUMN_A | masks::COLUMN_H | masks::ROW_1 | masks::ROW_8);
//! ```

/// Column a (a1 ... a8).
pub const COLUMN_A: u64 = 0x0101_0101_0101_0101;
/// Column h (h1 ... h8).
pub const COLUMN_H: u64 = COLUMN_A << 7;
/// Row 1, the top (a1 ... h1).
pub const ROW_1: u64 = 0x0000_0000_0000_00FF;
/// Row 8, the bottom (a8 ... h8).
pub const ROW_8: u64 = ROW_1 << 56;
/// The eight columns, `COLUMNS[0]` = column a.
pub const COLUMNS: [u64; 8] = [
    COLUMN_A,
    COLUMN_A << 1,
    COLUMN_A << 2,
    COLUMN_A << 3,
    COLUMN_A << 4,
    COLUMN_A << 5,
    COLUMN_A << 6,
    COLUMN_A << 7,
];
/// The eight rows, `ROWS[0]` = row 1 (the top).
pub const ROWS: [u64; 8] = [
    ROW_1,
    ROW_1 << 8,
    ROW_1 << 16,
    ROW_1 << 24,
    ROW_1 << 32,
    ROW_1 << 40,
    ROW_1 << 48,
    ROW_1 << 56,
];
/// The four corners a1 h1 a8 h8.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;
/// The X-squares b2 g2 b7 g7 (diagonally next to a corner).
pub const X_SQUARES: u64 = 0x0042_0000_0000_4200;
/// The C-squares b1 g1 a2 h2 a7 h7 b8 g8 (on an edge, next to a corner).
pub const C_SQUARES: u64 = 0x4281_0000_0000_8142;
/// The 28 squares of the outer ring.
pub const EDGES: u64 = COLUMN_A | COLUMN_H | ROW_1 | ROW_8;
/// Row 1 and row 8.
pub const ROWS_1_8: u64 = ROW_1 | ROW_8;
/// Column a and column h.
pub const COLUMNS_A_H: u64 = COLUMN_A | COLUMN_H;
/// Every square but those of columns a and h (the mask of east-west shifts).
pub const NOT_COLUMNS_A_H: u64 = !COLUMNS_A_H;
/// The four centre squares d4 e4 d5 e5 (occupied from the start of every game).
pub const CENTRE: u64 = 0x0000_0018_1800_0000;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Square;

    fn of(names: &str) -> u64 {
        names
            .split_whitespace()
            .map(|n| n.parse::<Square>().unwrap().bit())
            .fold(0, |a, b| a | b)
    }

    #[test]
    fn masks_hold_the_named_squares() {
        assert_eq!(CORNERS, of("a1 h1 a8 h8"));
        assert_eq!(X_SQUARES, of("b2 g2 b7 g7"));
        assert_eq!(C_SQUARES, of("b1 g1 a2 h2 a7 h7 b8 g8"));
        assert_eq!(CENTRE, of("d4 e4 d5 e5"));
        assert_eq!(EDGES.count_ones(), 28);
        assert_eq!(EDGES, 0xFF81_8181_8181_81FF);
        for sq in Square::all() {
            assert_ne!(COLUMNS[sq.column() as usize] & sq.bit(), 0);
            assert_ne!(ROWS[sq.row() as usize] & sq.bit(), 0);
            assert_eq!(COLUMNS[sq.column() as usize].count_ones(), 8);
        }
        assert_eq!(COLUMNS.iter().fold(0, |a, b| a | b), !0);
        assert_eq!(ROWS.iter().fold(0, |a, b| a ^ b), !0);
    }
}
