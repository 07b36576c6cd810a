//! Finding endgame puzzles in positions: the exact solver scores every legal move; a position
//! is a puzzle when one move is strictly best by a margin, and its line goes on while the
//! solver's best move stays unique.

use super::difficulty::initial_rating;
use super::puzzle::{empties, Puzzle, PuzzleKind};
use super::themes::themes;
use crate::endgame::{solve_with_table, SolveOptions, SolveResult};
use crate::eval::{default_evaluator, Gen3Eval};
use crate::tt::TranspositionTable;
use std::sync::Arc;
use virada_rules::{Move, Position, Square};

/// What makes a position an endgame puzzle.
#[derive(Clone, Debug)]
pub struct FinderConfig {
    /// Empty squares of the start, inclusive range.
    pub min_empties: u32,
    pub max_empties: u32,
    /// The solution must beat every other move by at least this many discs, unless it changes
    /// the result (win vs draw or loss, draw vs loss) by at least [`FinderConfig::min_gap`].
    pub min_margin: i32,
    /// The gap any unique best move has over the next (scores are even: 2 = strictly best).
    pub min_gap: i32,
    /// At most this many solver moves in the line.
    pub max_solver_moves: usize,
    /// Transposition table of the finder's solves, MiB.
    pub tt_mib: usize,
}

impl Default for FinderConfig {
    fn default() -> Self {
        FinderConfig {
            min_empties: 8,
            max_empties: 20,
            min_margin: 6,
            min_gap: 2,
            max_solver_moves: 4,
            tt_mib: 64,
        }
    }
}

/// Solves positions one after the other with one table (single-threaded: results and node
/// counts do not depend on the machine).
pub struct Finder {
    pub config: FinderConfig,
    tt: TranspositionTable,
    eval: Arc<Gen3Eval>,
    /// Solver nodes spent so far.
    pub nodes: u64,
}

/// Every legal move of `pos` with its exact score, best first, from a complete solve.
pub(crate) fn exact_scores(r: &SolveResult) -> Option<Vec<(Square, i32)>> {
    if !r.complete {
        return None;
    }
    r.move_scores
        .iter()
        .map(|&(mv, b)| Some((mv.square()?, b.value()?)))
        .collect()
}

fn sign(v: i32) -> i32 {
    v.signum()
}

impl Finder {
    pub fn new(config: FinderConfig) -> Finder {
        let tt = TranspositionTable::new(config.tt_mib);
        Finder {
            config,
            tt,
            eval: default_evaluator(),
            nodes: 0,
        }
    }

    /// A complete exact solve of `pos` scoring every move (no limits).
    pub fn solve_all(&mut self, pos: &Position) -> SolveResult {
        let opts = SolveOptions {
            all_moves: true,
            threads: 1,
            ..SolveOptions::default()
        };
        let r = solve_with_table(pos.board(), &opts, &self.tt, &self.eval);
        self.nodes += r.nodes;
        r
    }

    /// The best line of `pos` (exact solve, best move only).
    pub fn solve_line(&mut self, pos: &Position) -> Vec<Move> {
        let opts = SolveOptions {
            threads: 1,
            ..SolveOptions::default()
        };
        let r = solve_with_table(pos.board(), &opts, &self.tt, &self.eval);
        self.nodes += r.nodes;
        r.pv
    }

    /// Whether scores `s` (best first) single out their first move: strictly best by
    /// `min_gap`, and by `min_margin` or a different result.
    fn singles_out(&self, s: &[(Square, i32)], margin: i32) -> bool {
        if s.len() < 2 {
            return false;
        }
        let (best, second) = (s[0].1, s[1].1);
        best - second >= self.config.min_gap
            && (best - second >= margin || sign(best) != sign(second))
    }

    /// The endgame puzzle starting at `pos`, if it is one.
    pub fn endgame(&mut self, pos: Position) -> Option<Puzzle> {
        let e = empties(&pos);
        if e < self.config.min_empties || e > self.config.max_empties {
            return None;
        }
        if pos.board().legal_moves().count() < 2 {
            return None;
        }
        let r = self.solve_all(&pos);
        let scores = exact_scores(&r)?;
        if !self.singles_out(&scores, self.config.min_margin) {
            return None;
        }
        let line = self.extend_line(pos, &r.pv);
        let mut p = Puzzle {
            id: Puzzle::id_for(PuzzleKind::Endgame, &pos),
            start: pos,
            kind: PuzzleKind::Endgame,
            line,
            scores,
            themes: Vec::new(),
            rating: crate::glicko::Rating::NEW_PLAYER,
        };
        let runner_up = p.scores[1].0;
        let after = pos.play_unchecked(Move::Play(runner_up));
        let mut played_line = vec![Move::Play(runner_up)];
        if !after.is_game_over() {
            played_line.extend(self.solve_line(&after));
        }
        p.themes = themes(&p, &r.pv, &played_line);
        p.rating = initial_rating(&p);
        Some(p)
    }

    /// The solution line: `pv` (starting with the solution) followed while the solver's best
    /// move stays unique (by `min_gap`) at each of the solver's later turns.
    fn extend_line(&mut self, start: Position, pv: &[Move]) -> Vec<Move> {
        let solver = start.side_to_move();
        let mut line = vec![pv[0]];
        let mut pos = start.play_unchecked(pv[0]);
        let mut pv: Vec<Move> = pv[1..].to_vec();
        let mut solver_moves = 1;
        while solver_moves < self.config.max_solver_moves {
            // The opponent's replies (and forced passes) up to the solver's next turn.
            let mut replies = Vec::new();
            let mut i = 0;
            while pos.side_to_move() != solver {
                if pos.is_game_over() || replies.len() > 1 {
                    return line;
                }
                let mv = if pos.must_pass() {
                    if pv.get(i) == Some(&Move::Pass) {
                        i += 1;
                    }
                    Move::Pass
                } else {
                    match pv.get(i) {
                        Some(&mv) if pos.check(mv).is_ok() => {
                            i += 1;
                            mv
                        }
                        _ => return line,
                    }
                };
                replies.push(mv);
                pos = pos.play_unchecked(mv);
            }
            if pos.board().legal_moves().count() < 2 {
                return line;
            }
            let r = self.solve_all(&pos);
            let Some(scores) = exact_scores(&r) else {
                return line;
            };
            if !self.singles_out(&scores, self.config.min_gap) {
                return line;
            }
            line.extend(replies);
            line.push(r.pv[0]);
            pos = pos.play_unchecked(r.pv[0]);
            pv = r.pv[1..].to_vec();
            solver_moves += 1;
        }
        line
    }
}
