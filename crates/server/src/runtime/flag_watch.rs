//! How game actors tell the flag scheduler (`super::scheduler`) that a stored deadline
//! changed. It lives apart from the scheduler so that what every part shares
//! (`crate::runtime::shared::Shared`) can hold it without depending on the scheduler.

use tokio::sync::Notify;

/// How actors tell the scheduler that a stored deadline changed.
#[derive(Default)]
pub struct FlagWatch(Notify);

impl FlagWatch {
    /// A game's deadline was stored anew (it may now be the earliest).
    pub fn changed(&self) {
        self.0.notify_one();
    }

    /// Resolves when a deadline changed since the scheduler last looked.
    pub async fn notified(&self) {
        self.0.notified().await;
    }
}
