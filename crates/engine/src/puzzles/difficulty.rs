//! The initial rating of a puzzle: a simple additive model of what makes a position hard to
//! solve, on the Glicko-2 scale (1500 = an average solver has even chances). Attempts then
//! correct it ([`crate::glicko`]).
//!
//! | feature                                                   | points        |
//! |-----------------------------------------------------------|---------------|
//! | base                                                      | 1000          |
//! | each empty square above 6 (endgame puzzles)               | +30           |
//! | a midgame puzzle (judged by search, not counted out)      | +400          |
//! | each other move within 4 discs of the solution            | +60           |
//! | each solver move of the line after the first              | +80           |
//! | the solution is an X- or C-square (next to an empty corner) | +150        |
//! | the solution makes the opponent pass                      | +60           |
//! | the solution takes a corner                               | -120          |
//!
//! clamped to 800..=2500; the deviation starts at [`INITIAL_RD`] (uncertain: the model is
//! rough) and the volatility at 0.06.

use super::puzzle::{Puzzle, PuzzleKind};
use crate::glicko::Rating;
use virada_rules::masks::CORNERS;
use virada_rules::{Move, Square};

/// The rating deviation of a new puzzle.
pub const INITIAL_RD: f64 = 300.0;

/// Discs within which another move counts as a near-best temptation.
pub const NEAR_BEST: i32 = 4;

/// The corner next to `sq` if `sq` is an X- or C-square and that corner is empty.
fn empty_corner_next_to(sq: Square, occupied: u64) -> bool {
    let (f, r) = (sq.index() % 8, sq.index() / 8);
    let near = |v: usize| v <= 1 || v >= 6;
    if !near(f) || !near(r) || CORNERS & sq.bit() != 0 {
        return false;
    }
    let cf = if f <= 1 { 0 } else { 7 };
    let cr = if r <= 1 { 0 } else { 7 };
    let corner = 1u64 << (cr * 8 + cf);
    // X-squares (1,1) and C-squares (0,1)/(1,0): at most one step from the corner each way, not
    // the corner itself; squares like (0,6) are C-squares of the other corner (also covered).
    let df = f.abs_diff(cf);
    let dr = r.abs_diff(cr);
    df <= 1 && dr <= 1 && occupied & corner == 0
}

/// The model's rating of `p` (see the table above).
pub fn initial_rating(p: &Puzzle) -> Rating {
    let board = p.start.board();
    let occupied = board.player | board.opponent;
    let best = p.best_score();
    let near = p.scores[1..]
        .iter()
        .filter(|&&(_, s)| s >= best - NEAR_BEST)
        .count() as f64;
    let sol = p.solution();
    let mut r = 1000.0
        + match p.kind {
            PuzzleKind::Endgame => 30.0 * f64::from(p.empties().saturating_sub(6)),
            PuzzleKind::Midgame => 400.0,
        }
        + 60.0 * near
        + 80.0 * (p.solver_moves().saturating_sub(1)) as f64;
    if empty_corner_next_to(sol, occupied) {
        r += 150.0;
    }
    if p.line.get(1) == Some(&Move::Pass) {
        r += 60.0;
    }
    if CORNERS & sol.bit() != 0 {
        r -= 120.0;
    }
    Rating::new(r.clamp(800.0, 2500.0), INITIAL_RD, 0.06)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn x_and_c_squares() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        assert!(empty_corner_next_to(sq("b2"), 0));
        assert!(empty_corner_next_to(sq("b1"), 0));
        assert!(empty_corner_next_to(sq("g8"), 0));
        assert!(empty_corner_next_to(sq("h7"), 0));
        assert!(!empty_corner_next_to(sq("a1"), 0));
        assert!(!empty_corner_next_to(sq("c1"), 0));
        assert!(!empty_corner_next_to(sq("d4"), 0));
        assert!(!empty_corner_next_to(sq("b2"), sq("a1").bit()));
    }
}
