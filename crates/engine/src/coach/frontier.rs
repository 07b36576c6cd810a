//! Frontier discs and quiet moves: discs next to empty squares give the opponent moves; a
//! quiet move flips few discs, all inside, and creates few new frontier discs.

use super::lines::{sides, Lines};
use super::{At, Claim, Kind, Mistake};
use virada_rules::movegen::neighbours;
use virada_rules::{Bitboard, Board, Square};

/// New frontier discs: the played move must make at least this many more than the better one.
const FRONTIER_GAP: i32 = 2;
/// The frontier balance a few plies on must be this much worse in the played line.
const LINE_GAP: i32 = 3;
/// Exposed flipped discs: the played move must leave at least this many more.
const EXPOSED_GAP: i32 = 2;

/// Discs of `own` next to an empty square of `board`.
fn frontier_of(own: u64, board: &Board) -> u64 {
    own & neighbours(board.empties())
}

/// The mover's frontier discs after `sq` that were not its frontier discs before (the new
/// disc included when it touches an empty square).
fn created(before: &Board, sq: Square) -> u64 {
    let after = before.play_unchecked(sq);
    frontier_of(after.opponent, &after) & !frontier_of(before.player, before)
}

/// (discs flipped, flipped discs left next to an empty square) by `sq`.
fn flipped(before: &Board, sq: Square) -> (u64, u64) {
    let flips = before.flips(sq).0;
    let after = before.play_unchecked(sq);
    (flips, flips & neighbours(after.empties()))
}

fn squares(mask: u64) -> Vec<Square> {
    Bitboard(mask).iter().collect()
}

/// (the mover's frontier discs, the opponent's) on a board `plies` into a line.
fn frontiers(board: &Board, plies: usize) -> (u64, u64) {
    let (own, other) = sides(*board, plies);
    (frontier_of(own, board), frontier_of(other, board))
}

/// The played move creates clearly more new frontier discs than the better move; or, as many
/// plies into both lines as both are known (at least 2), the frontier balance (the mover's
/// frontier discs minus the opponent's) is at least [`LINE_GAP`] worse. Numbers: `plies` (1 =
/// right after the move), `frontier_played`, `opponent_frontier_played`, `frontier_best`,
/// `opponent_frontier_best`, and right after the move `created_played`, `created_best`.
/// Squares: the new frontier discs of the played move, or the mover's frontier discs at that ply
/// of the played line.
pub fn frontier(m: &Mistake, lines: &Lines) -> Option<Claim> {
    let count = |x: u64| x.count_ones() as i32;
    let new_p = created(&m.before, m.played);
    let new_b = created(&m.before, m.best);
    let (cp, cb) = (count(new_p), count(new_b));
    if cp >= cb + FRONTIER_GAP {
        let (own_p, opp_p) = frontiers(&lines.after_played(), 1);
        let (own_b, opp_b) = frontiers(&lines.after_best(), 1);
        return Some(Claim::new(
            Kind::Frontier,
            squares(new_p),
            vec![
                ("plies", 1),
                ("created_played", cp),
                ("created_best", cb),
                ("frontier_played", count(own_p)),
                ("opponent_frontier_played", count(opp_p)),
                ("frontier_best", count(own_b)),
                ("opponent_frontier_best", count(opp_b)),
            ],
        ));
    }
    let h = lines.common();
    if h < 2 {
        return None;
    }
    let (own_p, opp_p) = frontiers(&lines.played[h - 1], h);
    let (own_b, opp_b) = frontiers(&lines.best[h - 1], h);
    let gap = (count(own_p) - count(opp_p)) - (count(own_b) - count(opp_b));
    (gap >= LINE_GAP && count(own_p) > count(own_b)).then(|| {
        Claim::new(
            Kind::Frontier,
            squares(own_p),
            vec![
                ("plies", h as i32),
                ("frontier_played", count(own_p)),
                ("opponent_frontier_played", count(opp_p)),
                ("frontier_best", count(own_b)),
                ("opponent_frontier_best", count(opp_b)),
            ],
        )
        .at(At::played(h))
    })
}

