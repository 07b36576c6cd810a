//! What one move does, counted with the rules: the facts a teaching sentence may quote.

use crate::endgame::stability::stable_discs;
use virada_rules::masks::{CORNERS, C_SQUARES, X_SQUARES};
use virada_rules::movegen::{neighbours, region_of};
use virada_rules::{Board, Square};

/// An X- or C-square next to a corner.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NearCorner {
    /// Diagonally next to the corner (b2, g2, b7, g7).
    X(Square),
    /// Next to the corner along the edge (b1, g1, a2, h2, a7, h7, b8, g8).
    C(Square),
}

impl NearCorner {
    /// The corner it touches.
    pub fn corner(self) -> Square {
        match self {
            NearCorner::X(c) | NearCorner::C(c) => c,
        }
    }
}

/// The counts of one legal move of the side to move (the mover) on a board.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveFacts {
    pub square: Square,
    /// Discs it flips.
    pub flips: u32,
    /// The opponent's legal moves after it, lowest square first.
    pub opponent_moves: Vec<Square>,
    /// The mover's legal moves after it (the moves it has again if the opponent must pass).
    pub own_moves_after: u32,
    /// Of the discs it places or flips, those next to an empty square after it.
    pub frontier: u32,
    /// The mover's stable discs before and after it.
    pub stable_before: u32,
    pub stable_after: u32,
    /// The size of the empty region it is played in (before it; 8 directions connect squares).
    pub region: u32,
    /// It is a corner.
    pub corner: bool,
    /// It is an X- or C-square whose corner is empty.
    pub near_empty_corner: Option<NearCorner>,
    /// The corners the opponent can take at once after it.
    pub corners_given: Vec<Square>,
}

fn squares(set: u64) -> Vec<Square> {
    (0..64u8)
        .filter(|i| set >> i & 1 == 1)
        .map(Square::from_index_unchecked)
        .collect()
}

impl MoveFacts {
    /// The facts of `sq` on `b` (the side to move plays it); `None` if it is not a legal move.
    pub fn of(b: &Board, sq: Square) -> Option<MoveFacts> {
        if !b.is_legal(sq) {
            return None;
        }
        let flipped = b.flips(sq).0;
        let after = b.play_unchecked(sq);
        // After the move the opponent is `after.player`, the mover `after.opponent`.
        let opponent_moves = after.legal_moves().0;
        let own_moves_after = Board::new(after.opponent, after.player).legal_moves().0;
        let placed = flipped | sq.bit();
        let corner = sq.bit() & CORNERS != 0;
        let touching = neighbours(sq.bit()) & CORNERS & b.empties();
        let near_empty_corner = if touching == 0 {
            None
        } else if sq.bit() & X_SQUARES != 0 {
            squares(touching).first().copied().map(NearCorner::X)
        } else if sq.bit() & C_SQUARES != 0 {
            squares(touching).first().copied().map(NearCorner::C)
        } else {
            None
        };
        Some(MoveFacts {
            square: sq,
            flips: flipped.count_ones(),
            opponent_moves: squares(opponent_moves),
            own_moves_after: own_moves_after.count_ones(),
            frontier: (placed & neighbours(after.empties())).count_ones(),
            stable_before: stable_discs(b.player, b.opponent).count_ones(),
            stable_after: stable_discs(after.opponent, after.player).count_ones(),
            region: region_of(b.empties(), sq).count_ones(),
            corner,
            near_empty_corner,
            corners_given: squares(opponent_moves & CORNERS),
        })
    }

    /// Every legal move's facts, lowest square first.
    pub fn all(b: &Board) -> Vec<MoveFacts> {
        squares(b.legal_moves().0)
            .into_iter()
            .filter_map(|sq| MoveFacts::of(b, sq))
            .collect()
    }

    /// The opponent's number of moves after it.
    pub fn opponent_count(&self) -> u32 {
        self.opponent_moves.len() as u32
    }

    /// The opponent has no move after it but the mover has: the opponent must pass.
    pub fn opponent_must_pass(&self) -> bool {
        self.opponent_moves.is_empty() && self.own_moves_after > 0
    }

    /// Neither side can move after it: the game is over.
    pub fn ends_game(&self) -> bool {
        self.opponent_moves.is_empty() && self.own_moves_after == 0
    }

    /// Stable discs it adds to the mover's (never below 0).
    pub fn stable_gain(&self) -> u32 {
        self.stable_after.saturating_sub(self.stable_before)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use virada_rules::Position;

    fn board(text: &str) -> Board {
        text.parse::<Position>().expect("a position").board()
    }

    #[test]
    fn opening_move_counts() {
        let b = Board::start();
        let f = MoveFacts::of(&b, "d3".parse().unwrap()).expect("legal");
        assert_eq!(f.flips, 1);
        assert_eq!(f.opponent_count(), 3);
        assert_eq!(f.region, 60);
        assert!(!f.corner && f.near_empty_corner.is_none() && f.corners_given.is_empty());
        assert!(MoveFacts::of(&b, "a1".parse().unwrap()).is_none());
        assert_eq!(MoveFacts::all(&b).len(), 4);
    }

    #[test]
    fn x_square_next_to_an_empty_corner_and_a_pass() {
        // Black to move: b2 is an X-square next to the empty a1.
        let b = board(&format!("{}{}{} X", "-".repeat(9), "-OX", "-".repeat(52)));
        let f = MoveFacts::of(&b, "b2".parse().unwrap()).expect("legal");
        assert_eq!(
            f.near_empty_corner,
            Some(NearCorner::X("a1".parse().unwrap()))
        );
        assert_eq!(f.flips, 1);
        // White has no disc left: no move, and Black none either: the game is over.
        assert!(f.ends_game() && !f.opponent_must_pass());
    }
}
