//! Match results from player A's view: W-D-L, score, Elo with a 95% margin, disc margin,
//! time per side, forfeits.

use super::PlayedGame;
use std::time::Duration;
use virada_rules::{Color, Game};

/// Player A or player B.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    A,
    B,
}

/// A game lost by forfeit: who, with which colour, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Forfeit {
    pub loser: Side,
    pub color: Color,
    pub reason: String,
}

/// Disc difference of a forfeited game (the whole board to the other side).
pub const FORFEIT_SCORE: i32 = 64;

/// One finished match game.
#[derive(Clone, Debug)]
pub struct MatchGame {
    /// Position of the game in the match (0-based).
    pub index: usize,
    /// Index of the opening in the list.
    pub opening: usize,
    /// Whether player A had Black.
    pub a_black: bool,
    /// The moves played (up to the forfeit, if any).
    pub game: Game,
    /// Final WOF disc difference from A's view (±64 for a forfeit).
    pub a_score: i32,
    pub forfeit: Option<Forfeit>,
    /// Thinking time of A and B in this game.
    pub a_time: Duration,
    pub b_time: Duration,
    /// Moves chosen by A and B (forced passes not counted).
    pub a_moves: usize,
    pub b_moves: usize,
}

impl MatchGame {
    pub fn new(opening: usize, a_black: bool, played: PlayedGame) -> MatchGame {
        let (a, b) = if a_black { (0, 1) } else { (1, 0) };
        let forfeit = played.forfeit.map(|(color, reason)| Forfeit {
            loser: if (color == Color::Black) == a_black {
                Side::A
            } else {
                Side::B
            },
            color,
            reason,
        });
        let a_score = match &forfeit {
            Some(f) if f.loser == Side::A => -FORFEIT_SCORE,
            Some(_) => FORFEIT_SCORE,
            None => {
                let black = played
                    .game
                    .result()
                    .map_or(0, |r| r.difference_for(Color::Black));
                if a_black {
                    black
                } else {
                    -black
                }
            }
        };
        MatchGame {
            index: 0,
            opening,
            a_black,
            game: played.game,
            a_score,
            forfeit,
            a_time: played.time[a],
            b_time: played.time[b],
            a_moves: played.moves[a],
            b_moves: played.moves[b],
        }
    }

    /// The disc difference from Black's view (what GGF's `RE` records).
    pub fn black_score(&self) -> i32 {
        if self.a_black {
            self.a_score
        } else {
            -self.a_score
        }
    }
}

/// Match totals from player A's view.
#[derive(Clone, Debug, Default)]
pub struct MatchResult {
    pub games: Vec<MatchGame>,
}

impl MatchResult {
    pub fn wins(&self) -> usize {
        self.games.iter().filter(|g| g.a_score > 0).count()
    }
    pub fn draws(&self) -> usize {
        self.games.iter().filter(|g| g.a_score == 0).count()
    }
    pub fn losses(&self) -> usize {
        self.games.iter().filter(|g| g.a_score < 0).count()
    }

    /// Games lost by forfeit by `side`.
    pub fn forfeits(&self, side: Side) -> impl Iterator<Item = &MatchGame> {
        self.games
            .iter()
            .filter(move |g| g.forfeit.as_ref().is_some_and(|f| f.loser == side))
    }

    /// Total thinking time of A and B, and their moves.
    pub fn time_used(&self) -> ((Duration, usize), (Duration, usize)) {
        let mut t = ((Duration::ZERO, 0), (Duration::ZERO, 0));
        for g in &self.games {
            t.0 .0 += g.a_time;
            t.0 .1 += g.a_moves;
            t.1 .0 += g.b_time;
            t.1 .1 += g.b_moves;
        }
        t
    }

    /// Average disc difference (A minus B).
    pub fn average_discs(&self) -> f64 {
        let n = self.games.len().max(1) as f64;
        self.games.iter().map(|g| g.a_score as f64).sum::<f64>() / n
    }

    /// A's score: (wins + draws / 2) / games, 0..1.
    pub fn score(&self) -> f64 {
        let n = self.games.len().max(1) as f64;
        (self.wins() as f64 + 0.5 * self.draws() as f64) / n
    }

    /// Elo difference (A minus B) and its 95% error margin, from the per-game scores (a
    /// normal approximation; at 0% or 100% the score is nudged half a game inwards).
    pub fn elo(&self) -> (f64, f64) {
        let n = self.games.len().max(1) as f64;
        let half = 0.5 / n;
        let p = self.score().clamp(half, 1.0 - half);
        let elo = -400.0 * (1.0 / p - 1.0).log10();
        let per_game: Vec<f64> = self
            .games
            .iter()
            .map(|g| match g.a_score.signum() {
                1 => 1.0,
                0 => 0.5,
                _ => 0.0,
            })
            .collect();
        let mean = per_game.iter().sum::<f64>() / n;
        let mut var = per_game.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n;
        if var == 0.0 {
            // Identical results (all wins, say) carry no spread of their own: use the binomial
            // variance at the nudged score rather than claim a zero margin.
            var = p * (1.0 - p);
        }
        let se = (var / n).sqrt();
        let slope = 400.0 / (std::f64::consts::LN_10 * p * (1.0 - p));
        (elo, 1.96 * se * slope)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(forfeit: Option<Color>) -> PlayedGame {
        PlayedGame {
            game: Game::new(),
            forfeit: forfeit.map(|c| (c, "illegal move: a1".to_string())),
            time: [Duration::from_secs(1), Duration::from_secs(2)],
            moves: [3, 4],
        }
    }

    #[test]
    fn forfeits_score_the_whole_board_for_the_other_side() {
        // A is White and White forfeits.
        let g = MatchGame::new(0, false, played(Some(Color::White)));
        assert_eq!(g.forfeit.as_ref().unwrap().loser, Side::A);
        assert_eq!((g.a_score, g.black_score()), (-64, 64));
        assert_eq!(
            (g.a_time, g.b_time),
            (Duration::from_secs(2), Duration::from_secs(1))
        );
        let g2 = MatchGame::new(0, false, played(Some(Color::Black)));
        assert_eq!(g2.forfeit.as_ref().unwrap().loser, Side::B);
        let r = MatchResult { games: vec![g, g2] };
        assert_eq!((r.wins(), r.draws(), r.losses()), (1, 0, 1));
        assert_eq!(r.forfeits(Side::A).count(), 1);
        assert_eq!(r.time_used().0, (Duration::from_secs(4), 8));
    }
}
