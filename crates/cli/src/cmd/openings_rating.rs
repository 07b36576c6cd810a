//! Rating openings for the balanced list (`virada openings generate`): every distinct position
//! after 8 plies, searched. Tooling of the command line only; the engine keeps the committed
//! list (`virada_engine::openings`).

use std::collections::HashMap;
use virada_engine::{Engine, Limits};
use virada_rules::formats::xot::XOT_PLIES;
use virada_rules::symmetry::canonical;
use virada_rules::{Board, Square};

/// Every position reachable in exactly `XOT_PLIES` plies from the start without a pass,
/// distinct up to symmetry, with the first move sequence (depth-first, squares in index
/// order) that reaches it. Sorted by that sequence.
pub fn distinct_openings() -> Vec<[Square; XOT_PLIES]> {
    let mut seen: HashMap<Board, [Square; XOT_PLIES]> = HashMap::new();
    let mut path = [Square::A1; XOT_PLIES];
    walk(Board::start(), 0, &mut path, &mut seen);
    let mut out: Vec<_> = seen.into_values().collect();
    out.sort_by_key(|p| p.map(|s| s.index()));
    out
}

fn walk(
    board: Board,
    ply: usize,
    path: &mut [Square; XOT_PLIES],
    seen: &mut HashMap<Board, [Square; XOT_PLIES]>,
) {
    if ply == XOT_PLIES {
        seen.entry(canonical(board).0).or_insert(*path);
        return;
    }
    let mut m = board.moves();
    while m != 0 {
        let sq = Square::lowest_of(m);
        m &= m - 1;
        path[ply] = sq;
        walk(board.play_unchecked(sq), ply + 1, path, seen);
    }
}

/// An opening with its searched value (discs, for the side to move after the opening).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatedOpening {
    pub moves: [Square; XOT_PLIES],
    pub value: f32,
}

/// Searches `moves` (an opening from the standard start) to `depth` with `engine`. The command
/// runs batches of these over one engine per thread (`crate::parallel::map_with_engines`).
pub fn rate_opening(engine: &mut Engine, moves: &[Square; XOT_PLIES], depth: u32) -> RatedOpening {
    let mut board = Board::start();
    for &sq in moves {
        board = board.play_unchecked(sq);
    }
    let r = engine.search(board, &Limits::depth(depth), None);
    RatedOpening {
        moves: *moves,
        value: r.score,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_ply_openings_are_deduplicated_by_symmetry() {
        // After f5, White's d6 (diagonal), f6 (parallel) and f4 (perpendicular) are the only
        // distinct replies: 3 positions up to symmetry.
        let mut seen: HashMap<Board, [Square; XOT_PLIES]> = HashMap::new();
        let mut path = [Square::A1; XOT_PLIES];
        // Walk two plies by starting 6 plies "late".
        walk(Board::start(), 6, &mut path, &mut seen);
        assert_eq!(seen.len(), 3);
    }
}
