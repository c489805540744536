//! Load generator (issue 4, "Benchmark"): `/roll` interactions through the fake Discord
//! and the real serenity path, and the memory a paused `/chargen` session holds.
//!
//! ```text
//! cargo bench -p tavern --bench load
//! ```
//!
//! The fake Discord runs in this process; the bot runs in a child process (this same
//! binary, started again with `TAVERN_LOAD_ROLE=bot`), so its memory and CPU time are
//! its own. Latency is measured from the moment the fake is handed an interaction to
//! the moment the bot's callback reaches it (`Callback::received_at`). Interactions are
//! sent open-loop at a fixed rate, from distinct users, so a slow answer cannot slow
//! the sender down and hide itself. Not a test: it asserts nothing and prints figures.
//!
//! `-- rates` leaves out the memory of paused sessions (for alternating runs of two
//! builds); `-- shard` runs the shard bench (`load/shard.rs`; `-- shard pg` its two
//! processes on PostgreSQL); `-- steady` only sends 2,000 rolls a second for 20
//! seconds (for a profiler attached to the bot process, whose id it prints).

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicIsize, Ordering};
use std::time::{Duration, Instant};

use fake_discord::{FakeConfig, FakeDiscord, Invoker, MentionPolicy, Opt};
use tavern::config::Config;
use tavern::core::limits::SystemClock;
use tavern::core::{Core, CoreSettings};
use tavern::discord::{Bot, DiscordOptions};
use tavern::storage::{Storage, StorageOptions, sqlite_url_for_path};

#[allow(dead_code)]
#[path = "../tests/doubles.rs"]
mod doubles;
#[path = "load/shard.rs"]
mod shard;
#[path = "load/statements.rs"]
mod statements;

/// Bytes currently allocated through the global allocator: the heap a process holds,
/// without the allocator's own retention that RSS also counts.
struct Counting;

static LIVE_BYTES: AtomicIsize = AtomicIsize::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator; the counter is
// only arithmetic on the sizes it is told.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE_BYTES.fetch_add(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: the caller's contract is passed on as is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE_BYTES.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        LIVE_BYTES.fetch_add(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE_BYTES.fetch_add(
            new_size as isize - layout.size() as isize,
            Ordering::Relaxed,
        );
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

const TOKEN: &str = "LOAD.TOKEN.value";
const GUILD: u64 = 3 << 22;
const CHANNEL: u64 = 9_000;
/// Seconds of open-loop load per rate.
const PHASE_SECONDS: u64 = 4;
const RATES: [u64; 5] = [500, 1_000, 2_000, 3_000, 4_000];
/// Paused sessions for the memory figure.
const SESSIONS: u64 = 5_000;

