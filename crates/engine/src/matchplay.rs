//! Engine-versus-engine matches from balanced openings, each played twice with colours
//! swapped, in parallel; results with an Elo difference and its error margin.

use crate::engine::{Engine, EngineConfig};
use crate::eval::{default_evaluator, EvalV1, Evaluator};
use crate::levels::Level;
use crate::search::{Limits, Selectivity};
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use virada_rules::{Color, Game, Move};

/// One side of a match: a level, or explicit search limits, and an evaluation; or one of two
/// reference players without search.
///
/// Text form (comma-separated `key=value`): `level=N`, `depth=N`, `exact=N` (exact-solve
/// empties), `time=S` (seconds per move), `nodes=N`, `sel=P` (selectivity percent), `eval=v1`,
/// `eval=trained`, `eval=default` or `eval=<file>.vpw` (the trained evaluation with another
/// weights file). Examples: `level=5`, `depth=8,exact=14`, `time=0.2`, `eval=gen2.vpw`.
/// `greedy` plays the move that flips the most discs (what someone who just learnt the rules
/// tends to do); `random` plays a uniformly random legal move. Both are seeded.
///
/// ```
/// use virada_engine::matchplay::PlayerSettings;
/// let p: PlayerSettings = "depth=6,exact=12".parse().unwrap();
/// assert_eq!(p.limits.depth, Some(6));
/// assert!("depth=x".parse::<PlayerSettings>().is_err());
/// ```
#[derive(Clone)]
pub struct PlayerSettings {
    /// Plays as this level (its mistakes included) when set; `limits` then override nothing.
    pub level: Option<Level>,
    pub limits: Limits,
    pub evaluator: Arc<dyn Evaluator>,
    /// The text it was parsed from (for reports).
    pub label: String,
    /// A reference player without search, instead of the engine.
    pub reference: Option<Reference>,
}

/// Players without search, to anchor the level ladder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reference {
    /// The move flipping the most discs (ties broken at random).
    Greedy,
    /// A uniformly random legal move.
    Random,
}

impl Reference {
    /// The move this player chooses on `board` (which has legal moves).
    pub fn choose(self, board: &virada_rules::Board, seed: u64) -> Move {
        let moves: Vec<virada_rules::Square> = board.legal_moves().iter().collect();
        let r = crate::engine::splitmix64(seed ^ board.hash());
        let pick = match self {
            Reference::Random => moves[(r % moves.len() as u64) as usize],
            Reference::Greedy => {
                let most = moves
                    .iter()
                    .map(|&m| board.flips(m).count())
                    .max()
                    .unwrap_or(0);
                let best: Vec<_> = moves
                    .iter()
                    .copied()
                    .filter(|&m| board.flips(m).count() == most)
                    .collect();
                best[(r % best.len() as u64) as usize]
            }
        };
        Move::Play(pick)
    }
}

impl fmt::Debug for PlayerSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label)
    }
}

impl FromStr for PlayerSettings {
    type Err = String;

