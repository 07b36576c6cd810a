//! What an online game is beyond its board: seats, time control, clocks, phase, offers, chat.
//!
//! The board and moves stay in [`crate::model::GameRecord`]; this is the rest, owned by the
//! game's actor (`crate::game`) and kept by the store (`crate::store`). A game on one device
//! (computer, friend) has the same part, with both seats free, once it has a clock or has been
//! resigned ([`OnlineGame::local`]): its clocks, flag fall and result work as online.
//! The clock arithmetic is here, as pure functions of the times given, so it is tested without
//! a server or a clock.

use crate::identity::BrowserId;
use serde::{Deserialize, Serialize};
use virada_rules::{Color, Game, Move, Position};

/// Most characters in a display name (after trimming).
pub const NAME_MAX: usize = 24;
/// Most characters in a chat line (after trimming).
pub const CHAT_MAX: usize = 200;
/// Chat lines kept in memory and shown in the game object.
pub const CHAT_SHOWN: usize = 50;
/// Time-control bounds.
pub const MINUTES_MAX: u32 = 180;
pub const INCREMENT_MAX: u32 = 180;
pub const DAYS_MAX: u32 = 14;
const DAY_MS: i64 = 24 * 3600 * 1000;
/// How long a side of a game between two seated players has for its first move on a Fischer
/// clock before the game is aborted (no result, unrated); its clock does not run meanwhile.
pub const FIRST_MOVE_MS_CLOCK: i64 = 30_000;
/// The same in correspondence: a day (or the days per move, if fewer: never).
pub const FIRST_MOVE_MS_CORRESPONDENCE: i64 = DAY_MS;

/// How long players have.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum TimeControl {
    /// No clock.
    None {},
    /// Fischer clock: `minutes` each, `increment_seconds` added after every move.
    Clock {
        minutes: u32,
        increment_seconds: u32,
    },
    /// At most `days` per move.
    Correspondence { days: u32 },
}

impl TimeControl {
    /// Checks the bounds (docs/API.md).
    pub fn validate(self) -> Result<TimeControl, String> {
        match self {
            TimeControl::None {} => Ok(self),
            TimeControl::Clock {
                minutes,
                increment_seconds,
            } => {
                if !(1..=MINUTES_MAX).contains(&minutes) {
                    Err(format!(
                        "time_control.minutes {minutes}: must be 1 to {MINUTES_MAX}"
                    ))
                } else if increment_seconds > INCREMENT_MAX {
                    Err(format!(
                        "time_control.increment_seconds {increment_seconds}: must be 0 to {INCREMENT_MAX}"
                    ))
                } else {
                    Ok(self)
                }
            }
            TimeControl::Correspondence { days } => {
                if (1..=DAYS_MAX).contains(&days) {
                    Ok(self)
                } else {
                    Err(format!("time_control.days {days}: must be 1 to {DAYS_MAX}"))
                }
            }
        }
    }

    /// Each side's time at the start (clock), or per move (correspondence); `None`: untimed.
    pub fn allowance_ms(self) -> Option<i64> {
        match self {
            TimeControl::None {} => None,
            TimeControl::Clock { minutes, .. } => Some(i64::from(minutes) * 60_000),
            TimeControl::Correspondence { days } => Some(i64::from(days) * DAY_MS),
        }
    }

    /// How long a seated side has for its first move before the game is aborted; `None`:
    /// untimed (no limit; either player may still abort).
    pub fn first_move_window_ms(self) -> Option<i64> {
        match self {
            TimeControl::None {} => None,
            TimeControl::Clock { .. } => Some(FIRST_MOVE_MS_CLOCK),
            TimeControl::Correspondence { .. } => Some(FIRST_MOVE_MS_CORRESPONDENCE),
        }
    }

    /// Whether takebacks may be offered (untimed and correspondence games).
    pub fn allows_takeback(self) -> bool {
        !matches!(self, TimeControl::Clock { .. })
    }
}

/// A seat: free, or taken by a named player whose browsers (one or more, via device links)
/// may act for it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SeatState {
    Free,
    Taken {
        name: String,
        holders: Vec<BrowserId>,
    },
}

