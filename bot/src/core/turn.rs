//! The one commit shape of a turn that runs engine work: read what the turn needs
//! (outside any transaction), run the engine on a worker (outside any transaction),
//! then claim the turn's step and write everything in one short transaction.
//!
//! Why: on SQLite a transaction that has written holds the database's only write
//! lock until it ends, so a transaction held open across engine work (up to the
//! worker's time limit) would make every other user's write wait for one slow
//! script. The price of running outside the transaction is that what was read may
//! have changed by the time the result is written; [`write`] lets the turn check
//! that under the lock and report [`Lost::Changed`], and the turn runs again on what
//! is there now, at most [`ATTEMPTS`] times.

use sqlx::AnyConnection;

use crate::storage::Storage;

/// How often a turn runs before it gives up because what it read keeps changing.
pub(in crate::core) const ATTEMPTS: usize = 2;

/// Why a turn's transaction wrote nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::core) enum Lost {
    /// Another answer claimed the step first: this one is stale.
    Answered,
    /// What the turn read changed before it could write: run it again.
    Changed,
}

/// Runs `write` in one transaction: committed when it returns `Ok`, rolled back
/// (nothing of the turn stored) when it reports the turn [`Lost`] or fails. Its
/// first statement should be the claim of the step, a write, so that the
/// transaction holds SQLite's write lock from the start (a read that is upgraded
/// later can fail when another write came in between).
pub(in crate::core) async fn write<T>(
    storage: &Storage,
    write: impl AsyncFnOnce(&mut AnyConnection) -> anyhow::Result<Result<T, Lost>>,
) -> anyhow::Result<Result<T, Lost>> {
    let mut tx = storage.begin().await?;
    match write(&mut tx).await? {
        Ok(value) => {
            tx.commit().await?;
            Ok(Ok(value))
        }
        Err(lost) => {
            tx.rollback().await?;
            Ok(Err(lost))
        }
    }
}

/// Runs a turn until it writes or is answered by someone else, at most [`ATTEMPTS`]
/// times; `Err(Lost::Changed)` when what it read kept changing.
pub(in crate::core) async fn attempts<T, Attempt>(
    mut attempt: impl FnMut() -> Attempt,
) -> anyhow::Result<Result<T, Lost>>
where
    Attempt: Future<Output = anyhow::Result<Result<T, Lost>>>,
{
    for _ in 0..ATTEMPTS {
        match attempt().await? {
            Err(Lost::Changed) => continue,
            done => return Ok(done),
        }
    }
    Ok(Err(Lost::Changed))
}
