//! Why a move was worse than the best one, in the vocabulary of RULES.md (corners, X- and
//! C-squares, mobility, parity, wipe-outs). Used to annotate mistakes in game analysis.
//!
//! ```
//! use virada_engine::explain::{explain, Tag};
//! use virada_rules::{Board, Square};
//! // A position where Black could take h8 but plays g7 next to an empty a8? See the tests.
//! let tags = explain(Board::start(), "d3".parse().unwrap(), Some("c4".parse().unwrap()));
//! assert!(tags.is_empty()); // symmetric moves: nothing to explain
//! # let _ = Tag::CornerGiven; let _ = Square::A1;
//! ```

use virada_rules::{Bitboard, Board, Square};

/// One reason a move was a mistake.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Tag {
    /// The move lets the opponent take a corner that the best move did not.
    CornerGiven,
    /// The move is an X-square (b2 g2 b7 g7) next to an empty corner.
    XSquare,
    /// The move is a C-square (b1 g1 a2 h2 a7 h7 b8 g8) next to an empty corner.
    CSquare,
    /// The move gives the opponent clearly more legal moves than the best move.
    Mobility,
    /// Endgame: the move goes into an even empty region while the best one took an odd region.
    Parity,
    /// After the move the opponent can flip every one of the mover's discs.
    WipeoutRisk,
}

impl Tag {
    /// The API name (`corner_given`, `x_square`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Tag::CornerGiven => "corner_given",
            Tag::XSquare => "x_square",
            Tag::CSquare => "c_square",
            Tag::Mobility => "mobility",
            Tag::Parity => "parity",
            Tag::WipeoutRisk => "wipeout_risk",
        }
    }

    /// A one-line explanation in English.
    pub fn describe_en(self) -> &'static str {
        match self {
            Tag::CornerGiven => "gives the opponent access to a corner, and corner discs can never be flipped",
            Tag::XSquare => "an X-square next to an empty corner usually gives that corner away",
            Tag::CSquare => "a C-square next to an empty corner is risky: the corner may be lost",
            Tag::Mobility => "leaves the opponent many more legal moves than the best move",
            Tag::Parity => "in the endgame, moving into an even region hands the last move there to the opponent",
            Tag::WipeoutRisk => "the opponent can flip all your discs next move (a wipe-out)",
        }
    }

    /// A one-line explanation in Brazilian Portuguese.
    pub fn describe_pt(self) -> &'static str {
        match self {
            Tag::CornerGiven => "dá ao adversário acesso a um canto, e peças de canto nunca viram",
            Tag::XSquare => "uma casa X ao lado de um canto vazio costuma entregar o canto",
            Tag::CSquare => {
                "uma casa C ao lado de um canto vazio é arriscada: o canto pode ser perdido"
            }
            Tag::Mobility => {
                "deixa o adversário com muito mais jogadas válidas que a melhor jogada"
            }
            Tag::Parity => {
                "no fim de jogo, jogar numa região par entrega a última jogada dela ao adversário"
            }
            Tag::WipeoutRisk => {
                "o adversário pode virar todas as suas peças na próxima jogada (varrida)"
            }
        }
    }
}

/// Opponent mobility at least this much higher than after the best move counts as a mistake.
const MOBILITY_GAP: u32 = 3;
/// Parity is explained only with this many empties or fewer.
const PARITY_EMPTIES: u32 = 16;

/// The corner next to an X- or C-square (the nearest corner).
fn nearest_corner(sq: Square) -> Square {
    let col = if sq.column() < 4 { 0 } else { 7 };
    let row = if sq.row() < 4 { 0 } else { 7 };
    Square::from_coords(col, row).expect("on board")
}

fn next_to_empty_corner(board: &Board, sq: Square, set: Bitboard) -> bool {
    set.contains(sq) && (board.player | board.opponent) & nearest_corner(sq).bit() == 0
}

