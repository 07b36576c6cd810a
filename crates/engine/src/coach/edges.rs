//! Edges: an unbalanced edge (a run of discs from one C-square that can be attacked from one
//! side), a wedge (a gap between two of the mover's edge discs the opponent can fill) and an
//! edge anchor (stable edge discs grown from a corner, a few plies on).

use super::lines::{sides, Lines};
use super::{Claim, Kind, Mistake};
use crate::endgame::stability::stable_discs;
use virada_rules::{Bitboard, Board, Square};

/// The four edges, each as its eight squares from one corner to the other.
fn edges() -> [[Square; 8]; 4] {
    let at = |c: u8, r: u8| Square::from_coords(c, r).expect("on board");
    [
        std::array::from_fn(|i| at(i as u8, 0)),
        std::array::from_fn(|i| at(i as u8, 7)),
        std::array::from_fn(|i| at(0, i as u8)),
        std::array::from_fn(|i| at(7, i as u8)),
    ]
}

/// Gaps the opponent (to move on `after`) can fill between two of the mover's discs on an edge:
/// (the gap, its two neighbours).
fn wedges(after: &Board) -> Vec<(Square, Square, Square)> {
    let mover = after.opponent;
    let legal = after.moves();
    let mut out = Vec::new();
    for edge in edges() {
        for i in 1..7 {
            let (left, gap, right) = (edge[i - 1], edge[i], edge[i + 1]);
            if legal & gap.bit() != 0 && mover & left.bit() != 0 && mover & right.bit() != 0 {
                out.push((gap, left, right));
            }
        }
    }
    out
}

/// After the played move the opponent can play a wedge that the better move did not allow.
/// Squares: the gap, then the two discs around it.
pub fn wedge(_m: &Mistake, lines: &Lines) -> Option<Claim> {
    let after_best: Vec<Square> = wedges(&lines.after_best()).iter().map(|w| w.0).collect();
    let (gap, left, right) = wedges(&lines.after_played())
        .into_iter()
        .find(|w| !after_best.contains(&w.0))?;
    Some(Claim::new(Kind::Wedge, vec![gap, left, right], Vec::new()))
}

/// The mover's discs on `edge` if they make an unbalanced edge: no opponent disc and no corner
/// on that edge, one unbroken run of 3 or more discs that holds exactly one of its C-squares.
fn unbalanced_run(own: u64, other: u64, edge: &[Square; 8]) -> Option<Vec<Square>> {
    let on = |sq: &Square, set: u64| set & sq.bit() != 0;
    if edge.iter().any(|s| on(s, other)) || on(&edge[0], own) || on(&edge[7], own) {
        return None;
    }
    let held: Vec<usize> = (0..8).filter(|&i| on(&edge[i], own)).collect();
    let (&first, &last) = (held.first()?, held.last()?);
    let unbroken = last - first + 1 == held.len();
    let one_c = (first == 1) != (last == 6);
    (unbroken && one_c && held.len() >= 3).then(|| held.iter().map(|&i| edge[i]).collect())
}

/// The played move makes an unbalanced edge that neither the position before nor the better
/// move has. Squares: the run. Numbers: `discs` (its length).
pub fn unbalanced_edge(m: &Mistake, lines: &Lines) -> Option<Claim> {
    let (ap, ab) = (lines.after_played(), lines.after_best());
    for edge in edges() {
        let Some(run) = unbalanced_run(ap.opponent, ap.player, &edge) else {
            continue;
        };
        let before = unbalanced_run(m.before.player, m.before.opponent, &edge).is_some();
        let best = unbalanced_run(ab.opponent, ab.player, &edge).is_some();
        if !before && !best {
            let n = run.len() as i32;
            return Some(Claim::new(Kind::UnbalancedEdge, run, vec![("discs", n)]));
        }
    }
    None
}

/// Stable discs on the edges for (the mover, the opponent) on a board `plies` into a line.
pub fn edge_stable(board: Board, plies: usize) -> (u64, u64) {
    let (own, other) = sides(board, plies);
    let edges = Bitboard::EDGES.0;
    (
        stable_discs(own, other) & edges,
        stable_discs(other, own) & edges,
    )
}

