//! Practice sets (docs/API.md, "Practice"): a real server (SQLite, or PostgreSQL under
//! `VIRADA_TEST_STORE=postgres`) builds a side's set from a game's review; the test knows the
//! answer independently: the game is an endgame of 6 empties whose every move it values by
//! its own brute-force negamax, so the mistakes of 4+ discs and the moves within the margin
//! are known exactly (the server's review and re-check solve such positions exactly too).

use reqwest::{Client, Method, StatusCode};
use serde_json::{json, Value};
use virada_rules::{Move, Position, Square};

use crate::kit::http::{browser, error_code, id_of, TestServer};

/// The final disc difference for the side to move of `p` with best play (WOF scoring), by
/// trying every line: the test's own solver, independent of the engine's.
fn negamax(p: Position) -> i32 {
    if p.is_game_over() {
        return p.board().final_score();
    }
    if p.must_pass() {
        return -negamax(p.play_unchecked(Move::Pass));
    }
    p.legal_moves()
        .iter()
        .map(|sq| -negamax(p.play_unchecked(Move::Play(sq))))
        .max()
        .expect("a move")
}

/// Every legal move of `p` with its exact value for the mover.
fn values(p: Position) -> Vec<(Square, i32)> {
    p.legal_moves()
        .iter()
        .map(|sq| (sq, -negamax(p.play_unchecked(Move::Play(sq)))))
        .collect()
}

/// A position of 6 empties reached from the start, whose mover has a move losing at least 6
/// discs against the best: the first the deterministic walks find.
fn endgame_with_a_mistake() -> (Position, Square, i32) {
    for seed in 1..200usize {
        let mut p = Position::start();
        let mut k = 0;
        while !p.is_game_over() && p.board().empty_count() > 6 {
            if p.must_pass() {
                p = p.play_unchecked(Move::Pass);
                continue;
            }
            let moves: Vec<Square> = p.legal_moves().iter().collect();
            p = p.play_unchecked(Move::Play(moves[(k * seed + seed / 3) % moves.len()]));
            k += 1;
        }
        if p.is_game_over() || p.must_pass() || p.board().empty_count() != 6 {
            continue;
        }
        let v = values(p);
        let best = v.iter().map(|x| x.1).max().unwrap();
        let (worst, low) = *v.iter().min_by_key(|x| x.1).unwrap();
        if best - low >= 6 {
            return (p, worst, best - low);
        }
    }
    panic!("no walk reached such a position");
}

impl TestServer {
    async fn call_as(
        &self,
        who: &Client,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut req = who.request(method, format!("{}{path}", self.base));
        if let Some(b) = body {
            req = req.json(&b);
        }
        self.send(req).await
    }

    /// A game on one device from `start` by `who`, playing `first` and then the best moves
    /// (by the test's solver) to the end; its id.
    async fn endgame(&self, who: &Client, start: Position, first: Square) -> String {
        let (s, g) = self
            .post_as(
                who,
                "/api/games",
                json!({"mode": "friend", "start": "setup", "setup": start.to_string()}),
            )
            .await;
        assert_eq!(s, StatusCode::CREATED, "{g}");
        let id = id_of(&g);
        let mut p = start;
        let mut next = Some(first);
        let mut ply = 0;
        while let Some(sq) = next {
            let (s, g) = self
                .post_as(
                    who,
                    &format!("/api/games/{id}/moves"),
                    json!({"square": sq.to_string(), "ply": ply}),
                )
                .await;
            assert_eq!(s, StatusCode::OK, "{g}");
            ply = g["plies"].as_array().unwrap().len();
            p = p.play_unchecked(Move::Play(sq));
            while p.must_pass() {
                p = p.play_unchecked(Move::Pass);
            }
            next = values(p).into_iter().max_by_key(|x| x.1).map(|x| x.0);
        }
        id
    }
}

fn squares(v: &Value) -> Vec<String> {
    let mut s: Vec<String> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect();
    s.sort();
    s
}

