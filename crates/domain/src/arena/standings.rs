//! The arena's rules as pure functions of what is stored: the standings (points with the
//! streak bonus) and who plays whom next (docs/API.md, "Arenas").

use super::{ArenaFull, ArenaResult};
use crate::identity::BrowserId;
use std::collections::HashMap;
use virada_rules::Color;

/// Points for a win, a draw and a loss, before the streak bonus doubles them.
pub const WIN: u32 = 2;
pub const DRAW: u32 = 1;
/// Wins in a row after which wins and draws score double ("on fire"), until a game that is not
/// a win.
pub const FIRE_AFTER: u32 = 2;

/// Where an arena is in its time window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Upcoming,
    Running,
    Finished,
}

impl Status {
    pub fn of(starts_at: i64, ends_at: i64, now: i64) -> Status {
        if now < starts_at {
            Status::Upcoming
        } else if now < ends_at {
            Status::Running
        } else {
            Status::Finished
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Status::Upcoming => "upcoming",
            Status::Running => "running",
            Status::Finished => "finished",
        }
    }
}

/// One scored game on a player's sheet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scored {
    /// `win`, `draw` or `loss` for this player.
    pub outcome: Outcome,
    pub points: u32,
    /// Scored double (the player was on fire).
    pub double: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

impl Outcome {
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
            Outcome::Loss => "loss",
        }
    }
}

/// A player's line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub holder: BrowserId,
    pub username: String,
    pub rating: f64,
    pub active: bool,
    pub points: u32,
    /// Scored games (aborted ones left out), in the order played.
    pub sheet: Vec<Scored>,
    /// Wins in a row at the end of the sheet.
    pub streak: u32,
    /// The running game, if any.
    pub playing: Option<String>,
    /// Whites minus blacks played (colour balance for the next pairing).
    pub white_balance: i32,
    pub last_color: Option<Color>,
    pub last_opponent: Option<BrowserId>,
    /// The order they joined in (from 0).
    pub joined: usize,
}

impl Standing {
    /// On fire: the next win or draw scores double.
    pub fn fire(&self) -> bool {
        self.streak >= FIRE_AFTER
    }

    pub fn count(&self, o: Outcome) -> usize {
        self.sheet.iter().filter(|s| s.outcome == o).count()
    }
}

/// Scores one game for a player whose wins in a row before it are `streak`; the streak after.
pub fn score(outcome: Outcome, streak: u32) -> (Scored, u32) {
    let double = streak >= FIRE_AFTER && outcome != Outcome::Loss;
    let base = match outcome {
        Outcome::Win => WIN,
        Outcome::Draw => DRAW,
        Outcome::Loss => 0,
    };
    let points = if double { base * 2 } else { base };
    let after = if outcome == Outcome::Win {
        streak + 1
    } else {
        0
    };
    (
        Scored {
            outcome,
            points,
            double,
        },
        after,
    )
}

/// The standings: every player, ranked by points, then rating, then who joined first.
pub fn standings(full: &ArenaFull) -> Vec<Standing> {
    let mut lines: Vec<Standing> = full
        .players
        .iter()
        .enumerate()
        .map(|(joined, p)| Standing {
            holder: p.holder,
            username: p.username.clone(),
            rating: p.rating,
            active: p.active,
            points: 0,
            sheet: Vec::new(),
            streak: 0,
            playing: None,
            white_balance: 0,
            last_color: None,
            last_opponent: None,
            joined,
        })
        .collect();
    let index: HashMap<BrowserId, usize> = lines
        .iter()
        .enumerate()
        .map(|(i, s)| (s.holder, i))
        .collect();
    for g in &full.games {
        for (me, other, color) in [
            (g.black, g.white, Color::Black),
            (g.white, g.black, Color::White),
        ] {
            let Some(&i) = index.get(&me) else { continue };
            let line = &mut lines[i];
            line.white_balance += if color == Color::White { 1 } else { -1 };
            line.last_color = Some(color);
            line.last_opponent = Some(other);
            let outcome = match (g.result, color) {
                (None, _) => {
                    line.playing = Some(g.game_id.clone());
                    continue;
                }
                (Some(ArenaResult::Aborted), _) => continue,
                (Some(ArenaResult::Draw), _) => Outcome::Draw,
                (Some(ArenaResult::BlackWins), Color::Black)
                | (Some(ArenaResult::WhiteWins), Color::White) => Outcome::Win,
                (Some(_), _) => Outcome::Loss,
            };
            let (scored, streak) = score(outcome, line.streak);
            line.points += scored.points;
            line.streak = streak;
            line.sheet.push(scored);
        }
    }
    lines.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.rating.total_cmp(&a.rating))
            .then(a.joined.cmp(&b.joined))
    });
    lines
}

