//! A deliberately plain reference implementation (an 8x8 grid of `Option<Color>` and eight
//! direction loops) against the bitboards, portable and SIMD, over 100,000+ random positions.

use crate::common::{random_game_from, Rng};
use virada_rules::movegen::Backend;
use virada_rules::{Board, Color, GameResult, Move, Position, Square};

type Grid = [[Option<Color>; 8]; 8];

const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

fn grid_of(p: &Position) -> Grid {
    let mut g = [[None; 8]; 8];
    for sq in Square::all() {
        g[sq.row() as usize][sq.column() as usize] = p.color_at(sq);
    }
    g
}

/// Squares (row, column) that `side` flips by playing at (row, col).
fn reference_flips(g: &Grid, side: Color, row: i32, col: i32) -> Vec<(i32, i32)> {
    let mut flipped = Vec::new();
    if g[row as usize][col as usize].is_some() {
        return flipped;
    }
    for (dr, dc) in DIRECTIONS {
        let mut run = Vec::new();
        let (mut r, mut c) = (row + dr, col + dc);
        while (0..8).contains(&r) && (0..8).contains(&c) {
            match g[r as usize][c as usize] {
                Some(color) if color != side => run.push((r, c)),
                Some(_) => {
                    flipped.extend(run.iter().copied());
                    break;
                }
                None => break,
            }
            r += dr;
            c += dc;
        }
    }
    flipped
}

fn reference_moves(g: &Grid, side: Color) -> Vec<(i32, i32)> {
    let mut moves = Vec::new();
    for row in 0..8 {
        for col in 0..8 {
            if !reference_flips(g, side, row, col).is_empty() {
                moves.push((row, col));
            }
        }
    }
    moves
}

fn to_mask(squares: &[(i32, i32)]) -> u64 {
    squares.iter().fold(0, |m, &(r, c)| m | 1u64 << (r * 8 + c))
}

/// Checks every rule decision of `p` against the reference. Returns the number of flips checked.
fn compare(p: &Position, backends: &[Backend]) -> usize {
    let g = grid_of(p);
    let side = p.side_to_move();
    let board: Board = p.board();
    let want_moves = to_mask(&reference_moves(&g, side));
    assert_eq!(p.legal_moves().0, want_moves, "{p}");
    for b in backends {
        assert_eq!(
            b.legal_moves(board.player, board.opponent),
            want_moves,
            "{b:?} {p}"
        );
    }
    let mut checked = 0;
    for sq in Square::all() {
        let want = to_mask(&reference_flips(
            &g,
            side,
            sq.row() as i32,
            sq.column() as i32,
        ));
        if p.color_at(sq).is_none() {
            for b in backends {
                let got = b.flips(board.player, board.opponent, sq.index());
                assert_eq!(got, want, "{b:?} flips at {sq} in {p}");
            }
            checked += 1;
        }
        assert_eq!(board.flips(sq).0, want, "{sq} in {p}");
    }
    // Pass and end decisions.
    let other_moves = reference_moves(&g, !side);
    let none_here = want_moves == 0;
    assert_eq!(p.must_pass(), none_here && !other_moves.is_empty(), "{p}");
    assert_eq!(p.is_game_over(), none_here && other_moves.is_empty(), "{p}");
    assert_eq!(p.check(Move::Pass).is_ok(), p.must_pass(), "{p}");
    // Scores: disc counts and WOF, computed plainly.
    let count = |c: Color| g.iter().flatten().filter(|&&x| x == Some(c)).count() as i32;
    let (black, white) = (count(Color::Black), count(Color::White));
    let result = p.disc_counts();
    assert_eq!(
        (result.black_discs as i32, result.white_discs as i32),
        (black, white)
    );
    let empties = 64 - black - white;
    let (wb, ww) = if black > white {
        (black + empties, white)
    } else if white > black {
        (black, white + empties)
    } else {
        (32, 32)
    };
    assert_eq!(result.wof(), (wb as u8, ww as u8), "{p}");
    let (own, their) = if side == Color::Black {
        (wb, ww)
    } else {
        (ww, wb)
    };
    assert_eq!(board.final_score(), own - their, "{p}");
    if p.is_game_over() {
        assert_eq!(p.result(), Some(GameResult::new(black as u8, white as u8)));
    }
    checked
}

/// Plays `mv` by hand on the grid and checks the bitboard result equals it.
fn check_play(p: &Position, sq: Square) -> Position {
    let mut g = grid_of(p);
    let side = p.side_to_move();
    let (r, c) = (sq.row() as i32, sq.column() as i32);
    for (fr, fc) in reference_flips(&g, side, r, c) {
        g[fr as usize][fc as usize] = Some(side);
    }
    g[r as usize][c as usize] = Some(side);
    let next = p.play(Move::Play(sq)).unwrap();
    assert_eq!(grid_of(&next), g, "{sq} from {p}");
    assert_eq!(next.side_to_move(), !side);
    next
}

#[test]
fn bitboards_match_the_reference_on_random_positions() {
    let backends = Backend::available();
    println!("backends compared: {backends:?}");
    let mut rng = Rng::new(2024);
    let (mut positions, mut flips_checked, mut passes, mut ends) = (0usize, 0usize, 0, 0);
    let mut game_index = 0u64;
    while positions < 100_000 {
        game_index += 1;
        // Every other game starts from a random 8-move (XOT-like) opening.
        let start = if game_index & 1 == 0 {
            random_game_from(Position::start(), &mut rng, 8).position()
        } else {
            Position::start()
        };
        let mut p = start;
        loop {
            flips_checked += compare(&p, &backends);
            positions += 1;
            if p.is_game_over() {
                ends += 1;
                break;
            }
            let moves: Vec<Square> = p.legal_moves().iter().collect();
            if moves.is_empty() {
                passes += 1;
                p = p.play(Move::Pass).unwrap();
                continue;
            }
            p = check_play(&p, moves[rng.below(moves.len() as u64) as usize]);
        }
    }
    println!("{positions} positions, {flips_checked} empty squares, {passes} passes, {ends} ends");
    assert!(
        passes > 100 && ends > 1000,
        "the sample must exercise passes and endings"
    );
}

#[test]
fn bitboards_match_the_reference_on_arbitrary_boards() {
    // Boards no game reaches (random discs everywhere) probe edge wrap-around harder.
    let backends = Backend::available();
    let mut rng = Rng::new(7);
    for _ in 0..20_000 {
        let occupied = rng.next_u64() | rng.next_u64();
        let black = occupied & rng.next_u64();
        let white = occupied & !black;
        let side = if rng.below(2) == 0 {
            Color::Black
        } else {
            Color::White
        };
        let p = Position::from_colors(black, white, side).unwrap();
        compare(&p, &backends);
    }
}
