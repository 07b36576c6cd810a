//! Re-proving an endgame puzzle with the exact solver: the stated score of every legal move,
//! the solution as the single best move, and along the line each solver move as the single best
//! move and each opponent reply as a best reply (the value does not change).

use super::find::{exact_scores, Finder};
use super::puzzle::{Puzzle, PuzzleKind};
use std::fmt;
use virada_rules::Square;

/// Why a puzzle failed verification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifyError {
    /// Only endgame puzzles can be proven.
    NotEndgame,
    /// The solve did not finish.
    Incomplete,
    /// A move's stated score is not the solver's.
    Score {
        square: Square,
        stated: i32,
        solved: i32,
    },
    /// The stated moves are not the legal moves.
    Moves,
    /// Another move scores as well as the solution (at solver move `step`, 1-based).
    NotUnique { step: usize, other: Square },
    /// An opponent reply of the line is not a best reply (before solver move `step`).
    WeakReply { step: usize },
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::NotEndgame => f.write_str("not an endgame puzzle"),
            VerifyError::Incomplete => f.write_str("the solve did not finish"),
            VerifyError::Score {
                square,
                stated,
                solved,
            } => write!(f, "{square} is stated {stated:+} but solves to {solved:+}"),
            VerifyError::Moves => f.write_str("the listed moves are not the legal moves"),
            VerifyError::NotUnique { step, other } => {
                write!(
                    f,
                    "solver move {step}: {other} is as good as the line's move"
                )
            }
            VerifyError::WeakReply { step } => {
                write!(f, "the reply before solver move {step} is not a best reply")
            }
        }
    }
}

impl std::error::Error for VerifyError {}

/// Re-proves `p` with `finder`'s solver (see the module).
pub fn verify(p: &Puzzle, finder: &mut Finder) -> Result<(), VerifyError> {
    if p.kind != PuzzleKind::Endgame {
        return Err(VerifyError::NotEndgame);
    }
    let mut step = 0;
    // The solver's value after its previous move (preserved by best replies).
    let mut expected: Option<i32> = None;
    for (before, mine, mv) in p.steps() {
        if !mine {
            continue;
        }
        step += 1;
        let r = finder.solve_all(&before);
        let solved = exact_scores(&r).ok_or(VerifyError::Incomplete)?;
        let sq = mv.square().ok_or(VerifyError::Moves)?;
        let best = solved[0].1;
        if let Some(v) = expected {
            if v != best {
                return Err(VerifyError::WeakReply { step });
            }
        }
        if step == 1 {
            if solved.len() != p.scores.len() {
                return Err(VerifyError::Moves);
            }
            for &(square, stated) in &p.scores {
                let solved = solved
                    .iter()
                    .find(|(q, _)| *q == square)
                    .ok_or(VerifyError::Moves)?
                    .1;
                if solved != stated {
                    return Err(VerifyError::Score {
                        square,
                        stated,
                        solved,
                    });
                }
            }
        }
        let mine_score = solved
            .iter()
            .find(|(q, _)| *q == sq)
            .ok_or(VerifyError::Moves)?
            .1;
        if let Some(&(other, _)) = solved.iter().find(|&&(q, v)| q != sq && v >= mine_score) {
            return Err(VerifyError::NotUnique { step, other });
        }
        expected = Some(mine_score);
    }
    Ok(())
}