    fn from_str(s: &str) -> Result<PlayerSettings, String> {
        let mut p = PlayerSettings {
            level: None,
            limits: Limits::default(),
            evaluator: default_evaluator(),
            label: s.to_string(),
            reference: None,
        };
        match s.trim() {
            "greedy" => p.reference = Some(Reference::Greedy),
            "random" => p.reference = Some(Reference::Random),
            _ => {}
        }
        if p.reference.is_some() {
            return Ok(p);
        }
        for part in s.split(',').map(str::trim).filter(|x| !x.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("engine setting '{part}' is not key=value"))?;
            let num = |what: &str| -> Result<f64, String> {
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite() && *v >= 0.0)
                    .ok_or_else(|| format!("engine setting {key}: '{value}' is not a {what}"))
            };
            match key {
                "level" => {
                    let n = num("level 1-21")? as u8;
                    if !(1..=crate::levels::MAX_LEVEL).contains(&n) {
                        return Err(format!("engine setting level: {value} is not in 1-21"));
                    }
                    p.level = Some(Level(n));
                    p.limits = Level(n).limits();
                }
                "depth" => p.limits.depth = Some(num("depth")? as u32),
                "exact" => p.limits.exact_empties = Some(num("number of empties")? as u32),
                "time" => p.limits.time = Some(Duration::from_secs_f64(num("time in seconds")?)),
                "nodes" => p.limits.nodes = Some(num("node count")? as u64),
                "sel" => {
                    p.limits.selectivity = Some(Selectivity::from_percent(num("percent")? as u8))
                }
                "eval" => {
                    p.evaluator = match value {
                        "v1" => Arc::new(EvalV1::new()),
                        "default" => default_evaluator(),
                        "trained" => crate::eval::pattern_eval::trained()
                            .map_err(|e| format!("engine setting eval=trained: {e}"))?,
                        // gen2 or gen3 weights, told apart by the file header.
                        path if path.ends_with(".vpw") => {
                            crate::eval::gen3::load_weights_file(std::path::Path::new(path))
                                .map_err(|e| format!("engine setting eval={path}: {e}"))?
                        }
                        _ => {
                            return Err(format!(
                        "engine setting eval: unknown evaluation '{value}' (v1, trained, default, \
                         or a weights file ending in .vpw)"
                    ))
                        }
                    }
                }
                _ => {
                    return Err(format!(
                    "unknown engine setting '{key}' (level, depth, exact, time, nodes, sel, eval)"
                ))
                }
            }
        }
        Ok(p)
    }
}

/// One finished match game.
#[derive(Clone, Debug)]
pub struct MatchGame {
    /// Index of the opening in the list.
    pub opening: usize,
    /// Whether player A had Black.
    pub a_black: bool,
    pub game: Game,
    /// Final WOF disc difference from A's view.
    pub a_score: i32,
}

/// Match totals from player A's view.
#[derive(Clone, Debug, Default)]
pub struct MatchResult {
    pub games: Vec<MatchGame>,
}

impl MatchResult {
    pub fn wins(&self) -> usize {
        self.games.iter().filter(|g| g.a_score > 0).count()
    }
    pub fn draws(&self) -> usize {
        self.games.iter().filter(|g| g.a_score == 0).count()
    }
    pub fn losses(&self) -> usize {
        self.games.iter().filter(|g| g.a_score < 0).count()
    }

    /// Average disc difference (A minus B).
    pub fn average_discs(&self) -> f64 {
        let n = self.games.len().max(1) as f64;
        self.games.iter().map(|g| g.a_score as f64).sum::<f64>() / n
    }

    /// A's score: (wins + draws / 2) / games, 0..1.
    pub fn score(&self) -> f64 {
        let n = self.games.len().max(1) as f64;
        (self.wins() as f64 + 0.5 * self.draws() as f64) / n
    }

    /// Elo difference (A minus B) and its 95% error margin, from the per-game scores (a
    /// normal approximation; at 0% or 100% the score is nudged half a game inwards).
    pub fn elo(&self) -> (f64, f64) {
        let n = self.games.len().max(1) as f64;
        let half = 0.5 / n;
        let p = self.score().clamp(half, 1.0 - half);
        let elo = -400.0 * (1.0 / p - 1.0).log10();
        let per_game: Vec<f64> = self
            .games
            .iter()
            .map(|g| match g.a_score.signum() {
                1 => 1.0,
                0 => 0.5,
                _ => 0.0,
            })
            .collect();
        let mean = per_game.iter().sum::<f64>() / n;
        let mut var = per_game.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n;
        if var == 0.0 {
            // Identical results (all wins, say) carry no spread of their own: use the binomial
            // variance at the nudged score rather than claim a zero margin.
            var = p * (1.0 - p);
        }
        let se = (var / n).sqrt();
        let slope = 400.0 / (std::f64::consts::LN_10 * p * (1.0 - p));
        (elo, 1.96 * se * slope)
    }
}

