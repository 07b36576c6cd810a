//! The opening book as analysis: in a book position the values of the moves are the book's
//! (deep searches, minimaxed through the book), marked as such, in place of a fresh search.
//!
//! A position whose every legal move has a book value is answered from the book alone
//! ([`book_analysis`]); one where the book knows only some moves is searched and the known
//! moves then take their book values ([`overlay`]), each [`MoveValue::book`] saying where its
//! value came from.

use super::{Analysis, MoveValue};
use crate::book::Book;
use std::time::Duration;
use virada_rules::{Board, Move};

/// Longest principal variation read out of the book.
const MAX_BOOK_LINE: usize = 60;

/// Every legal move of `board` valued by the book, best first, with the book's best line; or
/// `None` when `board` is not in the book or some legal move has no book value.
pub(crate) fn book_analysis(book: &Book, board: Board) -> Option<Analysis> {
    if board.moves() == 0 {
        return None;
    }
    let probe = book.probe_board(board)?;
    let legal = board.legal_moves();
    if legal.count() as usize != probe.moves.len()
        || !probe.moves.iter().all(|m| legal.contains(m.square))
    {
        return None;
    }
    let moves = probe
        .moves
        .iter()
        .map(|m| MoveValue {
            mv: Move::Play(m.square),
            value: m.value,
            exact: m.exact,
            depth: u32::from(m.depth),
            book: true,
        })
        .collect();
    Some(Analysis {
        moves,
        pv: book_line(book, board),
        nodes: 0,
        elapsed: Duration::ZERO,
        complete: true,
    })
}

/// Gives the moves of `a` (an analysis of `board`) that the book knows their book values, and
/// sorts them again, best first.
pub(crate) fn overlay(book: &Book, board: Board, a: &mut Analysis) {
    let Some(probe) = book.probe_board(board) else {
        return;
    };
    let mut changed = false;
    for mv in &mut a.moves {
        let Some(sq) = mv.mv.square() else { continue };
        if let Some(b) = probe.value_of(sq) {
            *mv = MoveValue {
                mv: mv.mv,
                value: b.value,
                exact: b.exact,
                depth: u32::from(b.depth),
                book: true,
            };
            changed = true;
        }
    }
    if changed {
        // Stable: among equal values the search's order stays.
        a.moves.sort_by(|x, y| y.value.total_cmp(&x.value));
        if let Some(best) = a.moves.first() {
            if a.pv.first() != Some(&best.mv) {
                a.pv = vec![best.mv];
            }
        }
    }
}

/// The book's best line from `board`: best book moves while the positions stay in the book
/// (passes included when forced).
fn book_line(book: &Book, mut board: Board) -> Vec<Move> {
    let mut line = Vec::new();
    while line.len() < MAX_BOOK_LINE {
        if board.moves() == 0 {
            let passed = Board::new(board.opponent, board.player);
            if passed.moves() == 0 || line.last() == Some(&Move::Pass) {
                break;
            }
            line.push(Move::Pass);
            board = passed;
            continue;
        }
        let Some(best) = book
            .probe_board(board)
            .and_then(|p| p.best().map(|m| m.square))
        else {
            break;
        };
        line.push(Move::Play(best));
        board = board.play_unchecked(best);
    }
    // A line ending on a pass says nothing.
    if line.last() == Some(&Move::Pass) {
        line.pop();
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::LeafMove;
    use virada_rules::{Position, Square};

    fn after_f5() -> Board {
        Position::start().board().play_unchecked(Square::F5)
    }

    #[test]
    fn a_fully_known_position_is_answered_by_the_book() {
        let board = after_f5();
        let mut book = Book::new();
        let moves = vec![
            LeafMove::new(Square::D6, 0.5, 20, false),
            LeafMove::new(Square::F4, -3.0, 20, false),
            LeafMove::new(Square::F6, -1.25, 18, false),
        ];
        book.insert(board, moves);
        book.fix();
        let a = book_analysis(&book, board).unwrap();
        let order: Vec<_> = a.moves.iter().map(|m| (m.mv, m.value, m.book)).collect();
        assert_eq!(
            order,
            vec![
                (Move::Play(Square::D6), 0.5, true),
                (Move::Play(Square::F6), -1.25, true),
                (Move::Play(Square::F4), -3.0, true),
            ]
        );
        assert_eq!(a.pv, vec![Move::Play(Square::D6)]);
        assert!(a.complete);
        // Out of the book: nothing.
        assert!(book_analysis(&book, Position::start().board()).is_none());
    }

    #[test]
    fn a_partly_known_position_is_overlaid() {
        let board = after_f5();
        let mut book = Book::new();
        book.insert(board, vec![LeafMove::new(Square::F4, 9.0, 20, false)]);
        book.fix();
        assert!(book_analysis(&book, board).is_none(), "two moves unknown");
        let searched = |sq, value| MoveValue {
            mv: Move::Play(sq),
            value,
            exact: false,
            depth: 8,
            book: false,
        };
        let mut a = Analysis {
            moves: vec![
                searched(Square::D6, 1.0),
                searched(Square::F4, -2.0),
                searched(Square::F6, -1.0),
            ],
            pv: vec![Move::Play(Square::D6)],
            ..Analysis::default()
        };
        overlay(&book, board, &mut a);
        assert_eq!(a.moves[0].mv, Move::Play(Square::F4));
        assert!(a.moves[0].book && a.moves[0].value == 9.0 && a.moves[0].depth == 20);
        assert!(a.moves[1..].iter().all(|m| !m.book));
        assert_eq!(a.pv, vec![Move::Play(Square::F4)]);
    }
}
