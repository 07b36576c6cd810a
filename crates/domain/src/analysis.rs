//! The analysis object: per-ply values from the engine, Black's evaluation for the graph, the
//! move numbers of the move list, and the coach's explanations of mistakes
//! (virada_engine::coach), as data and as text in both languages.

use crate::view::{round2, Text};
use serde::Serialize;
use std::collections::BTreeMap;
use virada_engine::coach::{self, Explanation, Lang};
use virada_engine::GameAnalysis;
use virada_rules::{Color, Game, Move};

/// A move losing at least this many discs is explained (a book move too).
pub const MISTAKE_LOSS: f32 = coach::EXPLAIN_LOSS;

/// One explanation of a mistake (see docs/API.md for the kinds and their numbers).
#[derive(Serialize, Debug, Clone)]
pub struct ExplanationView {
    kind: &'static str,
    /// Squares to highlight.
    squares: Vec<String>,
    /// The counts behind the claim, by name.
    numbers: BTreeMap<&'static str, i32>,
    /// The line the claim is read from (from the position before the move); may be empty.
    line: Vec<String>,
    /// The board the claim holds on, where its squares are drawn: `ply` plies into `line`
    /// (`played`: the ply's `played_line`; `best`: its `best_line`; `before`: ply 0).
    at: AtView,
    text: Text,
}

/// `{"line": "played", "ply": 2}`.
#[derive(Serialize, Debug, Clone)]
pub struct AtView {
    line: &'static str,
    ply: usize,
}

impl ExplanationView {
    fn new(e: &Explanation) -> ExplanationView {
        ExplanationView {
            kind: e.kind.as_str(),
            squares: e.squares.iter().map(|s| s.to_string()).collect(),
            numbers: e.numbers.iter().copied().collect(),
            line: e.line.iter().map(|m| m.to_string()).collect(),
            at: AtView {
                line: e.at.line.as_str(),
                ply: e.at.ply,
            },
            text: Text {
                en: e.text(Lang::En),
                pt: e.text(Lang::Pt),
            },
        }
    }
}

