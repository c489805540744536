//! Faults: the gateway drops or invalidates the session, a heartbeat goes
//! unacknowledged, Discord answers 429, the database goes away for a while, the
//! process is killed with SIGKILL. After each the bot answers again by itself, and
//! nothing it acknowledged is lost.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use fake_discord::{FakeDiscord, GatewayRecord, Opt};
use sqlx::Executor as _;
use tavern::core::database_unavailable_text;
use tavern::i18n::Lang;
use tavern::storage::{Storage, StorageOptions};
use tokio::net::TcpListener;
use tokio::sync::Mutex;
use tokio::task::JoinHandle;

use crate::e2e::support::{
    ALICE, CONNECT, GUILD, Setup, TOKEN, Tavern, accepted_callback, alice, answer_button,
    answer_for, latest_session, modal_answer,
};
use crate::support::TempDir;

/// A gateway fault the fake can cause.
#[derive(Debug, Clone, Copy)]
enum GatewayFault {
    /// op 7 RECONNECT: serenity reconnects and resumes.
    Reconnect,
    /// op 9 INVALID_SESSION; `resumable` as its `d`.
    InvalidSession { resumable: bool },
    /// Close code 4000 (unknown error): serenity resumes.
    Close4000,
    /// One heartbeat left without ACK: serenity reconnects at the next one.
    MissedAck,
}

