//! Engine work under a wall-clock limit: exact odds, a generator's step or program
//! check, an NPC turn, an encounter's effect steps.
//!
//! The libraries bound their own work (`max_odds_work`, BASIC's step limits, the NPC
//! step budget), but a bound counted in steps can still be far from a bound in
//! seconds, and a user waits in seconds. Each job runs on a worker thread, and the
//! caller waits for it at most [`Workers::time_limit`]. Past it the worker raises
//! the job's cancel flag ([`cancel_flag`], which the engines hand to the libraries:
//! they read it every few thousand steps), waits for the job to stop (at most
//! [`CANCEL_GRACE`]), and the user is told what took too long; nothing the job
//! computed is kept. So that jobs that do not stop cannot pile up, at most
//! [`Workers::max_running`] run at once, counted until the job has returned, and a
//! job that cannot start within the limit is refused as busy.
//!
//! The threads are kept (issue 28): starting and ending a thread per job cost more
//! than most jobs. Up to [`Workers::max_running`] of them are started as jobs need
//! them and then wait for the next job; a thread goes back among the idle ones only
//! once its job has returned, before its permit is given back, so a thread still in
//! a job that ignores its flag is never handed another, and a free permit always
//! finds an idle thread or room to start one. A panicking job is caught on its
//! thread, which serves on. The threads get a deep stack, so that input that still
//! recurses deeply in an engine fails there rather than aborting the process; they
//! end when the last handle on the workers is dropped and their job is done.

use std::cell::RefCell;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak, mpsc};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The stack of a worker thread: address space reserved, pages touched only as
/// deep as a job goes.
pub const STACK_BYTES: usize = 64 * 1024 * 1024;

/// Why a job gave no answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum WorkError {
    /// The job ran past the limit and was cancelled.
    #[error("it took longer than {} s", .limit.as_secs_f64())]
    TimedOut { limit: Duration },
    /// Every worker was busy for the whole limit.
    #[error("the bot is busy with other long computations")]
    Busy,
    /// The job panicked (a bug in an engine); logged.
    #[error("the computation failed")]
    Crashed,
}

thread_local! {
    /// The cancel flag of the job this worker thread runs.
    static CANCEL: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// The cancel flag of the job running on this thread, raised when it runs past its
/// limit; outside a worker, a flag nobody raises. The engines read it here rather
/// than through their traits, so that a job is cancellable whatever engine call it
/// makes, and the traits (and the tests' doubles) stay as they are.
pub fn cancel_flag() -> Arc<AtomicBool> {
    CANCEL
        .with(|flag| flag.borrow().clone())
        .unwrap_or_default()
}

/// Runs jobs on worker threads under a time limit, a bounded number at once.
#[derive(Debug, Clone)]
pub struct Workers {
    time_limit: Duration,
    /// How long a cancelled job has to stop before its caller is told.
    cancel_grace: Duration,
    max_running: usize,
    permits: Arc<Semaphore>,
    /// Jobs waiting for a free worker now.
    waiting: Arc<AtomicUsize>,
    threads: Arc<Threads>,
}

impl Workers {
    pub fn new(time_limit: Duration, max_running: usize) -> Workers {
        let max_running = max_running.max(1);
        Workers {
            time_limit,
            cancel_grace: CANCEL_GRACE,
            max_running,
            permits: Arc::new(Semaphore::new(max_running)),
            waiting: Arc::default(),
            threads: Arc::default(),
        }
    }

    /// The same workers (one count of running jobs) with another time limit per job.
    pub fn with_time_limit(&self, time_limit: Duration) -> Workers {
        Workers {
            time_limit,
            ..self.clone()
        }
    }

    /// These workers, giving a cancelled job `grace` to stop instead of
    /// [`CANCEL_GRACE`] (a test that must see the job stopped waits as long as it takes).
    pub fn with_cancel_grace(self, grace: Duration) -> Workers {
        Workers {
            cancel_grace: grace,
            ..self
        }
    }

    pub fn time_limit(&self) -> Duration {
        self.time_limit
    }

    pub fn max_running(&self) -> usize {
        self.max_running
    }

    /// How many jobs wait for a free worker now (a measure of load, and how a test
    /// knows a job is queued behind one it holds).
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::Relaxed)
    }

    /// Workers free for a job now.
    pub fn free(&self) -> usize {
        self.permits.available_permits()
    }

    /// Worker threads started so far (how a test sees threads kept): at most
    /// [`Workers::max_running`], and more only if a thread died outside its job and
    /// was replaced (a panic while dropping an answer nobody waited for).
    pub fn threads_started(&self) -> usize {
        self.threads.started.load(Ordering::Relaxed)
    }

    /// Runs `job` on a worker thread and waits for it at most the time limit
    /// (waiting for a free worker included).
    pub async fn run<T, F>(&self, what: &'static str, job: F) -> Result<T, WorkError>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let deadline = tokio::time::Instant::now() + self.time_limit;
        let queued = Queued::join(&self.waiting);
        let acquired =
            tokio::time::timeout_at(deadline, self.permits.clone().acquire_owned()).await;
        drop(queued);
        let permit = match acquired {
            Ok(Ok(permit)) => permit,
            Ok(Err(_)) | Err(_) => {
                tracing::warn!(job = what, "no free engine worker");
                return Err(WorkError::Busy);
            }
        };
        // A job whose time went on waiting for a worker is not started: its caller
        // would stop waiting for it at once (and so a zero limit times out every job,
        // whatever the machine, as a test needs).
        if tokio::time::Instant::now() >= deadline {
            tracing::warn!(
                job = what,
                "an engine job's time was spent before it started"
            );
            return Err(WorkError::TimedOut {
                limit: self.time_limit,
            });
        }
        let (sender, mut receiver) = tokio::sync::oneshot::channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let task = Task {
            job: Box::new(move || {
                let outcome = std::panic::catch_unwind(AssertUnwindSafe(job));
                Box::new(move || {
                    // Its caller may have stopped waiting: then nobody reads it.
                    let _ = sender.send(outcome);
                })
            }),
            cancel: cancel.clone(),
            permit,
        };
        if let Err(error) = self.threads.hand(task) {
            tracing::error!(job = what, error = %error, "cannot start an engine worker");
            return Err(WorkError::Crashed);
        }
        match tokio::time::timeout_at(deadline, &mut receiver).await {
            Ok(Ok(Ok(value))) => Ok(value),
            Ok(Ok(Err(_))) | Ok(Err(_)) => {
                tracing::error!(job = what, "an engine worker panicked");
                Err(WorkError::Crashed)
            }
            Err(_) => {
                cancel.store(true, Ordering::Relaxed);
                // Whatever it answers now is too late: it is dropped.
                let stopped = tokio::time::timeout(self.cancel_grace, receiver)
                    .await
                    .is_ok();
                tracing::warn!(
                    job = what,
                    limit_ms = self.time_limit.as_millis() as u64,
                    stopped,
                    "an engine job ran past its time limit and was cancelled"
                );
                Err(WorkError::TimedOut {
                    limit: self.time_limit,
                })
            }
        }
    }
}

