//! The server's view of the engine: the few operations it needs (choose a move at a level, value
//! every legal move, review a game), behind a trait so the rest of the server does not depend on
//! engine internals.
//! The implementation is [`virada_engine::Engine`]: one engine (with its own transposition
//! table) per pool worker, single-threaded so that the pool size bounds the CPU used.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::sync::OnceLock;
use std::time::Duration;
use std::time::Instant;
use virada_engine::levels::MAX_LEVEL;
use virada_engine::{Engine, EngineConfig, Level, Limits};
use virada_rules::formats::xot::XotOpening;
use virada_rules::{Color, Game, Move, Position};

/// A computer level as shown to players.
#[derive(Clone, Debug)]
pub struct LevelInfo {
    pub level: u8,
    pub name_en: String,
    pub name_pt: String,
    pub description_en: String,
    pub description_pt: String,
    /// Midgame search depth (`None`: as deep as its time allows).
    pub depth: Option<u32>,
    /// Empties from which the level plays the endgame perfectly (0: never).
    pub exact_empties: u32,
    /// Longest time a move may take, in seconds (`None`: bounded by the depth alone).
    pub max_move_seconds: Option<f64>,
}

/// What the engine reports while it thinks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    pub depth: u32,
    pub best: Option<Move>,
    /// Discs, side to move's view.
    pub value: Option<f32>,
}

/// The value of one legal move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveValue {
    pub mv: Move,
    /// Discs (final WOF difference), from the mover's view.
    pub value: f32,
    pub exact: bool,
}

/// Every legal move with its value, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct HintResult {
    pub moves: Vec<MoveValue>,
    pub depth: u32,
}

/// The review of one ply of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct PlyReview {
    /// 1-based.
    pub ply: usize,
    pub color: Color,
    pub played: Move,
    /// Discs, from the mover's view.
    pub played_value: f32,
    pub best_move: Move,
    pub best_value: f32,
    /// `best_value - played_value` (never negative).
    pub loss: f32,
    pub exact: bool,
}

/// How hard to look for hints and analysis.
#[derive(Clone, Copy, Debug)]
pub struct Effort {
    /// Midgame depth.
    pub depth: u32,
    /// Solve exactly from this many empties.
    pub exact_empties: u32,
    /// Wall-clock budget for the whole request.
    pub time: Duration,
}

/// The engine operations the server uses. One instance per worker thread (it may own big tables).
pub trait EnginePort: Send {
    /// The computer's move at `level` (1..=max). Must return a legal move promptly once `stop`
    /// is set. `progress` is called from time to time while thinking.
    fn choose_move(
        &mut self,
        pos: Position,
        level: u8,
        seed: u64,
        stop: &Arc<AtomicBool>,
        progress: &mut dyn FnMut(Progress),
    ) -> Move;

    /// A value for every legal move of `pos`, best first.
    fn hint(&mut self, pos: Position, effort: &Effort, stop: &Arc<AtomicBool>) -> HintResult;

    /// A review of every ply of `game` (passes included, with loss 0).
    fn analyze_game(
        &mut self,
        game: &Game,
        effort: &Effort,
        stop: &Arc<AtomicBool>,
    ) -> Vec<PlyReview>;
}

/// Transposition table of each worker's engine, in MiB.
pub const ENGINE_TT_MB: usize = 64;

/// A fresh engine for one worker thread.
pub fn new_engine() -> Box<dyn EnginePort> {
    Box::new(RealEngine {
        engine: Engine::new(EngineConfig {
            tt_mb: ENGINE_TT_MB,
            threads: 1,
            ..EngineConfig::default()
        }),
    })
}

/// A name for each band of levels.
fn level_name(level: u8) -> (&'static str, &'static str) {
    match level {
        1..=5 => ("Beginner", "Iniciante"),
        6..=10 => ("Intermediate", "Intermediário"),
        11..=15 => ("Advanced", "Avançado"),
        16..=20 => ("Expert", "Especialista"),
        _ => ("Maximum", "Máximo"),
    }
}