/// A generator is waiting when the fault hits; a roll sent during the fault is
/// answered once the session is back, and so is the waiting prompt.
async fn the_bot_answers_after(fault: GatewayFault) {
    let mut setup = Setup::default();
    if let GatewayFault::MissedAck = fault {
        setup.fake.heartbeat_interval = Duration::from_millis(500);
    }
    let tavern = Tavern::start_with(setup).await;
    let first = tavern.start_chargen(&alice()).await;
    let session_before = latest_session(&tavern.fake);
    let caused = match fault {
        GatewayFault::Reconnect => tavern.fake.send_reconnect(0),
        GatewayFault::InvalidSession { resumable } => tavern.fake.invalidate_session(0, resumable),
        GatewayFault::Close4000 => tavern.fake.close_gateway(0, 4000),
        GatewayFault::MissedAck => {
            tavern.fake.skip_heartbeat_acks(0, 1);
            true
        }
    };
    assert!(caused, "{fault:?}: the shard had no connection");
    // Sent while the shard reconnects: the fake holds it for the resumed or new session.
    let roll = tavern.slash(&alice(), "roll", vec![Opt::string("expr", "1d6")]);
    tavern
        .fake
        .wait_gateway(CONNECT, |record| match record {
            GatewayRecord::Resumed { .. } => true,
            GatewayRecord::Ready { session_id, .. } => *session_id != session_before,
            _ => false,
        })
        .await
        .unwrap_or_else(|_| panic!("{fault:?}: no RESUMED and no new READY"));
    assert_eq!(tavern.callback(roll).await.kind, 4, "{fault:?}");
    tavern.answer_with_modal(&alice(), &first, "Udo").await;
    let second = tavern.prompt_after(&[first.id]).await;
    assert!(answer_button(&second).is_some());
    assert_eq!(tavern.alices_session().await.unwrap().step, 1);
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn op7_reconnect_and_resume() {
    the_bot_answers_after(GatewayFault::Reconnect).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn op9_invalid_session() {
    the_bot_answers_after(GatewayFault::InvalidSession { resumable: false }).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn op9_resumable_invalid_session() {
    the_bot_answers_after(GatewayFault::InvalidSession { resumable: true }).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn close_4000() {
    the_bot_answers_after(GatewayFault::Close4000).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_missed_heartbeat_ack() {
    the_bot_answers_after(GatewayFault::MissedAck).await;
}

/// A 429 on a callback loses that one answer (with the proxy, serenity's rate limiter
/// is off and does not retry; in production it retries by itself); it is counted, and
/// the next interaction is answered.
#[tokio::test(flavor = "multi_thread")]
async fn a_429_on_a_callback() {
    let mut setup = Setup::default();
    setup.fake.rate_limit_headers = true;
    let tavern = Tavern::start_with(setup).await;
    tavern
        .fake
        .rate_limit_next("/callback", 1, Duration::from_millis(100), false);
    let refused = tavern.slash(&alice(), "roll", vec![Opt::string("expr", "1d6")]);
    let callback = tavern.fake.wait_callback(refused).await.unwrap();
    assert_eq!(callback.status, 429);
    let roll = tavern.slash(&alice(), "roll", vec![Opt::string("expr", "1d6")]);
    assert_eq!(tavern.callback(roll).await.kind, 4);
    tavern.settled().await;
    let exposition = tavern
        .bot()
        .metrics()
        .render(&tavern::metrics::Observed::default());
    assert!(
        exposition.contains("tavern_errors_total{kind=\"discord\"} 1\n"),
        "{exposition}"
    );
    assert_eq!(tavern.bot().metrics().received_count("roll"), 2);
    tavern.stop().await;
}

// ----- the database goes away -----

/// A loopback TCP proxy to PostgreSQL that can be stopped (every connection through
/// it breaks, new ones are refused) and started again on the same port.
struct TcpProxy {
    address: std::net::SocketAddr,
    target: String,
    accept: Option<JoinHandle<()>>,
    connections: Arc<Mutex<Vec<JoinHandle<()>>>>,
}

impl TcpProxy {
    async fn start(target: &str) -> TcpProxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let mut proxy = TcpProxy {
            address: listener.local_addr().unwrap(),
            target: target.to_owned(),
            accept: None,
            connections: Arc::default(),
        };
        proxy.serve(listener);
        proxy
    }

    fn serve(&mut self, listener: TcpListener) {
        let target = self.target.clone();
        let connections = self.connections.clone();
        self.accept = Some(tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                let target = target.clone();
                let forward = tokio::spawn(async move {
                    let Ok(mut outbound) = tokio::net::TcpStream::connect(&target).await else {
                        return;
                    };
                    let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                });
                connections.lock().await.push(forward);
            }
        }));
    }

    /// Breaks every connection and refuses new ones.
    async fn stop(&mut self) {
        if let Some(accept) = self.accept.take() {
            accept.abort();
            let _ = accept.await;
        }
        for connection in self.connections.lock().await.drain(..) {
            connection.abort();
            let _ = connection.await;
        }
    }

    /// Listens again on the same port.
    async fn restart(&mut self) {
        let listener = TcpListener::bind(self.address).await.unwrap();
        self.serve(listener);
    }
}

/// How the database goes away.
enum Outage {
    /// Another connection holds SQLite's write lock (a backup, a stuck migration).
    SqliteLock(Option<sqlx::pool::PoolConnection<sqlx::Any>>),
    /// The network to PostgreSQL is down.
    Proxy(TcpProxy),
}

impl Outage {
    async fn begin(&mut self, storage: &Storage) {
        match self {
            Outage::SqliteLock(held) => {
                let mut connection = storage.pool().acquire().await.unwrap();
                connection.execute("BEGIN EXCLUSIVE").await.unwrap();
                *held = Some(connection);
            }
            Outage::Proxy(proxy) => proxy.stop().await,
        }
    }

    async fn end(&mut self) {
        match self {
            Outage::SqliteLock(held) => {
                let mut connection = held.take().expect("the lock is held");
                connection.execute("ROLLBACK").await.unwrap();
            }
            Outage::Proxy(proxy) => proxy.restart().await,
        }
    }
}

/// While the database is away, an answer to a waiting generator gets the friendly
/// "try again" and changes nothing; once it is back, the same answer goes through
/// without a restart.
async fn the_bot_recovers_from(tavern: Tavern, mut outage: Outage) {
    let first = tavern.start_chargen(&alice()).await;
    outage.begin(&tavern.storage).await;
    let answer = |text: &str| {
        let options = vec![Opt::subcommand("answer", vec![Opt::string("text", text)])];
        tavern.slash(&alice(), "chargen", options)
    };
    let refused = tavern.answer(answer("Udo")).await;
    assert_eq!(refused.content, database_unavailable_text(Lang::En));
    assert!(refused.is_ephemeral());
    assert_eq!(tavern.core.error_totals().database_unavailable, 1);
    assert_eq!(tavern.core.error_totals().internal, 0);

    outage.end().await;
    let accepted = answer("Udo");
    tavern.callback(accepted).await;
    let second = tavern.prompt_after(&[first.id]).await;
    assert!(answer_button(&second).is_some());
    assert_eq!(tavern.alices_session().await.unwrap().step, 1);
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn sqlite_locked_for_a_while() {
    let mut setup = Setup::default();
    // The bot's own wait for the lock; short, so the test is quick.
    setup.config.database.busy_timeout_ms = 200;
    let tavern = Tavern::start_with(setup).await;
    the_bot_recovers_from(tavern, Outage::SqliteLock(None)).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn postgres_unreachable_for_a_while() {
    let Some(setup) = Setup::default().on_postgres("outage").await else {
        return;
    };
    let (direct, schema) = setup.postgres.expect("a schema");
    direct.close().await;
    let proxy = TcpProxy::start(authority(schema.url())).await;
    let through_proxy =
        schema
            .url()
            .replacen(authority(schema.url()), &proxy.address.to_string(), 1);
    let options = StorageOptions {
        max_connections: 4,
        acquire_timeout: Duration::from_secs(1),
        ..StorageOptions::default()
    };
    let storage = Storage::open(&through_proxy, &options).await.unwrap();
    let tavern = Tavern::start_with(Setup {
        postgres: Some((storage, schema)),
        ..setup
    })
    .await;
    the_bot_recovers_from(tavern, Outage::Proxy(proxy)).await;
}

/// `host:port` of a `postgres://[user@]host:port/db` URL.
fn authority(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let rest = rest.split_once('@').map_or(rest, |(_, rest)| rest);
    rest.split(['/', '?']).next().unwrap_or(rest)
}

// ----- SIGKILL -----

/// The `tavern` binary, run as `tavern run` against the fake.
fn spawn_tavern(config: &Path, log: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_tavern"))
        .args(["run", "--log-json", "--config"])
        .arg(config)
        .env("DISCORD_TOKEN", TOKEN)
        .env("RUST_LOG", "info,serenity=warn")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(log)
                .unwrap(),
        )
        .spawn()
        .expect("tavern starts")
}

/// Waits for a READY whose session is not in `known`, and records it.
async fn wait_new_session(fake: &FakeDiscord, known: &mut Vec<String>) {
    let ready = fake
        .wait_gateway(CONNECT, |record| {
            matches!(record, GatewayRecord::Ready { session_id, .. } if !known.contains(session_id))
        })
        .await
        .expect("the process connects");
    if let GatewayRecord::Ready { session_id, .. } = ready {
        known.push(session_id);
    }
    fake.wait_ready(0, CONNECT).await.unwrap();
}

/// The message that finally answers an interaction (not a "thinking" placeholder).
async fn final_answer(fake: &FakeDiscord, interaction: u64) -> fake_discord::SentMessage {
    fake.wait_message(|message| {
        message.interaction_id == Some(interaction) && message.flags & 128 == 0
    })
    .await
    .expect("the interaction's answer")
}

/// `tavern run` is killed with SIGKILL right after acknowledging an answer to its
/// generator; a new process on the same database has every acknowledged answer and
/// continues the session.
async fn sigkill_loses_nothing_acknowledged(database_url: &str, storage: &Storage) {
    let dir = TempDir::new("sigkill");
    let fake = FakeDiscord::start(Setup::default().fake).await;
    let config = dir.path("tavern.toml");
    let metrics = free_loopback_port().await;
    std::fs::write(
        &config,
        format!(
            "[discord]\napi_base = \"{}\"\n[database]\nurl = \"{database_url}\"\n\
             [metrics]\naddress = \"{metrics}\"\n",
            fake.api_base()
        ),
    )
    .unwrap();
    let log = dir.path("tavern.log");
    let mut sessions = Vec::new();
    let mut first_process = spawn_tavern(&config, &log);
    wait_new_session(&fake, &mut sessions).await;

    let start = fake.dispatch_interaction(fake.interaction_slash(
        &alice(),
        "chargen",
        vec![Opt::subcommand("start", vec![])],
    ));
    accepted_callback(&fake, start).await;
    let prompt = |seen: Vec<u64>| {
        fake.wait_message(move |message| {
            answer_button(message).is_some() && !seen.contains(&message.id)
        })
    };
    let first = prompt(vec![]).await.expect("the first prompt");
    modal_answer(&fake, None, &alice(), &first, answer_for(&first.content)).await;
    let second = prompt(vec![first.id]).await.expect("the second prompt");
    // The submit is acknowledged once its step is stored; the kill lands while the
    // next prompt is on its way.
    modal_answer(&fake, None, &alice(), &second, answer_for(&second.content)).await;
    first_process.kill().expect("SIGKILL");
    first_process.wait().unwrap();

    let session = storage
        .session_of(ALICE as i64, GUILD as i64)
        .await
        .unwrap()
        .expect("the session survived SIGKILL");
    // The second prompt acknowledged the first answer. The second answer's own
    // callback comes after its step is stored unless the step outlasted
    // `defer_after_ms` (then it is a bare "loading" deferral); the third prompt, if it
    // went out before the kill, acknowledged it for certain.
    let third_sent = fake.messages().iter().any(|message| {
        message.origin == fake_discord::Origin::Channel
            && ![first.id, second.id].contains(&message.id)
            && answer_button(message).is_some()
    });
    assert!(
        session.step == 2 || (session.step == 1 && !third_sent),
        "step {} with the third prompt {}",
        session.step,
        if third_sent { "sent" } else { "not sent" }
    );

    let mut second_process = spawn_tavern(&config, &log);
    wait_new_session(&fake, &mut sessions).await;
    let status = fake.dispatch_interaction(fake.interaction_slash(
        &alice(),
        "chargen",
        vec![Opt::subcommand("status", vec![])],
    ));
    let shown = final_answer(&fake, status).await;
    let question = session.prompt.trim();
    assert!(
        shown.content.contains(question),
        "{question:?} in {}",
        shown.content
    );
    let before: Vec<u64> = fake.messages().iter().map(|message| message.id).collect();
    let answer = fake.dispatch_interaction(fake.interaction_slash(
        &alice(),
        "chargen",
        vec![Opt::subcommand(
            "answer",
            vec![Opt::string("text", answer_for(question))],
        )],
    ));
    accepted_callback(&fake, answer).await;
    fake.wait_message(|message| {
        !before.contains(&message.id)
            && message.origin == fake_discord::Origin::Channel
            && (answer_button(message).is_some() || message.content.contains("is ready"))
    })
    .await
    .expect("the new process continues the generator");
    let after = storage
        .session_of(ALICE as i64, GUILD as i64)
        .await
        .unwrap();
    assert!(
        after.is_none_or(|row| row.step == 3),
        "one more step stored"
    );

    // `tavern run` serves /healthz and /metrics on [metrics] address.
    let client = reqwest::Client::new();
    let health = client
        .get(format!("http://{metrics}/healthz"))
        .send()
        .await
        .expect("tavern run serves /healthz");
    assert_eq!(health.status().as_u16(), 200);
    let exposition = client
        .get(format!("http://{metrics}/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        exposition.contains("tavern_interactions_total{command=\"chargen\"} 2\n"),
        "{exposition}"
    );
    second_process.kill().unwrap();
    second_process.wait().unwrap();
    fake.assert_no_violations();

    // --log-json: every line of both runs is one JSON object.
    let log = std::fs::read_to_string(&log).unwrap();
    let mut connected = 0;
    for line in log.lines() {
        let entry: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|_| panic!("not JSON: {line}"));
        connected += usize::from(entry["fields"]["message"] == "connected to Discord");
    }
    assert_eq!(connected, 2, "one per process: {log}");
}

/// A loopback port free a moment ago, for a child process to listen on.
async fn free_loopback_port() -> std::net::SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    listener.local_addr().unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn sigkill_on_sqlite() {
    let dir = TempDir::new("sigkill-db");
    let path = dir.path("tavern.db");
    let storage = crate::support::sqlite_storage_at(&path).await;
    let url = tavern::storage::sqlite_url_for_path(&path.to_string_lossy());
    sigkill_loses_nothing_acknowledged(&url, &storage).await;
    storage.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn sigkill_on_postgres() {
    let Some((storage, schema)) = crate::support::postgres_storage("sigkill").await else {
        return;
    };
    sigkill_loses_nothing_acknowledged(schema.url(), &storage).await;
    storage.close().await;
    schema.drop_schema().await;
}
