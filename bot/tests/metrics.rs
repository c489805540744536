//! `/metrics`, `/healthz` and `/readyz`: the router served on 127.0.0.1:0, read over HTTP, after
//! real traffic through the Discord adapter and the fake Discord.

use std::collections::BTreeMap;
use std::sync::Arc;

use fake_discord::Opt;
use tavern::core::{Core, CoreSettings};
use tavern::metrics::Metrics;
use tavern::storage::Storage;

use crate::e2e::support::{Tavern, alice};

/// A served metrics endpoint and an HTTP client for it.
struct Endpoint {
    base: String,
    client: reqwest::Client,
    server: tokio::task::JoinHandle<()>,
}

impl Endpoint {
    async fn serve(metrics: Arc<Metrics>, core: Arc<Core>) -> Endpoint {
        let (bound, server) = tavern::metrics::serve("127.0.0.1:0", metrics, core)
            .await
            .expect("the metrics server binds loopback");
        Endpoint {
            base: format!("http://{bound}"),
            client: reqwest::Client::new(),
            server,
        }
    }

    async fn get(&self, path: &str) -> (u16, String, String) {
        let response = self
            .client
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .expect("the endpoint answers");
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|value| value.to_str().ok())
            .unwrap_or("")
            .to_owned();
        (status, content_type, response.text().await.expect("a body"))
    }

    /// `/metrics`, checked for the text format and returned as `series -> value`.
    async fn scrape(&self) -> BTreeMap<String, f64> {
        let (status, content_type, body) = self.get("/metrics").await;
        assert_eq!(status, 200);
        assert!(content_type.starts_with("text/plain; version=0.0.4"));
        parse_exposition(&body)
    }

    fn stop(self) {
        self.server.abort();
    }
}

/// Parses the Prometheus text format strictly enough to catch a malformed line: every
/// sample belongs to a family announced by `# TYPE`, has a valid name, balanced
/// labels and a numeric value, and appears once.
fn parse_exposition(body: &str) -> BTreeMap<String, f64> {
    let mut families: Vec<String> = Vec::new();
    let mut samples = BTreeMap::new();
    for line in body.lines() {
        if let Some(rest) = line.strip_prefix("# TYPE ") {
            let (name, kind) = rest.split_once(' ').expect("# TYPE name kind");
            assert!(matches!(kind, "counter" | "gauge" | "histogram"), "{line}");
            families.push(name.to_owned());
            continue;
        }
        if line.starts_with("# HELP ") {
            continue;
        }
        let (series, value) = line.rsplit_once(' ').expect("series value");
        let name = series.split('{').next().unwrap();
        assert!(
            name.chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '_'),
            "{line}"
        );
        if let Some(labels) = series.strip_prefix(name) {
            assert!(
                labels.is_empty() || (labels.starts_with('{') && labels.ends_with('}')),
                "{line}"
            );
        }
        let family = families.last().expect("a sample after its # TYPE");
        assert!(name.starts_with(family.as_str()), "{line} outside {family}");
        let value: f64 = value.parse().unwrap_or_else(|_| panic!("value of {line}"));
        assert!(
            samples.insert(series.to_owned(), value).is_none(),
            "{series} twice"
        );
    }
    samples
}

