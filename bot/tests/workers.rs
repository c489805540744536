//! The engine workers (issue 28): jobs run on threads that are kept, not started
//! per job; a panic or a job past its limit leaves the pool usable, and a thread
//! still in a job is never handed the next one.

use std::collections::HashSet;
use std::sync::mpsc;
use std::sync::{Arc, Barrier};
use std::thread::ThreadId;
use std::time::Duration;

use futures::StreamExt as _;
use tavern::engine::worker::{WorkError, Workers};

/// Long enough for any machine: a job under it is never cut short.
const UNHURRIED: Duration = Duration::from_secs(600);

fn this_thread() -> ThreadId {
    std::thread::current().id()
}

/// Jobs through the workers in this test; also what the workers' benchmark in
/// BENCHMARKS.md runs (`perf stat` on this one test).
const JOBS: usize = 2_000;

#[tokio::test]
async fn two_thousand_jobs_run_on_kept_threads() {
    let workers = Workers::new(UNHURRIED, 4);
    // Twice as many callers as workers: some wait for a permit, as under load.
    let threads: Vec<_> = futures::stream::iter(0..JOBS)
        .map(|job| {
            let workers = workers.clone();
            async move { workers.run("count", move || (job * 2, this_thread())).await }
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
    // Every job ran on one of the workers' few threads, none started per job.
    assert!(ids.len() <= workers.max_running(), "{} threads", ids.len());
    assert!(workers.threads_started() <= workers.max_running());
}

#[tokio::test]
async fn a_panicking_job_leaves_its_thread_serving() {
    let workers = Workers::new(UNHURRIED, 1);
    let first = workers.run("first", this_thread).await.expect("answered");
    let crashed = workers
        .run("crash", || -> u8 { panic!("an engine bug") })
        .await;
    assert_eq!(crashed, Err(WorkError::Crashed));
    assert_eq!(workers.free(), 1);
    // The same thread takes the next job: the panic was caught on it.
    assert_eq!(workers.run("after", this_thread).await, Ok(first));
    assert_eq!(workers.threads_started(), 1);
}

/// A job past its limit that ignores its flag keeps its thread: the next job goes
/// to another, and the stuck thread serves again only once its job has returned.
#[tokio::test]
async fn a_thread_still_in_a_job_past_its_limit_gets_no_other_job() {
    let limit = Duration::from_millis(50);
    let hurried = Workers::new(limit, 2).with_cancel_grace(Duration::ZERO);
    // A loaded machine may not start the job within its limit (it is then refused
    // before it gets a thread): tried until it started.
    let (stuck, release) = loop {
        let (started, start) = mpsc::channel();
        let (release, held) = mpsc::channel::<()>();
        let outcome = hurried
            .run("stuck", move || {
                started.send(this_thread()).unwrap();
                // The flag is raised meanwhile; this job does not read it.
                let _ = held.recv();
            })
            .await;
        assert_eq!(outcome, Err(WorkError::TimedOut { limit }));
        // Sent once the job started; a job refused was dropped with its sender.
        if let Ok(stuck) = start.recv() {
            break (stuck, release);
        }
    };
    let workers = hurried.with_time_limit(UNHURRIED);
    let next = workers.run("next", this_thread).await.expect("answered");
    assert_ne!(next, stuck);
    assert_eq!(workers.run("again", this_thread).await, Ok(next));
    assert_eq!(workers.threads_started(), 2);
    // Two jobs that can only end together need both threads: they wait for the
    // stuck job's permit, and get its thread back once it returned.
    release.send(()).unwrap();
    let together = Arc::new(Barrier::new(2));
    let meet = |barrier: Arc<Barrier>| {
        move || {
            barrier.wait();
            this_thread()
        }
    };
    let (one, other) = tokio::join!(
        workers.run("one", meet(together.clone())),
        workers.run("other", meet(together)),
    );
    let both: HashSet<_> = [one.expect("answered"), other.expect("answered")].into();
    assert_eq!(both, HashSet::from([stuck, next]));
    assert_eq!(workers.threads_started(), 2);
}

/// Kept threads end with the workers: a job leaves a value in its thread's local
/// storage that says when the thread is gone.
#[tokio::test]
async fn idle_threads_end_when_the_workers_are_dropped() {
    struct Ended(mpsc::Sender<()>);
    impl Drop for Ended {
        fn drop(&mut self) {
            let _ = self.0.send(());
        }
    }
    thread_local! {
        static ON_END: std::cell::RefCell<Option<Ended>> = const { std::cell::RefCell::new(None) };
    }
    let workers = Workers::new(UNHURRIED, 1);
    let (ended, end) = mpsc::channel();
    let marked = workers
        .run("mark", move || {
            ON_END.with(|on_end| *on_end.borrow_mut() = Some(Ended(ended)));
        })
        .await;
    assert_eq!(marked, Ok(()));
    assert_eq!(end.try_recv(), Err(mpsc::TryRecvError::Empty));
    drop(workers);
    // A bound, not a wait for time to pass: the thread ends at once.
    assert_eq!(end.recv_timeout(UNHURRIED), Ok(()));
}
