//! The strategy lessons' positions (web/lessons.json, built by `examples/lessons.rs`): every
//! answer is legal and the engine's best move or within 1 disc of it, and every other legal move
//! is more than 1 disc worse, so the page never calls a good move wrong. Checked with a fresh
//! search at the depth the file names (exact solve with few empties).

use serde_json::Value;
use virada_engine::{Engine, EngineConfig, Limits};
use virada_rules::{Move, Position, Square};

const LESSONS: &str = include_str!("../../../web/assets/learn/lessons.json");

fn lessons() -> Value {
    serde_json::from_str(LESSONS).expect("lessons.json is JSON")
}

#[test]
fn every_lesson_has_five_to_ten_positions_with_answers() {
    let data = lessons();
    let list = data["lessons"].as_array().expect("lessons");
    let ids: Vec<&str> = list.iter().map(|l| l["id"].as_str().expect("id")).collect();
    assert_eq!(
        ids,
        ["corners", "xc", "mobility", "quiet", "stable", "parity", "tempo"]
    );
    for l in list {
        let n = l["positions"].as_array().expect("positions").len();
        assert!((5..=10).contains(&n), "{}: {n} positions", l["id"]);
        for p in l["positions"].as_array().expect("positions") {
            let answers = p["answers"].as_array().expect("answers");
            assert!(!answers.is_empty(), "{}", p["id"]);
            assert!(
                answers.contains(&p["best"]),
                "{}: the best move is an answer",
                p["id"]
            );
        }
    }
}

#[test]
fn every_answer_is_the_engines_best_or_within_one_disc() {
    let data = lessons();
    let check = &data["check"];
    let depth = check["depth"].as_u64().expect("depth") as u32;
    let exact = check["exact_empties"].as_u64().expect("exact_empties") as u32;
    let tolerance = check["tolerance"].as_f64().expect("tolerance") as f32;
    assert!(tolerance <= 1.0);
    let limits = Limits {
        depth: Some(depth),
        exact_empties: Some(exact),
        ..Limits::default()
    };
    let mut engine = Engine::new(EngineConfig {
        tt_mb: 16,
        threads: 1,
        ..EngineConfig::default()
    });
    let mut checked = 0;
    for l in data["lessons"].as_array().expect("lessons") {
        for p in l["positions"].as_array().expect("positions") {
            let id = p["id"].as_str().expect("id");
            let side = if p["to_move"] == "black" { "X" } else { "O" };
            let text = format!("{} {side}", p["board"].as_str().expect("board"));
            let pos: Position = text.parse().unwrap_or_else(|e| panic!("{id}: {e:?}"));
            let b = pos.board();
            engine.clear();
            let a = engine.analyze(b, &limits, None);
            let best = a.moves.iter().map(|m| m.value).fold(f32::MIN, f32::max);
            let answers: Vec<Square> = p["answers"]
                .as_array()
                .expect("answers")
                .iter()
                .map(|s| s.as_str().expect("square").parse().expect("a square"))
                .collect();
            for m in &a.moves {
                let sq = m.mv.square().expect("no pass in a lesson");
                if answers.contains(&sq) {
                    assert!(
                        m.value >= best - tolerance - 1e-3,
                        "{id}: answer {sq} is worth {} and the best {best}",
                        m.value
                    );
                    checked += 1;
                } else {
                    assert!(
                        m.value < best - tolerance + 1e-3,
                        "{id}: {sq} is worth {} (best {best}) but is not an answer",
                        m.value
                    );
                }
            }
            for sq in &answers {
                assert!(
                    a.value_of(Move::Play(*sq)).is_some(),
                    "{id}: answer {sq} is not a legal move"
                );
            }
        }
    }
    assert!(checked >= 35, "{checked} answers checked");
}
