//! Practice from one's own mistakes (lichess's "learn from your mistakes"): after a review,
//! a side's mistakes of at least [`PRACTICE_LOSS`] discs become positions to play again. Each
//! item is the position before the mistake; a move counts as found when the engine's re-check
//! of that position values it within [`PRACTICE_MARGIN`] discs of its best move. A mistake is
//! kept only when the re-check confirms it: the played move is outside the margin and the
//! review's better move inside it (so the coach's words, written about that move, hold). The
//! coach's explanations of the mistake are the item's hint. Practice is never rated.

use crate::view::{round2, Text};
use serde::Serialize;
use virada_engine::coach::{self, Lang};
use virada_engine::{Analysis, GameAnalysis};
use virada_rules::{Color, Game, Move, Position, Square};

/// A mistake must lose at least this many discs (in the review) to be practised.
pub const PRACTICE_LOSS: f32 = 4.0;
/// A move within this many discs of the re-check's best move counts as found.
pub const PRACTICE_MARGIN: f32 = 1.0;
/// Most items a set holds: the biggest mistakes of the side, in the game's order.
pub const MAX_ITEMS: usize = 12;

/// A mistake to re-check: the position before it and what the review said.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// Index of the move in the game (0 = the first move).
    pub ply: usize,
    pub before: Position,
    pub played: Square,
    pub best: Square,
    pub loss: f32,
    /// The coach's explanations of the mistake, in both languages (empty: none held).
    pub hint: Vec<Text>,
}

/// The mistakes of `color` in `game` that `review` found losing at least [`PRACTICE_LOSS`]
/// discs: the [`MAX_ITEMS`] biggest, in the game's order.
pub fn candidates(game: &Game, review: &GameAnalysis, color: Color) -> Vec<Candidate> {
    let positions = game.positions();
    let explained = coach::explain_game(game, review);
    let mut found: Vec<Candidate> = review
        .plies
        .iter()
        .filter(|p| p.color == color && p.loss >= PRACTICE_LOSS && p.ply < positions.len())
        .filter_map(|p| {
            let (Move::Play(played), Move::Play(best)) = (p.played, p.best_move) else {
                return None;
            };
            let hint = explained
                .iter()
                .find(|e| e.ply == p.ply)
                .map(|e| {
                    e.explanations
                        .iter()
                        .map(|x| Text {
                            en: x.text(Lang::En),
                            pt: x.text(Lang::Pt),
                        })
                        .collect()
                })
                .unwrap_or_default();
            Some(Candidate {
                ply: p.ply,
                before: positions[p.ply],
                played,
                best,
                loss: p.loss,
                hint,
            })
        })
        .collect();
    // The biggest first to choose them, then back in the game's order.
    found.sort_by(|a, b| b.loss.total_cmp(&a.loss).then(a.ply.cmp(&b.ply)));
    found.truncate(MAX_ITEMS);
    found.sort_by_key(|c| c.ply);
    found
}

/// One position to play again.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct PracticeItem {
    /// The mistake's ply in the game, 1-based (as the analysis numbers plies).
    pub ply: usize,
    /// Its move number as the move list shows it.
    pub number: u32,
    pub color: Color,
    /// The position before the mistake: 64 squares a1..h8 (`X`, `O`, `-`).
    pub board: String,
    /// The move played in the game and its loss in the review.
    pub played: Square,
    #[serde(serialize_with = "round2")]
    pub loss: f32,
    /// The review's better move.
    pub best: Square,
    /// Every move that counts as found (the re-check's values within the margin of its best).
    pub accepted: Vec<Square>,
    /// The coach's explanations of the mistake (the hint), each in both languages.
    pub hint: Vec<Text>,
}

