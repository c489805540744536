//! The database statements the bot process runs, counted from sqlx's own statement log
//! (target `sqlx::query`, one event per statement executed, whatever the backend).
//!
//! The bench's bot child installs this instead of `tavern::telemetry::init` when asked
//! (`TAVERN_LOAD_COUNT_STATEMENTS`): the same filter and output for everything else,
//! plus a layer that only counts. Counting makes sqlx format a statement summary it
//! otherwise skips (a microsecond or two per statement), which is why the plain load
//! bench leaves it off.

use std::sync::atomic::{AtomicI64, Ordering};

use tracing::Subscriber;
use tracing::field::{Field, Visit};
use tracing_subscriber::filter::{EnvFilter, Targets};
use tracing_subscriber::layer::{Context, Layer, SubscriberExt};
use tracing_subscriber::util::SubscriberInitExt;

/// Statements executed since start: all, and those that change data.
static TOTAL: AtomicI64 = AtomicI64::new(0);
static WRITES: AtomicI64 = AtomicI64::new(0);

/// `(all statements, writes)` so far.
pub fn counted() -> (i64, i64) {
    (
        TOTAL.load(Ordering::Relaxed),
        WRITES.load(Ordering::Relaxed),
    )
}

/// Logging as `tavern::telemetry::init` sets it up, plus the counter.
pub fn init(filter: &str) {
    let filter = match std::env::var("RUST_LOG") {
        Ok(filter) if !filter.trim().is_empty() => EnvFilter::new(filter),
        _ => EnvFilter::new(filter),
    };
    let output = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_filter(filter);
    let statements =
        Counter.with_filter(Targets::new().with_target("sqlx::query", tracing::Level::TRACE));
    tracing_subscriber::registry()
        .with(output)
        .with(statements)
        .try_init()
        .expect("the logger");
}

struct Counter;

impl<S: Subscriber> Layer<S> for Counter {
    fn on_event(&self, event: &tracing::Event<'_>, _: Context<'_, S>) {
        let mut kind = Kind(false);
        event.record(&mut kind);
        TOTAL.fetch_add(1, Ordering::Relaxed);
        if kind.0 {
            WRITES.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// Whether the statement's summary (its first words) starts with a verb that writes.
struct Kind(bool);

impl Visit for Kind {
    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() != "summary" {
            return;
        }
        let verb = value.split_whitespace().next().unwrap_or("");
        self.0 = ["insert", "update", "delete", "replace"]
            .iter()
            .any(|write| verb.eq_ignore_ascii_case(write));
    }

    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "summary" {
            self.record_str(field, &format!("{value:?}").replace('"', ""));
        }
    }
}
