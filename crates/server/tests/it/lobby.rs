//! The lobby on a real server on port 0 (docs/API.md "Lobby"): seeks made, listed live,
//! accepted once (two acceptors: one game, one 409), cancelled only by their maker, gone when
//! their maker's lobby socket has been closed for the grace; rated games through the lobby
//! moving both ratings exactly as Glicko-2 says; quick pairing by rating in a window that
//! widens with the server's (manual) clock.

use crate::kit::accounts::{code, sign_up};
use crate::kit::games::a_move_each_then_resign;
use crate::kit::online::*;
use crate::kit::rated::{ana_and_bia, rating};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use std::time::Duration;
use virada_engine::glicko::{after_game, Rating};

fn blitz_tc() -> Value {
    json!({"kind": "clock", "minutes": 3, "increment_seconds": 2})
}

/// The lobby socket of `who`, after its first message (the open seeks), which is returned.
async fn lobby(srv: &TestServer, who: &Browser) -> (Ws, Value) {
    let mut ws = srv.socket(who, "/api/lobby/ws").await;
    let first = next(&mut ws).await;
    assert_eq!(first["type"], "seeks", "{first}");
    (ws, first["seeks"].clone())
}

/// Closes the lobby socket `ws` from this side and waits until the server has closed the
/// connection too. The server's socket task tells the lobby the socket left (its `Leave` guard,
/// dropped before the socket it outlives) as it ends, so from then on the lobby counts the
/// socket gone, from the server's time of that moment.
async fn leave(mut ws: Ws) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let tokio_tungstenite::MaybeTlsStream::Plain(tcp) = ws.get_mut() else {
        panic!("the test server speaks plain ws://");
    };
    tcp.shutdown().await.expect("the end of the stream is sent");
    let mut buf = [0u8; 1024];
    let closed = tokio::time::timeout(Duration::from_secs(10), async {
        while !matches!(tcp.read(&mut buf).await, Ok(0) | Err(_)) {}
    })
    .await;
    assert!(closed.is_ok(), "the server closes the lobby socket");
}

