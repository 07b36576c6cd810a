//! Playing levels 1 to 21: what each one searches, and how the beginner levels err.
//!
//! | level | midgame depth | exact from (empties) | mistakes |
//! |---|---|---|---|
//! | 1 | 1 | — | any move losing up to 24 discs, almost at random among them but preferring "natural" moves |
//! | 2 | 1 | 2 | up to 16 discs (temperature 16) |
//! | 3 | 2 | 4 | up to 12 discs (temperature 6) |
//! | 4 | 2 | 6 | up to 6 discs (temperature 2.5) |
//! | 5 | 3 | 8 | up to 3 discs (temperature 1) |
//! | 6..=20 | see [`Level::spec`] | | none |
//! | 21 | unlimited (time-limited) | 26 | none: the engine's full strength |
//!
//! Beginner mistakes are human-like, not random: the level evaluates every move with its
//! shallow search, keeps those losing at most `max_loss` discs against its best, and picks
//! among them with a preference for moves a beginner finds natural (flipping many discs,
//! edges, an obvious corner), weighted down as the loss grows.

use crate::search::{Limits, Selectivity};
use std::time::Duration;

/// Highest level.
pub const MAX_LEVEL: u8 = 21;

/// A playing level, 1 (beginner) to 21 (maximum).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(pub u8);

/// How a beginner level errs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mistakes {
    /// Largest disc loss (against the level's own best move) a chosen move may have.
    pub max_loss: f32,
    /// Discs of loss that divide a move's weight by e (smaller = closer to best play).
    pub temperature: f32,
}

/// What a level does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevelSpec {
    /// Midgame depth in plies (`None`: as deep as the time allows).
    pub depth: Option<u32>,
    /// Solve exactly when at most this many squares are empty.
    pub exact_empties: u32,
    /// Human-like mistakes (beginner levels only).
    pub mistakes: Option<Mistakes>,
}

const fn mistakes(max_loss: f32, temperature: f32) -> Option<Mistakes> {
    Some(Mistakes {
        max_loss,
        temperature,
    })
}

impl Level {
    /// The level, clamped to `1..=21`.
    pub fn new(n: u8) -> Level {
        Level(n.clamp(1, MAX_LEVEL))
    }

    /// Every level, weakest first.
    pub fn all() -> impl Iterator<Item = Level> {
        (1..=MAX_LEVEL).map(Level)
    }

    /// The level's search depth, exact-solve threshold and mistakes.
    pub fn spec(self) -> LevelSpec {
        let n = self.0.clamp(1, MAX_LEVEL);
        let (depth, exact_empties, mistakes) = match n {
            1 => (1, 0, mistakes(24.0, 200.0)),
            2 => (1, 2, mistakes(16.0, 16.0)),
            3 => (2, 4, mistakes(12.0, 6.0)),
            4 => (2, 6, mistakes(6.0, 2.5)),
            5 => (3, 8, mistakes(3.0, 1.0)),
            // 6 -> depth 4, exact 10; every level adds a ply and every other level two
            // exact empties.
            6..=18 => (n as u32 - 2, 10 + 2 * ((n as u32 - 6) / 2), None),
            19 => (18, 22, None),
            20 => (20, 24, None),
            _ => {
                return LevelSpec {
                    depth: None,
                    exact_empties: 26,
                    mistakes: None,
                }
            }
        };
        LevelSpec {
            depth: Some(depth),
            exact_empties,
            mistakes,
        }
    }

    /// The search limits of this level. The maximum level has no depth limit: it needs a time
    /// or a clock, and gets 10 seconds a move when given neither.
    pub fn limits(self) -> Limits {
        let spec = self.spec();
        Limits {
            depth: spec.depth,
            exact_empties: Some(spec.exact_empties),
            selectivity: Some(Selectivity::DEFAULT),
            time: if spec.depth.is_none() {
                Some(Duration::from_secs(10))
            } else {
                None
            },
            ..Limits::default()
        }
    }

    /// What the level means, in plain English.
    pub fn describe(self) -> String {
        let s = self.spec();
        let depth = match s.depth {
            Some(d) => format!("looks {d} move{} ahead", if d == 1 { "" } else { "s" }),
            None => "searches as deep as its time allows".to_string(),
        };
        let exact = if s.exact_empties == 0 {
            String::new()
        } else {
            format!(", plays perfectly in the last {} moves", s.exact_empties)
        };
        let errs = match s.mistakes {
            Some(m) => format!(
                "; beginner: makes human-like mistakes of up to {} discs",
                m.max_loss
            ),
            None => String::new(),
        };
        format!("Level {}: {depth}{exact}{errs}.", self.0)
    }

    /// What the level means, in Brazilian Portuguese.
    pub fn describe_pt(self) -> String {
        let s = self.spec();
        let depth = match s.depth {
            Some(1) => "pensa 1 jogada à frente".to_string(),
            Some(d) => format!("pensa {d} jogadas à frente"),
            None => "pensa o mais fundo que o tempo permite".to_string(),
        };
        let exact = if s.exact_empties == 0 {
            String::new()
        } else {
            format!(
                ", joga perfeitamente nas últimas {} jogadas",
                s.exact_empties
            )
        };
        let errs = match s.mistakes {
            Some(m) => format!(
                "; iniciante: comete erros humanos de até {} discos",
                m.max_loss
            ),
            None => String::new(),
        };
        format!("Nível {}: {depth}{exact}{errs}.", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_grow_monotonically() {
        let mut prev_depth = 0;
        let mut prev_exact = 0;
        for l in Level::all() {
            let s = l.spec();
            let d = s.depth.unwrap_or(u32::MAX);
            assert!(d >= prev_depth, "{l:?}");
            assert!(s.exact_empties >= prev_exact, "{l:?}");
            prev_depth = d;
            prev_exact = s.exact_empties;
            assert!(l.describe().starts_with(&format!("Level {}", l.0)));
            assert!(l.describe_pt().starts_with(&format!("Nível {}", l.0)));
        }
        assert!(Level(1).spec().mistakes.is_some());
        assert!(Level(6).spec().mistakes.is_none());
        assert_eq!(Level::new(0), Level(1));
        assert_eq!(Level::new(99), Level(21));
        assert!(Level(21).limits().time.is_some());
    }
}