impl SeatState {
    pub fn holds(&self, who: BrowserId) -> bool {
        matches!(self, SeatState::Taken { holders, .. } if holders.contains(&who))
    }

    pub fn name(&self) -> Option<&str> {
        match self {
            SeatState::Free => None,
            SeatState::Taken { name, .. } => Some(name),
        }
    }

    pub fn is_taken(&self) -> bool {
        matches!(self, SeatState::Taken { .. })
    }
}

/// Why a game ended (the colour is the loser).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum End {
    /// Neither side could move: the board decides.
    Normal,
    /// Flag fall.
    Time(Color),
    Resign(Color),
    /// Correspondence: the days per move ran out.
    Deadline(Color),
    /// Stopped before two moves: no result.
    Abort,
}

impl End {
    /// `normal`, `time`, `resign`, `deadline`, `abort` (API and stored column).
    pub fn reason(self) -> &'static str {
        match self {
            End::Normal => "normal",
            End::Time(_) => "time",
            End::Resign(_) => "resign",
            End::Deadline(_) => "deadline",
            End::Abort => "abort",
        }
    }

    pub fn loser(self) -> Option<Color> {
        match self {
            End::Time(c) | End::Resign(c) | End::Deadline(c) => Some(c),
            End::Normal | End::Abort => None,
        }
    }

    /// Reads the stored columns.
    pub fn from_columns(reason: &str, loser: Option<Color>) -> Option<End> {
        match (reason, loser) {
            ("normal", None) => Some(End::Normal),
            ("abort", None) => Some(End::Abort),
            ("time", Some(c)) => Some(End::Time(c)),
            ("resign", Some(c)) => Some(End::Resign(c)),
            ("deadline", Some(c)) => Some(End::Deadline(c)),
            _ => None,
        }
    }
}

/// Where the game is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Phase {
    /// A seat is free.
    Waiting,
    /// Both seats taken; the side to move's turn began at `turn_started_at` (Unix ms).
    Playing {
        turn_started_at: i64,
    },
    Finished(End),
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Waiting => "waiting",
            Phase::Playing { .. } => "playing",
            Phase::Finished(_) => "finished",
        }
    }
}

/// One chat line.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ChatLine {
    pub n: u32,
    pub from: Color,
    pub text: String,
    /// Unix ms.
    pub at: i64,
}

/// Pending offers: the side that made each.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Offers {
    pub takeback: Option<Color>,
    pub rematch: Option<Color>,
}

/// Everything about an online game except the board.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct OnlineGame {
    pub time_control: TimeControl,
    pub black: SeatState,
    pub white: SeatState,
    pub phase: Phase,
    /// Time each side has left at the start of the current turn (clock games), or the
    /// allowance for the side's next move (correspondence); 0 and unused in untimed games.
    pub black_ms: i64,
    pub white_ms: i64,
    pub offers: Offers,
    pub rematch_game: Option<String>,
    /// The last [`CHAT_SHOWN`] lines.
    pub chat: Vec<ChatLine>,
    /// The number of the last chat line (0: none yet).
    pub chat_count: u32,
    /// A rated game (both seats held by accounts; `crate::rating`): its end moves the players'
    /// ratings, in the store transaction that stores it. Fixed when the game is made; a
    /// rematch keeps it.
    pub rated: bool,
}

impl OnlineGame {
    /// A new game waiting for its second player; `creator` holds `color`.
    pub fn new(time_control: TimeControl, color: Color, creator: BrowserId, name: String) -> Self {
        let start = time_control.allowance_ms().unwrap_or(0);
        let mut g = OnlineGame {
            time_control,
            black: SeatState::Free,
            white: SeatState::Free,
            phase: Phase::Waiting,
            black_ms: start,
            white_ms: start,
            offers: Offers::default(),
            rematch_game: None,
            chat: Vec::new(),
            chat_count: 0,
            rated: false,
        };
        *g.seat_mut(color) = SeatState::Taken {
            name,
            holders: vec![creator],
        };
        g
    }

