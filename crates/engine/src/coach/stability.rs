//! Stable discs: discs that can never be flipped again, counted for both sides a few plies
//! into the played and the better line.

use super::lines::{sides, Lines};
use super::{At, Claim, Kind, Mistake};
use crate::endgame::stability::stable_discs;
use virada_rules::{Bitboard, Board};

/// The stable-disc balance must be this much worse in the played line to be named.
const GAP: i32 = 2;

/// Stable discs of (the mover, the opponent) on a board `plies` into a line.
fn stable(board: Board, plies: usize) -> (u64, u64) {
    let (own, other) = sides(board, plies);
    (stable_discs(own, other), stable_discs(other, own))
}

/// As many plies into both lines as both reach, the stable discs (own minus the opponent's)
/// are at least [`GAP`] fewer in the played line. Numbers: `plies`, `own_played`,
/// `opponent_played`, `own_best`, `opponent_best`. Squares: the opponent's stable discs in the
/// played line that it lacks in the better one, else the mover's stable discs in the better
/// line that it lacks in the played one.
pub fn stability(_m: &Mistake, lines: &Lines) -> Option<Claim> {
    let h = lines.common();
    let (own_p, opp_p) = stable(lines.played[h - 1], h);
    let (own_b, opp_b) = stable(lines.best[h - 1], h);
    let n = |x: u64| x.count_ones() as i32;
    if (n(own_b) - n(opp_b)) - (n(own_p) - n(opp_p)) < GAP {
        return None;
    }
    let given = opp_p & !opp_b;
    // The opponent's discs are drawn on the played line's board, the mover's on the better's.
    let (squares, at) = if given != 0 {
        (given, At::played(h))
    } else {
        (own_b & !own_p, At::best(h))
    };
    Some(
        Claim::both_lines(
            Kind::Stability,
            Bitboard(squares).iter().collect(),
            h,
            [own_p, opp_p, own_b, opp_b],
        )
        .at(at),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coach::test_util::{board, mistake, names};

    fn position() -> Board {
        // a1 is open to both sides (see edges.rs): whoever takes it anchors two edges.
        board(
            "-OOOX---\
             X-------\
             X-------\
             O--OX---\
             ---XO---\
             --------\
             --------\
             -------- X",
        )
    }

    #[test]
    fn stable_discs_given_are_counted() {
        let m = mistake(position(), "f5", &["a1"], "a1", &["a1", "d6"]);
        let c = stability(&m, &Lines::new(&m)).expect("White's a1 makes 7 stable discs");
        assert_eq!(c.number("plies"), 2);
        assert_eq!(c.number("opponent_played"), 7);
        assert_eq!(c.number("own_played"), 0);
        assert_eq!(c.number("own_best"), 7);
        assert_eq!(c.number("opponent_best"), 0);
        assert_eq!(
            names(&c.squares),
            ["a1", "b1", "c1", "d1", "a2", "a3", "a4"]
        );
    }

    #[test]
    fn stable_discs_kept_are_not_blamed() {
        let m = mistake(position(), "a1", &["d6"], "f5", &["f5", "a1"]);
        assert!(stability(&m, &Lines::new(&m)).is_none());
        // Lines known one ply deep: nothing is stable yet after f5 or d3.
        let m = mistake(position(), "f5", &[], "d3", &[]);
        assert!(stability(&m, &Lines::new(&m)).is_none());
    }
}
