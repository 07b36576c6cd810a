//! `virada gtp`: the Go Text Protocol (version 2) subset that Othello tools use.
//!
//! Replies are `=[id] text` or `?[id] error`, each ended by a blank line. Vertices are
//! Othello squares as everywhere in Virada (`A1` top-left, `H8` bottom-right; either case in,
//! upper case out) or `pass`. A `play` or `genmove` for the colour not to move is accepted
//! only when the side to move must pass (the pass is then played first); an illegal `play`
//! gets `? illegal move` and changes nothing. `level N` (1-21, our playing levels) chooses
//! the strength; `time_settings` / `time_left` cap the thinking time.

use super::Output;
use std::io::BufRead;
use std::time::Duration;
use virada_engine::levels::MAX_LEVEL;
use virada_engine::Book;
use virada_engine::{Clock, Engine, EngineConfig, Level};
use virada_rules::{Color, Game, Move, Status};

/// Every command this engine knows, as `list_commands` prints them.
pub const COMMANDS: &[&str] = &[
    "boardsize",
    "clear_board",
    "final_score",
    "genmove",
    "known_command",
    "komi",
    "level",
    "list_commands",
    "list_games",
    "name",
    "play",
    "protocol_version",
    "quit",
    "set_game",
    "showboard",
    "time_left",
    "time_settings",
    "undo",
    "version",
];

/// Level used until the GUI sends `level`: strong, and never more than 3 s a move.
pub const DEFAULT_LEVEL: u8 = 18;

/// Kept off the byo-yomi period for the pipes and the GUI.
const MOVE_MARGIN: Duration = Duration::from_millis(100);

struct Session {
    engine: Engine,
    game: Game,
    /// Plies each `play` / `genmove` added (2 when a forced pass came first), for `undo`.
    history: Vec<usize>,
    level: Level,
    /// `time_settings`: main time, byo-yomi period and stones per period.
    main_time: Duration,
    byo_yomi: Duration,
    byo_stones: u32,
    /// `time_left` of Black and White: time and stones left in the period (0 = main time).
    time_left: [Option<(Duration, u32)>; 2],
}

/// Runs a session on `input` until `quit` or the end of input.
/// The level plays from `book` in book positions, as in the app (see `Level::spec`).
pub fn serve(
    input: impl BufRead,
    out: Output,
    config: EngineConfig,
    level: Level,
    book: Option<&'static Book>,
) {
    let mut engine = Engine::new(config);
    engine.set_book(book);
    let mut s = Session {
        engine,
        game: Game::new(),
        history: Vec::new(),
        level,
        main_time: Duration::ZERO,
        byo_yomi: Duration::ZERO,
        byo_stones: 0,
        time_left: [None, None],
    };
    for line in input.lines() {
        let Ok(line) = line else { break };
        // Comments go; control characters other than tabs are removed (GTP 2, 2.2).
        let text: String = line
            .split('#')
            .next()
            .unwrap_or("")
            .chars()
            .filter(|c| !c.is_control() || *c == '\t')
            .collect();
        let mut words = text.split_whitespace().peekable();
        let id = match words.peek() {
            Some(w) if w.chars().all(|c| c.is_ascii_digit()) => words.next().map(str::to_string),
            _ => None,
        };
        let Some(cmd) = words.next() else {
            continue;
        };
        let args: Vec<&str> = words.collect();
        let reply = s.command(cmd, &args);
        let id = id.unwrap_or_default();
        let quit = cmd == "quit";
        out.raw(&match reply {
            Ok(text) => format!("={id} {text}\n\n"),
            Err(text) => format!("?{id} {text}\n\n"),
        });
        if quit {
            break;
        }
    }
}

fn color_index(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

fn parse_color(s: &str) -> Result<Color, String> {
    match s.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(format!("invalid color {s:?}")),
    }
}

fn vertex(mv: Move) -> String {
    match mv {
        Move::Play(sq) => sq.to_string().to_uppercase(),
        Move::Pass => "pass".into(),
    }
}

fn seconds(s: &str) -> Result<Duration, String> {
    s.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v >= 0.0 && *v < 1e7)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("syntax error: {s:?} is not a number of seconds"))
}