    /// The clock and result of a game on one device (against the computer, or a friend): no
    /// seats (nobody takes one), playing from `now` with `time_control`'s allowance each.
    pub fn local(time_control: TimeControl, now: i64) -> Self {
        let start = time_control.allowance_ms().unwrap_or(0);
        OnlineGame {
            time_control,
            black: SeatState::Free,
            white: SeatState::Free,
            phase: Phase::Playing {
                turn_started_at: now,
            },
            black_ms: start,
            white_ms: start,
            offers: Offers::default(),
            rematch_game: None,
            chat: Vec::new(),
            chat_count: 0,
            rated: false,
        }
    }

    /// Whether a clock runs in this game (a Fischer clock or days per move).
    pub fn is_timed(&self) -> bool {
        self.time_control.allowance_ms().is_some()
    }

    pub fn seat(&self, c: Color) -> &SeatState {
        match c {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }

    pub fn seat_mut(&mut self, c: Color) -> &mut SeatState {
        match c {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }

    /// The seat `who` holds, if any.
    pub fn seat_of(&self, who: BrowserId) -> Option<Color> {
        [Color::Black, Color::White]
            .into_iter()
            .find(|&c| self.seat(c).holds(who))
    }

    pub fn remaining(&self, c: Color) -> i64 {
        match c {
            Color::Black => self.black_ms,
            Color::White => self.white_ms,
        }
    }

    fn remaining_mut(&mut self, c: Color) -> &mut i64 {
        match c {
            Color::Black => &mut self.black_ms,
            Color::White => &mut self.white_ms,
        }
    }

    /// When `to_move` loses on time, if a clock runs.
    pub fn deadline(&self, to_move: Color) -> Option<i64> {
        match (self.phase, self.time_control.allowance_ms()) {
            (Phase::Playing { turn_started_at }, Some(_)) => {
                Some(turn_started_at.saturating_add(self.remaining(to_move)))
            }
            _ => None,
        }
    }

    /// The time `c` has left at `now` (the running side's clock counted down).
    pub fn remaining_at(&self, c: Color, to_move: Option<Color>, now: i64) -> i64 {
        match (self.phase, to_move) {
            (Phase::Playing { turn_started_at }, Some(side)) if side == c => {
                (self.remaining(c) - (now - turn_started_at).max(0)).max(0)
            }
            _ => self.remaining(c),
        }
    }

    /// The side that loses when its time runs out (`Time` or `Deadline`).
    pub fn out_of_time(&self, loser: Color) -> End {
        match self.time_control {
            TimeControl::Correspondence { .. } => End::Deadline(loser),
            _ => End::Time(loser),
        }
    }

    /// Charges `mover` for a move that arrived at `arrived_ms` and was stored at `stored_ms`:
    /// the time since its turn began is taken off and the increment added (clock games), or the
    /// allowance renewed (correspondence); the next turn begins at `stored_ms`. Forced passes
    /// that follow cost nothing: the next turn, whoever's it is, starts at `stored_ms`.
    /// A side's `first` move costs nothing and adds nothing: its clock starts with it.
    pub fn charge_move(&mut self, mover: Color, first: bool, arrived_ms: i64, stored_ms: i64) {
        let Phase::Playing { turn_started_at } = self.phase else {
            return;
        };
        match self.time_control {
            TimeControl::None {} => {}
            _ if first => {}
            TimeControl::Clock {
                increment_seconds, ..
            } => {
                let used = (arrived_ms - turn_started_at).max(0);
                let left = self.remaining_mut(mover);
                *left = (*left - used).max(0) + i64::from(increment_seconds) * 1000;
            }
            TimeControl::Correspondence { .. } => {
                *self.remaining_mut(mover) = self.time_control.allowance_ms().unwrap_or(0);
            }
        }
        self.phase = Phase::Playing {
            turn_started_at: stored_ms,
        };
    }

    /// Keeps the last [`CHAT_SHOWN`] lines after adding `line`.
    pub fn push_chat(&mut self, line: ChatLine) {
        self.chat_count = line.n;
        self.chat.push(line);
        if self.chat.len() > CHAT_SHOWN {
            let extra = self.chat.len() - CHAT_SHOWN;
            self.chat.drain(..extra);
        }
    }
}

/// The score of a game lost by `loser` on time, by resignation or by deadline: the winner gets
/// the disc count with the empties, but at least 33-31. Returns (black, white).
pub fn forfeit_score(pos: &Position, loser: Color) -> (u8, u8) {
    forfeit_score_of_counts(pos.black().count() as u8, pos.white().count() as u8, loser)
}

/// [`forfeit_score`] from the disc counts (`black`, `white`) of the final board.
pub fn forfeit_score_of_counts(black: u8, white: u8, loser: Color) -> (u8, u8) {
    let empties = 64 - black - white;
    let (winner_discs, _) = match loser {
        Color::White => (black, white),
        Color::Black => (white, black),
    };
    let winner = (winner_discs + empties).max(33);
    let loser_score = 64 - winner;
    match loser {
        Color::White => (winner, loser_score),
        Color::Black => (loser_score, winner),
    }
}

/// A display name or chat text, checked: trimmed, `1..=max` characters, no control characters.
pub fn checked_text(what: &str, text: &str, max: usize) -> Result<String, String> {
    let t = text.trim();
    let n = t.chars().count();
    if n == 0 {
        return Err(format!("{what} is empty"));
    }
    if n > max {
        return Err(format!("{what} has {n} characters: at most {max}"));
    }
    if let Some(c) = t.chars().find(|c| c.is_control()) {
        return Err(format!(
            "{what} contains the control character U+{:04X}",
            c as u32
        ));
    }
    Ok(t.to_string())
}

/// Whether `c` has played a move (a pass is not one) in `game`: its clock starts with it.
pub fn has_moved(game: &Game, c: Color) -> bool {
    let positions = game.positions();
    game.moves().iter().enumerate().any(|(i, mv)| {
        matches!(mv, Move::Play(_)) && positions.get(i).is_some_and(|p| p.side_to_move() == c)
    })
}

/// The side whose clock runs now: the side to move of a timed game being played, once it has
/// made its first move (before, its clock waits; lichess's rule).
pub fn running_clock(rec: &crate::model::GameRecord, o: &OnlineGame) -> Option<Color> {
    let pos = rec.game.position();
    match o.phase {
        Phase::Playing { .. } if o.is_timed() && !pos.is_game_over() => {
            Some(pos.side_to_move()).filter(|&c| has_moved(&rec.game, c))
        }
        _ => None,
    }
}

/// When a game between two seated players is aborted because the side to move has not made
/// its first move in time ([`TimeControl::first_move_window_ms`]). Games on one device have no
/// such limit (their clocks just wait).
pub fn abort_at(rec: &crate::model::GameRecord, o: &OnlineGame) -> Option<i64> {
    let pos = rec.game.position();
    let Phase::Playing { turn_started_at } = o.phase else {
        return None;
    };
    if pos.is_game_over()
        || !(o.black.is_taken() && o.white.is_taken())
        || has_moved(&rec.game, pos.side_to_move())
    {
        return None;
    }
    let window = o.time_control.first_move_window_ms()?;
    Some(turn_started_at.saturating_add(window))
}

/// When the side to move of `rec` loses on time, if its clock runs, or when the game is aborted
/// for want of a first move (what the store keeps as the game's deadline, watched by the flag
/// scheduler; [`flag_end`] says which).
pub fn flag_at(rec: &crate::model::GameRecord, o: &OnlineGame) -> Option<i64> {
    match running_clock(rec, o) {
        Some(c) => o.deadline(c),
        None => abort_at(rec, o),
    }
}

/// How the game ends when its deadline ([`flag_at`]) passes: aborted if the side to move had
/// not made its first move, else that side loses on time.
pub fn flag_end(rec: &crate::model::GameRecord, o: &OnlineGame) -> End {
    let to_move = rec.game.position().side_to_move();
    if has_moved(&rec.game, to_move) {
        o.out_of_time(to_move)
    } else {
        End::Abort
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock_game(minutes: u32, inc: u32) -> OnlineGame {
        let who = BrowserId::of_token("a");
        let mut g = OnlineGame::new(
            TimeControl::Clock {
                minutes,
                increment_seconds: inc,
            },
            Color::Black,
            who,
            "Ana".into(),
        );
        g.phase = Phase::Playing {
            turn_started_at: 1_000,
        };
        g
    }

    #[test]
    fn increments_are_added_after_the_time_used() {
        let mut g = clock_game(1, 2);
        assert_eq!(g.deadline(Color::Black), Some(61_000));
        // Black's first move is free: its clock starts with it.
        g.charge_move(Color::Black, true, 5_000, 5_000);
        assert_eq!(g.black_ms, 60_000);
        g.phase = Phase::Playing {
            turn_started_at: 1_000,
        };
        // Black thinks 10 s; the move is stored 5 ms later.
        g.charge_move(Color::Black, false, 11_000, 11_005);
        assert_eq!(g.black_ms, 60_000 - 10_000 + 2_000);
        assert_eq!(
            g.phase,
            Phase::Playing {
                turn_started_at: 11_005
            }
        );
        assert_eq!(g.deadline(Color::White), Some(11_005 + 60_000));
        assert_eq!(
            g.remaining_at(Color::White, Some(Color::White), 21_005),
            50_000
        );
        assert_eq!(
            g.remaining_at(Color::Black, Some(Color::White), 21_005),
            52_000
        );
        // A forced pass: Black moves again, its clock starts at the store time.
        g.charge_move(Color::White, false, 12_005, 12_010);
        g.charge_move(Color::Black, false, 13_010, 13_020);
        assert_eq!(g.black_ms, 52_000 - 1_000 + 2_000);
    }

    #[test]
    fn correspondence_renews_the_allowance() {
        let who = BrowserId::of_token("a");
        let mut g = OnlineGame::new(
            TimeControl::Correspondence { days: 2 },
            Color::White,
            who,
            "Ana".into(),
        );
        assert_eq!(g.seat_of(who), Some(Color::White));
        g.phase = Phase::Playing { turn_started_at: 0 };
        assert_eq!(g.deadline(Color::Black), Some(2 * DAY_MS));
        g.charge_move(Color::Black, false, DAY_MS, DAY_MS + 1);
        assert_eq!(g.black_ms, 2 * DAY_MS);
        assert_eq!(g.deadline(Color::White), Some(3 * DAY_MS + 1));
        assert_eq!(g.out_of_time(Color::White), End::Deadline(Color::White));
    }

    #[test]
    fn forfeits_give_the_winner_at_least_33() {
        let start = Position::start();
        assert_eq!(forfeit_score(&start, Color::White), (62, 2));
        // Black 40, White 20, 4 empties; White loses on time: 44-20.
        let pos = Position::from_colors((1u64 << 40) - 1, ((1u64 << 20) - 1) << 40, Color::White)
            .unwrap();
        assert_eq!(forfeit_score(&pos, Color::White), (44, 20));
        // Black loses: White gets 20 + 4 = 24, raised to 33.
        assert_eq!(forfeit_score(&pos, Color::Black), (31, 33));
    }

    #[test]
    fn names_and_time_controls_are_checked() {
        assert_eq!(checked_text("name", "  Ana ", NAME_MAX).unwrap(), "Ana");
        assert!(checked_text("name", "   ", NAME_MAX).is_err());
        assert!(checked_text("name", &"x".repeat(25), NAME_MAX).is_err());
        assert!(checked_text("name", "a\u{7}b", NAME_MAX).is_err());
        assert_eq!(
            checked_text("name", &"é".repeat(24), NAME_MAX)
                .unwrap()
                .chars()
                .count(),
            24
        );
        let bad = TimeControl::Clock {
            minutes: 0,
            increment_seconds: 0,
        };
        assert!(bad.validate().is_err());
        assert!(TimeControl::Correspondence { days: 15 }.validate().is_err());
        let tc: TimeControl =
            serde_json::from_str(r#"{"kind":"clock","minutes":3,"increment_seconds":2}"#).unwrap();
        assert_eq!(tc.allowance_ms(), Some(180_000));
        assert!(serde_json::from_str::<TimeControl>(r#"{"kind":"clock","minutes":3}"#).is_err());
        assert!(serde_json::from_str::<TimeControl>(r#"{"kind":"none","x":1}"#).is_err());
    }
}
