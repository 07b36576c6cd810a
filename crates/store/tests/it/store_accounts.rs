//! The store's conformance suite for accounts, sessions and game ratings: each check written
//! once against `&dyn Store`, run on a SQLite file and on a PostgreSQL schema (`VIRADA_TEST_PG`,
//! set by `scripts/pg-test.sh`; without it the PostgreSQL half fails under CI and prints SKIPPED
//! elsewhere), as `tests/store.rs` does for games.

use crate::store_common::Backend;
use virada_domain::identity::BrowserId;
use virada_domain::model::online::{End, OnlineGame, Phase, SeatState, TimeControl};
use virada_domain::model::{GameMeta, GameRecord, Mode, Owner, StartKind};
use virada_domain::rating::{Category, PlayerRating};
use virada_engine::glicko::{after_game, Rating};
use virada_rules::{Color, Game};
use virada_store::{NewAccount, PracticeSetRow, SessionRow, Store, StoreError, StoredGame};

on_both_stores!(
    accounts_sessions_and_lockout,
    a_rated_end_moves_both_ratings_once,
    a_deleted_account_is_anonymised,
    a_guests_practice_sets_move_to_the_account,
);

fn id(name: &str) -> BrowserId {
    BrowserId::of_token(name)
}

fn account(name: &str) -> NewAccount {
    NewAccount {
        holder: id(name),
        username: name.into(),
        password_hash: format!("hash of {name}"),
        recovery_hash: format!("code of {name}"),
        created_at: 10,
    }
}

fn session(hash: &str, holder: BrowserId, expires_at: i64) -> SessionRow {
    SessionRow {
        hash: hash.into(),
        holder,
        created_at: 10,
        expires_at,
    }
}

fn record(game_id: &str, mode: Mode, owner: BrowserId) -> GameRecord {
    GameRecord {
        meta: GameMeta {
            id: game_id.into(),
            created_at: 1,
            updated_at: 1,
            mode,
            start_kind: StartKind::Standard,
            opening: None,
            seed: 7,
            owner: Owner::Browser(owner),
            record: None,
        },
        game: Game::new(),
    }
}

/// An online game, `black` and `white` holding the seats, playing.
fn online(game_id: &str, black: BrowserId, white: BrowserId, rated: bool) -> StoredGame {
    let tc = TimeControl::Clock {
        minutes: 3,
        increment_seconds: 2,
    };
    let mut o = OnlineGame::new(tc, Color::Black, black, "B".into());
    *o.seat_mut(Color::White) = SeatState::Taken {
        name: "W".into(),
        holders: vec![white],
    };
    o.phase = Phase::Playing { turn_started_at: 1 };
    o.rated = rated;
    StoredGame {
        rec: record(game_id, Mode::Online, black),
        online: Some(o),
    }
}

/// Plays `moves` in `g` and ends it with `end`, as the actor stores it.
async fn finish(s: &dyn Store, g: &mut StoredGame, moves: &[&str], end: End) {
    for m in moves {
        g.rec.game.play(m.parse().unwrap()).unwrap();
    }
    g.rec.meta.updated_at += 1;
    let o = g.online.as_mut().unwrap();
    o.phase = Phase::Finished(end);
    s.games()
        .save(g.rec.clone(), Some(o.clone()), vec![])
        .await
        .unwrap();
}

async fn blitz(s: &dyn Store, name: &str) -> Option<PlayerRating> {
    let p = s.accounts().player(name).await.unwrap().unwrap();
    p.ratings
        .into_iter()
        .find(|(c, _)| *c == Category::Blitz)
        .map(|(_, r)| r)
}

