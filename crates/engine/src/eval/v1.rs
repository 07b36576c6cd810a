//! Evaluation v1: hand-set weights on the strategic features of `RULES.md`.
//!
//! Features (all as "side to move minus opponent"): corners, X- and C-squares next to an empty
//! corner, mobility, potential mobility (empty squares next to the other side's discs),
//! frontier discs, stable discs, edge holes (wedge risk), disc count and parity. Each weight is
//! interpolated between an opening value and an endgame value by the number of empty squares,
//! because the same feature matters differently as the game goes on (discs are a liability early
//! and the whole point late).

use super::features::{adjacent_empties, frontier, risky_squares, stable_discs};
use super::{Evaluator, MAX_EVAL};
use virada_rules::movegen::legal_moves;
use virada_rules::Board;

use virada_rules::masks::{COLUMN_A as COL_A, COLUMN_H as COL_H, CORNERS, ROWS_1_8};

/// A weight at the opening (60 empties), midgame (30) and end (0): interpolated linearly.
#[derive(Clone, Copy, Debug)]
struct Weight {
    opening: i32,
    midgame: i32,
    end: i32,
}

const fn w(opening: i32, midgame: i32, end: i32) -> Weight {
    Weight {
        opening,
        midgame,
        end,
    }
}

impl Weight {
    #[inline]
    fn at(&self, empties: i32) -> i32 {
        if empties >= 30 {
            self.midgame + (self.opening - self.midgame) * (empties - 30) / 30
        } else {
            self.end + (self.midgame - self.end) * empties / 30
        }
    }
}

/// The weights of v1 in hundredths of a disc per feature unit.
#[derive(Clone, Debug)]
struct Weights {
    corner: Weight,
    x_square: Weight,
    c_square: Weight,
    mobility: Weight,
    potential_mobility: Weight,
    frontier: Weight,
    stable: Weight,
    edge_hole: Weight,
    disc: Weight,
    parity: Weight,
    opponent_must_pass: Weight,
}

const WEIGHTS: Weights = Weights {
    corner: w(800, 650, 300),
    x_square: w(-400, -300, -100),
    c_square: w(-120, -100, -30),
    mobility: w(110, 90, 40),
    potential_mobility: w(30, 25, 5),
    frontier: w(-20, -15, -5),
    stable: w(120, 130, 120),
    edge_hole: w(-60, -60, -20),
    disc: w(-10, 0, 90),
    parity: w(0, 40, 150),
    opponent_must_pass: w(250, 250, 150),
};

/// The precomputed values of one position's features, for explanations and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    pub corners: i32,
    pub x_squares: i32,
    pub c_squares: i32,
    pub mobility: i32,
    pub potential_mobility: i32,
    pub frontier: i32,
    pub stable: i32,
    pub edge_holes: i32,
    pub discs: i32,
    pub parity: i32,
    pub opponent_must_pass: i32,
}

/// Evaluation v1 (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct EvalV1;

impl EvalV1 {
    /// The evaluation with its built-in weights.
    pub fn new() -> EvalV1 {
        EvalV1
    }

    /// The feature values of `board` (side to move minus opponent).
    pub fn features(&self, board: &Board) -> Features {
        let p = board.player;
        let o = board.opponent;
        let empties = board.empties();
        let n_empty = empties.count_ones() as i32;
        let diff = |a: u64, b: u64| a.count_ones() as i32 - b.count_ones() as i32;
        let (x_risky, c_risky) = risky_squares(empties);
        let p_moves = legal_moves(p, o);
        let o_moves = legal_moves(o, p);
        let p_stable = stable_discs(p, o);
        let o_stable = stable_discs(o, p);
        Features {
            corners: diff(p & CORNERS, o & CORNERS),
            x_squares: diff(p & x_risky, o & x_risky),
            c_squares: diff(p & c_risky, o & c_risky),
            mobility: diff(p_moves, o_moves),
            potential_mobility: diff(adjacent_empties(o, empties), adjacent_empties(p, empties)),
            frontier: diff(frontier(p, empties), frontier(o, empties)),
            stable: diff(p_stable, o_stable),
            edge_holes: diff(edge_holes(p, empties), edge_holes(o, empties)),
            discs: diff(p, o),
            parity: if n_empty % 2 == 1 { 1 } else { 0 },
            opponent_must_pass: i32::from(o_moves == 0 && p_moves != 0)
                - i32::from(p_moves == 0 && o_moves != 0),
        }
    }
}

/// Empty edge squares with one side's discs on both neighbours along the edge: a hole the
/// opponent may wedge into with an edge disc that can never be taken back.
#[inline]
fn edge_holes(own: u64, empties: u64) -> u64 {
    let horizontal = ((own << 1) & !COL_A) & ((own >> 1) & !COL_H) & ROWS_1_8;
    let vertical = (own << 8) & (own >> 8) & (COL_A | COL_H);
    (horizontal | vertical) & empties
}

impl Evaluator for EvalV1 {
    fn name(&self) -> &str {
        "v1"
    }

    fn evaluate(&self, board: &Board) -> i32 {
        let f = self.features(board);
        let e = board.empty_count() as i32;
        let wt = &WEIGHTS;
        let v = wt.corner.at(e) * f.corners
            + wt.x_square.at(e) * f.x_squares
            + wt.c_square.at(e) * f.c_squares
            + wt.mobility.at(e) * f.mobility
            + wt.potential_mobility.at(e) * f.potential_mobility
            + wt.frontier.at(e) * f.frontier
            + wt.stable.at(e) * f.stable
            + wt.edge_hole.at(e) * f.edge_holes
            + wt.disc.at(e) * f.discs
            + wt.parity.at(e) * f.parity
            + wt.opponent_must_pass.at(e) * f.opponent_must_pass;
        v.clamp(-MAX_EVAL, MAX_EVAL)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::SCALE;
    use virada_rules::{Position, Symmetry};

    fn board(s: &str) -> Board {
        s.parse::<Position>().unwrap().board()
    }

    #[test]
    fn start_is_balanced_and_symmetric() {
        let e = EvalV1::new();
        let start = Board::start();
        assert!(e.evaluate(&start).abs() <= SCALE);
        let after = start.play_unchecked("f5".parse().unwrap());
        let v = e.evaluate(&after);
        for sym in Symmetry::ALL {
            assert_eq!(e.evaluate(&sym.apply_board(after)), v, "{sym:?}");
        }
    }

    #[test]
    fn owning_a_corner_is_good() {
        let e = EvalV1::new();
        // Same discs, except that a1 belongs to the side to move in one and to the opponent in
        // the other.
        // White (O) is to move.
        let black_corner =
            board("X-------OXXO----OOXXX-----XXO-----XOO--------------------------- O");
        let white_corner =
            board("O-------OXXO----OOXXX-----XXO-----XOO--------------------------- O");
        assert!(e.evaluate(&white_corner) > e.evaluate(&black_corner) + 3 * SCALE);
    }

    #[test]
    fn x_square_with_empty_corner_is_bad() {
        let e = EvalV1::new();
        let f = e.features(&board(
            "---------X---------XO------XXX----XOO--------------------------- O",
        ));
        assert_eq!(f.x_squares, -1);
    }

    #[test]
    fn values_stay_in_range() {
        let e = EvalV1::new();
        let wipe = Board::new(0xFFFF_FFFF_FFFF_FF00, 0x0000_0000_0000_00FE);
        let v = e.evaluate(&wipe);
        assert!((-MAX_EVAL..=MAX_EVAL).contains(&v));
        assert!(v > 20 * SCALE);
    }
}