/// A 3+2 seek made by a new browser with no lobby socket open: the lobby removes it at its
/// first look at least [`virada_server::lobby::GRACE_MS`] later, so its `seek_removed` proves
/// the lobby has looked at that time. Its id.
async fn seek_without_socket(srv: &TestServer, name: &str) -> String {
    let (s, v) = srv
        .post(
            &Browser::new(),
            "/api/seeks",
            json!({"time_control": blitz_tc(), "name": name}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    v["id"].as_str().unwrap().to_string()
}

/// `DELETE path` as `who`.
async fn delete(srv: &TestServer, who: &Browser, path: &str) -> (StatusCode, Value) {
    let (s, v, _) = crate::kit::accounts::call(srv, who, Method::DELETE, path, None).await;
    (s, v)
}

/// `name`'s blitz rating from the profile (a new player's if none yet).
async fn blitz(srv: &TestServer, name: &str) -> (Rating, u64) {
    rating(srv, name, "blitz")
        .await
        .map_or((Rating::NEW_PLAYER, 0), |(r, games, _)| (r, games))
}

/// `maker` (lobby socket `maker_ws`) seeks a rated 3+2 game as Black, `taker` accepts: the
/// game id, after checking both learn it (the maker over the lobby socket).
async fn seek_and_accept(
    srv: &TestServer,
    maker: &Browser,
    maker_ws: &mut Ws,
    taker: &Browser,
) -> String {
    let (s, v) = srv
        .post(
            maker,
            "/api/seeks",
            json!({"time_control": blitz_tc(), "rated": true, "color": "black"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let seek = v["id"].as_str().unwrap().to_string();
    let added = next_of(maker_ws, "seek_added").await;
    assert_eq!(added["seek"]["id"], seek.as_str());
    assert_eq!(added["seek"]["mine"], true);
    assert_eq!(added["seek"]["category"], "blitz");
    let (s, list) = srv.get(taker, "/api/seeks").await;
    assert_eq!(s, StatusCode::OK, "{list}");
    let listed = list["seeks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == seek.as_str())
        .expect("the seek is listed")
        .clone();
    assert_eq!(listed["mine"], false);
    assert_eq!(listed["rated"], true);
    let (s, v) = srv
        .post(taker, &format!("/api/seeks/{seek}/accept"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["color"], "white");
    let game = v["game"].as_str().unwrap().to_string();
    // The seek leaves the list when it is taken, then the game is made.
    let removed = next_of(maker_ws, "seek_removed").await;
    assert_eq!(removed["id"], seek.as_str());
    let paired = next_of(maker_ws, "paired").await;
    assert_eq!(
        (
            paired["game"].as_str(),
            paired["color"].as_str(),
            paired["seek"].as_str()
        ),
        (Some(game.as_str()), Some("black"), Some(seek.as_str()))
    );
    let g = srv.game(maker, &game).await;
    assert_eq!(g["online"]["phase"], "playing", "{g}");
    assert_eq!(g["online"]["rated"], true);
    assert_eq!(g["online"]["you"], "black", "{g}");
    game
}

#[tokio::test]
async fn rated_games_through_the_lobby_move_both_ratings_as_glicko_2_says() {
    let (srv, _) = fresh().await;
    let (ana, bia) = ana_and_bia(&srv).await;
    let (mut ana_ws, seeks) = lobby(&srv, &ana).await;
    assert_eq!(seeks, json!([]));
    for (loser, black_score) in [("white", 1.0), ("black", 0.0)] {
        let (a0, na) = blitz(&srv, "ana").await;
        let (b0, nb) = blitz(&srv, "bia").await;
        let game = seek_and_accept(&srv, &ana, &mut ana_ws, &bia).await;
        a_move_each_then_resign(&srv, &game, &ana, &bia, loser).await;
        // Ana was Black: her score and Bia's, each against the other's rating before.
        let (want_a, want_b) = after_game(a0, b0, black_score);
        assert_eq!(blitz(&srv, "ana").await, (want_a, na + 1));
        assert_eq!(blitz(&srv, "bia").await, (want_b, nb + 1));
    }
    let (a, _) = blitz(&srv, "ana").await;
    assert_ne!(a, Rating::NEW_PLAYER);
}

#[tokio::test]
async fn seeks_are_the_makers_and_are_accepted_once() {
    let (srv, _) = fresh().await;
    let maker = Browser::new();
    let (_maker_ws, _) = lobby(&srv, &maker).await;
    let casual = json!({"time_control": blitz_tc(), "name": "Ana"});

    // A guest cannot make a rated seek; bad bodies are 400 (413 when too big).
    let (s, v) = srv
        .post(
            &maker,
            "/api/seeks",
            json!({"time_control": blitz_tc(), "rated": true, "name": "Ana"}),
        )
        .await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::UNAUTHORIZED, "sign_in_required"),
        "{v}"
    );
    for bad in [
        json!({"time_control": blitz_tc()}),
        json!({"time_control": blitz_tc(), "name": "Ana", "color": "green"}),
        json!({"time_control": blitz_tc(), "name": "Ana", "rating_range": [1800, 1200]}),
        json!({"time_control": {"kind": "clock", "minutes": 0, "increment_seconds": 0}, "name": "Ana"}),
        json!({"time_control": blitz_tc(), "name": "Ana", "extra": 1}),
    ] {
        let (s, v) = srv.post(&maker, "/api/seeks", bad.clone()).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{bad} -> {v}");
    }
    let (s, _) = srv
        .post(
            &maker,
            "/api/seeks",
            json!({"time_control": blitz_tc(), "name": "x".repeat(2000)}),
        )
        .await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE);

    // Three open seeks at most.
    let mut ids = Vec::new();
    for _ in 0..3 {
        let (s, v) = srv.post(&maker, "/api/seeks", casual.clone()).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        ids.push(v["id"].as_str().unwrap().to_string());
    }
    let (s, v) = srv.post(&maker, "/api/seeks", casual.clone()).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::CONFLICT, "too_many_seeks"),
        "{v}"
    );
    assert_eq!(v["error"]["params"]["max"], 3);

    // Only the maker cancels; nobody accepts their own seek.
    let other = Browser::new();
    let (s, v) = delete(&srv, &other, &format!("/api/seeks/{}", ids[0])).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::FORBIDDEN, "not_your_seek"),
        "{v}"
    );
    let (s, v) = delete(&srv, &other, "/api/seeks/s_000000000000").await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{v}");
    let (s, v) = srv
        .post(&maker, &format!("/api/seeks/{}/accept", ids[0]), json!({}))
        .await;
    assert_eq!((s, code(&v)), (StatusCode::BAD_REQUEST, "own_seek"), "{v}");
    let (s, _) = delete(&srv, &maker, &format!("/api/seeks/{}", ids[2])).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (_, list) = srv.get(&other, "/api/seeks").await;
    assert_eq!(list["seeks"].as_array().unwrap().len(), 2, "{list}");

    // Two acceptors at once: one game, one 409; a later one 409 too.
    let (x, y) = (Browser::new(), Browser::new());
    let path = format!("/api/seeks/{}/accept", ids[0]);
    let (rx, ry) = tokio::join!(
        srv.post(&x, &path, json!({"name": "Xu"})),
        srv.post(&y, &path, json!({"name": "Yara"}))
    );
    let mut statuses = [rx.0, ry.0];
    statuses.sort();
    assert_eq!(
        statuses,
        [StatusCode::OK, StatusCode::CONFLICT],
        "{rx:?} {ry:?}"
    );
    let (won, lost) = if rx.0 == StatusCode::OK {
        (rx, ry)
    } else {
        (ry, rx)
    };
    assert_eq!(code(&lost.1), "seek_taken");
    let game = won.1["game"].as_str().unwrap();
    let g = srv.game(&maker, game).await;
    assert_eq!(g["online"]["phase"], "playing");
    assert_eq!(g["online"]["rated"], false);
    let (s, v) = srv
        .post(&Browser::new(), &path, json!({"name": "Zé"}))
        .await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "seek_taken"), "{v}");
    let (_, list) = srv.get(&other, "/api/seeks").await;
    assert_eq!(list["seeks"].as_array().unwrap().len(), 1, "{list}");
}

