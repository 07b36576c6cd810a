//! How game actors tell whoever follows game results (the arena director, `crate::arena`)
//! that an online game ended (or was deleted): its id, once the end is stored. It lives apart from its
//! listeners so that what every part shares (`crate::runtime::shared::Shared`) can hold it.

use std::sync::Arc;
use tokio::sync::broadcast;

/// Ends announced and not yet read beyond which a slow listener skips (it then looks at
/// everything it follows).
const BUFFERED: usize = 1024;

/// The announcements of games that ended (or, from another instance, that may have).
pub struct GameEnds(broadcast::Sender<Arc<str>>);

impl Default for GameEnds {
    fn default() -> Self {
        GameEnds(broadcast::channel(BUFFERED).0)
    }
}

impl GameEnds {
    /// Game `id` ended (its end is stored), was deleted, or changed on another instance.
    pub fn ended(&self, id: &str) {
        if self.0.receiver_count() > 0 {
            let _ = self.0.send(id.into());
        }
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Arc<str>> {
        self.0.subscribe()
    }
}
