//! An external engine speaking the NBoard protocol: `set game` with the opening, `move` for
//! each move since, `ping`/`pong` to synchronise, `go` answered by `=== move`.

use super::control::{TimeControl, CLOCK_GRACE};
use super::player::Player;
use super::process::{EngineFailure, EngineProcess};
use super::settings::ExternalSpec;
use std::time::{Duration, Instant};
use virada_rules::formats::ggf::GgfGame;
use virada_rules::{Game, Move};

pub struct NboardPlayer {
    process: EngineProcess,
    control: TimeControl,
    told: usize,
    remaining: Option<Duration>,
    next_ping: u64,
}

/// A move as NBoard writes it: `F5`, or `PA` for a pass.
fn nboard_move(mv: Move) -> String {
    match mv {
        Move::Play(sq) => sq.to_string().to_uppercase(),
        Move::Pass => "PA".into(),
    }
}

impl NboardPlayer {
    pub fn start(spec: &ExternalSpec) -> Result<NboardPlayer, EngineFailure> {
        let mut p = NboardPlayer {
            process: EngineProcess::start(spec)?,
            control: spec.control.clone(),
            told: 0,
            remaining: None,
            next_ping: 1,
        };
        p.process.send("nboard 2")?;
        if let Some(d) = p.control.depth {
            p.process.send(&format!("set depth {d}"))?;
        }
        p.sync(p.control.handshake_deadline())?;
        Ok(p)
    }

    /// `ping n`, then waits for `pong n` (skipping whatever comes before it).
    fn sync(&mut self, within: Duration) -> Result<(), EngineFailure> {
        let n = self.next_ping;
        self.next_ping += 1;
        let started = Instant::now();
        self.process.send(&format!("ping {n}"))?;
        let want = format!("pong {n}");
        loop {
            let line = self.process.read_line(started + within, &want, started)?;
            if line.trim() == want {
                return Ok(());
            }
        }
    }

    fn catch_up(&mut self, game: &Game) -> Result<(), EngineFailure> {
        for &mv in &game.moves()[self.told..] {
            self.process.send(&format!("move {}", nboard_move(mv)))?;
        }
        self.told = game.ply();
        Ok(())
    }
}

/// The move of a `=== f5/1.5/0.3` (or `=== f5 1.5 0.3`) line.
fn parse_answer(line: &str) -> Result<Move, EngineFailure> {
    let rest = line.trim_start_matches('=').trim();
    let word = rest
        .split(|c: char| c.is_whitespace() || c == '/')
        .next()
        .unwrap_or("");
    word.parse()
        .map_err(|_| EngineFailure::Protocol(format!("'{line}' does not name a move")))
}

impl Player for NboardPlayer {
    fn new_game(&mut self, start: &Game) -> Result<(), EngineFailure> {
        let mut record = GgfGame::from_game(start);
        record.set_tag("PC", "virada match");
        if let Some(g) = self.control.per_game {
            let secs = g.as_secs();
            record.set_tag("TI", &format!("{}:{:02}", secs / 60, secs % 60));
        }
        self.process.send(&format!("set game {record}"))?;
        self.told = start.ply();
        self.remaining = self.control.per_game;
        self.sync(self.control.handshake_deadline())
    }

    fn choose(&mut self, game: &Game, _seed: u64) -> Result<Move, EngineFailure> {
        self.catch_up(game)?;
        self.sync(self.control.handshake_deadline())?;
        let within = self.control.move_deadline(self.remaining);
        let started = Instant::now();
        self.process.send("go")?;
        let mv = loop {
            let line =
                self.process
                    .read_line(started + within, "'=== move' answer to go", started)?;
            if line.starts_with("===") {
                break parse_answer(&line)?;
            }
        };
        let used = started.elapsed();
        if let Some(left) = self.remaining {
            if used > left + CLOCK_GRACE {
                return Err(EngineFailure::TimedOut {
                    waited: used,
                    waiting_for: "move before its clock ran out".into(),
                });
            }
            self.remaining = Some(left.saturating_sub(used) + self.control.increment);
        }
        Ok(mv)
    }
}

impl Drop for NboardPlayer {
    fn drop(&mut self) {
        let _ = self.process.send("quit");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_parse() {
        assert_eq!(parse_answer("=== F5/1.50/0.2").unwrap().to_string(), "f5");
        assert_eq!(parse_answer("=== d6 -1.00 0.0").unwrap().to_string(), "d6");
        assert_eq!(parse_answer("=== PA").unwrap(), Move::Pass);
        assert!(parse_answer("=== zz").is_err());
        assert!(parse_answer("===").is_err());
    }
}