/// The item of `c`, from `recheck` (the engine's values of every move of `c.before`), or
/// `None` when the re-check does not confirm the mistake (the played move within the margin,
/// the review's better move outside it, or either not valued). `number` is the move number.
pub fn item(c: &Candidate, recheck: &Analysis, number: u32) -> Option<PracticeItem> {
    let top = recheck.moves.iter().map(|m| m.value).reduce(f32::max)?;
    let value = |sq: Square| recheck.value_of(Move::Play(sq)).map(|m| m.value);
    let within = |v: f32| v >= top - PRACTICE_MARGIN;
    if within(value(c.played)?) || !within(value(c.best)?) {
        return None;
    }
    let accepted = recheck
        .moves
        .iter()
        .filter(|m| within(m.value))
        .filter_map(|m| m.mv.square())
        .collect();
    Some(PracticeItem {
        ply: c.ply + 1,
        number,
        color: c.before.side_to_move(),
        board: c.before.to_string()[..64].to_string(),
        played: c.played,
        loss: c.loss,
        best: c.best,
        accepted,
        hint: c.hint.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use virada_engine::{MoveValue, PlyAnalysis};
    use virada_rules::formats::transcript::Transcript;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    fn value(s: &str, v: f32) -> MoveValue {
        MoveValue {
            mv: Move::Play(sq(s)),
            value: v,
            exact: true,
            depth: 60,
            book: false,
        }
    }

    /// f5 d6 c3 d3 c4, each ply judged with the given loss against another legal move.
    fn reviewed(losses: [f32; 5]) -> (Game, GameAnalysis) {
        let g = "f5d6c3d3c4"
            .parse::<Transcript>()
            .unwrap()
            .replay(Position::start())
            .unwrap();
        let plies = losses
            .iter()
            .enumerate()
            .map(|(i, &loss)| {
                let pos = g.positions()[i];
                let played = g.moves()[i];
                let best = pos
                    .board()
                    .legal_moves()
                    .iter()
                    .map(Move::Play)
                    .find(|m| *m != played)
                    .unwrap();
                PlyAnalysis {
                    ply: i,
                    color: pos.side_to_move(),
                    played,
                    played_value: -loss,
                    best_move: best,
                    best_value: 0.0,
                    loss,
                    exact: false,
                    depth: 4,
                    book: false,
                    pv: vec![best],
                }
            })
            .collect();
        let review = GameAnalysis {
            plies,
            nodes: 0,
            elapsed: std::time::Duration::ZERO,
            complete: true,
        };
        (g, review)
    }

    #[test]
    fn only_the_sides_mistakes_of_four_discs_and_more() {
        let (g, review) = reviewed([4.0, 9.0, 3.9, 5.0, 6.0]);
        let black: Vec<usize> = candidates(&g, &review, Color::Black)
            .iter()
            .map(|c| c.ply)
            .collect();
        assert_eq!(black, [0, 4]);
        let white: Vec<usize> = candidates(&g, &review, Color::White)
            .iter()
            .map(|c| c.ply)
            .collect();
        assert_eq!(white, [1, 3]);
        let c = &candidates(&g, &review, Color::Black)[0];
        assert_eq!(c.before, Position::start());
        assert_eq!(c.played, sq("f5"));
    }

    #[test]
    fn the_recheck_decides_what_counts_and_confirms_the_mistake() {
        let (g, review) = reviewed([6.0, 0.0, 0.0, 0.0, 0.0]);
        let c = candidates(&g, &review, Color::Black).remove(0);
        // The start: d3 c4 f5 e6; the review's better move is d3. The re-check: d3 +2, c4
        // +1.5 (within 1), e6 -1.2, the played f5 -4.
        assert_eq!((c.played, c.best), (sq("f5"), sq("d3")));
        let mut moves = vec![value("d3", 2.0), value("c4", 1.5), value("e6", -1.2)];
        moves.push(value("f5", -4.0));
        let recheck = Analysis {
            moves: moves.clone(),
            ..Analysis::default()
        };
        let it = item(&c, &recheck, 1).expect("confirmed when the review's best is within");
        assert_eq!(it.ply, 1);
        assert_eq!(it.board, Position::start().to_string()[..64]);
        assert_eq!(it.color, Color::Black);
        assert_eq!(it.accepted, [sq("d3"), sq("c4")]);
        // The review's better move outside the margin: the coach's words would not hold.
        let mut other = moves.clone();
        other[0] = value("d3", 0.0);
        let other = Analysis {
            moves: other,
            ..Analysis::default()
        };
        assert!(item(&c, &other, 1).is_none());
        // The played move within the margin of the best: not a confirmed mistake.
        let mut close = moves.clone();
        close[3] = value("f5", 1.2);
        let close = Analysis {
            moves: close,
            ..Analysis::default()
        };
        assert!(item(&c, &close, 1).is_none());
        // A move missing from the re-check (cut short): nothing is claimed.
        let partial = Analysis {
            moves: moves[..2].to_vec(),
            ..Analysis::default()
        };
        assert!(item(&c, &partial, 1).is_none());
    }
}
