//! The server's view of the engine: the three operations it needs (a level's move, the values of
//! every legal move, a game review), behind a trait so that tests can put a scripted engine in
//! its place. The implementation forwards to [`virada_engine::Engine`] and returns the engine's
//! own types: a level plays the same code here as in the command line and in `virada match`.
//! One engine (with its own transposition table) per pool worker, single-threaded so that the
//! pool size bounds the CPU used.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::sync::OnceLock;
use std::time::Duration;
use virada_engine::levels::MAX_LEVEL;
use virada_engine::{
    Analysis, Book, Clock, Engine, EngineConfig, GameAnalysis, Level, Limits, Observer,
    ReviewEffort,
};
use virada_rules::formats::xot::XotOpening;
use virada_rules::{Game, Move, Position};

/// How hard to look for hints and analysis.
#[derive(Clone, Copy, Debug)]
pub struct Effort {
    /// Midgame depth.
    pub depth: u32,
    /// Solve exactly from this many empties.
    pub exact_empties: u32,
    /// Time for the whole request (a hint: its one position; an analysis: the whole game,
    /// shared out over its plies by the engine). Counted from when the engine starts on it.
    pub time: Duration,
}

impl Effort {
    /// The limits of one position (depth and exact-solve threshold; no time).
    pub fn limits(&self) -> Limits {
        Limits {
            depth: Some(self.depth),
            exact_empties: Some(self.exact_empties),
            ..Limits::default()
        }
    }
}

/// The engine operations the server uses. One instance per worker thread (it may own big
/// tables). Every operation must return promptly once `stop` is raised.
pub trait EnginePort: Send {
    /// The move `level` plays in `pos` ([`Engine::choose_move_observed`] with the level's
    /// limits, on `clock` if the game has one: [`Level::limits_on_clock`]); `observer` sees
    /// each completed iteration while it thinks.
    fn choose_move(
        &mut self,
        pos: Position,
        level: Level,
        clock: Option<Clock>,
        seed: u64,
        stop: &Arc<AtomicBool>,
        observer: &mut dyn Observer,
    ) -> Move;

    /// A value for every legal move of `pos`, best first ([`Engine::analyze`]).
    fn analyze(&mut self, pos: Position, limits: &Limits, stop: &Arc<AtomicBool>) -> Analysis;

    /// A review of every played move of `game` within `effort`'s node budget
    /// ([`Engine::review_game`]).
    fn review_game(
        &mut self,
        game: &Game,
        effort: &ReviewEffort,
        stop: &Arc<AtomicBool>,
    ) -> GameAnalysis;
}

/// Transposition table of each worker's engine, in MiB.
pub const ENGINE_TT_MB: usize = 64;

/// The engine configuration of a pool worker: single-threaded (the pool size bounds the CPU).
pub fn worker_engine_config() -> EngineConfig {
    EngineConfig {
        tt_mb: ENGINE_TT_MB,
        threads: 1,
        ..EngineConfig::default()
    }
}

/// A fresh engine for one worker thread, with the shipped opening book: the levels play from
/// it, hints and reviews take its values in book positions.
pub fn new_engine() -> Box<dyn EnginePort> {
    let mut engine = Engine::new(worker_engine_config());
    engine.set_book(Book::shipped());
    Box::new(engine)
}

/// A worker engine without the book: every move searched (tests that need the computer to
/// think from the start position).
pub fn new_engine_without_book() -> Box<dyn EnginePort> {
    Box::new(Engine::new(worker_engine_config()))
}

impl EnginePort for Engine {
    fn choose_move(
        &mut self,
        pos: Position,
        level: Level,
        clock: Option<Clock>,
        seed: u64,
        stop: &Arc<AtomicBool>,
        observer: &mut dyn Observer,
    ) -> Move {
        let limits = match clock {
            Some(clock) => level.limits_on_clock(clock, pos.board().empty_count()),
            None => level.limits(),
        };
        self.choose_move_observed(
            pos.board(),
            level,
            &limits,
            seed,
            Some(stop.clone()),
            observer,
        )
    }

    fn analyze(&mut self, pos: Position, limits: &Limits, stop: &Arc<AtomicBool>) -> Analysis {
        Engine::analyze(self, pos.board(), limits, Some(stop.clone()))
    }

    fn review_game(
        &mut self,
        game: &Game,
        effort: &ReviewEffort,
        stop: &Arc<AtomicBool>,
    ) -> GameAnalysis {
        Engine::review_game(self, game, effort, Some(stop.clone()))
    }
}

/// The highest level.
pub fn max_level() -> u8 {
    MAX_LEVEL
}

/// The engine's balanced XOT openings (parsed once).
fn xot_list() -> &'static [XotOpening] {
    static LIST: OnceLock<Vec<XotOpening>> = OnceLock::new();
    LIST.get_or_init(virada_engine::openings::builtin)
}

