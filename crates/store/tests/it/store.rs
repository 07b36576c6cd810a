//! The store's conformance suite: every check is written once against `&dyn Store` and runs on
//! both stores, a SQLite file and a PostgreSQL schema (`VIRADA_TEST_PG`, which
//! `scripts/pg-test.sh` sets; without it the PostgreSQL half fails under CI and prints SKIPPED
//! elsewhere). `<check>::sqlite` and `<check>::postgres` are the two runs.

use crate::store_common::{fresh_schema, me, record, you, Backend};
use virada_domain::identity::BrowserId;
use virada_domain::model::online::{
    ChatLine, End, OnlineGame, Phase, SeatState, TimeControl, CHAT_SHOWN,
};
use virada_domain::model::Owner;
use virada_domain::model::{Level, Mode, Status};
use virada_engine::puzzles::Rating;
use virada_rules::Color;
use virada_store::postgres::PgStore;
use virada_store::target::PgTarget;
use virada_store::{
    Abandoned, Change, LinkRow, PuzzleResult, Quota, StoreError, StoredGame, SweptRows,
};

on_both_stores!(
    games_round_trip,
    online_games_round_trip,
    lists_are_per_browser_and_old_games_are_claimed_once,
    quotas_count_per_address_even_at_once,
    abandoned_games_and_old_chat_are_swept,
    device_links_are_kept_per_seat_and_used_once,
    deadlines_are_found_and_moved_on_after_downtime,
    a_corrupt_row_is_an_error_naming_the_game,
    a_resigned_local_game_keeps_its_end,
    puzzle_results_are_rated_once_and_none_is_lost_at_once,
);

fn local(id: &str, at: i64) -> StoredGame {
    StoredGame {
        rec: record(id, Mode::Friend, &["f5"], at),
        online: None,
    }
}

/// An online game with both seats taken, Black to move since `turn_started_at`.
fn online(id: &str, tc: TimeControl, turn_started_at: i64) -> StoredGame {
    let mut rec = record(id, Mode::Online, &[], 1);
    rec.meta.updated_at = turn_started_at;
    let mut o = OnlineGame::new(tc, Color::Black, me(), "Ana".into());
    *o.seat_mut(Color::White) = SeatState::Taken {
        name: "Bia".into(),
        holders: vec![you()],
    };
    o.phase = Phase::Playing { turn_started_at };
    StoredGame {
        rec,
        online: Some(o),
    }
}

fn assert_same(a: &StoredGame, b: &StoredGame) {
    assert_eq!(a.rec.meta, b.rec.meta);
    assert_eq!(a.rec.game, b.rec.game);
    assert_eq!(a.online, b.online);
}

async fn games_round_trip(b: &Backend) {
    let s = &*b.store;
    assert!(s.games().load_game("g_none").await.unwrap().is_none());
    let mut friend = local("g_friend", 10);
    friend.rec.meta.opening = Some("tiger".into());
    s.games().insert_game(friend.clone(), None).await.unwrap();
    assert_same(
        &s.games().load_game("g_friend").await.unwrap().unwrap(),
        &friend,
    );
    // Moves, an undo (the redo list) and a later time are saved together.
    friend.rec.game.play("d6".parse().unwrap()).unwrap();
    friend.rec.game.play("c3".parse().unwrap()).unwrap();
    friend.rec.game.undo().unwrap();
    friend.rec.meta.updated_at = 20;
    s.games()
        .save(friend.rec.clone(), None, vec![])
        .await
        .unwrap();
    let back = s.games().load_game("g_friend").await.unwrap().unwrap();
    assert_same(&back, &friend);
    assert_eq!(back.rec.game.redo_moves().count(), 1);
    let computer = StoredGame {
        rec: record(
            "g_computer",
            Mode::Computer {
                level: Level::new(7).unwrap(),
                human: Color::White,
            },
            &["f5", "f6"],
            30,
        ),
        online: None,
    };
    s.games().insert_game(computer.clone(), None).await.unwrap();
    assert_same(
        &s.games().load_game("g_computer").await.unwrap().unwrap(),
        &computer,
    );
    // The same id twice is refused; saving a game that is gone is a 404.
    assert!(s.games().insert_game(computer.clone(), None).await.is_err());
    let gone = record("g_gone", Mode::Friend, &[], 1);
    assert_eq!(
        s.games().save(gone, None, vec![]).await.unwrap_err(),
        StoreError::NoGame("g_gone".into())
    );
    assert!(s.games().delete_game("g_friend").await.unwrap());
    assert!(!s.games().delete_game("g_friend").await.unwrap());
    assert!(s.games().load_game("g_friend").await.unwrap().is_none());
}

