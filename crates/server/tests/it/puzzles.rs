//! Puzzle API tests: a real server on port 0 with a temporary SQLite file, driven over HTTP by
//! browsers that keep their identity cookie. The puzzles are the shipped ones; the tests read
//! their solutions from the engine crate, as the server does.

use reqwest::{Client, StatusCode};
use serde_json::{json, Value};
use virada_engine::puzzles::{shipped, Puzzle, PuzzleKind, Theme};
use virada_rules::{Move, Position, Square};
use virada_server::http::limits::Rate;
use virada_server::ServerConfig;

use crate::kit::http::{browser, TestServer};

impl TestServer {
    async fn attempt(&self, who: &Client, p: &Puzzle, moves: &[Square]) -> (StatusCode, Value) {
        let moves: Vec<String> = moves.iter().map(|s| s.to_string()).collect();
        self.post_as(
            who,
            &format!("/api/puzzles/{}/attempt", p.id),
            json!({ "moves": moves }),
        )
        .await
    }
}

/// The solver's moves of `p`'s solution.
fn solution(p: &Puzzle) -> Vec<Square> {
    p.steps()
        .filter(|(_, mine, _)| *mine)
        .filter_map(|(_, _, mv)| mv.square())
        .collect()
}

/// A shipped puzzle of at least `n` solver moves whose line has an opponent reply.
fn puzzle_with(n: usize) -> &'static Puzzle {
    shipped()
        .iter()
        .find(|p| p.solver_moves() >= n && p.scores.len() >= 2)
        .expect("such a puzzle is shipped")
}

fn moves_of(v: &Value) -> Vec<String> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|m| m.as_str().expect("a move").to_string())
        .collect()
}

#[tokio::test]
async fn a_puzzle_is_shown_without_its_solution_and_solved_move_by_move() {
    let t = TestServer::fresh().await;
    let me = browser();
    let p = puzzle_with(2);
    let (s, v) = t.get_as(&me, &format!("/api/puzzles/{}", p.id)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["board"].as_str().unwrap(), &p.start.to_string()[..64]);
    assert_eq!(v["side_to_move"], json!(p.solver()));
    assert_eq!(v["solver_moves"], json!(p.solver_moves()));
    assert_eq!(v["best_score"], json!(p.best_score()));
    assert_eq!(v["result"], Value::Null);
    assert_eq!(v["solver"]["rating"], json!(1500));
    let text = v.to_string();
    assert!(!text.contains("line") && !text.contains("scores"), "{text}");

    // Move by move: each right move gets the opponent's reply from the line.
    let mine = solution(p);
    let mut pos = p.start;
    let mut line = p.line.iter().copied();
    for k in 1..=mine.len() {
        let (s, a) = t.attempt(&me, p, &mine[..k]).await;
        assert_eq!(s, StatusCode::OK, "{a}");
        // Follow the line: the solver's move, then what the server says the opponent plays.
        assert_eq!(line.next(), Some(Move::Play(mine[k - 1])));
        pos = pos.play_unchecked(Move::Play(mine[k - 1]));
        for r in moves_of(&a["reply"]) {
            let mv = line.next().expect("the reply is in the line");
            assert_eq!(r, mv.to_string());
            pos = pos.play_unchecked(mv);
        }
        if k < mine.len() {
            assert_eq!(a["result"], "continue", "{a}");
            assert!(!a["reply"].as_array().unwrap().is_empty());
            // The feedback, in both languages, names the opponent's first move as its reply
            // (or its pass) and which move comes next.
            let (en, pt) = (
                a["feedback"]["en"].as_str().unwrap(),
                a["feedback"]["pt"].as_str().unwrap(),
            );
            let first = a["reply"][0].as_str().unwrap();
            if first == "pass" {
                assert!(
                    en.contains("must pass") && pt.contains("passa a vez"),
                    "{a}"
                );
            } else {
                assert!(en.contains(&format!("and replies {first}.")), "{en}");
                assert!(pt.contains(&format!("e responde {first}.")), "{pt}");
            }
            let next = format!("({} of {})", k + 1, mine.len());
            assert!(en.starts_with("Right! ") && en.contains(&next), "{en}");
            assert!(pt.starts_with("Certo! "), "{pt}");
            assert_eq!(a["rated"], false);
            assert!(pos.check(Move::Play(mine[k])).is_ok());
        } else {
            assert_eq!(a["result"], "solved", "{a}");
            assert!(
                a["feedback"]["en"]
                    .as_str()
                    .unwrap()
                    .starts_with("Solved! "),
                "{a}"
            );
            assert!(
                a["feedback"]["pt"]
                    .as_str()
                    .unwrap()
                    .starts_with("Resolvido! "),
                "{a}"
            );
            assert_eq!(a["rated"], true);
            assert!(a["solver"]["rating"].as_i64().unwrap() > 1500, "{a}");
            assert_eq!(a["solver"]["attempts"], 1);
            assert_eq!(a["solver"]["solved"], 1);
            assert!(
                f64::from(a["puzzle_rating"].as_i64().unwrap() as i32) < p.rating.rating,
                "{a}"
            );
        }
    }
    let (_, v) = t.get_as(&me, &format!("/api/puzzles/{}", p.id)).await;
    assert_eq!(v["result"], "solved");
    t.server.shutdown().await;
}

