//! `virada db copy` (`store::admin`): a database holding every kind of game, copied from a
//! SQLite file to PostgreSQL and back, and file to file, loses no row of any table; a copy
//! refuses a non-empty target, another schema version, an unknown table, and the source as
//! its own target. The PostgreSQL round trip needs `VIRADA_TEST_PG` (`scripts/pg-test.sh`);
//! without it it fails under CI and prints SKIPPED elsewhere. The file tests always run.

use crate::store_common::{fresh_schema, me, record, you};
use std::path::Path;
use virada_domain::identity::BrowserId;
use virada_domain::model::online::{ChatLine, End, OnlineGame, Phase, SeatState, TimeControl};
use virada_domain::model::Owner;
use virada_domain::model::{Level, Mode, Status};
use virada_engine::puzzles::Rating;
use virada_rules::{Color, Move};
use virada_store::admin::{self, Db};
use virada_store::arenas::ArenaResult;
use virada_store::postgres::PgStore;
use virada_store::rows::TableRows;
use virada_store::safety::NewReport;
use virada_store::sqlite::SqliteStore;
use virada_store::{
    ArenaCaps, ArenaGameRow, ArenaPlayerRow, ArenaRow, Change, LinkRow, NewAccount, PracticeSetRow,
    PuzzleResult, Quota, SessionRow, Store, StoredGame,
};

fn local(id: &str, mode: Mode, moves: &[&str], online: Option<OnlineGame>) -> StoredGame {
    StoredGame {
        rec: {
            let mut rec = record(id, mode, moves, 100);
            rec.meta.updated_at += 7;
            rec
        },
        online,
    }
}

/// An online game with both seats taken, Black to move since `at`.
fn online(id: &str, tc: TimeControl, at: i64) -> StoredGame {
    let mut rec = record(id, Mode::Online, &[], at);
    rec.meta.updated_at = at;
    let mut o = OnlineGame::new(tc, Color::Black, me(), "Ana".into());
    *o.seat_mut(Color::White) = SeatState::Taken {
        name: "Bia".into(),
        holders: vec![you()],
    };
    o.phase = Phase::Playing {
        turn_started_at: at,
    };
    StoredGame {
        rec,
        online: Some(o),
    }
}

fn finished(mut g: StoredGame, end: End) -> StoredGame {
    g.online.as_mut().unwrap().phase = Phase::Finished(end);
    g
}

/// A game played to its end (the first legal move each time).
fn played_out(id: &str) -> StoredGame {
    let mut g = local(id, Mode::Friend, &[], None);
    let game = &mut g.rec.game;
    while !game.is_over() {
        let sq = game.position().legal_moves().iter().next().unwrap();
        game.play(Move::Play(sq)).unwrap();
        game.play_forced_passes();
    }
    g
}

/// The ids of [`fill`]'s games.
const GAMES: &[&str] = &[
    "g_computer",
    "g_computer_clock",
    "g_friend_undo",
    "g_friend_over",
    "g_friend_resigned",
    "g_unclaimed",
    "g_playing",
    "g_waiting",
    "g_timed_out",
    "g_resigned",
    "g_rematch",
    "g_deadline",
    "g_aborted",
    "g_rated",
];

fn level_7_white() -> Mode {
    Mode::Computer {
        level: Level::new(7).unwrap(),
        human: Color::White,
    }
}