fn main() {
    if std::env::var("TAVERN_LOAD_ROLE").as_deref() == Ok("bot") {
        bot_process();
        return;
    }
    // `cargo bench` also runs benches once under `cargo test --benches`: only a real
    // `--bench` run generates load.
    if !std::env::args().any(|arg| arg == "--bench") {
        println!("load: run with `cargo bench -p tavern --bench load`");
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    // `cargo bench -p tavern --bench load -- shard`: the shard bench instead; with
    // `pg`, two processes of a shard each on one PostgreSQL.
    if std::env::args().any(|arg| arg == "shard") {
        let layout = if std::env::args().any(|arg| arg == "pg") {
            shard::Layout::TwoPostgres
        } else {
            shard::Layout::OneSqlite
        };
        runtime.block_on(shard::run(layout));
        return;
    }
    runtime.block_on(generate_load());
}

// ----- the bot's side: Tavern's own start-up path on the fake -----

fn bot_process() {
    let api_base = std::env::var("TAVERN_LOAD_API_BASE").expect("TAVERN_LOAD_API_BASE");
    let db = std::env::var("TAVERN_LOAD_DB").expect("TAVERN_LOAD_DB");
    let mut config = Config::default();
    config.discord.api_base = Some(api_base);
    // A `postgres://` URL as it is, else the path of a SQLite file.
    config.database.url = if db.starts_with("postgres://") {
        db
    } else {
        sqlite_url_for_path(&db)
    };
    // `TAVERN_LOAD_SHARD=INDEX/TOTAL`: this process runs that one shard, as a
    // `[shards]` of `start = end = INDEX` does (shard 0's process registers).
    if let Ok(shard) = std::env::var("TAVERN_LOAD_SHARD") {
        let (index, total) = shard
            .split_once('/')
            .expect("TAVERN_LOAD_SHARD=INDEX/TOTAL");
        config.shards.start = index.parse().expect("a shard index");
        config.shards.end = config.shards.start;
        config.shards.total = total.parse().expect("a shard total");
    }
    // An experiment's knob: `[runtime] worker_threads` of the bot alone.
    if let Ok(threads) = std::env::var("TAVERN_LOAD_BOT_WORKERS") {
        config.runtime.worker_threads = Some(threads.parse().expect("a thread count"));
    }
    // The runtime as `tavern run` builds it.
    let cores = std::thread::available_parallelism().map_or(1, |cores| cores.get());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(config.bot_worker_threads(cores))
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        // Logging as `tavern run` sets it up (RUST_LOG wins), since its spans cost too;
        // the shard bench also counts the database statements.
        if std::env::var_os("TAVERN_LOAD_COUNT_STATEMENTS").is_some() {
            statements::init(&config.log.filter);
        } else {
            tavern::telemetry::init(&config.log, false, false).expect("the logger");
        }
        let storage = Storage::open(&config.database.url, &StorageOptions::default())
            .await
            .expect("the database");
        // The engines of the bot's tests: the real dice engine and BASIC runner.
        let engines = doubles::engines();
        let core = Arc::new(Core::new(
            storage.clone(),
            engines,
            CoreSettings::from_config(&config),
            Arc::new(SystemClock),
            None,
        ));
        let options = DiscordOptions::from_config(&config, TOKEN);
        let bot = Bot::connect(core, options).await.expect("the bot connects");
        let running = bot.start();
        let stdin = std::io::stdin();
        for line in stdin.lock().lines() {
            let Ok(line) = line else { break };
            match line.trim() {
                "measure" => {
                    running.settled().await;
                    let stats = Stats::of_this_process();
                    println!(
                        "{} {} {} {} {} {} {} {} {}",
                        stats.heap_bytes,
                        stats.rss_bytes,
                        stats.cpu_ticks,
                        stats.open_files,
                        stats.statements,
                        stats.writes,
                        stats.threads,
                        stats.malloc_in_use,
                        stats.malloc_free
                    );
                }
                "quit" => break,
                _ => {}
            }
            let _ = std::io::stdout().flush();
        }
        running.shutdown().await;
        storage.close().await;
    });
}

#[derive(Clone, Copy)]
struct Stats {
    heap_bytes: i64,
    rss_bytes: i64,
    /// User plus system CPU time in clock ticks (1/100 s).
    cpu_ticks: i64,
    /// Open file descriptors: mostly sockets (HTTP connections, the gateway, SQLite).
    open_files: i64,
    /// Database statements executed, and those of them that write (counted only when
    /// the bot was started to count them, else 0).
    statements: i64,
    writes: i64,
    /// Threads of the process: each has a stack, and with glibc's allocator an arena
    /// that keeps what it freed.
    threads: i64,
    /// What glibc's `malloc` counts as handed out (Rust's heap with malloc's own
    /// overhead, the blocks each thread's cache holds, and C's: SQLite's page caches),
    /// and what it holds freed without giving it back, over all its arenas.
    malloc_in_use: i64,
    malloc_free: i64,
}

/// glibc's `struct mallinfo2` (glibc 2.33 and later).
#[repr(C)]
#[derive(Default)]
struct MallInfo2 {
    arena: usize,
    ordblks: usize,
    smblks: usize,
    hblks: usize,
    hblkhd: usize,
    usmblks: usize,
    fsmblks: usize,
    uordblks: usize,
    fordblks: usize,
    keepcost: usize,
}

#[allow(unsafe_code)]
unsafe extern "C" {
    fn mallinfo2() -> MallInfo2;
}

/// `(in use, free but kept)` bytes of glibc's allocator.
fn malloc_figures() -> (i64, i64) {
    // SAFETY: mallinfo2 takes nothing and returns a plain struct by value.
    #[allow(unsafe_code)]
    let info = unsafe { mallinfo2() };
    (
        (info.uordblks + info.hblkhd) as i64,
        (info.fordblks + info.fsmblks) as i64,
    )
}

