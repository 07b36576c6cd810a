//! The time source of online games' clocks, injected so clock tests need no sleeps.
//!
//! Clocks are kept in Unix milliseconds (they are stored, and must mean the same after a
//! restart). [`SystemTime`] reads the system clock and sleeps with `tokio::time`; tests use
//! [`ManualTime`], whose time moves only when the test advances it, waking the actors' timers.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use tokio::sync::watch;

/// A future that completes at a given time.
pub type Sleep = Pin<Box<dyn Future<Output = ()> + Send + 'static>>;

/// Where clocks read the time and how they wait for a deadline.
pub trait TimeSource: Send + Sync + 'static {
    /// Unix milliseconds now.
    fn now_ms(&self) -> i64;
    /// Completes once `now_ms() >= at_ms`.
    fn sleep_until(&self, at_ms: i64) -> Sleep;
}

/// The shared handle on a time source (what [`crate::ServerConfig`] holds).
#[derive(Clone)]
pub struct Clock(pub Arc<dyn TimeSource>);

impl Clock {
    pub fn system() -> Clock {
        Clock(Arc::new(SystemTime))
    }

    pub fn now_ms(&self) -> i64 {
        self.0.now_ms()
    }

    pub fn sleep_until(&self, at_ms: i64) -> Sleep {
        self.0.sleep_until(at_ms)
    }
}

impl Default for Clock {
    fn default() -> Self {
        Clock::system()
    }
}

impl fmt::Debug for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Clock(now {} ms)", self.now_ms())
    }
}

/// The system clock; deadlines are `tokio::time` sleeps.
pub struct SystemTime;

impl TimeSource for SystemTime {
    fn now_ms(&self) -> i64 {
        crate::util::now_millis()
    }

    fn sleep_until(&self, at_ms: i64) -> Sleep {
        let wait = (at_ms - self.now_ms()).max(0) as u64;
        Box::pin(tokio::time::sleep(std::time::Duration::from_millis(wait)))
    }
}

/// A clock that moves only when told to (tests).
pub struct ManualTime {
    now: watch::Sender<i64>,
}

impl ManualTime {
    /// Starts at `start_ms`.
    pub fn new(start_ms: i64) -> Arc<ManualTime> {
        Arc::new(ManualTime {
            now: watch::Sender::new(start_ms),
        })
    }

    /// Moves the time forward by `ms` (waking every sleeper whose time has come).
    pub fn advance(&self, ms: i64) {
        self.now.send_modify(|t| *t += ms.max(0));
    }

    /// The handle to put in the server's settings.
    pub fn clock(self: &Arc<Self>) -> Clock {
        Clock(self.clone())
    }
}

impl TimeSource for ManualTime {
    fn now_ms(&self) -> i64 {
        *self.now.borrow()
    }

    fn sleep_until(&self, at_ms: i64) -> Sleep {
        let mut rx = self.now.subscribe();
        Box::pin(async move {
            // The sender lives as long as the ManualTime, which the server holds: if it is gone,
            // time never moves again, so wait forever.
            if rx.wait_for(|t| *t >= at_ms).await.is_err() {
                std::future::pending::<()>().await;
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::FutureExt;

    #[tokio::test]
    async fn manual_time_wakes_sleepers_only_when_advanced() {
        let t = ManualTime::new(1_000);
        let clock = t.clock();
        let mut sleep = clock.sleep_until(1_500);
        assert!((&mut sleep).now_or_never().is_none());
        t.advance(499);
        tokio::task::yield_now().await;
        assert!((&mut sleep).now_or_never().is_none());
        t.advance(1);
        tokio::time::timeout(std::time::Duration::from_secs(5), sleep)
            .await
            .expect("woken at its time");
        assert_eq!(clock.now_ms(), 1_500);
    }
}
