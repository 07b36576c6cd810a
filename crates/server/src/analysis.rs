//! The analysis object: per-ply values from the engine, Black's evaluation for the graph, and
//! tags that explain mistakes (virada_engine::explain).

use crate::engine_port::PlyReview;
use crate::model::color_str;
use serde::Serialize;
use serde_json::{json, Value};
use virada_engine::explain::explain;
use virada_rules::{Color, Game, Move};

/// A move losing at least this many discs gets tags explaining why.
pub const MISTAKE_LOSS: f32 = 2.0;

#[derive(Serialize, Debug)]
struct PlyAnalysisView {
    ply: usize,
    color: &'static str,
    #[serde(rename = "move")]
    mv: String,
    played_value: f32,
    best_move: String,
    best_value: f32,
    loss: f32,
    exact: bool,
    eval_black: f32,
    tags: Vec<&'static str>,
}

/// `{"plies": [...]}` for `GET /api/games/{id}/analysis`.
pub fn analysis_json(game: &Game, reviews: &[PlyReview]) -> Value {
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
                color: color_str(r.color),
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
    json!({ "plies": plies })
}
