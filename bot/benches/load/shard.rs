//! The shard bench (issue 28): one shard presented with 2,500 servers, as Discord gives
//! one shard at most, then a mixed load across the servers.
//!
//! ```text
//! cargo bench -p tavern --bench load -- shard
//! TAVERN_TEST_POSTGRES=postgres://… cargo bench -p tavern --bench load -- shard pg
//! ```
//!
//! With `pg`, the same 2,500 servers are split over two shards, as Discord routes
//! them (`(guild_id >> 22) % 2`), and two bot processes run one shard each on one
//! PostgreSQL (a schema of the bench's own, dropped at the end); their CPU,
//! statements and memory are added up, and each process's memory is shown too.
//!
//! The fake lists every server as unavailable in READY and then sends each server's
//! GUILD_CREATE (channels, roles, the bot's own member: `GuildShape::typical`), which a
//! session receives only with the `GUILDS` intent. Measured: the bot's memory after
//! start against the same start with no server, the time to READY, to the command
//! registration and to the first answer; the bot CPU and the database statements (all,
//! and those that write) of each kind of interaction on its own (a `/roll`, a roll of a
//! server macro, a generator answer given as a reply, the last one that stores the
//! character, an NPC turn answered by a reply, an `/init next`), then of the mix; and
//! the database size per active server. Not a test: it asserts nothing and prints
//! figures.

use fake_discord::{GuildShape, SentMessage, permissions};
use tavern::core::chargen::ChargenId;
use tavern::core::npc::NpcId;

use super::*;

/// Servers on the one shard: Discord's most per shard.
const SERVERS: u64 = 2_500;
/// Servers that play during the bench (a tenth).
const ACTIVE: u64 = 250;
/// Generator players per active server, each in a channel of their own.
const PLAYERS: u64 = 2;
/// Interactions a second while the mix runs.
const MIX_RATE: u64 = 400;

/// The NPC every active server installs: a greeting, one topic, a farewell. A player's
/// turn is a reply naming the topic to the NPC's newest message.
const INNKEEPER: &str = r#"
CONV c_inn {
  NATIVE {
    HAIL r_hail
    NEWS r_news
    BYE  r_bye
  }
}
RESP r_hail { SAY "Welcome, traveller." }
RESP r_news { SAY "The road north is clear again." }
RESP r_bye  { SAY "Safe travels." }
"#;

fn guild_id(index: u64) -> u64 {
    (index + 1_000) << 22
}

fn shape(index: u64) -> GuildShape {
    GuildShape::typical(guild_id(index))
}

/// The server's GM (who began its encounter) and its admin (who set its macro).
fn gm(index: u64) -> Invoker {
    let shape = shape(index);
    Invoker::member(10_000_000 + index, shape.id, shape.first_text_channel())
        .with_permissions(permissions::MEMBER | permissions::MANAGE_GUILD)
}

fn player(index: u64, player: u64) -> Invoker {
    let shape = shape(index);
    Invoker::member(
        20_000_000 + index * PLAYERS + player,
        shape.id,
        shape.first_text_channel() + 1 + player,
    )
}

/// How the bench runs the bot: where its data lives and how the servers are split.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Layout {
    /// One process runs the one shard on a SQLite file (`-- shard`).
    OneSqlite,
    /// Two processes run one shard each of two, on one PostgreSQL (`-- shard pg`,
    /// with `TAVERN_TEST_POSTGRES` naming the server): the servers split as Discord
    /// routes them, `(guild_id >> 22) % 2`.
    TwoPostgres,
}

impl Layout {
    fn shards(self) -> u32 {
        match self {
            Layout::OneSqlite => 1,
            Layout::TwoPostgres => 2,
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Layout::OneSqlite => "one process running the one shard, on SQLite",
            Layout::TwoPostgres => "two processes running one shard each of two, on one PostgreSQL",
        }
    }
}

/// Where the bots keep their data: a SQLite file, or a PostgreSQL schema of the
/// bench's own (dropped at the end).
enum Database {
    Sqlite(std::path::PathBuf),
    Postgres {
        base_url: String,
        schema: String,
        /// The base URL with the schema as its search path.
        url: String,
    },
}

