//! `/metrics` (Prometheus text format 0.0.4), `/healthz` (liveness: the database
//! answers) and `/readyz` (readiness: also every shard of this process is connected),
//! served on the local address of `[metrics] address` by `tavern run`.
//!
//! The exposition is written here rather than with a metrics crate: every label value
//! is one of a fixed set known at compile time (the command table and the kinds of
//! interaction), so the counters are plain atomics in fixed arrays, recording an event
//! takes no lock and no allocation (only the rare shard connection changes take one), and the text format needs only counters, gauges and
//! cumulative histograms. The database side (waiting sessions, a probe's latency,
//! reachability) is read when Prometheus scrapes, so a scrape is also a health probe.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

use crate::core::{Core, Request, RequestKind};

/// The labels of events that are not slash commands; a slash command is labelled
/// with its name from the core's table, anything unknown with `other`.
const EVENT_LABELS: [&str; 6] = [
    "button",
    "select",
    "modal",
    "autocomplete",
    "reply",
    "other",
];

/// Upper bounds of the latency buckets, in seconds: Discord's 3-second deadline sits
/// between 2.5 and 5.
const LATENCY_BUCKETS: [f64; 11] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// Bounds for the database probe, in seconds.
const DB_BUCKETS: [f64; 9] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 1.0];

/// How long `/healthz` and a scrape wait for the database.
const PROBE_TIMEOUT: Duration = Duration::from_secs(2);

/// A session counts as active when it was answered within this window.
const ACTIVE_WINDOW_MS: i64 = 15 * 60 * 1000;

/// A cumulative histogram over fixed bounds, without locks.
#[derive(Debug)]
struct Histogram<const N: usize> {
    bounds: &'static [f64; N],
    /// Observations per bucket (not cumulative); the last slot is +Inf.
    buckets: [AtomicU64; N],
    overflow: AtomicU64,
    sum_nanos: AtomicU64,
}

impl<const N: usize> Histogram<N> {
    fn new(bounds: &'static [f64; N]) -> Self {
        Histogram {
            bounds,
            buckets: std::array::from_fn(|_| AtomicU64::new(0)),
            overflow: AtomicU64::new(0),
            sum_nanos: AtomicU64::new(0),
        }
    }

    fn observe(&self, elapsed: Duration) {
        let seconds = elapsed.as_secs_f64();
        match self.bounds.iter().position(|bound| seconds <= *bound) {
            Some(index) => self.buckets[index].fetch_add(1, Ordering::Relaxed),
            None => self.overflow.fetch_add(1, Ordering::Relaxed),
        };
        let nanos = u64::try_from(elapsed.as_nanos()).unwrap_or(u64::MAX);
        self.sum_nanos.fetch_add(nanos, Ordering::Relaxed);
    }

    /// Writes the `_bucket`, `_sum` and `_count` lines; `labels` is `key="value",` or
    /// empty.
    fn write(&self, out: &mut String, name: &str, labels: &str) {
        let mut cumulative = 0;
        for (bound, bucket) in self.bounds.iter().zip(&self.buckets) {
            cumulative += bucket.load(Ordering::Relaxed);
            let _ = writeln!(out, "{name}_bucket{{{labels}le=\"{bound}\"}} {cumulative}");
        }
        cumulative += self.overflow.load(Ordering::Relaxed);
        let _ = writeln!(out, "{name}_bucket{{{labels}le=\"+Inf\"}} {cumulative}");
        let sum = self.sum_nanos.load(Ordering::Relaxed) as f64 / 1e9;
        let labels = labels.trim_end_matches(',');
        let braces = if labels.is_empty() {
            String::new()
        } else {
            format!("{{{labels}}}")
        };
        let _ = writeln!(out, "{name}_sum{braces} {sum}");
        let _ = writeln!(out, "{name}_count{braces} {cumulative}");
    }
}

/// The counters the Discord adapter records into. One per bot process.
#[derive(Debug)]
pub struct Metrics {
    /// Every label, fixed at start: the commands, then [`EVENT_LABELS`].
    labels: Vec<&'static str>,
    received: Vec<AtomicU64>,
    latency: Vec<Histogram<11>>,
    /// Discord calls that failed (an answer, a message, an edit).
    discord_errors: AtomicU64,
    /// Events whose handling task panicked (answered with an error id).
    panics: AtomicU64,
    /// Kept-connection callbacks that failed: sent again through serenity's `Http`
    /// (nothing had been sent), and not sent again (it may have arrived).
    callbacks_resent: AtomicU64,
    callbacks_not_resent: AtomicU64,
    in_flight: AtomicI64,
    db_probe: Histogram<9>,
    /// The shards this process runs, and whether each is connected now.
    shards: Mutex<BTreeMap<u32, bool>>,
}

