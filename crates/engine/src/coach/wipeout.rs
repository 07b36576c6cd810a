//! Wipe-out risk: the opponent can flip every disc of the mover (a game lost 0-64 at once), or
//! the played line ends with the mover's discs gone.

use super::lines::{sides, Lines};
use super::{At, Claim, Kind, Mistake};
use virada_rules::{Board, Move, Square};

/// A move of the opponent (to move on `after`) that flips every disc of the mover.
fn wiping_move(after: &Board) -> Option<Square> {
    after
        .legal_moves()
        .iter()
        .find(|&sq| after.flips(sq).0 == after.opponent)
}

/// The first ply of a line after which the mover has no disc left.
fn wiped_in_line(boards: &[Board]) -> Option<usize> {
    (0..boards.len()).find(|&i| sides(boards[i], i + 1).0 == 0)
}

/// After the played move the opponent can wipe the mover out (at once, or the played line
/// does), and not after the better move. Numbers: `discs` (the mover's discs right after the
/// played move), `moves` (the opponent's move that wipes out, 1 = at once). Squares: the
/// wiping move when it is immediate.
pub fn wipeout_risk(m: &Mistake, lines: &Lines) -> Option<Claim> {
    let after = lines.after_played();
    let discs = after.opponent.count_ones() as i32;
    let best_safe =
        wiping_move(&lines.after_best()).is_none() && wiped_in_line(&lines.best).is_none();
    if !best_safe {
        return None;
    }
    if let Some(sq) = wiping_move(&after) {
        return Some(
            Claim::new(
                Kind::WipeoutRisk,
                vec![sq],
                vec![("discs", discs), ("moves", 1)],
            )
            .with_line(&[Move::Play(m.played), Move::Play(sq)]),
        );
    }
    let at = wiped_in_line(&lines.played)?;
    Some(
        Claim::new(
            Kind::WipeoutRisk,
            Vec::new(),
            vec![("discs", discs), ("moves", (at as i32 + 1) / 2)],
        )
        .with_line(&lines.played_moves[..=at])
        .at(At::played(at + 1)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coach::test_util::{board, mistake, names};

    #[test]
    fn a_wipe_out_at_once() {
        // Black's c4 makes c4 d4 e4 one row next to White's f4: White's b4 flips them all.
        // After c6 Black keeps a disc White cannot reach in one move.
        let b = board(
            "--------\
             --------\
             --------\
             ---OXO--\
             ---OOO--\
             --------\
             --------\
             -------- X",
        );
        let m = mistake(b, "c4", &[], "c6", &[]);
        let c = wipeout_risk(&m, &Lines::new(&m)).expect("White's b4 wipes Black out");
        assert_eq!(names(&c.squares), ["b4"]);
        assert_eq!(c.numbers, vec![("discs", 3), ("moves", 1)]);
        let back = mistake(b, "c6", &[], "c4", &[]);
        assert!(wipeout_risk(&back, &Lines::new(&back)).is_none());
    }

    #[test]
    fn a_wipe_out_in_the_line() {
        let boards = [Board::new(1, 2), Board::new(0, 6)];
        // After ply 2 (the mover to move) the mover's discs are `player`: none left.
        assert_eq!(wiped_in_line(&boards), Some(1));
        assert_eq!(wiped_in_line(&boards[..1]), None);
    }
}
