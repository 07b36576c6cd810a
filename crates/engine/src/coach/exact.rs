//! The exact endgame: when the solver proved both values, its scores and its line are the
//! explanation (how many discs each move ends with under perfect play).

use super::lines::Lines;
use super::{At, Claim, Kind, Mistake};

/// Both values are proven: the exact final disc difference of each move for the mover and the
/// solver's line from the better move. Numbers: `best_score`, `played_score`, `loss`. Squares:
/// the better move. Line: the solver's line from the better move (as far as it is known).
pub fn exact_loss(m: &Mistake, _lines: &Lines) -> Option<Claim> {
    if !m.exact {
        return None;
    }
    let best = m.best_value.round() as i32;
    let played = m.played_value.round() as i32;
    (best > played).then(|| {
        Claim::new(
            Kind::ExactLoss,
            vec![m.best],
            vec![
                ("best_score", best),
                ("played_score", played),
                ("loss", best - played),
            ],
        )
        .with_line(m.best_line)
        .at(At::best(1))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coach::test_util::{mistake, two_regions};

    #[test]
    fn exact_scores_and_the_line() {
        let mut m = mistake(two_regions(), "b1", &[], "h8", &["h8", "g8"]);
        m.exact = true;
        m.best_value = 40.0;
        m.played_value = 36.0;
        let c = exact_loss(&m, &Lines::new(&m)).expect("proven values explain the loss");
        assert_eq!(
            c.numbers,
            vec![("best_score", 40), ("played_score", 36), ("loss", 4)]
        );
        assert_eq!(c.line.len(), 2);
        // Searched values are not exact claims.
        m.exact = false;
        assert!(exact_loss(&m, &Lines::new(&m)).is_none());
    }
}
