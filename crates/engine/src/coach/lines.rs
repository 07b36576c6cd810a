//! Both lines of a mistake replayed: the boards after each ply of the played line and of the
//! better line, up to a horizon, so that every kind reads the same positions.

use super::Mistake;
use virada_rules::{Board, Move};

/// Plies of each line read by the coach (the move itself included): five moves a side.
pub const HORIZON: usize = 10;

/// The boards after each ply of both lines (index 0 = after the move itself).
#[derive(Clone, Debug)]
pub struct Lines {
    pub played: Vec<Board>,
    pub best: Vec<Board>,
    /// The legal prefix of each line, as many moves as boards.
    pub played_moves: Vec<Move>,
    pub best_moves: Vec<Move>,
}

impl Lines {
    /// Replays both lines of `m` from the position before the move. A line stops at the first
    /// move that is not legal where it stands (a stale line ends there, it is never trusted).
    pub fn new(m: &Mistake) -> Lines {
        let (played, played_moves) = replay(m.before, m.played_line, m.played.into());
        let (best, best_moves) = replay(m.before, m.best_line, m.best.into());
        Lines {
            played,
            best,
            played_moves,
            best_moves,
        }
    }

    pub fn after_played(&self) -> Board {
        self.played[0]
    }

    pub fn after_best(&self) -> Board {
        self.best[0]
    }

    /// Plies both lines reach (at least 1: the moves themselves).
    pub fn common(&self) -> usize {
        self.played.len().min(self.best.len())
    }
}

/// The boards after each move of `line` (which must start with `first`; otherwise only
/// `first` is played), at most [`HORIZON`] plies.
fn replay(start: Board, line: &[Move], first: Move) -> (Vec<Board>, Vec<Move>) {
    let line: &[Move] = if line.first() == Some(&first) {
        line
    } else {
        std::slice::from_ref(&first)
    };
    let mut boards = Vec::new();
    let mut moves = Vec::new();
    let mut board = start;
    for &mv in line.iter().take(HORIZON) {
        board = match mv {
            Move::Play(sq) if board.is_legal(sq) => board.play_unchecked(sq),
            Move::Pass if board.must_pass() => board.pass(),
            _ => break,
        };
        boards.push(board);
        moves.push(mv);
    }
    (boards, moves)
}

/// (the mover's discs, the opponent's discs) on a board reached after `plies` plies of a line
/// that starts with the mover's move (each ply, passes included, swaps the side to move).
pub fn sides(board: Board, plies: usize) -> (u64, u64) {
    if plies % 2 == 1 {
        (board.opponent, board.player)
    } else {
        (board.player, board.opponent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coach::test_util::{board, mistake};

    #[test]
    fn replay_stops_at_an_illegal_move() {
        let before = Board::start();
        let line: Vec<Move> = ["f5", "f6", "a1", "e6"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        let (boards, moves) = replay(before, &line, line[0]);
        assert_eq!(moves, line[..2].to_vec());
        assert_eq!(boards.len(), 2);
        // Black (the mover) has 4 discs after f5, then 3 after White's f6.
        assert_eq!(sides(boards[0], 1).0.count_ones(), 4);
        assert_eq!(sides(boards[1], 2).0.count_ones(), 3);
    }

    #[test]
    fn a_line_not_starting_with_the_move_is_ignored() {
        let b = board(
            "--------\
             --------\
             --------\
             ---OX---\
             ---XO---\
             --------\
             --------\
             -------- X",
        );
        let m = mistake(b, "f5", &["d6"], "d3", &["c4", "c3"]);
        let l = Lines::new(&m);
        assert_eq!(l.played_moves.len(), 2);
        assert_eq!(l.best_moves.len(), 1);
        assert_eq!(l.common(), 1);
    }
}
