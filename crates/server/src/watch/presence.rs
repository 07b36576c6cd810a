//! Who is online: every browser the app's pages have asked for their live games
//! (`GET /api/watch/mine`, every [`crate::watch::mine`] poll of an open page) within
//! [`ONLINE_WINDOW_MS`]. Kept in this instance's memory only, bounded by [`PRESENCE_MAX`];
//! with several instances each counts the browsers it serves (docs/SERVER.md).

use crate::identity::BrowserId;
use std::collections::HashMap;
use std::sync::Mutex;

/// A browser counts as online this long after its last poll (the page polls every 20 s).
pub const ONLINE_WINDOW_MS: i64 = 60_000;
/// Most browsers the table holds: when full, the ones gone quiet are forgotten first, and a
/// newcomer finding it still full is not counted.
pub const PRESENCE_MAX: usize = 100_000;
/// Most usernames the list of players online shows (by name).
pub const NAMES_SHOWN: usize = 50;

/// The browsers seen lately: when, and the account's username if signed in.
#[derive(Default)]
pub struct Presence {
    seen: Mutex<HashMap<BrowserId, (i64, Option<String>)>>,
}

impl Presence {
    /// `who` (an account's `username`, or a guest) was seen at `now`.
    pub fn seen(&self, who: BrowserId, username: Option<String>, now: i64) {
        let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        if seen.len() >= PRESENCE_MAX && !seen.contains_key(&who) {
            seen.retain(|_, (at, _)| now - *at < ONLINE_WINDOW_MS);
            if seen.len() >= PRESENCE_MAX {
                return;
            }
        }
        seen.insert(who, (now, username));
    }

    /// The number of browsers online at `now`, and the usernames among them (sorted without
    /// regard to case, at most [`NAMES_SHOWN`]). Forgets the ones gone quiet.
    pub fn online(&self, now: i64) -> (usize, Vec<String>) {
        let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        seen.retain(|_, (at, _)| now - *at < ONLINE_WINDOW_MS);
        let mut names: Vec<String> = seen.values().filter_map(|(_, n)| n.clone()).collect();
        names.sort_by_key(|n| n.to_lowercase());
        names.dedup();
        names.truncate(NAMES_SHOWN);
        (seen.len(), names)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn browsers_count_while_seen_and_only_accounts_are_named() {
        let p = Presence::default();
        let (a, b, c) = (
            BrowserId::of_token("a"),
            BrowserId::of_token("b"),
            BrowserId::of_token("c"),
        );
        p.seen(a, Some("Zed".into()), 0);
        p.seen(b, None, 10_000);
        p.seen(c, Some("ana".into()), 20_000);
        assert_eq!(p.online(20_000), (3, vec!["ana".into(), "Zed".into()]));
        // A fresh poll keeps a browser; the others drop out a window after their last.
        p.seen(a, Some("Zed".into()), 50_000);
        assert_eq!(p.online(ONLINE_WINDOW_MS + 20_000), (1, vec!["Zed".into()]));
        assert_eq!(p.online(50_000 + ONLINE_WINDOW_MS), (0, vec![]));
    }
}
