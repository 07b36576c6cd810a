//! Corners: a corner given to the opponent (at once or within the played line), a corner the
//! better move takes, and X- and C-squares next to an empty corner.

use super::lines::Lines;
use super::{At, Claim, Kind, Mistake};
use virada_rules::{Bitboard, Board, Move, Square};

/// The corner next to an X- or C-square (the nearest corner).
pub fn nearest_corner(sq: Square) -> Square {
    let col = if sq.column() < 4 { 0 } else { 7 };
    let row = if sq.row() < 4 { 0 } else { 7 };
    Square::from_coords(col, row).expect("on board")
}

fn corner_moves(board: &Board) -> u64 {
    board.moves() & Bitboard::CORNERS.0
}

/// The opponent's first corner in a line (a move at an odd ply), with its ply index.
fn first_corner_taken(moves: &[Move]) -> Option<(usize, Square)> {
    moves.iter().enumerate().find_map(|(i, mv)| match mv {
        Move::Play(sq) if i % 2 == 1 && Bitboard::CORNERS.contains(*sq) => Some((i, *sq)),
        _ => None,
    })
}

/// The opponent can take a corner right after the played move that the better move did not
/// allow; or, failing that, the played line has the opponent take a corner while the better
/// line does not within as many plies. Numbers: `moves` = the opponent's move on which the
/// corner is taken (1 = at once: only when the corner is legal after the played move and not
/// after the better one, each checked on its own board).
pub fn corner_given(_m: &Mistake, lines: &Lines) -> Option<Claim> {
    let now = corner_moves(&lines.after_played()) & !corner_moves(&lines.after_best());
    if now != 0 {
        let squares = Bitboard(now).iter().collect();
        return Some(Claim::new(Kind::CornerGiven, squares, vec![("moves", 1)]));
    }
    let (ply, corner) = first_corner_taken(&lines.played_moves)?;
    // The opponent's first reply takes a corner the better move allows as well: it is given
    // either way (the better line only chose not to take it), so nothing is claimed.
    if ply == 1 && corner_moves(&lines.after_best()) & corner.bit() != 0 {
        return None;
    }
    // The better line must be known at least as far, and take no corner for the opponent.
    if lines.best_moves.len() <= ply || first_corner_taken(&lines.best_moves[..=ply]).is_some() {
        return None;
    }
    Some(
        Claim::new(
            Kind::CornerGiven,
            vec![corner],
            vec![("moves", (ply as i32 + 1) / 2)],
        )
        .with_line(&lines.played_moves[..=ply])
        // On the board where the opponent's disc is in the corner.
        .at(At::played(ply + 1)),
    )
}

/// The better move is a corner and the played one is not.
pub fn corner_missed(m: &Mistake) -> Option<Claim> {
    (Bitboard::CORNERS.contains(m.best) && !Bitboard::CORNERS.contains(m.played))
        .then(|| Claim::new(Kind::CornerMissed, vec![m.best], Vec::new()).at(At::best(1)))
}

/// `sq` is in `set` and its corner is empty on `board`.
fn next_to_empty_corner(board: &Board, sq: Square, set: Bitboard) -> bool {
    set.contains(sq) && board.empties() & nearest_corner(sq).bit() != 0
}

/// The played move is an X-square next to an empty corner, the better one is not.
pub fn x_square(m: &Mistake) -> Option<Claim> {
    let x = Bitboard::X_SQUARES;
    (next_to_empty_corner(&m.before, m.played, x) && !next_to_empty_corner(&m.before, m.best, x))
        .then(|| {
            Claim::new(
                Kind::XSquare,
                vec![m.played, nearest_corner(m.played)],
                Vec::new(),
            )
        })
}