#[tokio::test]
async fn a_wrong_move_is_refuted_and_rates_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let t = TestServer::start(&db).await;
    let me = browser();
    let p = puzzle_with(1);
    let (wrong, wrong_score) = p.scores[1];
    let (s, a) = t.attempt(&me, p, &[wrong]).await;
    assert_eq!(s, StatusCode::OK, "{a}");
    assert_eq!(a["result"], "wrong");
    assert_eq!(a["wrong_move"], 1);
    assert_eq!(a["wrong_score"], wrong_score);
    assert_eq!(a["best_score"], p.best_score());
    assert!(wrong_score < p.best_score());
    assert_eq!(a["rated"], true);
    let after_wrong = a["solver"]["rating"].as_i64().unwrap();
    assert!(after_wrong < 1500, "{a}");
    assert!(a["puzzle_rating"].as_i64().unwrap() as f64 > p.rating.rating);
    // The refutation is a line of legal moves from the position after the wrong move, and the
    // game it plays out is worth what the server says (when it reaches the end).
    let refutation = moves_of(&a["refutation"]);
    assert!(!refutation.is_empty(), "{a}");
    // The feedback names the refutation's first move as the reply, and both exact results.
    let en = a["feedback"]["en"].as_str().unwrap();
    assert!(en.starts_with("Not this one."), "{en}");
    if refutation[0] != "pass" {
        assert!(
            en.contains(&format!("and replies {}.", refutation[0])),
            "{en}"
        );
    }
    let result = |v: i32| match v.signum() {
        0 => "a draw".to_string(),
        1 => format!("a win by {v} disc{}", if v == 1 { "" } else { "s" }),
        _ => format!("a loss by {} disc{}", -v, if v == -1 { "" } else { "s" }),
    };
    assert!(
        en.contains(&format!(
            "{} instead of {}.",
            result(wrong_score),
            result(p.best_score())
        )),
        "{en}"
    );
    assert!(
        a["feedback"]["pt"]
            .as_str()
            .unwrap()
            .starts_with("Esta não."),
        "{a}"
    );
    let mut pos: Position = p.start.play_unchecked(Move::Play(wrong));
    for m in &refutation {
        let mv: Move = m.parse().expect("a move");
        pos.check(mv).unwrap_or_else(|e| panic!("{m}: {e}"));
        pos = pos.play_unchecked(mv);
    }
    if pos.is_game_over() {
        assert_eq!(
            pos.disc_counts().difference_for(p.solver()),
            wrong_score,
            "{a}"
        );
    }

    // Again, then solved: practice, the ratings stay.
    let (_, again) = t.attempt(&me, p, &[wrong]).await;
    assert_eq!(again["result"], "wrong");
    assert_eq!(again["rated"], false);
    assert_eq!(again["solver"]["rating"], after_wrong);
    let (_, solved) = t.attempt(&me, p, &solution(p)).await;
    assert_eq!(solved["result"], "solved", "{solved}");
    assert_eq!(solved["rated"], false);
    assert_eq!(solved["solver"]["rating"], after_wrong);
    assert_eq!(solved["puzzle_rating"], a["puzzle_rating"]);
    let (_, mine) = t.get_as(&me, "/api/puzzles/me").await;
    assert_eq!(mine["solver"]["attempts"], 1, "{mine}");
    assert_eq!(mine["solver"]["solved"], 0);
    let (_, v) = t.get_as(&me, &format!("/api/puzzles/{}", p.id)).await;
    assert_eq!(v["result"], "failed");

    // Another browser starts from 1500 and sees the puzzle's new rating; both survive a restart.
    t.server.shutdown().await;
    let t = TestServer::start(&db).await;
    let (_, fresh) = t
        .get_as(&browser(), &format!("/api/puzzles/{}", p.id))
        .await;
    assert_eq!(fresh["solver"]["rating"], 1500);
    assert_eq!(fresh["rating"], a["puzzle_rating"]);
    let (_, mine) = t.get_as(&me, "/api/puzzles/me").await;
    assert_eq!(mine["solver"]["rating"], after_wrong);
    t.server.shutdown().await;
}

