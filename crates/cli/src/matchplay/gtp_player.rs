//! An external engine speaking the Go Text Protocol (the Othello subset: `boardsize 8`,
//! `play`, `genmove`, `time_settings`, `time_left`).

use super::control::TimeControl;
use super::player::Player;
use super::process::{EngineFailure, EngineProcess};
use super::settings::ExternalSpec;
use std::time::{Duration, Instant};
use virada_rules::{Color, Game, Move};

pub struct GtpPlayer {
    process: EngineProcess,
    control: TimeControl,
    /// Moves of the current game the engine knows about.
    told: usize,
    /// Time left on the engine's game clock (per-game controls).
    remaining: Option<Duration>,
}

/// `b` or `w`.
fn color_word(c: Color) -> &'static str {
    match c {
        Color::Black => "b",
        Color::White => "w",
    }
}

/// A move as a GTP vertex (`D3`) or `pass`.
fn vertex(mv: Move) -> String {
    match mv {
        Move::Play(sq) => sq.to_string().to_uppercase(),
        Move::Pass => "pass".into(),
    }
}

impl GtpPlayer {
    pub fn start(spec: &ExternalSpec) -> Result<GtpPlayer, EngineFailure> {
        let mut p = GtpPlayer {
            process: EngineProcess::start(spec)?,
            control: spec.control.clone(),
            told: 0,
            remaining: None,
        };
        let wait = p.control.handshake_deadline();
        p.command("protocol_version", wait)?
            .map_err(|e| EngineFailure::Protocol(format!("protocol_version: {e}")))?;
        if p.command("known_command set_game", wait)?.as_deref() == Ok("true") {
            p.command("set_game Othello", wait)?
                .map_err(|e| EngineFailure::Protocol(format!("set_game Othello: {e}")))?;
        }
        p.command("boardsize 8", wait)?
            .map_err(|e| EngineFailure::Protocol(format!("boardsize 8: {e}")))?;
        // Engines without time commands still play: the deadline is enforced here anyway.
        if let Some(m) = p.control.per_move {
            p.command(&format!("time_settings 0 {} 1", m.as_secs_f64()), wait)?
                .ok();
        } else if let Some(g) = p.control.per_game {
            p.command(&format!("time_settings {} 0 0", g.as_secs_f64()), wait)?
                .ok();
        }
        Ok(p)
    }

    /// Sends `cmd` and reads its reply: `Ok(text)` for `= text`, `Err(text)` for `? text`.
    /// Lines before the reply that start with neither are skipped (debug output).
    fn command(
        &mut self,
        cmd: &str,
        within: Duration,
    ) -> Result<Result<String, String>, EngineFailure> {
        let started = Instant::now();
        let deadline = started + within;
        self.process.send(cmd)?;
        let what = format!("reply to '{cmd}'");
        let (ok, mut text) = loop {
            let line = self.process.read_line(deadline, &what, started)?;
            if let Some(rest) = line.strip_prefix('=') {
                break (true, rest.to_string());
            }
            if let Some(rest) = line.strip_prefix('?') {
                break (false, rest.to_string());
            }
        };
        // Drop an echoed id; the reply goes on until an empty line.
        let rest = text.trim_start_matches(|c: char| c.is_ascii_digit());
        text = rest.trim().to_string();
        loop {
            let line = self.process.read_line(deadline, &what, started)?;
            if line.trim().is_empty() {
                break;
            }
            text.push('\n');
            text.push_str(line.trim_end());
        }
        Ok(if ok { Ok(text) } else { Err(text) })
    }

    /// Tells the engine the moves it has not seen yet.
    fn catch_up(&mut self, game: &Game, deadline: Duration) -> Result<(), EngineFailure> {
        for i in self.told..game.ply() {
            let color = game.positions()[i].side_to_move();
            let mv = game.moves()[i];
            let cmd = format!("play {} {}", color_word(color), vertex(mv));
            if let Err(e) = self.command(&cmd, deadline)? {
                return Err(EngineFailure::Protocol(format!(
                    "it rejected the legal '{cmd}': {e}"
                )));
            }
            self.told = i + 1;
        }
        Ok(())
    }
}

impl Player for GtpPlayer {
    fn new_game(&mut self, start: &Game) -> Result<(), EngineFailure> {
        self.told = 0;
        self.remaining = self.control.per_game;
        if let Err(e) = self.command("clear_board", self.control.handshake_deadline())? {
            return Err(EngineFailure::Protocol(format!("clear_board: {e}")));
        }
        if start.start() != virada_rules::Position::start() {
            return Err(EngineFailure::Protocol(
                "GTP cannot set up a position: games must start from the standard start".into(),
            ));
        }
        self.catch_up(start, self.control.handshake_deadline())
    }

    fn choose(&mut self, game: &Game, _seed: u64) -> Result<Move, EngineFailure> {
        self.catch_up(game, self.control.handshake_deadline())?;
        let color = game.position().side_to_move();
        if let Some(left) = self.remaining {
            self.command(
                &format!(
                    "time_left {} {:.0} 0",
                    color_word(color),
                    left.as_secs_f64()
                ),
                self.control.handshake_deadline(),
            )?
            .ok();
        }
        let deadline = self.control.move_deadline(self.remaining);
        let started = Instant::now();
        let reply = self.command(&format!("genmove {}", color_word(color)), deadline)?;
        let used = started.elapsed();
        if let Some(left) = self.remaining {
            if used > left + super::control::CLOCK_GRACE {
                return Err(EngineFailure::TimedOut {
                    waited: used,
                    waiting_for: "move before its clock ran out".into(),
                });
            }
            self.remaining = Some(left.saturating_sub(used) + self.control.increment);
        }
        let text = reply.map_err(|e| EngineFailure::Protocol(format!("genmove failed: {e}")))?;
        let word = text.split_whitespace().next().unwrap_or("");
        if word.eq_ignore_ascii_case("resign") {
            return Err(EngineFailure::Protocol("it resigned".into()));
        }
        let mv: Move = word.parse().map_err(|_| {
            EngineFailure::Protocol(format!("genmove answered {text:?}, not a move"))
        })?;
        // The engine has played its move on its own board.
        self.told = game.ply() + 1;
        Ok(mv)
    }
}

impl Drop for GtpPlayer {
    fn drop(&mut self) {
        let _ = self.process.send("quit");
    }
}
