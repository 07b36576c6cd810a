//! `GET /api/explorer` on a real server: the tournament moves of a position with their results,
//! players, book values and names, in any orientation; bad lines refused with what and where.

use reqwest::StatusCode;
use serde_json::Value;

use crate::kit::http::{error_code, TestServer};

fn squares(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|m| m["square"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn the_explorer_answers_positions_and_refuses_bad_lines() {
    let t = TestServer::fresh().await;

    // The start: every game's first move is one move (f5, d3, c4 and e6 by symmetry).
    let (s, start) = t.get("/api/explorer").await;
    assert_eq!(s, StatusCode::OK, "{start}");
    assert_eq!(start["known"], true);
    assert_eq!(start["ply"], 0);
    assert_eq!(start["moves"].as_array().unwrap().len(), 1);
    let first = &start["moves"][0];
    assert_eq!(first["results"]["games"], start["results"]["games"]);
    assert!(start["results"]["games"].as_u64().unwrap() > 100_000);
    let mut all = vec![first["square"].as_str().unwrap().to_string()];
    all.extend(
        first["same_as"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string()),
    );
    all.sort();
    assert_eq!(all, ["c4", "d3", "e6", "f5"]);

    // After f5: the three replies, the perpendicular d6 most played; each has players, Black's
    // results that add up, the book's value and the name of where it leads.
    let (s, f5) = t.get("/api/explorer?line=f5").await;
    assert_eq!(s, StatusCode::OK, "{f5}");
    assert_eq!(f5["side_to_move"], "white");
    let played: Vec<&Value> = f5["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["results"]["games"].as_u64().unwrap() > 0)
        .collect();
    assert_eq!(played[0]["square"], "d6");
    assert_eq!(played[0]["opening"]["name"]["en"], "Perpendicular");
    let total: u64 = played
        .iter()
        .map(|m| m["results"]["games"].as_u64().unwrap())
        .sum();
    assert_eq!(total, f5["results"]["games"].as_u64().unwrap());
    for m in &played {
        let r = &m["results"];
        let sum = r["black_wins"].as_u64().unwrap()
            + r["draws"].as_u64().unwrap()
            + r["white_wins"].as_u64().unwrap();
        assert_eq!(sum, r["games"].as_u64().unwrap(), "{m}");
        assert!(!m["players"].as_array().unwrap().is_empty(), "{m}");
        assert!(m["book"]["black_value"].is_number(), "{m}");
    }

    // The Tiger, asked in another orientation (mirrored in the a1-h8 diagonal: first move e6).
    let (s, tiger) = t.get("/api/explorer?line=f5d6c3d3").await;
    assert_eq!(s, StatusCode::OK);
    let (s, turned) = t.get("/api/explorer?line=e6f4c3c4").await;
    assert_eq!(s, StatusCode::OK, "{turned}");
    assert_eq!(tiger["results"], turned["results"]);
    let c4 = tiger["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["square"] == "c4")
        .unwrap();
    assert_eq!(c4["opening"]["id"], "tiger");
    assert_eq!(c4["opening"]["name"]["pt"], "Tiger");
    assert_eq!(
        squares(&turned["moves"]).len(),
        squares(&tiger["moves"]).len()
    );

    // Bad lines: what and where.
    let (s, e) = t.get("/api/explorer?line=f5f5").await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert_eq!(error_code(&e), "illegal_move");
    assert!(
        e["error"]["message"].as_str().unwrap().contains("move 2"),
        "{e}"
    );
    let (s, e) = t.get("/api/explorer?line=f5z9").await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    assert!(
        e["error"]["message"].as_str().unwrap().starts_with("line:"),
        "{e}"
    );
    let long = "f5d6c3d3c4f4c5b3c2e6c6b4b5d2e3a6c1b1f3f6e7";
    let (s, e) = t.get(&format!("/api/explorer?line={long}")).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    assert!(
        e["error"]["message"].as_str().unwrap().contains("first 20"),
        "{e}"
    );
    let (s, e) = t.get("/api/explorer?moves=f5").await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    let (s, e) = t
        .get(&format!("/api/explorer?line={}", "f".repeat(300)))
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
}