#[tokio::test]
async fn a_wrong_move_later_in_the_line_is_solved_for_its_refutation() {
    let t = TestServer::fresh().await;
    let me = browser();
    let p = puzzle_with(2);
    let mine = solution(p);
    let (_, a) = t.attempt(&me, p, &mine[..1]).await;
    let mut pos = p.start.play_unchecked(Move::Play(mine[0]));
    for r in moves_of(&a["reply"]) {
        pos = pos.play_unchecked(r.parse().unwrap());
    }
    let other = pos
        .legal_moves()
        .iter()
        .find(|s| *s != mine[1])
        .expect("another move");
    let (s, w) = t.attempt(&me, p, &[mine[0], other]).await;
    assert_eq!(s, StatusCode::OK, "{w}");
    assert_eq!(w["result"], "wrong", "{w}");
    assert_eq!(w["wrong_move"], 2);
    let score = w["wrong_score"].as_i64().expect("an exact score") as i32;
    assert!(score < p.best_score(), "{w}");
    let first: Move = w["refutation"][0].as_str().unwrap().parse().unwrap();
    let after = pos.play_unchecked(Move::Play(other));
    assert!(after.check(first).is_ok(), "{w}");
    t.server.shutdown().await;
}

#[tokio::test]
async fn hints_show_the_quarter_then_the_move_and_count_as_failed() {
    let t = TestServer::fresh().await;
    let me = browser();
    let p = puzzle_with(2);
    let mine = solution(p);
    let path = format!("/api/puzzles/{}/hint", p.id);
    let (s, h) = t.post_as(&me, &path, json!({ "moves": [] })).await;
    assert_eq!(s, StatusCode::OK, "{h}");
    let region = moves_of(&h["region"]);
    assert_eq!(region.len(), 16);
    assert!(region.contains(&mine[0].to_string()));
    assert_eq!(h["square"], Value::Null);
    assert_eq!(h["rated"], true);
    assert!(h["solver"]["rating"].as_i64().unwrap() < 1500);
    let first = [mine[0].to_string()];
    let (s, h) = t
        .post_as(&me, &path, json!({ "moves": first, "level": 2 }))
        .await;
    assert_eq!(s, StatusCode::OK, "{h}");
    assert_eq!(h["square"], mine[1].to_string());
    assert_eq!(h["rated"], false);
    // A hint after a wrong move, or after the end, is refused with the field named.
    let (wrong, _) = p.scores[1];
    let (s, e) = t
        .post_as(&me, &path, json!({ "moves": [wrong.to_string()] }))
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    assert_eq!(e["error"]["params"]["field"], "moves");
    assert_eq!(e["error"]["params"]["index"], 1);
    let all: Vec<String> = mine.iter().map(|s| s.to_string()).collect();
    let (s, _) = t.post_as(&me, &path, json!({ "moves": all })).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let (s, e) = t.post_as(&me, &path, json!({ "level": 3 })).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(e["error"]["params"]["field"], "level");
    t.server.shutdown().await;
}

#[tokio::test]
async fn the_daily_puzzle_is_the_same_for_everyone() {
    let t = TestServer::fresh().await;
    let (a, b) = (browser(), browser());
    let (s, d1) = t.get_as(&a, "/api/puzzles/daily").await;
    assert_eq!(s, StatusCode::OK, "{d1}");
    let (_, d2) = t.get_as(&b, "/api/puzzles/daily").await;
    let (_, d3) = t.get_as(&a, "/api/puzzles/daily").await;
    assert_eq!(d1["id"], d2["id"]);
    assert_eq!(d1["id"], d3["id"]);
    let day = d1["daily"].as_str().expect("the day");
    assert_eq!(day.len(), 10, "{day}");
    assert!(shipped().iter().any(|p| p.id == d1["id"]));
    t.server.shutdown().await;
}

