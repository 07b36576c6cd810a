//! The puzzle type.

use crate::glicko::Rating;
use virada_rules::{Color, Move, Position, Square};

/// How a puzzle's solution is proven.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PuzzleKind {
    /// By the exact solver: every score is the final disc difference with perfect play.
    Endgame,
    /// By a deep midgame search: scores are estimates, the solution leads by a margin.
    Midgame,
}

impl PuzzleKind {
    pub fn as_str(self) -> &'static str {
        match self {
            PuzzleKind::Endgame => "endgame",
            PuzzleKind::Midgame => "midgame",
        }
    }

    pub fn parse(s: &str) -> Option<PuzzleKind> {
        match s {
            "endgame" => Some(PuzzleKind::Endgame),
            "midgame" => Some(PuzzleKind::Midgame),
            _ => None,
        }
    }
}

/// What a puzzle teaches, named from the coach's explanation of the runner-up move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Theme {
    /// A corner taken, given or missed; X- and C-squares.
    Corner,
    /// Edges: unbalanced edges, wedges.
    Edge,
    /// Endgame parity: who moves last in each empty region.
    Parity,
    /// The opponent could flip every disc.
    Wipeout,
    /// Stable discs won or given.
    Stability,
    /// Legal moves of both sides.
    Mobility,
    /// A pass forced on the opponent or allowed.
    Tempo,
    /// Few frontier discs made, few exposed discs flipped.
    QuietMove,
}

impl Theme {
    pub const ALL: [Theme; 8] = [
        Theme::Corner,
        Theme::Edge,
        Theme::Parity,
        Theme::Wipeout,
        Theme::Stability,
        Theme::Mobility,
        Theme::Tempo,
        Theme::QuietMove,
    ];

    /// The name in files and the API.
    pub fn as_str(self) -> &'static str {
        match self {
            Theme::Corner => "corner",
            Theme::Edge => "edge",
            Theme::Parity => "parity",
            Theme::Wipeout => "wipeout",
            Theme::Stability => "stability",
            Theme::Mobility => "mobility",
            Theme::Tempo => "tempo",
            Theme::QuietMove => "quiet_move",
        }
    }

    pub fn parse(s: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|t| t.as_str() == s)
    }
}

/// A puzzle: find the one move that keeps the best result, then keep finding it.
#[derive(Clone, Debug, PartialEq)]
pub struct Puzzle {
    /// Stable identifier derived from the start position (see [`Puzzle::id_for`]).
    pub id: String,
    /// The position to solve; its side to move is the solver.
    pub start: Position,
    pub kind: PuzzleKind,
    /// The solution line from `start`: the solver's move, the opponent's best reply, the solver's
    /// next move, ... ending with a solver move; forced passes appear as [`Move::Pass`].
    pub line: Vec<Move>,
    /// Every legal move of `start` with its score (final disc difference for the solver), the
    /// solution first, then best to worst.
    pub scores: Vec<(Square, i32)>,
    /// Sorted, without repeats.
    pub themes: Vec<Theme>,
    pub rating: Rating,
}

impl Puzzle {
    /// `kind` letter, empties and 40 bits of an FNV-1a hash of the position text, e.g.
    /// `e18-3fa09b12c4`.
    pub fn id_for(kind: PuzzleKind, start: &Position) -> String {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in start.to_string().bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        let letter = match kind {
            PuzzleKind::Endgame => 'e',
            PuzzleKind::Midgame => 'm',
        };
        format!("{letter}{:02}-{:010x}", empties(start), h >> 24)
    }

    /// The colour that solves the puzzle.
    pub fn solver(&self) -> Color {
        self.start.side_to_move()
    }

    /// Empty squares of the start position.
    pub fn empties(&self) -> u32 {
        empties(&self.start)
    }

    /// The first move of the solution.
    pub fn solution(&self) -> Square {
        self.scores[0].0
    }

    /// The solution's score.
    pub fn best_score(&self) -> i32 {
        self.scores[0].1
    }

    /// The stated score of `sq` at the start, if it is a legal move.
    pub fn score_of(&self, sq: Square) -> Option<i32> {
        self.scores.iter().find(|(s, _)| *s == sq).map(|&(_, v)| v)
    }

    /// Moves the solver must find (the line's moves at the solver's turns).
    pub fn solver_moves(&self) -> usize {
        self.steps().filter(|(_, mine, _)| *mine).count()
    }

    /// Each move of the line with the position before it and whether the solver plays it.
    pub fn steps(&self) -> impl Iterator<Item = (Position, bool, Move)> + '_ {
        let solver = self.solver();
        let mut pos = self.start;
        self.line.iter().map(move |&mv| {
            let before = pos;
            pos = pos.play_unchecked(mv);
            (
                before,
                before.side_to_move() == solver && mv != Move::Pass,
                mv,
            )
        })
    }
}

/// Empty squares of a position.
pub fn empties(pos: &Position) -> u32 {
    let b = pos.board();
    64 - (b.player | b.opponent).count_ones()
}
