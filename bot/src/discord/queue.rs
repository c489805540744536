//! One user's events are carried out one after another, in the order they arrived.
//!
//! A user who picks an item from a select menu and presses "Buy…" at once sends two
//! interactions that serenity hands to two concurrent tasks; when the first is slow
//! (deferred), the second would otherwise read the state before the first stored
//! it. Each event takes its place in its user's line synchronously, when its turn
//! to be handled starts, and its core work waits for the event before it to be fully
//! answered. Other users never wait on each other, and the deferral timer of a
//! waiting interaction keeps running, so Discord's deadline is still met.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use tokio::sync::oneshot;

/// Beyond this, a stuck predecessor is not waited for any longer: an answer out of
/// order beats none. The core bounds all its work well below it.
pub(super) const MAX_WAIT: Duration = Duration::from_secs(10);

/// Lines longer than this many users are pruned of users with nothing in flight.
const PRUNE_ABOVE: usize = 1024;

/// The users' lines: for each user, the signal that their newest event is done.
#[derive(Default)]
pub(super) struct UserQueues {
    newest: Mutex<HashMap<i64, oneshot::Receiver<()>>>,
}

/// An event's place in its user's line; the next event may start once it is dropped.
pub(super) struct Place {
    previous: Option<oneshot::Receiver<()>>,
    _done: oneshot::Sender<()>,
}

impl UserQueues {
    /// Takes the next place in `user`'s line.
    pub(super) fn enter(&self, user: i64) -> Place {
        let (done, signal) = oneshot::channel();
        let mut newest = self
            .newest
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if newest.len() > PRUNE_ABOVE {
            newest.retain(|_, signal| {
                matches!(signal.try_recv(), Err(oneshot::error::TryRecvError::Empty))
            });
        }
        let previous = newest.insert(user, signal);
        Place {
            previous,
            _done: done,
        }
    }
}

impl Place {
    /// The wait for the event before this one; `None` when there is none.
    pub(super) fn take_wait(&mut self) -> Option<PreviousDone> {
        self.previous.take().map(PreviousDone)
    }
}

/// Completes when the event before in the same line is done.
pub(super) struct PreviousDone(oneshot::Receiver<()>);

impl PreviousDone {
    /// Waits for the previous event, at most `patience`.
    pub(super) async fn wait(self, patience: Duration) {
        // The sender is never used: it is dropped when the event is done, which ends
        // the receive with an error.
        if tokio::time::timeout(patience, self.0).await.is_err() {
            tracing::warn!("an earlier event of the same user is still running; not waiting");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_users_events_run_in_order_and_others_do_not_wait() {
        let queues = UserQueues::default();
        let first = queues.enter(1);
        let mut second = queues.enter(1);
        let mut other = queues.enter(2);
        assert!(other.take_wait().is_none(), "another user's line is empty");
        let PreviousDone(mut signal) = second.take_wait().expect("the second waits");
        assert_eq!(
            signal.try_recv(),
            Err(oneshot::error::TryRecvError::Empty),
            "the second event waits while the first runs"
        );
        drop(first);
        assert_eq!(signal.try_recv(), Err(oneshot::error::TryRecvError::Closed));
        let third = queues
            .enter(1)
            .take_wait()
            .expect("the third waits for the second");
        drop(second);
        third.wait(MAX_WAIT).await;
    }

    #[test]
    fn finished_users_are_pruned() {
        let queues = UserQueues::default();
        for user in 0..=PRUNE_ABOVE as i64 + 1 {
            drop(queues.enter(user));
        }
        let _kept = queues.enter(-1);
        let size = queues.newest.lock().unwrap().len();
        assert!(size <= 2, "{size} lines kept");
    }
}