/// The next games among the players waiting (active, not playing), taken in the order of the
/// standings: each in turn plays the next one below who was not their last opponent, or their
/// last opponent when nobody else waits; an odd one out waits. Two players for whom `may_meet`
/// says no (one blocks the other) are never paired. Returns (black, white) pairs.
pub fn pairings(
    standings: &[Standing],
    may_meet: impl Fn(BrowserId, BrowserId) -> bool,
) -> Vec<(BrowserId, BrowserId)> {
    let mut waiting: Vec<&Standing> = standings
        .iter()
        .filter(|s| s.active && s.playing.is_none())
        .collect();
    let mut pairs = Vec::new();
    while waiting.len() >= 2 {
        let a = waiting.remove(0);
        let allowed = |b: &&Standing| may_meet(a.holder, b.holder);
        let fresh = waiting.iter().position(|b| {
            allowed(b) && a.last_opponent != Some(b.holder) && b.last_opponent != Some(a.holder)
        });
        let Some(at) = fresh.or_else(|| waiting.iter().position(allowed)) else {
            continue; // nobody waiting may meet `a`: `a` waits
        };
        let b = waiting.remove(at);
        pairs.push(colors(a, b));
    }
    pairs
}

/// Who of `a` (ranked higher) and `b` plays Black: the one with more whites than blacks so far;
/// on equal balance, the one who played White last; else `a`.
fn colors(a: &Standing, b: &Standing) -> (BrowserId, BrowserId) {
    let a_black = match a.white_balance.cmp(&b.white_balance) {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Less => false,
        std::cmp::Ordering::Equal => !matches!(
            (a.last_color, b.last_color),
            (Some(Color::Black), Some(Color::White))
        ),
    };
    if a_black {
        (a.holder, b.holder)
    } else {
        (b.holder, a.holder)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::{ArenaGameRow, ArenaPlayerRow, ArenaRow};
    use crate::model::online::TimeControl;

    fn who(n: u8) -> BrowserId {
        BrowserId::of_token(&format!("p{n}"))
    }

    fn arena(players: u8, games: &[(u8, u8, Option<ArenaResult>)]) -> ArenaFull {
        ArenaFull {
            arena: ArenaRow {
                id: "a_1".into(),
                name: "A".into(),
                creator: who(0),
                creator_name: "p0".into(),
                created_at: 0,
                starts_at: 0,
                ends_at: 10,
                time_control: TimeControl::Clock {
                    minutes: 3,
                    increment_seconds: 0,
                },
                rated: false,
            },
            players: (1..=players)
                .map(|n| ArenaPlayerRow {
                    holder: who(n),
                    username: format!("p{n}"),
                    rating: 1500.0,
                    joined_at: 0,
                    active: true,
                })
                .collect(),
            games: games
                .iter()
                .enumerate()
                .map(|(i, &(b, w, result))| ArenaGameRow {
                    game_id: format!("g_{i}"),
                    seq: i as i64 + 1,
                    black: who(b),
                    white: who(w),
                    started_at: 0,
                    result,
                    ended_at: None,
                })
                .collect(),
        }
    }

    fn line(s: &[Standing], n: u8) -> &Standing {
        s.iter().find(|l| l.holder == who(n)).unwrap()
    }

    #[test]
    fn the_streak_doubles_wins_and_draws_after_two_wins_until_a_non_win() {
        use ArenaResult::*;
        // p1 (Black) wins 3, draws, wins, wins, loses, wins: 2 2 4 2 2 2 0 2.
        let a = arena(
            2,
            &[
                (1, 2, Some(BlackWins)),
                (2, 1, Some(WhiteWins)),
                (1, 2, Some(BlackWins)),
                (1, 2, Some(Draw)),
                (1, 2, Some(Aborted)),
                (2, 1, Some(WhiteWins)),
                (1, 2, Some(BlackWins)),
                (2, 1, Some(BlackWins)),
                (1, 2, Some(BlackWins)),
            ],
        );
        let s = standings(&a);
        let p1 = line(&s, 1);
        let points: Vec<u32> = p1.sheet.iter().map(|x| x.points).collect();
        assert_eq!(points, [2, 2, 4, 2, 2, 2, 0, 2]);
        let doubles: Vec<bool> = p1.sheet.iter().map(|x| x.double).collect();
        assert_eq!(
            doubles,
            [false, false, true, true, false, false, false, false]
        );
        assert_eq!(p1.points, 16);
        assert!(!p1.fire());
        let p2 = line(&s, 2);
        assert_eq!(p2.points, 1 + 2);
        assert_eq!(s[0].holder, who(1));
        // Two wins in a row: on fire for the next game.
        let a = arena(2, &[(1, 2, Some(BlackWins)), (2, 1, Some(WhiteWins))]);
        assert!(line(&standings(&a), 1).fire());
    }

    #[test]
    fn players_who_block_each_other_are_never_paired() {
        // Four wait, nobody has played: p1 would meet p2, but p1 blocks p2.
        let s = standings(&arena(4, &[]));
        let apart = |a: BrowserId, b: BrowserId| {
            let pair = [a, b];
            !(pair.contains(&who(1)) && pair.contains(&who(2)))
        };
        let pairs = pairings(&s, apart);
        assert_eq!(pairs.len(), 2);
        assert!(pairs.iter().all(|&(b, w)| apart(b, w)), "{pairs:?}");
        // Only the two of them wait: no game.
        let s = standings(&arena(2, &[]));
        assert!(pairings(&s, apart).is_empty());
    }

    #[test]
    fn pairings_follow_the_standings_and_avoid_an_immediate_rematch() {
        use ArenaResult::*;
        // p1 beat p2, p3 beat p4: the four wait; p1 (2 points, first) would meet p3 (2 points):
        // not their last opponents.
        let a = arena(4, &[(1, 2, Some(BlackWins)), (3, 4, Some(BlackWins))]);
        let s = standings(&a);
        let pairs = pairings(&s, |_, _| true);
        assert_eq!(pairs.len(), 2);
        // p1 played Black, p3 played Black: equal balance, equal last colour: the higher
        // ranked (p1, joined first) plays Black... both had Black: p1 is a.
        assert_eq!(pairs[0], (who(1), who(3)));
        assert_eq!(pairs[1], (who(2), who(4)));
        // Only p1 and p2 wait (p3-p4 still play): the rematch is the only game.
        let a = arena(
            4,
            &[(1, 2, Some(BlackWins)), (3, 4, None), (2, 1, Some(Draw))],
        );
        let s = standings(&a);
        assert_eq!(line(&s, 3).playing.as_deref(), Some("g_1"));
        // p1 was White last, p2 Black last: balance equal (one each): p1 plays... p1 had
        // White last, so p1 plays Black.
        assert_eq!(pairings(&s, |_, _| true), [(who(1), who(2))]);
        // Three wait, the top one just played the second: it meets the third instead.
        let a = arena(3, &[(1, 2, Some(BlackWins))]);
        let s = standings(&a);
        assert_eq!(s[0].holder, who(1));
        let pairs = pairings(&s, |_, _| true);
        assert_eq!(pairs.len(), 1);
        // p1 (a Black) vs p3 (nothing yet): p1 has more blacks: p3 plays Black.
        assert_eq!(pairs[0], (who(3), who(1)));
        // A withdrawn player is not paired.
        let mut a = arena(2, &[]);
        a.players[1].active = false;
        assert!(pairings(&standings(&a), |_, _| true).is_empty());
    }
}