impl Session {
    fn command(&mut self, cmd: &str, args: &[&str]) -> Result<String, String> {
        let arg = |i: usize| -> Result<&str, String> {
            args.get(i)
                .copied()
                .ok_or_else(|| format!("syntax error: {cmd} needs more arguments"))
        };
        match cmd {
            "protocol_version" => Ok("2".into()),
            "name" => Ok(super::nboard::ENGINE_NAME.into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => Ok(COMMANDS.contains(&arg(0)?).to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" => Ok(String::new()),
            "boardsize" => match arg(0)?.parse::<u32>() {
                Ok(8) => {
                    self.new_game();
                    Ok(String::new())
                }
                Ok(_) => Err("unacceptable size: Othello is played on 8x8".into()),
                Err(_) => Err("syntax error: boardsize needs a number".into()),
            },
            "clear_board" => {
                self.new_game();
                Ok(String::new())
            }
            "komi" => arg(0)?
                .parse::<f64>()
                .map(|_| String::new())
                .map_err(|_| "syntax error: komi needs a number".into()),
            "set_game" => {
                let name = args.join(" ");
                if name.eq_ignore_ascii_case("othello") || name.eq_ignore_ascii_case("reversi") {
                    Ok(String::new())
                } else {
                    Err(format!("unsupported game {name:?}: only Othello"))
                }
            }
            "list_games" => Ok("Othello".into()),
            "level" => match arg(0)?.parse::<u8>() {
                Ok(n) if (1..=MAX_LEVEL).contains(&n) => {
                    self.level = Level(n);
                    Ok(String::new())
                }
                _ => Err(format!("level must be 1 to {MAX_LEVEL}")),
            },
            "play" => {
                let color = parse_color(arg(0)?)?;
                let mv: Move = arg(1)?
                    .parse()
                    .map_err(|_| format!("invalid coordinate {:?}", args[1]))?;
                self.play(color, mv).map(|()| String::new())
            }
            "genmove" => {
                let color = parse_color(arg(0)?)?;
                self.genmove(color).map(vertex)
            }
            "undo" => match self.history.pop() {
                Some(n) => {
                    for _ in 0..n {
                        self.game.undo();
                    }
                    Ok(String::new())
                }
                None => Err("cannot undo".into()),
            },
            "showboard" => Ok(self.board_text()),
            "final_score" => match self.game.status() {
                Status::Ended(r) => {
                    let d = r.difference_for(Color::Black);
                    Ok(match d.signum() {
                        1 => format!("B+{d}"),
                        -1 => format!("W+{}", -d),
                        _ => "0".into(),
                    })
                }
                Status::Ongoing { .. } => Err("the game is not over".into()),
            },
            "time_settings" => {
                let main = seconds(arg(0)?)?;
                let byo = seconds(arg(1)?)?;
                let stones = arg(2)?
                    .parse::<u32>()
                    .map_err(|_| "syntax error: stones must be a whole number".to_string())?;
                self.main_time = main;
                self.byo_yomi = byo;
                self.byo_stones = stones;
                self.time_left = [None, None];
                Ok(String::new())
            }
            "time_left" => {
                let color = parse_color(arg(0)?)?;
                let left = seconds(arg(1)?)?;
                let stones = arg(2)?
                    .parse::<u32>()
                    .map_err(|_| "syntax error: stones must be a whole number".to_string())?;
                self.time_left[color_index(color)] = Some((left, stones));
                Ok(String::new())
            }
            _ => Err("unknown command".into()),
        }
    }

    fn new_game(&mut self) {
        self.game = Game::new();
        self.history.clear();
        self.time_left = [None, None];
    }

    /// Plays `mv` for `color`, with the forced pass of the other side first if needed;
    /// on any error nothing changes.
    fn play(&mut self, color: Color, mv: Move) -> Result<(), String> {
        let mut next = self.game.clone();
        let mut plies = 1;
        if next.position().side_to_move() != color && mv != Move::Pass {
            if !next.pass_if_forced() {
                return Err("illegal move".into());
            }
            plies = 2;
        }
        if next.position().side_to_move() != color {
            return Err("illegal move".into());
        }
        next.play(mv).map_err(|_| "illegal move".to_string())?;
        self.game = next;
        self.history.push(plies);
        Ok(())
    }

    fn genmove(&mut self, color: Color) -> Result<Move, String> {
        if self.game.is_over() {
            return Ok(Move::Pass);
        }
        let mut plies = 0;
        if self.game.position().side_to_move() != color {
            if !self.game.pass_if_forced() {
                return Err(format!(
                    "it is {}'s turn, not {color}'s",
                    self.game.position().side_to_move()
                ));
            }
            plies = 1;
            if self.game.is_over() {
                self.history.push(plies);
                return Ok(Move::Pass);
            }
        }
        let board = self.game.position().board();
        let mv = if board.moves() == 0 {
            Move::Pass
        } else {
            let limits = self.limits(color);
            let seed = board.hash() ^ self.game.ply() as u64;
            self.engine
                .choose_move_with(board, self.level, &limits, seed, None)
        };
        self.game
            .play(mv)
            .map_err(|e| format!("internal error: the engine chose {mv}: {e}"))?;
        self.history.push(plies + 1);
        Ok(mv)
    }

    /// The level's limits, with the thinking time capped by the GUI's clock if it gave one. On
    /// main time the level plays on the clock as in the app (`Level::limits_on_clock`): a
    /// level's own time cap (10 s a move at level 21) stays only while it is within the clock's
    /// aim. Before 2026-12-07 the cap stayed and, a fixed time winning over a clock, level 21
    /// thought 6-10 s a move on any clock and lost short games on time.
    fn limits(&self, color: Color) -> virada_engine::Limits {
        let empties = self.game.position().board().empty_count();
        let on_clock = |remaining: Duration| {
            let clock = Clock {
                remaining,
                increment: Duration::ZERO,
            };
            self.level.limits_on_clock(clock, empties)
        };
        let byo_share = (self.byo_stones > 0 && !self.byo_yomi.is_zero())
            .then(|| (self.byo_yomi / self.byo_stones).saturating_sub(MOVE_MARGIN));
        let (mut limits, cap) = match self.time_left[color_index(color)] {
            // In byo-yomi: the time left in the period, over the stones still to play.
            Some((left, stones)) if stones > 0 => (
                self.level.limits(),
                Some((left / stones).saturating_sub(MOVE_MARGIN)),
            ),
            // Main time: the engine's time manager shares it out (keeping the period).
            Some((left, _)) => (on_clock(left), byo_share),
            None if self.main_time.is_zero() => (self.level.limits(), byo_share),
            None => (on_clock(self.main_time), None),
        };
        if let Some(cap) = cap {
            let cap = cap.max(Duration::from_millis(10));
            limits.time = Some(limits.time.map_or(cap, |t| t.min(cap)));
        }
        limits
    }

    fn board_text(&self) -> String {
        let p = self.game.position();
        let counts = p.disc_counts();
        let state = match self.game.status() {
            Status::Ended(r) => format!("game over: {r}"),
            Status::Ongoing {
                to_move,
                must_pass: true,
            } => format!("{to_move} to move, must pass"),
            Status::Ongoing { to_move, .. } => format!("{to_move} to move"),
        };
        format!(
            "\n{}Black (X) {}, White (O) {}; {state}",
            p.to_diagram(),
            counts.black_discs,
            counts.white_discs
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(level: u8) -> Session {
        Session {
            engine: Engine::new(EngineConfig {
                tt_mb: 1,
                threads: 1,
                ..EngineConfig::default()
            }),
            game: Game::new(),
            history: Vec::new(),
            level: Level(level),
            main_time: Duration::ZERO,
            byo_yomi: Duration::ZERO,
            byo_stones: 0,
            time_left: [None, None],
        }
    }

    /// Level 21 on 20 s of main time: the clock decides, not the level's 10 s cap (which would
    /// win over the clock and lose the game on time); with an hour left the cap stays.
    #[test]
    fn main_time_replaces_a_level_cap_beyond_the_clock_aim() {
        let mut s = session(21);
        s.command("time_settings", &["20", "0", "0"])
            .expect("time_settings");
        s.command("time_left", &["b", "20", "0"])
            .expect("time_left");
        let l = s.limits(Color::Black);
        assert_eq!(l.time, None, "{l:?}");
        assert_eq!(l.clock.map(|c| c.remaining), Some(Duration::from_secs(20)));
        // Before any time_left: the main time.
        let l = s.limits(Color::White);
        assert_eq!(
            (l.time, l.clock.map(|c| c.remaining)),
            (None, Some(Duration::from_secs(20)))
        );
        s.command("time_left", &["b", "3600", "0"])
            .expect("time_left");
        let l = s.limits(Color::Black);
        assert_eq!((l.time, l.clock), (Some(Duration::from_secs(10)), None));
        // Byo-yomi: the period's share caps the move.
        s.command("time_left", &["b", "4", "2"]).expect("time_left");
        let l = s.limits(Color::Black);
        assert_eq!(l.time, Some(Duration::from_secs(2) - MOVE_MARGIN));
    }
}