async fn online_games_round_trip(b: &Backend) {
    let s = &*b.store;
    let clock = TimeControl::Clock {
        minutes: 3,
        increment_seconds: 2,
    };
    let mut g = online("g_on", clock, 1_000);
    s.games().insert_game(g.clone(), None).await.unwrap();
    assert_same(&s.games().load_game("g_on").await.unwrap().unwrap(), &g);
    // A move with its clocks, a second device for White and more chat than is shown.
    g.rec.game.play("f5".parse().unwrap()).unwrap();
    g.rec.meta.updated_at = 2_000;
    let o = g.online.as_mut().unwrap();
    o.black_ms -= 1_000;
    o.phase = Phase::Playing {
        turn_started_at: 2_000,
    };
    o.offers.takeback = Some(Color::Black);
    let other = BrowserId::of_token("your phone");
    let mut changes = vec![Change::Holder(Color::White, other)];
    for n in 1..=(CHAT_SHOWN as u32 + 3) {
        let line = ChatLine {
            n,
            from: if n % 2 == 0 {
                Color::White
            } else {
                Color::Black
            },
            text: format!("olá {n}"),
            at: 2_000 + i64::from(n),
        };
        o.chat.push(line.clone());
        changes.push(Change::Chat(line));
    }
    o.chat_count = CHAT_SHOWN as u32 + 3;
    o.chat.drain(..3);
    if let SeatState::Taken { holders, .. } = o.seat_mut(Color::White) {
        holders.push(other);
    }
    s.games()
        .save(g.rec.clone(), g.online.clone(), changes)
        .await
        .unwrap();
    assert_same(&s.games().load_game("g_on").await.unwrap().unwrap(), &g);
    // White resigns and offers a rematch: the new game is stored with the change.
    let o = g.online.as_mut().unwrap();
    o.phase = Phase::Finished(End::Resign(Color::White));
    o.offers = Default::default();
    o.rematch_game = Some("g_again".into());
    let again = online("g_again", clock, 3_000);
    s.games()
        .save(
            g.rec.clone(),
            g.online.clone(),
            vec![Change::NewGame(Box::new(again.clone()))],
        )
        .await
        .unwrap();
    assert_same(&s.games().load_game("g_on").await.unwrap().unwrap(), &g);
    assert_same(
        &s.games().load_game("g_again").await.unwrap().unwrap(),
        &again,
    );
    let listed = s.games().list_games(you(), None, 10, false).await.unwrap();
    let ids: Vec<&str> = listed.iter().map(|l| l.id.as_str()).collect();
    assert_eq!(ids, ["g_again", "g_on"]);
    let on = &listed[1];
    assert_eq!(
        on.status,
        Status::Finished,
        "resigned: finished whatever the board"
    );
    assert_eq!(on.end, Some(End::Resign(Color::White)));
    assert_eq!(
        (on.black_name.as_deref(), on.white_name.as_deref()),
        (Some("Ana"), Some("Bia"))
    );
    assert_eq!((on.black_discs, on.white_discs, on.ply_count), (4, 1, 1));
    // Waiting, untimed and correspondence games read back too.
    let mut waiting = online("g_wait", TimeControl::Correspondence { days: 3 }, 0);
    let o = waiting.online.as_mut().unwrap();
    *o.seat_mut(Color::White) = SeatState::Free;
    o.phase = Phase::Waiting;
    s.games().insert_game(waiting.clone(), None).await.unwrap();
    assert_same(
        &s.games().load_game("g_wait").await.unwrap().unwrap(),
        &waiting,
    );
    let untimed = online("g_untimed", TimeControl::None {}, 5);
    s.games().insert_game(untimed.clone(), None).await.unwrap();
    assert_same(
        &s.games().load_game("g_untimed").await.unwrap().unwrap(),
        &untimed,
    );
}

