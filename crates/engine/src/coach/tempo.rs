//! Tempo: a move that leaves the opponent without a move forces a pass and gains a tempo; a
//! move whose line makes the mover pass gives one away.

use super::lines::Lines;
use super::{At, Claim, Kind, Mistake};
use virada_rules::Move;

/// The first pass at a ply of the given parity (1 = the opponent's plies, 0 = the mover's).
fn first_pass(moves: &[Move], parity: usize) -> Option<usize> {
    (0..moves.len()).find(|&i| i % 2 == parity && moves[i] == Move::Pass)
}

/// The better move (or its line) makes the opponent pass, the played line does not as far as
/// both are known (and not right after the move). Numbers: `moves` (the opponent's turn that
/// is passed, 1 = right after the better move). Line: the better line up to the pass.
pub fn pass_forced(_m: &Mistake, lines: &Lines) -> Option<Claim> {
    // A pass, not the end of the game: the mover still has a move after the better one.
    let best = lines.after_best();
    let forced_now =
        best.moves() == 0 && best.pass().moves() != 0 && lines.after_played().moves() != 0;
    let at = if forced_now {
        1
    } else {
        let at = first_pass(&lines.best_moves, 1)?;
        if at >= lines.played_moves.len() || first_pass(&lines.played_moves[..=at], 1).is_some() {
            return None;
        }
        at
    };
    let line = &lines.best_moves[..(at + 1).min(lines.best_moves.len())];
    Some(
        Claim::new(
            Kind::PassForced,
            Vec::new(),
            vec![("moves", (at as i32 + 1) / 2)],
        )
        .with_line(line)
        // The board where the opponent has no move.
        .at(At::best(at)),
    )
}

/// The played line makes the mover pass while the better line, known as far, does not.
/// Numbers: `moves` (the mover's turn that is passed, 1 = its next turn). Line: the played
/// line up to the pass.
pub fn pass_allowed(_m: &Mistake, lines: &Lines) -> Option<Claim> {
    let at = first_pass(&lines.played_moves, 0)?;
    if at >= lines.best_moves.len() || first_pass(&lines.best_moves[..=at], 0).is_some() {
        return None;
    }
    Some(
        Claim::new(
            Kind::PassAllowed,
            Vec::new(),
            vec![("moves", at as i32 / 2)],
        )
        .with_line(&lines.played_moves[..=at])
        // The board where the mover has no move.
        .at(At::played(at)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coach::test_util::{board, mistake};

    #[test]
    fn a_pass_forced_by_the_better_move() {
        // Black's a1 leaves White without a move; a8 does not.
        let b = board(
            "-XXOOO-X\
             OOOOOOOX\
             OOXOXXXX\
             OOOOOOXX\
             OOOOOOXO\
             OOXOOXOO\
             OOXXOOOO\
             -OXXO-OX X",
        );
        let m = mistake(b, "a8", &[], "a1", &["a1", "PA"]);
        let l = Lines::new(&m);
        assert_eq!(l.after_best().moves(), 0);
        let c = pass_forced(&m, &l).expect("a1 forces a pass");
        assert_eq!(c.numbers, vec![("moves", 1)]);
        assert_eq!(c.line, vec!["a1".parse().unwrap(), Move::Pass]);
        let back = mistake(b, "a1", &["PA"], "a8", &[]);
        assert!(pass_forced(&back, &Lines::new(&back)).is_none());
    }

    #[test]
    fn a_pass_allowed_in_the_played_line() {
        // After f7 White's a8 leaves Black without a move; after h6 f7 Black still moves.
        let b = board(
            "XXXXXXXX\
             XXXXXOXX\
             XXXOXOOX\
             XXOOOOXX\
             XXXXOOXX\
             XXOOOOO-\
             XOOOO---\
             -OOOO--- X",
        );
        let m = mistake(b, "f7", &["a8", "PA"], "h6", &["h6", "f7", "g7"]);
        let l = Lines::new(&m);
        let c = pass_allowed(&m, &l).expect("the line after f7 makes Black pass");
        assert_eq!(c.numbers, vec![("moves", 1)]);
        assert_eq!(c.line.len(), 3);
        // The better line known only one ply deep proves nothing.
        let short = mistake(b, "f7", &["a8", "PA"], "h6", &[]);
        assert!(pass_allowed(&short, &Lines::new(&short)).is_none());
    }

    #[test]
    fn passes_found_in_lines() {
        let l: Vec<Move> = ["f5", "d6", "PA", "c3"]
            .map(|s| s.parse().unwrap())
            .to_vec();
        assert_eq!(first_pass(&l, 0), Some(2));
        assert_eq!(first_pass(&l, 1), None);
    }
}
