//! Issue 25: the generator editor's check of a 500-line listing, as median and 99th
//! percentile of many runs, against the bare engine check in the same run (the
//! baseline: what `/chargen program add` itself spends in basic-runner).
//!
//! Three ways, each on the same listing (real engines, a SQLite file):
//! - `engine`: `Generators::check` called directly (the baseline);
//! - `core`: `Core::check_listing`, the shared operation: the engine worker's hop
//!   and the marks in the reader's language;
//! - `web`: the editor's "Check" through the router: the session read from the
//!   database, the admin check, the check and the page with the marked rows.
//!
//! ```text
//! cargo bench -p tavern --bench editor_check            # optimized
//! cargo bench -p tavern --bench editor_check --profile dev   # what a debug build costs
//! ```

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, header};
use tavern::config::{Config, WebConfig};
use tavern::core::limits::SystemClock;
use tavern::core::{Core, CoreSettings, Permissions, User};
use tavern::i18n::Lang;
use tavern::storage::{Storage, StorageOptions, sqlite_url_for_path};
use tavern::web::{SessionGuild, Web, WebOptions, router, start_session};
use tower::ServiceExt as _;

const GUILD: i64 = 1;
const RUNS: usize = 200;
const WARMUP: usize = 10;

/// A 500-line generator in the style of the old listings: prompts, dice, tables
/// read from DATA, subroutines; with `broken` every 25th line has a syntax error.
fn listing(broken: bool) -> String {
    let mut lines = Vec::with_capacity(500);
    lines.push("10 RANDOMIZE 1: DIM ST(6), NA$(20)".to_owned());
    lines.push("20 INPUT \"NAME\"; N$".to_owned());
    let mut number = 30;
    while lines.len() < 480 {
        let statement = match lines.len() % 8 {
            0 => format!(
                "ST({}) = INT(RND(1) * 6) + INT(RND(1) * 6) + 2",
                lines.len() % 6
            ),
            1 => "IF ST(1) > 10 THEN PRINT \"STRONG\" ELSE PRINT \"WEAK\"".to_owned(),
            2 => "FOR I = 1 TO 6: T = T + ST(I): NEXT I".to_owned(),
            3 => format!("GOSUB {}", 30 + 10 * 480),
            4 => "A$ = LEFT$(N$, 3) + MID$(STR$(T), 2) + CHR$(65 + T MOD 26)".to_owned(),
            5 => "PRINT USING \"##.##\"; T / 6".to_owned(),
            6 => "ON T MOD 3 + 1 GOSUB 4830, 4830, 4830".to_owned(),
            _ => "WHILE T > 100: T = T - 7: WEND".to_owned(),
        };
        let statement = if broken && lines.len() % 25 == 0 {
            "PRINT \"BROKEN\" +".to_owned()
        } else {
            statement
        };
        lines.push(format!("{number} {statement}"));
        number += 10;
    }
    lines.push(format!("{number} RECORD \"NAME\", N$, \"STR\", ST(1)"));
    number += 10;
    lines.push(format!("{number} END"));
    // The subroutine GOSUB names, and table data to the 500th line.
    let mut at = 30 + 10 * 480;
    while lines.len() < 500 {
        let statement = if at == 30 + 10 * 480 {
            "T = T + 1: RETURN".to_owned()
        } else {
            format!("DATA {}, \"ITEM {}\", {}", at % 97, at, at % 13)
        };
        lines.push(format!("{at} {statement}"));
        at += 10;
    }
    lines.join("\n") + "\n"
}

fn summary(name: &str, mut times: Vec<Duration>, baseline: Option<Duration>) -> Duration {
    times.sort();
    let median = times[times.len() / 2];
    let p99 = times[(times.len() * 99).div_ceil(100) - 1];
    let ratio = baseline
        .map(|base| {
            format!(
                "  ×{:.2} the engine",
                median.as_secs_f64() / base.as_secs_f64()
            )
        })
        .unwrap_or_default();
    println!(
        "{name:<28} median {:>8.2} ms   p99 {:>8.2} ms{ratio}",
        median.as_secs_f64() * 1e3,
        p99.as_secs_f64() * 1e3
    );
    median
}

fn main() -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(run())
}

