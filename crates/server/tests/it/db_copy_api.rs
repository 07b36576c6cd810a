//! `virada db copy` on games made through the real server (HTTP and WebSockets): a server's
//! database is copied to a SQLite file and from it into a new database, a server started on
//! the copy shows every game as it was, and the games go on. On the usual run every database
//! is a SQLite file; with `VIRADA_TEST_STORE=postgres` the servers' databases are PostgreSQL
//! schemas, so the copy goes PostgreSQL -> file -> PostgreSQL.

use crate::kit::games::{a_move_each, sockets};
use crate::kit::online::*;
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::path::Path;
use virada_server::config::{test_store_is_postgres, PgTarget};
use virada_server::runtime::time::ManualTime;
use virada_store::admin::{self, Db};

/// The database a test server on `path` keeps its games in (`ServerConfig::for_tests`).
fn store_of(path: &Path) -> Db {
    if test_store_is_postgres() {
        Db::Postgres(PgTarget::for_test_path(path))
    } else {
        Db::Sqlite(path.to_path_buf())
    }
}

#[tokio::test]
async fn games_played_through_the_server_survive_a_copy_and_go_on() {
    let dir = tempfile::tempdir().unwrap();
    let (a, c, b) = (
        dir.path().join("a.sqlite"),
        dir.path().join("c.sqlite"),
        dir.path().join("b.sqlite"),
    );
    let time = ManualTime::new(T0);
    let srv = start(&a, time.clone()).await;
    let (ana, bia) = (Browser::new(), Browser::new());

    // An online game with a clock, two moves and chat.
    let clock = json!({"kind": "clock", "minutes": 5, "increment_seconds": 3});
    let playing = srv.started(&ana, &bia, clock).await;
    let (mut wa, mut wb, _) = sockets(&srv, &ana, &bia, &playing).await;
    send(&mut wa, json!({"type": "move", "square": "d3", "ply": 0})).await;
    let g = game_at(&mut wb, 1).await;
    time.advance(2_500);
    let reply = first_legal(&g);
    send(&mut wb, json!({"type": "move", "square": reply, "ply": 1})).await;
    game_at(&mut wa, 2).await;
    send(&mut wa, json!({"type": "chat", "text": "boa sorte, Bia"})).await;
    assert_eq!(
        next_of(&mut wb, "chat").await["line"]["text"],
        "boa sorte, Bia"
    );
    // An online game resigned, one waiting for its second player.
    let resigned = srv.started(&ana, &bia, json!({"kind": "none"})).await;
    let (mut ra, mut rb, _) = a_move_each(&srv, &ana, &bia, &resigned).await;
    send(&mut ra, json!({"type": "resign", "ply": 2})).await;
    game_where(&mut rb, |g| g["status"] == "finished").await;
    let waiting = srv
        .create(&ana, json!({"kind": "correspondence", "days": 3}), "white")
        .await;
    let waiting = waiting["id"].as_str().unwrap().to_string();
    // A friend game with moves, and a computer game.
    let (s, friend) = srv
        .post(&ana, "/api/games", json!({"mode": "friend"}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{friend}");
    let friend = friend["id"].as_str().unwrap().to_string();
    for (ply, sq) in ["f5", "d6", "c3"].into_iter().enumerate() {
        let path = format!("/api/games/{friend}/moves");
        let (s, g) = srv
            .post(&ana, &path, json!({"square": sq, "ply": ply}))
            .await;
        assert_eq!(s, StatusCode::OK, "{g}");
    }
    let body = json!({"mode": "computer", "level": 1, "human_color": "black"});
    let (s, computer) = srv.post(&bia, "/api/games", body).await;
    assert_eq!(s, StatusCode::CREATED, "{computer}");
    let computer = computer["id"].as_str().unwrap().to_string();

    let games = [
        (&ana, &playing),
        (&bia, &playing),
        (&bia, &resigned),
        (&ana, &waiting),
        (&ana, &friend),
        (&bia, &computer),
    ];
    let mut before = Vec::new();
    for (who, id) in games {
        before.push(srv.game(who, id).await);
    }
    drop((wa, wb, ra, rb));
    srv.server.shutdown().await;

    // Through a file into a new database (PostgreSQL -> file -> PostgreSQL on that run).
    let out = admin::copy(&store_of(&a), &Db::Sqlite(c.clone()), false)
        .await
        .unwrap();
    let rows = |t: &str| out.tables.iter().find(|(n, _)| n == t).unwrap().1;
    assert_eq!(rows("games"), 5, "{out:?}");
    assert_eq!(rows("online_chat"), 1, "{out:?}");
    admin::copy(&Db::Sqlite(c), &store_of(&b), false)
        .await
        .unwrap();

    let srv = start(&b, time.clone()).await;
    for ((who, id), was) in games.iter().zip(&before) {
        let now = srv.game(who, id).await;
        assert_eq!(stored_part(&now), stored_part(was), "{id}");
    }
    // The game goes on where it was, with its clock.
    let mut wa = srv.ws(&ana, &playing).await;
    let g = next_game(&mut wa).await;
    assert_eq!(plies(&g), 2);
    let mv = first_legal(&g);
    send(&mut wa, json!({"type": "move", "square": mv, "ply": 2})).await;
    let g = game_at(&mut wa, 3).await;
    assert_eq!(g["plies"][2]["move"], mv);
    srv.server.shutdown().await;
}

/// A game object without what is not stored: its `version` (a count of the changes its actor
/// has sent, which starts again when a server loads the game) and who is connected now.
fn stored_part(g: &Value) -> Value {
    let mut g = g.clone();
    if let Some(o) = g.as_object_mut() {
        o.remove("version");
    }
    if let Some(seats) = g["online"]["seats"].as_object_mut() {
        for seat in seats.values_mut() {
            if let Some(seat) = seat.as_object_mut() {
                seat.remove("presence");
                seat.remove("since");
            }
        }
    }
    g
}
