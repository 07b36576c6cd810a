//! Final results: disc counts and World Othello Federation (WOF) scores.

use crate::Color;
use std::fmt;

/// Player-view WOF disc difference for a finished game with `own` and `other` discs: the empty
/// squares go to the winner; a draw stays 0.
#[inline]
pub const fn wof_diff(own: u32, other: u32) -> i32 {
    let own = own as i32;
    let other = other as i32;
    let empties = 64 - own - other;
    let diff = own - other;
    if diff > 0 {
        diff + empties
    } else if diff < 0 {
        diff - empties
    } else {
        0
    }
}

/// Which scoring convention to report.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Scoring {
    /// World Othello Federation: empties to the winner, totals always 64 (the default).
    #[default]
    Wof,
    /// Raw disc count.
    Discs,
}

/// The result of a finished game.
///
/// ```
/// use virada_rules::{Color, GameResult};
/// let r = GameResult::new(32, 29);
/// assert_eq!(r.wof(), (35, 29));
/// assert_eq!(r.winner(), Some(Color::Black));
/// assert_eq!(r.difference_for(Color::White), -6);
/// assert_eq!(r.to_string(), "35-29");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GameResult {
    /// Black discs on the board at the end.
    pub black_discs: u8,
    /// White discs on the board at the end.
    pub white_discs: u8,
}

impl GameResult {
    pub const fn new(black_discs: u8, white_discs: u8) -> GameResult {
        GameResult {
            black_discs,
            white_discs,
        }
    }

    /// Empty squares left at the end.
    pub const fn empties(&self) -> u8 {
        64 - self.black_discs - self.white_discs
    }

    /// The winner, or `None` for a draw (equal disc counts).
    pub const fn winner(&self) -> Option<Color> {
        if self.black_discs > self.white_discs {
            Some(Color::Black)
        } else if self.white_discs > self.black_discs {
            Some(Color::White)
        } else {
            None
        }
    }

    /// (Black, White) under WOF scoring: empties to the winner, a draw split 32-32.
    pub const fn wof(&self) -> (u8, u8) {
        let e = self.empties();
        match self.winner() {
            Some(Color::Black) => (self.black_discs + e, self.white_discs),
            Some(Color::White) => (self.black_discs, self.white_discs + e),
            None => (32, 32),
        }
    }

    /// (Black, White) under the chosen convention.
    pub const fn score(&self, scoring: Scoring) -> (u8, u8) {
        match scoring {
            Scoring::Wof => self.wof(),
            Scoring::Discs => (self.black_discs, self.white_discs),
        }
    }

    /// Final WOF disc difference from `color`'s point of view (-64..=64).
    pub const fn difference_for(&self, color: Color) -> i32 {
        let (b, w) = self.wof();
        match color {
            Color::Black => b as i32 - w as i32,
            Color::White => w as i32 - b as i32,
        }
    }

    /// Whether the WOF score differs from the raw count (the game ended with empties and a winner).
    pub const fn wof_differs(&self) -> bool {
        self.empties() > 0 && self.winner().is_some()
    }
}

impl fmt::Display for GameResult {
    /// The WOF score, Black first: `35-29`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (b, w) = self.wof();
        write!(f, "{b}-{w}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wof_examples() {
        assert_eq!(GameResult::new(32, 29).wof(), (35, 29));
        assert_eq!(GameResult::new(33, 31).wof(), (33, 31));
        assert_eq!(GameResult::new(30, 30).wof(), (32, 32));
        assert_eq!(GameResult::new(13, 0).wof(), (64, 0));
        assert_eq!(GameResult::new(0, 9).wof(), (0, 64));
        assert_eq!(wof_diff(32, 29), 6);
        assert_eq!(wof_diff(29, 32), -6);
        assert_eq!(wof_diff(30, 30), 0);
        assert_eq!(wof_diff(13, 0), 64);
    }
}
