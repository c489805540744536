//! How many database statements each kind of interaction runs (issue 28), counted
//! from sqlx's own statement log as the shard bench counts them
//! (`benches/load/statements.rs`), so that a change that adds a read to a turn shows.
//!
//! The counter is a process-wide `tracing` subscriber: SQLite runs each connection's
//! statements on a thread of its own, where a scoped subscriber would see nothing. So
//! that no other test's statements are counted, the test re-runs this test binary as a
//! child process running this one test alone, and the child does the counting.

use std::process::Command;
use std::sync::Mutex;

use tavern::core::{Permissions, RequestKind};
use tavern::storage::{Storage, StorageOptions};
use tracing::field::{Field, Visit};
use tracing_subscriber::filter::Targets;
use tracing_subscriber::layer::{Context, Layer, SubscriberExt};
use tracing_subscriber::util::SubscriberInitExt;

use crate::harness::{ALICE, Sent, command, text};
use crate::npc::{Table, reply_to, talk};
use crate::support;

/// Statements each kind of interaction runs once the caches are warm, as a transport
/// drives it (the tracked message's id stored after it is posted included):
/// `(interaction, reads, writes)`. A write is a statement whose first word is INSERT,
/// UPDATE, DELETE or REPLACE; a transaction's BEGIN and COMMIT are not in the log.
const EXPECTED: &[(&str, usize, usize)] = &[
    ("/roll 4d6+2", 0, 0),
    ("/roll $atk (a server macro)", 1, 0),
    // Was 2 reads: the server's installed program of the shipped name looked up (a
    // miss; a server's program cannot take a shipped name).
    ("generator answer (a reply)", 1, 2),
    // Was 7 reads: that miss, and the `programs` row read again for its record map.
    ("generator's last answer (the character stored)", 5, 2),
    // Was 2 reads: the server's effect file apart from the encounter.
    ("/init next", 1, 1),
    // Was 15 reads (2026-12-06): the script read apart from its conversation, the
    // world's five tables read apart twice, the kept keywords read twice. Then 5: the
    // generator's prompt lookup (a miss) ran first; the reply now goes first to the
    // module that posted the message (`reply_routes`).
    ("NPC turn (a reply naming a topic)", 4, 4),
];