/// A job's answer, sent to its caller once its thread is back among the idle ones
/// and its permit is returned.
type Answer = Box<dyn FnOnce() + Send>;

/// A job handed to a worker thread, with what it holds while it runs.
struct Task {
    /// Runs the job (a panic caught) and gives back how to answer its caller.
    job: Box<dyn FnOnce() -> Answer + Send>,
    cancel: Arc<AtomicBool>,
    /// The job's place among [`Workers::max_running`]: returned once it returned.
    permit: OwnedSemaphorePermit,
}

/// A task on its way to a thread, with the sender the thread is handed tasks by:
/// it puts that back among the idle ones when the job has returned. (An idle thread
/// holds no sender of its own, so that it ends when the workers are dropped.)
struct Handed {
    task: Task,
    home: mpsc::Sender<Handed>,
}

/// The worker threads: those waiting for a job, by the sender of their channel,
/// the last to have finished on top (its stack and caches are warm).
#[derive(Debug, Default)]
struct Threads {
    idle: Mutex<Vec<mpsc::Sender<Handed>>>,
    started: AtomicUsize,
}

impl Threads {
    /// Gives `task` to an idle thread, or to a new one when none is idle (only
    /// while fewer than `max_running` hold a job, as the task's permit shows).
    fn hand(self: &Arc<Self>, mut task: Task) -> std::io::Result<()> {
        loop {
            let idle = self
                .idle
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .pop();
            let Some(home) = idle else {
                return self.start(task);
            };
            // A thread that ended (it cannot, short of a panic outside its job) gives
            // the task back: the next one gets it.
            match home.clone().send(Handed { task, home }) {
                Ok(()) => return Ok(()),
                Err(mpsc::SendError(returned)) => task = returned.task,
            }
        }
    }

    fn start(self: &Arc<Self>, task: Task) -> std::io::Result<()> {
        let (home, tasks) = mpsc::channel();
        let threads = Arc::downgrade(self);
        let number = self.started.fetch_add(1, Ordering::Relaxed);
        let spawned = std::thread::Builder::new()
            .name(format!("tavern-engine-{number}"))
            .stack_size(STACK_BYTES)
            .spawn(move || serve(&tasks, &threads));
        if let Err(error) = spawned {
            self.started.fetch_sub(1, Ordering::Relaxed);
            return Err(error);
        }
        // Cannot fail: the thread holds its receiver until every sender is gone.
        let _ = home.clone().send(Handed { task, home });
        Ok(())
    }
}

/// A worker thread's life: runs the tasks its channel brings until the workers
/// are dropped (no sender of its channel left).
fn serve(tasks: &mpsc::Receiver<Handed>, threads: &Weak<Threads>) {
    while let Ok(Handed { task, home }) = tasks.recv() {
        let Task {
            job,
            cancel,
            permit,
        } = task;
        CANCEL.with(|flag| *flag.borrow_mut() = Some(cancel));
        let answer = job();
        CANCEL.with(|flag| *flag.borrow_mut() = None);
        // Idle again before the permit is free: whoever gets the permit finds this
        // thread rather than starting another. With the workers gone, it ends.
        if let Some(threads) = threads.upgrade() {
            threads
                .idle
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(home);
        }
        drop(permit);
        answer();
    }
}

/// One job counted in [`Workers::waiting`] while it lives: a caller that stops
/// waiting (its future dropped) leaves the count too.
struct Queued<'a>(&'a AtomicUsize);

impl<'a> Queued<'a> {
    fn join(waiting: &'a AtomicUsize) -> Queued<'a> {
        waiting.fetch_add(1, Ordering::Relaxed);
        Queued(waiting)
    }
}

impl Drop for Queued<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Default for Workers {
    fn default() -> Self {
        Workers::new(DEFAULT_TIME_LIMIT, DEFAULT_MAX_RUNNING)
    }
}

/// How long a job past its limit has to stop once cancelled before the user is told
/// (a job that reads its flag stops within milliseconds; one that does not, such as
/// a program's compilation, keeps its worker until it ends).
pub const CANCEL_GRACE: Duration = Duration::from_secs(1);

/// How long a user waits for one engine job at most (and [`CANCEL_GRACE`] more when
/// it has to be cancelled).
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(5);
/// Engine jobs running at once at most (abandoned ones included until they return),
/// and so worker threads kept.
pub const DEFAULT_MAX_RUNNING: usize = 4;
