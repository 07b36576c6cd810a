//! A puzzle's themes: the coach explains why the runner-up move (the best move that is not
//! the solution) loses against the solution, and each kind of explanation names a theme.

use super::puzzle::{Puzzle, Theme};
use crate::coach::{explain, Kind, Mistake};
use virada_rules::Move;

/// The theme a coach explanation belongs to (`None`: the exact loss itself, no theme).
pub fn theme_of(kind: Kind) -> Option<Theme> {
    Some(match kind {
        Kind::CornerGiven | Kind::CornerMissed | Kind::XSquare | Kind::CSquare => Theme::Corner,
        Kind::UnbalancedEdge | Kind::Wedge => Theme::Edge,
        Kind::Parity => Theme::Parity,
        Kind::WipeoutRisk => Theme::Wipeout,
        Kind::Stability | Kind::EdgeAnchor => Theme::Stability,
        Kind::Mobility => Theme::Mobility,
        Kind::PassForced | Kind::PassAllowed => Theme::Tempo,
        Kind::QuietMove | Kind::Frontier => Theme::QuietMove,
        Kind::ExactLoss => return None,
    })
}

/// The themes of `p` (sorted, without repeats): the coach's explanations of the runner-up move
/// against the solution. `best_line` starts with the solution, `played_line` with the
/// runner-up move; both are best play from there.
pub fn themes(p: &Puzzle, best_line: &[Move], played_line: &[Move]) -> Vec<Theme> {
    let (best, best_value) = p.scores[0];
    let (played, played_value) = p.scores[1];
    let m = Mistake {
        before: p.start.board(),
        mover: p.solver(),
        played,
        best,
        played_value: played_value as f32,
        best_value: best_value as f32,
        exact: p.kind == super::PuzzleKind::Endgame,
        best_line,
        played_line,
    };
    let mut out: Vec<Theme> = explain(&m)
        .iter()
        .filter_map(|e| theme_of(e.kind))
        .collect();
    out.sort();
    out.dedup();
    out
}
