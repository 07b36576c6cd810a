//! A clock that does not run while the store refuses to store: when a change of a game whose
//! clock runs fails for a store error (the database is down or unreachable), the time from the
//! moment the refused request arrived until the store takes a change again is not charged to
//! the side to move.
//!
//! The actor remembers since when its clock is stalled ([`Actor::stalled_since`]); before it
//! handles anything that reads the clock (an action, a flag check) the stalled time is given
//! back in memory (the turn's start moves on by it: [`Actor::resume_clock`]), and it is stored
//! with the next change that the store takes. While stalled, the actor tries to store the
//! resumed clock every [`STALL_RETRY`] (1 s), so the stall ends within about 1 s of the
//! database's return even if nobody acts. What is given back lives in the owner's memory until
//! stored: an owner that dies during the outage loses it (the stored clock then counts the
//! outage, as before), and so does a request sent by another instance, which cannot reach the
//! owner while the database (its bus) is down.

use super::Actor;
use crate::model::online::Phase;
use std::time::Duration;
use virada_store::StoreError;

/// While a clock is stalled, how often the actor tries to store it resumed.
pub(super) const STALL_RETRY: Duration = Duration::from_secs(1);

impl Actor {
    /// Whether `e`, met storing a change, stalls the clock: the database failed (not a
    /// refusal, a lost lease or a game gone).
    pub(super) fn note_store_failure(&mut self, e: &StoreError, asked_at: i64) {
        if matches!(e, StoreError::Db(_)) && self.clock_runs() {
            self.stalled_since.get_or_insert(asked_at);
        }
    }

    fn clock_runs(&self) -> bool {
        self.flag_deadline().is_some()
            && self
                .online
                .as_ref()
                .is_some_and(|o| matches!(o.phase, Phase::Playing { .. }))
    }

    /// Gives the time stalled until `at` back to the side to move, in memory (stored with the
    /// next change the store takes; the stall goes on from `at` until then).
    pub(super) fn resume_clock(&mut self, at: i64) {
        let Some(since) = self.stalled_since else {
            return;
        };
        let stalled = (at - since).max(0);
        if let Some(online) = self.online.as_mut() {
            if let Phase::Playing { turn_started_at } = &mut online.phase {
                *turn_started_at = turn_started_at.saturating_add(stalled);
            }
        }
        self.stalled_since = Some(at.max(since));
    }

    /// The store took a change: nothing is stalled any more.
    pub(super) fn store_took_a_change(&mut self) {
        self.stalled_since = None;
    }

    /// While stalled: tries to store the resumed clock (the deadline the scheduler watches moves
    /// with it).
    pub(super) async fn retry_stalled(&mut self) {
        let now = self.clock.now_ms();
        self.resume_clock(now);
        let Some(online) = self.online.clone() else {
            self.stalled_since = None;
            return;
        };
        if let Err(e) = self.commit_online(online, Vec::new()).await {
            tracing::debug!(error = %e, "the stalled clock is not stored yet");
        }
    }
}
