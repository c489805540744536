//! The shard bench (issue 28): one shard presented with 2,500 servers, as Discord gives
//! one shard at most, then a mixed load across the servers.
//!
//! ```text
//! cargo bench -p tavern --bench load -- shard
//! ```
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

/// A bot started on a fake that presents `servers` servers.
struct Started {
    fake: FakeDiscord,
    bot: BotProcess,
    dir: std::path::PathBuf,
    db: std::path::PathBuf,
    to_ready: Duration,
    to_registered: Duration,
    to_answer: Duration,
    after_start: Stats,
    guilds_intent: bool,
}

async fn start(servers: u64, name: &str) -> Started {
    let dir = std::env::temp_dir().join(format!("tavern-shard-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let db = dir.join("shard.db");
    let fake = FakeDiscord::start(FakeConfig {
        token: Some(TOKEN.to_owned()),
        mention_policy: MentionPolicy::ForbidAll,
        wait_timeout: Duration::from_secs(120),
        guilds: (0..servers).map(guild_id).collect(),
        ..FakeConfig::default()
    })
    .await;
    let started = Instant::now();
    let mut bot = BotProcess::spawn_counting(&fake.api_base(), &db, true);
    fake.wait_ready(0, Duration::from_secs(120))
        .await
        .expect("the bot connects");
    let to_ready = started.elapsed();
    // Discord sends each server of READY once the shard is up.
    for index in 0..servers {
        fake.dispatch_guild_create(&shape(index));
    }
    fake.wait_request(Duration::from_secs(120), |request| request.method == "PUT")
        .await
        .expect("the commands are registered");
    let to_registered = started.elapsed();
    // A roll sent after every GUILD_CREATE is answered once the shard has read them all.
    let last = servers.saturating_sub(1);
    let who = Invoker::member(1, guild_id(last), shape(last).first_text_channel());
    let roll = fake.interaction_slash(&who, "roll", vec![Opt::string("expr", "1d20")]);
    let id = fake.dispatch_interaction(roll);
    fake.wait_callback(id).await.expect("the first answer");
    let to_answer = started.elapsed();
    let after_start = bot.measure().await;
    let guilds_intent = fake.gateway_log().iter().any(|record| {
        matches!(record, fake_discord::GatewayRecord::Identify { intents, .. } if *intents & 1 != 0)
    });
    Started {
        fake,
        bot,
        dir,
        db,
        to_ready,
        to_registered,
        to_answer,
        after_start,
        guilds_intent,
    }
}

impl Started {
    async fn stop(self) {
        self.bot.quit();
        self.fake.shutdown().await;
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub(super) async fn run() {
    println!("Tavern shard bench: {SERVERS} servers on one shard, {ACTIVE} of them playing");
    println!(
        "machine: {} cores; bot in a child process, fake Discord and this generator in the parent",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    let empty = start(0, "empty").await;
    let (empty_stats, empty_ready) = (empty.after_start, empty.to_ready);
    empty.stop().await;

    let mut full = start(SERVERS, "full").await;
    println!();
    println!(
        "GUILD_CREATE: {SERVERS} sent; the bot asked for the GUILDS intent: {} (without it Discord, and the fake, deliver none)",
        full.guilds_intent
    );
    println!(
        "start-up: READY after {:.0} ms (no servers: {:.0} ms), commands registered after {:.0} ms, first answer after {:.0} ms",
        ms(full.to_ready),
        ms(empty_ready),
        ms(full.to_registered),
        ms(full.to_answer),
    );
    let after = &full.after_start;
    println!(
        "| bot process after start | no servers | {SERVERS} servers | per server |\n| --- | ---: | ---: | ---: |"
    );
    let per = |full: i64, empty: i64| (full - empty) as f64 / SERVERS as f64;
    println!(
        "| live heap | {:.1} MiB | {:.1} MiB | {:.0} B |",
        mib(empty_stats.heap_bytes),
        mib(after.heap_bytes),
        per(after.heap_bytes, empty_stats.heap_bytes)
    );
    println!(
        "| RSS | {:.1} MiB | {:.1} MiB | {:.0} B |",
        mib(empty_stats.rss_bytes),
        mib(after.rss_bytes),
        per(after.rss_bytes, empty_stats.rss_bytes)
    );

    let storage = Storage::connect(
        &sqlite_url_for_path(&full.db.to_string_lossy()),
        &StorageOptions::default(),
    )
    .await
    .expect("the bot's database");
    let fresh = page_bytes(&storage).await;
    setup(&full).await;
    let set_up = page_bytes(&storage).await;

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
    let after_mix = page_bytes(&storage).await;
    let (characters,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM characters")
        .fetch_one(storage.pool())
        .await
        .unwrap_or((0,));
    storage.close().await;

    let end = full.bot.measure().await;
    println!();
    println!(
        "database: fresh {:.0} KiB; after the setup of {ACTIVE} servers (a server macro, an encounter of 3, {} generators at their first answer) {:.0} KiB; after all phases (an NPC, its conversations, a second generator each) {:.0} KiB ({characters} characters): {:.0} B per active server",
        fresh as f64 / 1024.0,
        ACTIVE * PLAYERS,
        set_up as f64 / 1024.0,
        after_mix as f64 / 1024.0,
        (after_mix - fresh) as f64 / ACTIVE as f64,
    );
    println!(
        "bot process at the end: live heap {:.1} MiB, RSS {:.1} MiB ({:.0} B per server of the shard), {} open files",
        mib(end.heap_bytes),
        mib(end.rss_bytes),
        end.rss_bytes as f64 / SERVERS as f64,
        end.open_files
    );
    let violations = full.fake.violations();
    println!("violations recorded by the fake: {}", violations.len());
    for violation in violations.iter().take(5) {
        println!("  {violation}");
    }
    full.stop().await;
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
    started.bot.measure().await;
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
    let before = (started.bot.measure().await, Stats::of_this_process());
    let waits = batch.clone();
    let (_, sent_replies) = dispatch_batch(&started.fake, batch, MIX_RATE).await;
    wait_batch(&started.fake, &waits, &sent_replies).await;
    let after = started.bot.measure().await;
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
