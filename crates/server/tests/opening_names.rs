//! Opening names over the API: the game object and the saved-games list name the opening a game
//! has reached, in English and Portuguese, in any orientation.

use reqwest::{Client, StatusCode};
use serde_json::{json, Value};
use virada_server::{Server, ServerConfig};

async fn send(req: reqwest::RequestBuilder) -> (StatusCode, Value) {
    let r = req.send().await.expect("request sent");
    let status = r.status();
    let text = r.text().await.expect("body");
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

#[tokio::test]
async fn games_and_the_list_name_their_opening() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(ServerConfig::for_tests(dir.path().join("db.sqlite")))
        .await
        .expect("server starts");
    let base = server.url();
    let c = Client::new();
    let (s, g) = send(
        c.post(format!("{base}/api/games"))
            .json(&json!({"mode": "friend"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    assert_eq!(g["opening_name"], Value::Null, "nothing named at the start");
    let id = g["id"].as_str().unwrap().to_string();
    // The Parallel opening (f5 f4) turned by 90 degrees: d3 e3.
    let mut last = Value::Null;
    for (ply, sq) in ["d3", "e3"].iter().enumerate() {
        let (s, g) = send(
            c.post(format!("{base}/api/games/{id}/moves"))
                .json(&json!({"square": sq, "ply": ply})),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{g}");
        last = g;
    }
    let named = &last["opening_name"];
    assert_eq!(named["id"], "parallel", "{last}");
    assert_eq!(named["name"]["en"], "Parallel");
    assert_eq!(named["name"]["pt"], "Paralela");
    assert_eq!(named["ply"], 2);
    let (s, list) = send(c.get(format!("{base}/api/games"))).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(list["games"][0]["opening_name"]["id"], "parallel", "{list}");
    server.shutdown().await;
}