/// Every kind of game, with seats, clocks, chat, device links, quotas' addresses, the
/// heartbeat and puzzle ratings, written through the store's own methods.
async fn fill(s: &dyn Store) {
    let quota = Quota {
        address: "203.0.113.7".into(),
        stored_games: 100,
        unfinished_online_games: 100,
    };
    let mut computer = local("g_computer", level_7_white(), &["f5", "f6"], None);
    computer.rec.meta.opening = Some("tiger".into());
    s.games()
        .insert_game(computer, Some(quota.clone()))
        .await
        .unwrap();
    let clock = TimeControl::Clock {
        minutes: 5,
        increment_seconds: 3,
    };
    let timed = local(
        "g_computer_clock",
        level_7_white(),
        &["f5"],
        Some(OnlineGame::local(clock, 150)),
    );
    s.games().insert_game(timed, None).await.unwrap();
    let mut undone = local("g_friend_undo", Mode::Friend, &["f5", "d6", "c3"], None);
    undone.rec.game.undo().unwrap();
    s.games().insert_game(undone, None).await.unwrap();
    s.games()
        .insert_game(played_out("g_friend_over"), None)
        .await
        .unwrap();
    // A local game resigned: its first online part comes with the save.
    let resigned = local("g_friend_resigned", Mode::Friend, &["f5"], None);
    s.games().insert_game(resigned.clone(), None).await.unwrap();
    let mut end = OnlineGame::local(TimeControl::None {}, 200);
    end.phase = Phase::Finished(End::Resign(Color::White));
    s.games()
        .save(resigned.rec, Some(end), vec![])
        .await
        .unwrap();
    let mut unclaimed = local("g_unclaimed", Mode::Friend, &["f5"], None);
    unclaimed.rec.meta.owner = Owner::Unclaimed;
    s.games().insert_game(unclaimed, None).await.unwrap();

    // Online: a game being played with a move, a second device, chat and an offer.
    let mut g = online("g_playing", clock, 1_000);
    s.games()
        .insert_game(g.clone(), Some(quota.clone()))
        .await
        .unwrap();
    g.rec.game.play("f5".parse().unwrap()).unwrap();
    g.rec.meta.updated_at = 2_000;
    let o = g.online.as_mut().unwrap();
    o.black_ms -= 1_000;
    o.phase = Phase::Playing {
        turn_started_at: 2_000,
    };
    o.offers.takeback = Some(Color::Black);
    let phone = BrowserId::of_token("your phone");
    let mut changes = vec![Change::Holder(Color::White, phone)];
    if let SeatState::Taken { holders, .. } = o.seat_mut(Color::White) {
        holders.push(phone);
    }
    for n in 1..=3u32 {
        let line = ChatLine {
            n,
            from: if n == 2 { Color::White } else { Color::Black },
            text: format!("olá, \"peças\" {n} ✓"),
            at: 2_000 + i64::from(n),
        };
        o.push_chat(line.clone());
        changes.push(Change::Chat(line));
    }
    s.games()
        .save(g.rec.clone(), g.online.clone(), changes)
        .await
        .unwrap();
    for (n, used) in [(1, false), (2, true)] {
        let link = LinkRow {
            hash: format!("hash{n}"),
            game: "g_playing".into(),
            color: Color::White,
            created_at: 2_100,
            expires_at: 9_000_000_000_000,
        };
        s.online().insert_link(link, 3).await.unwrap();
        if used {
            s.games()
                .save(
                    g.rec.clone(),
                    None,
                    vec![Change::LinkUsed(format!("hash{n}"))],
                )
                .await
                .unwrap();
        }
    }
    let mut waiting = online("g_waiting", TimeControl::Correspondence { days: 3 }, 3_000);
    let o = waiting.online.as_mut().unwrap();
    *o.seat_mut(Color::White) = SeatState::Free;
    o.phase = Phase::Waiting;
    s.games().insert_game(waiting, None).await.unwrap();
    let out_of_time = finished(online("g_timed_out", clock, 4_000), End::Time(Color::White));
    s.games().insert_game(out_of_time, None).await.unwrap();
    // Resigned, with a rematch stored in the same change.
    let mut resigned = online("g_resigned", TimeControl::None {}, 5_000);
    s.games().insert_game(resigned.clone(), None).await.unwrap();
    let o = resigned.online.as_mut().unwrap();
    o.phase = Phase::Finished(End::Resign(Color::Black));
    o.rematch_game = Some("g_rematch".into());
    let again = online("g_rematch", TimeControl::None {}, 5_500);
    s.games()
        .save(
            resigned.rec,
            resigned.online,
            vec![Change::NewGame(Box::new(again))],
        )
        .await
        .unwrap();
    let days = TimeControl::Correspondence { days: 1 };
    let deadline = finished(
        online("g_deadline", days, 6_000),
        End::Deadline(Color::Black),
    );
    s.games().insert_game(deadline, None).await.unwrap();
    let aborted = finished(online("g_aborted", TimeControl::None {}, 7_000), End::Abort);
    s.games().insert_game(aborted, None).await.unwrap();
    s.online().beat(123_456).await.unwrap();

    // Accounts with sessions, and a rated game between them: its end moves their ratings.
    for (holder, name) in [(me(), "Ana"), (you(), "Bia")] {
        let account = NewAccount {
            holder,
            username: name.into(),
            password_hash: format!("$argon2id$v=19$m=19456,t=2,p=1$salt${name}"),
            recovery_hash: format!("{name} recovery"),
            created_at: 50,
        };
        let session = SessionRow {
            hash: format!("{name} session"),
            holder,
            created_at: 60,
            expires_at: 9_000_000_000_000,
        };
        let guest = BrowserId::of_token(&format!("{name} before signing up"));
        s.accounts()
            .create_account(account, session, guest)
            .await
            .unwrap();
    }
    let mut rated = online("g_rated", clock, 8_000);
    rated.online.as_mut().unwrap().rated = true;
    s.games().insert_game(rated.clone(), None).await.unwrap();
    // An arena with both players; the rated game is its game: its end scores it.
    let caps = ArenaCaps {
        now: 8_000,
        open: 20,
        open_per_account: 2,
        per_day: 5,
    };
    s.arenas().insert_arena(arena_row(), caps).await.unwrap();
    for (holder, name) in [(me(), "Ana"), (you(), "Bia")] {
        let player = ArenaPlayerRow {
            holder,
            username: name.into(),
            rating: 1_500.0,
            joined_at: 8_000,
            active: true,
        };
        assert!(s.arenas().join_arena("a_1", player, 200).await.unwrap());
    }
    let game = ArenaGameRow {
        game_id: "g_rated".into(),
        seq: 1,
        black: me(),
        white: you(),
        started_at: 8_000,
        result: None,
        ended_at: None,
    };
    s.arenas().add_arena_game("a_1", game).await.unwrap();
    // A practice set of Ana's, one of its two positions found again.
    let set = PracticeSetRow {
        id: "p_1".into(),
        holder: me(),
        game_id: "g_rated".into(),
        color: "black".into(),
        created_at: 8_500,
        items: r#"[{"ply":3},{"ply":5}]"#.into(),
        solved: vec![5],
    };
    s.practice().save_practice_set(set, 20).await.unwrap();
    // And a guest browser's (kept apart until it signs up or in).
    let guest_set = PracticeSetRow {
        id: "p_2".into(),
        holder: BrowserId::of_token("a guest"),
        game_id: "g_local".into(),
        color: "white".into(),
        created_at: 8_600,
        items: r#"[{"ply":4}]"#.into(),
        solved: Vec::new(),
    };
    s.practice().save_practice_set(guest_set, 20).await.unwrap();
    for m in ["f5", "d6"] {
        rated.rec.game.play(m.parse().unwrap()).unwrap();
    }
    rated.rec.meta.updated_at = 9_000;
    rated.online.as_mut().unwrap().phase = Phase::Finished(End::Resign(Color::White));
    s.games()
        .save(rated.rec, rated.online, vec![])
        .await
        .unwrap();

    // Safety: a block, a report on a chat line, chat off in a game, the admin role and a ban.
    let safety = s.safety();
    safety.block(me(), "bia", 200, 9_100).await.unwrap();
    let report = NewReport {
        reporter: me(),
        player_key: "bia".into(),
        game: Some("g_resigned".into()),
        chat_line: Some(1),
        reason: "rude".into(),
        at: 9_200,
    };
    safety.insert_report(report, 10, 0).await.unwrap();
    safety
        .set_game_chat_off("g_resigned", Color::White, true)
        .await
        .unwrap();
    assert!(safety.set_admin("ana", true).await.unwrap());
    safety.set_chat_off(you(), true).await.unwrap();

    // Puzzles: two solvers, two puzzles, solved and not, a retry that is not rated.
    let initial = Rating::new(1_650.5, 200.0, 0.06);
    for (who, puzzle, solved, at) in [
        (me(), "p_one", true, 10),
        (me(), "p_two", false, 11),
        (you(), "p_one", false, 12),
        (you(), "p_one", true, 13),
    ] {
        let result = PuzzleResult {
            browser: who,
            puzzle: puzzle.into(),
            initial,
            solved,
            at,
        };
        s.puzzles().rate_puzzle(result).await.unwrap();
    }
}

