//! Profiles, the game archive, "my games" and the GGF download on a real server (port 0; the
//! SQLite file, or PostgreSQL with `VIRADA_TEST_STORE=postgres scripts/pg-test.sh`): accounts
//! play online games over the live channel, then the profiles, filters, orderings and the
//! download are checked against what was played.

use crate::kit::accounts::{call, code, sign_up};
use crate::kit::games::sockets;
use crate::kit::online::*;
use crate::kit::rated::ana_and_bia;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use virada_rules::formats::ggf::read_ggf;

fn blitz() -> Value {
    json!({"kind": "clock", "minutes": 3, "increment_seconds": 2})
}

fn days(n: u32) -> Value {
    json!({"kind": "correspondence", "days": n})
}

/// A game of `black` and `white`, both seats taken (playing); its id.
async fn game(
    srv: &TestServer,
    black: &Browser,
    white: &Browser,
    tc: Value,
    rated: bool,
) -> String {
    let (s, g) = srv
        .post(
            black,
            "/api/games",
            json!({"mode": "online", "time_control": tc, "color": "black", "rated": rated}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let (s, g) = srv.seat(white, &id, "ignored").await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["online"]["phase"], "playing", "{g}");
    id
}

/// Plays `moves` (no passes: Black first, in turn) and then `then` (a resignation or an abort
/// by `by`, `None`: nothing) over the live channel; time moves on a second afterwards, so the
/// games change one after another.
async fn play(
    srv: &TestServer,
    id: &str,
    black: &Browser,
    white: &Browser,
    moves: &[&str],
    then: Option<(&str, &str)>,
) {
    let (mut wb, mut ww, _) = sockets(&srv, &black, &white, &id).await;
    for (i, square) in moves.iter().enumerate() {
        let (mover, other) = if i % 2 == 0 {
            (&mut wb, &mut ww)
        } else {
            (&mut ww, &mut wb)
        };
        send(mover, json!({"type": "move", "square": square, "ply": i})).await;
        game_at(other, i + 1).await;
        game_at(mover, i + 1).await;
    }
    if let Some((kind, by)) = then {
        let ws = if by == "black" { &mut wb } else { &mut ww };
        send(ws, json!({"type": kind, "ply": moves.len()})).await;
        game_where(ws, |g| g["status"] == "finished").await;
    }
    srv.time.advance(1000);
    // Changes are stamped in milliseconds of the system clock: the next one comes later.
    tokio::time::sleep(std::time::Duration::from_millis(3)).await;
}

fn ids(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap_or_else(|| panic!("a list: {list}"))
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect()
}

/// The ids of `name`'s archive page at `query`, and its `next` cursor.
async fn archive(srv: &TestServer, name: &str, query: &str) -> (Vec<String>, Option<String>) {
    let (s, v) = srv
        .get(
            &Browser::new(),
            &format!("/api/players/{name}/games?{query}"),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{query}: {v}");
    (ids(&v["games"]), v["next"].as_str().map(str::to_string))
}

async fn archive_error(srv: &TestServer, query: &str) -> (StatusCode, String) {
    let (s, v) = srv
        .get(&Browser::new(), &format!("/api/players/ana/games?{query}"))
        .await;
    (s, code(&v).to_string())
}

#[tokio::test]
async fn profiles_show_ratings_record_and_games_and_the_archive_filters() {
    let (srv, _) = fresh().await;
    let (ana, bia) = ana_and_bia(&srv).await;
    let (cai, _) = sign_up(&srv, &Browser::new(), "Cai", "staple horse").await;

    // g1: rated, the Perpendicular, Bia resigns. g2: rated, the Diagonal, Ana resigns.
    let g1 = game(&srv, &ana, &bia, blitz(), true).await;
    play(
        &srv,
        g1.as_str(),
        &ana,
        &bia,
        &["f5", "d6"],
        Some(("resign", "white")),
    )
    .await;
    let g2 = game(&srv, &ana, &bia, blitz(), true).await;
    play(
        &srv,
        g2.as_str(),
        &ana,
        &bia,
        &["f5", "f6"],
        Some(("resign", "black")),
    )
    .await;
    // g3: casual, the Parallel, Cai resigns. g4: casual, aborted.
    let g3 = game(&srv, &ana, &cai, blitz(), false).await;
    play(
        &srv,
        g3.as_str(),
        &ana,
        &cai,
        &["f5", "f4"],
        Some(("resign", "white")),
    )
    .await;
    let g4 = game(&srv, &ana, &cai, blitz(), false).await;
    play(&srv, g4.as_str(), &ana, &cai, &[], Some(("abort", "black"))).await;
    // g5: correspondence, Bia (Black) has moved: Ana's move.
    let g5 = game(&srv, &bia, &ana, days(3), false).await;
    play(&srv, g5.as_str(), &bia, &ana, &["f5"], None).await;
    // g6: Ana's game waiting for an opponent: not public.
    let (s, g6) = srv
        .post(
            &ana,
            "/api/games",
            json!({"mode": "online", "time_control": days(2), "color": "black"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{g6}");

    // Ana's profile, as anybody sees it.
    let (s, p) = srv.get(&Browser::new(), "/api/players/ANA").await;
    assert_eq!(s, StatusCode::OK, "{p}");
    assert_eq!(p["username"], "ana");
    assert_eq!(p["ratings"]["blitz"]["games"], 2, "{p}");
    assert_eq!(p["ratings"]["blitz"]["provisional"], true);
    assert_eq!(p["ratings"].as_object().unwrap().len(), 1);
    assert_eq!(p["history"].as_array().unwrap().len(), 2);
    assert_eq!(
        (
            &p["record"]["wins"],
            &p["record"]["draws"],
            &p["record"]["losses"]
        ),
        (&json!(2), &json!(0), &json!(1)),
        "{p}"
    );
    assert_eq!(
        p["record"]["rated"],
        json!({"wins": 1, "draws": 0, "losses": 1})
    );
    assert_eq!(p["record"]["aborted"], 1);
    assert_eq!(ids(&p["playing_now"]), [g5.as_str()]);
    let now = &p["playing_now"][0];
    assert_eq!(now["color"], "white");
    assert_eq!(now["to_move"], "white");
    assert_eq!(now["your_move"], true);
    assert_eq!(now["rated"], false);
    assert_eq!(now["category"], "correspondence");
    assert_eq!(now["opponent"], json!({"name": "bia", "account": "bia"}));
    assert!(now["deadline"].is_string(), "{now}");
    assert_eq!(
        ids(&p["recent"]),
        [g4.as_str(), g3.as_str(), g2.as_str(), g1.as_str()]
    );
    let r = &p["recent"];
    assert_eq!(
        [
            &r[0]["result"],
            &r[1]["result"],
            &r[2]["result"],
            &r[3]["result"]
        ],
        [
            &json!("aborted"),
            &json!("win"),
            &json!("loss"),
            &json!("win")
        ]
    );
    assert_eq!(r[3]["opening_name"]["id"], "perpendicular", "{}", r[3]);
    assert_eq!(r[3]["rated"], true);
    assert_eq!(r[3]["end_reason"], "resign");
    assert_eq!(r[1]["opponent"]["account"], "Cai");
    // Bia's side of the same games.
    let (_, b) = srv.get(&Browser::new(), "/api/players/bia").await;
    assert_eq!(
        b["record"],
        json!({"wins": 1, "draws": 0, "losses": 1, "aborted": 0,
        "rated": {"wins": 1, "draws": 0, "losses": 1}})
    );
    assert_eq!(b["playing_now"][0]["your_move"], false);
    assert_eq!(ids(&b["recent"]), [g2.as_str(), g1.as_str()]);

    // Unknown names: 404 from the API; the page's address serves the app (it says so itself).
    for path in ["/api/players/nobody", "/api/players/nobody/games"] {
        let (s, v) = srv.get(&Browser::new(), path).await;
        assert_eq!(
            (s, code(&v)),
            (StatusCode::NOT_FOUND, "not_found"),
            "{path}: {v}"
        );
    }
    let (s, html) = srv.get_text(&Browser::new(), "/@/nobody").await;
    assert_eq!(s, StatusCode::OK);
    assert!(html.to_lowercase().contains("<!doctype html>"), "{html}");

    // The archive: playing and finished games, the newest first; each filter exactly.
    let all = vec![g5.clone(), g4.clone(), g3.clone(), g2.clone(), g1.clone()];
    assert_eq!(archive(&srv, "ana", "").await, (all.clone(), None));
    assert_eq!(
        archive(&srv, "ana", "opponent=BIA").await.0,
        [g5.as_str(), g2.as_str(), g1.as_str()]
    );
    assert_eq!(
        archive(&srv, "ana", "opponent=cai").await.0,
        [g4.as_str(), g3.as_str()]
    );
    assert_eq!(
        archive(&srv, "ana", "opponent=dan").await.0,
        Vec::<String>::new()
    );
    assert_eq!(
        archive(&srv, "ana", "result=win").await.0,
        [g3.as_str(), g1.as_str()]
    );
    assert_eq!(archive(&srv, "ana", "result=loss").await.0, [g2.as_str()]);
    assert_eq!(
        archive(&srv, "ana", "result=draw").await.0,
        Vec::<String>::new()
    );
    assert_eq!(
        archive(&srv, "ana", "result=aborted").await.0,
        [g4.as_str()]
    );
    assert_eq!(
        archive(&srv, "ana", "opening=perpendicular").await.0,
        [g1.as_str()]
    );
    assert_eq!(
        archive(&srv, "ana", "opening=Diagonal").await.0,
        [g2.as_str()]
    );
    assert_eq!(
        archive(&srv, "ana", "opening=paralela").await.0,
        [g3.as_str()]
    );
    assert_eq!(
        archive(&srv, "ana", "opponent=cai&result=win").await.0,
        [g3.as_str()]
    );
    assert_eq!(archive(&srv, "bia", "result=win").await.0, [g2.as_str()]);
    // Pages: two at a time, then the last one.
    let (page, next) = archive(&srv, "ana", "limit=2").await;
    assert_eq!(page, all[..2]);
    let (page, next) = archive(&srv, "ana", &format!("limit=2&cursor={}", next.unwrap())).await;
    assert_eq!(page, all[2..4]);
    let (page, next) = archive(&srv, "ana", &format!("limit=2&cursor={}", next.unwrap())).await;
    assert_eq!((page, next), (all[4..].to_vec(), None));
    let (page, next) = archive(&srv, "ana", "limit=1&result=win").await;
    assert_eq!(page, [g3.as_str()]);
    let (page, next) = archive(
        &srv,
        "ana",
        &format!("limit=1&result=win&cursor={}", next.unwrap()),
    )
    .await;
    assert_eq!((page, next), (vec![g1.clone()], None));
    // Bad filters: a clear error each.
    for (query, want) in [
        ("result=won", "invalid_result"),
        ("opening=nothing-like-it", "unknown_opening"),
        ("cursor=12", "invalid_cursor"),
        ("cursor=x.g_1", "invalid_cursor"),
        ("limit=0", "invalid_limit"),
        ("limit=51", "invalid_limit"),
        (&format!("opponent={}", "a".repeat(65)), "filter_too_long"),
    ] {
        assert_eq!(
            archive_error(&srv, query).await,
            (StatusCode::BAD_REQUEST, want.to_string()),
            "{query}"
        );
    }
    let (s, _) = archive_error(&srv, "colour=black").await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn my_games_put_your_move_first_and_download_as_ggf_and_deletion_anonymises() {
    let (srv, _) = fresh().await;
    let (ana, bia) = ana_and_bia(&srv).await;
    let (cai, _) = sign_up(&srv, &Browser::new(), "cai", "staple horse").await;

    // f1: finished (Bia resigns). w1: Ana's, waiting for an opponent.
    let f1 = game(&srv, &ana, &bia, blitz(), false).await;
    play(
        &srv,
        f1.as_str(),
        &ana,
        &bia,
        &["f5", "d6", "c3"],
        Some(("resign", "white")),
    )
    .await;
    // m1: Ana (Black) to move since it began. t1: Ana moved, Cai's move.
    let m1 = game(&srv, &ana, &bia, days(3), false).await;
    play(&srv, m1.as_str(), &ana, &bia, &[], None).await;
    let t1 = game(&srv, &ana, &cai, days(3), true).await;
    play(&srv, t1.as_str(), &ana, &cai, &["f5"], None).await;
    let (s, w1) = srv
        .post(
            &ana,
            "/api/games",
            json!({"mode": "online", "time_control": days(2), "color": "black"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{w1}");
    let w1 = w1["id"].as_str().unwrap().to_string();
    srv.time.advance(1000);
    // m2: Bia (Black) moved, now Ana's move (its deadline is later than m1's).
    let m2 = game(&srv, &bia, &ana, days(3), false).await;
    play(&srv, m2.as_str(), &bia, &ana, &["f5"], None).await;

    // "Your move" first (the nearest deadline first), then the other running games (the
    // newest change first), then the finished ones.
    let (s, mine) = srv.get(&ana, "/api/account/games").await;
    assert_eq!(s, StatusCode::OK, "{mine}");
    assert_eq!(
        ids(&mine["games"]),
        [
            m1.as_str(),
            m2.as_str(),
            w1.as_str(),
            t1.as_str(),
            f1.as_str()
        ]
    );
    let g = &mine["games"];
    assert_eq!(
        [
            &g[0]["your_move"],
            &g[1]["your_move"],
            &g[2]["your_move"],
            &g[3]["your_move"]
        ],
        [&json!(true), &json!(true), &json!(false), &json!(false)]
    );
    assert!(g[0]["deadline"].as_str().unwrap() < g[1]["deadline"].as_str().unwrap());
    assert_eq!(g[2]["phase"], "waiting");
    assert_eq!(g[3]["rated"], true);
    assert_eq!(g[3]["to_move"], "white");
    assert_eq!(g[4]["result"], "win");
    // Bia's list: m2 and f1 from her side; Cai's move first for Cai.
    let (_, theirs) = srv.get(&bia, "/api/account/games").await;
    assert_eq!(
        ids(&theirs["games"]),
        [m2.as_str(), m1.as_str(), f1.as_str()]
    );
    assert_eq!(theirs["games"][0]["your_move"], false);
    let (_, cais) = srv.get(&cai, "/api/account/games").await;
    assert_eq!(ids(&cais["games"]), [t1.as_str()]);
    assert_eq!(cais["games"][0]["your_move"], true);
    // A guest has no "my games" and no download.
    for path in ["/api/account/games", "/api/account/games.ggf"] {
        let (s, v) = srv.get(&Browser::new(), path).await;
        assert_eq!(
            (s, code(&v)),
            (StatusCode::UNAUTHORIZED, "sign_in_required"),
            "{v}"
        );
    }

    // The download: every game of Ana's, read back by the rules crate into the same games.
    let (s, text) = srv.get_text(&ana, "/api/account/games.ggf").await;
    assert_eq!(s, StatusCode::OK, "{text}");
    let read = read_ggf(&text).expect("the download reads back as GGF");
    let mut got: Vec<(String, String, String)> = read
        .iter()
        .map(|g| {
            (
                g.tag("PB").unwrap_or("").to_string(),
                g.tag("PW").unwrap_or("").to_string(),
                g.replay().expect("it replays").to_string(),
            )
        })
        .collect();
    let mut want = Vec::new();
    for id in [
        f1.as_str(),
        m1.as_str(),
        t1.as_str(),
        w1.as_str(),
        m2.as_str(),
    ] {
        let v = srv.game(&ana, id).await;
        let seat = |c: &str| {
            v["online"]["seats"][c]["name"]
                .as_str()
                .unwrap_or(if c == "black" { "Black" } else { "White" })
                .to_string()
        };
        want.push((
            seat("black"),
            seat("white"),
            v["transcript"].as_str().unwrap().to_string(),
        ));
    }
    got.sort();
    want.sort();
    assert_eq!(got, want, "{text}");
    // The finished game says how it ended (Bia resigned: `:r`, Black ahead).
    assert!(text.contains("RE[+") && text.contains(":r]"), "{text}");

    // Cai deletes the account: Ana's profile shows that game anonymised, Cai's is gone.
    let (s, v, _) = call(
        &srv,
        &cai,
        Method::DELETE,
        "/api/account",
        Some(json!({"password": "staple horse"})),
    )
    .await;
    assert_eq!(s, StatusCode::NO_CONTENT, "{v}");
    let (s, _) = srv.get(&Browser::new(), "/api/players/cai").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (_, p) = srv.get(&Browser::new(), "/api/players/ana").await;
    let line = p["playing_now"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == t1.as_str())
        .unwrap_or_else(|| panic!("{p}"))
        .clone();
    assert_eq!(
        line["opponent"],
        json!({"name": "anonymous", "account": null})
    );
    assert_eq!(line["white"]["name"], "anonymous");
    assert_eq!(
        archive(&srv, "ana", "opponent=cai").await.0,
        Vec::<String>::new()
    );
    assert_eq!(
        archive(&srv, "ana", "opponent=anonymous").await.0,
        [t1.as_str()]
    );
}

#[tokio::test]
async fn a_guests_puzzle_rating_follows_it_into_its_new_account() {
    let (srv, _) = fresh().await;
    let guest = Browser::new();
    let p = &virada_engine::puzzles::shipped()[0];
    // A hint is a rated result (failed).
    let (s, h) = srv
        .post(
            &guest,
            &format!("/api/puzzles/{}/hint", p.id),
            json!({"moves": []}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{h}");
    assert_eq!(h["rated"], true);
    let (_, before) = srv.get(&guest, "/api/puzzles/me").await;
    assert_eq!(before["solver"]["attempts"], 1, "{before}");
    let (ana, _) = sign_up(&srv, &guest, "ana", "correct horse").await;
    let (_, after) = srv.get(&ana, "/api/puzzles/me").await;
    assert_eq!(after["solver"], before["solver"], "{after}");
    let (_, v) = srv.get(&ana, &format!("/api/puzzles/{}", p.id)).await;
    assert_eq!(v["result"], "failed", "{v}");
}

#[tokio::test]
async fn a_move_in_another_game_is_told_on_the_open_live_channel() {
    let (srv, _) = fresh().await;
    let (ana, bia) = ana_and_bia(&srv).await;
    let a = game(&srv, &ana, &bia, days(3), false).await;
    let b = game(&srv, &bia, &ana, days(3), false).await;
    // Ana watches game `a`; Bia moves in game `b`: Ana hears "your move" on a's socket.
    let mut wa = srv.ws(&ana, &a).await;
    next_game(&mut wa).await;
    let mut wb = srv.ws(&bia, &b).await;
    next_game(&mut wb).await;
    send(&mut wb, json!({"type": "move", "square": "f5", "ply": 0})).await;
    let n = next_of(&mut wa, "your_move").await;
    assert_eq!(
        n,
        json!({"type": "your_move", "game": b, "opponent": "bia", "ply": 1})
    );
    // Bia, to move in `a` only after Ana moves there, hears nothing of her own move; then Ana
    // moves in `a` and Bia hears of it on b's socket.
    send(&mut wa, json!({"type": "move", "square": "f5", "ply": 0})).await;
    let n = next_of(&mut wb, "your_move").await;
    assert_eq!(n["game"], a.as_str());
    assert_eq!(n["opponent"], "ana");
}

/// The rating change of each rated game in the lists: before (the previous rating in the
/// category, a new player's for a first game) and after, for the list's own account; none for
/// a casual game.
#[tokio::test]
async fn game_lists_show_each_rated_games_rating_change() {
    let (srv, _) = fresh().await;
    let (ana, bia) = ana_and_bia(&srv).await;
    let (cai, _) = sign_up(&srv, &Browser::new(), "cai", "staple horse").await;
    // r1: Bia (White) resigns to Ana; r2: Ana (Black) resigns to Cai; c1: casual.
    let r1 = game(&srv, &ana, &bia, blitz(), true).await;
    play(
        &srv,
        &r1,
        &ana,
        &bia,
        &["f5", "d6", "c3"],
        Some(("resign", "white")),
    )
    .await;
    let r2 = game(&srv, &ana, &cai, blitz(), true).await;
    play(
        &srv,
        &r2,
        &ana,
        &cai,
        &["f5", "d6", "c3"],
        Some(("resign", "black")),
    )
    .await;
    let c1 = game(&srv, &ana, &bia, blitz(), false).await;
    play(
        &srv,
        &c1,
        &ana,
        &bia,
        &["f5", "d6", "c3"],
        Some(("resign", "white")),
    )
    .await;

    let (s, mine) = srv.get(&ana, "/api/account/games").await;
    assert_eq!(s, StatusCode::OK, "{mine}");
    assert_eq!(ids(&mine["games"]), [c1.as_str(), r2.as_str(), r1.as_str()]);
    let line = |list: &Value, id: &str| -> Value {
        list["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id)
            .unwrap_or_else(|| panic!("{id} in {list}"))["rating"]
            .clone()
    };
    let first = line(&mine, &r1);
    let second = line(&mine, &r2);
    assert_eq!(
        line(&mine, &c1),
        Value::Null,
        "a casual game moves no rating"
    );
    let num = |v: &Value| v.as_f64().unwrap_or_else(|| panic!("a number: {v}"));
    // A first rated game starts from the new player's 1500; a win raises it.
    assert_eq!(num(&first["before"]), 1500.0, "{first}");
    assert!(num(&first["change"]) > 0.0, "{first}");
    // The next game starts where the first ended; a loss lowers it.
    assert_eq!(num(&second["before"]), num(&first["after"]), "{second}");
    assert!(num(&second["change"]) < 0.0, "{second}");
    for r in [&first, &second] {
        assert!(
            (num(&r["after"]) - num(&r["before"]) - num(&r["change"])).abs() < 1e-9,
            "{r}"
        );
    }
    // The profile's stored rating is the last game's "after"; each opponent sees their own change.
    let (_, profile) = srv.get(&Browser::new(), "/api/players/ana").await;
    let blitz_now = profile["ratings"]["blitz"]["rating"].as_f64();
    assert_eq!(blitz_now, Some(num(&second["after"])), "{profile}");
    let (_, bias) = srv.get(&bia, "/api/account/games").await;
    let bia_r1 = line(&bias, &r1);
    assert_eq!(num(&bia_r1["before"]), 1500.0, "{bia_r1}");
    assert!(num(&bia_r1["change"]) < 0.0, "{bia_r1}");
    let (_, cais) = srv.get(&cai, "/api/account/games").await;
    assert!(num(&line(&cais, &r2)["change"]) > 0.0);
}
