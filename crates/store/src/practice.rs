//! Practice sets: an account's own mistakes of a reviewed game, kept to be played again
//! (the server's `practice`). The store keeps a set as the server wrote it (its items as JSON
//! text, which the store does not read) with the plies already found again.

use super::StoreFuture;
use virada_domain::identity::BrowserId;

/// One stored practice set.
#[derive(Clone, Debug, PartialEq)]
pub struct PracticeSetRow {
    /// Random, unique.
    pub id: String,
    /// The account's identity.
    pub holder: BrowserId,
    /// The reviewed game.
    pub game_id: String,
    /// The side whose mistakes these are (`black` / `white`).
    pub color: String,
    /// Unix ms.
    pub created_at: i64,
    /// The items as the server wrote them (JSON).
    pub items: String,
    /// The plies (as the items number them) found again, ascending, each once.
    pub solved: Vec<u32>,
}

/// Reads a stored list of solved plies (`"12 30"`); a word that is no number is skipped.
pub fn solved_from_text(s: &str) -> Vec<u32> {
    let mut v: Vec<u32> = s
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The stored form of a list of solved plies.
pub fn solved_text(solved: &[u32]) -> String {
    solved
        .iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Each account's practice sets.
pub trait PracticeStore: Send + Sync {
    /// Stores `set`, replacing its holder's set of the same game and side, and drops the
    /// holder's oldest sets beyond `keep`.
    fn save_practice_set(&self, set: PracticeSetRow, keep: usize) -> StoreFuture<'_, ()>;
    /// `holder`'s practice sets, the newest first.
    fn practice_sets(&self, holder: BrowserId) -> StoreFuture<'_, Vec<PracticeSetRow>>;
    /// Marks ply `ply` of `holder`'s set `id` found again; the set afterwards (`None`: no such
    /// set of theirs).
    fn solve_practice(
        &self,
        holder: BrowserId,
        id: &str,
        ply: u32,
    ) -> StoreFuture<'_, Option<PracticeSetRow>>;
    /// Deletes `holder`'s set `id`; whether there was one.
    fn delete_practice_set(&self, holder: BrowserId, id: &str) -> StoreFuture<'_, bool>;
    /// Moves the guest browser `guest`'s sets to `account` (as its games at sign-up and
    /// sign-in), the account keeping at most `keep`; the number moved.
    fn adopt_practice_sets(
        &self,
        guest: BrowserId,
        account: BrowserId,
        keep: usize,
    ) -> StoreFuture<'_, usize>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solved_plies_round_trip_sorted_and_once() {
        assert_eq!(solved_from_text("30 12 x 12"), [12, 30]);
        assert_eq!(solved_text(&[12, 30]), "12 30");
        assert!(solved_from_text("").is_empty());
    }
}
