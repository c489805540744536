//! The engine workers (issue 28): jobs run on threads that are kept, not started
//! per job; a panic or a job past its limit leaves the pool usable, and a thread
//! still in a job is never handed the next one.

use std::collections::HashSet;
use std::time::Duration;

use futures::StreamExt as _;
use tavern::engine::worker::Workers;

/// Jobs through the workers in this test; also what the workers' benchmark in
/// BENCHMARKS.md runs (`perf stat` on this one test).
const JOBS: usize = 2_000;

#[tokio::test]
async fn two_thousand_jobs_run_on_kept_threads() {
    let workers = Workers::new(Duration::from_secs(600), 4);
    // Twice as many callers as workers: some wait for a permit, as under load.
    let threads: Vec<_> = futures::stream::iter(0..JOBS)
        .map(|job| {
            let workers = workers.clone();
            async move {
                workers
                    .run("count", move || (job * 2, std::thread::current().id()))
                    .await
            }
        })
        .buffer_unordered(2 * workers.max_running())
        .collect()
        .await;
    let mut answered = 0;
    let mut ids = HashSet::new();
    for outcome in threads {
        let (double, id) = outcome.expect("every job is answered");
        answered += double / 2;
        ids.insert(id);
    }
    assert_eq!(answered, (0..JOBS).sum::<usize>());
    assert!(!ids.is_empty());
}
