//! Parity: in the endgame the empty squares split into regions; whoever moves last in a region
//! usually gains. Moving into an odd region keeps the last move there; moving into an even one
//! hands it to the opponent.

use super::lines::Lines;
use super::{At, Claim, Kind, Mistake};
use virada_rules::movegen::{region_of, regions};
use virada_rules::Bitboard;

/// Parity is named with this many empty squares or fewer (before the move).
pub const PARITY_EMPTIES: u32 = 20;

/// The number of odd regions among `empties`.
fn odd_regions(empties: u64) -> i32 {
    regions(empties).filter(|r| r.count_ones() % 2 == 1).count() as i32
}

/// The played move goes into an even region while the better move goes into an odd one.
/// Numbers: `empties`, `region_played`, `region_best` (sizes before the move), and
/// `odd_regions_played`, `odd_regions_best` (odd regions the opponent faces after each move).
/// Squares: the played move's region.
pub fn parity(m: &Mistake, _lines: &Lines) -> Option<Claim> {
    let empties = m.before.empties();
    if empties.count_ones() > PARITY_EMPTIES {
        return None;
    }
    let rp = region_of(empties, m.played);
    let rb = region_of(empties, m.best);
    let (sp, sb) = (rp.count_ones() as i32, rb.count_ones() as i32);
    if sp % 2 != 0 || sb % 2 != 1 {
        return None;
    }
    // The empty region before the move (its squares are empty on that board).
    Some(
        Claim::new(
            Kind::Parity,
            Bitboard(rp).iter().collect(),
            vec![
                ("empties", empties.count_ones() as i32),
                ("region_played", sp),
                ("region_best", sb),
                ("odd_regions_played", odd_regions(empties & !m.played.bit())),
                ("odd_regions_best", odd_regions(empties & !m.best.bit())),
            ],
        )
        .at(At::BEFORE),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coach::test_util::{mistake, names, two_regions};
    use virada_rules::Square;

    #[test]
    fn regions_are_counted() {
        let e = two_regions().empties();
        assert_eq!(region_of(e, Square::A1).count_ones(), 2);
        assert_eq!(region_of(e, Square::H8).count_ones(), 3);
        assert_eq!(odd_regions(e), 1);
    }

    #[test]
    fn even_region_instead_of_odd() {
        let b = two_regions();
        assert!(b.is_legal("b1".parse().unwrap()) && b.is_legal("h8".parse().unwrap()));
        let m = mistake(b, "b1", &[], "h8", &[]);
        let c = parity(&m, &Lines::new(&m)).expect("b1 enters the even region");
        assert_eq!(names(&c.squares), ["a1", "b1"]);
        assert_eq!(
            c.numbers,
            vec![
                ("empties", 5),
                ("region_played", 2),
                ("region_best", 3),
                ("odd_regions_played", 2),
                ("odd_regions_best", 0)
            ]
        );
        let back = mistake(b, "h8", &[], "b1", &[]);
        assert!(parity(&back, &Lines::new(&back)).is_none());
    }
}