#[tokio::test]
async fn a_sides_mistakes_become_a_set_kept_for_a_guest_that_moves_to_the_account_at_sign_up() {
    let t = TestServer::fresh().await;
    let (start, mistake, loss) = endgame_with_a_mistake();
    let mover = start.side_to_move();
    let color = if mover == virada_rules::Color::Black {
        "black"
    } else {
        "white"
    };
    let other = if color == "black" { "white" } else { "black" };
    let guest = browser();
    let id = t.endgame(&guest, start, mistake).await;

    // A guest: the set is kept for the browser.
    let (s, set) = t
        .post_as(
            &guest,
            &format!("/api/games/{id}/practice"),
            json!({"color": color}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{set}");
    assert_eq!(set["stored"], true);
    assert_eq!(set["game_id"], id.as_str());
    assert_eq!(set["margin"], 1.0);
    let items = set["items"].as_array().unwrap();
    // Exactly the one mistake: every later move of both sides was the best.
    assert_eq!(items.len(), 1, "{set}");
    let item = &items[0];
    assert_eq!(item["ply"], 1);
    assert_eq!(item["color"], color);
    assert_eq!(item["board"].as_str().unwrap(), &start.to_string()[..64]);
    assert_eq!(item["played"], mistake.to_string());
    assert_eq!(item["loss"].as_f64().unwrap(), f64::from(loss));
    // The moves within one disc of the best, by the test's own solver.
    let v = values(start);
    let best = v.iter().map(|x| x.1).max().unwrap();
    let mut want: Vec<String> = v
        .iter()
        .filter(|x| x.1 >= best - 1)
        .map(|x| x.0.to_string())
        .collect();
    want.sort();
    assert_eq!(squares(&item["accepted"]), want);
    assert!(want.contains(&item["best"].as_str().unwrap().to_string()));
    assert!(item["hint"].is_array());
    let guest_set = set["id"].as_str().unwrap().to_string();
    let (s, list) = t.get_as(&guest, "/api/practice").await;
    assert_eq!(s, StatusCode::OK, "{list}");
    assert_eq!(list["signed_in"], false);
    assert_eq!(list["sets"].as_array().unwrap().len(), 1, "{list}");
    assert_eq!(list["sets"][0]["id"], guest_set.as_str());
    // The guest finds it again: its progress is kept too.
    let (s, after) = t
        .post_as(
            &guest,
            &format!("/api/practice/{guest_set}/solved"),
            json!({"ply": 1}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{after}");
    assert_eq!(after["solved"], json!([1]));
    // Another guest browser sees none of it.
    let (_, theirs) = t.get_as(&browser(), "/api/practice").await;
    assert_eq!(theirs["sets"], json!([]));
    // The other side made no mistake: an empty set (not kept).
    let (s, none) = t
        .post_as(
            &guest,
            &format!("/api/games/{id}/practice"),
            json!({"color": other}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{none}");
    assert_eq!(none["items"], json!([]));
    assert_eq!(none["stored"], false);

    // Signed up, the same browser's games and practice sets are the account's, progress
    // included.
    let (s, v) = t
        .post_as(
            &guest,
            "/api/accounts",
            json!({"username": "learner", "password": "correct horse battery"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let (_, list) = t.get_as(&guest, "/api/practice").await;
    assert_eq!(list["signed_in"], true);
    assert_eq!(list["sets"].as_array().unwrap().len(), 1, "{list}");
    assert_eq!(list["sets"][0]["id"], guest_set.as_str());
    assert_eq!(list["sets"][0]["solved"], json!([1]));
    assert_eq!(list["sets"][0]["items"], set["items"]);
    // Signed out, the browser is a guest again, without them (they are the account's now).
    let (s, _) = t
        .call_as(&guest, Method::DELETE, "/api/session", None)
        .await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (_, list) = t.get_as(&guest, "/api/practice").await;
    assert_eq!(list["signed_in"], false);
    assert_eq!(list["sets"], json!([]));
    let (s, v) = t
        .post_as(
            &guest,
            "/api/session",
            json!({"username": "learner", "password": "correct horse battery"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, kept) = t
        .post_as(
            &guest,
            &format!("/api/games/{id}/practice"),
            json!({"color": color}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{kept}");
    assert_eq!(kept["stored"], true);
    assert_eq!(kept["items"], set["items"]);
    let set_id = kept["id"].as_str().unwrap().to_string();
    let (_, list) = t.get_as(&guest, "/api/practice").await;
    assert_eq!(list["signed_in"], true);
    assert_eq!(list["sets"].as_array().unwrap().len(), 1);
    assert_eq!(list["sets"][0]["id"], set_id.as_str());
    assert_eq!(list["sets"][0]["solved"], json!([]));

    // Found again: kept; a ply that is no item is refused.
    let path = format!("/api/practice/{set_id}/solved");
    let (s, after) = t.post_as(&guest, &path, json!({"ply": 1})).await;
    assert_eq!(s, StatusCode::OK, "{after}");
    assert_eq!(after["solved"], json!([1]));
    let (s, e) = t.post_as(&guest, &path, json!({"ply": 2})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    let (_, list) = t.get_as(&guest, "/api/practice").await;
    assert_eq!(list["sets"][0]["solved"], json!([1]));

    // Nobody else sees or changes it.
    let stranger = browser();
    let (s, e) = t.post_as(&stranger, &path, json!({"ply": 1})).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{e}");
    assert_eq!(error_code(&e), "not_found");
    let (s, _) = t
        .call_as(
            &stranger,
            Method::DELETE,
            &format!("/api/practice/{set_id}"),
            None,
        )
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, e) = t
        .post_as(
            &stranger,
            &format!("/api/games/{id}/practice"),
            json!({"color": color}),
        )
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{e}");

    // A new set of the same game and side replaces the old one (its progress too).
    let (_, again) = t
        .post_as(
            &guest,
            &format!("/api/games/{id}/practice"),
            json!({"color": color}),
        )
        .await;
    let (_, list) = t.get_as(&guest, "/api/practice").await;
    let sets = list["sets"].as_array().unwrap();
    assert_eq!(sets.len(), 1);
    assert_eq!(sets[0]["id"], again["id"]);
    assert_eq!(sets[0]["solved"], json!([]));

    // Deleted: gone.
    let again_id = again["id"].as_str().unwrap();
    let (s, v) = t
        .call_as(
            &guest,
            Method::DELETE,
            &format!("/api/practice/{again_id}"),
            None,
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (_, list) = t.get_as(&guest, "/api/practice").await;
    assert_eq!(list["sets"], json!([]));
}

#[tokio::test]
async fn an_account_keeps_its_newest_sets_and_practises_only_its_side_against_the_computer() {
    let t = TestServer::fresh().await;
    let (start, mistake, _) = endgame_with_a_mistake();
    let color = if start.side_to_move() == virada_rules::Color::Black {
        "black"
    } else {
        "white"
    };
    let me = browser();
    let (s, v) = t
        .post_as(
            &me,
            "/api/accounts",
            json!({"username": "keeper", "password": "correct horse battery"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    // The number of sets an account keeps (docs/SECURITY.md), as the server says it.
    let (_, list) = t.get_as(&me, "/api/practice").await;
    let max = list["max_sets"].as_u64().unwrap() as usize;
    assert_eq!(max, 20);
    let mut ids = Vec::new();
    for _ in 0..=max {
        let game = t.endgame(&me, start, mistake).await;
        let (s, set) = t
            .post_as(
                &me,
                &format!("/api/games/{game}/practice"),
                json!({"color": color}),
            )
            .await;
        assert_eq!(s, StatusCode::CREATED, "{set}");
        assert_eq!(set["stored"], true);
        ids.push(set["id"].as_str().unwrap().to_string());
    }
    let (_, list) = t.get_as(&me, "/api/practice").await;
    let kept: Vec<String> = list["sets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap().to_string())
        .collect();
    // The newest first; the oldest one dropped.
    let mut want: Vec<String> = ids[1..].to_vec();
    want.reverse();
    assert_eq!(kept, want);
    assert_eq!(list["max_sets"], max);

    // Against the computer only the person's side is theirs to practise.
    let (s, g) = t
        .post_as(
            &me,
            "/api/games",
            json!({"mode": "computer", "level": 1, "human_color": "black"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    let (s, e) = t
        .post_as(
            &me,
            &format!("/api/games/{}/practice", id_of(&g)),
            json!({"color": "white"}),
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    let (s, e) = t
        .post_as(
            &me,
            &format!("/api/games/{}/practice", id_of(&g)),
            json!({"color": "green"}),
        )
        .await;
    assert!(s.is_client_error(), "{e}");
}