/// Plays one game from `start` between `black` and `white`. `seed` drives beginner levels.
pub fn play_game(
    start: &Game,
    black: (&mut Engine, &PlayerSettings),
    white: (&mut Engine, &PlayerSettings),
    seed: u64,
) -> Game {
    let mut game = start.clone();
    let (be, bs) = black;
    let (we, ws) = white;
    be.clear();
    we.clear();
    while !game.is_over() {
        let pos = game.position();
        let (engine, settings) = match pos.side_to_move() {
            Color::Black => (&mut *be, bs),
            Color::White => (&mut *we, ws),
        };
        let seed = seed.wrapping_add(game.ply() as u64);
        let mv = if pos.board().moves() == 0 {
            Move::Pass
        } else if let Some(r) = settings.reference {
            r.choose(&pos.board(), seed)
        } else {
            match settings.level {
                Some(level) => {
                    engine.choose_move_with(pos.board(), level, &settings.limits, seed, None)
                }
                None => engine.search(pos.board(), &settings.limits, None).best_move,
            }
        };
        game.play(mv).expect("engines play legal moves");
    }
    game
}

/// Plays `games` games between `a` and `b`: game `i` starts from opening `i / 2` (cycling
/// through `openings`), A has Black in even games. `threads` games run at once, each engine
/// single-threaded; `progress(done, total)` is called after each game.
pub fn run_match(
    a: &PlayerSettings,
    b: &PlayerSettings,
    openings: &[Game],
    games: usize,
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> MatchResult {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results = Mutex::new(Vec::with_capacity(games));
    let default_start = [Game::new()];
    let openings = if openings.is_empty() {
        &default_start[..]
    } else {
        openings
    };
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                let engine = |p: &PlayerSettings| {
                    Engine::new(EngineConfig {
                        tt_mb: 16,
                        threads: 1,
                        evaluator: p.evaluator.clone(),
                    })
                };
                let (mut ea, mut eb) = (engine(a), engine(b));
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games {
                        break;
                    }
                    let opening = (i / 2) % openings.len();
                    let a_black = i & 1 == 0;
                    // Both games of an opening share the seed: only the colours differ.
                    let seed = (opening as u64) << 8;
                    let game = if a_black {
                        play_game(&openings[opening], (&mut ea, a), (&mut eb, b), seed)
                    } else {
                        play_game(&openings[opening], (&mut eb, b), (&mut ea, a), seed)
                    };
                    let black_score = game.result().map_or(0, |r| r.difference_for(Color::Black));
                    let a_score = if a_black { black_score } else { -black_score };
                    results.lock().unwrap_or_else(|e| e.into_inner()).push((
                        i,
                        MatchGame {
                            opening,
                            a_black,
                            game,
                            a_score,
                        },
                    ));
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1, games);
                }
            });
        }
    });
    let mut games = results.into_inner().unwrap_or_else(|e| e.into_inner());
    games.sort_by_key(|g| g.0);
    MatchResult {
        games: games.into_iter().map(|g| g.1).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_parse_and_reject_bad_input() {
        let p: PlayerSettings = "level=3".parse().unwrap();
        assert_eq!(p.level, Some(Level(3)));
        let p: PlayerSettings = "time=0.5, sel=87, eval=v1".parse().unwrap();
        assert_eq!(p.limits.time, Some(Duration::from_millis(500)));
        assert_eq!(p.evaluator.name(), "v1");
        for bad in [
            "level=0",
            "level=30",
            "depth",
            "foo=1",
            "eval=zzz",
            "time=-1",
            "eval=/nonexistent.vpw",
        ] {
            assert!(bad.parse::<PlayerSettings>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_deeper_engine_beats_a_one_ply_engine() {
        let a: PlayerSettings = "depth=4,exact=8".parse().unwrap();
        let b: PlayerSettings = "depth=1,exact=0".parse().unwrap();
        let list = crate::openings::builtin();
        let openings: Vec<Game> = list
            .iter()
            .step_by(list.len() / 5)
            .take(5)
            .map(|o| o.game())
            .collect();
        let r = run_match(&a, &b, &openings, 10, 2, &|_, _| {});
        assert_eq!(r.games.len(), 10);
        assert!(r.games.iter().all(|g| g.game.is_over()));
        // Each opening is played with both colours.
        assert_eq!(r.games[0].opening, r.games[1].opening);
        assert_ne!(r.games[0].a_black, r.games[1].a_black);
        assert!(r.score() > 0.5, "depth 4 scored {}", r.score());
        let (elo, margin) = r.elo();
        assert!(elo > 0.0 && margin >= 0.0);
    }
}
