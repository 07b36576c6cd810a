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
    /// No deeper iteration starts after this: it could not finish in time.
    pub last_start: Duration,
    /// How long an exact endgame solve started within this move may run (at least `hard`). On
    /// a clock a finished solve plays the rest of the game from the table almost for free, so
    /// it may take the time later moves would have used; it still never reaches the end of the
    /// clock. A fixed time a move does not stretch: `solve == hard`.
    pub solve: Duration,
}

/// Fixed part of the safety margin kept on the clock: move transmission and scheduling noise
/// (a stopped search answers within one look at its clock: 1,024 midgame nodes or 65,536
/// solver nodes a thread, well under a millisecond on an idle core).
const RESERVE: Duration = Duration::from_millis(50);

/// Share of the remaining time added to the margin: on a loaded machine the time between two
/// looks at the clock, and between the stop and the answer, grows with the load, and a long
/// clock can afford to keep more back.
const RESERVE_SHARE: f64 = 0.02;

/// One move never takes more than this share of the usable clock plus most of an increment,
/// whatever the phase: a wrong estimate of the moves left cannot lose the game on time.
const MAX_SHARE: f64 = 0.5;

/// How much of the increment a move may spend beyond its share of the clock (the increment
/// arrives after the move, so spending all of it would eat into the clock).
const INCREMENT_SPEND: f64 = 0.8;

/// A move may run on to this multiple of its aim ([`MoveBudget::soft`]) to finish an iteration.
const HARD_OVER_SOFT: u32 = 3;

/// The moves the side to move still plays with `empties` empty squares on the board: about
/// every other one (passes aside).
pub fn moves_left(empties: u32) -> u32 {
    empties.div_ceil(2).max(1)
}

/// The part of `remaining` a search may use: the clock less the safety margin.
pub fn usable(remaining: Duration) -> Duration {
    remaining.saturating_sub(RESERVE + remaining.mul_f64(RESERVE_SHARE))
}

/// How much a move with `empties` empty squares matters, relative to an average move: games
/// are decided in the late midgame and at the first exact solves (18-25 empties); the last
/// moves, which a solver finishes from the table, need little. (The game review shares its
/// budget with the same weights.)
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
/// The clock and the increments still to come (one after each of this side's moves but the
/// last) are shared out over the moves left ([`moves_left`]) in proportion to how much each
/// matters ([`weight`]); a move never uses more than [`usable`] of what is on the clock, so
/// the engine never loses on time by its own budget.
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
    let usable = usable(clock.remaining);
    let later_increments = clock.increment * (moves_left(empties) - 1);
    let pool = usable + later_increments;
    // The side to move plays about every other remaining empty square.
    let total: f64 = (1..=empties.max(1))
        .rev()
        .step_by(2)
        .map(weight)
        .sum::<f64>()
        .max(1e-3);
    let share = weight(empties.max(1)) / total;
    let cap = usable.min(usable.mul_f64(MAX_SHARE) + clock.increment.mul_f64(INCREMENT_SPEND));
    let soft = pool.mul_f64(share.min(1.0)).min(cap);
    let hard = (soft * HARD_OVER_SOFT).min(cap);
    MoveBudget {
        soft,
        hard,
        last_start: soft.mul_f32(CLOCK_LAST_ITERATION_START),
        solve: cap,
    }
}

/// Share of a clock move's aim ([`MoveBudget::soft`]) after which no deeper iteration starts:
/// the next one takes a few times longer than the last. An iteration started before it may
/// run on towards [`MoveBudget::hard`], three times the aim.
pub const CLOCK_LAST_ITERATION_START: f32 = 0.45;

/// Share of a fixed time per move after which no deeper iteration starts. Higher than on a
/// clock, since nothing is saved for later moves: at 0.45 a search used about half its time
/// and left the rest unused. Measured at 0.1 s a move against 0.45 (400 games, balanced
/// openings, `virada match --a time=0.1 --b time=0.1`): 0.6 won by +31 ± 31 Elo.
pub const FIXED_LAST_ITERATION_START: f32 = 0.6;

/// The budget for a fixed time per move: use it all, but start no iteration that cannot
/// finish.
///
/// ```
/// use std::time::Duration;
/// use virada_engine::time::fixed;
/// let b = fixed(Duration::from_secs(1));
/// assert_eq!(b.hard, Duration::from_secs(1));
/// assert!(b.last_start < b.hard);
/// ```
pub fn fixed(time: Duration) -> MoveBudget {
    fixed_with_last_start(time, FIXED_LAST_ITERATION_START)
}

