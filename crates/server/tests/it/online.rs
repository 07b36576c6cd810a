//! Online games over a real server on port 0: seats, moves over the WebSocket, who may act,
//! stale plies, a whole game, resign, abort, takeback, rematch, chat limits, device links,
//! reconnecting, and bad input.

use crate::kit::games::{a_move_each, play_first, sockets};
use crate::kit::online::*;
use futures_util::SinkExt;
use reqwest::StatusCode;
use serde_json::json;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;
use virada_server::runtime::time::ManualTime;

#[tokio::test]
async fn seats_spectators_and_a_whole_game() {
    let (srv, _) = fresh().await;
    let db = srv.db.clone();
    let (ana, bia, eve) = (Browser::new(), Browser::new(), Browser::new());

    // Creating: bad names and time controls are refused.
    for bad in [
        json!({"mode": "online", "name": "   "}),
        json!({"mode": "online", "name": "x".repeat(25)}),
        json!({"mode": "online"}),
        json!({"mode": "online", "name": "Ana", "time_control": {"kind": "clock", "minutes": 0, "increment_seconds": 0}}),
        json!({"mode": "online", "name": "Ana", "level": 3}),
        json!({"mode": "friend", "name": "Ana"}),
    ] {
        let (s, e) = srv.post(&ana, "/api/games", bad.clone()).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{bad} -> {e}");
    }
    let g = srv.create(&ana, json!({"kind": "none"}), "black").await;
    let id = g["id"].as_str().unwrap().to_string();
    assert_eq!(g["mode"], "online");
    assert_eq!(g["online"]["phase"], "waiting");
    assert_eq!(g["online"]["you"], "black");
    assert_eq!(g["online"]["seats"]["white"]["taken"], false);
    assert_eq!(g["online"]["clocks"], json!(null));
    assert_eq!(g["legal_moves"], json!([]), "nobody moves while waiting");

    // Bia takes the free seat; the game starts. Eve finds both taken and watches.
    let (s, g) = srv.seat(&bia, &id, "Bia").await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["online"]["you"], "white");
    assert_eq!(g["online"]["phase"], "playing");
    let (s, e) = srv.seat(&eve, &id, "Eve").await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert_eq!(e["error"]["code"], "seat_taken");
    let (s, g) = srv.seat(&ana, &id, "Other").await;
    assert_eq!(
        (s, g["online"]["you"].clone()),
        (StatusCode::OK, json!("black"))
    );
    assert_eq!(
        g["online"]["seats"]["black"]["name"], "Ana",
        "a no-op keeps the name"
    );
    assert_eq!(srv.game(&eve, &id).await["online"]["you"], json!(null));

    // Moves go over the socket only; engine help waits for the end; strangers get no link.
    let (s, e) = srv
        .post(
            &ana,
            &format!("/api/games/{id}/moves"),
            json!({"square": "d3", "ply": 0}),
        )
        .await;
    assert_eq!(
        (s, e["error"]["code"].clone()),
        (StatusCode::CONFLICT, json!("not_allowed"))
    );
    let (s, _) = srv.get(&ana, &format!("/api/games/{id}/hint")).await;
    assert_eq!(s, StatusCode::CONFLICT);
    let (s, e) = srv
        .post(&eve, &format!("/api/games/{id}/device-link"), json!({}))
        .await;
    assert_eq!(
        (s, e["error"]["code"].clone()),
        (StatusCode::FORBIDDEN, json!("not_your_seat"))
    );

    let mut a = srv.ws(&ana, &id).await;
    let mut b = srv.ws(&bia, &id).await;
    let mut e = srv.ws(&eve, &id).await;
    let first = next_game(&mut a).await;
    assert_eq!(first["online"]["you"], "black");
    assert_eq!(next_game(&mut b).await["online"]["you"], "white");
    let g = next_game(&mut e).await;
    assert_eq!(g["online"]["you"], json!(null));

    // A spectator cannot move; White cannot move for Black; a stale ply is refused.
    send(
        &mut e,
        json!({"type": "move", "square": "d3", "ply": 0, "id": 1}),
    )
    .await;
    let err = next_error(&mut e).await;
    assert_eq!(
        (err["code"].clone(), err["ref"].clone()),
        (json!("not_your_seat"), json!(1))
    );
    send(&mut b, json!({"type": "move", "square": "d3", "ply": 0})).await;
    assert_eq!(next_error(&mut b).await["code"], "not_your_turn");
    send(&mut a, json!({"type": "move", "square": "a1", "ply": 0})).await;
    assert_eq!(next_error(&mut a).await["code"], "illegal_move");
    send(
        &mut a,
        json!({"type": "move", "square": "d3", "ply": 0, "id": 2}),
    )
    .await;
    // The same message again (a duplicate): refused as stale, with the current game.
    send(
        &mut a,
        json!({"type": "move", "square": "d3", "ply": 0, "id": 3}),
    )
    .await;
    // The broadcast of the move and the answer to the duplicate may come in either order.
    let (mut moved, mut refused) = (false, false);
    while !(moved && refused) {
        let m = next(&mut a).await;
        match m["type"].as_str() {
            Some("game") if plies(&m["game"]) == 1 => {
                assert_eq!(m["game"]["plies"][0]["move"], "d3");
                moved = true;
            }
            Some("error") => {
                assert_eq!(
                    (m["code"].clone(), m["ref"].clone()),
                    (json!("stale"), json!(3))
                );
                refused = true;
            }
            _ => {}
        }
    }
    assert_eq!(
        plies(&srv.game(&ana, &id).await),
        1,
        "a stale move is never applied twice"
    );
    assert_eq!(
        plies(&game_at(&mut e, 1).await),
        1,
        "the spectator sees the move"
    );

    drop((a, b, e));

    // A whole game to the end, from a set-up position 48 moves in (a socket may send at most
    // 10 moves a second, so a game from the start would take seconds): each side plays its first
    // legal move.
    let mut board = virada_rules::Game::new();
    for _ in 0..48 {
        let pos = board.position();
        let sq = pos.legal_moves().iter().next().unwrap();
        board.play(virada_rules::Move::Play(sq)).unwrap();
        board.play_forced_passes();
    }
    assert!(!board.position().is_game_over());
    let (s, g) = srv
        .post(
            &ana,
            "/api/games",
            json!({"mode": "online", "name": "Ana", "color": "black", "start": "setup", "setup": board.to_string()}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    assert_eq!(plies(&g), 0, "an online game starts at the set-up position");
    let id = g["id"].as_str().unwrap().to_string();
    assert_eq!(srv.seat(&bia, &id, "Bia").await.0, StatusCode::OK);
    let mut a = srv.ws(&ana, &id).await;
    let mut b = srv.ws(&bia, &id).await;
    next_game(&mut a).await;
    let mut g = next_game(&mut b).await;
    while g["status"] == "ongoing" {
        let n = plies(&g);
        let sq = first_legal(&g);
        let mover = if g["side_to_move"] == "black" {
            &mut a
        } else {
            &mut b
        };
        send(mover, json!({"type": "move", "square": sq, "ply": n})).await;
        // Forced passes arrive in the same game object as the move.
        g = game_where(&mut b, |g| plies(g) > n).await;
        let seen_by_a = game_where(&mut a, |g| plies(g) > n).await;
        assert_eq!(seen_by_a["plies"], g["plies"]);
    }
    assert_eq!(g["online"]["phase"], "finished");
    assert_eq!(g["online"]["end"]["reason"], "normal");
    assert!(g["result"]["black_score"].is_number(), "{}", g["result"]);
    drop((a, b));

    // The result is stored: a fresh server reads the same.
    let before = srv.game(&ana, &id).await;
    srv.server.shutdown().await;
    let srv = start(&db, ManualTime::new(T0 + 60_000)).await;
    let after = srv.game(&ana, &id).await;
    assert_eq!(after["result"], before["result"]);
    assert_eq!(after["online"]["end"], before["online"]["end"]);
    assert_eq!(after["plies"], before["plies"]);
    let (_, list) = srv.get(&ana, "/api/games?status=finished").await;
    assert!(list["games"]
        .as_array()
        .unwrap()
        .iter()
        .any(|l| l["id"] == id && l["mode"] == "online"));
    srv.server.shutdown().await;
}

#[tokio::test]
async fn resign_abort_and_forfeit_scores() {
    let (srv, _) = fresh().await;
    let (ana, bia) = (Browser::new(), Browser::new());

    // Abort before two moves: no result.
    let id = srv.started(&ana, &bia, json!({"kind": "none"})).await;
    let (mut a, mut b, _) = sockets(&srv, &ana, &bia, &id).await;
    send(&mut a, json!({"type": "move", "square": "d3", "ply": 0})).await;
    game_at(&mut b, 1).await;
    send(&mut b, json!({"type": "abort", "ply": 1})).await;
    let g = next_game(&mut b).await;
    assert_eq!(g["status"], "finished");
    assert_eq!(
        g["online"]["end"],
        json!({"reason": "abort", "loser": null})
    );
    assert_eq!(g["result"], json!(null));
    send(&mut a, json!({"type": "move", "square": "c3", "ply": 1})).await;
    assert_eq!(next_error(&mut a).await["code"], "game_over");
    // Its GGF export has the seats' names and no result.
    let ggf = ggf_of(&srv, &ana, &id).await;
    assert!(!ggf.contains("RE["), "{ggf}");
    for c in ["black", "white"] {
        let name = g["online"]["seats"][c]["name"]
            .as_str()
            .unwrap()
            .to_string();
        let tag = if c == "black" { "PB" } else { "PW" };
        assert!(ggf.contains(&format!("{tag}[{name}]")), "{ggf}");
    }

    // After two moves, abort is refused; resign ends the game with at least 33-31.
    let id = srv.started(&ana, &bia, json!({"kind": "none"})).await;
    let (mut a, mut b, _) = a_move_each(&srv, &ana, &bia, &id).await;
    send(&mut a, json!({"type": "abort", "ply": 2})).await;
    assert_eq!(next_error(&mut a).await["code"], "not_allowed");
    send(&mut a, json!({"type": "resign", "ply": 1})).await;
    assert_eq!(next_error(&mut a).await["code"], "stale");
    send(&mut a, json!({"type": "resign", "ply": 2})).await;
    let g = game_where(&mut b, |g| g["status"] == "finished").await;
    assert_eq!(
        g["online"]["end"],
        json!({"reason": "resign", "loser": "black"})
    );
    assert_eq!(g["result"]["winner"], "white");
    // 3 discs each after two moves... White 3 + 58 empties = 61: the disc count with empties.
    let (bd, wd) = (
        g["black_discs"].as_u64().unwrap(),
        g["white_discs"].as_u64().unwrap(),
    );
    assert_eq!(g["result"]["white_score"].as_u64().unwrap(), 64 - bd);
    assert_eq!(g["result"]["black_score"].as_u64().unwrap(), bd);
    assert!(wd < 33);
    // The saved-games list scores it the same way and says how it ended, with the names.
    let (s, list) = srv.get(&ana, "/api/games").await;
    assert_eq!(s, StatusCode::OK);
    let line = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == json!(id))
        .expect("the game is in its player's list")
        .clone();
    assert_eq!(line["result"], g["result"]);
    assert_eq!(line["end_reason"], "resign");
    for c in ["black", "white"] {
        assert_eq!(
            line[format!("{c}_name")],
            g["online"]["seats"][c]["name"],
            "{c}"
        );
        assert!(line[format!("{c}_name")].is_string(), "{line}");
    }
    // The GGF export says who played and that Black resigned (`:r`), with the forfeit score.
    let ggf = ggf_of(&srv, &bia, &id).await;
    let diff =
        g["result"]["black_score"].as_i64().unwrap() - g["result"]["white_score"].as_i64().unwrap();
    assert!(ggf.contains(&format!("RE[{diff:+}:r]")), "{ggf}");
    for (c, tag) in [("black", "PB"), ("white", "PW")] {
        let name = g["online"]["seats"][c]["name"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(ggf.contains(&format!("{tag}[{name}]")), "{ggf}");
    }
    srv.server.shutdown().await;
}

async fn ggf_of(srv: &TestServer, who: &Browser, id: &str) -> String {
    let (s, text) = srv
        .get_text(who, &format!("/api/games/{id}/export?format=ggf"))
        .await;
    assert_eq!(s, StatusCode::OK, "{text}");
    virada_rules::formats::ggf::read_ggf(&text).expect("the export reads back");
    text
}

#[tokio::test]
async fn takeback_accepted_declined_and_refused_in_clock_games() {
    let (srv, _) = fresh().await;
    let (ana, bia) = (Browser::new(), Browser::new());
    let id = srv.started(&ana, &bia, json!({"kind": "none"})).await;
    let (mut a, mut b, _) = sockets(&srv, &ana, &bia, &id).await;
    // Nothing to take back yet.
    send(&mut a, json!({"type": "takeback", "ply": 0})).await;
    assert_eq!(next_error(&mut a).await["code"], "not_allowed");
    send(&mut a, json!({"type": "move", "square": "d3", "ply": 0})).await;
    game_at(&mut b, 1).await;
    send(&mut a, json!({"type": "takeback", "ply": 1})).await;
    let g = next_game(&mut b).await;
    assert_eq!(g["online"]["offers"]["takeback"], "black");
    send(
        &mut a,
        json!({"type": "takeback_answer", "accept": true, "ply": 1}),
    )
    .await;
    assert_eq!(
        next_error(&mut a).await["code"],
        "not_allowed",
        "one cannot accept one's own offer"
    );
    send(
        &mut b,
        json!({"type": "takeback_answer", "accept": false, "ply": 1}),
    )
    .await;
    let g = next_game(&mut b).await;
    assert_eq!(g["online"]["offers"]["takeback"], json!(null));
    assert_eq!(plies(&g), 1);
    send(&mut a, json!({"type": "takeback", "ply": 1})).await;
    next_game(&mut b).await;
    send(
        &mut b,
        json!({"type": "takeback_answer", "accept": true, "ply": 1}),
    )
    .await;
    let g = game_at(&mut a, 0).await;
    assert_eq!(g["side_to_move"], "black");
    assert_eq!(g["redo"], json!([]), "no redo in online games");
    assert_eq!(g["online"]["offers"]["takeback"], json!(null));

    let id = srv
        .started(
            &ana,
            &bia,
            json!({"kind": "clock", "minutes": 5, "increment_seconds": 0}),
        )
        .await;
    let mut a = srv.ws(&ana, &id).await;
    next_game(&mut a).await;
    send(&mut a, json!({"type": "move", "square": "d3", "ply": 0})).await;
    game_at(&mut a, 1).await;
    send(&mut a, json!({"type": "takeback", "ply": 1})).await;
    assert_eq!(next_error(&mut a).await["code"], "not_allowed");
    srv.server.shutdown().await;
}

#[tokio::test]
async fn rematch_swaps_colours_and_keeps_the_time_control() {
    let (srv, _) = fresh().await;
    let (ana, bia) = (Browser::new(), Browser::new());
    let tc = json!({"kind": "clock", "minutes": 3, "increment_seconds": 2});
    let id = srv.started(&ana, &bia, tc.clone()).await;
    let (mut a, mut b, _) = sockets(&srv, &ana, &bia, &id).await;
    send(&mut a, json!({"type": "rematch"})).await;
    assert_eq!(
        next_error(&mut a).await["code"],
        "not_allowed",
        "not before the end"
    );
    send(&mut b, json!({"type": "resign", "ply": 0})).await;
    game_where(&mut a, |g| g["status"] == "finished").await;
    send(&mut a, json!({"type": "rematch"})).await;
    let g = game_where(&mut b, |g| !g["online"]["offers"]["rematch"].is_null()).await;
    assert_eq!(g["online"]["offers"]["rematch"], "black");
    send(&mut b, json!({"type": "rematch_answer", "accept": true})).await;
    let g = game_where(&mut a, |g| !g["online"]["rematch_game"].is_null()).await;
    let new_id = g["online"]["rematch_game"]
        .as_str()
        .expect("rematch game")
        .to_string();
    let g = game_where(&mut b, |g| !g["online"]["rematch_game"].is_null()).await;
    assert_eq!(g["online"]["rematch_game"], new_id.as_str());
    let n = srv.game(&ana, &new_id).await;
    assert_eq!(n["online"]["you"], "white");
    assert_eq!(n["online"]["phase"], "playing");
    assert_eq!(n["online"]["time_control"], tc);
    assert_eq!(n["online"]["seats"]["black"]["name"], "Bia");
    assert_eq!(srv.game(&bia, &new_id).await["online"]["you"], "black");
    send(&mut a, json!({"type": "rematch"})).await;
    assert_eq!(
        next_error(&mut a).await["code"],
        "not_allowed",
        "only one rematch"
    );
    srv.server.shutdown().await;
}

#[tokio::test]
async fn chat_is_checked_and_rate_limited() {
    let (srv, time) = fresh().await;
    let (ana, bia, eve) = (Browser::new(), Browser::new(), Browser::new());
    let id = srv.started(&ana, &bia, json!({"kind": "none"})).await;
    let mut a = srv.ws(&ana, &id).await;
    let mut b = srv.ws(&bia, &id).await;
    let mut e = srv.ws(&eve, &id).await;
    next_game(&mut a).await;
    next_game(&mut e).await;
    for i in 0..5 {
        send(
            &mut a,
            json!({"type": "chat", "text": format!("<b>hi</b> {i}")}),
        )
        .await;
        let line = next_of(&mut b, "chat").await["line"].clone();
        assert_eq!(
            line["text"],
            format!("<b>hi</b> {i}"),
            "text as sent, never interpreted"
        );
        assert_eq!(line["from"], "black");
        assert_eq!(line["n"], i + 1);
    }
    send(
        &mut a,
        json!({"type": "chat", "text": "one too many", "id": 9}),
    )
    .await;
    let err = next_error(&mut a).await;
    assert_eq!(
        (err["code"].clone(), err["ref"].clone()),
        (json!("too_many_requests"), json!(9))
    );
    time.advance(10_000);
    send(&mut a, json!({"type": "chat", "text": "x".repeat(201)})).await;
    assert_eq!(next_error(&mut a).await["code"], "bad_message");
    // A control character is refused like the format characters (tests/findings.rs).
    send(&mut a, json!({"type": "chat", "text": "line\nbreak"})).await;
    let err = next_error(&mut a).await;
    assert_eq!(err["code"], "invisible_character", "{err}");
    assert_eq!(err["params"], json!({"field": "chat", "char": "U+000A"}));
    send(&mut a, json!({"type": "chat", "text": "again"})).await;
    assert_eq!(next_of(&mut b, "chat").await["line"]["n"], 6);
    send(&mut e, json!({"type": "chat", "text": "spectator"})).await;
    assert_eq!(next_error(&mut e).await["code"], "not_your_seat");
    let g = srv.game(&bia, &id).await;
    assert_eq!(g["online"]["chat"].as_array().unwrap().len(), 6);
    srv.server.shutdown().await;
}

#[tokio::test]
async fn reconnect_replays_missed_moves_and_presence_follows() {
    let (srv, time) = fresh().await;
    let (ana, bia) = (Browser::new(), Browser::new());
    let id = srv.started(&ana, &bia, json!({"kind": "none"})).await;
    let mut a = srv.ws(&ana, &id).await;
    let b = srv.ws(&bia, &id).await;
    next_game(&mut a).await;
    let p = loop {
        let p = next_of(&mut a, "presence").await;
        if p["seats"]["white"]["presence"] == "online" {
            break p;
        }
    };
    assert_eq!(p["seats"]["black"]["presence"], "online");
    drop(b); // the network goes away
    let p = loop {
        let p = next_of(&mut a, "presence").await;
        if p["seats"]["white"]["presence"] != "online" {
            break p;
        }
    };
    assert_eq!(p["seats"]["white"]["presence"], "reconnecting");
    send(&mut a, json!({"type": "move", "square": "d3", "ply": 0})).await;
    game_at(&mut a, 1).await;
    time.advance(30_000);
    let p = next_of(&mut a, "presence").await;
    assert_eq!(p["seats"]["white"]["presence"], "left");
    // Back on the same browser: the full state, with the move it missed.
    let mut b = srv.ws(&bia, &id).await;
    let g = next_game(&mut b).await;
    assert_eq!(plies(&g), 1);
    assert_eq!(g["plies"][0]["move"], "d3");
    assert_eq!(g["online"]["you"], "white");
    send(&mut b, json!({"type": "hello", "version": g["version"]})).await;
    assert_eq!(plies(&next_game(&mut b).await), 1);
    let p = next_of(&mut a, "presence").await;
    assert_eq!(p["seats"]["white"]["presence"], "online");
    srv.server.shutdown().await;
}

#[tokio::test]
async fn device_links_give_the_same_seat_once() {
    let (srv, _) = fresh().await;
    let (ana, bia, phone) = (Browser::new(), Browser::new(), Browser::new());
    let id = srv.started(&ana, &bia, json!({"kind": "none"})).await;
    let (s, link) = srv
        .post(&ana, &format!("/api/games/{id}/device-link"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{link}");
    let token = link["url"]
        .as_str()
        .unwrap()
        .strip_prefix("/join/")
        .unwrap()
        .to_string();
    assert_eq!(token.len(), 32, "128 bits");
    // Bia holds the other seat: a link to Black is refused for her (and stays unused).
    let (s, e) = srv.post(&bia, "/api/join", json!({"token": token})).await;
    assert_eq!(
        (s, e["error"]["code"].clone()),
        (StatusCode::CONFLICT, json!("seat_taken"))
    );
    let (s, j) = srv.post(&phone, "/api/join", json!({"token": token})).await;
    assert_eq!(s, StatusCode::OK, "{j}");
    assert_eq!(j, json!({"game": id, "color": "black"}));
    let (s, _) = srv
        .post(&Browser::new(), "/api/join", json!({"token": token}))
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND, "one time only");
    let (s, _) = srv
        .post(&phone, "/api/join", json!({"token": "0".repeat(32)}))
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    // The phone plays for Black.
    let mut p = srv.ws(&phone, &id).await;
    assert_eq!(next_game(&mut p).await["online"]["you"], "black");
    send(&mut p, json!({"type": "move", "square": "d3", "ply": 0})).await;
    assert_eq!(game_at(&mut p, 1).await["online"]["you"], "black");
    srv.server.shutdown().await;
}

#[tokio::test]
async fn bad_input_gets_an_error_or_a_closed_socket() {
    let (srv, _) = fresh().await;
    let (ana, bia) = (Browser::new(), Browser::new());
    let id = srv.started(&ana, &bia, json!({"kind": "none"})).await;

    // The Origin check applies to the upgrade.
    let r = reqwest::Client::new()
        .get(format!("{}/api/games/{id}/ws", srv.base))
        .header("Origin", "http://evil.example")
        .header("Connection", "Upgrade")
        .header("Upgrade", "websocket")
        .header("Sec-WebSocket-Version", "13")
        .header("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    // Not an upgrade; unknown game; a local game.
    let (s, _) = srv.get(&ana, &format!("/api/games/{id}/ws")).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let (s, _) = srv.get(&ana, "/api/games/g_000000000000/ws").await;
    assert!(
        s == StatusCode::NOT_FOUND || s == StatusCode::BAD_REQUEST,
        "{s}"
    );

    // Bad messages: an error each, the socket stays open.
    let mut a = srv.ws(&ana, &id).await;
    next_game(&mut a).await;
    for bad in [
        "not json".to_string(),
        "[1]".to_string(),
        json!({"type": "launch"}).to_string(),
        json!({"type": "move", "square": "d3"}).to_string(),
        json!({"type": "move", "square": "d3", "ply": 0, "extra": true}).to_string(),
        json!({"type": "move", "square": "z9", "ply": 0}).to_string(),
        json!({"type": "chat", "text": 5}).to_string(),
    ] {
        a.send(Message::Text(bad.clone().into())).await.unwrap();
        assert_eq!(next_error(&mut a).await["code"], "bad_message", "{bad}");
    }
    send(&mut a, json!({"type": "move", "square": "d3", "ply": 0})).await;
    assert_eq!(
        plies(&game_at(&mut a, 1).await),
        1,
        "still playing after bad messages"
    );
    // More than 20 bad messages: closed (1008).
    for _ in 0..13 {
        a.send(Message::Text("{}".into())).await.unwrap();
        next_error(&mut a).await;
    }
    a.send(Message::Text("{}".into())).await.unwrap();
    assert_eq!(closed(&mut a).await, Some(CloseCode::Policy));

    // A binary frame: closed (1003).
    let mut a = srv.ws(&ana, &id).await;
    next_game(&mut a).await;
    a.send(Message::Binary(vec![1, 2, 3].into())).await.unwrap();
    assert_eq!(closed(&mut a).await, Some(CloseCode::Unsupported));

    // An oversized message: closed.
    let mut a = srv.ws(&ana, &id).await;
    next_game(&mut a).await;
    let big = json!({"type": "chat", "text": "x".repeat(5000)}).to_string();
    let _ = a.send(Message::Text(big.into())).await;
    let code = closed(&mut a).await;
    assert!(code.is_none() || code == Some(CloseCode::Size), "{code:?}");

    // A flood: closed (1008).
    let mut b = srv.ws(&bia, &id).await;
    next_game(&mut b).await;
    for _ in 0..40 {
        if b.send(Message::Text(
            json!({"type": "hello", "version": 0}).to_string().into(),
        ))
        .await
        .is_err()
        {
            break;
        }
    }
    assert_eq!(closed(&mut b).await, Some(CloseCode::Policy));

    // Moves out of turn by the socket's own seat, many times: errors, nothing applied.
    let mut b = srv.ws(&bia, &id).await;
    let g = next_game(&mut b).await;
    assert_eq!(plies(&g), 1);
    play_first(&mut b, &g).await;
    game_at(&mut b, 2).await;
    for _ in 0..5 {
        send(&mut b, json!({"type": "move", "square": "c3", "ply": 2})).await;
        assert_eq!(next_error(&mut b).await["code"], "not_your_turn");
    }
    // The server is fine.
    let (s, _) = srv.get(&ana, "/api/health").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(plies(&srv.game(&ana, &id).await), 2);
    srv.server.shutdown().await;
}