#[tokio::test]
async fn a_rating_range_is_checked_against_the_acceptor() {
    let (srv, _) = fresh().await;
    let (ana, bia) = ana_and_bia(&srv).await;
    let (_ws, _) = lobby(&srv, &ana).await;
    let (s, v) = srv
        .post(
            &ana,
            "/api/seeks",
            json!({"time_control": blitz_tc(), "rated": true, "rating_range": [1600, 2000]}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap();
    // Bia is new (1500).
    let (s, v) = srv
        .post(&bia, &format!("/api/seeks/{id}/accept"), json!({}))
        .await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::FORBIDDEN, "rating_out_of_range"),
        "{v}"
    );
    assert_eq!(
        v["error"]["params"],
        json!({"min": 1600, "max": 2000, "rating": 1500.0})
    );
    // Once Ana blocks Bia, Bia cannot take any of her seeks (403 `blocked`).
    let (s, v) = srv.post(&ana, "/api/account/blocks/bia", json!({})).await;
    assert!(s.is_success(), "{s} {v}");
    let (s, v) = srv
        .post(&ana, "/api/seeks", json!({"time_control": blitz_tc()}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let open = v["id"].as_str().unwrap();
    let (s, v) = srv
        .post(&bia, &format!("/api/seeks/{open}/accept"), json!({}))
        .await;
    assert_eq!((s, code(&v)), (StatusCode::FORBIDDEN, "blocked"), "{v}");
    // A guest cannot accept a rated seek.
    let (s, v) = srv
        .post(
            &Browser::new(),
            &format!("/api/seeks/{id}/accept"),
            json!({"name": "G"}),
        )
        .await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::UNAUTHORIZED, "sign_in_required"),
        "{v}"
    );
}

