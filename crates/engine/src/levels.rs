//! Playing levels 1 to 21: what each one searches, and how the beginner levels err.
//!
//! | level | midgame depth | exact from (empties) | time cap a move | mistakes |
//! |---|---|---|---|---|
//! | 1 | 1 | — | — | any move losing up to 24 discs, almost at random among them but preferring "natural" moves |
//! | 2 | 1 | 2 | — | up to 16 discs (temperature 16) |
//! | 3 | 2 | 4 | — | up to 12 discs (temperature 6) |
//! | 4 | 2 | 6 | — | up to 6 discs (temperature 2.5) |
//! | 5 | 3 | 8 | — | up to 3 discs (temperature 1) |
//! | 6..=17 | see [`Level::spec`] | | — | none |
//! | 18 | 16 | 20 | 3 s | none |
//! | 19 | 18 | 22 | 5 s | none |
//! | 20 | 20 | 22 | 8 s | none |
//! | 21 | as deep as the cap allows | 22 | 10 s | none: the engine's full strength |
//!
//! Beginner mistakes are human-like, not random: the level evaluates every move with its
//! shallow search, keeps those losing at most `max_loss` discs against its best, and picks
//! among them with a preference for moves a beginner finds natural (flipping many discs,
//! edges, an obvious corner), weighted down as the loss grows.
//!
//! Opening book ([`BookUse`], docs/LEVELS.md): levels 1 to 9 ignore it (1-5: their human-like
//! mistakes are the point of them; 6-9: measured weaker with the shipped book than with their
//! own search, at every tolerance); from level 10 on, a level whose position is in the book
//! plays a book move instead of searching: one drawn among the moves at most 1 disc worse than
//! the book's best (their games vary). Levels 18-21 use the same tolerance: following only the
//! book's best lines was the worst policy measured (level 8: every game lost), and 1 disc is the
//! only tolerance measured at least even (level 12).
//!
//! Levels 1 to 17 stop at a depth: single-threaded, their move depends only on the position
//! and the seed. Levels 18 to 21 also stop at a time cap (a person should never wait longer
//! than the level says), so what they play depends on the machine's speed and load: they
//! reach their full depth, or finish their exact solve, only when the cap allows. A solve
//! stopped by the cap falls back to the best move of the midgame iterations before it.

use crate::search::{Limits, Selectivity};
use crate::time::Clock;
use std::time::Duration;

/// Lowest level.
pub const MIN_LEVEL: u8 = 1;

/// Highest level.
pub const MAX_LEVEL: u8 = 21;

/// The level a game against the computer gets when none is chosen, in the app, the API and
/// `virada play`: the strongest of the beginner levels (small, human-like mistakes).
pub const DEFAULT_LEVEL: u8 = 5;

/// A playing level, 1 (beginner) to 21 (maximum).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(pub u8);

/// How a beginner level errs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mistakes {
    /// Largest disc loss (against the level's own best move) a chosen move may have.
    pub max_loss: f32,
    /// Discs of loss that divide a move's weight by e (smaller = closer to best play).
    pub temperature: f32,
}

/// How a level plays from the opening book.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BookUse {
    /// Searches every move, book or not.
    Ignore,
    /// In a book position, plays a book move drawn (from the seed) among those at most
    /// `tolerance` discs worse than the book's best, without searching.
    Within { tolerance: f32 },
}

impl BookUse {
    /// Plays only the book's best moves (ties drawn from the seed).
    pub const BEST: BookUse = BookUse::Within { tolerance: 0.0 };
}

/// What a level does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevelSpec {
    /// Midgame depth in plies (`None`: as deep as the time allows).
    pub depth: Option<u32>,
    /// Solve exactly when at most this many squares are empty.
    pub exact_empties: u32,
    /// Human-like mistakes (beginner levels only).
    pub mistakes: Option<Mistakes>,
    /// Longest time a move may take (`None`: the depth alone bounds the search). The search
    /// stops at this cap and plays its best move so far.
    pub move_time: Option<Duration>,
    /// Whether and how loosely the level plays from the opening book.
    pub book: BookUse,
}

const fn mistakes(max_loss: f32, temperature: f32) -> Option<Mistakes> {
    Some(Mistakes {
        max_loss,
        temperature,
    })
}

