//! The Glicko-2 rating system (Mark Glickman, "Example of the Glicko-2 system", 2013): for
//! puzzles and the people who solve them (a solved puzzle is a win of the solver against the
//! puzzle, a failed one a win of the puzzle; [`after_attempt`]) and for players' game ratings
//! (one game is one rating period with one result: [`after_game`]).

use std::f64::consts::PI;

/// Glicko-2's scale factor between the displayed scale and its internal one.
const SCALE: f64 = 173.7178;
/// The system constant τ: how much volatility may change (the paper's example uses 0.5).
pub const TAU: f64 = 0.5;
/// Convergence tolerance of the volatility iteration.
const EPSILON: f64 = 0.000_001;

/// A Glicko-2 rating on the displayed scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    /// Rating deviation: the uncertainty (one standard deviation).
    pub rd: f64,
    pub volatility: f64,
}

impl Rating {
    /// A newcomer: 1500, RD 350, volatility 0.06.
    pub const NEW_PLAYER: Rating = Rating {
        rating: 1500.0,
        rd: 350.0,
        volatility: 0.06,
    };

    pub const fn new(rating: f64, rd: f64, volatility: f64) -> Rating {
        Rating {
            rating,
            rd,
            volatility,
        }
    }

    fn mu(&self) -> f64 {
        (self.rating - 1500.0) / SCALE
    }

    fn phi(&self) -> f64 {
        self.rd / SCALE
    }
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// `player`'s rating after one rating period of games against `opponents` with scores
/// (1 win, 0.5 draw, 0 loss), with system constant `tau`. No games: only the RD grows.
pub fn update(player: Rating, games: &[(Rating, f64)], tau: f64) -> Rating {
    let mu = player.mu();
    let phi = player.phi();
    let sigma = player.volatility;
    if games.is_empty() {
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        return Rating::new(player.rating, phi_star * SCALE, sigma);
    }
    // Step 3 and 4: the estimated variance and the improvement.
    let mut inv_v = 0.0;
    let mut sum = 0.0;
    for (opp, s) in games {
        let gj = g(opp.phi());
        let e = expected(mu, opp.mu(), opp.phi());
        inv_v += gj * gj * e * (1.0 - e);
        sum += gj * (s - e);
    }
    let v = 1.0 / inv_v;
    let delta = v * sum;
    // Step 5: the new volatility (Illinois regula falsi on f).
    let a = (sigma * sigma).ln();
    let d2 = delta * delta;
    let p2 = phi * phi;
    let f = |x: f64| {
        let ex = x.exp();
        ex * (d2 - p2 - v - ex) / (2.0 * (p2 + v + ex).powi(2)) - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if d2 > p2 + v {
        (d2 - p2 - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let mut fa = f(big_a);
    let mut fb = f(big_b);
    while (big_b - big_a).abs() > EPSILON {
        let c = big_a + (big_a - big_b) * fa / (fb - fa);
        let fc = f(c);
        if fc * fb <= 0.0 {
            big_a = big_b;
            fa = fb;
        } else {
            fa /= 2.0;
        }
        big_b = c;
        fb = fc;
    }
    let new_sigma = (big_a / 2.0).exp();
    // Steps 6 to 8.
    let phi_star = (p2 + new_sigma * new_sigma).sqrt();
    let new_phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let new_mu = mu + new_phi * new_phi * sum;
    Rating::new(new_mu * SCALE + 1500.0, new_phi * SCALE, new_sigma)
}

/// Both ratings after one attempt: the solver's and the puzzle's (`solved` = a win of the
/// solver), each rated against the other's rating before the attempt.
pub fn after_attempt(solver: Rating, puzzle: Rating, solved: bool) -> (Rating, Rating) {
    let s = if solved { 1.0 } else { 0.0 };
    (
        update(solver, &[(puzzle, s)], TAU),
        update(puzzle, &[(solver, 1.0 - s)], TAU),
    )
}

/// Both players' ratings after one game between them, `score` being the first player's (1 a
/// win, 0.5 a draw, 0 a loss): each is rated against the other's rating before the game.
pub fn after_game(first: Rating, second: Rating, score: f64) -> (Rating, Rating) {
    (
        update(first, &[(second, score)], TAU),
        update(second, &[(first, 1.0 - score)], TAU),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The worked example of Glickman's paper, to its printed precision.
    #[test]
    fn glickman_worked_example() {
        let player = Rating::new(1500.0, 200.0, 0.06);
        let games = [
            (Rating::new(1400.0, 30.0, 0.06), 1.0),
            (Rating::new(1550.0, 100.0, 0.06), 0.0),
            (Rating::new(1700.0, 300.0, 0.06), 0.0),
        ];
        let r = update(player, &games, 0.5);
        // The paper rounds to 4 decimals on the internal scale (mu' = -0.2069, phi' = 0.8722)
        // and converts those: 1464.06 and 151.52. Unrounded, the rating is 1464.0507.
        assert_eq!(format!("{:.4}", r.mu()), "-0.2069");
        assert_eq!(format!("{:.4}", r.phi()), "0.8722");
        assert_eq!(format!("{:.2}", -0.2069 * SCALE + 1500.0), "1464.06");
        assert_eq!(format!("{:.2}", 0.8722 * SCALE), "151.52");
        assert!((r.rating - 1464.06).abs() < 0.01, "{}", r.rating);
        assert!((r.rd - 151.52).abs() < 0.01, "{}", r.rd);
        // Printed as 0.05999 (truncated): the value is 0.059996, just below 0.06.
        assert!(
            r.volatility < 0.06 && r.volatility >= 0.05999,
            "{}",
            r.volatility
        );
    }

    #[test]
    fn no_games_only_widens_the_deviation() {
        let r = update(Rating::new(1500.0, 200.0, 0.06), &[], TAU);
        assert_eq!(r.rating, 1500.0);
        assert!(r.rd > 200.0 && r.rd < 201.0, "{}", r.rd);
    }

    #[test]
    fn a_solve_moves_both_ratings_apart() {
        let (s, p) = after_attempt(Rating::NEW_PLAYER, Rating::new(1600.0, 300.0, 0.06), true);
        assert!(s.rating > 1500.0 && p.rating < 1600.0, "{s:?} {p:?}");
        let (s, p) = after_attempt(Rating::NEW_PLAYER, Rating::new(1600.0, 300.0, 0.06), false);
        assert!(s.rating < 1500.0 && p.rating > 1600.0, "{s:?} {p:?}");
    }

    #[test]
    fn a_game_is_one_period_with_one_result() {
        let a = Rating::new(1500.0, 200.0, 0.06);
        let b = Rating::new(1400.0, 30.0, 0.06);
        let (a2, b2) = after_game(a, b, 1.0);
        assert_eq!(a2, update(a, &[(b, 1.0)], TAU));
        assert_eq!(b2, update(b, &[(a, 0.0)], TAU));
        let (d1, d2) = after_game(Rating::NEW_PLAYER, Rating::NEW_PLAYER, 0.5);
        // A draw between equals moves neither rating; both deviations shrink.
        assert!((d1.rating - 1500.0).abs() < 1e-9 && (d2.rating - 1500.0).abs() < 1e-9);
        assert!(d1.rd < 350.0 && d1.rd == d2.rd);
    }
}