/// [`fixed`] with no deeper iteration started after `share` of `time` (clamped to 0-1).
pub fn fixed_with_last_start(time: Duration, share: f32) -> MoveBudget {
    let share = if share.is_nan() {
        FIXED_LAST_ITERATION_START
    } else {
        share.clamp(0.0, 1.0)
    };
    MoveBudget {
        soft: time,
        hard: time,
        last_start: time.mul_f32(share),
        solve: time,
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

    fn clock(ms: u64, inc_ms: u64) -> Clock {
        Clock {
            remaining: Duration::from_millis(ms),
            increment: Duration::from_millis(inc_ms),
        }
    }

    /// Whatever the clock, the increment and the phase: aim <= hard <= solve <= the clock less
    /// its margin, so a move stopped at any of them cannot lose on time (an increment larger
    /// than the clock included: it arrives only after the move).
    #[test]
    fn budget_never_exceeds_the_clock_less_its_margin() {
        for ms in [
            0u64, 10, 49, 50, 51, 120, 1_000, 10_000, 60_000, 300_000, 3_600_000,
        ] {
            for inc_ms in [0u64, 1, 100, 500, 2_000, 30_000] {
                let c = clock(ms, inc_ms);
                for e in 0..=64 {
                    let b = budget(&c, e);
                    assert!(b.soft <= b.hard, "{c:?} at {e} empties: {b:?}");
                    assert!(b.hard <= b.solve, "{c:?} at {e} empties: {b:?}");
                    assert!(b.last_start <= b.soft, "{c:?} at {e} empties: {b:?}");
                    assert!(
                        b.solve <= usable(c.remaining),
                        "{c:?} at {e} empties: {b:?}"
                    );
                    assert!(
                        c.remaining.is_zero() || b.solve < c.remaining,
                        "{c:?} at {e} empties: {b:?}"
                    );
                }
            }
        }
        // The margin: 50 ms and 2% of the clock.
        assert_eq!(
            usable(Duration::from_secs(10)),
            Duration::from_millis(9_750)
        );
        assert_eq!(usable(Duration::from_millis(40)), Duration::ZERO);
    }

    /// A whole game where every move runs to its hard limit (the worst case) never runs out of
    /// time; one where every move takes its aim uses most of the clock and the increments.
    #[test]
    fn budgets_over_a_game_fit_the_clock() {
        for (ms, inc_ms) in [(100_000, 0), (60_000, 500), (10_000, 100), (2_000, 1_000)] {
            let mut worst = clock(ms, inc_ms);
            let mut aimed = clock(ms, inc_ms);
            let mut used = Duration::ZERO;
            for e in (1..=60).rev().step_by(2) {
                let b = budget(&worst, e);
                assert!(b.hard < worst.remaining, "{worst:?} at {e}: {b:?}");
                worst.remaining = worst.remaining - b.hard + worst.increment;
                let a = budget(&aimed, e);
                used += a.soft;
                aimed.remaining = aimed.remaining - a.soft + aimed.increment;
            }
            let available = Duration::from_millis(ms + 30 * inc_ms);
            assert!(used <= available);
            assert!(
                used >= available.mul_f64(0.7),
                "uses most of the clock: {used:?} of {available:?}"
            );
        }
    }

    /// Over a game the midgame's decisive phase (18-35 empties) gets the largest aims, the
    /// opening less, and the moves a solver finishes from the table least.
    #[test]
    fn the_decisive_phase_gets_the_most_time() {
        let mut c = clock(60_000, 500);
        let mut aims = Vec::new();
        for e in (1..=60).rev().step_by(2) {
            let b = budget(&c, e);
            aims.push((e, b.soft));
            c.remaining = c.remaining - b.soft + c.increment;
        }
        let aim = |e: u32| aims.iter().find(|a| a.0 == e).expect("a move").1;
        for e in [30, 24, 20] {
            assert!(aim(e) > aim(58), "{e}: {aims:?}");
            assert!(aim(e) > aim(40), "{e}: {aims:?}");
            assert!(aim(e) > aim(12) * 2, "{e}: {aims:?}");
            assert!(aim(e) > aim(6) * 5, "{e}: {aims:?}");
        }
        assert!(aim(40) > aim(58), "{aims:?}");
    }

    /// The moves left of the side to move, and the increments still to come count: they are
    /// shared out by weight like the clock, so a move of average weight gets about one more
    /// increment than its share of the clock alone.
    #[test]
    fn increments_to_come_are_shared_out() {
        assert_eq!(moves_left(60), 30);
        assert_eq!(moves_left(59), 30);
        assert_eq!(moves_left(1), 1);
        assert_eq!(moves_left(0), 1);
        let without = budget(&clock(30_000, 0), 40);
        let with = budget(&clock(30_000, 500), 40);
        // 40 empties weighs a little less than the average move: 0.9 of an increment.
        let extra = with.soft - without.soft;
        assert!(extra > Duration::from_millis(400), "{with:?} {without:?}");
        assert!(extra < Duration::from_millis(500), "{with:?} {without:?}");
        // The last move gets every usable millisecond up to the cap, but no increment to come.
        let last = budget(&clock(1_000, 500), 1);
        assert_eq!(last.soft, last.hard);
        assert!(last.hard <= usable(Duration::from_secs(1)));
    }

    /// A fixed time a move does not stretch for a solve.
    #[test]
    fn a_fixed_time_does_not_stretch() {
        let b = fixed(Duration::from_millis(300));
        assert_eq!((b.hard, b.solve), (b.soft, b.soft));
    }

    #[test]
    fn simulated_time_passes_with_the_nodes() {
        let w = Stopwatch::start(TimeSource::PerNode(Duration::from_micros(2)));
        assert_eq!(w.elapsed(0), Duration::ZERO);
        assert_eq!(w.elapsed(1_500), Duration::from_millis(3));
        assert_eq!(w.elapsed(u64::MAX), Duration::from_nanos(u64::MAX));
    }
}
