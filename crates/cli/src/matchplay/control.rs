//! How long an external engine may think: a time per move, a clock per game, or a depth, and
//! when a silent engine is given up on.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

pub use super::process::HANDSHAKE_TIMEOUT;

/// An external engine's limits. Text form: comma-separated `move=S` (seconds per move),
/// `game=S` (seconds for the whole game) with optional `inc=S` (added after each move),
/// `depth=N` (NBoard engines only: `set depth N`), `timeout=S` (how long one move may take
/// before the engine forfeits the game), `handshake=S` (how long the engine may take to start
/// and to answer each set-up command or ping; default [`HANDSHAKE_TIMEOUT`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TimeControl {
    pub per_move: Option<Duration>,
    pub per_game: Option<Duration>,
    pub increment: Duration,
    pub depth: Option<u32>,
    pub timeout: Option<Duration>,
    pub handshake: Option<Duration>,
}

/// How long an engine with a depth limit (or no limit) may take for one move by default.
pub const DEFAULT_MOVE_TIMEOUT: Duration = Duration::from_secs(60);

/// Allowed lateness on a per-game clock: the child process and the pipes add a little.
pub const CLOCK_GRACE: Duration = Duration::from_secs(1);

impl TimeControl {
    /// The longest one move may take with `remaining` on the engine's game clock: past it the
    /// engine loses the game. A per-move limit allows half as much again (at least a second)
    /// for start-up and pipes; a game clock allows [`CLOCK_GRACE`] past its end.
    pub fn move_deadline(&self, remaining: Option<Duration>) -> Duration {
        if let Some(t) = self.timeout {
            return t;
        }
        if let Some(left) = remaining {
            return left + CLOCK_GRACE;
        }
        match self.per_move {
            Some(m) => m + (m / 2).max(Duration::from_secs(1)),
            None => DEFAULT_MOVE_TIMEOUT,
        }
    }

    /// How long the engine may take to start and to answer a set-up command or a ping: on a
    /// loaded machine an engine that loads large tables can need more than the default.
    pub fn handshake_deadline(&self) -> Duration {
        self.handshake.unwrap_or(HANDSHAKE_TIMEOUT)
    }
}

impl FromStr for TimeControl {
    type Err = String;

    fn from_str(s: &str) -> Result<TimeControl, String> {
        let mut tc = TimeControl::default();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("time control '{part}' is not key=value"))?;
            let secs = || -> Result<Duration, String> {
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite() && *v >= 0.0 && *v < 1e7)
                    .map(Duration::from_secs_f64)
                    .ok_or_else(|| format!("time control {key}: '{value}' is not seconds"))
            };
            match key {
                "move" => tc.per_move = Some(secs()?),
                "game" => tc.per_game = Some(secs()?),
                "inc" => tc.increment = secs()?,
                "timeout" => tc.timeout = Some(secs()?),
                "handshake" => tc.handshake = Some(secs()?),
                "depth" => {
                    tc.depth = Some(
                        value
                            .parse::<u32>()
                            .ok()
                            .filter(|d| (1..=60).contains(d))
                            .ok_or_else(|| format!("time control depth: '{value}' is not 1-60"))?,
                    )
                }
                _ => {
                    return Err(format!(
                        "unknown time control '{key}' (move, game, inc, depth, timeout, handshake)"
                    ))
                }
            }
        }
        if tc.per_move.is_some() && tc.per_game.is_some() {
            return Err("time control: give move= or game=, not both".into());
        }
        if tc.increment > Duration::ZERO && tc.per_game.is_none() {
            return Err("time control: inc= needs game=".into());
        }
        Ok(tc)
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(m) = self.per_move {
            parts.push(format!("{} s a move", m.as_secs_f64()));
        }
        if let Some(g) = self.per_game {
            parts.push(format!("{} s a game", g.as_secs_f64()));
            if self.increment > Duration::ZERO {
                parts.push(format!("+{} s a move", self.increment.as_secs_f64()));
            }
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if parts.is_empty() {
            parts.push("the engine's own settings".into());
        }
        f.write_str(&parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_deadlines() {
        let tc: TimeControl = "move=0.5".parse().unwrap();
        assert_eq!(tc.per_move, Some(Duration::from_millis(500)));
        assert_eq!(tc.move_deadline(None), Duration::from_millis(1500));
        let tc: TimeControl = "game=60,inc=1".parse().unwrap();
        assert_eq!(
            tc.move_deadline(Some(Duration::from_secs(10))),
            Duration::from_secs(11)
        );
        let tc: TimeControl = "depth=8,timeout=5".parse().unwrap();
        assert_eq!(tc.depth, Some(8));
        assert_eq!(tc.move_deadline(None), Duration::from_secs(5));
        assert_eq!(tc.handshake_deadline(), HANDSHAKE_TIMEOUT);
        assert_eq!(
            TimeControl::default().move_deadline(None),
            DEFAULT_MOVE_TIMEOUT
        );
        let tc: TimeControl = "depth=16,handshake=300".parse().unwrap();
        assert_eq!(tc.handshake_deadline(), Duration::from_secs(300));
        assert_eq!(tc.move_deadline(None), DEFAULT_MOVE_TIMEOUT);
        for bad in [
            "move=x",
            "move=1,game=2",
            "inc=1",
            "depth=0",
            "foo=1",
            "move",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }
}
