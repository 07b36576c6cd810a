//! The board as two bitboards seen from the side to move: the engine's position type.

use crate::movegen;
use crate::{Bitboard, Square};

/// Discs of the side to move (`player`) and of the other side (`opponent`).
///
/// This relative form is what search wants: playing a move swaps the two sides, so the same code
/// serves both colours. [`crate::Position`] adds the absolute colour of the side to move.
///
/// ```
/// use virada_rules::{Board, Square};
/// let b = Board::start();
/// assert_eq!(b.legal_moves().count(), 4);
/// let after = b.play_unchecked("f5".parse().unwrap());
/// assert_eq!(after.opponent.count_ones(), 4); // Black now has 4 discs
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Board {
    /// Discs of the side to move.
    pub player: u64,
    /// Discs of the side that just moved.
    pub opponent: u64,
}

impl Board {
    /// A board with these discs. Overlapping bits are the caller's error (see [`Board::is_valid`]).
    #[inline]
    pub const fn new(player: u64, opponent: u64) -> Board {
        Board { player, opponent }
    }

    /// The standard start, Black (the player) to move: black d5 e4, white d4 e5.
    pub const fn start() -> Board {
        Board {
            player: (1 << 35) | (1 << 28),
            opponent: (1 << 27) | (1 << 36),
        }
    }

    /// No square holds two discs.
    pub const fn is_valid(&self) -> bool {
        self.player & self.opponent == 0
    }

    /// Legal moves of the side to move.
    #[inline]
    pub fn legal_moves(&self) -> Bitboard {
        Bitboard(movegen::legal_moves(self.player, self.opponent))
    }

    /// Legal moves as a raw mask (hot path).
    #[inline]
    pub fn moves(&self) -> u64 {
        movegen::legal_moves(self.player, self.opponent)
    }

    /// Discs flipped by playing `sq` (empty if `sq` is not a legal move or not empty).
    #[inline]
    pub fn flips(&self, sq: Square) -> Bitboard {
        if (self.player | self.opponent) & sq.bit() != 0 {
            return Bitboard::EMPTY;
        }
        Bitboard(movegen::flips(self.player, self.opponent, sq.index()))
    }

    /// Whether the side to move may play `sq`.
    #[inline]
    pub fn is_legal(&self, sq: Square) -> bool {
        self.moves() & sq.bit() != 0
    }

    /// Plays `sq` for the side to move and returns the board from the other side's view.
    /// The caller guarantees the move is legal; an illegal square gives a meaningless board.
    #[inline]
    pub fn play_unchecked(&self, sq: Square) -> Board {
        let f = movegen::flips(self.player, self.opponent, sq.index());
        self.play_flips(sq, f)
    }

    /// Plays `sq` with precomputed `flips` (from [`movegen::flips`]).
    #[inline]
    pub fn play_flips(&self, sq: Square, flips: u64) -> Board {
        Board {
            player: self.opponent ^ flips,
            opponent: self.player | flips | sq.bit(),
        }
    }

    /// The same discs with the other side to move.
    #[inline]
    pub const fn pass(&self) -> Board {
        Board {
            player: self.opponent,
            opponent: self.player,
        }
    }

    /// The side to move has no legal move but the other side has one.
    pub fn must_pass(&self) -> bool {
        self.moves() == 0 && movegen::legal_moves(self.opponent, self.player) != 0
    }

    /// Neither side can move.
    pub fn is_game_over(&self) -> bool {
        self.moves() == 0 && movegen::legal_moves(self.opponent, self.player) == 0
    }

    /// Empty squares.
    #[inline]
    pub const fn empties(&self) -> u64 {
        !(self.player | self.opponent)
    }

    /// Number of empty squares.
    #[inline]
    pub const fn empty_count(&self) -> u32 {
        self.empties().count_ones()
    }

    /// Player's discs minus opponent's discs (raw count).
    #[inline]
    pub const fn disc_diff(&self) -> i32 {
        self.player.count_ones() as i32 - self.opponent.count_ones() as i32
    }

    /// Final score of this (finished) board under World Othello Federation scoring, from the
    /// side to move's view: empties go to the winner, so a 32-29 finish with 3 empties is +6.
    #[inline]
    pub const fn final_score(&self) -> i32 {
        crate::score::wof_diff(self.player.count_ones(), self.opponent.count_ones())
    }

    /// A fast 64-bit hash of the board, usable as a transposition-table key.
    #[inline]
    pub fn hash(&self) -> u64 {
        crate::hash::hash_board(self.player, self.opponent)
    }
}
