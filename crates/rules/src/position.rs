//! A position with absolute colours: the board plus whose turn it is.

use crate::{Bitboard, Board, Color, GameResult, Move, Square};
use std::fmt;

pub use crate::formats::board_string::ParsePositionError;

/// Discs and side to move, in absolute colours.
///
/// Text form (the engines' 64-character board string): squares a1, b1, ..., h1, a2, ..., h8,
/// then a space and the side to move. `X`/`*`/`x`/`b`/`B` are black, `O`/`o`/`w`/`W` white,
/// `-`/`.`/`_` empty; side `X`/`*`/`B`/`black` or `O`/`W`/`white`. Whitespace inside the 64
/// squares is ignored, but a side word after a space is always the side, never a 64th square.
/// Printing uses `X`, `O`, `-` and `X`/`O`. To read whatever a person pastes (also OBF lines,
/// transcripts and GGF games), use [`formats::position_input::parse`](crate::formats::position_input::parse).
///
/// ```
/// use virada_rules::{Color, Position};
/// let p = Position::start();
/// let s = p.to_string();
/// assert_eq!(s, "---------------------------OX------XO--------------------------- X");
/// assert_eq!(s.parse::<Position>().unwrap(), p);
/// let after = p.play("f5".parse().unwrap()).unwrap();
/// assert_eq!(after.side_to_move(), Color::White);
/// assert!(p.play("a1".parse().unwrap()).is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    board: Board,
    side_to_move: Color,
}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The square already holds a disc.
    Occupied { square: Square, side: Color },
    /// The square brackets no opponent disc.
    FlipsNothing { square: Square, side: Color },
    /// A pass while a move exists.
    PassWithMoves { side: Color, moves: Bitboard },
    /// The game is over.
    GameOver,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::Occupied { square, side } => {
                write!(
                    f,
                    "{square} is not legal for {side}: the square is occupied"
                )
            }
            IllegalMove::FlipsNothing { square, side } => {
                write!(f, "{square} is not legal for {side}: it flips nothing")
            }
            IllegalMove::PassWithMoves { side, moves } => {
                write!(f, "{side} cannot pass: legal moves are {moves}")
            }
            IllegalMove::GameOver => f.write_str("the game is over: neither side can move"),
        }
    }
}

impl std::error::Error for IllegalMove {}

impl Position {
    /// The standard start: Black to move.
    pub const fn start() -> Position {
        Position {
            board: Board::start(),
            side_to_move: Color::Black,
        }
    }

    /// Builds a position from absolute bitboards. `None` if they overlap.
    pub fn from_colors(black: u64, white: u64, side_to_move: Color) -> Option<Position> {
        if black & white != 0 {
            return None;
        }
        let board = match side_to_move {
            Color::Black => Board::new(black, white),
            Color::White => Board::new(white, black),
        };
        Some(Position {
            board,
            side_to_move,
        })
    }

    /// Builds a position from a relative board and the colour of its player.
    pub const fn from_board(board: Board, side_to_move: Color) -> Position {
        Position {
            board,
            side_to_move,
        }
    }

    /// The board seen from the side to move.
    #[inline]
    pub const fn board(&self) -> Board {
        self.board
    }

    #[inline]
    pub const fn side_to_move(&self) -> Color {
        self.side_to_move
    }

    /// Discs of `color`.
    pub const fn discs(&self, color: Color) -> Bitboard {
        if color as u8 == self.side_to_move as u8 {
            Bitboard(self.board.player)
        } else {
            Bitboard(self.board.opponent)
        }
    }

    pub const fn black(&self) -> Bitboard {
        self.discs(Color::Black)
    }

    pub const fn white(&self) -> Bitboard {
        self.discs(Color::White)
    }

    /// The colour on `sq`, if any.
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.black().contains(sq) {
            Some(Color::Black)
        } else if self.white().contains(sq) {
            Some(Color::White)
        } else {
            None
        }
    }

    pub fn legal_moves(&self) -> Bitboard {
        self.board.legal_moves()
    }

    pub fn must_pass(&self) -> bool {
        self.board.must_pass()
    }

    pub fn is_game_over(&self) -> bool {
        self.board.is_game_over()
    }

    /// The result if the game is over.
    pub fn result(&self) -> Option<GameResult> {
        if self.is_game_over() {
            Some(self.disc_counts())
        } else {
            None
        }
    }

    /// Current disc counts as a [`GameResult`] (meaningful as a result only at the end).
    pub fn disc_counts(&self) -> GameResult {
        GameResult::new(self.black().count() as u8, self.white().count() as u8)
    }

    /// Checks that `mv` is legal here.
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        let side = self.side_to_move;
        match mv {
            Move::Play(square) => {
                if (self.board.player | self.board.opponent) & square.bit() != 0 {
                    Err(IllegalMove::Occupied { square, side })
                } else if !self.board.is_legal(square) {
                    if self.is_game_over() {
                        Err(IllegalMove::GameOver)
                    } else {
                        Err(IllegalMove::FlipsNothing { square, side })
                    }
                } else {
                    Ok(())
                }
            }
            Move::Pass => {
                let moves = self.legal_moves();
                if !moves.is_empty() {
                    Err(IllegalMove::PassWithMoves { side, moves })
                } else if self.is_game_over() {
                    Err(IllegalMove::GameOver)
                } else {
                    Ok(())
                }
            }
        }
    }

    /// Plays a move after checking it.
    pub fn play(&self, mv: Move) -> Result<Position, IllegalMove> {
        self.check(mv)?;
        Ok(self.play_unchecked(mv))
    }

    /// Plays a move the caller knows is legal.
    #[inline]
    pub fn play_unchecked(&self, mv: Move) -> Position {
        let board = match mv {
            Move::Play(sq) => self.board.play_unchecked(sq),
            Move::Pass => self.board.pass(),
        };
        Position {
            board,
            side_to_move: !self.side_to_move,
        }
    }

    /// The same discs with the other side to move (no legality check).
    pub const fn with_side_swapped(&self) -> Position {
        Position {
            board: self.board.pass(),
            side_to_move: self.side_to_move.opposite(),
        }
    }

    /// A multi-line diagram with coordinates, `X` black, `O` white, `.` empty, `*` legal moves.
    pub fn to_diagram(&self) -> String {
        let legal = self.legal_moves();
        let mut s = String::from("  a b c d e f g h\n");
        for row in 0..8u8 {
            s.push((b'1' + row) as char);
            for col in 0..8u8 {
                let sq = Square::from_coords(col, row).expect("on board");
                s.push(' ');
                s.push(match self.color_at(sq) {
                    Some(c) => c.disc_char(),
                    None if legal.contains(sq) => '*',
                    None => '.',
                });
            }
            s.push('\n');
        }
        s
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}
