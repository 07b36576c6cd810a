//! How long unfinished games and chat are kept: a periodic sweep deletes abandoned games (with
//! their seats, chat and device links), the chat of long-finished online games, and expired
//! device links, and the puzzle ratings of browsers that stopped solving. The periods are in
//! [`crate::config::RetentionConfig`] (docs/SECURITY.md, "Retention").
//!
//! "Abandoned" means unfinished (the game's status is not `finished`) and unchanged (no move,
//! seat, chat line, offer or flag fall: its `updated_at`) for the period of its kind, and not in
//! memory (a game in memory has been used within the idle timeout). Finished games are kept
//! (the per-address cap on stored games bounds them); only their chat goes.

use crate::error::AppResult;
use crate::runtime::shared::Shared;
use crate::runtime::state::Games;
use crate::util::now_millis;
use std::sync::Arc;
use std::time::Duration;
use virada_store::Abandoned;

/// Games looked at per database read of a sweep.
const BATCH: usize = 500;

/// What one sweep deleted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Swept {
    pub games: usize,
    pub chat_lines: usize,
    pub device_links: usize,
    /// Browsers whose puzzle rating and results were deleted.
    pub puzzle_solvers: usize,
}

fn before(now: i64, period: Duration) -> i64 {
    now.saturating_sub(i64::try_from(period.as_millis()).unwrap_or(i64::MAX))
}

/// One sweep at `now` (Unix ms of the system clock, which `updated_at` is written in;
/// `clock_now`: the time source's, which device links expire in).
pub async fn sweep(
    games: &Arc<Games>,
    shared: &Shared,
    now: i64,
    clock_now: i64,
) -> AppResult<Swept> {
    let config = &shared.config.retention;
    let when = Abandoned {
        local_before: before(now, config.local_game),
        waiting_before: before(now, config.waiting_online_game),
        playing_before: before(now, config.playing_online_game),
    };
    let mut swept = Swept::default();
    let mut skipped = 0;
    loop {
        // Games in memory are skipped (and stay in the answer): read past them.
        let limit = BATCH + skipped;
        let ids = shared.store.games().abandoned_games(when, limit).await?;
        let full = ids.len() == limit;
        skipped = 0;
        for id in &ids {
            if games.expire(id, when).await? {
                swept.games += 1;
            } else {
                skipped += 1;
            }
        }
        if !full || skipped == ids.len() {
            break;
        }
    }
    let chat_before = before(now, config.finished_chat);
    let rows = shared
        .store
        .online()
        .sweep_links_and_chat(clock_now, chat_before)
        .await?;
    swept.device_links = rows.device_links;
    swept.chat_lines = rows.chat_lines;
    swept.puzzle_solvers = shared
        .store
        .puzzles()
        .sweep_puzzle_solvers(before(now, config.puzzle_solver))
        .await?;
    Ok(swept)
}