/// The played move is a C-square next to an empty corner, the better one is neither an X- nor
/// a C-square next to an empty corner.
pub fn c_square(m: &Mistake) -> Option<Claim> {
    let risky = Bitboard(Bitboard::X_SQUARES.0 | Bitboard::C_SQUARES.0);
    (next_to_empty_corner(&m.before, m.played, Bitboard::C_SQUARES)
        && !next_to_empty_corner(&m.before, m.best, risky))
    .then(|| {
        Claim::new(
            Kind::CSquare,
            vec![m.played, nearest_corner(m.played)],
            Vec::new(),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coach::test_util::{board, mistake, names, open_a1_corner};

    #[test]
    fn x_square_next_to_an_empty_corner() {
        let b = open_a1_corner();
        let m = mistake(b, "b2", &[], "f4", &[]);
        let c = x_square(&m).expect("b2 is an X-square by the empty a1");
        assert_eq!(names(&c.squares), ["b2", "a1"]);
        // Not when the better move is an X-square too, nor for a quiet move.
        assert!(x_square(&mistake(b, "f4", &[], "d6", &[])).is_none());
        assert!(x_square(&mistake(b, "g7", &[], "b2", &[])).is_none());
        assert!(c_square(&mistake(b, "b2", &[], "f4", &[])).is_none());
    }

    #[test]
    fn x_square_by_an_occupied_corner_is_fine() {
        // a1 holds a white disc: b2 no longer gives it away.
        let b = board(
            "O-------\
             --------\
             --O-----\
             ---XO---\
             ---OX---\
             --------\
             --------\
             -------- X",
        );
        assert!(x_square(&mistake(b, "b2", &[], "f4", &[])).is_none());
    }

    #[test]
    fn c_square_next_to_an_empty_corner() {
        // Black can play a2 (flipping a3 towards a4) with a1 empty, or the quiet e6.
        let b = board(
            "--------\
             --------\
             O-------\
             X--XO---\
             ---OX---\
             --------\
             --------\
             -------- X",
        );
        assert!(b.is_legal("a2".parse().unwrap()));
        let c = c_square(&mistake(b, "a2", &[], "f4", &[])).expect("a2 is a C-square");
        assert_eq!(names(&c.squares), ["a2", "a1"]);
        assert!(c_square(&mistake(b, "f4", &[], "a2", &[])).is_none());
    }

    #[test]
    fn corner_given_at_once() {
        let b = open_a1_corner();
        let m = mistake(b, "b2", &[], "f4", &[]);
        let l = Lines::new(&m);
        assert!(l.after_played().is_legal(Square::A1));
        let c = corner_given(&m, &l).expect("White can take a1");
        assert_eq!(names(&c.squares), ["a1"]);
        assert_eq!(c.numbers, vec![("moves", 1)]);
        // The other way round nothing is given.
        let m = mistake(b, "f4", &[], "b2", &[]);
        assert!(corner_given(&m, &Lines::new(&m)).is_none());
    }

    #[test]
    fn corner_given_later_in_the_line() {
        // After g5 no corner is open for White, but the line g5 g1 e1 a1 has White take a1 on
        // its second move; the line after d6 takes no corner in as many plies.
        let b = board(
            "--------\
             -XXXXX--\
             XXXXXXXO\
             ---XOOOX\
             --OXOO--\
             --X-OX--\
             ------X-\
             -------- X",
        );
        let m = mistake(
            b,
            "g5",
            &["g1", "e1", "a1"],
            "d6",
            &["d6", "b1", "c1", "d1"],
        );
        let l = Lines::new(&m);
        assert_eq!(l.played_moves.len(), 4);
        let c = corner_given(&m, &l).expect("White takes a1 in the line");
        assert_eq!(names(&c.squares), ["a1"]);
        assert_eq!(c.number("moves"), 2);
        assert_eq!(names_of_line(&c.line), ["g5", "g1", "e1", "a1"]);
        // A better line known only 2 plies deep cannot show that it keeps the corner.
        let short = mistake(b, "g5", &["g1", "e1", "a1"], "d6", &["d6", "b1"]);
        assert!(corner_given(&short, &Lines::new(&short)).is_none());
        // A played line without the corner claims nothing.
        let quiet = mistake(b, "g5", &["g1", "e1"], "d6", &["d6", "b1", "c1", "d1"]);
        assert!(corner_given(&quiet, &Lines::new(&quiet)).is_none());
        assert_eq!(
            first_corner_taken(&["h8", "g7"].map(|s| s.parse().unwrap())),
            None
        );
    }

    #[test]
    fn a_corner_both_moves_allow_is_not_given() {
        // White can take a1 over the a-file (a2 Black, a3 White) whatever Black plays in the
        // centre. The engine's line after e3 has White take a1 at once, the line after f4
        // plays f5 instead. "e3 lets White take the corner a1 at once (f4 does not)" would be
        // false: after f4, a1 is legal too.
        let b = board(
            "--------\
             X-------\
             O-------\
             ---XO---\
             ---OX---\
             --------\
             --------\
             -------- X",
        );
        let after = |mv: &str| b.play_unchecked(mv.parse().unwrap());
        assert!(after("e3").is_legal(Square::A1) && after("f4").is_legal(Square::A1));
        let m = mistake(b, "e3", &["a1"], "f4", &["f4", "f5"]);
        let l = Lines::new(&m);
        assert_eq!(l.played_moves.len(), 2);
        assert_eq!(l.best_moves.len(), 2);
        assert_eq!(corner_given(&m, &l), None);
        // When the better move shuts the a-file (a4 flips a3), a1 is given at once.
        assert!(!after("a4").is_legal(Square::A1));
        let kept = mistake(b, "e3", &["a1"], "a4", &["a4", "f5"]);
        let c = corner_given(&kept, &Lines::new(&kept)).expect("a1 is given at once");
        assert_eq!(names(&c.squares), ["a1"]);
        assert_eq!(c.number("moves"), 1);
    }

    fn names_of_line(line: &[Move]) -> Vec<String> {
        line.iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn corner_missed_when_the_better_move_is_a_corner() {
        let b = open_a1_corner();
        let m = mistake(b, "f4", &[], "b2", &[]);
        assert!(corner_missed(&m).is_none());
        let corner_board = board(
            "--------\
             -O------\
             --X-----\
             ---XO---\
             ---OX---\
             --------\
             --------\
             -------- X",
        );
        let m = mistake(corner_board, "f4", &[], "a1", &[]);
        assert!(corner_board.is_legal(Square::A1));
        assert_eq!(names(&corner_missed(&m).unwrap().squares), ["a1"]);
    }
}
