//! Several instances on PostgreSQL (`virada_store::postgres`, `cluster`): a change's notice
//! goes out once the change is stored (it is sent after the commit now, not in it) and never
//! for a change refused. PostgreSQL only (SQLite has no bus); without `VIRADA_TEST_PG` this
//! fails under CI and prints SKIPPED elsewhere.

use crate::store_common::{fresh_schema, record};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc::Receiver;
use virada_domain::model::Mode;
use virada_store::postgres::PgStore;
use virada_store::{BusMessage, Store, StoreError, StoredGame};

/// Only there so a broken listener fails the test instead of hanging it.
const WAIT: Duration = Duration::from_secs(10);

async fn postgres() -> Option<PgStore> {
    let url = virada_testdata::postgres_url()?;
    Some(PgStore::open(&fresh_schema(&url)).await.unwrap())
}

async fn new_game(store: &dyn Store, id: &str) {
    let game = StoredGame {
        rec: record(id, Mode::Friend, &[], 1),
        online: None,
    };
    store.games().insert_game(game, None).await.unwrap();
}

/// The next message of `bus` that `pick` takes, within [`WAIT`].
async fn next<T>(bus: &mut Receiver<BusMessage>, pick: impl Fn(BusMessage) -> Option<T>) -> T {
    tokio::time::timeout(WAIT, async {
        loop {
            match bus.recv().await {
                Some(m) => {
                    if let Some(t) = pick(m) {
                        return t;
                    }
                }
                None => panic!("the listener stopped"),
            }
        }
    })
    .await
    .expect("the awaited bus message within 10 s")
}

fn changed(m: BusMessage) -> Option<(String, u64, String)> {
    match m {
        BusMessage::Changed { game, version, by } => Some((game, version, by)),
        _ => None,
    }
}

fn listening(m: BusMessage) -> Option<()> {
    matches!(m, BusMessage::Listening).then_some(())
}

#[tokio::test]
async fn a_change_is_announced_once_stored_and_a_refused_one_never() {
    let Some(pg) = postgres().await else {
        return;
    };
    let store: Arc<dyn Store> = Arc::new(pg);
    let mut bus = store.cluster().listen("i1", "token1").unwrap();
    next(&mut bus, listening).await;
    new_game(&*store, "g_a").await;
    assert_eq!(store.cluster().lease("g_a", "i2").await.unwrap(), None);

    let one = record("g_a", Mode::Friend, &["f5"], 2);
    store
        .cluster()
        .save_owned("i2", 7, one, None, vec![])
        .await
        .unwrap();
    let (game, version, by) = next(&mut bus, changed).await;
    assert_eq!((game.as_str(), version, by.as_str()), ("g_a", 7, "i2"));
    // Announced once stored: whoever hears it reads the change.
    let stored = store.games().load_game("g_a").await.unwrap().unwrap();
    assert_eq!(stored.rec.game.moves().len(), 1);

    // Another instance's change is refused (i2 holds the lease): not stored, not announced.
    let two = record("g_a", Mode::Friend, &["f5", "d6"], 3);
    let e = store
        .cluster()
        .save_owned("i3", 8, two.clone(), None, vec![])
        .await;
    assert!(matches!(e, Err(StoreError::NotOwner(_))), "{e:?}");
    store
        .cluster()
        .save_owned("i2", 9, two, None, vec![])
        .await
        .unwrap();
    let (_, version, by) = next(&mut bus, changed).await;
    assert_eq!(
        (version, by.as_str()),
        (9, "i2"),
        "the refused change was announced"
    );
    let stored = store.games().load_game("g_a").await.unwrap().unwrap();
    assert_eq!(stored.rec.game.moves().len(), 2);
}
