//! The flag-fall scheduler: one task watches the deadlines of every running clock, as stored
//! (`online_games.flag_at`), so a game needs no resident actor for its flag to fall.
//!
//! It sleeps until the earliest stored deadline (on the injected time source), or until an actor
//! says a deadline changed ([`super::flag_watch::FlagWatch::changed`]). A deadline that has
//! come is handed to the game's actor through the normal game path (loading the game if it is
//! not in memory): the actor checks its own clock and stores the flag fall before any socket
//! hears of it. A game whose flag
//! cannot be handled (the database fails, the row is corrupt) is retried later with a growing
//! pause, without holding up the others.
//!
//! Several instances on PostgreSQL: another instance's deadlines are stored without this one
//! being told, so the scheduler also reads the store again every [`SHARED_LOOK`] (500 ms). It
//! leaves out the games whose lease another live instance holds (their owner flags them); a dead
//! owner's lease lapses within `LEASE_MS` (3 s), and its games are then flagged here within
//! [`SHARED_LOOK`] of their deadline (or of the lapse, if that is later), whether or not anyone
//! is connected.

use crate::error::{AppError, AppResult};
use crate::runtime::game;
use crate::runtime::shared::Shared;
use crate::runtime::state::Games;
use std::collections::HashMap;
use std::sync::Arc;

/// Due games handled per look at the store.
const BATCH: usize = 100;
/// The first pause before a failed game is tried again (then doubled, up to [`RETRY_MAX_MS`]).
const RETRY_FIRST_MS: i64 = 1_000;
const RETRY_MAX_MS: i64 = 3_600_000;
/// How often the store's deadlines are read again when other instances share it.
pub const SHARED_LOOK: std::time::Duration = std::time::Duration::from_millis(500);

/// A game whose flag could not be handled: when to try again, and how many tries failed.
struct Retry {
    at: i64,
    failures: u32,
}

/// Runs the scheduler until the server shuts down.
pub async fn run(games: Arc<Games>, shared: Arc<Shared>) {
    let clock = shared.config.clock.clone();
    let mut stop = shared.shutdown.clone();
    let mut retries: HashMap<String, Retry> = HashMap::new();
    loop {
        if *stop.borrow() {
            break;
        }
        let now = clock.now_ms();
        let limit = BATCH + retries.len();
        let looked = (shared.store)
            .online()
            .due_flags(&shared.cluster.instance, now, limit)
            .await;
        let (due, next) = match looked {
            Ok(found) => found,
            Err(e) => {
                tracing::error!(error = %e, "the flag scheduler cannot read the deadlines");
                (Vec::new(), Some(now + RETRY_FIRST_MS))
            }
        };
        // A game no longer due (it moved on, was deleted) needs no retry.
        retries.retain(|id, _| due.contains(id));
        let mut handled = 0;
        for id in &due {
            if retries.get(id).is_some_and(|r| r.at > now) {
                continue;
            }
            handled += 1;
            match fire(&games, id).await {
                Ok(true) => {
                    retries.remove(id);
                }
                // Not due in the actor's eyes (a move raced with this look: then the game is no
                // longer due at the next look, and forgotten), or failed.
                outcome => {
                    if let Err(e) = outcome {
                        tracing::warn!(game = %id, error = %e, "flag fall not handled; retried later");
                    }
                    let failures = retries.get(id).map_or(0, |r| r.failures) + 1;
                    let pause = (RETRY_FIRST_MS << (failures - 1).min(12)).min(RETRY_MAX_MS);
                    retries.insert(
                        id.clone(),
                        Retry {
                            at: clock.now_ms() + pause,
                            failures,
                        },
                    );
                }
            }
        }
        if handled == BATCH {
            continue; // more may be due
        }
        let wake = next.into_iter().chain(retries.values().map(|r| r.at)).min();
        let sleep = async {
            match wake {
                Some(at) => clock.sleep_until(at).await,
                None => std::future::pending().await,
            }
        };
        let shared_look = async {
            if shared.cluster.is_shared() {
                tokio::time::sleep(SHARED_LOOK).await
            } else {
                std::future::pending().await
            }
        };
        tokio::select! {
            _ = sleep => {}
            _ = shared_look => {}
            _ = shared.flags.notified() => {}
            r = stop.changed() => if r.is_err() { break },
        }
    }
}

/// Hands a due deadline to the game's actor: `Ok(true)` if the flag fell, `Ok(false)` if the
/// actor sees time left or no clock running (the stored deadline moved meanwhile, or disagrees).
async fn fire(games: &Arc<Games>, id: &str) -> AppResult<bool> {
    // Two tries: an actor that has just unloaded is replaced by a fresh one.
    for _ in 0..2 {
        let h = games.handle(id).await?;
        match h.check_flag().await {
            Err(e) if game::is_stopped(&e) => continue,
            r => return r,
        }
    }
    Err(AppError::Internal(format!("game {id} is unavailable")))
}