fn arena_row() -> ArenaRow {
    ArenaRow {
        id: "a_1".into(),
        name: "Noite".into(),
        creator: me(),
        creator_name: "Ana".into(),
        created_at: 8_000,
        starts_at: 8_000,
        ends_at: 3_608_000,
        time_control: TimeControl::Clock {
            minutes: 5,
            increment_seconds: 3,
        },
        rated: true,
    }
}

/// Every row of every table of the SQLite file (its version table aside), read with plain
/// SQL, table by table, sorted: what a copy must reproduce exactly.
fn sqlite_rows(path: &Path) -> Vec<(String, Vec<Vec<String>>)> {
    let conn = rusqlite::Connection::open(path).unwrap();
    let mut tables: Vec<String> = conn
        .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
             AND name <> 'schema_migrations' ORDER BY name",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    tables.sort();
    let mut out = Vec::new();
    for t in tables {
        let mut stmt = conn.prepare(&format!("SELECT * FROM \"{t}\"")).unwrap();
        let n = stmt.column_count();
        let mut rows: Vec<Vec<String>> = stmt
            .query_map([], |r| {
                (0..n)
                    .map(|i| Ok(format!("{:?}", r.get::<_, rusqlite::types::Value>(i)?)))
                    .collect()
            })
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        rows.sort();
        out.push((t, rows));
    }
    out
}