async fn lists_are_per_browser_and_old_games_are_claimed_once(b: &Backend) {
    let s = &*b.store;
    let other = BrowserId::of_token("other");
    s.games()
        .insert_game(local("g_mine", 10), None)
        .await
        .unwrap();
    let mut theirs = local("g_theirs", 20);
    theirs.rec.meta.owner = Owner::Browser(other);
    s.games().insert_game(theirs, None).await.unwrap();
    s.games()
        .insert_game(local("g_later", 30), None)
        .await
        .unwrap();
    for (i, id) in ["g_old1", "g_old2"].into_iter().enumerate() {
        let mut old = local(id, 40 + i as i64);
        old.rec.meta.owner = Owner::Unclaimed;
        s.games().insert_game(old, None).await.unwrap();
    }
    let ids =
        |v: Vec<virada_store::ListedGame>| -> Vec<String> { v.into_iter().map(|g| g.id).collect() };
    assert_eq!(
        ids(s.games().list_games(me(), None, 10, false).await.unwrap()),
        ["g_later", "g_mine"]
    );
    assert_eq!(
        ids(s.games().list_games(me(), None, 1, false).await.unwrap()),
        ["g_later"]
    );
    assert!(s
        .games()
        .list_games(me(), Some(Status::Finished), 10, false)
        .await
        .unwrap()
        .is_empty());
    // The first claim wins; a second one reports the owner; no game: `None`.
    assert_eq!(
        s.games().claim_game("g_old1", other).await.unwrap(),
        Some(Owner::Browser(other))
    );
    assert_eq!(
        s.games().claim_game("g_old1", me()).await.unwrap(),
        Some(Owner::Browser(other))
    );
    assert_eq!(s.games().claim_game("g_nothing", me()).await.unwrap(), None);
    // Listing with `claim_unowned` takes the rest.
    assert_eq!(
        ids(s.games().list_games(me(), None, 10, true).await.unwrap()),
        ["g_old2", "g_later", "g_mine"]
    );
    assert_eq!(
        ids(s.games().list_games(other, None, 10, true).await.unwrap()),
        ["g_old1", "g_theirs"]
    );
}

async fn quotas_count_per_address_even_at_once(b: &Backend) {
    let s = &b.store;
    let quota = |stored, unfinished| Quota {
        address: "203.0.113.7".into(),
        stored_games: stored,
        unfinished_online_games: unfinished,
    };
    s.games()
        .insert_game(local("g_1", 1), Some(quota(2, 1)))
        .await
        .unwrap();
    s.games()
        .insert_game(online("g_2", TimeControl::None {}, 1), Some(quota(3, 1)))
        .await
        .unwrap();
    let e = s
        .games()
        .insert_game(online("g_3", TimeControl::None {}, 1), Some(quota(3, 1)))
        .await
        .unwrap_err();
    assert!(
        matches!(&e, StoreError::QuotaFull(m) if m.contains("unfinished online games")),
        "{e}"
    );
    let e = s
        .games()
        .insert_game(local("g_4", 1), Some(quota(2, 1)))
        .await
        .unwrap_err();
    assert!(
        matches!(&e, StoreError::QuotaFull(m) if m.contains("saved games")),
        "{e}"
    );
    // Another address, and no quota (an exempt address), are not counted against it.
    let mut elsewhere = quota(1, 1);
    elsewhere.address = "198.51.100.1".into();
    s.games()
        .insert_game(local("g_5", 1), Some(elsewhere))
        .await
        .unwrap();
    s.games().insert_game(local("g_6", 1), None).await.unwrap();
    // Eight new games at once from an address with room for three: three are stored.
    let mut tasks = Vec::new();
    for i in 0..8 {
        let s = s.clone();
        let mut q = quota(3, 3);
        q.address = "192.0.2.9".into();
        tasks.push(tokio::spawn(async move {
            s.games()
                .insert_game(local(&format!("g_at_once_{i}"), 1), Some(q))
                .await
                .is_ok()
        }));
    }
    let mut stored = 0;
    for t in tasks {
        stored += usize::from(t.await.unwrap());
    }
    assert_eq!(stored, 3);
}

