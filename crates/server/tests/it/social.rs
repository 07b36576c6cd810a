//! Watching and comparing on a real server on port 0 (SQLite, or PostgreSQL with
//! `VIRADA_TEST_STORE=postgres`; docs/API.md "Watch"): the list of live games shows only public
//! games (an account seated, both seats taken, being played), leaderboards list established
//! ratings in order without banned accounts, the players online are counted for a minute after
//! their last poll, "my live games" names the asker's clock games and its correspondence games
//! where it is to move; reports name reasons from the server's list; quick pairing says in words
//! that it skipped a blocked player.

use crate::kit::accounts::{code, sign_up};
use crate::kit::games::play_first;
use crate::kit::online::*;
use crate::kit::rated::ana_and_bia;
use crate::kit::rows::exec;
use reqwest::StatusCode;
use serde_json::{json, Value};
use virada_server::runtime::time::ManualTime;

fn blitz() -> Value {
    json!({"kind": "clock", "minutes": 3, "increment_seconds": 2})
}

fn ids(v: &Value) -> Vec<&str> {
    v["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect()
}

/// Black (`a`) plays a disc in game `id`.
async fn black_moves(srv: &TestServer, a: &Browser, id: &str) {
    let mut ws = srv.ws(a, id).await;
    let g = next_game(&mut ws).await;
    play_first(&mut ws, &g).await;
    game_at(&mut ws, 1).await;
}

#[tokio::test]
async fn only_public_games_being_played_are_listed_live() {
    let (srv, _) = fresh().await;
    let (ana, bia) = ana_and_bia(&srv).await;
    let (g1, g2) = (Browser::new(), Browser::new());
    // Two guests: seen only by the link.
    let guests = srv.started(&g1, &g2, blitz()).await;
    // An account against a guest, and two accounts: public.
    let ana_guest = srv.started(&ana, &g1, blitz()).await;
    let accounts = srv.started(&bia, &ana, json!({"kind": "none"})).await;
    black_moves(&srv, &bia, &accounts).await;
    // Waiting for its second player: not yet.
    let waiting = srv.create(&ana, blitz(), "white").await;
    // Finished (resigned): no longer.
    let done = srv.started(&bia, &g2, blitz()).await;
    let mut ws = srv.ws(&bia, &done).await;
    next_game(&mut ws).await;
    send(&mut ws, json!({"type": "resign", "ply": 0})).await;
    game_where(&mut ws, |g| g["status"] == "finished").await;

    let (s, v) = srv.get(&Browser::new(), "/api/watch/games").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // The most recently changed first (Bia's move came after Ana's game began).
    assert_eq!(ids(&v), vec![accounts.as_str(), ana_guest.as_str()], "{v}");
    assert!(!ids(&v).contains(&guests.as_str()));
    assert!(!ids(&v).contains(&waiting["id"].as_str().unwrap()));
    let line = &v["games"][1];
    assert_eq!(line["black"], json!({"name": "ana", "account": "ana"}));
    assert_eq!(line["white"], json!({"name": "Bia", "account": null}));
    assert_eq!(
        (&line["category"], &line["rated"], &line["time_control"]),
        (&json!("blitz"), &json!(false), &blitz())
    );
    let first = &v["games"][0];
    assert_eq!(
        (&first["ply_count"], &first["category"]),
        (&json!(1), &Value::Null)
    );
    // Nothing of an identity travels: only names, accounts and the game.
    assert!(!v.to_string().contains("holder") && !v.to_string().contains("browser"));
}

#[tokio::test]
async fn leaderboards_list_established_ratings_in_order_without_banned_accounts() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite");
    let srv = start(&path, ManualTime::new(T0)).await;
    let mut people = Vec::new();
    for name in ["ana", "bia", "cid", "Dan"] {
        people.push(
            sign_up(&srv, &Browser::new(), name, "correct horse")
                .await
                .0,
        );
    }
    // One real rated game: both ratings exist, provisional (deviation about 290): not listed.
    let id = crate::kit::rated::rated_game(&srv, &people[0], &people[1]).await;
    crate::kit::games::a_move_each_then_resign(&srv, &id, &people[0], &people[1], "white").await;
    let (s, v) = srv.get(&Browser::new(), "/api/watch/leaders/blitz").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["players"], json!([]), "{v}");

    // Established ratings (written as a long history would leave them); Cid is banned.
    for (name, rating, rd) in [
        ("ana", 1700.0, 80.0),
        ("bia", 1650.0, 109.9),
        ("cid", 1900.0, 60.0),
        ("dan", 1650.0, 100.0),
    ] {
        exec(
            &path,
            &format!(
                "INSERT INTO ratings (holder, category, rating, deviation, volatility, games, updated_at)
                 SELECT holder, 'bullet', {rating}, {rd}, 0.06, 12, 0 FROM accounts
                 WHERE username_key = '{name}'"
            ),
        )
        .await;
    }
    exec(
        &path,
        "UPDATE accounts SET banned_at = 1 WHERE username_key = 'cid'",
    )
    .await;
    let (s, v) = srv.get(&Browser::new(), "/api/watch/leaders/bullet").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let names: Vec<(&str, u64)> = v["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["username"].as_str().unwrap(), p["rank"].as_u64().unwrap()))
        .collect();
    // Highest first; a tie by name without regard to case.
    assert_eq!(names, vec![("ana", 1), ("bia", 2), ("Dan", 3)], "{v}");
    assert_eq!(
        (
            &v["category"],
            &v["players"][0]["rating"],
            &v["players"][0]["games"]
        ),
        (&json!("bullet"), &json!(1700.0), &json!(12))
    );

    let (s, v) = srv.get(&Browser::new(), "/api/watch/leaders/speedy").await;
    assert_eq!((s, code(&v)), (StatusCode::BAD_REQUEST, "unknown_category"));
    assert_eq!(v["error"]["params"]["categories"][0], "bullet", "{v}");
}