/// Sweeps every [`crate::config::RetentionConfig::sweep_every`] until the server shuts down.
pub async fn run(games: Arc<Games>, shared: Arc<Shared>) {
    let every = shared
        .config
        .retention
        .sweep_every
        .max(Duration::from_millis(1));
    let mut stop = shared.shutdown.clone();
    let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            r = stop.changed() => if r.is_err() || *stop.borrow() { break },
        }
        let clock_now = shared.config.clock.now_ms();
        match sweep(&games, &shared, now_millis(), clock_now).await {
            Ok(s) if s != Swept::default() => tracing::info!(
                games = s.games,
                chat_lines = s.chat_lines,
                device_links = s.device_links,
                puzzle_solvers = s.puzzle_solvers,
                "retention sweep deleted abandoned games, old chat, expired device links and idle puzzle solvers"
            ),
            Ok(_) => {}
            Err(e) => tracing::error!(error = %e, "retention sweep failed"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ServerConfig;
    use crate::http::ownership::Asker;
    use crate::identity::BrowserId;
    use crate::model::online::{ChatLine, End, OnlineGame, Phase, SeatState, TimeControl};
    use crate::model::Owner;
    use crate::model::{GameMeta, GameRecord, Mode, StartKind};
    use crate::runtime::pool::EnginePool;
    use crate::runtime::state::AppState;
    use tokio::sync::watch;
    use virada_rules::{Color, Game};
    use virada_store::sqlite::SqliteStore;
    use virada_store::{Change, LinkRow, PuzzleResult, Store, StoredGame};

    const DAY_MS: i64 = 24 * 3600 * 1000;
    const NOW: i64 = 1_000 * DAY_MS;

    fn me() -> BrowserId {
        BrowserId::of_token("me")
    }

    fn record(id: &str, mode: Mode, days_unchanged: i64) -> GameRecord {
        GameRecord {
            meta: GameMeta {
                id: id.into(),
                created_at: 0,
                updated_at: NOW - days_unchanged * DAY_MS,
                mode,
                start_kind: StartKind::Standard,
                opening: None,
                seed: 1,
                owner: Owner::Browser(me()),
                record: None,
            },
            game: Game::new(),
        }
    }

    fn online(phase: Phase) -> OnlineGame {
        let mut o = OnlineGame::new(TimeControl::None {}, Color::Black, me(), "Ana".into());
        if phase != Phase::Waiting {
            *o.seat_mut(Color::White) = SeatState::Taken {
                name: "Bia".into(),
                holders: vec![BrowserId::of_token("you")],
            };
        }
        o.phase = phase;
        o
    }

    fn count(conn: &rusqlite::Connection, sql: &str) -> i64 {
        conn.query_row(sql, [], |r| r.get(0)).unwrap()
    }

    /// Each kind of game just inside and just outside its period, in a real SQLite file, with
    /// the sweep's time given: exactly the abandoned ones go, with their chat and links.
    #[tokio::test]
    async fn the_sweep_deletes_exactly_the_abandoned_games_and_old_chat() {
        let dir = tempfile::tempdir().unwrap();
        let config = ServerConfig::for_tests(dir.path().join("db.sqlite"));
        let db = Arc::new(SqliteStore::open(&config.db_path).unwrap());
        let (_stop, shutdown) = watch::channel(false);
        let pool = EnginePool::new(1, Arc::new(crate::runtime::engine_port::new_engine));
        let state = AppState::new(Arc::new(Shared::new(config, db.clone(), pool, shutdown)));
        let playing = Phase::Playing { turn_started_at: 0 };
        let finished = Phase::Finished(End::Resign(Color::White));
        let chat = |n: u32| {
            Change::Chat(ChatLine {
                n,
                from: Color::Black,
                text: "hi".into(),
                at: 0,
            })
        };
        let local = |rec| StoredGame { rec, online: None };
        let link = |hash: String, game: &str, expires_at| LinkRow {
            hash,
            game: game.to_string(),
            color: Color::Black,
            created_at: 0,
            expires_at,
        };
        db.online().beat(0).await.unwrap();
        for (id, days) in [("g_localold", 181), ("g_localnew", 179)] {
            db.games()
                .insert_game(local(record(id, Mode::Friend, days)), None)
                .await
                .unwrap();
        }
        {
            for (id, phase, days) in [
                ("g_waitold", Phase::Waiting, 8),
                ("g_waitnew", Phase::Waiting, 6),
                ("g_playold", playing, 31),
                ("g_playnew", playing, 29),
                ("g_doneold", finished, 400),
                ("g_donenew", finished, 89),
            ] {
                let rec = record(id, Mode::Online, days);
                let o = online(phase);
                let game = StoredGame {
                    rec: rec.clone(),
                    online: Some(o.clone()),
                };
                db.games().insert_game(game, None).await.unwrap();
                if phase != Phase::Waiting {
                    db.games()
                        .save(rec, Some(o), vec![chat(1), chat(2)])
                        .await
                        .unwrap();
                }
                let live = link(format!("{id}_live"), id, NOW + 1);
                db.online().insert_link(live, 5).await.unwrap();
            }
            let expired = link("expired".into(), "g_playnew", NOW);
            db.online().insert_link(expired, 5).await.unwrap();
        }
        // Two browsers' puzzle ratings: one last changed 366 days ago, one 364.
        let puzzle = &virada_engine::puzzles::shipped()[0];
        for (who, days) in [("old solver", 366), ("new solver", 364)] {
            let r = db
                .puzzles()
                .rate_puzzle(PuzzleResult {
                    browser: BrowserId::of_token(who),
                    puzzle: puzzle.id.clone(),
                    initial: puzzle.rating,
                    solved: true,
                    at: NOW - days * DAY_MS,
                })
                .await
                .unwrap();
            assert!(r.rated);
        }
        // An abandoned game in memory (someone has it open) stays.
        let asker = Asker {
            browser: me(),
            ip: std::net::Ipv4Addr::LOCALHOST.into(),
            local: true,
        };
        state
            .create(&asker, local(record("g_inuse", Mode::Friend, 365)))
            .await
            .unwrap();

        let swept = sweep(&state.games, &state.shared, NOW, NOW).await.unwrap();
        assert_eq!(
            swept,
            Swept {
                games: 3,
                chat_lines: 2,
                device_links: 1,
                puzzle_solvers: 1,
            }
        );
        // In a block: the connection is not held across the second sweep's awaits.
        {
            let conn = db.hold_connection();
            let mut stmt = conn.prepare("SELECT id FROM games ORDER BY id").unwrap();
            let ids: Vec<String> = stmt
                .query_map([], |r| r.get(0))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
            assert_eq!(
                ids,
                [
                    "g_donenew",
                    "g_doneold",
                    "g_inuse",
                    "g_localnew",
                    "g_playnew",
                    "g_waitnew"
                ]
            );
            // The deleted games' rows are gone with them; old chat of finished games too.
            assert_eq!(
                count(&conn, "SELECT COUNT(*) FROM online_games"),
                4,
                "online rows"
            );
            assert_eq!(
                count(
                    &conn,
                    "SELECT COUNT(*) FROM online_chat WHERE game_id = 'g_doneold'"
                ),
                0
            );
            assert_eq!(
                count(&conn, "SELECT COUNT(*) FROM online_chat"),
                4,
                "g_playnew and g_donenew keep theirs"
            );
            assert_eq!(count(&conn, "SELECT COUNT(*) FROM device_links"), 4);
            assert_eq!(
                count(
                    &conn,
                    "SELECT COUNT(*) FROM online_holders WHERE game_id LIKE '%old'"
                ),
                2,
                "of the old games only g_doneold's two holders remain"
            );
        }
        let old = db
            .puzzles()
            .solver_rating(BrowserId::of_token("old solver"));
        assert_eq!(old.await.unwrap(), None);
        let new = db
            .puzzles()
            .solver_rating(BrowserId::of_token("new solver"));
        assert_eq!(new.await.unwrap().expect("kept").attempts, 1);
        let results = db
            .puzzles()
            .puzzle_results(BrowserId::of_token("old solver"));
        assert!(results.await.unwrap().is_empty());
        let kept = db
            .puzzles()
            .puzzle_rating(&puzzle.id)
            .await
            .unwrap()
            .expect("kept");
        assert_eq!(kept.attempts, 2, "the puzzle's rating stays");
        // A second sweep finds nothing more.
        let again = sweep(&state.games, &state.shared, NOW, NOW).await.unwrap();
        assert_eq!(again, Swept::default());
    }
}
