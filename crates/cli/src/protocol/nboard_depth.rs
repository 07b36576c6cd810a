//! What NBoard's `set depth N` means for Virada: the midgame depth N and an exact solve from
//! a number of empty squares that grows with it, on the same scale as our levels 6 to 17
//! (level L searches depth L-2 and solves from about L+4 empties). The table is in
//! docs/PROTOCOLS.md.

use virada_engine::{Limits, Selectivity};

/// Highest depth accepted (deeper requests are clamped: 60 reaches the end of any game).
pub const MAX_DEPTH: u32 = 60;

/// Depth used before the GUI sends `set depth`.
pub const DEFAULT_DEPTH: u32 = 12;

/// Empty squares from which `set depth depth` solves exactly: twice the depth up to 3
/// (like the beginner levels), then the depth plus 6, at most 30.
///
/// ```text
/// assert_eq!(exact_empties(1), 2);
/// assert_eq!(exact_empties(10), 16);
/// assert_eq!(exact_empties(40), 30);
/// ```
pub fn exact_empties(depth: u32) -> u32 {
    let d = depth.clamp(1, MAX_DEPTH);
    if d <= 3 {
        2 * d
    } else {
        (d + 6).min(30)
    }
}

/// The search limits of `set depth depth`: no time cap (the GUI stops a search with `ping`).
pub fn limits(depth: u32) -> Limits {
    let d = depth.clamp(1, MAX_DEPTH);
    Limits {
        depth: Some(d),
        exact_empties: Some(exact_empties(d)),
        selectivity: Some(Selectivity::DEFAULT),
        ..Limits::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use virada_engine::Level;

    #[test]
    fn depths_follow_the_level_scale() {
        assert_eq!(exact_empties(1), 2);
        assert_eq!(exact_empties(3), 6);
        assert_eq!(exact_empties(40), 30);
        assert_eq!(limits(0).depth, Some(1));
        assert_eq!(limits(99).depth, Some(MAX_DEPTH));
        // Within two empties of the level with the same depth.
        for n in 6..=17u8 {
            let l = Level(n).limits();
            let d = l.depth.unwrap();
            let e = l.exact_empties.unwrap();
            assert!(
                exact_empties(d).abs_diff(e) <= 2,
                "level {n}: depth {d}, exact {e}"
            );
        }
        // Deeper never solves from fewer empties.
        for d in 1..MAX_DEPTH {
            assert!(exact_empties(d + 1) >= exact_empties(d));
        }
    }
}