impl Default for Metrics {
    fn default() -> Self {
        let mut labels: Vec<&'static str> = crate::core::commands::command_specs(1)
            .iter()
            .map(|spec| spec.name)
            .collect();
        labels.extend(EVENT_LABELS);
        Metrics {
            received: labels.iter().map(|_| AtomicU64::new(0)).collect(),
            latency: labels
                .iter()
                .map(|_| Histogram::new(&LATENCY_BUCKETS))
                .collect(),
            labels,
            discord_errors: AtomicU64::new(0),
            panics: AtomicU64::new(0),
            callbacks_resent: AtomicU64::new(0),
            callbacks_not_resent: AtomicU64::new(0),
            in_flight: AtomicI64::new(0),
            db_probe: Histogram::new(&DB_BUCKETS),
            shards: Mutex::new(BTreeMap::new()),
        }
    }
}

/// Counts an event as being handled while it lives.
pub struct InFlight<'a>(&'a Metrics);

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::Relaxed);
    }
}

/// What a scrape reads besides the counters.
#[derive(Debug, Clone, Copy, Default)]
pub struct Observed {
    pub database_up: bool,
    pub sessions: crate::storage::SessionCounts,
    pub errors: crate::core::ErrorTotals,
}

impl Metrics {
    /// The label of a request: its command's name, or its kind.
    pub fn label(&self, request: &Request) -> &'static str {
        let kind = match &request.kind {
            RequestKind::Command(command) => command.name.as_str(),
            RequestKind::Autocomplete { .. } => "autocomplete",
            RequestKind::Button { .. } => "button",
            RequestKind::Select { .. } => "select",
            RequestKind::Modal { .. } => "modal",
            RequestKind::MessageReply { .. } => "reply",
        };
        self.labels[self.label_index(kind)]
    }

    fn label_index(&self, label: &str) -> usize {
        self.labels
            .iter()
            .position(|known| *known == label)
            .unwrap_or(self.labels.len() - 1)
    }

    /// An event taken up for handling. Counted before anything is sent, so whoever
    /// sees an answer sees it counted.
    pub fn received(&self, label: &str) {
        self.received[self.label_index(label)].fetch_add(1, Ordering::Relaxed);
    }

    /// An event handled, `elapsed` from its arrival to its last message sent.
    pub fn answered(&self, label: &str, elapsed: Duration) {
        self.latency[self.label_index(label)].observe(elapsed);
    }

    /// How many events of `label` were received.
    pub fn received_count(&self, label: &str) -> u64 {
        self.received[self.label_index(label)].load(Ordering::Relaxed)
    }

    pub fn discord_error(&self) {
        self.discord_errors.fetch_add(1, Ordering::Relaxed);
    }

    /// The handling of an event panicked.
    pub fn task_panicked(&self) {
        self.panics.fetch_add(1, Ordering::Relaxed);
    }

    /// A kept-connection callback failed; `resent` when it went again through
    /// serenity's `Http`.
    pub fn callback_failed(&self, resent: bool) {
        let counter = if resent {
            &self.callbacks_resent
        } else {
            &self.callbacks_not_resent
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// This process runs shards `first..=last`, none connected yet.
    pub fn own_shards(&self, first: u32, last: u32) {
        let mut shards = self.shards.lock().unwrap_or_else(PoisonError::into_inner);
        shards.clear();
        shards.extend((first..=last).map(|shard| (shard, false)));
    }

    /// Shard `shard` has connected (or resumed), or has lost its connection.
    pub fn shard_connected(&self, shard: u32, connected: bool) {
        let mut shards = self.shards.lock().unwrap_or_else(PoisonError::into_inner);
        shards.insert(shard, connected);
    }

    /// The shards of this process that are not connected now.
    pub fn disconnected_shards(&self) -> Vec<u32> {
        let shards = self.shards.lock().unwrap_or_else(PoisonError::into_inner);
        shards
            .iter()
            .filter(|(_, connected)| !**connected)
            .map(|(shard, _)| *shard)
            .collect()
    }

    pub fn in_flight(&self) -> InFlight<'_> {
        self.in_flight.fetch_add(1, Ordering::Relaxed);
        InFlight(self)
    }

    /// Asks the database a trivial query, recording its latency; `false` when it does
    /// not answer within [`PROBE_TIMEOUT`].
    pub async fn probe_database(&self, core: &Core) -> bool {
        let started = Instant::now();
        let answered = tokio::time::timeout(PROBE_TIMEOUT, core.storage().ping()).await;
        let up = matches!(answered, Ok(Ok(())));
        if up {
            self.db_probe.observe(started.elapsed());
        }
        up
    }

    /// Probes the database and reads the session counts and the core's errors.
    pub async fn observe(&self, core: &Core) -> Observed {
        let database_up = self.probe_database(core).await;
        let sessions = if database_up {
            match tokio::time::timeout(PROBE_TIMEOUT, core.session_counts(ACTIVE_WINDOW_MS)).await {
                Ok(Ok(counts)) => counts,
                Ok(Err(error)) => {
                    tracing::warn!(error = %format!("{error:#}"), "cannot count the sessions");
                    Default::default()
                }
                Err(_) => Default::default(),
            }
        } else {
            Default::default()
        };
        Observed {
            database_up,
            sessions,
            errors: core.error_totals(),
        }
    }

    /// The Prometheus text exposition.
    pub fn render(&self, observed: &Observed) -> String {
        let mut out = String::with_capacity(8 * 1024);
        header(
            &mut out,
            "tavern_interactions_total",
            "counter",
            "Events received (slash commands by name, components, modals, replies).",
        );
        for (label, count) in self.labels.iter().zip(&self.received) {
            let count = count.load(Ordering::Relaxed);
            let _ = writeln!(
                out,
                "tavern_interactions_total{{command=\"{label}\"}} {count}"
            );
        }
        header(
            &mut out,
            "tavern_interaction_duration_seconds",
            "histogram",
            "From an event's arrival to its last message sent.",
        );
        for (label, histogram) in self.labels.iter().zip(&self.latency) {
            let labels = format!("command=\"{label}\",");
            histogram.write(&mut out, "tavern_interaction_duration_seconds", &labels);
        }
        header(
            &mut out,
            "tavern_errors_total",
            "counter",
            "Failures: internal (answered with an error id), database (answered with \
             'try again'), discord (a call to Discord failed), panic (an event's task \
             panicked; answered with an error id).",
        );
        let errors = [
            ("internal", observed.errors.internal),
            ("database", observed.errors.database_unavailable),
            ("discord", self.discord_errors.load(Ordering::Relaxed)),
            ("panic", self.panics.load(Ordering::Relaxed)),
        ];
        for (kind, count) in errors {
            let _ = writeln!(out, "tavern_errors_total{{kind=\"{kind}\"}} {count}");
        }
        header(
            &mut out,
            "tavern_callback_failures_total",
            "counter",
            "First responses whose kept connection failed: resent through serenity's \
             Http (nothing had been sent), or not (it may have reached Discord).",
        );
        let failures = [
            ("resent", &self.callbacks_resent),
            ("not_resent", &self.callbacks_not_resent),
        ];
        for (outcome, count) in failures {
            let count = count.load(Ordering::Relaxed);
            let _ = writeln!(
                out,
                "tavern_callback_failures_total{{outcome=\"{outcome}\"}} {count}"
            );
        }
        header(
            &mut out,
            "tavern_events_in_flight",
            "gauge",
            "Events being handled right now.",
        );
        let in_flight = self.in_flight.load(Ordering::Relaxed);
        let _ = writeln!(out, "tavern_events_in_flight {in_flight}");
        header(
            &mut out,
            "tavern_shards",
            "gauge",
            "The gateway shards this process runs, by connection state.",
        );
        let (owned, disconnected) = {
            let shards = self.shards.lock().unwrap_or_else(PoisonError::into_inner);
            let down = shards.values().filter(|connected| !**connected).count();
            (shards.len(), down)
        };
        let _ = writeln!(
            out,
            "tavern_shards{{state=\"connected\"}} {}\ntavern_shards{{state=\"disconnected\"}} {disconnected}",
            owned - disconnected
        );
        let sessions = observed.sessions;
        header(
            &mut out,
            "tavern_sessions_paused",
            "gauge",
            "Generator sessions and NPC conversations waiting for the player.",
        );
        let _ = writeln!(
            out,
            "tavern_sessions_paused{{kind=\"chargen\"}} {}\ntavern_sessions_paused{{kind=\"npc\"}} {}",
            sessions.chargen_paused, sessions.npc_paused
        );
        header(
            &mut out,
            "tavern_sessions_active",
            "gauge",
            "Waiting sessions answered within the last 15 minutes.",
        );
        let _ = writeln!(
            out,
            "tavern_sessions_active{{kind=\"chargen\"}} {}\ntavern_sessions_active{{kind=\"npc\"}} {}",
            sessions.chargen_active, sessions.npc_active
        );
        header(
            &mut out,
            "tavern_database_up",
            "gauge",
            "Whether the database answered the last probe.",
        );
        let _ = writeln!(out, "tavern_database_up {}", u8::from(observed.database_up));
        header(
            &mut out,
            "tavern_database_probe_seconds",
            "histogram",
            "Round trips of a trivial query to the database (one per scrape and health check).",
        );
        self.db_probe
            .write(&mut out, "tavern_database_probe_seconds", "");
        out
    }
}