async fn abandoned_games_and_old_chat_are_swept(b: &Backend) {
    let s = &*b.store;
    s.games()
        .insert_game(local("g_local_old", 100), None)
        .await
        .unwrap();
    s.games()
        .insert_game(local("g_local_new", 900), None)
        .await
        .unwrap();
    let mut waiting = online("g_wait_old", TimeControl::None {}, 200);
    waiting.online.as_mut().unwrap().phase = Phase::Waiting;
    s.games().insert_game(waiting, None).await.unwrap();
    s.games()
        .insert_game(online("g_play_old", TimeControl::None {}, 300), None)
        .await
        .unwrap();
    // A finished online game with chat: never abandoned; its chat goes when it is old.
    let mut fin = online("g_finished", TimeControl::None {}, 50);
    s.games().insert_game(fin.clone(), None).await.unwrap();
    let o = fin.online.as_mut().unwrap();
    o.phase = Phase::Finished(End::Abort);
    let line = ChatLine {
        n: 1,
        from: Color::Black,
        text: "gg".into(),
        at: 50,
    };
    o.chat = vec![line.clone()];
    o.chat_count = 1;
    s.games()
        .save(
            fin.rec.clone(),
            fin.online.clone(),
            vec![Change::Chat(line)],
        )
        .await
        .unwrap();
    let when = Abandoned {
        local_before: 500,
        waiting_before: 250,
        playing_before: 250,
    };
    assert_eq!(
        s.games().abandoned_games(when, 10).await.unwrap(),
        ["g_local_old", "g_wait_old"]
    );
    assert_eq!(
        s.games().abandoned_games(when, 1).await.unwrap(),
        ["g_local_old"]
    );
    let later = Abandoned {
        playing_before: 1_000,
        ..when
    };
    assert_eq!(
        s.games().abandoned_games(later, 10).await.unwrap(),
        ["g_local_old", "g_wait_old", "g_play_old"]
    );
    assert!(s
        .games()
        .delete_if_abandoned("g_wait_old", when)
        .await
        .unwrap());
    assert!(!s
        .games()
        .delete_if_abandoned("g_play_old", when)
        .await
        .unwrap());
    assert!(!s
        .games()
        .delete_if_abandoned("g_finished", later)
        .await
        .unwrap());
    assert!(s.games().load_game("g_wait_old").await.unwrap().is_none());
    assert!(s.games().load_game("g_play_old").await.unwrap().is_some());
    assert_eq!(
        s.online().sweep_links_and_chat(0, 10).await.unwrap(),
        SweptRows::default()
    );
    assert_eq!(
        s.online().sweep_links_and_chat(0, 60).await.unwrap(),
        SweptRows {
            device_links: 0,
            chat_lines: 1
        }
    );
    let back = s.games().load_game("g_finished").await.unwrap().unwrap();
    assert!(back.online.unwrap().chat.is_empty());
}

async fn device_links_are_kept_per_seat_and_used_once(b: &Backend) {
    let s = &*b.store;
    let g = online("g_links", TimeControl::None {}, 1);
    s.games().insert_game(g.clone(), None).await.unwrap();
    let link = |n: i64, color| LinkRow {
        hash: format!("h{n}"),
        game: "g_links".into(),
        color,
        created_at: 1_000 + n,
        expires_at: 2_000 + n,
    };
    for n in 0..4 {
        s.online()
            .insert_link(link(n, Color::White), 3)
            .await
            .unwrap();
    }
    s.online()
        .insert_link(link(9, Color::Black), 3)
        .await
        .unwrap();
    // The oldest White link went; the others lead to their seat until they expire.
    assert_eq!(s.online().find_link("h0", 1_500).await.unwrap(), None);
    assert_eq!(
        s.online().find_link("h1", 1_500).await.unwrap(),
        Some(("g_links".into(), Color::White))
    );
    assert_eq!(
        s.online().find_link("h9", 1_500).await.unwrap(),
        Some(("g_links".into(), Color::Black))
    );
    assert_eq!(s.online().find_link("h1", 2_001).await.unwrap(), None);
    // Used once: the change that uses it again fails, and nothing of it is stored.
    let mut rec = g.rec.clone();
    rec.meta.updated_at = 1_600;
    s.games()
        .save(rec.clone(), None, vec![Change::LinkUsed("h2".into())])
        .await
        .unwrap();
    assert_eq!(s.online().find_link("h2", 1_700).await.unwrap(), None);
    let mut moved = rec.clone();
    moved.game.play("f5".parse().unwrap()).unwrap();
    let e = s
        .games()
        .save(moved, None, vec![Change::LinkUsed("h2".into())])
        .await
        .unwrap_err();
    assert!(matches!(e, StoreError::NotFound(_)), "{e}");
    let back = s.games().load_game("g_links").await.unwrap().unwrap();
    assert_eq!(
        back.rec.game.ply(),
        0,
        "the failed change left nothing behind"
    );
    // The sweep drops what expired.
    assert_eq!(
        s.online().sweep_links_and_chat(2_100, 0).await.unwrap(),
        SweptRows {
            device_links: 4,
            chat_lines: 0
        }
    );
}

