//! Time management: how much of a game clock one move may use.
//!
//! The budget follows where games are decided: the opening is cheap (few decisions that a
//! shallow search gets wrong), the late midgame and the first exact solve (about 18-26 empty
//! squares) get the most, and the last moves, which a solver finishes instantly, get little.

use std::time::{Duration, Instant};

/// A player's clock in a timed game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Clock {
    /// Time left for the rest of the game.
    pub remaining: Duration,
    /// Time added after each move (Fischer increment; zero for sudden death).
    pub increment: Duration,
}

/// Time allowed for one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveBudget {
    /// Aim to finish within this; no new iteration starts after about half of it.
    pub soft: Duration,
    /// Never exceed this: the search stops and plays its best move so far.
    pub hard: Duration,
}

/// Safety margin kept on the clock for move transmission and scheduling noise.
const RESERVE: Duration = Duration::from_millis(50);

/// How much a move with `empties` empty squares matters, relative to an average move.
pub(crate) fn weight(empties: u32) -> f64 {
    match empties {
        50.. => 0.5,
        36..=49 => 1.0,
        26..=35 => 1.5,
        18..=25 => 2.0,
        12..=17 => 0.6,
        _ => 0.2,
    }
}

/// The budget for the side to move with `empties` empty squares on the board.
///
/// ```
/// use std::time::Duration;
/// use virada_engine::time::{budget, Clock};
/// let clock = Clock { remaining: Duration::from_secs(60), increment: Duration::ZERO };
/// let opening = budget(&clock, 56);
/// let decisive = budget(&clock, 22);
/// assert!(decisive.soft > opening.soft);
/// assert!(decisive.hard < Duration::from_secs(60));
/// ```
pub fn budget(clock: &Clock, empties: u32) -> MoveBudget {
    let usable = clock.remaining.saturating_sub(RESERVE);
    // The side to move plays about every other remaining empty square.
    let total: f64 = (1..=empties)
        .rev()
        .step_by(2)
        .map(weight)
        .sum::<f64>()
        .max(1e-3);
    let share = weight(empties) / total;
    let soft = usable.mul_f64(share.min(0.5)) + clock.increment.mul_f64(0.8);
    let hard = (soft * 3).min(usable.mul_f64(0.5) + clock.increment.mul_f64(0.8));
    MoveBudget {
        soft: soft.min(hard),
        hard,
    }
}

/// Share of a move's time after which no deeper iteration starts: the next one takes a few
/// times longer than the last, so it could not finish.
pub const LAST_ITERATION_START: f32 = 0.45;

/// The budget for a fixed time per move: use it all, but start no iteration that cannot
/// finish.
pub fn fixed(time: Duration) -> MoveBudget {
    MoveBudget {
        soft: time,
        hard: time,
    }
}

/// Where a search reads the time.
///
/// Play uses the system clock. Tests of time management use [`TimeSource::PerNode`]: time then
/// passes with the work done, so with one thread a time limit stops a search at the same node
/// on every run and on every machine, and a test can check the budget logic exactly instead of
/// timing it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TimeSource {
    /// The system's monotonic clock.
    #[default]
    System,
    /// Simulated time: every node searched takes this long.
    PerNode(Duration),
}

/// One search's elapsed time, read from its [`TimeSource`].
#[derive(Clone, Copy, Debug)]
pub struct Stopwatch {
    start: Instant,
    source: TimeSource,
}

impl Stopwatch {
    /// Starts measuring now.
    pub fn start(source: TimeSource) -> Stopwatch {
        Stopwatch {
            start: Instant::now(),
            source,
        }
    }

    /// Time since the start, with `nodes` searched so far (only simulated time reads them).
    pub fn elapsed(&self, nodes: u64) -> Duration {
        match self.source {
            TimeSource::System => self.start.elapsed(),
            TimeSource::PerNode(per_node) => {
                let nanos = u64::try_from(per_node.as_nanos()).unwrap_or(u64::MAX);
                Duration::from_nanos(nanos.saturating_mul(nodes))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_never_exceeds_the_clock() {
        for secs in [0u64, 1, 10, 300] {
            let clock = Clock {
                remaining: Duration::from_secs(secs),
                increment: Duration::ZERO,
            };
            for e in 1..=60 {
                let b = budget(&clock, e);
                assert!(b.soft <= b.hard);
                assert!(b.hard <= clock.remaining, "{secs}s at {e} empties: {b:?}");
            }
        }
    }

    #[test]
    fn budgets_over_a_game_fit_the_clock() {
        let mut clock = Clock {
            remaining: Duration::from_secs(100),
            increment: Duration::ZERO,
        };
        let mut used = Duration::ZERO;
        for e in (1..=60).rev().step_by(2) {
            let b = budget(&clock, e);
            used += b.soft;
            clock.remaining = clock.remaining.saturating_sub(b.soft);
        }
        assert!(used <= Duration::from_secs(100));
        assert!(
            used >= Duration::from_secs(60),
            "uses most of the clock: {used:?}"
        );
    }

    #[test]
    fn simulated_time_passes_with_the_nodes() {
        let w = Stopwatch::start(TimeSource::PerNode(Duration::from_micros(2)));
        assert_eq!(w.elapsed(0), Duration::ZERO);
        assert_eq!(w.elapsed(1_500), Duration::from_millis(3));
        assert_eq!(w.elapsed(u64::MAX), Duration::from_nanos(u64::MAX));
    }
}