fn header(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
}

#[derive(Clone)]
struct Served {
    metrics: Arc<Metrics>,
    core: Arc<Core>,
}

/// The `/metrics` and `/healthz` routes.
pub fn router(metrics: Arc<Metrics>, core: Arc<Core>) -> Router {
    Router::new()
        .route("/metrics", get(metrics_page))
        .route("/healthz", get(health))
        .route("/readyz", get(readiness))
        .with_state(Served { metrics, core })
}

async fn metrics_page(State(served): State<Served>) -> Response {
    let observed = served.metrics.observe(&served.core).await;
    let body = served.metrics.render(&observed);
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        body,
    )
        .into_response()
}

/// 200 when the database answers, 503 when it does not.
async fn health(State(served): State<Served>) -> Response {
    if served.metrics.probe_database(&served.core).await {
        return (StatusCode::OK, "ok\n").into_response();
    }
    (StatusCode::SERVICE_UNAVAILABLE, "database unreachable\n").into_response()
}

/// 200 when the database answers and every shard of this process is connected;
/// 503 with the reason otherwise (while starting, or while a shard reconnects).
async fn readiness(State(served): State<Served>) -> Response {
    if !served.metrics.probe_database(&served.core).await {
        return (StatusCode::SERVICE_UNAVAILABLE, "database unreachable\n").into_response();
    }
    let down = served.metrics.disconnected_shards();
    if !down.is_empty() {
        let list = down
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let body = format!("not connected to Discord: shard {list}\n");
        return (StatusCode::SERVICE_UNAVAILABLE, body).into_response();
    }
    (StatusCode::OK, "ready\n").into_response()
}