/// The levels offered to players (from the engine's own descriptions).
pub fn levels() -> Vec<LevelInfo> {
    Level::all()
        .map(|l| {
            let spec = l.spec();
            let (en, pt) = level_name(l.0);
            LevelInfo {
                level: l.0,
                name_en: en.to_string(),
                name_pt: pt.to_string(),
                description_en: l.describe(),
                description_pt: l.describe_pt(),
                depth: spec.depth,
                exact_empties: spec.exact_empties,
                max_move_seconds: spec.move_time.map(|t| t.as_secs_f64()),
            }
        })
        .collect()
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

/// [`EnginePort`] over the real engine.
struct RealEngine {
    engine: Engine,
}

fn effort_limits(effort: &Effort, time: std::time::Duration) -> Limits {
    Limits {
        depth: Some(effort.depth),
        exact_empties: Some(effort.exact_empties),
        time: Some(time),
        ..Limits::default()
    }
}

/// Searches `board` at depths 1, 2, .. `depth` (the table makes the earlier depths cheap),
/// reporting each result, within the level's time cap (`full.time`) over all the calls: like a single
/// search, no deeper step starts once 45% of the cap is used (it could not finish), and the
/// step running when the cap expires stops with its best move so far. `None` when stopped
/// before the first result.
fn deepen(
    engine: &mut Engine,
    board: virada_rules::Board,
    full: &Limits,
    depth: u32,
    stop: &Arc<AtomicBool>,
    progress: &mut dyn FnMut(Progress),
) -> Option<Move> {
    let start = Instant::now();
    let mut best = None;
    for d in 1..=depth {
        let time = match full.time {
            Some(cap) => {
                let used = start.elapsed();
                if best.is_some() && used >= cap.mul_f32(virada_engine::time::LAST_ITERATION_START)
                {
                    break;
                }
                Some(cap.saturating_sub(used))
            }
            None => None,
        };
        let limits = Limits {
            depth: Some(d),
            time,
            ..full.clone()
        };
        let r = engine.search(board, &limits, Some(stop.clone()));
        best = Some(r.best_move);
        progress(Progress {
            depth: r.depth,
            best: Some(r.best_move),
            value: Some(r.score),
        });
        // A step short of its depth ran out of time.
        if stop.load(Ordering::Relaxed) || r.exact || r.depth < d {
            break;
        }
    }
    best
}

impl EnginePort for RealEngine {
    fn choose_move(
        &mut self,
        pos: Position,
        level: u8,
        seed: u64,
        stop: &Arc<AtomicBool>,
        progress: &mut dyn FnMut(Progress),
    ) -> Move {
        let level = Level::new(level);
        let board = pos.board();
        let spec = level.spec();
        let empties = 64 - (board.player | board.opponent).count_ones();
        // Levels that play the engine's best move at a fixed depth deepen one ply at a time
        // (the table makes the earlier depths cheap), so the person sees the depth, the best
        // move and its value grow. Beginner levels (fast), the maximum level (time-managed)
        // and exact endgames (one solve) are a single call.
        let stepwise = spec.mistakes.is_none() && empties > spec.exact_empties;
        if let (true, Some(depth)) = (stepwise, spec.depth) {
            let full = level.limits();
            if let Some(mv) = deepen(&mut self.engine, board, &full, depth, stop, progress) {
                return mv;
            }
        }
        let mv = self
            .engine
            .choose_move(board, level, seed, Some(stop.clone()));
        progress(Progress {
            depth: spec.depth.unwrap_or(0),
            best: Some(mv),
            value: None,
        });
        mv
    }

    fn hint(&mut self, pos: Position, effort: &Effort, stop: &Arc<AtomicBool>) -> HintResult {
        let a = self.engine.analyze(
            pos.board(),
            &effort_limits(effort, effort.time),
            Some(stop.clone()),
        );
        HintResult {
            depth: a.moves.iter().map(|m| m.depth).max().unwrap_or(0),
            moves: a
                .moves
                .iter()
                .filter(|m| m.mv != Move::Pass)
                .map(|m| MoveValue {
                    mv: m.mv,
                    value: m.value,
                    exact: m.exact,
                })
                .collect(),
        }
    }

    fn analyze_game(
        &mut self,
        game: &Game,
        effort: &Effort,
        stop: &Arc<AtomicBool>,
    ) -> Vec<PlyReview> {
        // The budget is shared out over the moves still to analyse, so a long game is reviewed
        // completely (shallower) rather than cut off.
        let deadline = Instant::now() + effort.time;
        let plays = game.moves().iter().filter(|m| **m != Move::Pass).count();
        let mut left = plays.max(1) as u32;
        let mut out = Vec::with_capacity(game.ply());
        for (i, (&mv, pos)) in game.moves().iter().zip(game.positions()).enumerate() {
            let color = pos.side_to_move();
            if mv == Move::Pass {
                let value = out.last().map_or(0.0, |r: &PlyReview| -r.played_value);
                out.push(PlyReview {
                    ply: i + 1,
                    color,
                    played: mv,
                    played_value: value,
                    best_move: mv,
                    best_value: value,
                    loss: 0.0,
                    exact: false,
                });
                continue;
            }
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let share = deadline.saturating_duration_since(Instant::now()) / left;
            left = left.saturating_sub(1).max(1);
            let a = self.engine.analyze(
                pos.board(),
                &effort_limits(effort, share.max(std::time::Duration::from_millis(5))),
                Some(stop.clone()),
            );
            let (Some(best), Some(played)) = (a.best(), a.value_of(mv)) else {
                continue;
            };
            out.push(PlyReview {
                ply: i + 1,
                color,
                played: mv,
                played_value: played.value,
                best_move: best.mv,
                best_value: best.value,
                loss: (best.value - played.value).max(0.0),
                exact: best.exact && played.exact,
            });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use virada_engine::EngineConfig;

    /// The app's step-by-step deepening keeps to the level's time cap over all its steps.
    #[test]
    fn stepwise_deepening_keeps_to_the_time_cap() {
        let mut engine = Engine::new(EngineConfig {
            tt_mb: 4,
            threads: 1,
            ..EngineConfig::default()
        });
        let board = Position::start()
            .board()
            .play_unchecked(virada_rules::Square::D3);
        let cap = Duration::from_millis(300);
        let full = Limits {
            time: Some(cap),
            ..Level(18).limits()
        };
        let stop = Arc::new(AtomicBool::new(false));
        let mut depths = Vec::new();
        let t = Instant::now();
        let mv = deepen(&mut engine, board, &full, 30, &stop, &mut |p| {
            depths.push(p.depth)
        });
        let took = t.elapsed();
        let mv = mv.expect("a move");
        assert!(board.legal_moves().contains(mv.square().unwrap()));
        // Depth 30 from the opening takes far more than 300 ms: the cap ended the steps early.
        // Without the cap the steps would each have taken their full time (slack for a loaded
        // machine).
        assert!(depths.len() < 30 && !depths.is_empty(), "{depths:?}");
        assert!(depths.iter().all(|&d| d < 30), "{depths:?}");
        assert!(took < Duration::from_secs(3), "took {took:?}");
    }
}