impl Level {
    /// The level, clamped to `1..=21`.
    pub fn new(n: u8) -> Level {
        Level(n.clamp(1, MAX_LEVEL))
    }

    /// Every level, weakest first.
    pub fn all() -> impl Iterator<Item = Level> {
        (1..=MAX_LEVEL).map(Level)
    }

    /// The level's search depth, exact-solve threshold, time cap and mistakes.
    pub fn spec(self) -> LevelSpec {
        let n = self.0.clamp(1, MAX_LEVEL);
        let secs = |s: u64| Some(Duration::from_secs(s));
        // The top levels are capped so the person never waits long, with caps growing with the
        // level; their exact-solve thresholds are those the solver usually finishes within the
        // cap on one core (22 empties: 5-20 M nodes, under a second; 24 empties: often more
        // than 100 M nodes, several seconds: docs/LEVELS.md).
        let (depth, exact_empties, mistakes, move_time) = match n {
            1 => (Some(1), 0, mistakes(24.0, 200.0), None),
            2 => (Some(1), 2, mistakes(16.0, 16.0), None),
            3 => (Some(2), 4, mistakes(12.0, 6.0), None),
            4 => (Some(2), 6, mistakes(6.0, 2.5), None),
            5 => (Some(3), 8, mistakes(3.0, 1.0), None),
            // 6 -> depth 4, exact 10; every level adds a ply and every other level two
            // exact empties.
            6..=17 => (
                Some(n as u32 - 2),
                10 + 2 * ((n as u32 - 6) / 2),
                None,
                None,
            ),
            18 => (Some(16), 20, None, secs(3)),
            19 => (Some(18), 22, None, secs(5)),
            20 => (Some(20), 22, None, secs(8)),
            _ => (None, 22, None, secs(10)),
        };
        // The book: beginners search (their mistakes are what they are for), and so do levels
        // 6-9 (with the shipped book, level 8 lost 115-440 Elo against itself without it at
        // tolerances of 3 and 2 discs: docs/LEVELS.md); levels 10-17 draw among the book moves
        // within 1 disc so their games vary (level 12: +40 Elo at 1 disc, -72 at 2); the top
        // levels too: the book's best line alone lost every game at level 8, and the top levels
        // were not measured with and without the book (too slow on this machine).
        let book = match n {
            1..=9 => BookUse::Ignore,
            _ => BookUse::Within { tolerance: 1.0 },
        };
        LevelSpec {
            depth,
            exact_empties,
            mistakes,
            move_time,
            book,
        }
    }

    /// The search limits of this level: its depth, exact-solve threshold, selectivity and time
    /// cap. The maximum level has no depth limit: its cap (or a game clock that replaces it)
    /// ends the search.
    pub fn limits(self) -> Limits {
        let spec = self.spec();
        // Level 21 has no depth: a time-limited search deepens selectively until the
        // exact-solve threshold, and its cap (or clock) ends it.
        Limits {
            depth: spec.depth,
            exact_empties: Some(spec.exact_empties),
            // Level 21 is limited by time alone: the selectivity measured strongest at equal
            // time. The others keep the 95% their depths were measured with.
            selectivity: Some(if spec.depth.is_none() {
                Selectivity::TIME_LIMITED
            } else {
                Selectivity::DEFAULT
            }),
            time: spec.move_time,
            ..Limits::default()
        }
    }

    /// The limits of this level playing on a game clock, with `empties` empty squares: its
    /// depth and exact-solve threshold as ever, but never more time than the clock allows. A
    /// level's own time cap stays while it is within the clock's aim for this move
    /// ([`crate::time::budget`]); otherwise the clock's budget replaces it, and a level that
    /// stops at a depth also stops at that budget, so no level loses on time by its depth.
    pub fn limits_on_clock(self, clock: Clock, empties: u32) -> Limits {
        let mut limits = self.limits();
        let aim = crate::time::budget(&clock, empties).soft;
        match limits.time {
            Some(cap) if cap <= aim => {}
            _ => {
                limits.time = None;
                limits.clock = Some(clock);
            }
        }
        limits
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Engine, EngineConfig};
    use crate::time::TimeSource;
    use virada_rules::formats::transcript::Transcript;
    use virada_rules::{Board, Position};

