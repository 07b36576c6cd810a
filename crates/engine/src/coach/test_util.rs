//! Constructed positions for the coach's tests.

use super::Mistake;
use virada_rules::{Board, Color, Move, Position};

/// A board from a 64-character board string and side (`X` Black, `O` White, `-` empty).
pub fn board(s: &str) -> Board {
    s.parse::<Position>().expect("test board").board()
}

/// Black to move, a1 empty: b2 flips c3 and White's f6 then brackets the diagonal to a1.
pub fn open_a1_corner() -> Board {
    board(
        "--------\
         --------\
         --O-----\
         ---XO---\
         ---OX---\
         -----O--\
         --------\
         -------- X",
    )
}

/// Black to move with two empty regions: a1 b1 (even) and h8 g8 f8 (odd).
pub fn two_regions() -> Board {
    board(
        "--OXXXXX\
         OOOXXXXX\
         XXOXXXXX\
         XXXOXXXX\
         XXXXOXXX\
         XXXXXOXX\
         XXXXXXOO\
         XXXXX--- X",
    )
}

fn moves(line: &[&str]) -> &'static [Move] {
    let v: Vec<Move> = line.iter().map(|s| s.parse().expect("test move")).collect();
    Box::leak(v.into_boxed_slice())
}

/// A mistake of Black: `played` with its line continuing `played_rest` (the opponent's reply
/// first), `best` with its line `best_line` (starting with `best`).
pub fn mistake(
    before: Board,
    played: &str,
    played_rest: &[&str],
    best: &str,
    best_line: &[&str],
) -> Mistake<'static> {
    let mut pl = vec![played];
    pl.extend_from_slice(played_rest);
    let best_line = if best_line.is_empty() {
        vec![best]
    } else {
        best_line.to_vec()
    };
    Mistake {
        before,
        mover: Color::Black,
        played: played.parse().expect("test square"),
        best: best.parse().expect("test square"),
        played_value: -4.0,
        best_value: 2.0,
        exact: false,
        best_line: moves(&best_line),
        played_line: moves(&pl),
    }
}

/// Names of squares, for comparing with explanations.
pub fn names(squares: &[virada_rules::Square]) -> Vec<String> {
    squares.iter().map(|s| s.to_string()).collect()
}

/// A mistake of Black given both whole lines (each starting with its move).
pub fn mistake_with(before: Board, played_line: &[&str], best_line: &[&str]) -> Mistake<'static> {
    let mut m = mistake(
        before,
        played_line[0],
        &played_line[1..],
        best_line[0],
        best_line,
    );
    m.best_line = moves(best_line);
    m
}