/// As many plies into both lines as both reach, the opponent holds clearly more stable edge
/// discs (anchored on a corner) after the played move than after the better one, relative to
/// the mover's. Numbers: `plies`, `opponent_played`, `own_played`, `opponent_best`,
/// `own_best`. Squares: the opponent's stable edge discs in the played line.
pub fn edge_anchor(_m: &Mistake, lines: &Lines) -> Option<Claim> {
    let h = lines.common();
    let (own_p, opp_p) = edge_stable(lines.played[h - 1], h);
    let (own_b, opp_b) = edge_stable(lines.best[h - 1], h);
    let n = |x: u64| x.count_ones() as i32;
    let gap = (n(opp_p) - n(own_p)) - (n(opp_b) - n(own_b));
    (gap >= 2 && n(opp_p) > n(opp_b)).then(|| {
        Claim::both_lines(
            Kind::EdgeAnchor,
            Bitboard(opp_p).iter().collect(),
            h,
            [own_p, opp_p, own_b, opp_b],
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coach::test_util::{board, mistake, names};

    #[test]
    fn a_wedge_between_two_edge_discs() {
        // Black's h4 leaves h5 empty between h4 and h6, and White can play there.
        let b = board(
            "--------\
             --------\
             --OX--O-\
             ---OX-O-\
             --OOOOO-\
             --X-OXXX\
             ---OX-O-\
             ----X--- X",
        );
        let m = mistake(b, "h4", &[], "b2", &[]);
        let l = Lines::new(&m);
        let c = wedge(&m, &l).expect("White can wedge at h5");
        assert_eq!(names(&c.squares), ["h5", "h4", "h6"]);
        let back = mistake(b, "b2", &[], "h4", &[]);
        assert!(wedge(&back, &Lines::new(&back)).is_none());
    }

    #[test]
    fn unbalanced_run_shapes() {
        let edge = edges()[0];
        let bits = |s: &[&str]| {
            s.iter()
                .fold(0u64, |m, x| m | x.parse::<Square>().unwrap().bit())
        };
        // b1-f1: five from one C-square.
        let run = unbalanced_run(bits(&["b1", "c1", "d1", "e1", "f1"]), 0, &edge).unwrap();
        assert_eq!(names(&run), ["b1", "c1", "d1", "e1", "f1"]);
        // b1-g1 holds both C-squares: balanced.
        assert!(unbalanced_run(bits(&["b1", "c1", "d1", "e1", "f1", "g1"]), 0, &edge).is_none());
        // c1-f1 touches no C-square; b1 c1 e1 is broken; a white disc on the edge spoils it.
        assert!(unbalanced_run(bits(&["c1", "d1", "e1", "f1"]), 0, &edge).is_none());
        assert!(unbalanced_run(bits(&["b1", "c1", "e1"]), 0, &edge).is_none());
        assert!(unbalanced_run(bits(&["b1", "c1", "d1"]), bits(&["g1"]), &edge).is_none());
    }

    #[test]
    fn the_move_that_makes_an_unbalanced_edge() {
        // Black's d1 flips c1: b1-d1 is a run from the C-square b1, open towards e1.
        let b = board(
            "-XO-----\
             -XO-OX--\
             -OOXO---\
             OOOXXO--\
             --XXXX--\
             ----X---\
             ----X---\
             -------- X",
        );
        let m = mistake(b, "d1", &[], "e1", &[]);
        let c = unbalanced_edge(&m, &Lines::new(&m)).expect("b1-d1 is unbalanced");
        assert_eq!(names(&c.squares), ["b1", "c1", "d1"]);
        assert_eq!(c.numbers, vec![("discs", 3)]);
        // e1 leaves White's c1 on the edge: no unbalanced edge.
        let back = mistake(b, "e1", &[], "d1", &[]);
        assert!(unbalanced_edge(&back, &Lines::new(&back)).is_none());
    }

    #[test]
    fn an_anchor_given_on_the_edge() {
        // a1 is open to both sides: White takes it over a2-a3 (a4 is White's) after Black's
        // quiet f4; Black's own a1 (over b1-d1, e1 is Black's) anchors the top edge instead.
        let b = board(
            "-OOOX---\
             X-------\
             X-------\
             O--OX---\
             ---XO---\
             --------\
             --------\
             -------- X",
        );
        let m = mistake(b, "f5", &["a1"], "a1", &["a1", "d6"]);
        let l = Lines::new(&m);
        assert_eq!(l.common(), 2);
        let c = edge_anchor(&m, &l).expect("White anchors a1 on two edges");
        assert!(c.number("opponent_played") >= 4, "{c:?}");
        assert_eq!(c.number("opponent_best"), 0);
        assert!(names(&c.squares).contains(&"a1".to_string()));
        let back = mistake(b, "a1", &["d6"], "f5", &["f5", "a1"]);
        assert!(edge_anchor(&back, &Lines::new(&back)).is_none());
    }
}
