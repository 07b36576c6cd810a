//! Mobility: the legal moves of both sides after the played and after the better move.

use super::lines::Lines;
use super::{At, Claim, Kind, Mistake};
use virada_rules::Board;

/// The mobility balance (own moves minus the opponent's) must be this much worse after the
/// played move than after the better one to be named.
const BALANCE_GAP: i32 = 3;
/// Or the opponent gets at least this many more moves.
const OPPONENT_GAP: i32 = 2;

/// (the mover's moves, the opponent's moves) on the board right after a move (opponent to
/// move): the mover's count is the moves it would have if it were its turn.
fn counts(after: &Board) -> (i32, i32) {
    (
        after.pass().legal_moves().count() as i32,
        after.legal_moves().count() as i32,
    )
}

/// (the mover's moves, the opponent's moves) on a board `plies` into a line (each counted as
/// if it were that side's turn).
fn counts_at(board: &Board, plies: usize) -> (i32, i32) {
    let (own, opp) = counts(board);
    if plies % 2 == 1 {
        (own, opp)
    } else {
        (opp, own)
    }
}

/// Whether (own, opponent) after the played move is clearly worse than after the better one.
fn worse((own_p, opp_p): (i32, i32), (own_b, opp_b): (i32, i32)) -> bool {
    let gap = (own_b - opp_b) - (own_p - opp_p);
    (gap >= BALANCE_GAP || opp_p - opp_b >= OPPONENT_GAP) && gap > 0
}

/// Fires when the played move leaves the opponent clearly more moves, or the mover clearly
/// fewer relative to the opponent, than the better move: right after the move, else after the
/// opponent's best answer (the mover to move again), else as many plies into both lines as both
/// are known. Numbers: `plies` (1 = right after the move),
/// `own_played`, `opponent_played`, `own_best`, `opponent_best`. Squares: the opponent's moves
/// right after the played move (when `plies` is 1), else the side to move's moves at that ply
/// of the played line.
pub fn mobility(_m: &Mistake, lines: &Lines) -> Option<Claim> {
    let h = lines.common();
    let at = [1, 2, h].into_iter().filter(|&k| k <= h).find(|&k| {
        worse(
            counts_at(&lines.played[k - 1], k),
            counts_at(&lines.best[k - 1], k),
        )
    })?;
    let board = lines.played[at - 1];
    let (own_p, opp_p) = counts_at(&board, at);
    let (own_b, opp_b) = counts_at(&lines.best[at - 1], at);
    Some(
        Claim::new(
            Kind::Mobility,
            board.legal_moves().iter().collect(),
            vec![
                ("plies", at as i32),
                ("own_played", own_p),
                ("opponent_played", opp_p),
                ("own_best", own_b),
                ("opponent_best", opp_b),
            ],
        )
        .at(At::played(at)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coach::test_util::{mistake, names, open_a1_corner};

    #[test]
    fn more_moves_for_the_opponent_is_named_with_both_counts() {
        // After b2 White has 5 moves (a1 d3 c4 f5 e6), after f4 only 3 (d3 f3 f5).
        let b = open_a1_corner();
        let m = mistake(b, "b2", &[], "f4", &[]);
        let c = mobility(&m, &Lines::new(&m)).expect("b2 gives White two more moves");
        assert_eq!(c.number("opponent_played"), 5);
        assert_eq!(c.number("opponent_best"), 3);
        assert_eq!(names(&c.squares), ["a1", "d3", "c4", "f5", "e6"]);
        let own_p = b
            .play_unchecked("b2".parse().unwrap())
            .pass()
            .legal_moves()
            .count() as i32;
        assert_eq!(c.number("own_played"), own_p);
        assert_eq!(c.number("plies"), 1);
    }

    #[test]
    fn mobility_further_into_the_lines() {
        // From the start: f5 d6 c3 versus d3 c5 e6 (the lines of both moves, 3 plies):
        // count both sides' moves on the boards the lines reach.
        let b = Board::start();
        let m = crate::coach::test_util::mistake_with(b, &["f5", "d6", "c3"], &["d3", "c5", "e6"]);
        let l = Lines::new(&m);
        assert_eq!(l.common(), 3);
        let p = counts_at(&l.played[2], 3);
        let q = counts_at(&l.best[2], 3);
        // White is to move after 3 plies: its count is the side to move's legal moves.
        assert_eq!(p.1, l.played[2].legal_moves().count() as i32);
        assert_eq!(q.0, l.best[2].pass().legal_moves().count() as i32);
        match mobility(&m, &l) {
            Some(c) => {
                assert!(worse(
                    (c.number("own_played"), c.number("opponent_played")),
                    (c.number("own_best"), c.number("opponent_best"))
                ));
            }
            None => assert!(
                !worse(counts_at(&l.played[0], 1), counts_at(&l.best[0], 1)) && !worse(p, q)
            ),
        }
    }

    #[test]
    fn fewer_moves_for_the_opponent_is_not_named() {
        let m = mistake(open_a1_corner(), "f4", &[], "b2", &[]);
        assert!(mobility(&m, &Lines::new(&m)).is_none());
    }
}