impl Database {
    async fn create(layout: Layout, dir: &std::path::Path, name: &str) -> Database {
        if layout == Layout::OneSqlite {
            return Database::Sqlite(dir.join("shard.db"));
        }
        let base_url = std::env::var("TAVERN_TEST_POSTGRES")
            .expect("`-- shard pg` needs TAVERN_TEST_POSTGRES (a postgres:// URL)");
        let schema = format!("tavern_shard_bench_{}_{name}", std::process::id());
        sqlx::any::install_default_drivers();
        let pool = sqlx::AnyPool::connect(&base_url)
            .await
            .expect("the PostgreSQL of TAVERN_TEST_POSTGRES");
        for statement in [
            format!("DROP SCHEMA IF EXISTS {schema} CASCADE"),
            format!("CREATE SCHEMA {schema}"),
        ] {
            sqlx::query(&statement)
                .execute(&pool)
                .await
                .expect("a schema of the bench's own");
        }
        pool.close().await;
        let separator = if base_url.contains('?') { '&' } else { '?' };
        let url = format!("{base_url}{separator}options=-c%20search_path%3D{schema}");
        Database::Postgres {
            base_url,
            schema,
            url,
        }
    }

    /// What a bot process is given: the SQLite file's path or the URL.
    fn for_bot(&self) -> std::ffi::OsString {
        match self {
            Database::Sqlite(path) => path.clone().into_os_string(),
            Database::Postgres { url, .. } => url.into(),
        }
    }

    /// A pool of the bench's own on the bots' database, migrated (so the bots start
    /// on a migrated database and do not race to migrate it).
    async fn open(&self) -> Storage {
        let url = match self {
            Database::Sqlite(path) => sqlite_url_for_path(&path.to_string_lossy()),
            Database::Postgres { url, .. } => url.clone(),
        };
        let options = StorageOptions {
            max_connections: 2,
            ..StorageOptions::default()
        };
        Storage::open(&url, &options)
            .await
            .expect("the bot's database")
    }

    /// The bytes the database takes: SQLite's pages, or PostgreSQL's tables with
    /// their indexes and TOAST in the bench's schema.
    async fn bytes(&self, storage: &Storage) -> i64 {
        match self {
            Database::Sqlite(_) => page_bytes(storage).await,
            Database::Postgres { .. } => {
                let (bytes,): (i64,) = sqlx::query_as(
                    "SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0)::BIGINT \
                     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
                     WHERE n.nspname = current_schema() AND c.relkind = 'r'",
                )
                .fetch_one(storage.pool())
                .await
                .expect("the schema's size");
                bytes
            }
        }
    }

    async fn drop(self) {
        let Database::Postgres {
            base_url, schema, ..
        } = self
        else {
            return;
        };
        if let Ok(pool) = sqlx::AnyPool::connect(&base_url).await {
            let drop = format!("DROP SCHEMA IF EXISTS {schema} CASCADE");
            let _ = sqlx::query(&drop).execute(&pool).await;
            pool.close().await;
        }
    }
}

/// The bots started on a fake that presents `servers` servers.
struct Started {
    fake: FakeDiscord,
    /// One process per shard, in shard order.
    bots: Vec<BotProcess>,
    dir: std::path::PathBuf,
    db: Database,
    /// The bench's own pool on the bots' database.
    storage: Storage,
    /// Each shard's READY after the processes started.
    to_ready: Vec<Duration>,
    to_registered: Duration,
    to_answer: Duration,
    /// Each process after start.
    after_start: Vec<Stats>,
    guilds_intent: bool,
}