/// The better move is the quieter one: the played move leaves clearly more of its flipped
/// discs exposed (next to an empty square). Numbers: `flipped_played`, `exposed_played`,
/// `flipped_best`, `exposed_best`. Squares: the exposed discs the played move flipped.
pub fn quiet_move(m: &Mistake, _lines: &Lines) -> Option<Claim> {
    let (fp, ep) = flipped(&m.before, m.played);
    let (fb, eb) = flipped(&m.before, m.best);
    let count = |x: u64| x.count_ones() as i32;
    (count(ep) >= count(eb) + EXPOSED_GAP).then(|| {
        Claim::new(
            Kind::QuietMove,
            squares(ep),
            vec![
                ("flipped_played", count(fp)),
                ("exposed_played", count(ep)),
                ("flipped_best", count(fb)),
                ("exposed_best", count(eb)),
            ],
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coach::test_util::{board, mistake, names};

    fn position() -> Board {
        board(
            "--------\
             ---X----\
             --X-X---\
             OOOOXX--\
             ---XO---\
             -OOOOO--\
             --------\
             -------- X",
        )
    }

    #[test]
    fn a_loud_move_makes_frontier_discs() {
        // g7 flips d4 e5 f6 along the diagonal, all next to empty squares; f5 flips e5 inside.
        let m = mistake(position(), "g7", &[], "f5", &[]);
        let l = Lines::new(&m);
        let c = frontier(&m, &l).expect("g7 makes 4 new frontier discs, f5 one");
        assert_eq!(names(&c.squares), ["d4", "e5", "f6", "g7"]);
        assert_eq!(c.number("created_played"), 4);
        assert_eq!(c.number("created_best"), 1);
        assert_eq!(c.number("plies"), 1);
        assert_eq!(c.number("frontier_played"), 10);
        assert_eq!(c.number("frontier_best"), 7);
        let q = quiet_move(&m, &l).expect("f5 is quieter");
        assert_eq!(names(&q.squares), ["d4", "e5", "f6"]);
        assert_eq!(
            q.numbers,
            vec![
                ("flipped_played", 3),
                ("exposed_played", 3),
                ("flipped_best", 1),
                ("exposed_best", 0)
            ]
        );
    }

    #[test]
    fn frontier_further_into_the_lines() {
        // g7 f3 e7 against f5 f3 c5, 3 plies each.
        let b = position();
        let m = crate::coach::test_util::mistake_with(b, &["g7", "f3", "e7"], &["f5", "f3", "c5"]);
        let l = Lines::new(&m);
        assert_eq!(l.common(), 3);
        let (own_p, opp_p) = frontiers(&l.played[2], 3);
        let (own_b, opp_b) = frontiers(&l.best[2], 3);
        // The mover's discs after 3 plies are the side that just moved (White is to move).
        assert_eq!(own_p & !l.played[2].opponent, 0);
        assert_eq!(opp_p & !l.played[2].player, 0);
        let c = frontier(&m, &l).expect("g7 creates new frontier discs at once");
        assert_eq!(c.number("plies"), 1);
        let n = |x: u64| x.count_ones() as i32;
        let gap = (n(own_p) - n(opp_p)) - (n(own_b) - n(opp_b));
        // The other way round nothing new is created, so only the lines can speak.
        let back =
            crate::coach::test_util::mistake_with(b, &["f5", "f3", "c5"], &["g7", "f3", "e7"]);
        match frontier(&back, &Lines::new(&back)) {
            Some(c) => {
                assert_eq!(c.number("plies"), 3);
                assert!(-gap >= LINE_GAP, "{c:?}");
            }
            None => assert!(-gap < LINE_GAP || n(own_b) <= n(own_p)),
        }
    }

    #[test]
    fn the_quiet_move_itself_is_not_blamed() {
        let m = mistake(position(), "f5", &[], "g7", &[]);
        let l = Lines::new(&m);
        assert!(frontier(&m, &l).is_none());
        assert!(quiet_move(&m, &l).is_none());
    }
}