/// The connected region (8-neighbour) of empty squares containing `sq`.
fn region_of(empties: u64, sq: Square) -> u64 {
    let mut region = sq.bit() & empties;
    loop {
        let grown = (region | virada_rules::movegen::neighbours(region)) & empties;
        if grown == region {
            return region;
        }
        region = grown;
    }
}

/// Whether the opponent (to move in `after`) has a move flipping all of the mover's discs.
fn wipeout_possible(after: &Board) -> bool {
    let victim = after.opponent;
    after
        .legal_moves()
        .iter()
        .any(|sq| after.flips(sq).0 == victim)
}

/// Reasons why playing `played` from `before` (side to move's view) was worse than `best`.
/// `best` = `None` or the played square itself gives no comparative tags.
pub fn explain(before: Board, played: Square, best: Option<Square>) -> Vec<Tag> {
    let mut tags = Vec::new();
    if !before.is_legal(played) {
        return tags;
    }
    let best = best.filter(|b| *b != played && before.is_legal(*b));
    let after = before.play_unchecked(played);
    let best_after = best.map(|b| before.play_unchecked(b));

    if let Some(ba) = &best_after {
        let corners = |b: &Board| (b.legal_moves() & Bitboard::CORNERS).count();
        if corners(&after) > corners(ba) {
            tags.push(Tag::CornerGiven);
        }
    }
    let best_is = |set: Bitboard| best.is_some_and(|b| next_to_empty_corner(&before, b, set));
    if next_to_empty_corner(&before, played, Bitboard::X_SQUARES) && !best_is(Bitboard::X_SQUARES) {
        tags.push(Tag::XSquare);
    }
    if next_to_empty_corner(&before, played, Bitboard::C_SQUARES)
        && !best_is(Bitboard::C_SQUARES)
        && !best_is(Bitboard::X_SQUARES)
    {
        tags.push(Tag::CSquare);
    }
    if let Some(ba) = &best_after {
        if after.legal_moves().count() >= ba.legal_moves().count() + MOBILITY_GAP {
            tags.push(Tag::Mobility);
        }
    }
    let empties = !(before.player | before.opponent);
    if let Some(b) = best {
        if empties.count_ones() <= PARITY_EMPTIES {
            let played_even = region_of(empties, played).count_ones().is_multiple_of(2);
            let best_odd = region_of(empties, b).count_ones() % 2 == 1;
            if played_even && best_odd {
                tags.push(Tag::Parity);
            }
        }
    }
    if wipeout_possible(&after) && !best_after.is_some_and(|ba| wipeout_possible(&ba)) {
        tags.push(Tag::WipeoutRisk);
    }
    tags
}

#[cfg(test)]
mod tests {
    use super::*;
    use virada_rules::Position;

    fn board(s: &str) -> Board {
        s.parse::<Position>().unwrap().board()
    }

    #[test]
    fn x_square_and_corner_given() {
        // Black to move; White on c3, Black on d4: b2 (X-square, a1 empty) and e5-type moves.
        let b = board(
            "--------\
             --------\
             --O-----\
             ---XO---\
             ---OX---\
             --------\
             --------\
             -------- X",
        );
        let tags = explain(b, "b2".parse().unwrap(), Some("f4".parse().unwrap()));
        assert!(tags.contains(&Tag::XSquare), "{tags:?}");
        let none = explain(b, "f4".parse().unwrap(), Some("f4".parse().unwrap()));
        assert!(none.is_empty());
    }

    #[test]
    fn parity_regions() {
        let empties = 0b111u64 | (1 << 63);
        assert_eq!(region_of(empties, Square::A1).count_ones(), 3);
        assert_eq!(region_of(empties, Square::H8).count_ones(), 1);
    }

    #[test]
    fn wipeout_detected() {
        // White to move can play f4 and flip Black's only disc.
        let b = board(
            "--------\
             --------\
             --------\
             ---OX---\
             --------\
             --------\
             --------\
             -------- O",
        );
        assert!(wipeout_possible(&b));
        assert!(!wipeout_possible(&Board::start()));
    }
}
