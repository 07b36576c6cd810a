//! Negamax over the book: a position's value is the best of its moves' values, a move whose
//! position is in the book taking that position's value.

use super::Book;
use virada_rules::Board;

/// A position whose stored value is not the best of its moves'.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inconsistency {
    /// The position (canonical orientation).
    pub board: Board,
    /// Stored value (hundredths of a disc).
    pub stored: i16,
    /// Best of its moves (hundredths of a disc).
    pub computed: i16,
}

/// The best move value of the entry at `key`: (value, depth, exact).
fn best_of(book: &Book, key: Board) -> Option<(i16, u8, bool)> {
    let entry = book.entries.get(&key)?;
    entry
        .moves
        .iter()
        .map(|m| {
            let (v, d, e, _) = book.move_value(key, m);
            (v, d, e)
        })
        // Highest value; among equal values the proven one, then the deepest.
        .max_by_key(|&(v, d, e)| (v, e, d))
}

/// Keys ordered children first: a move removes an empty square, so positions with fewer
/// empties never depend on positions with more (ties by key, for a deterministic order).
fn children_first(book: &Book) -> Vec<Board> {
    let mut keys: Vec<Board> = book.entries.keys().copied().collect();
    keys.sort_unstable_by_key(|b| (b.empty_count(), b.player, b.opponent));
    keys
}

pub(super) fn fix(book: &mut Book) -> usize {
    let mut changed = 0;
    for key in children_first(book) {
        let Some((value, depth, exact)) = best_of(book, key) else {
            continue;
        };
        let e = book.entries.get_mut(&key).expect("key from the book");
        if e.value != value {
            changed += 1;
        }
        e.value = value;
        e.depth = depth;
        e.exact = exact;
    }
    changed
}

pub(super) fn check(book: &Book) -> Vec<Inconsistency> {
    let mut bad = Vec::new();
    for key in children_first(book) {
        let e = &book.entries[&key];
        if let Some((computed, _, _)) = best_of(book, key) {
            if computed != e.value {
                bad.push(Inconsistency {
                    board: key,
                    stored: e.value,
                    computed,
                });
            }
        }
    }
    bad
}