    /// A balanced position with 30 empties, after an XOT opening and some play.
    fn thirty_empties() -> Board {
        let t: Transcript = "d3c3b3b2f5d2c4b5b4c5e3e2c2a4c6d6f1c1c7a3b6c8a5e7e6a6a1d7a2b1"
            .parse()
            .expect("a transcript");
        t.replay(Position::start())
            .expect("a legal test game")
            .position()
            .board()
    }

    #[test]
    fn levels_grow_monotonically() {
        let mut prev_depth = 0;
        let mut prev_exact = 0;
        let mut prev_cap = Duration::ZERO;
        for l in Level::all() {
            let s = l.spec();
            let d = s.depth.unwrap_or(u32::MAX);
            assert!(d >= prev_depth, "{l:?}");
            assert!(s.exact_empties >= prev_exact, "{l:?}");
            prev_depth = d;
            prev_exact = s.exact_empties;
            if let Some(cap) = s.move_time {
                // Once capped, every higher level is capped too, never with less time.
                assert!(cap >= prev_cap, "{l:?}: {cap:?} < {prev_cap:?}");
                prev_cap = cap;
            } else {
                assert_eq!(
                    prev_cap,
                    Duration::ZERO,
                    "{l:?} lost the cap of the level below"
                );
                assert!(s.depth.is_some(), "{l:?}: neither a depth nor a time cap");
            }
            assert_eq!(l.limits().time, s.move_time, "{l:?}");
        }
        assert!(Level(1).spec().mistakes.is_some());
        assert!(Level(6).spec().mistakes.is_none());
        // Beginners ignore the book; once a level uses it every higher level does, with a
        // tolerance that only tightens.
        let mut prev_tolerance: Option<f32> = None;
        for l in Level::all() {
            match (l.spec().mistakes, l.spec().book) {
                (Some(_), BookUse::Ignore) => {}
                (Some(_), b) => panic!("{l:?} errs like a beginner but uses the book: {b:?}"),
                (None, BookUse::Ignore) => {
                    assert!(prev_tolerance.is_none(), "{l:?} stopped using the book")
                }
                (None, BookUse::Within { tolerance }) => {
                    assert!(
                        tolerance <= prev_tolerance.unwrap_or(f32::INFINITY),
                        "{l:?}"
                    );
                    prev_tolerance = Some(tolerance);
                }
            }
        }
        assert_eq!(Level(21).spec().book, BookUse::Within { tolerance: 1.0 });
        assert_eq!(Level(8).spec().book, BookUse::Ignore);
        assert!(matches!(Level(12).spec().book, BookUse::Within { .. }));
        assert_eq!(Level::new(0), Level(1));
        assert_eq!(Level::new(99), Level(21));
        assert!(Level(21).limits().time.is_some());
        assert!(Level(21).spec().depth.is_none());
        // Only the level limited by time alone searches with the bolder selectivity.
        for l in Level::all() {
            let want = if l == Level(21) {
                Selectivity::TIME_LIMITED
            } else {
                Selectivity::DEFAULT
            };
            assert_eq!(l.limits().selectivity, Some(want), "{l:?}");
        }
    }

    #[test]
    fn the_top_levels_wait_at_most_ten_seconds() {
        for n in 18..=MAX_LEVEL {
            let l = Level(n);
            let cap = l.spec().move_time.expect("levels 18+ are time-capped");
            assert!(cap <= Duration::from_secs(10), "{l:?}: {cap:?}");
        }
    }

    /// The maximum level searches the midgame as deep as its budget allows (a time-only search
    /// once stopped at the solver's 12 shallow ordering plies and spent the rest of the budget
    /// on a solve of the whole game that could not finish).
    #[test]
    fn the_maximum_level_deepens_the_midgame_search() {
        let mut engine = Engine::new(EngineConfig {
            tt_mb: 16,
            threads: 1,
            ..EngineConfig::default()
        });
        let board = Position::start()
            .board()
            .play_unchecked(virada_rules::Square::D3);
        // A node budget in place of the cap: the same schedule, deterministically.
        let limits = Limits {
            time: None,
            nodes: Some(3_000_000),
            ..Level(21).limits()
        };
        let r = engine.search(board, &limits, None);
        assert!(!r.exact);
        assert!(r.depth > 12, "{r:?}");
    }

