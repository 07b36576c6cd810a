//! The analysis object: per-ply values from the engine, Black's evaluation for the graph, and
//! tags that explain mistakes (virada_engine::explain).

use crate::engine_port::PlyReview;
use crate::view::round2;
use serde::Serialize;
use virada_engine::explain::explain;
use virada_rules::{Color, Game, Move};

/// A move losing at least this many discs gets tags explaining why.
pub const MISTAKE_LOSS: f32 = 2.0;

/// `GET /api/games/{id}/analysis`.
#[derive(Serialize, Debug, Clone)]
pub struct AnalysisView {
    pub plies: Vec<PlyAnalysisView>,
}

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
    #[serde(serialize_with = "round2")]
    eval_black: f32,
    tags: Vec<&'static str>,
}

/// `{"plies": [...]}` for `GET /api/games/{id}/analysis`.
pub fn analysis_view(game: &Game, reviews: &[PlyReview]) -> AnalysisView {
    let plies: Vec<PlyAnalysisView> = reviews
        .iter()
        .map(|r| {
            let before = game
                .positions()
                .get(r.ply.saturating_sub(1))
                .copied()
                .unwrap_or_else(|| game.start());
            let tags = match (r.played, r.loss >= MISTAKE_LOSS) {
                (Move::Play(sq), true) => explain(before.board(), sq, r.best_move.square())
                    .into_iter()
                    .map(|t| t.as_str())
                    .collect(),
                _ => Vec::new(),
            };
            let eval_black = if r.color == Color::Black {
                r.played_value
            } else {
                -r.played_value
            };
            PlyAnalysisView {
                ply: r.ply,
                color: r.color,
                mv: r.played.to_string(),
                played_value: r.played_value,
                best_move: r.best_move.to_string(),
                best_value: r.best_value,
                loss: r.loss,
                exact: r.exact,
                eval_black,
                tags,
            }
        })
        .collect();
    AnalysisView { plies }
}

#[cfg(test)]
mod tests {
    use super::*;
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
        let review = PlyReview {
            ply: 1,
            color: Color::Black,
            played: "b2".parse().unwrap(),
            played_value: -5.0,
            best_move: "f4".parse().unwrap(),
            best_value: 1.0,
            loss: 6.0,
            exact: false,
        };
        let v = serde_json::to_value(analysis_view(&game, std::slice::from_ref(&review))).unwrap();
        let ply = &v["plies"][0];
        assert!(ply["tags"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t == "x_square"));
        assert_eq!(ply["eval_black"], -5.0);
        // A small loss is not explained.
        let small = PlyReview {
            loss: 0.5,
            ..review
        };
        let v = serde_json::to_value(analysis_view(&game, &[small])).unwrap();
        assert!(v["plies"][0]["tags"].as_array().unwrap().is_empty());
    }
}