#[tokio::test]
async fn my_live_games_name_clock_games_and_correspondence_moves_and_count_me_online() {
    let (srv, time) = fresh().await;
    let (ana, _) = sign_up(&srv, &Browser::new(), "ana", "correct horse").await;
    let guest = Browser::new();
    // Nothing yet.
    let (s, v) = srv.get(&ana, "/api/watch/mine").await;
    assert_eq!((s, &v), (StatusCode::OK, &json!({"games": []})));

    // A clock game (Ana's move), a correspondence game where Ana is to move and one where the
    // guest is.
    let live = srv.started(&ana, &guest, blitz()).await;
    let corr = json!({"kind": "correspondence", "days": 3});
    let mine = srv.started(&ana, &guest, corr.clone()).await;
    let theirs = srv.started(&ana, &guest, corr).await;
    black_moves(&srv, &ana, &theirs).await;

    let (_, v) = srv.get(&ana, "/api/watch/mine").await;
    let mut got: Vec<(String, String, bool)> = v["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["id"].as_str().unwrap().to_string(),
                g["kind"].as_str().unwrap().to_string(),
                g["your_move"].as_bool().unwrap(),
            )
        })
        .collect();
    got.sort();
    let mut want = vec![
        (live.clone(), "live".to_string(), true),
        (mine.clone(), "correspondence".to_string(), true),
    ];
    want.sort();
    assert_eq!(got, want, "{v}");
    assert_eq!(v["games"][0]["opponent"], "Bia");
    // The guest's own: the clock game (not its move) and the correspondence game it must answer.
    let (_, v) = srv.get(&guest, "/api/watch/mine").await;
    let mut got: Vec<&str> = ids(&v);
    got.sort();
    let mut want = vec![live.as_str(), theirs.as_str()];
    want.sort();
    assert_eq!(got, want, "{v}");

    // Both polled: two online, the account named, the guest only counted.
    let (s, v) = srv.get(&Browser::new(), "/api/watch/online").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v, json!({"count": 2, "players": ["ana"]}));
    // A minute after their last poll they are gone.
    time.advance(60_000);
    let (_, v) = srv.get(&Browser::new(), "/api/watch/online").await;
    assert_eq!(v, json!({"count": 0, "players": []}));
}