/// The NPC of the shard bench: a greeting, one topic, a farewell.
const INNKEEPER: &str = "```ghul
CONV c_inn {
  NATIVE {
    HAIL r_hail
    NEWS r_news
    BYE  r_bye
  }
}
RESP r_hail { SAY \"Welcome, traveller.\" }
RESP r_news { SAY \"The road north is clear again.\" }
RESP r_bye  { SAY \"Safe travels.\" }
```";

/// Every statement logged since the last [`take`], whitespace folded.
static LOG: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// A statement the test runs itself, left out of the counts.
const MARKER: &str = "SELECT 'statements test marker'";

/// The statements logged since the last call. sqlx logs a statement on the thread of
/// its SQLite connection, possibly after its caller has the rows; on the test's one
/// connection, a marker run first has every earlier statement logged before it.
async fn take(storage: &Storage) -> Vec<String> {
    sqlx::query(MARKER)
        .execute(storage.pool())
        .await
        .expect("the marker");
    let logged = std::mem::take(&mut *LOG.lock().unwrap());
    logged
        .into_iter()
        .filter(|statement| !statement.contains(MARKER.trim_start_matches("SELECT ")))
        .collect()
}

struct Recorder;

impl<S: tracing::Subscriber> Layer<S> for Recorder {
    fn on_event(&self, event: &tracing::Event<'_>, _: Context<'_, S>) {
        let mut statement = Statement::default();
        event.record(&mut statement);
        let text = if statement.sql.trim().is_empty() {
            statement.summary
        } else {
            statement.sql
        };
        let folded = text.split_whitespace().collect::<Vec<_>>().join(" ");
        LOG.lock().unwrap().push(folded);
    }
}

/// sqlx's `summary` (the statement's first words) and `db.statement` (all of it,
/// when longer than the summary).
#[derive(Default)]
struct Statement {
    summary: String,
    sql: String,
}

impl Visit for Statement {
    fn record_str(&mut self, field: &Field, value: &str) {
        match field.name() {
            "summary" => self.summary = value.to_owned(),
            "db.statement" => self.sql = value.to_owned(),
            _ => {}
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.record_str(field, format!("{value:?}").trim_matches('"'));
    }
}

fn is_write(statement: &str) -> bool {
    let verb = statement.split_whitespace().next().unwrap_or("");
    ["insert", "update", "delete", "replace"]
        .iter()
        .any(|write| verb.eq_ignore_ascii_case(write))
}

/// The interactions in the order of [`EXPECTED`], each with the statements it ran.
struct Measured(Vec<(String, Vec<String>)>);

impl Measured {
    /// Sends `kind` as Alice with `permissions` and records what it ran.
    async fn send(
        &mut self,
        table: &mut Table,
        name: &str,
        permissions: u64,
        kind: RequestKind,
    ) -> Sent {
        take(table.storage()).await;
        let sent = table.member(ALICE, permissions, &[], kind).await;
        let statements = take(table.storage()).await;
        self.0.push((name.to_owned(), statements));
        sent
    }
}

/// Set in the child process: it installs the process-wide counter and counts.
const CHILD: &str = "TAVERN_STATEMENTS_CHILD";

#[test]
fn each_interaction_runs_the_statements_it_needs() {
    if std::env::var_os(CHILD).is_some() {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime")
            .block_on(count_each_interaction());
        return;
    }
    // The child runs only this test, on one thread: every statement of its process is
    // one this test caused. (libtest names a test by its path without the crate's name.)
    let (_, module) = module_path!().split_once("::").expect("a module path");
    let this_test = format!("{module}::each_interaction_runs_the_statements_it_needs");
    let output = Command::new(std::env::current_exe().expect("this test binary"))
        .args(["--exact", &this_test, "--nocapture", "--test-threads", "1"])
        .env(CHILD, "1")
        .output()
        .expect("the child test process");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the counting child failed ({}):\n{stdout}\n{stderr}",
        output.status
    );
    // A filter that matched nothing would pass without counting anything.
    assert!(
        stdout.contains("1 passed"),
        "the child ran no test:\n{stdout}\n{stderr}"
    );
    // The child's report, shown with --nocapture.
    print!("{stdout}");
}

/// The count itself, in the child process.
async fn count_each_interaction() {
    tracing_subscriber::registry()
        .with(
            Recorder.with_filter(Targets::new().with_target("sqlx::query", tracing::Level::TRACE)),
        )
        .init();
    // One connection: its statements are logged in the order they ran.
    let dir = support::TempDir::new("statements");
    let options = StorageOptions {
        max_connections: 1,
        ..StorageOptions::default()
    };
    let storage = support::sqlite_storage_with(&dir.path("tavern.db"), &options).await;
    let mut table = Table::on(storage, crate::npc::settings(), 7);
    let admin = Permissions::MANAGE_GUILD;
    let mut measured = Measured(Vec::new());
    // The server's language is read once and cached; warm it as a busy server has.
    table.member(ALICE, 0, &[], roll("1d20")).await;
    let set = command(
        "macro",
        &["set"],
        &[
            ("name", text("atk")),
            ("expr", text("1d20+5")),
            ("scope", text("server")),
        ],
    );
    table.member(ALICE, admin, &[], set).await;
    table.member(ALICE, admin, &[], init(&["begin"], &[])).await;
    for name in ["Orc", "Goblin"] {
        let add = init(&["add"], &[("name", name), ("init", "10"), ("hp", "10")]);
        table.member(ALICE, admin, &[], add).await;
    }
    let install = command(
        "npc",
        &["install"],
        &[("name", text("inn")), ("code", text(INNKEEPER))],
    );
    table.member(ALICE, admin, &[], install).await;

    measured
        .send(&mut table, EXPECTED[0].0, 0, roll("4d6+2"))
        .await;
    measured
        .send(&mut table, EXPECTED[1].0, 0, roll("$atk"))
        .await;
    let started = table
        .alice(command("chargen", &["start"], &[]))
        .await
        .prompt_message
        .expect("the generator's first question");
    let asked = measured
        .send(&mut table, EXPECTED[2].0, 0, reply_to(started, "Ana"))
        .await
        .prompt_message
        .expect("the generator's second question");
    let asked = table
        .alice(reply_to(asked, "1"))
        .await
        .prompt_message
        .expect("the generator's last question");
    measured
        .send(&mut table, EXPECTED[3].0, 0, reply_to(asked, "F"))
        .await;
    measured
        .send(&mut table, EXPECTED[4].0, admin, init(&["next"], &[]))
        .await;
    let greeted = table
        .alice(talk("inn"))
        .await
        .prompt_message
        .expect("the innkeeper's greeting");
    // A second turn: the keyword buttons have something to show by now.
    let answered = table
        .alice(reply_to(greeted, "news"))
        .await
        .prompt_message
        .expect("the innkeeper's answer");
    measured
        .send(&mut table, EXPECTED[5].0, 0, reply_to(answered, "news"))
        .await;

    let mut report = String::new();
    let mut wrong = false;
    for ((name, statements), (expected_name, reads, writes)) in measured.0.iter().zip(EXPECTED) {
        assert_eq!(name, expected_name);
        let measured_writes = statements.iter().filter(|s| is_write(s)).count();
        let measured_reads = statements.len() - measured_writes;
        let same = (measured_reads, measured_writes) == (*reads, *writes);
        wrong |= !same;
        report.push_str(&format!(
            "{name}: {measured_reads} reads, {measured_writes} writes (expected {reads} and {writes})\n"
        ));
        for statement in statements {
            report.push_str(&format!("    {statement}\n"));
        }
    }
    println!("{report}");
    assert!(!wrong, "statements per interaction changed:\n{report}");
}

fn roll(expression: &str) -> RequestKind {
    command("roll", &[], &[("expr", text(expression))])
}

fn init(sub: &[&str], options: &[(&str, &str)]) -> RequestKind {
    let options: Vec<_> = options
        .iter()
        .map(|(name, value)| (*name, text(value)))
        .collect();
    command("init", sub, &options)
}