async fn deadlines_are_found_and_moved_on_after_downtime(b: &Backend) {
    let s = &*b.store;
    let minute = TimeControl::Clock {
        minutes: 1,
        increment_seconds: 0,
    };
    // Nobody has moved: the deadlines are the 30 s for Black's first move (an abort).
    for (id, tc, start) in [
        ("g_a", minute, 1_000),
        ("g_b", minute, 5_000),
        ("g_c", TimeControl::None {}, 0),
    ] {
        s.games()
            .insert_game(online(id, tc, start), None)
            .await
            .unwrap();
    }
    assert_eq!(
        s.online().due_flags("", 30_999, 10).await.unwrap(),
        (vec![], Some(31_000))
    );
    assert_eq!(
        s.online().due_flags("", 35_000, 10).await.unwrap(),
        (vec!["g_a".to_string(), "g_b".to_string()], None)
    );
    assert_eq!(
        s.online().due_flags("", 35_000, 1).await.unwrap().0,
        ["g_a"]
    );
    // The first start has no heartbeat to forgive; then down from 10 s to 100 s.
    assert_eq!(s.online().forgive_downtime(5_000).await.unwrap(), 0);
    s.online().beat(10_000).await.unwrap();
    s.online().beat(9_000).await.unwrap();
    assert_eq!(s.online().forgive_downtime(100_000).await.unwrap(), 3);
    assert_eq!(
        s.online().due_flags("", 0, 10).await.unwrap().1,
        Some(121_000)
    );
    let (due, _) = s.online().due_flags("", 125_000, 10).await.unwrap();
    assert_eq!(due, ["g_a", "g_b"]);
    let a = s.games().load_game("g_a").await.unwrap().unwrap();
    assert_eq!(
        a.online.unwrap().phase,
        Phase::Playing {
            turn_started_at: 91_000
        }
    );
    // A deadline lost from the row (as in a copy of an old database) is computed again.
    b.exec("UPDATE online_games SET flag_at = NULL").await;
    assert_eq!(s.online().due_flags("", 0, 10).await.unwrap().1, None);
    s.online().forgive_downtime(100_000).await.unwrap();
    assert_eq!(
        s.online().due_flags("", 0, 10).await.unwrap().1,
        Some(121_000)
    );
}

async fn a_corrupt_row_is_an_error_naming_the_game(b: &Backend) {
    let s = &*b.store;
    s.games()
        .insert_game(local("g_bad", 1), None)
        .await
        .unwrap();
    s.games()
        .insert_game(local("g_good", 2), None)
        .await
        .unwrap();
    b.exec("UPDATE games SET moves = 'f5 a1' WHERE id = 'g_bad'")
        .await;
    let e = s.games().load_game("g_bad").await.unwrap_err();
    assert!(
        matches!(&e, StoreError::CorruptGame { id, .. } if id == "g_bad"),
        "{e}"
    );
    // The server answers it as 409 `corrupt_game` (its tests/it/store_errors.rs).
    // Its row still says whose it is, so its owner can delete it.
    let row = s
        .games()
        .game_row("g_bad")
        .await
        .unwrap()
        .expect("the row is there");
    assert_eq!(row.owner, Owner::Browser(me()));
    assert!(!row.online);
    assert_eq!(row.created_from, None);
    assert_eq!(s.games().game_row("g_none").await.unwrap(), None);
    b.exec("UPDATE games SET mode = 'chess' WHERE id = 'g_bad'")
        .await;
    // The list leaves the corrupt line out and shows the rest.
    let listed = s.games().list_games(me(), None, 10, false).await.unwrap();
    let ids: Vec<&str> = listed.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(ids, ["g_good"]);
}