async fn accounts_sessions_and_lockout(b: &Backend) {
    let s = &*b.store;
    // A guest's local game and online seat go to the new account.
    let guest = id("guest");
    s.games()
        .insert_game(
            StoredGame {
                rec: record("g_local", Mode::Friend, guest),
                online: None,
            },
            None,
        )
        .await
        .unwrap();
    s.games()
        .insert_game(online("g_seat", id("other"), guest, false), None)
        .await
        .unwrap();
    let mut moved = s
        .accounts()
        .create_account(account("Ana"), session("s1", id("Ana"), 1_000), guest)
        .await
        .unwrap();
    moved.sort();
    assert_eq!(moved, ["g_local", "g_seat"]);
    let local = s.games().load_game("g_local").await.unwrap().unwrap();
    assert_eq!(local.rec.meta.owner, Owner::Browser(id("Ana")));
    let seat = s.games().load_game("g_seat").await.unwrap().unwrap();
    assert!(seat.online.unwrap().white.holds(id("Ana")));
    // Names are unique without regard to case.
    let mut again = account("ANA");
    again.holder = id("ANA");
    let e = s
        .accounts()
        .create_account(again, session("s2", id("ANA"), 1_000), id("g2"))
        .await
        .unwrap_err();
    assert_eq!(e, StoreError::UsernameTaken("ANA".into()));
    let a = s.accounts().account_by_name("ana").await.unwrap().unwrap();
    assert_eq!((a.username.as_str(), a.holder), ("Ana", id("Ana")));
    assert_eq!(
        s.accounts().account_by_holder(id("Ana")).await.unwrap(),
        Some(a)
    );
    assert_eq!(s.accounts().account_by_name("ANA").await.unwrap(), None);

    // Sessions: valid until their expiry; ended one by one.
    assert_eq!(
        s.accounts().session("s1", 999).await.unwrap(),
        Some((id("Ana"), "Ana".to_string()))
    );
    assert_eq!(s.accounts().session("s1", 1_000).await.unwrap(), None);
    assert_eq!(s.accounts().session("nope", 0).await.unwrap(), None);
    let none: Vec<String> = s
        .accounts()
        .sign_in(id("Ana"), session("s3", id("Ana"), 5_000), id("nobody"))
        .await
        .unwrap();
    assert!(none.is_empty());
    assert!(s.accounts().delete_session("s3").await.unwrap());
    assert!(!s.accounts().delete_session("s3").await.unwrap());

    // Five failures in a row lock the account and start the count again.
    for n in 1..=4u32 {
        s.accounts()
            .login_failed(id("Ana"), 100, 5, 60_000)
            .await
            .unwrap();
        let a = s
            .accounts()
            .account_by_holder(id("Ana"))
            .await
            .unwrap()
            .unwrap();
        assert_eq!((a.failed_logins, a.locked_until), (n, None));
    }
    s.accounts()
        .login_failed(id("Ana"), 100, 5, 60_000)
        .await
        .unwrap();
    let a = s
        .accounts()
        .account_by_holder(id("Ana"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!((a.failed_logins, a.locked_until), (0, Some(60_100)));
    s.accounts()
        .login_failed(id("Ana"), 200, 5, 60_000)
        .await
        .unwrap();
    s.accounts()
        .sign_in(id("Ana"), session("s4", id("Ana"), 5_000), id("nobody"))
        .await
        .unwrap();
    let a = s
        .accounts()
        .account_by_holder(id("Ana"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!((a.failed_logins, a.locked_until), (0, None));

    // A new password ends every session but the new one; a reset replaces the code.
    s.accounts()
        .set_password(
            id("Ana"),
            "new hash".into(),
            None,
            session("s5", id("Ana"), 5_000),
        )
        .await
        .unwrap();
    assert_eq!(s.accounts().session("s4", 0).await.unwrap(), None);
    assert!(s.accounts().session("s5", 0).await.unwrap().is_some());
    let a = s
        .accounts()
        .account_by_holder(id("Ana"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (a.password_hash.as_str(), a.recovery_hash.as_str()),
        ("new hash", "code of Ana")
    );
    s.accounts()
        .set_password(
            id("Ana"),
            "third".into(),
            Some("new code".into()),
            session("s6", id("Ana"), 5_000),
        )
        .await
        .unwrap();
    let a = s
        .accounts()
        .account_by_holder(id("Ana"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(a.recovery_hash, "new code");
    let p = s.accounts().player("ana").await.unwrap().unwrap();
    assert_eq!((p.username.as_str(), p.created_at), ("Ana", 10));
    assert!(p.ratings.is_empty() && p.history.is_empty());
    assert_eq!(s.accounts().player("nobody").await.unwrap(), None);
}

async fn a_rated_end_moves_both_ratings_once(b: &Backend) {
    let s = &*b.store;
    for name in ["ana", "bia"] {
        s.accounts()
            .create_account(account(name), session(name, id(name), 1), id("x"))
            .await
            .unwrap();
    }
    // Ana (Black) wins on time after a move each.
    let mut g = online("g_1", id("ana"), id("bia"), true);
    s.games().insert_game(g.clone(), None).await.unwrap();
    finish(s, &mut g, &["f5", "d6"], End::Time(Color::White)).await;
    let (want_a, want_b) = after_game(Rating::NEW_PLAYER, Rating::NEW_PLAYER, 1.0);
    let a = blitz(s, "ana").await.unwrap();
    let w = blitz(s, "bia").await.unwrap();
    assert_eq!((a.rating, a.games), (want_a, 1));
    assert_eq!((w.rating, w.games), (want_b, 1));
    // Stored again (a later change of a finished game: a chat line), it is not rated twice.
    s.games()
        .save(g.rec.clone(), g.online.clone(), vec![])
        .await
        .unwrap();
    assert_eq!(blitz(s, "ana").await.unwrap().games, 1);

    // Not rated: aborted; White never moved; casual; a guest's seat.
    let mut aborted = online("g_2", id("ana"), id("bia"), true);
    s.games().insert_game(aborted.clone(), None).await.unwrap();
    finish(s, &mut aborted, &["f5"], End::Abort).await;
    let mut one_sided = online("g_3", id("ana"), id("bia"), true);
    s.games()
        .insert_game(one_sided.clone(), None)
        .await
        .unwrap();
    finish(s, &mut one_sided, &["f5"], End::Time(Color::White)).await;
    let mut casual = online("g_4", id("ana"), id("bia"), false);
    s.games().insert_game(casual.clone(), None).await.unwrap();
    finish(s, &mut casual, &["f5", "d6"], End::Resign(Color::White)).await;
    let mut guest = online("g_5", id("ana"), id("guest"), true);
    s.games().insert_game(guest.clone(), None).await.unwrap();
    finish(s, &mut guest, &["f5", "d6"], End::Resign(Color::White)).await;
    assert_eq!(blitz(s, "ana").await.unwrap().games, 1);

    // Bia (Black this time) wins: each is rated from the ratings the first game left.
    let mut g = online("g_6", id("bia"), id("ana"), true);
    s.games().insert_game(g.clone(), None).await.unwrap();
    // Later than the first: the history lists it first.
    g.rec.meta.updated_at = 50;
    finish(s, &mut g, &["f5", "d6"], End::Resign(Color::White)).await;
    let (want_b2, want_a2) = after_game(want_b, want_a, 1.0);
    assert_eq!(blitz(s, "ana").await.unwrap().rating, want_a2);
    assert_eq!(blitz(s, "bia").await.unwrap().rating, want_b2);
    let p = s.accounts().player("ana").await.unwrap().unwrap();
    let games: Vec<&str> = p.history.iter().map(|h| h.game.as_str()).collect();
    assert_eq!(games, ["g_6", "g_1"]);
    assert_eq!(p.history[0].rating, want_a2.rating);
}

async fn a_deleted_account_is_anonymised(b: &Backend) {
    let s = &*b.store;
    for name in ["ana", "bia"] {
        s.accounts()
            .create_account(account(name), session(name, id(name), 99), id("x"))
            .await
            .unwrap();
    }
    s.games()
        .insert_game(online("g_on", id("ana"), id("bia"), true), None)
        .await
        .unwrap();
    s.games()
        .insert_game(
            StoredGame {
                rec: record("g_local", Mode::Friend, id("ana")),
                online: None,
            },
            None,
        )
        .await
        .unwrap();
    let tomb = id("tomb");
    let mut touched = s
        .accounts()
        .delete_account(id("ana"), tomb)
        .await
        .unwrap()
        .unwrap();
    touched.sort();
    assert_eq!(touched, ["g_local", "g_on"]);
    assert!(s.games().load_game("g_local").await.unwrap().is_none());
    let g = s.games().load_game("g_on").await.unwrap().unwrap();
    assert_eq!(g.rec.meta.owner, Owner::Browser(tomb));
    let o = g.online.unwrap();
    assert_eq!(
        o.black,
        SeatState::Taken {
            name: "anonymous".into(),
            holders: vec![]
        }
    );
    assert!(o.white.holds(id("bia")));
    assert_eq!(s.accounts().player("ana").await.unwrap(), None);
    assert_eq!(s.accounts().session("ana", 0).await.unwrap(), None);
    assert!(s.accounts().session("bia", 0).await.unwrap().is_some());
    assert_eq!(
        s.accounts().delete_account(id("ana"), tomb).await.unwrap(),
        None
    );
}

fn practice_set(set_id: &str, holder: BrowserId, game_id: &str, at: i64) -> PracticeSetRow {
    PracticeSetRow {
        id: set_id.into(),
        holder,
        game_id: game_id.into(),
        color: "black".into(),
        created_at: at,
        items: format!(r#"[{{"ply":{at}}}]"#),
        solved: Vec::new(),
    }
}

/// A guest browser's practice sets are kept under it, and move to the account it signs up or
/// in to (progress included; the account's set of the same game and side replaced; at most
/// `keep`, the oldest dropped); another browser's stay where they are.
async fn a_guests_practice_sets_move_to_the_account(b: &Backend) {
    let s = &*b.store;
    let (guest, other) = (id("practising guest"), id("other guest"));
    s.practice()
        .save_practice_set(practice_set("p_g1", guest, "g_1", 100), 3)
        .await
        .unwrap();
    s.practice()
        .save_practice_set(practice_set("p_g2", guest, "g_2", 200), 3)
        .await
        .unwrap();
    s.practice()
        .save_practice_set(practice_set("p_o1", other, "g_9", 150), 3)
        .await
        .unwrap();
    let solved = s
        .practice()
        .solve_practice(guest, "p_g1", 100)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(solved.solved, [100]);
    let ids = |v: Vec<PracticeSetRow>| v.into_iter().map(|r| r.id).collect::<Vec<_>>();
    assert_eq!(
        ids(s.practice().practice_sets(guest).await.unwrap()),
        ["p_g2", "p_g1"]
    );
    // Sign-up: both sets become the account's, the newest first, progress kept.
    s.accounts()
        .create_account(
            account("Practiser"),
            session("sp", id("Practiser"), 1_000),
            guest,
        )
        .await
        .unwrap();
    let moved = s
        .practice()
        .adopt_practice_sets(guest, id("Practiser"), 3)
        .await
        .unwrap();
    assert_eq!(moved, 2);
    let sets = s.practice().practice_sets(id("Practiser")).await.unwrap();
    assert_eq!(ids(sets.clone()), ["p_g2", "p_g1"]);
    assert_eq!(sets[1].solved, [100]);
    assert_eq!(sets[1].holder, id("Practiser"));
    assert!(s.practice().practice_sets(guest).await.unwrap().is_empty());
    assert_eq!(
        ids(s.practice().practice_sets(other).await.unwrap()),
        ["p_o1"]
    );
    // Twice is nothing more.
    assert_eq!(
        s.practice()
            .adopt_practice_sets(guest, id("Practiser"), 3)
            .await
            .unwrap(),
        0
    );
    // Sign-in from the other browser: its set of g_9 joins; with a set of game g_1 again and
    // a keep of 3, the account's older g_1 set is replaced and the oldest dropped.
    s.practice()
        .save_practice_set(practice_set("p_o2", other, "g_1", 300), 3)
        .await
        .unwrap();
    assert_eq!(
        s.practice()
            .adopt_practice_sets(other, id("Practiser"), 3)
            .await
            .unwrap(),
        2
    );
    assert_eq!(
        ids(s.practice().practice_sets(id("Practiser")).await.unwrap()),
        ["p_o2", "p_o1", "p_g2"]
    );
    assert!(s.practice().practice_sets(other).await.unwrap().is_empty());
    // An account is never adopted as a guest.
    assert_eq!(
        s.practice()
            .adopt_practice_sets(id("Practiser"), id("Practiser"), 3)
            .await
            .unwrap(),
        0
    );
}
