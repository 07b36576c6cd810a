//! Virada's computer levels as rated bots (docs/LEVELS.md, "Levels as rated bots").
//!
//! Each level's rating is the measured ladder of adjacent matches (the Elo of level n+1 over
//! level n, docs/LEVELS.md, "Measured again with the shipped engine (2026-12-04)"), chained
//! from an anchor: the random mover (a uniformly random legal move) is rated 0, and level 1
//! beat it by +241 ± 93 Elo (the 2026-12-01 ladder). Glicko-2 shows ratings on the Elo scale
//! (400 points a factor of ten in the odds), so the Elo differences are Glicko-2 rating
//! differences as they are. A bot's deviation is the measurement's: the 95% margins of the
//! matches chained from the anchor, as one standard deviation (`margin / 1.96`), added in
//! squares. A bot's rating is fixed: the games against it do not move it.
//!
//! A rated game against a bot: a computer game with a clock, made by an account with
//! `"rated": true`; when it ends with a result (not aborted, each side having played a disc),
//! the player's rating in the clock's category moves against the bot's fixed rating, in the
//! transaction that stores the end ([`outcome`], each store's `rate_bot_game`).

use crate::identity::BrowserId;
use crate::model::online::{End, OnlineGame, Phase};
use crate::model::{GameRecord, Mode, Owner};
use crate::rating::{Category, PlayerRating};
use virada_engine::glicko::Rating;

/// The anchor: the random mover's rating.
pub const RANDOM_MOVER: f64 = 0.0;
/// Level 1 against the random mover: Elo and 95% margin (2026-12-01, 80 games).
pub const LEVEL1_OVER_RANDOM: (f64, f64) = (241.0, 93.0);
/// Level n+1 against level n (index n-1), Elo and 95% margin (2026-12-04 table).
pub const STEPS: [(f64, f64); 20] = [
    (319.0, 108.0),
    (636.0, 244.0),
    (301.0, 104.0),
    (359.0, 117.0),
    (269.0, 96.0),
    (127.0, 80.0),
    (158.0, 82.0),
    (127.0, 81.0),
    (124.0, 56.0),
    (68.0, 53.0),
    (129.0, 57.0),
    (98.0, 54.0),
    (68.0, 51.0),
    (76.0, 47.0),
    (78.0, 48.0),
    (70.0, 32.0),
    (61.0, 37.0),
    (75.0, 50.0),
    (76.0, 58.0),
    (215.0, 114.0),
];
/// A bot's volatility (unused: its rating never moves).
pub const BOT_VOLATILITY: f64 = 0.06;
/// The categories a bot is rated in: games with a clock (the computer takes no days per move).
pub const CATEGORIES: [Category; 4] = [
    Category::Bullet,
    Category::Blitz,
    Category::Rapid,
    Category::Classical,
];

/// Level `level`'s fixed rating (1..=21; `None` outside).
pub fn bot_rating(level: u8) -> Option<Rating> {
    let n = usize::from(level);
    if !(1..=STEPS.len() + 1).contains(&n) {
        return None;
    }
    let one_sd = |margin: f64| margin / 1.96;
    let mut rating = RANDOM_MOVER + LEVEL1_OVER_RANDOM.0;
    let mut variance = one_sd(LEVEL1_OVER_RANDOM.1).powi(2);
    for (elo, margin) in &STEPS[..n - 1] {
        rating += elo;
        variance += one_sd(*margin).powi(2);
    }
    Some(Rating::new(rating, variance.sqrt(), BOT_VOLATILITY))
}

/// What the end of a rated game against a bot means for its player.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BotOutcome {
    pub category: Category,
    /// The player's account (the game's owner).
    pub player: BrowserId,
    pub bot: Rating,
    /// The player's score: 1 a win, 0.5 a draw, 0 a loss.
    pub score: f64,
}

/// The rated outcome of a computer game `rec`/`o`: rated, with a clock, finished other than
/// by an abort, each side having played a disc. `None` for anything else.
pub fn outcome(rec: &GameRecord, o: &OnlineGame) -> Option<BotOutcome> {
    let Mode::Computer { level, human } = rec.meta.mode else {
        return None;
    };
    if !o.rated {
        return None;
    }
    let Phase::Finished(end) = o.phase else {
        return None;
    };
    let category = Category::of(o.time_control).filter(|c| CATEGORIES.contains(c))?;
    if end == End::Abort || !crate::rating::both_moved(rec) {
        return None;
    }
    let Owner::Browser(player) = rec.meta.owner else {
        return None;
    };
    let winner = match end.loser() {
        Some(loser) => Some(!loser),
        None => rec.game.position().disc_counts().winner(),
    };
    let score = match winner {
        Some(c) if c == human => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    };
    Some(BotOutcome {
        category,
        player,
        bot: bot_rating(level.get())?,
        score,
    })
}

/// The player's rating after the game (the bot's does not move).
pub fn after(player: PlayerRating, out: &BotOutcome) -> PlayerRating {
    let (r, _) = virada_engine::glicko::after_game(player.rating, out.bot, out.score);
    PlayerRating {
        rating: r,
        games: player.games + 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_chain_the_ladder_from_the_random_mover() {
        let r1 = bot_rating(1).unwrap();
        assert_eq!(r1.rating, 241.0);
        assert!((r1.rd - 93.0 / 1.96).abs() < 1e-9);
        // Level 4 sits at about a newcomer's 1,500.
        assert_eq!(bot_rating(4).unwrap().rating, 241.0 + 319.0 + 636.0 + 301.0);
        let top = bot_rating(21).unwrap();
        assert_eq!(top.rating, 241.0 + STEPS.iter().map(|s| s.0).sum::<f64>());
        for level in 2..=21 {
            let (a, b) = (bot_rating(level - 1).unwrap(), bot_rating(level).unwrap());
            assert!(b.rating > a.rating && b.rd > a.rd, "level {level}");
        }
        assert_eq!(bot_rating(0), None);
        assert_eq!(bot_rating(22), None);
    }
}