#[tokio::test]
async fn next_filters_by_theme_and_skips_what_was_done() {
    let t = TestServer::fresh().await;
    let me = browser();
    for theme in ["parity", "tempo", "edge"] {
        for _ in 0..4 {
            let (s, v) = t
                .get_as(&me, &format!("/api/puzzles/next?theme={theme}"))
                .await;
            assert_eq!(s, StatusCode::OK, "{v}");
            assert!(
                v["themes"].as_array().unwrap().contains(&json!(theme)),
                "{theme}: {v}"
            );
        }
    }
    // Near a rating: among the 10 nearest of 1,200.
    let (_, v) = t.get_as(&me, "/api/puzzles/next?rating=900").await;
    assert!(v["rating"].as_i64().unwrap() < 1100, "{v}");
    // The only wipe-out puzzle: given until it has a result, then still given (nothing else).
    let wipeout: Vec<&Puzzle> = shipped()
        .iter()
        .filter(|p| p.themes.contains(&Theme::Wipeout))
        .collect();
    if wipeout.len() == 1 {
        let p = wipeout[0];
        let (_, v) = t.get_as(&me, "/api/puzzles/next?theme=wipeout").await;
        assert_eq!(v["id"], p.id.as_str());
        let (s, _) = t
            .get_as(
                &me,
                &format!("/api/puzzles/next?theme=wipeout&after={}", p.id),
            )
            .await;
        assert_eq!(s, StatusCode::NOT_FOUND);
    }
    // The themes with their counts, and unknown themes, ratings and fields refused.
    let (_, me_view) = t.get_as(&me, "/api/puzzles/me").await;
    let themes = me_view["themes"].as_array().unwrap();
    assert_eq!(themes.len(), Theme::ALL.len());
    let (s, e) = t.get_as(&me, "/api/puzzles/next?theme=openings").await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    assert_eq!(e["error"]["code"], "bad_request");
    assert_eq!(e["error"]["params"]["field"], "theme");
    assert_eq!(e["error"]["params"]["value"], "openings");
    let (s, e) = t.get_as(&me, "/api/puzzles/next?rating=99999").await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(e["error"]["params"]["field"], "rating");
    let (s, _) = t.get_as(&me, "/api/puzzles/next?colour=red").await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    t.server.shutdown().await;
}

#[tokio::test]
async fn next_does_not_repeat_a_puzzle_with_a_result() {
    let t = TestServer::fresh().await;
    let me = browser();
    // Failing the 10 puzzles nearest the target leaves them out of the next draws.
    let mut failed = Vec::new();
    for _ in 0..10 {
        let (_, v) = t.get_as(&me, "/api/puzzles/next?rating=800").await;
        let id = v["id"].as_str().unwrap().to_string();
        assert!(!failed.contains(&id), "{id} again");
        let (_, h) = t
            .post_as(&me, &format!("/api/puzzles/{id}/hint"), json!({}))
            .await;
        assert_eq!(h["rated"], true, "{h}");
        failed.push(id);
    }
    t.server.shutdown().await;
}

