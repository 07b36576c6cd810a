//! Several instances on one PostgreSQL database, in one process (the real binaries, killed with
//! SIGKILL, are crates/cli/tests/it/multi_instance.rs): a survivor flags the deadlines another
//! instance stored, and a request to a game another instance runs goes to it at once.
//!
//! These run on PostgreSQL whichever store the other tests use (without `VIRADA_TEST_PG`: fail
//! under CI, else a logged skip).

use crate::kit::online::*;
use reqwest::StatusCode;
use serde_json::json;
use std::path::Path;
use std::time::Duration;
use virada_server::config::PgTarget;
use virada_server::runtime::time::ManualTime;
use virada_store::postgres::PgStore;

/// Only there so a broken server fails instead of hanging: nothing here waits this long.
const GUARD: Duration = Duration::from_secs(20);

fn on_postgres(db: &Path) -> impl FnOnce(&mut virada_server::ServerConfig) + '_ {
    move |c| c.postgres = Some(PgTarget::for_test_path(db))
}

/// Game `id`'s stored phase, end and clocks, read from the database (not through a server,
/// which would load the game and check its clock itself).
async fn stored(store: &PgStore, id: &str) -> Vec<Option<String>> {
    let rows = store
        .query_rows(&format!(
            "SELECT phase, end_reason, end_loser, black_ms, white_ms FROM online_games
             WHERE game_id = '{id}'"
        ))
        .await
        .unwrap();
    rows.into_iter().next().expect("the game is stored")
}

/// The owner of a running clock stops; nobody is connected to the game anywhere. The other
/// instance, which never had the game in memory nor was told its deadline, flags it when it
/// comes (it reads the stored deadlines again every 500 ms).
#[tokio::test]
async fn a_survivor_flags_a_deadline_another_instance_stored() {
    if virada_testdata::postgres_url().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let time = ManualTime::new(T0);
    let one = start_with(&db, time.clone(), on_postgres(&db)).await;
    let two = start_with(&db, time.clone(), on_postgres(&db)).await;
    let (ana, bia) = (Browser::new(), Browser::new());
    let tc = json!({"kind": "clock", "minutes": 1, "increment_seconds": 0});
    let id = one.started(&ana, &bia, tc).await;
    // Both first moves at once (each clock starts with its side's first move), then Black's
    // c3 after 5 s, through instance one: White's minute runs from T0 + 5 s.
    let mut a = one.ws(&ana, &id).await;
    let mut b = one.ws(&bia, &id).await;
    next_game(&mut a).await;
    next_game(&mut b).await;
    send(&mut a, json!({"type": "move", "square": "f5", "ply": 0})).await;
    game_at(&mut b, 1).await;
    send(&mut b, json!({"type": "move", "square": "d6", "ply": 1})).await;
    game_at(&mut a, 2).await;
    time.advance(5_000);
    send(&mut a, json!({"type": "move", "square": "c3", "ply": 2})).await;
    let g = game_at(&mut a, 3).await;
    assert_eq!(g["online"]["clocks"]["deadline_ms"], T0 + 65_000, "{g}");
    drop((a, b));
    one.server.shutdown().await;

    time.advance(60_000);
    let store = PgStore::open(&PgTarget::for_test_path(&db)).await.unwrap();
    let until = tokio::time::Instant::now() + GUARD;
    let row = loop {
        let row = stored(&store, &id).await;
        if row[0].as_deref() == Some("finished") {
            break row;
        }
        assert!(
            tokio::time::Instant::now() < until,
            "the survivor never flagged the game: {row:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let want = ["finished", "time", "white", "55000", "0"].map(|v| Some(v.to_string()));
    assert_eq!(row, want);
    // Instance two holds the game now, and shows it so.
    let g = two.game(&bia, &id).await;
    assert_eq!(
        g["online"]["end"],
        json!({"reason": "time", "loser": "white"})
    );
    two.server.shutdown().await;
}

/// A request to a game another instance runs goes to that instance as soon as it is made: the
/// first one too (it waited a fixed second before, looking up the owner). With the answer's
/// wait set to a minute, the guard of 20 s fails any request that waits for it.
#[tokio::test]
async fn the_first_request_to_another_instances_game_waits_for_its_answer_only() {
    if virada_testdata::postgres_url().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let time = ManualTime::new(T0);
    let one = start_with(&db, time.clone(), on_postgres(&db)).await;
    let two = start_with(&db, time.clone(), |c| {
        c.postgres = Some(PgTarget::for_test_path(&db));
        c.forward_wait = Duration::from_secs(60);
    })
    .await;
    let (ana, bia) = (Browser::new(), Browser::new());
    let tc = json!({"kind": "clock", "minutes": 5, "increment_seconds": 0});
    let g = one.create(&ana, tc, "black").await;
    let id = g["id"].as_str().unwrap().to_string();
    // Bia's seat, through instance two: instance one runs the game and seats her.
    let (s, g) = tokio::time::timeout(GUARD, two.seat(&bia, &id, "Bia"))
        .await
        .expect("the seat is answered without waiting out the minute");
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["online"]["you"], "white", "{g}");
    // Moves through either instance reach the owner the same way.
    let mut a = one.ws(&ana, &id).await;
    let mut b = two.ws(&bia, &id).await;
    next_game(&mut a).await;
    next_game(&mut b).await;
    send(&mut a, json!({"type": "move", "square": "f5", "ply": 0})).await;
    game_at(&mut b, 1).await;
    send(&mut b, json!({"type": "move", "square": "d6", "ply": 1})).await;
    let g = game_at(&mut a, 2).await;
    assert_eq!(g["plies"][1]["move"], "d6", "{g}");
    drop((a, b));
    one.server.shutdown().await;
    two.server.shutdown().await;
}