async fn start(layout: Layout, servers: u64, name: &str) -> Started {
    let dir = std::env::temp_dir().join(format!("tavern-shard-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let db = Database::create(layout, &dir, name).await;
    let storage = db.open().await;
    let shards = layout.shards();
    let fake = FakeDiscord::start(FakeConfig {
        token: Some(TOKEN.to_owned()),
        mention_policy: MentionPolicy::ForbidAll,
        wait_timeout: Duration::from_secs(120),
        shard_count: shards,
        guilds: (0..servers).map(guild_id).collect(),
        ..FakeConfig::default()
    })
    .await;
    let started = Instant::now();
    let bots: Vec<BotProcess> = (0..shards)
        .map(|shard| {
            let split = (shards > 1).then_some((shard, shards));
            BotProcess::spawn_counting(&fake.api_base(), &db.for_bot(), true, split)
        })
        .collect();
    let mut to_ready = Vec::new();
    for shard in 0..shards {
        fake.wait_ready(shard, Duration::from_secs(120))
            .await
            .expect("the bot connects");
        to_ready.push(started.elapsed());
    }
    // Discord sends each server of READY once the shard is up.
    for index in 0..servers {
        fake.dispatch_guild_create(&shape(index));
    }
    fake.wait_request(Duration::from_secs(120), |request| request.method == "PUT")
        .await
        .expect("the commands are registered");
    let to_registered = started.elapsed();
    // A roll sent after every GUILD_CREATE is answered once the shard has read them
    // all: one to the last server of each shard.
    let lasts = (0..servers).rev().take(shards as usize);
    let ids: Vec<u64> = lasts
        .map(|last| {
            let who = Invoker::member(1, guild_id(last), shape(last).first_text_channel());
            let roll = fake.interaction_slash(&who, "roll", vec![Opt::string("expr", "1d20")]);
            fake.dispatch_interaction(roll)
        })
        .collect();
    for id in ids {
        fake.wait_callback(id).await.expect("the first answer");
    }
    let to_answer = started.elapsed();
    let mut started = Started {
        fake,
        bots,
        dir,
        db,
        storage,
        to_ready,
        to_registered,
        to_answer,
        after_start: Vec::new(),
        guilds_intent: false,
    };
    started.after_start = started.measure_each().await;
    started.guilds_intent = started.fake.gateway_log().iter().any(|record| {
        matches!(record, fake_discord::GatewayRecord::Identify { intents, .. } if *intents & 1 != 0)
    });
    started
}

impl Started {
    /// Each process, once idle.
    async fn measure_each(&mut self) -> Vec<Stats> {
        let mut each = Vec::new();
        for bot in &mut self.bots {
            each.push(bot.measure().await);
        }
        each
    }

    /// All processes together, once idle.
    async fn measure(&mut self) -> Stats {
        Stats::total(&self.measure_each().await)
    }

    async fn stop(self) {
        for bot in self.bots {
            bot.quit();
        }
        self.storage.close().await;
        self.fake.shutdown().await;
        self.db.drop().await;
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub(super) async fn run(layout: Layout) {
    println!(
        "Tavern shard bench: {SERVERS} servers, {ACTIVE} of them playing; {}",
        layout.describe()
    );
    println!(
        "machine: {} cores; bots in child processes, fake Discord and this generator in the parent",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    let empty = start(layout, 0, "empty").await;
    let (empty_stats, empty_ready) = (empty.after_start.clone(), empty.to_ready.clone());
    empty.stop().await;

    let mut full = start(layout, SERVERS, "full").await;
    println!();
    println!(
        "GUILD_CREATE: {SERVERS} sent; the bot asked for the GUILDS intent: {} (without it Discord, and the fake, deliver none)",
        full.guilds_intent
    );
    let shown = |times: &[Duration]| {
        times
            .iter()
            .map(|time| format!("{:.0}", ms(*time)))
            .collect::<Vec<_>>()
            .join(" and ")
    };
    println!(
        "start-up: READY after {} ms (no servers: {} ms), commands registered after {:.0} ms, first answer after {:.0} ms",
        shown(&full.to_ready),
        shown(&empty_ready),
        ms(full.to_registered),
        ms(full.to_answer),
    );
    print_after_start(&empty_stats, &full.after_start);

    let fresh = full.db.bytes(&full.storage).await;
    setup(&full).await;
    let set_up = full.db.bytes(&full.storage).await;

    println!();
    println!(
        "| each kind alone | interactions | bot CPU µs each | fake+generator CPU µs each | statements each | of them writes |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    let mut next_user = 30_000_000;
    let rolls = (0..ACTIVE * 4)
        .map(|n| {
            next_user += 1;
            let shape = shape(n % ACTIVE);
            let who = Invoker::member(next_user, shape.id, shape.first_text_channel());
            full.fake
                .interaction_slash(&who, "roll", vec![Opt::string("expr", "4d6+2")])
        })
        .collect();
    kind_phase(&mut full, "/roll 4d6+2", Batch::interactions(rolls)).await;
    let macros = (0..ACTIVE * 4)
        .map(|n| {
            next_user += 1;
            let shape = shape(n % ACTIVE);
            let who = Invoker::member(next_user, shape.id, shape.first_text_channel());
            full.fake
                .interaction_slash(&who, "roll", vec![Opt::string("expr", "$atk")])
        })
        .collect();
    kind_phase(
        &mut full,
        "/roll of a server macro",
        Batch::interactions(macros),
    )
    .await;
    let answers = chargen_answers(&full.fake);
    kind_phase(&mut full, "generator answer (a reply)", answers).await;
    let nexts = init_nexts(&full.fake);
    kind_phase(&mut full, "/init next", nexts).await;
    let answers = chargen_answers(&full.fake);
    kind_phase(
        &mut full,
        "generator's last answer (the character stored)",
        answers,
    )
    .await;
    npc_setup(&mut full).await;
    let turns = npc_turns(&full.fake);
    kind_phase(&mut full, "NPC turn (a reply)", turns).await;
    // Each player starts another generator, so the mix has answers to give.
    chargen_starts(&full.fake).await;

    // The mix: a server's rolls and macro rolls, its players' generator answers and NPC
    // turns, its GM's turns.
    let mut mix = Batch::default();
    for n in 0..ACTIVE * 6 {
        next_user += 1;
        let shape = shape(n % ACTIVE);
        let who = Invoker::member(next_user, shape.id, shape.first_text_channel());
        let expr = if n % 3 == 0 { "$atk" } else { "4d6+2" };
        mix.interactions.push(full.fake.interaction_slash(
            &who,
            "roll",
            vec![Opt::string("expr", expr)],
        ));
    }
    let answers = chargen_answers(&full.fake);
    let turns = npc_turns(&full.fake);
    let nexts = init_nexts(&full.fake);
    mix.merge(answers);
    mix.merge(turns);
    mix.merge(nexts);
    kind_phase(&mut full, "the mix", mix).await;
    let after_mix = full.db.bytes(&full.storage).await;
    let (characters,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM characters")
        .fetch_one(full.storage.pool())
        .await
        .unwrap_or((0,));

    let ends = full.measure_each().await;
    println!();
    println!(
        "database: fresh {:.0} KiB; after the setup of {ACTIVE} servers (a server macro, an encounter of 3, {} generators at their first answer) {:.0} KiB; after all phases (an NPC, its conversations, a second generator each) {:.0} KiB ({characters} characters): {:.0} B per active server",
        fresh as f64 / 1024.0,
        ACTIVE * PLAYERS,
        set_up as f64 / 1024.0,
        after_mix as f64 / 1024.0,
        (after_mix - fresh) as f64 / ACTIVE as f64,
    );
    print_ends("at the end", &ends);
    // The bot gives the memory a burst freed back once no event has come for a second
    // (`memory.rs`): what a resting shard holds, read after that rest.
    tokio::time::sleep(Duration::from_secs(2)).await;
    print_ends("at rest 2 s later", &full.measure_each().await);
    let violations = full.fake.violations();
    println!("violations recorded by the fake: {}", violations.len());
    for violation in violations.iter().take(5) {
        println!("  {violation}");
    }
    full.stop().await;
}

/// Each bot process's memory and the total, per server of its shard.
fn print_ends(when: &str, ends: &[Stats]) {
    for (shard, each) in ends.iter().enumerate() {
        println!(
            "bot process of shard {shard} {when}: live heap {:.1} MiB, RSS {:.1} MiB ({:.0} B per server of its shard), {} open files, {} threads; malloc: {:.1} MiB in use (Rust's heap with malloc's overhead and the threads' caches, and C's), {:.1} MiB freed and kept",
            mib(each.heap_bytes),
            mib(each.rss_bytes),
            each.rss_bytes as f64 * ends.len() as f64 / SERVERS as f64,
            each.open_files,
            each.threads,
            mib(each.malloc_in_use),
            mib(each.malloc_free)
        );
    }
    if ends.len() > 1 {
        let end = Stats::total(ends);
        println!(
            "all bot processes {when}: live heap {:.1} MiB, RSS {:.1} MiB ({:.0} B per server)",
            mib(end.heap_bytes),
            mib(end.rss_bytes),
            end.rss_bytes as f64 / SERVERS as f64,
        );
    }
}

/// What each active server needs before it plays: a server macro, an encounter with
/// two combatants, and its players' generators waiting at their first question.
async fn setup(started: &Started) {
    let fake = &started.fake;
    let mut ids = Vec::new();
    for index in 0..ACTIVE {
        let admin = gm(index);
        let set = vec![
            Opt::string("name", "atk"),
            Opt::string("expr", "1d20+5"),
            Opt::string("scope", "server"),
        ];
        ids.push(fake.dispatch_interaction(fake.interaction_slash(
            &admin,
            "macro",
            vec![Opt::subcommand("set", set)],
        )));
    }
    wait_answered(fake, &ids).await;
    ids.clear();
    for index in 0..ACTIVE {
        let begin =
            fake.interaction_slash(&gm(index), "init", vec![Opt::subcommand("begin", vec![])]);
        ids.push(fake.dispatch_interaction(begin));
    }
    wait_answered(fake, &ids).await;
    ids.clear();
    for name in ["Orc", "Goblin"] {
        for index in 0..ACTIVE {
            let add = vec![
                Opt::string("name", name),
                Opt::string("init", "10"),
                Opt::string("hp", "10"),
            ];
            let add = fake.interaction_slash(&gm(index), "init", vec![Opt::subcommand("add", add)]);
            ids.push(fake.dispatch_interaction(add));
        }
        wait_answered(fake, &ids).await;
        ids.clear();
    }
    chargen_starts(fake).await;
    let batch = chargen_answers(fake);
    let (_, sent) = dispatch_batch(fake, batch.clone(), 200).await;
    wait_batch(fake, &batch, &sent).await;
}

/// Every player starts a generator; returns once each has its first question.
async fn chargen_starts(fake: &FakeDiscord) {
    let mut ids = Vec::new();
    let after = fake
        .messages()
        .iter()
        .map(|message| message.id)
        .max()
        .unwrap_or(0);
    for index in 0..ACTIVE {
        for seat in 0..PLAYERS {
            let start = fake.interaction_slash(
                &player(index, seat),
                "chargen",
                vec![Opt::subcommand("start", vec![])],
            );
            ids.push(fake.dispatch_interaction(start));
        }
    }
    wait_answered(fake, &ids).await;
    for index in 0..ACTIVE {
        for seat in 0..PLAYERS {
            let channel = player(index, seat).channel_id;
            fake.wait_message(|message| {
                message.id > after
                    && message.channel_id == channel
                    && newest_with(std::slice::from_ref(message), channel, is_chargen_prompt)
                        .is_some()
            })
            .await
            .expect("a generator's first question");
        }
    }
}

/// Each active server's GM installs the innkeeper, and each player (who has a character
/// by now) starts talking to it; returns once the bot is idle, and prints how many
/// conversations are open. Sent at a pace: 250 installs at once, each a write
/// transaction, found SQLite's lock busy beyond its timeout on the loaded machine.
async fn npc_setup(started: &mut Started) {
    let code = format!("```ghul\n{}\n```", INNKEEPER.trim());
    let mut installs = Batch::default();
    for index in 0..ACTIVE {
        let install = vec![Opt::string("name", "inn"), Opt::string("code", &code)];
        installs.interactions.push(started.fake.interaction_slash(
            &gm(index),
            "npc",
            vec![Opt::subcommand("install", install)],
        ));
    }
    let (_, sent) = dispatch_batch(&started.fake, installs.clone(), 100).await;
    wait_batch(&started.fake, &installs, &sent).await;
    let mut talks = Batch::default();
    for index in 0..ACTIVE {
        for seat in 0..PLAYERS {
            talks.interactions.push(started.fake.interaction_slash(
                &player(index, seat),
                "talk",
                vec![Opt::string("npc", "inn")],
            ));
        }
    }
    let (_, sent) = dispatch_batch(&started.fake, talks.clone(), 100).await;
    wait_batch(&started.fake, &talks, &sent).await;
    // A conversation's greeting is posted before its `/talk` is done.
    started.measure().await;
    let open = npc_turns(&started.fake).replies.len();
    println!("NPC conversations open: {open} of {}", ACTIVE * PLAYERS);
}

/// Each player's reply naming the innkeeper's topic to its newest message.
fn npc_turns(fake: &FakeDiscord) -> Batch {
    replies_to_newest(fake, |id| NpcId::decode(id).is_some(), |_| "news")
}

/// Interactions and replies to send in one phase, and the channels whose next bot
/// message ends a reply's work.
#[derive(Default, Clone)]
struct Batch {
    interactions: Vec<serde_json::Value>,
    replies: Vec<(serde_json::Value, u64)>,
}

impl Batch {
    fn interactions(interactions: Vec<serde_json::Value>) -> Batch {
        Batch {
            interactions,
            ..Batch::default()
        }
    }

    fn merge(&mut self, other: Batch) {
        self.interactions.extend(other.interactions);
        self.replies.extend(other.replies);
    }

    fn len(&self) -> u64 {
        (self.interactions.len() + self.replies.len()) as u64
    }
}

/// Each player's reply to the newest question of their generator.
fn chargen_answers(fake: &FakeDiscord) -> Batch {
    replies_to_newest(fake, is_chargen_prompt, |prompt| {
        answer_for(&prompt.content)
    })
}

fn is_chargen_prompt(custom_id: &str) -> bool {
    matches!(ChargenId::decode(custom_id), Some(ChargenId::Answer { .. }))
}

/// Each player's reply (`text` of the message replied to) to the newest message in
/// their channel that carries a component `is_prompt` takes.
fn replies_to_newest(
    fake: &FakeDiscord,
    is_prompt: fn(&str) -> bool,
    text: fn(&SentMessage) -> &'static str,
) -> Batch {
    let messages = fake.messages();
    let mut batch = Batch::default();
    for index in 0..ACTIVE {
        for seat in 0..PLAYERS {
            let who = player(index, seat);
            let Some(prompt) = newest_with(&messages, who.channel_id, is_prompt) else {
                continue;
            };
            let reply = fake.message_create_reply(&who, text(prompt), prompt, true);
            batch.replies.push((reply, who.channel_id));
        }
    }
    batch
}

/// The newest message in `channel_id` with a component whose custom id `is_prompt` takes.
fn newest_with(
    messages: &[SentMessage],
    channel_id: u64,
    is_prompt: fn(&str) -> bool,
) -> Option<&SentMessage> {
    messages
        .iter()
        .filter(|message| message.channel_id == channel_id && !message.deleted)
        .filter(|message| message.custom_ids().iter().any(|id| is_prompt(id)))
        .max_by_key(|message| message.id)
}

/// An answer the test generator takes for the question at the end of `prompt`.
fn answer_for(prompt: &str) -> &'static str {
    if prompt.contains("CLASS") {
        "1"
    } else if prompt.contains("GENDER") {
        "F"
    } else {
        "Ana"
    }
}

/// Each server's GM ends the current turn, twice.
fn init_nexts(fake: &FakeDiscord) -> Batch {
    let mut batch = Batch::default();
    for _ in 0..2 {
        for index in 0..ACTIVE {
            batch.interactions.push(fake.interaction_slash(
                &gm(index),
                "init",
                vec![Opt::subcommand("next", vec![])],
            ));
        }
    }
    batch
}

/// Sends a batch at `rate` a second, interactions and replies interleaved evenly.
async fn dispatch_batch(fake: &FakeDiscord, batch: Batch, rate: u64) -> (Instant, Vec<(u64, u64)>) {
    let total = batch.len().max(1);
    let reply_count = batch.replies.len() as u64;
    let interval = Duration::from_secs_f64(1.0 / rate as f64);
    let start = Instant::now();
    let mut interactions = batch.interactions.into_iter();
    let mut replies = batch.replies.into_iter();
    let reply_every = match total.checked_div(reply_count) {
        Some(every) if every > 0 => every,
        _ => u64::MAX,
    };
    // (reply id, its channel) of each reply sent.
    let mut sent_replies = Vec::new();
    for index in 0..total {
        tokio::time::sleep_until((start + interval.mul_f64(index as f64)).into()).await;
        let reply_turn = index % reply_every == reply_every - 1;
        let next_reply = if reply_turn { replies.next() } else { None };
        match next_reply {
            Some((reply, channel)) => sent_replies.push((fake.dispatch_message(reply), channel)),
            None => match interactions.next() {
                Some(interaction) => {
                    fake.dispatch_interaction(interaction);
                }
                None => {
                    if let Some((reply, channel)) = replies.next() {
                        sent_replies.push((fake.dispatch_message(reply), channel));
                    }
                }
            },
        }
    }
    (start, sent_replies)
}

/// Waits for the answers of a batch: a callback for each interaction, a new bot
/// message in the channel of each reply.
async fn wait_batch(fake: &FakeDiscord, batch: &Batch, sent_replies: &[(u64, u64)]) {
    let ids: Vec<u64> = batch
        .interactions
        .iter()
        .filter_map(|interaction| interaction["id"].as_str()?.parse().ok())
        .collect();
    wait_answered(fake, &ids).await;
    for &(reply_id, channel) in sent_replies {
        fake.wait_message(|message| message.channel_id == channel && message.id > reply_id)
            .await
            .expect("the answer to a reply");
    }
}

async fn wait_answered(fake: &FakeDiscord, ids: &[u64]) {
    for id in ids {
        let callback = fake.wait_callback(*id).await.expect("an answer");
        if !callback.accepted() {
            println!("  refused: {callback:?}");
        }
    }
}

/// Sends one batch at [`MIX_RATE`] and prints the bot's CPU and database statements
/// per interaction.
async fn kind_phase(started: &mut Started, name: &str, batch: Batch) {
    let count = batch.len();
    let before = (started.measure().await, Stats::of_this_process());
    let waits = batch.clone();
    let (_, sent_replies) = dispatch_batch(&started.fake, batch, MIX_RATE).await;
    wait_batch(&started.fake, &waits, &sent_replies).await;
    let after = started.measure().await;
    let own = Stats::of_this_process();
    let each = |ticks: i64| ticks as f64 * 10_000.0 / count.max(1) as f64;
    let per = |n: i64| n as f64 / count.max(1) as f64;
    println!(
        "| {name} | {count} | {:.0} | {:.0} | {:.1} | {:.1} |",
        each(after.cpu_ticks - before.0.cpu_ticks),
        each(own.cpu_ticks - before.1.cpu_ticks),
        per(after.statements - before.0.statements),
        per(after.writes - before.0.writes),
    );
}

/// The memory of each process after start, with no server and with its share of
/// [`SERVERS`], and what a server adds.
fn print_after_start(empty: &[Stats], full: &[Stats]) {
    let shards = full.len() as u64;
    println!(
        "| bot process after start | no servers | {} servers | per server |\n| --- | ---: | ---: | ---: |",
        SERVERS / shards
    );
    let per = |full: i64, empty: i64| (full - empty) as f64 * shards as f64 / SERVERS as f64;
    for (shard, (empty, full)) in empty.iter().zip(full).enumerate() {
        let which = if shards > 1 {
            format!(" (shard {shard})")
        } else {
            String::new()
        };
        println!(
            "| live heap{which} | {:.1} MiB | {:.1} MiB | {:.0} B |",
            mib(empty.heap_bytes),
            mib(full.heap_bytes),
            per(full.heap_bytes, empty.heap_bytes)
        );
        println!(
            "| RSS{which} | {:.1} MiB | {:.1} MiB | {:.0} B |",
            mib(empty.rss_bytes),
            mib(full.rss_bytes),
            per(full.rss_bytes, empty.rss_bytes)
        );
    }
}