async fn run() -> anyhow::Result<()> {
    let dir = std::env::temp_dir().join(format!("tavern-editor-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let storage = Storage::open(
        &sqlite_url_for_path(&dir.join("bench.db").to_string_lossy()),
        &StorageOptions::default(),
    )
    .await?;
    let config = Config::default();
    let engines = tavern::engine::real_engines(&config)?;
    let generators = engines.generators.clone();
    let clock = Arc::new(SystemClock);
    let core = Arc::new(Core::new(
        storage,
        engines,
        CoreSettings::from_config(&config),
        clock.clone(),
        Some(1),
    ));
    let options = WebOptions::new(&WebConfig::default(), "127.0.0.1:8080".parse()?, false)?;
    let web = Web::new(core.clone(), clock, options);
    let guilds = [SessionGuild {
        id: GUILD,
        name: "Bench".to_owned(),
        permissions: Permissions::MANAGE_GUILD,
    }];
    let user = User {
        id: 7,
        name: "GM".to_owned(),
    };
    let set_cookie = start_session(&web, user, &guilds, false).await?;
    let cookie = set_cookie.split(';').next().unwrap_or("").to_owned();
    let page = router(web.clone())
        .oneshot(
            Request::get("/servers")
                .header(header::COOKIE, &cookie)
                .body(Body::empty())?,
        )
        .await?;
    let page = axum::body::to_bytes(page.into_body(), 1 << 20).await?;
    let page = String::from_utf8_lossy(&page);
    let marker = "name=\"csrf\" value=\"";
    let start = page.find(marker).map(|at| at + marker.len()).unwrap_or(0);
    let csrf = page[start..].split('"').next().unwrap_or("").to_owned();

    for broken in [false, true] {
        let source = listing(broken);
        // The same listings for basic-runner's optimized `load_cost` example.
        if let Some(folder) = std::env::var_os("TAVERN_BENCH_LISTINGS") {
            let name = if broken { "broken.bas" } else { "clean.bas" };
            std::fs::write(std::path::Path::new(&folder).join(name), &source)?;
        }
        let check = generators
            .check(&source)
            .map_err(|failure| anyhow::anyhow!("{failure}"))?;
        println!(
            "\n{} lines, {} bytes, {} syntax errors",
            source.lines().count(),
            source.len(),
            check.syntax_errors.len()
        );
        let form = form_body(&csrf, &source);
        let mut engine = Vec::with_capacity(RUNS);
        let mut through_core = Vec::with_capacity(RUNS);
        let mut through_web = Vec::with_capacity(RUNS);
        // Interleaved, so that the machine's other load falls on all three alike.
        for run in 0..RUNS + WARMUP {
            let began = Instant::now();
            let checked = generators.check(&source);
            let engine_time = began.elapsed();
            std::hint::black_box(checked.is_ok());

            let began = Instant::now();
            let report = core.check_listing(Lang::En, &source, None).await;
            let core_time = began.elapsed();
            anyhow::ensure!(report.is_ok(), "the check did not finish");

            let began = Instant::now();
            let response = router(web.clone())
                .oneshot(
                    Request::post("/servers/1/programs/edit")
                        .header(header::COOKIE, &cookie)
                        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
                        .body(Body::from(form.clone()))?,
                )
                .await?;
            let status = response.status();
            let body = axum::body::to_bytes(response.into_body(), 1 << 24).await?;
            let web_time = began.elapsed();
            anyhow::ensure!(status.is_success(), "the page answered {status}");
            std::hint::black_box(body.len());
            if run >= WARMUP {
                engine.push(engine_time);
                through_core.push(core_time);
                through_web.push(web_time);
            }
        }
        let base = summary("engine check (baseline)", engine, None);
        summary("Core::check_listing", through_core, Some(base));
        summary("web editor POST check", through_web, Some(base));
    }
    std::fs::remove_dir_all(&dir)?;
    Ok(())
}

fn form_body(csrf: &str, source: &str) -> String {
    form_urlencoded::Serializer::new(String::new())
        .extend_pairs([
            ("csrf", csrf),
            ("name", "bench"),
            ("action", "check"),
            ("map", ""),
            ("source", source),
        ])
        .finish()
}