#[tokio::test]
async fn a_seek_vanishes_when_its_makers_socket_has_been_closed_for_the_grace() {
    let (srv, time) = fresh().await;
    let (maker, watcher) = (Browser::new(), Browser::new());
    let (mut watch_ws, _) = lobby(&srv, &watcher).await;
    let (maker_ws, _) = lobby(&srv, &maker).await;
    let (s, v) = srv
        .post(
            &maker,
            "/api/seeks",
            json!({"time_control": blitz_tc(), "name": "Ana"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    assert_eq!(
        next_of(&mut watch_ws, "seek_added").await["seek"]["id"],
        id.as_str()
    );
    // While the socket is open, time passing changes nothing: the lobby's look at the new time
    // (the one that removes a seek whose maker has no socket) keeps this seek.
    let away = seek_without_socket(&srv, "Cai").await;
    assert_eq!(
        next_of(&mut watch_ws, "seek_added").await["seek"]["id"],
        away.as_str()
    );
    time.advance(30_000);
    assert_eq!(
        next_of(&mut watch_ws, "seek_removed").await["id"],
        away.as_str()
    );
    let (_, list) = srv.get(&watcher, "/api/seeks").await;
    assert_eq!(list["seeks"].as_array().unwrap().len(), 1, "{list}");
    assert_eq!(list["seeks"][0]["id"], id.as_str(), "{list}");
    // The maker leaves 1 s after another seek without a socket was made: 4 s later that one
    // is past the grace and removed, and the maker's, in the same look, is still in its grace.
    let early = seek_without_socket(&srv, "Dia").await;
    assert_eq!(
        next_of(&mut watch_ws, "seek_added").await["seek"]["id"],
        early.as_str()
    );
    time.advance(1_000);
    leave(maker_ws).await;
    time.advance(4_000);
    assert_eq!(
        next_of(&mut watch_ws, "seek_removed").await["id"],
        early.as_str()
    );
    let (_, list) = srv.get(&watcher, "/api/seeks").await;
    assert_eq!(
        list["seeks"].as_array().unwrap().len(),
        1,
        "still in its grace: {list}"
    );
    time.advance(1_000);
    let removed = next_of(&mut watch_ws, "seek_removed").await;
    assert_eq!(removed["id"], id.as_str());
    let (_, list) = srv.get(&watcher, "/api/seeks").await;
    assert_eq!(list["seeks"], json!([]));

    // A seek made with no lobby socket open goes after the grace too.
    let (s, _) = srv
        .post(
            &Browser::new(),
            "/api/seeks",
            json!({"time_control": blitz_tc(), "name": "Bia"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED);
    next_of(&mut watch_ws, "seek_added").await;
    time.advance(6_000);
    next_of(&mut watch_ws, "seek_removed").await;
}

/// Joins `pool` (rated) over the lobby socket; the `pool` answer.
async fn join(ws: &mut Ws, pool: &str) -> Value {
    send(
        ws,
        json!({"type": "pool_join", "pool": pool, "rated": true, "id": 1}),
    )
    .await;
    let m = next(ws).await;
    assert_eq!(m["type"], "pool", "{m}");
    m
}

#[tokio::test]
async fn quick_pairing_pairs_by_rating_in_a_window_that_widens() {
    let (srv, time) = fresh().await;
    let mut people = Vec::new();
    for name in ["ana", "bob", "cid", "dan", "eve"] {
        people.push(
            sign_up(&srv, &Browser::new(), name, "correct horse")
                .await
                .0,
        );
    }
    let [ana, bob, cid, dan, eve] = &people[..] else {
        unreachable!()
    };
    // A seek without a socket, 3 s before the pools are joined: the lobby's look that removes
    // it is its look at the pools 2 s after they were joined.
    let away = seek_without_socket(&srv, "Fay").await;
    time.advance(3_000);
    // Ana beats Bob in a rated blitz game: Ana ~1662, Bob ~1338; the others are new (1500).
    let (mut ana_ws, _) = lobby(&srv, ana).await;
    let game = seek_and_accept(&srv, ana, &mut ana_ws, bob).await;
    a_move_each_then_resign(&srv, &game, ana, bob, "white").await;
    let (ra, _) = blitz(&srv, "ana").await;
    assert!(ra.rating > 1650.0 && ra.rating < 1675.0, "{ra:?}");

    // Ana (1662) waits; Cid (1500) is 162 away: outside both 100-point windows.
    let j = join(&mut ana_ws, "3+2").await;
    assert_eq!(
        (j["window"].as_f64(), j["rating"].as_f64()),
        (Some(100.0), Some(ra.rating.round()))
    );
    let (mut cid_ws, _) = lobby(&srv, cid).await;
    join(&mut cid_ws, "3+2").await;
    // Dan (1500) joins: Cid and Dan are 0 apart: paired at once, Ana is not.
    let (mut dan_ws, _) = lobby(&srv, dan).await;
    join(&mut dan_ws, "3+2").await;
    let pc = next_of(&mut cid_ws, "paired").await;
    let pd = next_of(&mut dan_ws, "paired").await;
    assert_eq!(pc["game"], pd["game"]);
    assert_eq!(pc["pool"], "3+2");
    assert_ne!(pc["color"], pd["color"]);
    let g = srv.game(cid, pc["game"].as_str().unwrap()).await;
    assert_eq!(g["online"]["phase"], "playing");
    assert_eq!(g["online"]["rated"], true);
    assert_eq!(g["online"]["time_control"], blitz_tc());

    // Eve (1500) joins: 162 from Ana. After 2 s the windows are 150: still apart.
    let (mut eve_ws, _) = lobby(&srv, eve).await;
    join(&mut eve_ws, "3+2").await;
    let joined_at = time.clock().now_ms();
    time.advance(2_000);
    assert_eq!(
        next_of(&mut ana_ws, "seek_removed").await["id"],
        away.as_str()
    );
    // A bad pool is refused (Eve's socket also has the removal of that seek to read).
    send(
        &mut eve_ws,
        json!({"type": "pool_join", "pool": "2+1", "id": 2}),
    )
    .await;
    let m = next_of(&mut eve_ws, "error").await;
    assert_eq!(
        (m["type"].as_str(), m["code"].as_str()),
        (Some("error"), Some("unknown_pool")),
        "{m}"
    );
    // The bad join did not take Eve out of her pool; at 3 s the windows are 175: paired.
    time.advance(1_000);
    let pa = next_of(&mut ana_ws, "paired").await;
    let pe = next_of(&mut eve_ws, "paired").await;
    assert_eq!(pa["game"], pe["game"]);
    let g = srv.game(eve, pe["game"].as_str().unwrap()).await;
    assert_eq!(g["online"]["phase"], "playing");
    // Paired at 3 s, not at 2 s: Black's 30 s for a first move started then.
    assert_eq!(
        g["online"]["clocks"]["abort_at_ms"],
        joined_at + 3_000 + 30_000,
        "{g}"
    );
}

#[tokio::test]
async fn the_pools_are_left_by_cancelling_or_by_leaving_the_page() {
    let (srv, time) = fresh().await;
    let (a, b, c) = (Browser::new(), Browser::new(), Browser::new());
    // A guest may not join a rated pool; a casual one takes a name.
    let (s, v) = srv
        .post(
            &a,
            "/api/pairing",
            json!({"pool": "1+0", "rated": true, "name": "A"}),
        )
        .await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::UNAUTHORIZED, "sign_in_required"),
        "{v}"
    );
    let (mut a_ws, _) = lobby(&srv, &a).await;
    let (s, v) = srv
        .post(&a, "/api/pairing", json!({"pool": "xot-3+2", "name": "A"}))
        .await;
    assert_eq!(s, StatusCode::ACCEPTED, "{v}");
    // A cancels: B joining finds nobody.
    let (s, _) = delete(&srv, &a, "/api/pairing").await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    assert_eq!(next_of(&mut a_ws, "pool_left").await["reason"], "cancelled");
    let (b_ws, _) = lobby(&srv, &b).await;
    let (s, _) = srv
        .post(&b, "/api/pairing", json!({"pool": "xot-3+2", "name": "B"}))
        .await;
    assert_eq!(s, StatusCode::ACCEPTED);
    // B leaves the page: after the grace the pool is empty, so C waits alone. The look that
    // removes B also removes a seek made without a socket when B left.
    leave(b_ws).await;
    let away = seek_without_socket(&srv, "D").await;
    assert_eq!(
        next_of(&mut a_ws, "seek_added").await["seek"]["id"],
        away.as_str()
    );
    time.advance(6_000);
    assert_eq!(
        next_of(&mut a_ws, "seek_removed").await["id"],
        away.as_str()
    );
    let (mut c_ws, _) = lobby(&srv, &c).await;
    let (s, _) = srv
        .post(&c, "/api/pairing", json!({"pool": "xot-3+2", "name": "C"}))
        .await;
    assert_eq!(s, StatusCode::ACCEPTED);
    // A joins again: paired with C in an XOT game.
    let (s, _) = srv
        .post(&a, "/api/pairing", json!({"pool": "xot-3+2", "name": "A"}))
        .await;
    assert_eq!(s, StatusCode::ACCEPTED);
    let pa = next_of(&mut a_ws, "paired").await;
    let pc = next_of(&mut c_ws, "paired").await;
    assert_eq!(pa["game"], pc["game"]);
    let g = srv.game(&c, pc["game"].as_str().unwrap()).await;
    assert_eq!(g["start"]["kind"], "xot", "{g}");
    assert_eq!(g["online"]["phase"], "playing", "{g}");
    let mut names = [
        g["online"]["seats"]["black"]["name"].clone(),
        g["online"]["seats"]["white"]["name"].clone(),
    ];
    names.sort_by_key(|v| v.to_string());
    assert_eq!(names, [json!("A"), json!("C")], "{g}");
}