async fn a_resigned_local_game_keeps_its_end(b: &Backend) {
    let s = &*b.store;
    let mut g = local("g_resigned", 1);
    s.games().insert_game(g.clone(), None).await.unwrap();
    assert!(s
        .games()
        .load_game("g_resigned")
        .await
        .unwrap()
        .unwrap()
        .online
        .is_none());
    // Its first online state (the resignation) adds the row; it reads back with free seats.
    let mut o = OnlineGame::new(TimeControl::None {}, Color::Black, me(), "Ana".into());
    *o.seat_mut(Color::Black) = SeatState::Free;
    o.phase = Phase::Finished(End::Resign(Color::Black));
    g.online = Some(o);
    g.rec.meta.updated_at = 2;
    s.games()
        .save(g.rec.clone(), g.online.clone(), vec![])
        .await
        .unwrap();
    assert_same(
        &s.games().load_game("g_resigned").await.unwrap().unwrap(),
        &g,
    );
    let listed = s
        .games()
        .list_games(me(), Some(Status::Finished), 10, false)
        .await
        .unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].end, Some(End::Resign(Color::Black)));
    // Saved again (the row is there now).
    g.rec.meta.updated_at = 3;
    s.games()
        .save(g.rec.clone(), g.online.clone(), vec![])
        .await
        .unwrap();
    assert_same(
        &s.games().load_game("g_resigned").await.unwrap().unwrap(),
        &g,
    );
}

async fn puzzle_results_are_rated_once_and_none_is_lost_at_once(b: &Backend) {
    let s = &b.store;
    let initial = Rating::new(1700.0, 200.0, 0.06);
    let result = move |browser, puzzle: &str, solved, at| PuzzleResult {
        browser,
        puzzle: puzzle.into(),
        initial,
        solved,
        at,
    };
    assert_eq!(s.puzzles().solver_rating(me()).await.unwrap(), None);
    assert_eq!(s.puzzles().puzzle_rating("p1").await.unwrap(), None);
    let first = s
        .puzzles()
        .rate_puzzle(result(me(), "p1", true, 10))
        .await
        .unwrap();
    assert!(first.rated);
    assert_eq!((first.solver.attempts, first.solver.solved), (1, 1));
    assert!(first.solver.rating.rating > Rating::NEW_PLAYER.rating);
    assert!(first.puzzle.rating.rating < initial.rating);
    // A retry is practice: nothing changes.
    let again = s
        .puzzles()
        .rate_puzzle(result(me(), "p1", false, 20))
        .await
        .unwrap();
    assert!(!again.rated);
    assert_eq!(again.solver, first.solver);
    assert_eq!(
        s.puzzles().solver_rating(me()).await.unwrap(),
        Some(first.solver)
    );
    assert_eq!(
        s.puzzles().puzzle_rating("p1").await.unwrap(),
        Some(first.puzzle)
    );
    assert_eq!(
        s.puzzles().puzzle_ratings().await.unwrap(),
        vec![("p1".to_string(), first.puzzle)]
    );
    assert_eq!(
        s.puzzles().puzzle_results(me()).await.unwrap(),
        vec![("p1".to_string(), true)]
    );
    // Eight browsers on one puzzle, and one browser on eight puzzles, all at once: every
    // result counts.
    let mut tasks = Vec::new();
    for i in 0..8 {
        let st = s.clone();
        let who = BrowserId::of_token(&format!("b{i}"));
        tasks.push(tokio::spawn(async move {
            st.puzzles()
                .rate_puzzle(result(who, "p2", i % 2 == 0, 30))
                .await
                .unwrap()
                .rated
        }));
        let st = s.clone();
        tasks.push(tokio::spawn(async move {
            st.puzzles()
                .rate_puzzle(result(you(), &format!("q{i}"), true, 40))
                .await
                .unwrap()
                .rated
        }));
    }
    for t in tasks {
        assert!(t.await.unwrap());
    }
    let p2 = s.puzzles().puzzle_rating("p2").await.unwrap().unwrap();
    assert_eq!((p2.attempts, p2.solved), (8, 4));
    let yours = s.puzzles().solver_rating(you()).await.unwrap().unwrap();
    assert_eq!((yours.attempts, yours.solved), (8, 8));
    assert_eq!(s.puzzles().puzzle_results(you()).await.unwrap().len(), 8);
    // The sweep forgets solvers unchanged since before 35 (me and b0..b7), not the puzzles.
    assert_eq!(s.puzzles().sweep_puzzle_solvers(35).await.unwrap(), 9);
    assert_eq!(s.puzzles().solver_rating(me()).await.unwrap(), None);
    assert!(s.puzzles().puzzle_results(me()).await.unwrap().is_empty());
    assert_eq!(s.puzzles().puzzle_rating("p2").await.unwrap(), Some(p2));
    assert!(s.puzzles().solver_rating(you()).await.unwrap().is_some());
}