/// Binds `address` and serves the routes until the task is aborted; returns the bound
/// address (for port 0) and the task.
pub async fn serve(
    address: &str,
    metrics: Arc<Metrics>,
    core: Arc<Core>,
) -> anyhow::Result<(SocketAddr, JoinHandle<()>)> {
    let listener = TcpListener::bind(address)
        .await
        .map_err(|error| anyhow::anyhow!("cannot listen for metrics on {address}: {error}"))?;
    let bound = listener.local_addr()?;
    let app = router(metrics, core);
    let task = tokio::spawn(async move {
        if let Err(error) = axum::serve(listener, app).await {
            tracing::error!(%error, "the metrics server stopped");
        }
    });
    Ok((bound, task))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histograms_are_cumulative_and_counted() {
        let histogram = Histogram::new(&LATENCY_BUCKETS);
        for millis in [1, 7, 7, 300, 20_000] {
            histogram.observe(Duration::from_millis(millis));
        }
        let mut out = String::new();
        histogram.write(&mut out, "x", "command=\"roll\",");
        let expected_lines = [
            "x_bucket{command=\"roll\",le=\"0.005\"} 1",
            "x_bucket{command=\"roll\",le=\"0.01\"} 3",
            "x_bucket{command=\"roll\",le=\"0.25\"} 3",
            "x_bucket{command=\"roll\",le=\"0.5\"} 4",
            "x_bucket{command=\"roll\",le=\"10\"} 4",
            "x_bucket{command=\"roll\",le=\"+Inf\"} 5",
            "x_sum{command=\"roll\"} 20.315",
            "x_count{command=\"roll\"} 5",
        ];
        for line in expected_lines {
            assert!(out.lines().any(|l| l == line), "{line} missing from\n{out}");
        }
    }

    #[test]
    fn failed_callbacks_are_counted_by_what_followed() {
        let metrics = Metrics::default();
        metrics.callback_failed(true);
        metrics.callback_failed(true);
        metrics.callback_failed(false);
        let out = metrics.render(&Observed::default());
        for line in [
            "tavern_callback_failures_total{outcome=\"resent\"} 2",
            "tavern_callback_failures_total{outcome=\"not_resent\"} 1",
        ] {
            assert!(out.lines().any(|l| l == line), "{line} missing from\n{out}");
        }
    }

    #[test]
    fn unknown_labels_count_as_other() {
        let metrics = Metrics::default();
        metrics.received("roll");
        metrics.received("launch-missiles");
        assert_eq!(metrics.received_count("roll"), 1);
        assert_eq!(metrics.received_count("other"), 1);
    }
}
