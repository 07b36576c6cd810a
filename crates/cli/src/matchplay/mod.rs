//! Matches between two players (our engine at any settings, reference players, or external
//! engines over GTP or NBoard) from balanced openings, each played twice with colours swapped,
//! several games at once; results with W-D-L, Elo and its error margin, disc margin and time.
//!
//! An external engine that crashes, stays silent past its time, breaks the protocol or plays
//! an illegal move loses that game (scored 64-0), with the reason recorded; it is restarted
//! for the next game and the match goes on.

pub mod control;
pub mod gtp_player;
pub mod nboard_player;
pub mod player;
pub mod process;
pub mod result;
pub mod settings;

pub use control::TimeControl;
pub use result::{MatchGame, MatchResult, Side};
pub use settings::PlayerSpec;

use gtp_player::GtpPlayer;
use nboard_player::NboardPlayer;
use player::{InternalPlayer, Player};
use process::EngineFailure;
use settings::Protocol;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use virada_rules::{Color, Game};

/// Starts the player `spec` describes (a child process for an external engine, which has
/// answered its handshake when this returns).
fn start_player(spec: &PlayerSpec) -> Result<Box<dyn Player>, EngineFailure> {
    Ok(match spec {
        PlayerSpec::Internal(s) => Box::new(InternalPlayer::new(s.clone())),
        PlayerSpec::External(e) => match e.protocol {
            Protocol::Gtp => Box::new(GtpPlayer::start(e)?),
            Protocol::Nboard => Box::new(NboardPlayer::start(e)?),
        },
    })
}

/// A game as played: the moves, who forfeited (and why), time used by Black and White.
pub struct PlayedGame {
    pub game: Game,
    pub forfeit: Option<(Color, String)>,
    /// Thinking time of Black and White.
    pub time: [Duration; 2],
    /// Moves each chose (forced passes, played without asking, not counted).
    pub moves: [usize; 2],
}

fn index(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// Plays one game from `start` between `black` and `white`; `seed` drives beginner levels.
/// A forced pass is played without asking the player.
pub fn play_game<'p>(
    start: &Game,
    black: &mut (dyn Player + 'p),
    white: &mut (dyn Player + 'p),
    seed: u64,
) -> PlayedGame {
    let mut played = PlayedGame {
        game: start.clone(),
        forfeit: None,
        time: [Duration::ZERO; 2],
        moves: [0; 2],
    };
    for (color, p) in [(Color::Black, &mut *black), (Color::White, &mut *white)] {
        if let Err(e) = p.new_game(start) {
            played.forfeit = Some((color, e.to_string()));
            return played;
        }
    }
    while !played.game.is_over() {
        if played.game.pass_if_forced() {
            continue;
        }
        let color = played.game.position().side_to_move();
        let player = match color {
            Color::Black => &mut *black,
            Color::White => &mut *white,
        };
        let t = Instant::now();
        let answer = player.choose(&played.game, seed.wrapping_add(played.game.ply() as u64));
        played.time[index(color)] += t.elapsed();
        played.moves[index(color)] += 1;
        let failure = match answer {
            Ok(mv) => match played.game.play(mv) {
                Ok(()) => continue,
                Err(e) => EngineFailure::IllegalMove(format!("{mv}: {}", e.reason)),
            },
            Err(e) => e,
        };
        played.forfeit = Some((color, failure.to_string()));
        break;
    }
    played
}

/// Plays `games` games between `a` and `b`: game `i` starts from opening `i / 2` (cycling
/// through `openings`), A has Black in even games. `threads` games run at once, each of our
/// engines single-threaded; `progress(done, total)` is called after each game. Each external
/// engine is started once first: one that cannot start is an error, not a string of forfeits.
pub fn run_match(
    a: &PlayerSpec,
    b: &PlayerSpec,
    openings: &[Game],
    games: usize,
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<MatchResult, String> {
    for (name, spec) in [("--a", a), ("--b", b)] {
        if let PlayerSpec::External(_) = spec {
            start_player(spec).map_err(|e| format!("{name} {}: {e}", spec.label()))?;
        }
    }
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
        for _ in 0..threads.clamp(1, games.max(1)) {
            s.spawn(|| {
                let mut pa: Option<Box<dyn Player>> = None;
                let mut pb: Option<Box<dyn Player>> = None;
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games {
                        break;
                    }
                    let opening = (i / 2) % openings.len();
                    let a_black = i & 1 == 0;
                    // Both games of a pair share the seed: only the colours differ. Pairs
                    // differ even from one start (the book moves they draw).
                    let seed = ((i / 2) as u64) << 8;
                    let record = play_one(
                        &openings[opening],
                        (a, &mut pa),
                        (b, &mut pb),
                        a_black,
                        seed,
                    );
                    let mut g = MatchGame::new(opening, a_black, record);
                    g.index = i;
                    results.lock().unwrap_or_else(|e| e.into_inner()).push(g);
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1, games);
                }
            });
        }
    });
    let mut games = results.into_inner().unwrap_or_else(|e| e.into_inner());
    games.sort_by_key(|g| g.index);
    Ok(MatchResult { games })
}

type Seat<'a> = (&'a PlayerSpec, &'a mut Option<Box<dyn Player>>);

/// One game of a worker: (re)starts the players as needed, plays, and drops an external
/// engine that failed so the next game gets a fresh process.
fn play_one(start: &Game, a: Seat, b: Seat, a_black: bool, seed: u64) -> PlayedGame {
    let (a_spec, a_player) = a;
    let (b_spec, b_player) = b;
    for (spec, slot, a_side) in [
        (a_spec, &mut *a_player, true),
        (b_spec, &mut *b_player, false),
    ] {
        if slot.is_none() {
            match start_player(spec) {
                Ok(p) => *slot = Some(p),
                Err(e) => {
                    let color = if a_side == a_black {
                        Color::Black
                    } else {
                        Color::White
                    };
                    return PlayedGame {
                        game: start.clone(),
                        forfeit: Some((color, e.to_string())),
                        time: [Duration::ZERO; 2],
                        moves: [0; 2],
                    };
                }
            }
        }
    }
    let pa = a_player.as_deref_mut().expect("started above");
    let pb = b_player.as_deref_mut().expect("started above");
    let record = if a_black {
        play_game(start, pa, pb, seed)
    } else {
        play_game(start, pb, pa, seed)
    };
    if let Some((color, _)) = &record.forfeit {
        let a_lost = (*color == Color::Black) == a_black;
        if a_lost {
            *a_player = None;
        } else {
            *b_player = None;
        }
    }
    record
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deeper_engine_beats_a_one_ply_engine() {
        let a = PlayerSpec::parse("depth=4,exact=8", None, None).unwrap();
        let b = PlayerSpec::parse("depth=1,exact=0", None, None).unwrap();
        let list = virada_engine::openings::builtin();
        let openings: Vec<Game> = list
            .iter()
            .step_by(list.len() / 5)
            .take(5)
            .map(|o| o.game())
            .collect();
        let r = run_match(&a, &b, &openings, 10, 2, &|_, _| {}).unwrap();
        assert_eq!(r.games.len(), 10);
        assert!(r
            .games
            .iter()
            .all(|g| g.game.is_over() && g.forfeit.is_none()));
        // Each opening is played with both colours.
        assert_eq!(r.games[0].opening, r.games[1].opening);
        assert_ne!(r.games[0].a_black, r.games[1].a_black);
        assert!(r.score() > 0.5, "depth 4 scored {}", r.score());
        let (elo, margin) = r.elo();
        assert!(elo > 0.0 && margin >= 0.0);
    }
}