/// The XOT opening number `pick % count`: its moves (`f5d6c4d3c2b3b4b5`) and the position after
/// them (Black to move).
pub fn xot_opening(pick: u64) -> Result<(String, Position), String> {
    let list = xot_list();
    if list.is_empty() {
        return Err("the XOT opening list is empty".into());
    }
    let o = &list[(pick % list.len() as u64) as usize];
    let moves: String = o.moves().iter().map(|s| s.to_string()).collect();
    Ok((moves, o.position()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use virada_engine::Iteration;
    use virada_rules::formats::transcript::Transcript;

    fn game(transcript: &str) -> Game {
        let t: Transcript = transcript.parse().unwrap();
        t.replay(Position::start()).unwrap()
    }

    fn engine() -> Engine {
        Engine::new(EngineConfig {
            tt_mb: 4,
            threads: 1,
            ..EngineConfig::default()
        })
    }

    /// A level plays the same move through the server's port as through `Engine` directly
    /// (same level, seed and position; one thread, so node counts are deterministic too).
    #[test]
    fn a_level_plays_the_same_move_through_the_port_and_the_engine() {
        let game = game("f5d6c3d3c4f4c5b3c2");
        let pos = game.position();
        let stop = Arc::new(AtomicBool::new(false));
        for n in [1, 3, 5, 8, 12] {
            let level = Level(n);
            for seed in [1, 99] {
                let mut port: Box<dyn EnginePort> = Box::new(engine());
                let mut seen = Vec::new();
                let through_port =
                    port.choose_move(pos, level, None, seed, &stop, &mut |it: &Iteration| {
                        seen.push((it.depth, it.best_move, it.nodes))
                    });
                let mut direct = engine();
                let mut direct_seen = Vec::new();
                let direct_move = direct.choose_move_observed(
                    pos.board(),
                    level,
                    &level.limits(),
                    seed,
                    None,
                    &mut |it: &Iteration| direct_seen.push((it.depth, it.best_move, it.nodes)),
                );
                assert_eq!(through_port, direct_move, "level {n} seed {seed}");
                assert_eq!(seen, direct_seen, "level {n} seed {seed}");
                assert!(!seen.is_empty(), "level {n}: the observer saw the search");
                assert_eq!(
                    direct_move,
                    direct.choose_move(pos.board(), level, seed, None)
                );
            }
        }
    }

    /// The observer reports each depth of a level's search as it completes: what the app's
    /// "thinking" display shows, deterministically (no clock involved).
    #[test]
    fn the_port_reports_every_completed_depth() {
        let pos = Position::start();
        let stop = Arc::new(AtomicBool::new(false));
        let mut depths = Vec::new();
        let mut port = engine();
        let mv = EnginePort::choose_move(
            &mut port,
            pos,
            Level(8),
            None,
            5,
            &stop,
            &mut |it: &Iteration| depths.push(it.depth),
        );
        assert_eq!(depths, (1..=6).collect::<Vec<_>>());
        assert!(pos.legal_moves().contains(mv.square().unwrap()));
    }

    /// Hints through the port: in a book position every move carries the book's value and
    /// `"book": true`; out of the book the values are searched and `"book": false`.
    #[test]
    fn hint_values_come_from_the_book_in_book_positions_only() {
        use virada_engine::book::LeafMove;
        let start = Position::start();
        let mut book = virada_engine::Book::new();
        let values = [(-1.5, "d3"), (-0.5, "c4"), (-0.5, "f5"), (-0.5, "e6")];
        let moves = values
            .iter()
            .map(|(v, sq)| LeafMove::new(sq.parse().unwrap(), *v, 24, false))
            .collect();
        assert!(book.insert(start.board(), moves));
        book.fix();
        let mut port = engine();
        port.set_book(Some(Box::leak(Box::new(book))));
        let stop = Arc::new(AtomicBool::new(false));
        let limits = Limits::depth(4);
        let a = EnginePort::analyze(&mut port, start, &limits, &stop);
        let hint = serde_json::to_value(crate::view::hint_view(1, &a)).unwrap();
        let moves = hint["moves"].as_array().unwrap();
        assert_eq!(moves.len(), 4);
        for m in moves {
            assert_eq!(m["book"], true, "{m}");
        }
        let d3 = moves.iter().find(|m| m["square"] == "d3").unwrap();
        assert_eq!(d3["value"], -1.5);
        assert_eq!(d3["best"], false);
        // One move later the position is not in this book: searched values.
        let next = start.play("f5".parse().unwrap()).unwrap();
        let a = EnginePort::analyze(&mut port, next, &limits, &stop);
        let hint = serde_json::to_value(crate::view::hint_view(2, &a)).unwrap();
        assert!(hint["moves"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["book"] == false));
    }

    /// A stop raised before the review starts gives an incomplete review, never one that
    /// looks complete.
    #[test]
    fn a_stopped_review_is_incomplete() {
        let game = game("f5d6c3d3c4f4");
        let stop = Arc::new(AtomicBool::new(true));
        let mut port = engine();
        let effort = ReviewEffort::with_nodes(1_000_000);
        let r = EnginePort::review_game(&mut port, &game, &effort, &stop);
        assert!(!r.complete);
        let stop = Arc::new(AtomicBool::new(false));
        let r = EnginePort::review_game(&mut port, &game, &effort, &stop);
        assert!(r.complete, "{r:?}");
        assert_eq!(r.plies.len(), 6);
    }
}