impl Stats {
    /// Several processes together.
    fn total(each: &[Stats]) -> Stats {
        let sum = |field: fn(&Stats) -> i64| each.iter().map(field).sum();
        Stats {
            heap_bytes: sum(|stats| stats.heap_bytes),
            rss_bytes: sum(|stats| stats.rss_bytes),
            cpu_ticks: sum(|stats| stats.cpu_ticks),
            open_files: sum(|stats| stats.open_files),
            statements: sum(|stats| stats.statements),
            writes: sum(|stats| stats.writes),
            threads: sum(|stats| stats.threads),
            malloc_in_use: sum(|stats| stats.malloc_in_use),
            malloc_free: sum(|stats| stats.malloc_free),
        }
    }

    fn of_this_process() -> Stats {
        let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
        let rss_pages: i64 = statm
            .split_whitespace()
            .nth(1)
            .and_then(|pages| pages.parse().ok())
            .unwrap_or(0);
        let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
        // Fields after the command name, which is in parentheses: utime is the 12th
        // and stime the 13th of them.
        let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
        let fields: Vec<i64> = after_name
            .split_whitespace()
            .map(|field| field.parse().unwrap_or(0))
            .collect();
        let cpu_ticks = fields.get(11).copied().unwrap_or(0) + fields.get(12).copied().unwrap_or(0);
        let (statements, writes) = statements::counted();
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        let threads = status
            .lines()
            .find_map(|line| line.strip_prefix("Threads:"))
            .and_then(|count| count.trim().parse().ok())
            .unwrap_or(0);
        let (malloc_in_use, malloc_free) = malloc_figures();
        Stats {
            heap_bytes: LIVE_BYTES.load(Ordering::Relaxed) as i64,
            rss_bytes: rss_pages * 4096,
            cpu_ticks,
            open_files: std::fs::read_dir("/proc/self/fd").map_or(0, |dir| dir.count() as i64),
            statements,
            writes,
            threads,
            malloc_in_use,
            malloc_free,
        }
    }
}

/// The bot process, driven over its stdin and stdout.
struct BotProcess {
    child: Child,
    stdin: ChildStdin,
    stdout: std::io::BufReader<ChildStdout>,
}

impl BotProcess {
    fn spawn(api_base: &str, db: &std::path::Path) -> BotProcess {
        BotProcess::spawn_counting(api_base, db.as_os_str(), false, None)
    }

    /// `count_statements`: the bot also counts its database statements. `db` is a
    /// SQLite file's path or a `postgres://` URL; `shard` is `(index, total)` of the
    /// one shard this process runs, else it runs the only one.
    fn spawn_counting(
        api_base: &str,
        db: &std::ffi::OsStr,
        count_statements: bool,
        shard: Option<(u32, u32)>,
    ) -> BotProcess {
        let mut command = Command::new(std::env::current_exe().expect("this binary"));
        if count_statements {
            command.env("TAVERN_LOAD_COUNT_STATEMENTS", "1");
        }
        if let Some((index, total)) = shard {
            command.env("TAVERN_LOAD_SHARD", format!("{index}/{total}"));
        }
        let mut child = command
            .env("TAVERN_LOAD_ROLE", "bot")
            .env("TAVERN_LOAD_API_BASE", api_base)
            .env("TAVERN_LOAD_DB", db)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the bot process starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = std::io::BufReader::new(child.stdout.take().expect("stdout"));
        BotProcess {
            child,
            stdin,
            stdout,
        }
    }

    /// Waits until the bot is idle, then reads its heap, RSS and CPU time.
    async fn measure(&mut self) -> Stats {
        writeln!(self.stdin, "measure").expect("the bot reads");
        self.stdin.flush().expect("the bot reads");
        let mut line = String::new();
        // The bot answers within the time it takes to finish its work in flight.
        tokio::task::block_in_place(|| self.stdout.read_line(&mut line)).expect("the bot answers");
        let numbers: Vec<i64> = line
            .split_whitespace()
            .map(|n| n.parse().expect("a number"))
            .collect();
        Stats {
            heap_bytes: numbers[0],
            rss_bytes: numbers[1],
            cpu_ticks: numbers[2],
            open_files: numbers[3],
            statements: numbers[4],
            writes: numbers[5],
            threads: numbers[6],
            malloc_in_use: numbers[7],
            malloc_free: numbers[8],
        }
    }

