//! Players' game ratings: Glicko-2 (the engine's `virada_engine::glicko`) per category of
//! estimated duration, what a finished game means for them, and the values every store
//! computes inside the transaction that ends a rated game (`GameStore::save`).
//!
//! A category follows lichess's bands on the estimated duration `initial + 40 x increment`:
//! bullet under 3 minutes, blitz under 8, rapid under 25, classical from 25; correspondence
//! (days per move) apart. An untimed game has no category and cannot be rated.
//! A game is one rating period with one result (1 a win, 0.5 a draw, 0 a loss), each player
//! rated against the other's rating before the game. A rating is provisional while its
//! deviation is [`PROVISIONAL_RD`] or more.

use crate::identity::BrowserId;
use crate::model::online::{End, OnlineGame, Phase, SeatState, TimeControl};
use crate::model::GameRecord;
use virada_engine::glicko::{after_game, Rating};
use virada_rules::{Color, Move};

/// A rating is provisional while its deviation is at least this.
pub const PROVISIONAL_RD: f64 = 110.0;
/// The guard against feeding a rating (one account losing on purpose to another): at most this
/// many rated games between the same two accounts move their ratings in any
/// [`PAIR_WINDOW_MS`]; the ones after end unrated and the pair is flagged for the admins
/// (docs/SECURITY.md, "Rated games").
pub const PAIR_RATED_PER_WINDOW: i64 = 3;
pub const PAIR_WINDOW_MS: i64 = 24 * 3600 * 1000;

/// A rating category.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum Category {
    Bullet,
    Blitz,
    Rapid,
    Classical,
    Correspondence,
}

impl Category {
    pub const ALL: [Category; 5] = [
        Category::Bullet,
        Category::Blitz,
        Category::Rapid,
        Category::Classical,
        Category::Correspondence,
    ];

    /// `bullet`, `blitz`, `rapid`, `classical`, `correspondence` (API and stored column).
    pub fn name(self) -> &'static str {
        match self {
            Category::Bullet => "bullet",
            Category::Blitz => "blitz",
            Category::Rapid => "rapid",
            Category::Classical => "classical",
            Category::Correspondence => "correspondence",
        }
    }

    pub fn from_name(name: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The category of a time control (`None`: untimed, never rated).
    pub fn of(tc: TimeControl) -> Option<Category> {
        match tc {
            TimeControl::None {} => None,
            TimeControl::Correspondence { .. } => Some(Category::Correspondence),
            TimeControl::Clock {
                minutes,
                increment_seconds,
            } => {
                let seconds = u64::from(minutes) * 60 + 40 * u64::from(increment_seconds);
                Some(match seconds {
                    s if s < 3 * 60 => Category::Bullet,
                    s if s < 8 * 60 => Category::Blitz,
                    s if s < 25 * 60 => Category::Rapid,
                    _ => Category::Classical,
                })
            }
        }
    }
}

/// A player's rating in one category.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayerRating {
    pub rating: Rating,
    /// Rated games played in the category.
    pub games: u32,
}

impl PlayerRating {
    /// A player's rating before their first rated game in a category.
    pub const NEW: PlayerRating = PlayerRating {
        rating: Rating::NEW_PLAYER,
        games: 0,
    };

    pub fn provisional(&self) -> bool {
        self.rating.rd >= PROVISIONAL_RD
    }
}

/// What a finished rated game means for ratings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatedOutcome {
    pub category: Category,
    /// The seats' accounts (their identities: each seat's first holder).
    pub black: BrowserId,
    pub white: BrowserId,
    /// Black's score: 1 a win, 0.5 a draw, 0 a loss.
    pub black_score: f64,
}

/// The rated outcome of `rec`/`o` if it is a finished rated game with a result: not aborted,
/// both sides having made a move (a side that never moved makes it an aborted game), both
/// seats taken, and a timed category. `None` for anything else.
pub fn outcome(rec: &GameRecord, o: &OnlineGame) -> Option<RatedOutcome> {
    if !o.rated {
        return None;
    }
    let Phase::Finished(end) = o.phase else {
        return None;
    };
    let category = Category::of(o.time_control)?;
    if end == End::Abort || !both_moved(rec) {
        return None;
    }
    let black_score = match end.loser() {
        Some(Color::Black) => 0.0,
        Some(Color::White) => 1.0,
        None => match rec.game.position().disc_counts().winner() {
            Some(Color::Black) => 1.0,
            Some(Color::White) => 0.0,
            None => 0.5,
        },
    };
    Some(RatedOutcome {
        category,
        black: first_holder(&o.black)?,
        white: first_holder(&o.white)?,
        black_score,
    })
}

/// The identity that took a seat (later holders came through device links).
fn first_holder(seat: &SeatState) -> Option<BrowserId> {
    match seat {
        SeatState::Taken { holders, .. } => holders.first().copied(),
        SeatState::Free => None,
    }
}

/// Whether each side played at least one disc (passes do not count).
pub fn both_moved(rec: &GameRecord) -> bool {
    let positions = rec.game.positions();
    let mut moved = [false, false];
    for (i, mv) in rec.game.moves().iter().enumerate() {
        if let (Move::Play(_), Some(p)) = (mv, positions.get(i)) {
            moved[usize::from(p.side_to_move() == Color::White)] = true;
        }
    }
    moved == [true, true]
}

/// Both ratings after a game (Black's first), each against the other's before it.
pub fn after(
    black: PlayerRating,
    white: PlayerRating,
    black_score: f64,
) -> (PlayerRating, PlayerRating) {
    let (b, w) = after_game(black.rating, white.rating, black_score);
    (
        PlayerRating {
            rating: b,
            games: black.games + 1,
        },
        PlayerRating {
            rating: w,
            games: white.games + 1,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(minutes: u32, increment_seconds: u32) -> Option<Category> {
        Category::of(TimeControl::Clock {
            minutes,
            increment_seconds,
        })
    }

    #[test]
    fn categories_follow_the_estimated_duration() {
        assert_eq!(clock(1, 0), Some(Category::Bullet));
        // 2 + 40 x 1 s = 2:40: bullet; 3 + 0 = 3:00: blitz.
        assert_eq!(clock(2, 1), Some(Category::Bullet));
        assert_eq!(clock(3, 0), Some(Category::Blitz));
        assert_eq!(clock(3, 2), Some(Category::Blitz));
        // 5 + 40 x 5 s = 8:20: rapid.
        assert_eq!(clock(5, 5), Some(Category::Rapid));
        assert_eq!(clock(10, 5), Some(Category::Rapid));
        assert_eq!(clock(25, 0), Some(Category::Classical));
        assert_eq!(Category::of(TimeControl::None {}), None);
        assert_eq!(
            Category::of(TimeControl::Correspondence { days: 3 }),
            Some(Category::Correspondence)
        );
        for c in Category::ALL {
            assert_eq!(Category::from_name(c.name()), Some(c));
        }
    }

    #[test]
    fn provisional_below_110() {
        let mut r = PlayerRating::NEW;
        assert!(r.provisional());
        r.rating.rd = 110.0;
        assert!(r.provisional());
        r.rating.rd = 109.9;
        assert!(!r.provisional());
    }
}