    /// On a game clock a level that stops at a depth stops at the clock's budget first, and a
    /// level's cap longer than the clock's aim gives way to the clock.
    #[test]
    fn levels_on_a_clock_stop_within_its_budget() {
        let board = thirty_empties();
        let empties = board.empty_count();
        let clock = Clock {
            remaining: Duration::from_millis(300),
            increment: Duration::ZERO,
        };
        let budget = crate::time::budget(&clock, empties);
        // Level 17 searches 15 plies: far more than 300 ms of simulated time allow.
        let limits = Level(17).limits_on_clock(clock, empties);
        assert_eq!(limits.depth, Some(15));
        assert_eq!(limits.clock, Some(clock));
        let mut engine = Engine::new(EngineConfig {
            tt_mb: 4,
            threads: 1,
            ..EngineConfig::default()
        });
        engine.set_time_source(TimeSource::PerNode(Duration::from_micros(1)));
        let r = engine.search(board, &limits, None);
        assert!(board.legal_moves().contains(r.best_move.square().unwrap()));
        assert!(
            r.depth < 15,
            "the clock, not the depth, ended the search: {r:?}"
        );
        assert!(
            r.elapsed < budget.hard + Duration::from_micros(65_536),
            "{r:?} against {budget:?}"
        );
        // Level 21's 10 s cap is beyond a 1-minute clock's aim early in the game: the clock
        // decides; with an hour left the cap stays.
        let minute = Clock {
            remaining: Duration::from_secs(60),
            increment: Duration::ZERO,
        };
        let l = Level(21).limits_on_clock(minute, 56);
        assert_eq!((l.time, l.clock), (None, Some(minute)));
        let hour = Clock {
            remaining: Duration::from_secs(3600),
            increment: Duration::ZERO,
        };
        let l = Level(21).limits_on_clock(hour, 40);
        assert_eq!((l.time, l.clock), (Some(Duration::from_secs(10)), None));
    }

    /// A level's limits with a short cap, on a position with more empties than the solver can
    /// finish in that time: the search stops at the cap and plays the move of its midgame
    /// iterations (a stopped solve proves nothing and must not be used).
    #[test]
    fn a_capped_level_stops_in_time_and_falls_back_from_an_unfinished_solve() {
        let board = thirty_empties();
        let empties = board.empty_count();
        assert_eq!(empties, 30);
        let mut engine = Engine::new(EngineConfig {
            tt_mb: 4,
            threads: 1,
            ..EngineConfig::default()
        });
        // Simulated time, 1 µs a node: the cap stops the search at the same node every run.
        engine.set_time_source(TimeSource::PerNode(Duration::from_micros(1)));
        let cap = Duration::from_millis(150);
        let limits = Limits {
            exact_empties: Some(empties),
            time: Some(cap),
            ..Level(20).limits()
        };
        let r = engine.search(board, &limits, None);
        assert!(board.legal_moves().contains(r.best_move.square().unwrap()));
        // A 30-empties solve takes billions of nodes: it cannot have finished in 150,000.
        assert!(!r.exact, "{r:?}");
        assert!(r.depth >= 1 && r.depth < empties, "{r:?}");
        // The cap held: the solver looks at the clock every 65,536 nodes.
        assert!(r.elapsed < cap + Duration::from_micros(65_536), "{r:?}");
        // The same fall-back, deterministic: a node budget stops the solve instead of the
        // clock. The move must be the one of the midgame iterations run before the solve.
        engine.clear();
        let budget = Limits {
            nodes: Some(1_000_000),
            time: Some(Duration::from_secs(60)),
            ..limits.clone()
        };
        let stopped = engine.search(board, &budget, None);
        assert!(!stopped.exact, "{stopped:?}");
        assert!(stopped.nodes >= 1_000_000, "the solve ran: {stopped:?}");
        assert!(stopped.depth >= 1 && stopped.depth < empties, "{stopped:?}");
        engine.clear();
        let midgame = engine.search(
            board,
            &Limits {
                depth: Some(stopped.depth),
                exact_empties: Some(0),
                time: None,
                ..limits.clone()
            },
            None,
        );
        assert_eq!(stopped.best_move, midgame.best_move);
        assert_eq!(stopped.score, midgame.score);
        // The level's own move goes through the same limits (it returns: the cap holds).
        let mv = engine.choose_move_with(board, Level(20), &limits, 7, None);
        assert!(board.legal_moves().contains(mv.square().unwrap()));
    }
}
