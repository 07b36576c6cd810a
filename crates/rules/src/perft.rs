//! perft: the number of move sequences of a given length, the standard move-generator check.
//!
//! The counting code is generated twice by a macro: once portable, once compiled for AVX2
//! (chosen at run time), so the hot loop inlines the fastest move generator.

use crate::movegen::{self, Backend};
use crate::{Board, Square};

/// How passes and finished games count.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum PerftMode {
    /// A pass is a ply; a game that ends before the depth counts as one leaf (the common one).
    #[default]
    PassIsPly,
    /// A pass is not a ply (the opponent moves at the same depth); finished games count as one leaf.
    PassNotPly,
}

/// Counts leaves at `depth` plies below `board` with the fastest backend.
///
/// ```
/// use virada_rules::{perft, Board, PerftMode};
/// assert_eq!(perft(Board::start(), 4, PerftMode::PassIsPly), 244);
/// ```
pub fn perft(board: Board, depth: u32, mode: PerftMode) -> u64 {
    perft_with(Backend::detect(), board, depth, mode)
}

/// Counts leaves with a chosen backend (an unavailable one falls back to the portable code).
pub fn perft_with(backend: Backend, board: Board, depth: u32, mode: PerftMode) -> u64 {
    if depth == 0 {
        return 1;
    }
    #[cfg(target_arch = "x86_64")]
    if backend == Backend::Avx2 && movegen::avx2::available() {
        // SAFETY: the CPU features these functions are compiled for were checked just above.
        return unsafe {
            match mode {
                PerftMode::PassIsPly => pass_ply_avx2(board, depth, false),
                PerftMode::PassNotPly => no_pass_ply_avx2(board, depth),
            }
        };
    }
    let _ = backend;
    match mode {
        PerftMode::PassIsPly => pass_ply_portable(board, depth, false),
        PerftMode::PassNotPly => no_pass_ply_portable(board, depth),
    }
}

macro_rules! perft_functions {
    ($(#[$attr:meta])* $pass_ply:ident, $no_pass_ply:ident, $moves:path, $flips:path) => {
        /// Pass-is-ply count; `passed` says the previous ply was a pass.
        $(#[$attr])*
        fn $pass_ply(board: Board, depth: u32, passed: bool) -> u64 {
            let mut moves = $moves(board.player, board.opponent);
            if moves == 0 {
                if passed || depth == 1 {
                    // Two passes in a row end the game; at depth 1 the pass itself is the leaf.
                    return 1;
                }
                let b = board.pass();
                if $moves(b.player, b.opponent) == 0 {
                    return 1; // game over at this node
                }
                return $pass_ply(b, depth - 1, true);
            }
            if depth == 1 {
                return moves.count_ones() as u64;
            }
            let mut n = 0;
            while moves != 0 {
                let sq = moves.trailing_zeros() as usize;
                moves &= moves - 1;
                let f = $flips(board.player, board.opponent, sq);
                n += $pass_ply(board.play_flips(Square::from_index_unchecked(sq as u8), f), depth - 1, false);
            }
            n
        }

        /// Pass-not-ply count.
        $(#[$attr])*
        fn $no_pass_ply(board: Board, depth: u32) -> u64 {
            let mut moves = $moves(board.player, board.opponent);
            let mut b = board;
            if moves == 0 {
                b = board.pass();
                moves = $moves(b.player, b.opponent);
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
                let f = $flips(b.player, b.opponent, sq);
                n += $no_pass_ply(b.play_flips(Square::from_index_unchecked(sq as u8), f), depth - 1);
            }
            n
        }
    };
}

perft_functions!(
    pass_ply_portable,
    no_pass_ply_portable,
    movegen::legal_moves_portable,
    movegen::flips_portable
);

#[cfg(target_arch = "x86_64")]
perft_functions!(
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    pass_ply_avx2,
    no_pass_ply_avx2,
    movegen::avx2::legal_moves,
    movegen::avx2::flips
);