#[tokio::test]
async fn bad_input_is_refused_with_codes_and_params() {
    let t = TestServer::fresh().await;
    let me = browser();
    let p = puzzle_with(1);
    let (s, e) = t.get_as(&me, "/api/puzzles/e12-0000000000").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert_eq!(e["error"]["code"], "not_found");
    let (s, e) = t.get_as(&me, "/api/puzzles/%3Cscript%3E").await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(e["error"]["params"]["field"], "id");
    let long = "e".repeat(100);
    let (s, _) = t.get_as(&me, &format!("/api/puzzles/{long}")).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let path = format!("/api/puzzles/{}/attempt", p.id);
    // Nine moves: more than MAX_ATTEMPT_MOVES.
    let nine = vec!["a1"; 9];
    let (s, e) = t.post_as(&me, &path, json!({ "moves": nine })).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    assert_eq!(e["error"]["params"]["field"], "moves");
    assert_eq!(e["error"]["params"]["max"], 8);
    assert_eq!(e["error"]["params"]["count"], 9);
    let (s, e) = t.post_as(&me, &path, json!({ "moves": [] })).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(e["error"]["params"]["min"], 1);
    let (s, e) = t.post_as(&me, &path, json!({ "moves": ["z9"] })).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(e["error"]["params"]["index"], 1);
    assert_eq!(e["error"]["params"]["value"], "z9");
    // A square that is no move: 422 naming it. Moves after the solution: 400.
    let illegal = Square::all()
        .find(|s| p.start.check(Move::Play(*s)).is_err())
        .unwrap();
    let (s, e) = t.attempt(&me, p, &[illegal]).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert_eq!(e["error"]["code"], "illegal_move");
    assert_eq!(e["error"]["square"], illegal.to_string());
    let mut beyond = solution(p);
    beyond.push(illegal);
    let (s, e) = t.attempt(&me, p, &beyond).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    assert_eq!(e["error"]["params"]["max"], p.solver_moves());
    let (s, _) = t
        .post_as(&me, &path, json!({ "moves": ["a1"], "x": 1 }))
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let (s, _) = t.post_as(&me, &path, json!({ "moves": "a1" })).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    // Not JSON: refused before anything is read.
    let r = me
        .post(format!("{}{path}", t.base))
        .body("moves=a1")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    // Nothing of this was rated.
    let (_, mine) = t.get_as(&me, "/api/puzzles/me").await;
    assert_eq!(mine["solver"]["attempts"], 0, "{mine}");
    t.server.shutdown().await;
}

