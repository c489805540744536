//! Time and the per-user rate limit.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, Ordering};

/// The current time in unix milliseconds. Injected so tests control expiry and rate
/// limits without sleeping.
pub trait Clock: Send + Sync {
    fn now_ms(&self) -> i64;
}

#[derive(Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> i64 {
        let since_epoch = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        i64::try_from(since_epoch.as_millis()).unwrap_or(i64::MAX)
    }
}

/// A clock that moves only when told to.
#[derive(Debug)]
pub struct ManualClock(AtomicI64);

impl ManualClock {
    pub fn new(start_ms: i64) -> ManualClock {
        ManualClock(AtomicI64::new(start_ms))
    }

    pub fn advance_ms(&self, ms: i64) {
        self.0.fetch_add(ms, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// A token bucket per user: `burst` requests at once, refilled at `per_minute`.
/// Kept in memory per process; a user spread over shards gets a bucket on each, which
/// is fine for a courtesy limit.
#[derive(Debug)]
pub struct RateLimiter {
    burst: f64,
    per_ms: f64,
    buckets: Mutex<HashMap<i64, Bucket>>,
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at_ms: i64,
}

/// Buckets beyond this many are pruned of full (idle) ones, bounding memory.
const MAX_BUCKETS: usize = 100_000;

impl RateLimiter {
    pub fn new(burst: u32, per_minute: u32) -> RateLimiter {
        RateLimiter {
            burst: f64::from(burst.max(1)),
            per_ms: f64::from(per_minute) / 60_000.0,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes a token for `user`; `Err(wait_ms)` when there is none.
    pub fn check(&self, user: i64, now_ms: i64) -> Result<(), i64> {
        let mut buckets = self
            .buckets
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if buckets.len() >= MAX_BUCKETS {
            let (burst, per_ms) = (self.burst, self.per_ms);
            buckets.retain(|_, bucket| refill(*bucket, now_ms, burst, per_ms) < burst);
        }
        let bucket = buckets.entry(user).or_insert(Bucket {
            tokens: self.burst,
            at_ms: now_ms,
        });
        let tokens = refill(*bucket, now_ms, self.burst, self.per_ms);
        if tokens >= 1.0 {
            *bucket = Bucket {
                tokens: tokens - 1.0,
                at_ms: now_ms,
            };
            return Ok(());
        }
        *bucket = Bucket {
            tokens,
            at_ms: now_ms,
        };
        if self.per_ms <= 0.0 {
            return Err(60_000);
        }
        Err(((1.0 - tokens) / self.per_ms).ceil() as i64)
    }
}

fn refill(bucket: Bucket, now_ms: i64, burst: f64, per_ms: f64) -> f64 {
    let elapsed = (now_ms - bucket.at_ms).max(0) as f64;
    (bucket.tokens + elapsed * per_ms).min(burst)
}