#[tokio::test]
async fn reports_name_reasons_from_the_list() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite");
    let srv = start(&path, ManualTime::new(T0)).await;
    let (ana, _) = sign_up(&srv, &Browser::new(), "ana", "correct horse").await;
    sign_up(&srv, &Browser::new(), "bia", "battery staple").await;
    for bad in [json!(["nonsense"]), json!(["spam", "spam"]), json!([""])] {
        let (s, v) = srv
            .post(
                &ana,
                "/api/reports",
                json!({"player": "bia", "reasons": bad}),
            )
            .await;
        assert_eq!((s, code(&v)), (StatusCode::BAD_REQUEST, "invalid_reason"));
        assert_eq!(v["error"]["params"]["reasons"][0], "cheating", "{v}");
    }
    // Neither reasons nor words.
    let (s, v) = srv
        .post(
            &ana,
            "/api/reports",
            json!({"player": "bia", "reasons": []}),
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    // Reasons alone, and reasons with details (blank details count as none).
    for (body, kept) in [
        (
            json!({"player": "bia", "reasons": ["spam"], "reason": "  "}),
            "spam",
        ),
        (
            json!({"player": "bia", "reasons": ["abuse", "name"], "reason": "rude name"}),
            "abuse, name: rude name",
        ),
    ] {
        let (s, v) = srv.post(&ana, "/api/reports", body).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let id = v["id"].as_i64().unwrap();
        let stored = crate::kit::rows::one(
            &path,
            &format!("SELECT reason FROM reports WHERE id = {id}"),
        )
        .await;
        assert_eq!(stored.as_deref(), Some(kept));
    }
}

/// The lobby socket of `who`, after its first message.
async fn lobby(srv: &TestServer, who: &Browser) -> Ws {
    let mut ws = srv.socket(who, "/api/lobby/ws").await;
    assert_eq!(next(&mut ws).await["type"], "seeks");
    ws
}

#[tokio::test]
async fn quick_pairing_says_it_skipped_a_blocked_player_and_pairs_the_next() {
    let (srv, _) = fresh().await;
    let (ana, bia) = ana_and_bia(&srv).await;
    let (cid, _) = sign_up(&srv, &Browser::new(), "cid", "correct horse").await;
    let (s, v) = srv.post(&bia, "/api/account/blocks/ana", json!({})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let mut wa = lobby(&srv, &ana).await;
    let mut wb = lobby(&srv, &bia).await;
    send(
        &mut wa,
        json!({"type": "pool_join", "pool": "3+2", "id": 1}),
    )
    .await;
    assert_eq!(next_of(&mut wa, "pool").await["pool"], "3+2");
    // Same rating, same pool: they would be paired at Bia's joining, but Bia blocks Ana. Both
    // are told (Bia's answer to joining and the news may come in either order).
    send(
        &mut wb,
        json!({"type": "pool_join", "pool": "3+2", "id": 1}),
    )
    .await;
    let skipped = json!({"type": "pool_skipped", "reason": "blocked", "skipped": 1});
    let mut seen = Vec::new();
    while seen.len() < 2 {
        let m = next(&mut wb).await;
        match m["type"].as_str() {
            Some("pool") => seen.push("pool"),
            Some("pool_skipped") => {
                assert_eq!(m, skipped);
                seen.push("pool_skipped");
            }
            _ => {}
        }
    }
    assert_eq!(next_of(&mut wa, "pool_skipped").await, skipped);
    // Still waiting: Cid joins and is paired with the one waiting longest (Ana).
    let mut wc = lobby(&srv, &cid).await;
    send(
        &mut wc,
        json!({"type": "pool_join", "pool": "3+2", "id": 1}),
    )
    .await;
    let pc = next_of(&mut wc, "paired").await;
    let pa = next_of(&mut wa, "paired").await;
    assert_eq!(pc["game"], pa["game"]);
}