/// A SQLite file holding every kind of game.
async fn filled_file(path: &Path) {
    let store = SqliteStore::open(path).unwrap();
    fill(&store).await;
}

fn counts(done: &admin::Copied) -> Vec<(&str, u64)> {
    done.tables.iter().map(|(t, n)| (t.as_str(), *n)).collect()
}

/// The rows `fill` writes, per table.
const FILLED: &[(&str, u64)] = &[
    ("games", 14),
    ("online_games", 10),
    ("online_holders", 16),
    ("online_chat", 3),
    ("device_links", 2),
    ("server_alive", 1),
    ("accounts", 2),
    ("sessions", 2),
    ("ratings", 2),
    ("rating_history", 2),
    ("puzzle_ratings", 2),
    ("puzzle_solvers", 2),
    ("puzzle_results", 3),
    ("blocks", 1),
    ("reports", 1),
    ("chat_off_games", 1),
    ("arenas", 1),
    ("arena_players", 2),
    ("arena_games", 1),
    ("practice_sets", 1),
    ("guest_practice_sets", 1),
];

/// Every game of `fill` reads the same from both stores, and so do the lists, links, flags
/// and puzzle ratings.
async fn same_through_the_store(a: &dyn Store, b: &dyn Store) {
    for id in GAMES {
        let x = a.games().load_game(id).await.unwrap().unwrap();
        let y = b.games().load_game(id).await.unwrap().unwrap();
        assert_eq!(x.rec.meta, y.rec.meta, "{id}");
        assert_eq!(x.rec.game, y.rec.game, "{id}");
        assert_eq!(x.online, y.online, "{id}");
        assert_eq!(
            a.games().game_row(id).await.unwrap(),
            b.games().game_row(id).await.unwrap()
        );
    }
    for who in [me(), you()] {
        let x = a.games().list_games(who, None, 100, false).await.unwrap();
        let y = b.games().list_games(who, None, 100, false).await.unwrap();
        assert_eq!(format!("{x:?}"), format!("{y:?}"));
        let finished_x = a
            .games()
            .list_games(who, Some(Status::Finished), 100, false);
        let finished_y = b
            .games()
            .list_games(who, Some(Status::Finished), 100, false);
        assert_eq!(
            format!("{:?}", finished_x.await.unwrap()),
            format!("{:?}", finished_y.await.unwrap())
        );
        assert_eq!(
            a.puzzles().solver_rating(who).await.unwrap(),
            b.puzzles().solver_rating(who).await.unwrap()
        );
        assert_eq!(
            a.puzzles().puzzle_results(who).await.unwrap(),
            b.puzzles().puzzle_results(who).await.unwrap()
        );
    }
    for (holder, key, name) in [(me(), "ana", "Ana"), (you(), "bia", "Bia")] {
        let x = a.accounts().account_by_holder(holder).await.unwrap();
        assert!(x.is_some(), "{name}");
        assert_eq!(x, b.accounts().account_by_holder(holder).await.unwrap());
        let x = a.accounts().player(key).await.unwrap().unwrap();
        assert_eq!(x.ratings.len(), 1, "{x:?}");
        assert_eq!(Some(x), b.accounts().player(key).await.unwrap());
        let session = format!("{name} session");
        let x = a.accounts().session(&session, 1_000).await.unwrap();
        assert_eq!(x, Some((holder, name.to_string())));
        assert_eq!(x, b.accounts().session(&session, 1_000).await.unwrap());
        let flags = a.safety().flags(holder).await.unwrap();
        assert!(flags.is_some(), "{name}");
        assert_eq!(flags, b.safety().flags(holder).await.unwrap());
        let blocks = a.safety().blocks(holder).await.unwrap();
        assert_eq!(blocks, b.safety().blocks(holder).await.unwrap());
    }
    let reports = a.safety().reports(false, 10).await.unwrap();
    assert_eq!(reports.len(), 1, "{reports:?}");
    assert_eq!(reports, b.safety().reports(false, 10).await.unwrap());
    let mut ra = a.puzzles().puzzle_ratings().await.unwrap();
    let mut rb = b.puzzles().puzzle_ratings().await.unwrap();
    ra.sort_by(|x, y| x.0.cmp(&y.0));
    rb.sort_by(|x, y| x.0.cmp(&y.0));
    assert_eq!(ra, rb);
    assert_eq!(ra.len(), 2);
    for hash in ["hash1", "hash2"] {
        assert_eq!(
            a.online().find_link(hash, 3_000).await.unwrap(),
            b.online().find_link(hash, 3_000).await.unwrap()
        );
    }
    assert!(b
        .online()
        .find_link("hash1", 3_000)
        .await
        .unwrap()
        .is_some());
    assert_eq!(
        a.online().due_flags("", i64::MAX, 100).await.unwrap(),
        b.online().due_flags("", i64::MAX, 100).await.unwrap()
    );
    // The arena, with the result its game's end wrote.
    let x = a.arenas().arena("a_1").await.unwrap().unwrap();
    assert_eq!(x.arena, arena_row());
    assert_eq!(x.players.len(), 2);
    assert_eq!(x.games[0].result, Some(ArenaResult::BlackWins));
    assert_eq!(x.games[0].ended_at, Some(9_000));
    assert_eq!(Some(x), b.arenas().arena("a_1").await.unwrap());
    let sets = a.practice().practice_sets(me()).await.unwrap();
    assert_eq!(sets.len(), 1, "{sets:?}");
    assert_eq!(sets[0].solved, [5]);
    assert_eq!(sets, b.practice().practice_sets(me()).await.unwrap());
}

