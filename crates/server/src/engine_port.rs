//! The server's view of the engine: the few operations it needs (choose a move at a level, value
//! every legal move, review a game), behind a trait so the rest of the server does not depend on
//! engine internals.
//!
//! TODO(engine-merge): the implementation below is TEMPORARY (a one-ply greedy picker built on
//! virada-rules only) until `virada_engine::Engine` lands on main; it is then replaced by the
//! real engine and removed.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use virada_rules::{Color, Game, Move, Position};

/// A computer level as shown to players.
#[derive(Clone, Debug)]
pub struct LevelInfo {
    pub level: u8,
    pub name_en: String,
    pub name_pt: String,
    pub description_en: String,
    pub description_pt: String,
    /// Midgame search depth.
    pub depth: u32,
    /// Empties from which the level plays the endgame perfectly (0: never).
    pub exact_empties: u32,
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

/// A fresh engine for one worker thread.
pub fn new_engine() -> Box<dyn EnginePort> {
    Box::new(GreedyEngine)
}

/// The levels offered to players.
pub fn levels() -> Vec<LevelInfo> {
    // TODO(engine-merge): from virada_engine::Level::describe().
    (1..=3)
        .map(|level| LevelInfo {
            level,
            name_en: format!("Level {level}"),
            name_pt: format!("Nível {level}"),
            description_en: "Temporary one-ply player".into(),
            description_pt: "Jogador temporário de um lance".into(),
            depth: 1,
            exact_empties: 0,
        })
        .collect()
}

/// The balanced XOT openings (moves as `f5d6c4d3c2b3b4b5`).
pub fn xot_openings() -> Result<Vec<String>, String> {
    // TODO(engine-merge): the engine's own balanced list (crates/engine/data/openings.txt).
    Err("XOT openings are not available in this build yet".into())
}

/// TEMPORARY: values each move by the disc difference right after it (no search).
struct GreedyEngine;

fn greedy_values(pos: Position) -> Vec<MoveValue> {
    let mut out: Vec<MoveValue> = pos
        .legal_moves()
        .iter()
        .map(|sq| {
            let after = pos.play_unchecked(Move::Play(sq));
            let me = pos.side_to_move();
            let diff = after.discs(me).count() as f32 - after.discs(!me).count() as f32;
            MoveValue {
                mv: Move::Play(sq),
                value: diff,
                exact: after.is_game_over(),
            }
        })
        .collect();
    out.sort_by(|a, b| b.value.total_cmp(&a.value));
    out
}

impl EnginePort for GreedyEngine {
    fn choose_move(
        &mut self,
        pos: Position,
        _level: u8,
        _seed: u64,
        _stop: &Arc<AtomicBool>,
        progress: &mut dyn FnMut(Progress),
    ) -> Move {
        let values = greedy_values(pos);
        let best = values.first().map(|v| v.mv).unwrap_or(Move::Pass);
        progress(Progress {
            depth: 1,
            best: Some(best),
            value: values.first().map(|v| v.value),
        });
        best
    }

    fn hint(&mut self, pos: Position, _effort: &Effort, _stop: &Arc<AtomicBool>) -> HintResult {
        HintResult {
            moves: greedy_values(pos),
            depth: 1,
        }
    }

    fn analyze_game(
        &mut self,
        game: &Game,
        _effort: &Effort,
        stop: &Arc<AtomicBool>,
    ) -> Vec<PlyReview> {
        let mut out = Vec::new();
        for (i, (&mv, pos)) in game.moves().iter().zip(game.positions()).enumerate() {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let values = greedy_values(*pos);
            let (best_move, best_value) = values
                .first()
                .map(|v| (v.mv, v.value))
                .unwrap_or((Move::Pass, 0.0));
            let played_value = values
                .iter()
                .find(|v| v.mv == mv)
                .map(|v| v.value)
                .unwrap_or(best_value);
            out.push(PlyReview {
                ply: i + 1,
                color: pos.side_to_move(),
                played: mv,
                played_value,
                best_move,
                best_value,
                loss: (best_value - played_value).max(0.0),
                exact: false,
            });
        }
        out
    }
}
