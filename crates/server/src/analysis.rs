//! The analysis object: per-ply values from the engine, Black's evaluation for the graph, and
//! tags that explain mistakes (virada_engine::explain).

use crate::view::round2;
use serde::Serialize;
use virada_engine::explain::explain;
use virada_engine::GameAnalysis;
use virada_rules::{Color, Game, Move};

/// A move losing at least this many discs gets tags explaining why.
pub const MISTAKE_LOSS: f32 = 2.0;

#[derive(Serialize, Debug, Clone)]
pub struct PlyAnalysisView {
    ply: usize,
    color: Color,
    #[serde(rename = "move")]
    mv: String,
    #[serde(serialize_with = "round2")]
    played_value: f32,
    best_move: String,
    #[serde(serialize_with = "round2")]
    best_value: f32,
    #[serde(serialize_with = "round2")]
    loss: f32,
    exact: bool,
    /// Both values are the opening book's: the loss is the one theory gives.
    book: bool,
    #[serde(serialize_with = "round2")]
    eval_black: f32,
    tags: Vec<&'static str>,
}

/// `{"complete": ..., "plies": [...]}` for `GET /api/games/{id}/analysis`.
#[derive(Serialize, Debug, Clone)]
pub struct AnalysisView {
    /// Every move was judged to the full depth of the server's analysis effort. False when the
    /// time ran out first: such an answer is never cached, and asking again analyses afresh.
    complete: bool,
    plies: Vec<PlyAnalysisView>,
}

/// The review of `game` as the API shows it: every ply in order (1-based), passes included
/// with loss 0 (a pass is forced: it gets the value of the move before it, from the passer's
/// view), mistakes explained.
pub fn analysis_view(game: &Game, review: &GameAnalysis) -> AnalysisView {
    let mut plies: Vec<PlyAnalysisView> = Vec::with_capacity(game.ply());
    for (i, (&mv, before)) in game.moves().iter().zip(game.positions()).enumerate() {
        let color = before.side_to_move();
        let view = match mv {
            Move::Pass => {
                let value = plies.last().map_or(0.0, |p| -p.played_value);
                PlyAnalysisView {
                    ply: i + 1,
                    color,
                    mv: mv.to_string(),
                    played_value: value,
                    best_move: mv.to_string(),
                    best_value: value,
                    loss: 0.0,
                    exact: false,
                    book: false,
                    eval_black: black_view(color, value),
                    tags: Vec::new(),
                }
            }
            Move::Play(sq) => {
                let Some(r) = review.ply(i) else { continue };
                let tags = if r.loss >= MISTAKE_LOSS {
                    explain(before.board(), sq, r.best_move.square())
                        .into_iter()
                        .map(|t| t.as_str())
                        .collect()
                } else {
                    Vec::new()
                };
                PlyAnalysisView {
                    ply: i + 1,
                    color,
                    mv: mv.to_string(),
                    played_value: r.played_value,
                    best_move: r.best_move.to_string(),
                    best_value: r.best_value,
                    loss: r.loss,
                    exact: r.exact,
                    book: r.book,
                    eval_black: black_view(color, r.played_value),
                    tags,
                }
            }
        };
        plies.push(view);
    }
    AnalysisView {
        complete: review.complete,
        plies,
    }
}

fn black_view(mover: Color, value: f32) -> f32 {
    match mover {
        Color::Black => value,
        Color::White => -value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use virada_engine::PlyAnalysis;
    use virada_rules::Position;

    #[test]
    fn mistakes_get_tags_and_black_view() {
        // Black to move with a1 empty: b2 is an X-square, f4 a quiet alternative.
        let start: Position = "--------\
             --------\
             --O-----\
             ---XO---\
             ---OX---\
             --------\
             --------\
             -------- X"
            .parse()
            .unwrap();
        let mut game = Game::from_position(start);
        game.play("b2".parse().unwrap()).unwrap();
        let review = PlyAnalysis {
            ply: 0,
            color: Color::Black,
            played: "b2".parse().unwrap(),
            played_value: -5.0,
            best_move: "f4".parse().unwrap(),
            best_value: 1.0,
            loss: 6.0,
            exact: false,
            depth: 4,
            book: true,
        };
        let whole = |p: PlyAnalysis, complete| GameAnalysis {
            plies: vec![p],
            nodes: 0,
            elapsed: std::time::Duration::ZERO,
            complete,
        };
        let v = serde_json::to_value(analysis_view(&game, &whole(review, true))).unwrap();
        assert_eq!(v["complete"], true);
        let ply = &v["plies"][0];
        assert_eq!(ply["ply"], 1);
        assert!(ply["tags"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t == "x_square"));
        assert_eq!(ply["eval_black"], -5.0);
        assert_eq!(ply["book"], true);
        // A small loss is not explained.
        let small = PlyAnalysis {
            loss: 0.5,
            ..review
        };
        let v = serde_json::to_value(analysis_view(&game, &whole(small, false))).unwrap();
        assert!(v["plies"][0]["tags"].as_array().unwrap().is_empty());
        assert_eq!(v["complete"], false);
    }
}
