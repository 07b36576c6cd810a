//! Finding midgame puzzles: positions too deep to solve where a deep search singles out one
//! move by a margin, the same move at each of the last depths.
//!
//! The stated scores are those of one search at [`MidgameConfig::depth`] from an empty table on
//! one thread, so [`verify_midgame`] reproduces them exactly: the proof is "this search, run
//! again, gives the same values", not an exact solve.

use super::difficulty::initial_rating;
use super::puzzle::{empties, Puzzle, PuzzleKind};
use super::themes::themes;
use crate::analysis::Analysis;
use crate::search::Limits;
use crate::{Engine, EngineConfig};
use std::fmt;
use virada_rules::{Move, Position, Square};

/// What makes a position a midgame puzzle.
#[derive(Clone, Debug)]
pub struct MidgameConfig {
    /// Empty squares of the start, inclusive range.
    pub min_empties: u32,
    pub max_empties: u32,
    /// Depth of the search whose values are stated.
    pub depth: u32,
    /// Shallower depths at which the same move must already lead by the margin, shallowest
    /// first (the first one screens most candidates out cheaply).
    pub ladder: Vec<u32>,
    /// The solution leads every other move by at least this many discs at every depth.
    pub min_margin: i32,
    /// Transposition table, MiB.
    pub tt_mib: usize,
}

impl Default for MidgameConfig {
    fn default() -> Self {
        MidgameConfig {
            min_empties: 24,
            max_empties: 40,
            depth: 16,
            ladder: vec![10, 12, 14],
            min_margin: 6,
            tt_mib: 64,
        }
    }
}

/// Searches positions one after the other on one thread (results and node counts do not
/// depend on the machine).
pub struct MidgameFinder {
    pub config: MidgameConfig,
    engine: Engine,
    /// Search nodes spent so far.
    pub nodes: u64,
}

/// Why a midgame puzzle failed verification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MidgameVerifyError {
    NotMidgame,
    /// The search was cut short.
    Incomplete,
    /// The stated moves are not the legal moves.
    Moves,
    /// A move's stated score is not the search's.
    Score {
        square: Square,
        stated: i32,
        searched: i32,
    },
    /// The solution does not lead every other move by the margin.
    Margin {
        other: Square,
        gap: i32,
    },
}

impl fmt::Display for MidgameVerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MidgameVerifyError::NotMidgame => f.write_str("not a midgame puzzle"),
            MidgameVerifyError::Incomplete => f.write_str("the search did not finish"),
            MidgameVerifyError::Moves => f.write_str("the listed moves are not the legal moves"),
            MidgameVerifyError::Score {
                square,
                stated,
                searched,
            } => write!(
                f,
                "{square} is stated {stated:+} but searches to {searched:+}"
            ),
            MidgameVerifyError::Margin { other, gap } => {
                write!(f, "{other} is only {gap} discs below the solution")
            }
        }
    }
}

impl std::error::Error for MidgameVerifyError {}

/// Every legal move with its score in discs, best first.
type Scores = Vec<(Square, i32)>;

/// Every move of a complete analysis with its value rounded to discs, best first.
fn rounded(a: &Analysis) -> Option<Scores> {
    if !a.complete {
        return None;
    }
    let mut s: Scores = a
        .moves
        .iter()
        .map(|m| Some((m.mv.square()?, m.value.round() as i32)))
        .collect::<Option<_>>()?;
    s.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
    Some(s)
}

/// The smallest lead of `best` over another move, and that move.
fn lead(scores: &[(Square, i32)], best: Square) -> Option<(Square, i32)> {
    let mine = scores.iter().find(|(q, _)| *q == best)?.1;
    scores
        .iter()
        .filter(|(q, _)| *q != best)
        .map(|&(q, v)| (q, mine - v))
        .min_by_key(|&(_, gap)| gap)
}

impl MidgameFinder {
    pub fn new(config: MidgameConfig) -> MidgameFinder {
        let engine = Engine::new(EngineConfig {
            tt_mb: config.tt_mib,
            threads: 1,
            ..EngineConfig::default()
        });
        MidgameFinder {
            config,
            engine,
            nodes: 0,
        }
    }

    fn analyze(&mut self, pos: &Position, depth: u32) -> Analysis {
        let a = self
            .engine
            .analyze(pos.board(), &Limits::depth(depth), None);
        self.nodes += a.nodes;
        a
    }

    /// The stated search: from an empty table, so that it can be repeated exactly.
    fn stated(&mut self, pos: &Position) -> Option<(Scores, Vec<Move>)> {
        self.engine.clear();
        let a = self.analyze(pos, self.config.depth);
        Some((rounded(&a)?, a.pv))
    }

    /// The midgame puzzle starting at `pos`, if it is one.
    pub fn midgame(&mut self, pos: Position) -> Option<Puzzle> {
        let e = empties(&pos);
        if e < self.config.min_empties || e > self.config.max_empties {
            return None;
        }
        if pos.board().legal_moves().count() < 2 {
            return None;
        }
        // The ladder: the same move leads by the margin at each shallower depth.
        self.engine.clear();
        let mut best: Option<Square> = None;
        for depth in self.config.ladder.clone() {
            let scores = rounded(&self.analyze(&pos, depth))?;
            let top = scores[0].0;
            if best.is_some_and(|b| b != top) {
                return None;
            }
            if lead(&scores, top)?.1 < self.config.min_margin {
                return None;
            }
            best = Some(top);
        }
        let (scores, pv) = self.stated(&pos)?;
        let top = scores[0].0;
        if best.is_some_and(|b| b != top) || lead(&scores, top)?.1 < self.config.min_margin {
            return None;
        }
        let mut p = Puzzle {
            id: Puzzle::id_for(PuzzleKind::Midgame, &pos),
            start: pos,
            kind: PuzzleKind::Midgame,
            line: vec![Move::Play(top)],
            scores,
            themes: Vec::new(),
            rating: crate::glicko::Rating::NEW_PLAYER,
        };
        // The runner-up's line, for the coach's comparison.
        let runner_up = Move::Play(p.scores[1].0);
        let after = pos.play_unchecked(runner_up);
        let mut played_line = vec![runner_up];
        if !after.is_game_over() {
            let depth = self
                .config
                .ladder
                .first()
                .copied()
                .unwrap_or(self.config.depth);
            played_line.extend(self.analyze(&after, depth).pv);
        }
        p.themes = themes(&p, &pv, &played_line);
        p.rating = initial_rating(&p);
        Some(p)
    }

    /// Repeats the stated search of `p` and checks its values and the margin.
    pub fn verify(&mut self, p: &Puzzle) -> Result<(), MidgameVerifyError> {
        if p.kind != PuzzleKind::Midgame {
            return Err(MidgameVerifyError::NotMidgame);
        }
        let (searched, _) = self
            .stated(&p.start)
            .ok_or(MidgameVerifyError::Incomplete)?;
        if searched.len() != p.scores.len() {
            return Err(MidgameVerifyError::Moves);
        }
        for &(square, stated) in &p.scores {
            let v = searched
                .iter()
                .find(|(q, _)| *q == square)
                .ok_or(MidgameVerifyError::Moves)?
                .1;
            if v != stated {
                return Err(MidgameVerifyError::Score {
                    square,
                    stated,
                    searched: v,
                });
            }
        }
        let (other, gap) = lead(&searched, p.solution()).ok_or(MidgameVerifyError::Moves)?;
        if gap < self.config.min_margin {
            return Err(MidgameVerifyError::Margin { other, gap });
        }
        Ok(())
    }
}