#[tokio::test]
async fn attempts_and_hints_are_rate_limited_per_address() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = ServerConfig::for_tests(dir.path().join("db.sqlite"));
    config.limits.puzzle = Rate::new(1, 3);
    let t = TestServer::with(config).await;
    let me = browser();
    let p = puzzle_with(1);
    let first = [solution(p)[0]];
    for _ in 0..2 {
        let (s, a) = t.attempt(&me, p, &first).await;
        assert_eq!(s, StatusCode::OK, "{a}");
    }
    let (s, _) = t
        .post_as(&me, &format!("/api/puzzles/{}/hint", p.id), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK);
    let r = me
        .post(format!("{}/api/puzzles/{}/attempt", t.base, p.id))
        .json(&json!({ "moves": [first[0].to_string()] }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(r.headers().contains_key("retry-after"));
    let e: Value = r.json().await.unwrap();
    assert_eq!(e["error"]["code"], "too_many_requests");
    // Reading puzzles is not counted there.
    let (s, _) = t.get_as(&me, &format!("/api/puzzles/{}", p.id)).await;
    assert_eq!(s, StatusCode::OK);
    t.server.shutdown().await;
}

#[tokio::test]
async fn concurrent_first_results_rate_once() {
    let t = TestServer::fresh().await;
    let me = browser();
    // The cookie first, so that both requests are the same browser.
    let (_, before) = t.get_as(&me, "/api/puzzles/me").await;
    assert_eq!(before["solver"]["attempts"], 0);
    let p = puzzle_with(1);
    let (wrong, _) = p.scores[1];
    let (wrong, right) = ([wrong], solution(p));
    let hint_path = format!("/api/puzzles/{}/hint", p.id);
    let hint = t.post_as(&me, &hint_path, json!({ "level": 2 }));
    let (a, b, (sh, h)) = tokio::join!(t.attempt(&me, p, &wrong), t.attempt(&me, p, &right), hint);
    assert_eq!(
        (a.0, b.0, sh),
        (StatusCode::OK, StatusCode::OK, StatusCode::OK)
    );
    let rated = [&a.1, &b.1, &h]
        .iter()
        .filter(|v| v["rated"] == true)
        .count();
    assert_eq!(rated, 1, "{} {} {h}", a.1, b.1);
    let (_, mine) = t.get_as(&me, "/api/puzzles/me").await;
    assert_eq!(mine["solver"]["attempts"], 1, "{mine}");
    t.server.shutdown().await;
}

#[tokio::test]
async fn a_wrong_move_in_a_midgame_puzzle_is_refuted_by_the_search() {
    let Some(p) = shipped()
        .iter()
        .find(|p| p.kind == PuzzleKind::Midgame && p.scores.len() >= 2)
    else {
        return; // none shipped
    };
    let t = TestServer::fresh().await;
    let me = browser();
    let (wrong, stated) = p.scores[1];
    let (s, a) = t.attempt(&me, p, &[wrong]).await;
    assert_eq!(s, StatusCode::OK, "{a}");
    assert_eq!(a["result"], "wrong");
    assert_eq!(a["wrong_score"], stated, "the stated estimate");
    // Said as an estimate, with the loss the stated scores give, in both languages.
    let loss = p.best_score() - stated;
    let en = a["feedback"]["en"].as_str().unwrap();
    assert!(
        en.contains(&format!(
            "about {loss} discs below the best move (an estimate"
        )),
        "{en}"
    );
    let pt = a["feedback"]["pt"].as_str().unwrap();
    assert!(pt.contains("(uma estimativa"), "{pt}");
    let first: Move = a["refutation"][0]
        .as_str()
        .expect("an answer")
        .parse()
        .unwrap();
    let after = p.start.play_unchecked(Move::Play(wrong));
    assert!(after.check(first).is_ok(), "{a}");
    let (_, solved) = t.attempt(&me, p, &[p.solution()]).await;
    assert_eq!(solved["result"], "solved", "{solved}");
    t.server.shutdown().await;
}

/// Issue 53's oracle: `hint` with `[candidate, an occupied square]` answered 400 "not the right
/// move" for a wrong candidate and 422 `illegal_move` for the right one, unrated, so a browser
/// could probe every move and then attempt the right one for a rated "solved". Every probe
/// here comes from a fresh browser, once with the right first move and once with a wrong one:
/// either both answers are exactly the same (status and body), or the probe cost a rated
/// result. A hint is always rated, whatever its moves.
#[tokio::test]
async fn probing_an_unplayed_move_learns_nothing_without_a_rated_result() {
    let t = TestServer::fresh().await;
    let p = puzzle_with(2);
    let one = shipped()
        .iter()
        .find(|p| p.solver_moves() == 1 && p.scores.len() >= 2)
        .expect("a one-move puzzle");
    let occupied = |p: &Puzzle| {
        Square::all()
            .find(|s| p.start.color_at(*s).is_some())
            .expect("a disc")
            .to_string()
    };
    let candidates = |p: &Puzzle| [solution(p)[0], p.scores[1].0].map(|s| s.to_string());
    // (puzzle, endpoint, body for a candidate, whether the endpoint always rates).
    type Probe<'a> = (&'a Puzzle, &'a str, Box<dyn Fn(&str) -> Value + 'a>, bool);
    let (x2, x1) = (occupied(p), occupied(one));
    let probes: Vec<Probe> = vec![
        (p, "hint", Box::new(|c| json!({ "moves": [c, x2] })), true),
        (p, "hint", Box::new(|c| json!({ "moves": [c] })), true),
        (
            p,
            "hint",
            Box::new(|c| json!({ "moves": [c], "level": 2 })),
            true,
        ),
        (
            one,
            "hint",
            Box::new(|c| json!({ "moves": [c, x1] })),
            false,
        ),
        (
            one,
            "attempt",
            Box::new(|c| json!({ "moves": [c, x1] })),
            false,
        ),
    ];
    for (n, (puzzle, endpoint, body, always_rated)) in probes.iter().enumerate() {
        let mut answers = Vec::new();
        for candidate in candidates(puzzle) {
            let me = browser();
            let path = format!("/api/puzzles/{}/{endpoint}", puzzle.id);
            let (status, v) = t.post_as(&me, &path, body(&candidate)).await;
            let (_, mine) = t.get_as(&me, "/api/puzzles/me").await;
            let rated = mine["solver"]["attempts"] == 1;
            if *always_rated {
                assert!(rated, "probe {n} {endpoint} {candidate}: {status} {v}");
            }
            answers.push((status, v, rated));
        }
        let (right, wrong) = (&answers[0], &answers[1]);
        assert!(
            (right.2 && wrong.2) || (right.0, &right.1) == (wrong.0, &wrong.1),
            "probe {n} ({endpoint} on {}) tells the candidates apart unrated: right {} {} \
             (rated {}), wrong {} {} (rated {})",
            puzzle.id,
            right.0,
            right.1,
            right.2,
            wrong.0,
            wrong.1,
            wrong.2
        );
    }
    t.server.shutdown().await;
}