#[tokio::test]
async fn a_file_copies_to_a_file_with_every_row() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.sqlite"), dir.path().join("b.sqlite"));
    filled_file(&a).await;
    let done = admin::copy(&Db::Sqlite(a.clone()), &Db::Sqlite(b.clone()), false)
        .await
        .unwrap();
    assert_eq!(counts(&done), FILLED);
    assert_eq!(done.target_migrated_from, 0, "a new file");
    assert_eq!(done.version, admin::SCHEMA_VERSION);
    let rows = sqlite_rows(&a);
    assert_eq!(rows.iter().map(|t| t.1.len()).sum::<usize>(), 70);
    assert_eq!(rows, sqlite_rows(&b));
    same_through_the_store(
        &SqliteStore::open(&a).unwrap(),
        &SqliteStore::open(&b).unwrap(),
    )
    .await;
}

#[tokio::test]
async fn a_copy_refuses_what_would_lose_or_mix_games() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name);
    let (a, b) = (path("a.sqlite"), path("b.sqlite"));
    filled_file(&a).await;
    let file = |p: &Path| Db::Sqlite(p.to_path_buf());
    // A missing source: an error, and no target made.
    let e = admin::copy(&file(&path("none.sqlite")), &file(&b), false)
        .await
        .unwrap_err();
    assert!(e.contains("no such file"), "{e}");
    assert!(!b.exists());
    // The source as its own target.
    let e = admin::copy(&file(&a), &file(&a), false).await.unwrap_err();
    assert!(e.contains("same database"), "{e}");
    // A target holding rows, unless --replace (which leaves exactly the source's rows).
    let other = path("other.sqlite");
    let store = SqliteStore::open(&other).unwrap();
    store
        .games()
        .insert_game(local("g_elsewhere", Mode::Friend, &[], None), None)
        .await
        .unwrap();
    drop(store);
    let e = admin::copy(&file(&a), &file(&other), false)
        .await
        .unwrap_err();
    assert!(e.contains("not empty") && e.contains("games 1"), "{e}");
    assert!(e.contains("--replace"), "{e}");
    admin::copy(&file(&a), &file(&other), true).await.unwrap();
    assert_eq!(sqlite_rows(&a), sqlite_rows(&other));
    // A second copy into a copied database is refused: nothing is doubled.
    let e = admin::copy(&file(&a), &file(&other), false)
        .await
        .unwrap_err();
    assert!(e.contains("not empty"), "{e}");
    // A table this build does not know.
    let conn = rusqlite::Connection::open(&other).unwrap();
    conn.execute_batch("CREATE TABLE leases (game_id TEXT PRIMARY KEY)")
        .unwrap();
    let e = admin::copy(&file(&other), &file(&path("c.sqlite")), false)
        .await
        .unwrap_err();
    assert!(e.contains("leases"), "{e}");
    // A source at an older schema version: migrate it first.
    conn.execute_batch(
        "DROP TABLE leases; DELETE FROM schema_migrations
         WHERE version = (SELECT MAX(version) FROM schema_migrations)",
    )
    .unwrap();
    drop(conn);
    let e = admin::copy(&file(&other), &file(&path("c.sqlite")), false)
        .await
        .unwrap_err();
    assert!(e.contains("virada db migrate"), "{e}");
    assert!(!path("c.sqlite").exists());
    // A newer target is refused by its migration.
    let newer = path("newer.sqlite");
    drop(SqliteStore::open(&newer).unwrap());
    rusqlite::Connection::open(&newer)
        .unwrap()
        .execute_batch("INSERT INTO schema_migrations VALUES (999, 0)")
        .unwrap();
    let e = admin::copy(&file(&a), &file(&newer), false)
        .await
        .unwrap_err();
    assert!(e.contains("newer"), "{e}");
}

