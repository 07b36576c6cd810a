//! perft: the number of move sequences of a given length, the standard move-generator check.

use crate::Board;

/// How passes and finished games count.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum PerftMode {
    /// A pass is a ply; a game that ends before the depth counts as one leaf (the common one).
    #[default]
    PassIsPly,
    /// A pass is not a ply (the opponent moves at the same depth); finished games count as one leaf.
    PassNotPly,
}

/// Counts leaves at `depth` plies below `board`.
///
/// ```
/// use virada_rules::{perft, Board, PerftMode};
/// assert_eq!(perft(Board::start(), 4, PerftMode::PassIsPly), 244);
/// ```
pub fn perft(board: Board, depth: u32, mode: PerftMode) -> u64 {
    if depth == 0 {
        return 1;
    }
    match mode {
        PerftMode::PassIsPly => perft_pass_ply(board, depth, false),
        PerftMode::PassNotPly => perft_no_pass_ply(board, depth),
    }
}

fn perft_pass_ply(board: Board, depth: u32, passed: bool) -> u64 {
    let mut moves = board.moves();
    if moves == 0 {
        if passed {
            // The previous ply was a pass and we cannot move either: the game ended.
            return 1;
        }
        let b = board.pass();
        if b.moves() == 0 {
            return 1; // game over at this node
        }
        return if depth == 1 {
            1
        } else {
            perft_pass_ply(b, depth - 1, true)
        };
    }
    if depth == 1 {
        return moves.count_ones() as u64;
    }
    let mut n = 0;
    while moves != 0 {
        let sq = moves.trailing_zeros() as usize;
        moves &= moves - 1;
        let f = crate::movegen::flips(board.player, board.opponent, sq);
        let next = board.play_flips(crate::Square::from_index(sq as u8), f);
        n += perft_pass_ply(next, depth - 1, false);
    }
    n
}

fn perft_no_pass_ply(board: Board, depth: u32) -> u64 {
    let mut moves = board.moves();
    let mut b = board;
    if moves == 0 {
        b = board.pass();
        moves = b.moves();
        if moves == 0 {
            return 1;
        }
    }
    if depth == 1 {
        return moves.count_ones() as u64;
    }
    let mut n = 0;
    while moves != 0 {
        let sq = moves.trailing_zeros() as usize;
        moves &= moves - 1;
        let f = crate::movegen::flips(b.player, b.opponent, sq);
        n += perft_no_pass_ply(
            b.play_flips(crate::Square::from_index(sq as u8), f),
            depth - 1,
        );
    }
    n
}