/// Both stores hold the same tables with the same columns at the same schema version.
#[tokio::test]
async fn both_stores_have_one_schema() {
    let Some(url) = virada_testdata::postgres_url() else {
        return;
    };
    let sqlite = Backend::sqlite();
    let target = fresh_schema(&url);
    let pg = PgStore::open(&target).await.unwrap();
    let path = sqlite.sqlite_path().unwrap();
    let conn = rusqlite::Connection::open(path).unwrap();
    let mut lite: Vec<String> = conn
        .prepare(
            "SELECT m.name || '.' || p.name FROM sqlite_master m, pragma_table_info(m.name) p
             WHERE m.type = 'table'",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let schema = target.schema.unwrap();
    let mut post: Vec<String> = pg
        .query_rows(&format!(
            "SELECT table_name || '.' || column_name FROM information_schema.columns
             WHERE table_schema = '{schema}'"
        ))
        .await
        .unwrap()
        .into_iter()
        .map(|mut row| row.remove(0).unwrap())
        .collect();
    lite.sort();
    post.sort();
    assert_eq!(lite, post);
    assert!(lite.contains(&"games.created_from".to_string()));
    let v = pg.schema_version().await.unwrap();
    assert_eq!(v, sqlite_version(path));
    // Opening again applies nothing; a database from a newer program is refused.
    let again = PgStore::open(&PgTarget {
        url: url.clone(),
        schema: Some(schema.clone()),
    })
    .await
    .unwrap();
    assert_eq!(again.schema_version().await.unwrap(), v);
    pg.execute_sql(&format!(
        "INSERT INTO schema_migrations VALUES ({}, 0)",
        v + 1
    ))
    .await
    .unwrap();
    let refused = PgStore::open(&PgTarget {
        url,
        schema: Some(schema),
    })
    .await;
    let e = refused
        .err()
        .expect("a newer schema is refused")
        .to_string();
    assert!(e.contains("newer than this program"), "{e}");
    assert!(!e.contains("password"), "{e}");
}

fn sqlite_version(path: &std::path::Path) -> i64 {
    rusqlite::Connection::open(path)
        .unwrap()
        .query_row("SELECT MAX(version) FROM schema_migrations", [], |r| {
            r.get(0)
        })
        .unwrap()
}

/// A server that cannot be reached is a clear start-up error, not a hang or a panic.
#[tokio::test]
async fn an_unreachable_postgres_is_a_clear_error() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let e = PgStore::open(&PgTarget {
        url: format!("postgres://ana:secret@127.0.0.1:{port}/virada?connect_timeout=2"),
        schema: None,
    })
    .await
    .err()
    .expect("nothing listens there")
    .to_string();
    assert!(
        e.starts_with("cannot open database postgres://ana@127.0.0.1:"),
        "{e}"
    );
    assert!(!e.contains("secret"), "{e}");
    let e = PgStore::open(&PgTarget {
        url: "postgres://[bad".into(),
        schema: None,
    })
    .await
    .err()
    .expect("not a URL")
    .to_string();
    assert!(e.contains("not a PostgreSQL URL"), "{e}");
}