#[tokio::test]
async fn migrate_says_from_which_version_to_which() {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::Sqlite(dir.path().join("m.sqlite"));
    let first = admin::migrate(&db).await.unwrap();
    assert_eq!((first.from, first.to), (0, admin::SCHEMA_VERSION));
    let again = admin::migrate(&db).await.unwrap();
    assert_eq!(
        (again.from, again.to),
        (admin::SCHEMA_VERSION, admin::SCHEMA_VERSION)
    );
}

/// Tables with their rows in one order (each store returns them in its own).
fn sorted(mut tables: Vec<TableRows>) -> Vec<TableRows> {
    for t in &mut tables {
        t.rows.sort_by_key(|r| format!("{r:?}"));
    }
    tables
}

#[tokio::test]
async fn a_file_goes_to_postgres_and_back_with_every_row() {
    let Some(url) = virada_testdata::postgres_url() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (a, c) = (dir.path().join("a.sqlite"), dir.path().join("c.sqlite"));
    filled_file(&a).await;
    let pg = fresh_schema(&url);
    let there = admin::copy(&Db::Sqlite(a.clone()), &Db::Postgres(pg.clone()), false)
        .await
        .unwrap();
    assert_eq!(counts(&there), FILLED);
    assert_eq!(there.target_migrated_from, 0, "a new schema");
    let pg_store = PgStore::open(&pg).await.unwrap();
    same_through_the_store(&SqliteStore::open(&a).unwrap(), &pg_store).await;
    // Into PostgreSQL again: refused, it holds the games now; --replace leaves them once.
    let e = admin::copy(&Db::Sqlite(a.clone()), &Db::Postgres(pg.clone()), false)
        .await
        .unwrap_err();
    assert!(e.contains("not empty") && e.contains("games 14"), "{e}");
    admin::copy(&Db::Sqlite(a.clone()), &Db::Postgres(pg.clone()), true)
        .await
        .unwrap();
    // And back into a new file: every row of every table as it was.
    let back = admin::copy(&Db::Postgres(pg.clone()), &Db::Sqlite(c.clone()), false)
        .await
        .unwrap();
    assert_eq!(counts(&back), FILLED);
    assert_eq!(sqlite_rows(&a), sqlite_rows(&c));
    same_through_the_store(&pg_store, &SqliteStore::open(&c).unwrap()).await;
    // What the copy reads from PostgreSQL is what it read from the file.
    assert_eq!(
        sorted(admin::read_all(&Db::Postgres(pg.clone())).await.unwrap()),
        sorted(admin::read_all(&Db::Sqlite(a.clone())).await.unwrap())
    );
    // A PostgreSQL source at an older version is refused.
    pg_store
        .execute_sql(
            "DELETE FROM schema_migrations
             WHERE version = (SELECT MAX(version) FROM schema_migrations)",
        )
        .await
        .unwrap();
    let e = admin::copy(
        &Db::Postgres(pg),
        &Db::Sqlite(dir.path().join("d.sqlite")),
        false,
    )
    .await
    .unwrap_err();
    assert!(e.contains("virada db migrate"), "{e}");
}
