//! Change notices of encounters, for whoever watches them live in this process (the
//! web dashboard's tracker pages). The core publishes after every stored change; a
//! watcher that misses notices (it lagged, or another instance made the change) reads
//! the encounter's step from the database, which is the truth.

use tokio::sync::broadcast;

/// How many notices wait for a slow watcher before it lags (and re-reads).
const BACKLOG: usize = 256;

/// An encounter changed: it is now at `step` (`None`: it ended).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EncounterChanged {
    pub guild_id: i64,
    pub channel_id: i64,
    pub step: Option<i64>,
}

/// The in-process hub: one sender, a receiver per watcher.
#[derive(Debug)]
pub struct EncounterChanges {
    sender: broadcast::Sender<EncounterChanged>,
}

impl Default for EncounterChanges {
    fn default() -> Self {
        EncounterChanges {
            sender: broadcast::channel(BACKLOG).0,
        }
    }
}

impl EncounterChanges {
    /// Tells every watcher; nobody watching is fine.
    pub fn publish(&self, change: EncounterChanged) {
        let _ = self.sender.send(change);
    }

    pub fn subscribe(&self) -> broadcast::Receiver<EncounterChanged> {
        self.sender.subscribe()
    }
}