    fn quit(mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}

// ----- the load: the fake Discord's side -----

async fn generate_load() {
    let dir = std::env::temp_dir().join(format!("tavern-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let db = dir.join("load.db");
    let fake = FakeDiscord::start(FakeConfig {
        token: Some(TOKEN.to_owned()),
        mention_policy: MentionPolicy::ForbidAll,
        wait_timeout: Duration::from_secs(60),
        ..FakeConfig::default()
    })
    .await;
    let mut bot = BotProcess::spawn(&fake.api_base(), &db);
    fake.wait_ready(0, Duration::from_secs(60))
        .await
        .expect("the bot connects");
    fake.wait_request(Duration::from_secs(60), |request| request.method == "PUT")
        .await
        .expect("the commands are registered");
    let mut next_user = 100_000;
    if std::env::args().any(|arg| arg == "steady") {
        roll_phase(&fake, &mut bot, 500, 1, &mut next_user).await;
        println!(
            "bot process {}: 2,000 rolls a second for 20 s",
            bot.child.id()
        );
        let phase = roll_phase(&fake, &mut bot, 2_000, 20, &mut next_user).await;
        phase.print_row();
        bot.quit();
        fake.shutdown().await;
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }

    println!("Tavern load generator: /roll through fake Discord and serenity 0.12.5");
    println!(
        "machine: {} cores; bot in a child process, fake Discord and this generator in the parent",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    // Warm-up: connections, caches, the JIT-free but cold code paths.
    roll_phase(&fake, &mut bot, 500, 1, &mut next_user).await;
    // Memory first, before the bursts below grow the buffers of both processes.
    if !std::env::args().any(|arg| arg == "rates") {
        session_memory(&fake, &mut bot, &db, &mut next_user).await;
    }
    println!();
    println!(
        "| offered /s | sent | answered | achieved /s | p50 ms | p90 ms | p99 ms | max ms | bot CPU µs/roll | fake+generator CPU µs/roll |"
    );
    println!("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for rate in RATES {
        let phase = roll_phase(&fake, &mut bot, rate, PHASE_SECONDS, &mut next_user).await;
        phase.print_row();
    }
    let burst = burst_phase(&fake, &mut bot, 10_000, &mut next_user).await;
    println!();
    println!(
        "burst: {} rolls handed over at once, all answered in {:.2} s: {:.0} /s (p50 {:.1} ms, p99 {:.1} ms, {} refused)",
        burst.sent,
        burst.elapsed.as_secs_f64(),
        burst.sent as f64 / burst.elapsed.as_secs_f64(),
        ms(burst.percentile(50.0)),
        ms(burst.percentile(99.0)),
        burst.sent - burst.answered,
    );

    let end = bot.measure().await;
    println!(
        "bot process after the load: live heap {:.1} MiB, RSS {:.1} MiB, {} open files",
        mib(end.heap_bytes),
        mib(end.rss_bytes),
        end.open_files
    );

    let violations = fake.violations();
    println!();
    println!("violations recorded by the fake: {}", violations.len());
    for violation in violations.iter().take(5) {
        println!("  {violation}");
    }
    bot.quit();
    fake.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

struct Phase {
    rate: u64,
    sent: u64,
    answered: u64,
    elapsed: Duration,
    latencies: Vec<Duration>,
    /// CPU time of the bot process.
    cpu_ticks: i64,
    /// CPU time of this process: the fake Discord and the generator.
    own_cpu_ticks: i64,
}

impl Phase {
    fn percentile(&self, p: f64) -> Duration {
        if self.latencies.is_empty() {
            return Duration::ZERO;
        }
        let rank = ((p / 100.0) * (self.latencies.len() - 1) as f64).round() as usize;
        self.latencies[rank.min(self.latencies.len() - 1)]
    }

    fn print_row(&self) {
        println!(
            "| {} | {} | {} | {:.0} | {:.1} | {:.1} | {:.1} | {:.1} | {:.0} | {:.0} |",
            self.rate,
            self.sent,
            self.answered,
            self.answered as f64 / self.elapsed.as_secs_f64(),
            ms(self.percentile(50.0)),
            ms(self.percentile(90.0)),
            ms(self.percentile(99.0)),
            ms(self.latencies.last().copied().unwrap_or_default()),
            self.cpu_ticks as f64 * 10_000.0 / self.sent.max(1) as f64,
            self.own_cpu_ticks as f64 * 10_000.0 / self.sent.max(1) as f64,
        );
    }
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

fn roll_payloads(fake: &FakeDiscord, count: u64, next_user: &mut u64) -> Vec<serde_json::Value> {
    (0..count)
        .map(|_| {
            *next_user += 1;
            let who = Invoker::member(*next_user, GUILD, CHANNEL);
            fake.interaction_slash(&who, "roll", vec![Opt::string("expr", "4d6+2")])
        })
        .collect()
}

/// Sends `rate` rolls a second for `seconds`, each from a new user, on a fixed
/// schedule, then waits for every callback.
async fn roll_phase(
    fake: &FakeDiscord,
    bot: &mut BotProcess,
    rate: u64,
    seconds: u64,
    next_user: &mut u64,
) -> Phase {
    let count = rate * seconds;
    let payloads = roll_payloads(fake, count, next_user);
    let before = (bot.measure().await, Stats::of_this_process());
    let (start, sent_at) = dispatch_paced(fake, payloads, rate).await;
    finish_phase(fake, bot, rate, start, sent_at, before).await
}

/// Hands the interactions to the fake on a fixed schedule of `rate` a second; returns
/// when the schedule started and when each was handed over.
async fn dispatch_paced(
    fake: &FakeDiscord,
    payloads: Vec<serde_json::Value>,
    rate: u64,
) -> (Instant, HashMap<u64, Instant>) {
    let interval = Duration::from_secs_f64(1.0 / rate as f64);
    let start = Instant::now();
    let mut sent_at = HashMap::with_capacity(payloads.len());
    for (index, payload) in payloads.into_iter().enumerate() {
        let due = start + interval.mul_f64(index as f64);
        tokio::time::sleep_until(due.into()).await;
        let sent = Instant::now();
        sent_at.insert(fake.dispatch_interaction(payload), sent);
    }
    (start, sent_at)
}

/// Hands `count` rolls to the fake at once: the throughput the pair sustains.
async fn burst_phase(
    fake: &FakeDiscord,
    bot: &mut BotProcess,
    count: u64,
    next_user: &mut u64,
) -> Phase {
    let payloads = roll_payloads(fake, count, next_user);
    let before = (bot.measure().await, Stats::of_this_process());
    let start = Instant::now();
    let mut sent_at = HashMap::with_capacity(count as usize);
    for payload in payloads {
        let sent = Instant::now();
        sent_at.insert(fake.dispatch_interaction(payload), sent);
    }
    finish_phase(fake, bot, 0, start, sent_at, before).await
}

async fn finish_phase(
    fake: &FakeDiscord,
    bot: &mut BotProcess,
    rate: u64,
    start: Instant,
    sent_at: HashMap<u64, Instant>,
    (before, own_before): (Stats, Stats),
) -> Phase {
    // Waiting starts only once everything is sent, so the waiter's re-checks do not
    // compete with the load itself.
    let last = sent_at.keys().copied().max().unwrap_or(0);
    let _ = fake.wait_callback(last).await;
    let mut callbacks = Vec::new();
    for _ in 0..50 {
        callbacks = fake
            .callbacks()
            .into_iter()
            .filter(|callback| sent_at.contains_key(&callback.interaction_id))
            .collect();
        if callbacks.len() >= sent_at.len() {
            break;
        }
        let missing = sent_at.keys().copied().find(|id| {
            !callbacks
                .iter()
                .any(|callback| callback.interaction_id == *id)
        });
        if let Some(id) = missing {
            let _ = fake.wait_callback(id).await;
        }
    }
    let after = bot.measure().await;
    let mut latencies: Vec<Duration> = callbacks
        .iter()
        .filter(|callback| callback.accepted())
        .filter_map(|callback| {
            let sent = sent_at.get(&callback.interaction_id)?;
            Some(callback.received_at.saturating_duration_since(*sent))
        })
        .collect();
    latencies.sort();
    let end = callbacks
        .iter()
        .map(|callback| callback.received_at)
        .max()
        .unwrap_or(start);
    Phase {
        rate,
        sent: sent_at.len() as u64,
        answered: latencies.len() as u64,
        elapsed: end
            .saturating_duration_since(start)
            .max(Duration::from_millis(1)),
        latencies,
        cpu_ticks: after.cpu_ticks - before.cpu_ticks,
        own_cpu_ticks: Stats::of_this_process().cpu_ticks - own_before.cpu_ticks,
    }
}

/// Memory per paused session: heap and RSS of the bot before and after `SESSIONS`
/// users start a generator and leave it waiting, against the same number of users
/// who only roll (whose rate-limit buckets every active user costs anyway); and the
/// database's growth.
async fn session_memory(
    fake: &FakeDiscord,
    bot: &mut BotProcess,
    db: &std::path::Path,
    next_user: &mut u64,
) {
    let storage = Storage::connect(
        &sqlite_url_for_path(&db.to_string_lossy()),
        &StorageOptions::default(),
    )
    .await
    .expect("the bot's database");
    let pages_before = page_bytes(&storage).await;
    let idle = bot.measure().await;

    // Users who only roll: a rate-limit bucket each.
    let rollers = roll_payloads(fake, SESSIONS, next_user);
    let (_, rolls) = dispatch_paced(fake, rollers, 1_000).await;
    wait_all(fake, rolls.keys()).await;
    let rolled = bot.measure().await;

    // Users who start a generator and leave it at its first question.
    let starters: Vec<serde_json::Value> = (0..SESSIONS)
        .map(|_| {
            *next_user += 1;
            let who = Invoker::member(*next_user, GUILD, CHANNEL);
            fake.interaction_slash(&who, "chargen", vec![Opt::subcommand("start", vec![])])
        })
        .collect();
    let (_, starts) = dispatch_paced(fake, starters, 250).await;
    wait_all(fake, starts.keys()).await;
    let paused = bot.measure().await;
    let pages_after = page_bytes(&storage).await;
    let (count, state, transcript, other): (i64, i64, i64, i64) = sqlx::query_as(
        "SELECT COUNT(*), COALESCE(SUM(LENGTH(state)), 0), COALESCE(SUM(LENGTH(transcript)), 0), \
         COALESCE(SUM(LENGTH(prompt) + LENGTH(prompt_content) + LENGTH(program) + \
         LENGTH(program_hash) + LENGTH(user_name)), 0) FROM chargen_sessions",
    )
    .fetch_one(storage.pool())
    .await
    .expect("the sessions table");
    storage.close().await;

    let n = SESSIONS as f64;
    let per = |after: i64, before: i64| (after - before) as f64 / n;
    println!();
    println!(
        "memory: {SESSIONS} users rolling once, then {SESSIONS} others starting a generator and leaving it paused"
    );
    println!(
        "| bot process | idle | +{SESSIONS} rollers | +{SESSIONS} paused sessions | per roller | per paused session |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    type Measure = fn(&Stats) -> i64;
    let rows: [(&str, Measure); 2] = [
        ("live heap", |stats| stats.heap_bytes),
        ("RSS", |stats| stats.rss_bytes),
    ];
    for (name, measure) in rows {
        println!(
            "| {name} | {:.1} MiB | {:.1} MiB | {:.1} MiB | {:.0} B | {:.0} B |",
            mib(measure(&idle)),
            mib(measure(&rolled)),
            mib(measure(&paused)),
            per(measure(&rolled), measure(&idle)),
            per(measure(&paused), measure(&rolled)),
        );
    }
    println!(
        "database: {count} paused sessions; per session {:.0} B of state, {:.0} B of transcript, {:.0} B of other text; the file grew {:.0} B per session",
        state as f64 / count.max(1) as f64,
        transcript as f64 / count.max(1) as f64,
        other as f64 / count.max(1) as f64,
        (pages_after - pages_before) as f64 / n,
    );
}

async fn wait_all(fake: &FakeDiscord, ids: impl Iterator<Item = &u64>) {
    for id in ids {
        let callback = fake.wait_callback(*id).await.expect("an answer");
        assert!(callback.accepted(), "refused: {callback:?}");
    }
}

async fn page_bytes(storage: &Storage) -> i64 {
    let (pages,): (i64,) = sqlx::query_as("PRAGMA page_count")
        .fetch_one(storage.pool())
        .await
        .expect("page_count");
    let (size,): (i64,) = sqlx::query_as("PRAGMA page_size")
        .fetch_one(storage.pool())
        .await
        .expect("page_size");
    pages * size
}

fn mib(bytes: i64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}