#[tokio::test(flavor = "multi_thread")]
async fn metrics_count_interactions_sessions_and_the_database() {
    let tavern = Tavern::start().await;
    let roll = tavern.slash(&alice(), "roll", vec![Opt::string("expr", "2d6")]);
    tavern.callback(roll).await;
    let prompt = tavern.start_chargen(&alice()).await;
    tavern.settled().await;

    let endpoint = Endpoint::serve(tavern.bot().metrics(), tavern.core.clone()).await;
    let samples = endpoint.scrape().await;
    let expected = [
        ("tavern_interactions_total{command=\"roll\"}", 1.0),
        ("tavern_interactions_total{command=\"chargen\"}", 1.0),
        ("tavern_interactions_total{command=\"macro\"}", 0.0),
        (
            "tavern_interaction_duration_seconds_count{command=\"roll\"}",
            1.0,
        ),
        (
            "tavern_interaction_duration_seconds_bucket{command=\"roll\",le=\"+Inf\"}",
            1.0,
        ),
        ("tavern_sessions_paused{kind=\"chargen\"}", 1.0),
        ("tavern_sessions_active{kind=\"chargen\"}", 1.0),
        ("tavern_sessions_paused{kind=\"npc\"}", 0.0),
        ("tavern_errors_total{kind=\"internal\"}", 0.0),
        ("tavern_errors_total{kind=\"discord\"}", 0.0),
        ("tavern_errors_total{kind=\"panic\"}", 0.0),
        ("tavern_callback_failures_total{outcome=\"resent\"}", 0.0),
        (
            "tavern_callback_failures_total{outcome=\"not_resent\"}",
            0.0,
        ),
        ("tavern_events_in_flight", 0.0),
        ("tavern_shards{state=\"connected\"}", 1.0),
        ("tavern_shards{state=\"disconnected\"}", 0.0),
        ("tavern_database_up", 1.0),
        ("tavern_database_probe_seconds_count", 1.0),
    ];
    for (series, value) in expected {
        assert_eq!(samples.get(series), Some(&value), "{series}");
    }

    // A reply to the prompt counts as a reply.
    tavern.reply(&alice(), &prompt, "Udo", true);
    tavern.prompt_after(&[prompt.id]).await;
    let samples = endpoint.scrape().await;
    assert_eq!(samples["tavern_interactions_total{command=\"reply\"}"], 1.0);
    assert_eq!(samples["tavern_database_probe_seconds_count"], 2.0);

    let (status, _, body) = endpoint.get("/healthz").await;
    assert_eq!((status, body.as_str()), (200, "ok\n"));
    let (status, _, body) = endpoint.get("/readyz").await;
    assert_eq!((status, body.as_str()), (200, "ready\n"));
    endpoint.stop();
    tavern.stop().await;
}

/// A core over `storage`, for the health checks.
fn core_over(storage: &Storage) -> Arc<Core> {
    Arc::new(Core::new(
        storage.clone(),
        crate::doubles::engines(),
        CoreSettings::default(),
        Arc::new(tavern::core::limits::SystemClock),
        Some(1),
    ))
}

/// healthz follows the database: 200 while it answers, 503 once it does not; readyz
/// also wants every shard of the process connected.
async fn health_follows_the_database(storage: Storage) {
    let metrics = Arc::new(Metrics::default());
    metrics.own_shards(2, 4);
    let endpoint = Endpoint::serve(metrics.clone(), core_over(&storage)).await;
    assert_eq!(endpoint.get("/healthz").await.0, 200);
    let starting = endpoint.get("/readyz").await;
    assert_eq!(
        (starting.0, starting.2.as_str()),
        (503, "not connected to Discord: shard 2, 3, 4\n")
    );
    for shard in 2..=4 {
        metrics.shard_connected(shard, true);
    }
    assert_eq!(endpoint.get("/readyz").await.0, 200);
    metrics.shard_connected(3, false);
    let samples = endpoint.scrape().await;
    assert_eq!(samples["tavern_shards{state=\"connected\"}"], 2.0);
    assert_eq!(samples["tavern_shards{state=\"disconnected\"}"], 1.0);
    let reconnecting = endpoint.get("/readyz").await;
    assert_eq!(
        (reconnecting.0, reconnecting.2.as_str()),
        (503, "not connected to Discord: shard 3\n")
    );
    metrics.shard_connected(3, true);
    storage.close().await;
    let (status, _, body) = endpoint.get("/healthz").await;
    assert_eq!((status, body.as_str()), (503, "database unreachable\n"));
    let (status, _, body) = endpoint.get("/readyz").await;
    assert_eq!((status, body.as_str()), (503, "database unreachable\n"));
    let samples = endpoint.scrape().await;
    assert_eq!(samples["tavern_database_up"], 0.0);
    endpoint.stop();
}

crate::on_both_backends!(health_follows_the_database);