#[derive(Serialize, Debug, Clone)]
pub struct PlyAnalysisView {
    ply: usize,
    /// The move's number as the move list shows it (`3. f3` for Black, `3... e3` for White).
    number: u32,
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
    /// The better line from the position before the move (the best move first).
    best_line: Vec<String>,
    /// The played move's line from the position before the move: the move, any forced passes,
    /// then the review's best line of the next position (the opponent's refutation); empty for
    /// a pass. The coach reads the same line (`coach::explain_game`).
    played_line: Vec<String>,
    /// The kinds of `explanations`, in order.
    tags: Vec<&'static str>,
    explanations: Vec<ExplanationView>,
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
/// view), mistakes explained by the coach.
pub fn analysis_view(game: &Game, review: &GameAnalysis) -> AnalysisView {
    let numbers = coach::move_numbers(game);
    let explained = coach::explain_game(game, review);
    let mut plies: Vec<PlyAnalysisView> = Vec::with_capacity(game.ply());
    for (i, (&mv, before)) in game.moves().iter().zip(game.positions()).enumerate() {
        let color = before.side_to_move();
        let number = numbers.get(i).copied().unwrap_or(0);
        let view = match mv {
            Move::Pass => {
                let value = plies.last().map_or(0.0, |p| -p.played_value);
                PlyAnalysisView {
                    ply: i + 1,
                    number,
                    color,
                    mv: mv.to_string(),
                    played_value: value,
                    best_move: mv.to_string(),
                    best_value: value,
                    loss: 0.0,
                    exact: false,
                    book: false,
                    eval_black: black_view(color, value),
                    best_line: Vec::new(),
                    played_line: Vec::new(),
                    tags: Vec::new(),
                    explanations: Vec::new(),
                }
            }
            Move::Play(_) => {
                let Some(r) = review.ply(i) else { continue };
                let explanations: &[Explanation] = explained
                    .iter()
                    .find(|e| e.ply == i)
                    .map_or(&[], |e| &e.explanations);
                PlyAnalysisView {
                    ply: i + 1,
                    number,
                    color,
                    mv: mv.to_string(),
                    played_value: r.played_value,
                    best_move: r.best_move.to_string(),
                    best_value: r.best_value,
                    loss: r.loss,
                    exact: r.exact,
                    book: r.book,
                    eval_black: black_view(color, r.played_value),
                    best_line: r.pv.iter().map(|m| m.to_string()).collect(),
                    played_line: played_line(game, review, i)
                        .iter()
                        .map(|m| m.to_string())
                        .collect(),
                    tags: explanations.iter().map(|e| e.kind.as_str()).collect(),
                    explanations: explanations.iter().map(ExplanationView::new).collect(),
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

impl AnalysisView {
    /// The object as JSON text (what the API answers; `virada analyze --game --json` prints it).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}

/// The line after ply `i` of `game` as the coach reads it (`coach::explain_game`): the played
/// move, the forced passes after it, then the review's best line of the next position.
fn played_line(game: &Game, review: &GameAnalysis, i: usize) -> Vec<Move> {
    let moves = game.moves();
    let Some(&first) = moves.get(i) else {
        return Vec::new();
    };
    let mut line = vec![first];
    let mut next = i + 1;
    while next < moves.len() && moves[next] == Move::Pass {
        line.push(Move::Pass);
        next += 1;
    }
    if let Some(r) = review.ply(next) {
        line.extend(&r.pv);
    }
    line
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
    fn mistakes_get_explanations_and_black_view() {
        // Black to move with a1 empty: b2 is an X-square (and White answers a1 over the
        // diagonal to f6), f4 a quiet alternative.
        let start: Position = "--------\
             --------\
             --O-----\
             ---XO---\
             ---OX---\
             -----O--\
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
            book: false,
            pv: vec!["f4".parse().unwrap()],
        };
        let whole = |p: PlyAnalysis, complete| GameAnalysis {
            plies: vec![p],
            nodes: 0,
            elapsed: std::time::Duration::ZERO,
            complete,
        };
        let v = serde_json::to_value(analysis_view(&game, &whole(review.clone(), true))).unwrap();
        assert_eq!(v["complete"], true);
        let ply = &v["plies"][0];
        assert_eq!(ply["ply"], 1);
        assert_eq!(ply["number"], 1);
        assert_eq!(ply["best_line"], serde_json::json!(["f4"]));
        // The game ends after b2 here: the played line is the move alone.
        assert_eq!(ply["played_line"], serde_json::json!(["b2"]));
        let kinds: Vec<&str> = ply["tags"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap())
            .collect();
        assert!(
            kinds.contains(&"x_square") && kinds.contains(&"corner_given"),
            "{kinds:?}"
        );
        let x = ply["explanations"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["kind"] == "x_square")
            .unwrap();
        assert_eq!(x["squares"], serde_json::json!(["b2", "a1"]));
        assert_eq!(
            x["text"]["pt"],
            "b2 é uma casa X ao lado do canto vazio a1: costuma entregar o canto."
        );
        let corner = ply["explanations"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["kind"] == "corner_given")
            .unwrap();
        assert_eq!(corner["numbers"]["moves"], 1);
        // Both drawn right after b2 (the corner a1 is White's move there), on the played line.
        assert_eq!(
            corner["at"],
            serde_json::json!({"line": "played", "ply": 1})
        );
        assert_eq!(x["at"], serde_json::json!({"line": "played", "ply": 1}));
        assert_eq!(ply["eval_black"], -5.0);
        assert_eq!(ply["book"], false);
        let tags = ply["tags"].clone();
        // A small loss is not explained; a book move that loses as much is, like any other.
        let small = PlyAnalysis {
            loss: 0.5,
            ..review.clone()
        };
        let v = serde_json::to_value(analysis_view(&game, &whole(small, false))).unwrap();
        assert!(v["plies"][0]["explanations"].as_array().unwrap().is_empty());
        assert_eq!(v["complete"], false);
        let book = PlyAnalysis {
            book: true,
            ..review
        };
        let v = serde_json::to_value(analysis_view(&game, &whole(book, true))).unwrap();
        assert_eq!(v["plies"][0]["book"], true);
        assert!(!tags.as_array().unwrap().is_empty());
        assert_eq!(v["plies"][0]["tags"], tags);
    }

    #[test]
    fn the_played_line_is_the_move_then_the_next_positions_best_line() {
        // f5 d6 c3: after Black's f5 the review's line of the next position (White to move)
        // is the refutation the page steps.
        let mut game = Game::new();
        for m in ["f5", "d6", "c3"] {
            game.play(m.parse().unwrap()).unwrap();
        }
        let judged = |ply: usize, pv: &[&str]| {
            let pos = game.positions()[ply];
            let pv: Vec<Move> = pv.iter().map(|m| m.parse().unwrap()).collect();
            PlyAnalysis {
                ply,
                color: pos.side_to_move(),
                played: game.moves()[ply],
                played_value: 0.0,
                best_move: pv[0],
                best_value: 0.0,
                loss: 0.0,
                exact: false,
                depth: 4,
                book: false,
                pv,
            }
        };
        let review = GameAnalysis {
            plies: vec![
                judged(0, &["f5", "f6"]),
                judged(1, &["f6", "e6", "f4"]),
                judged(2, &["c3"]),
            ],
            nodes: 0,
            elapsed: std::time::Duration::ZERO,
            complete: true,
        };
        let v = serde_json::to_value(analysis_view(&game, &review)).unwrap();
        assert_eq!(
            v["plies"][0]["played_line"],
            serde_json::json!(["f5", "f6", "e6", "f4"])
        );
        assert_eq!(
            v["plies"][1]["played_line"],
            serde_json::json!(["d6", "c3"])
        );
        assert_eq!(v["plies"][2]["played_line"], serde_json::json!(["c3"]));
    }
}
