//! One fake Discord and one Tavern bot (the real adapter, a core on a SQLite file,
//! a hand-moved clock), plus the moves a Discord user makes.

use std::sync::Arc;
use std::time::Duration;

use fake_discord::{
    Callback, FakeConfig, FakeDiscord, GatewayRecord, Invoker, MentionPolicy, Opt, Origin,
    SentMessage, permissions,
};
use serde_json::Value;
use tavern::config::Config;
use tavern::core::chargen::ChargenId;
use tavern::core::limits::ManualClock;
use tavern::core::{Core, CoreSettings};
use tavern::discord::{Bot, DiscordOptions, RunningBot};
use tavern::engine::Engines;
use tavern::storage::{Storage, StorageOptions};

use crate::support::{PgSchema, TempDir, sqlite_storage_with};

pub const TOKEN: &str = "FAKE.TOKEN.value";
/// A guild whose events the fake routes to shard 0 of 1 (and of 2).
pub const GUILD: u64 = 2 << 22;
pub const CHANNEL: u64 = 8_000;
pub const ALICE: u64 = 42;
pub const BOB: u64 = 43;
/// How long a test waits for a shard to connect.
pub const CONNECT: Duration = Duration::from_secs(20);
/// 2026-01-01T00:00:00Z, where the core's clock starts.
pub const START_MS: i64 = 1_767_225_600_000;

/// The engines the end-to-end tests run: the real ones, with the test programs of the
/// core's tests.
pub fn engines() -> Engines {
    crate::doubles::engines()
}

/// A generator that prints a mass mention and a user mention.
pub const PINGING_PROGRAM: &str = "10 PRINT \"@everyone @here <@42> <@&7> are summoned\"\n\
20 INPUT \"WHO IS THERE\"; N$\n30 PRINT \"@everyone meet \"; N$\n40 RECORD \"NAME\", N$\n";

/// What a test changes about the bot and the fake.
pub struct Setup {
    pub fake: FakeConfig,
    pub config: Config,
    pub engines: Engines,
    /// A PostgreSQL schema instead of a SQLite file.
    pub postgres: Option<(Storage, PgSchema)>,
}

impl Setup {
    /// The same setup on PostgreSQL, or `None` (with a visible line) when
    /// `TAVERN_TEST_POSTGRES` is not set.
    pub async fn on_postgres(mut self, tag: &str) -> Option<Setup> {
        self.postgres = Some(crate::support::postgres_storage(tag).await?);
        Some(self)
    }
}

/// Where the bot's data lives; each process opens a pool of its own on it.
enum Database {
    Sqlite(std::path::PathBuf),
    Postgres(PgSchema),
}

impl Database {
    /// A pool of its own; SQLite's with the configured timeouts.
    async fn open(&self, config: &Config) -> Storage {
        match self {
            Database::Sqlite(path) => {
                sqlite_storage_with(path, &StorageOptions::from_config(&config.database)).await
            }
            Database::Postgres(schema) => schema.open().await,
        }
    }
}

impl Default for Setup {
    fn default() -> Self {
        let fake = FakeConfig {
            token: Some(TOKEN.to_owned()),
            // Tavern's promise: nothing it sends pings anyone.
            mention_policy: MentionPolicy::ForbidAll,
            wait_timeout: Duration::from_secs(20),
            ..FakeConfig::default()
        };
        Setup {
            fake,
            config: Config::default(),
            engines: engines(),
            postgres: None,
        }
    }
}

impl Setup {
    /// For tests that send many commands while the clock stands still: a rate limit
    /// that is never reached.
    pub fn busy() -> Setup {
        let mut setup = Setup::default();
        setup.config.rate_limit.burst = 1_000;
        setup
    }
}

pub struct Tavern {
    pub fake: FakeDiscord,
    pub bot: Option<RunningBot>,
    pub core: Arc<Core>,
    pub clock: Arc<ManualClock>,
    pub storage: Storage,
    config: Config,
    engines: Engines,
    db: Database,
    /// READY session ids seen so far, to tell a new connection from an old one.
    sessions: Vec<String>,
    _dir: TempDir,
}

impl Tavern {
    pub async fn start() -> Tavern {
        Tavern::start_with(Setup::default()).await
    }

    pub async fn start_with(setup: Setup) -> Tavern {
        let dir = TempDir::new("e2e");
        let fake = FakeDiscord::start(setup.fake).await;
        let (storage, db) = match setup.postgres {
            Some((storage, schema)) => (storage, Database::Postgres(schema)),
            None => {
                let path = dir.path("tavern.db");
                let database = Database::Sqlite(path);
                (database.open(&setup.config).await, database)
            }
        };
        let clock = Arc::new(ManualClock::new(START_MS));
        let core = new_core(&storage, &setup.config, &setup.engines, &clock, 7);
        let mut tavern = Tavern {
            fake,
            bot: None,
            core,
            clock,
            storage,
            config: setup.config,
            engines: setup.engines,
            db,
            sessions: Vec::new(),
            _dir: dir,
        };
        tavern.connect().await;
        tavern
    }

    /// The options `tavern run` would build from the configuration, pointed at the fake.
    pub fn options(&self) -> DiscordOptions {
        let mut config = self.config.clone();
        config.discord.api_base = Some(self.fake.api_base());
        DiscordOptions::from_config(&config, TOKEN)
    }

    /// Starts the bot through the adapter's own start-up path and waits for its shard.
    async fn connect(&mut self) {
        let options = self.options();
        let first_shard = options.shard_start;
        let bot = Bot::connect(self.core.clone(), options.clone())
            .await
            .expect("the bot connects");
        // If GET /gateway had failed, serenity would silently use the real gateway.
        assert_eq!(bot.gateway_url().await, self.fake.gateway_url());
        self.bot = Some(bot.start());
        let known = self.sessions.clone();
        let ready = self
            .fake
            .wait_gateway(CONNECT, |record| {
                matches!(record, GatewayRecord::Ready { shard, session_id }
                    if *shard == first_shard && !known.contains(session_id))
            })
            .await
            .expect("the bot's shard is ready");
        if let GatewayRecord::Ready { session_id, .. } = ready {
            self.sessions.push(session_id);
        }
        self.fake
            .wait_ready(first_shard, CONNECT)
            .await
            .expect("the shard is live");
        if options.register.is_some() {
            // Discord only sends commands that are registered: `slash` checks each
            // one against the registered table, so the table must be there first.
            self.fake
                .wait_request(CONNECT, |request| {
                    request.method == "PUT" && request.path.ends_with("/commands")
                })
                .await
                .expect("the commands are registered");
        }
    }

    /// Stops the bot the way SIGTERM does, and starts a new process' worth of bot: a
    /// new pool on the same SQLite file, a new core, a new gateway session.
    pub async fn restart(&mut self) {
        self.restart_while(|_| {}).await;
    }

    /// Like [`Tavern::restart`]; `while_down` runs when the old bot has stopped. What
    /// it dispatches waits in the fake's queue and reaches the new bot right after its
    /// READY, the first moment a user could send it.
    pub async fn restart_while(&mut self, while_down: impl FnOnce(&Tavern)) {
        if let Some(bot) = self.bot.take() {
            bot.shutdown().await;
        }
        while_down(self);
        self.storage.close().await;
        self.storage = self.db.open(&self.config).await;
        self.core = new_core(&self.storage, &self.config, &self.engines, &self.clock, 8);
        self.connect().await;
    }

    pub async fn stop(mut self) {
        if let Some(bot) = self.bot.take() {
            bot.shutdown().await;
        }
        self.storage.close().await;
        self.fake.assert_no_violations();
        if let Database::Postgres(schema) = self.db {
            schema.drop_schema().await;
        }
    }

    /// Another process on the same fake Discord and the same database, running
    /// shards `start..=end` (of the configured total); waits for its first shard.
    pub async fn another_process(&self, start: u32, end: u32) -> Process {
        let mut config = self.config.clone();
        config.shards.start = start;
        config.shards.end = end;
        config.discord.api_base = Some(self.fake.api_base());
        let storage = self.db.open(&config).await;
        let core = new_core(&storage, &config, &self.engines, &self.clock, 9);
        let bot = Bot::connect(core, DiscordOptions::from_config(&config, TOKEN))
            .await
            .expect("the second bot connects");
        let bot = bot.start();
        self.fake
            .wait_ready(start, CONNECT)
            .await
            .expect("the second process' shard is live");
        Process { bot, storage }
    }

    pub fn bot(&self) -> &RunningBot {
        self.bot.as_ref().expect("the bot is running")
    }

    // ----- what users do -----

    /// A slash command as Discord sends it: only a registered command, with its
    /// registered subcommands and options, the required ones given.
    pub fn slash(&self, who: &Invoker, command: &str, options: Vec<Opt>) -> u64 {
        let interaction = self.fake.interaction_slash(who, command, options);
        self.check_registered(&interaction["data"], true);
        self.fake.dispatch_interaction(interaction)
    }

    /// An autocomplete interaction while `who` types the option marked focused.
    pub fn autocomplete(&self, who: &Invoker, command: &str, options: Vec<Opt>) -> u64 {
        let interaction = self.fake.interaction_autocomplete(who, command, options);
        self.check_registered(&interaction["data"], false);
        self.fake.dispatch_interaction(interaction)
    }

    /// Panics unless the registered commands (when this process registered any) have
    /// the command, subcommand path and options of `data`.
    fn check_registered(&self, data: &Value, complete: bool) {
        let registered = self.fake.commands(None);
        if registered.is_empty() {
            return;
        }
        let name = data["name"].as_str().unwrap_or_default();
        let command = registered
            .iter()
            .find(|command| command["name"] == name)
            .unwrap_or_else(|| panic!("/{name} is not registered"));
        check_options(&format!("/{name}"), command, data, complete);
    }

    pub fn press(&self, who: &Invoker, message: &SentMessage, custom_id: &str) -> u64 {
        self.fake
            .dispatch_interaction(self.fake.interaction_button(who, message, custom_id))
    }

    /// The accepted first callback of an interaction.
    pub async fn callback(&self, interaction: u64) -> Callback {
        accepted_callback(&self.fake, interaction).await
    }

    /// The message answering an interaction once it is final (a deferred placeholder
    /// counts once it is edited).
    pub async fn answer(&self, interaction: u64) -> SentMessage {
        self.fake
            .wait_message(|message| {
                message.interaction_id == Some(interaction) && message.flags & LOADING == 0
            })
            .await
            .expect("the interaction's answer")
    }

    /// The prompt message carrying an "Answer" button, other than those in `seen`,
    /// once the bot has recorded its id (so replies to it are understood).
    pub async fn prompt_after(&self, seen: &[u64]) -> SentMessage {
        let prompt = self
            .fake
            .wait_message(|message| answer_button(message).is_some() && !seen.contains(&message.id))
            .await
            .expect("a prompt with an Answer button");
        self.settled().await;
        prompt
    }

    /// Waits until the bot handles no event. A person reads a prompt before replying
    /// to it; a test that replies at once waits for the bot to record the prompt.
    pub async fn settled(&self) {
        assert!(self.bot().settled().await, "the bot is still busy");
    }

    /// Opens a prompt's modal with its "Answer" button and submits `text`; returns the
    /// submit's interaction id once it is acknowledged.
    pub async fn answer_with_modal(&self, who: &Invoker, prompt: &SentMessage, text: &str) -> u64 {
        self.answer_with_modal_on(None, who, prompt, text).await
    }

    /// Like [`Tavern::answer_with_modal`], with the interactions sent to `shard` instead
    /// of the shard of their guild (`None`).
    pub async fn answer_with_modal_on(
        &self,
        shard: Option<u32>,
        who: &Invoker,
        prompt: &SentMessage,
        text: &str,
    ) -> u64 {
        modal_answer(&self.fake, shard, who, prompt, text).await
    }

    /// Replies to a prompt with a regular message (`ping`: the "mention" switch of the
    /// reply).
    pub fn reply(&self, who: &Invoker, prompt: &SentMessage, text: &str, ping: bool) -> u64 {
        self.fake
            .dispatch_message(self.fake.message_create_reply(who, text, prompt, ping))
    }

    /// The bot's message replying to message `message_id` (such as the hint for a
    /// reply Discord hid from it).
    pub async fn reply_to(&self, message_id: u64) -> SentMessage {
        let id = message_id.to_string();
        self.fake
            .wait_message(|message| {
                message
                    .message_reference
                    .as_ref()
                    .and_then(|reference| reference["message_id"].as_str())
                    == Some(id.as_str())
            })
            .await
            .expect("a message replying to it")
    }

    /// The summary posted when a generator finishes.
    pub async fn summary(&self, channel: u64) -> SentMessage {
        self.fake
            .wait_message(|message| {
                message.channel_id == channel
                    && message.origin == Origin::Channel
                    && message.content.contains("is ready")
            })
            .await
            .expect("the summary of a finished generator")
    }

    /// Drives a whole generator run from `/chargen start`, answering every prompt the
    /// way `how` says, until its summary appears. Returns the prompts answered.
    pub async fn chargen_run(&self, who: &Invoker, program: Option<&str>, how: How) -> usize {
        let options = match program {
            Some(name) => vec![Opt::subcommand("start", vec![Opt::string("program", name)])],
            None => vec![Opt::subcommand("start", vec![])],
        };
        // Summaries of earlier runs in the channel are not this run's.
        let since = self.newest_message_id();
        let started = self.answer(self.slash(who, "chargen", options)).await;
        assert!(
            started.content.starts_with("Started"),
            "{}",
            started.content
        );
        assert!(started.is_ephemeral());
        self.answer_prompts(who, &[], how, since).await
    }

    /// The id of the newest message the bot has sent (0: none yet).
    pub fn newest_message_id(&self) -> u64 {
        self.fake
            .messages()
            .iter()
            .map(|message| message.id)
            .max()
            .unwrap_or(0)
    }

    /// Starts the default generator as `who` and returns its first prompt.
    pub async fn start_chargen(&self, who: &Invoker) -> SentMessage {
        let start = self.slash(who, "chargen", vec![Opt::subcommand("start", vec![])]);
        self.callback(start).await;
        self.prompt_after(&[]).await
    }

    /// Alice's paused session in the guild, if any.
    pub async fn alices_session(&self) -> Option<tavern::storage::SessionRow> {
        self.storage
            .session_of(ALICE as i64, GUILD as i64)
            .await
            .expect("the sessions table answers")
    }

    /// Answers prompts until a summary newer than message `since` appears; `seen` are
    /// prompts already answered. Returns how many prompts were answered.
    pub async fn answer_prompts(&self, who: &Invoker, seen: &[u64], how: How, since: u64) -> usize {
        let mut seen = seen.to_vec();
        loop {
            let next = self
                .fake
                .wait_message(|message| {
                    (answer_button(message).is_some() && !seen.contains(&message.id))
                        || (message.origin == Origin::Channel
                            && message.id > since
                            && message.channel_id == who.channel_id
                            && message.content.contains("is ready"))
                })
                .await
                .expect("a prompt or the summary");
            if answer_button(&next).is_none() {
                return seen.len();
            }
            self.settled().await;
            let text = answer_for(&next.content);
            match how {
                How::Modal => {
                    self.answer_with_modal(who, &next, text).await;
                }
                How::Reply { ping } => {
                    self.reply(who, &next, text, ping);
                }
            }
            seen.push(next.id);
        }
    }

    /// Every REST request matching `method` whose path contains `path`.
    pub fn requests_to(&self, method: &str, path: &str) -> usize {
        self.fake
            .requests()
            .iter()
            .filter(|request| request.method == method && request.path.contains(path))
            .count()
    }
}

/// Checks `given` options (an interaction's) against `declared` (a registered
/// command's or subcommand's), recursing into subcommands and groups.
fn check_options(path: &str, declared: &Value, given: &Value, complete: bool) {
    let declared = declared["options"].as_array().cloned().unwrap_or_default();
    let given = given["options"].as_array().cloned().unwrap_or_default();
    for option in &given {
        let name = option["name"].as_str().unwrap_or_default();
        let spec = declared
            .iter()
            .find(|spec| spec["name"] == name)
            .unwrap_or_else(|| panic!("{path} has no registered option or subcommand `{name}`"));
        assert_eq!(
            spec["type"], option["type"],
            "{path} {name}: the registered type differs"
        );
        if matches!(option["type"].as_u64(), Some(1 | 2)) {
            check_options(&format!("{path} {name}"), spec, option, complete);
        }
        // Discord's client refuses numbers out of the registered range.
        if let Some(value) = option["value"].as_i64()
            && complete
        {
            let low = spec["min_value"].as_i64().unwrap_or(i64::MIN);
            let high = spec["max_value"].as_i64().unwrap_or(i64::MAX);
            assert!(
                (low..=high).contains(&value),
                "{path} {name}: {value} is outside {low}..={high}"
            );
        }
        // Where the option offers choices, Discord sends one of them (autocomplete
        // aside, which sends what is typed).
        if let Some(choices) = spec["choices"].as_array()
            && !choices.is_empty()
            && complete
        {
            assert!(
                choices
                    .iter()
                    .any(|choice| choice["value"] == option["value"]),
                "{path} {name}: {} is not one of the choices {choices:?}",
                option["value"]
            );
        }
    }
    let nested = given
        .iter()
        .any(|option| matches!(option["type"].as_u64(), Some(1 | 2)));
    if !complete || nested {
        return;
    }
    for spec in &declared {
        let required = spec["required"].as_bool().unwrap_or(false);
        let name = &spec["name"];
        assert!(
            !required || given.iter().any(|option| option["name"] == *name),
            "{path}: the required option {name} is missing"
        );
    }
}

/// A second bot process sharing the fake and the database with a [`Tavern`].
pub struct Process {
    pub bot: RunningBot,
    pub storage: Storage,
}

impl Process {
    pub async fn stop(self) {
        self.bot.shutdown().await;
        self.storage.close().await;
    }
}

/// The session id of the latest READY.
pub fn latest_session(fake: &FakeDiscord) -> String {
    fake.gateway_log()
        .iter()
        .rev()
        .find_map(|record| match record {
            GatewayRecord::Ready { session_id, .. } => Some(session_id.clone()),
            _ => None,
        })
        .expect("a READY")
}

/// The accepted first callback of an interaction.
pub async fn accepted_callback(fake: &FakeDiscord, interaction: u64) -> Callback {
    let callback = fake
        .wait_callback(interaction)
        .await
        .expect("the interaction is answered");
    assert!(callback.accepted(), "refused: {callback:?}");
    callback
}

/// Opens a prompt's modal with its "Answer" button and submits `text`, sending both
/// interactions to `shard` (`None`: the shard of their guild); returns the submit's
/// interaction id once it is acknowledged.
pub async fn modal_answer(
    fake: &FakeDiscord,
    shard: Option<u32>,
    who: &Invoker,
    prompt: &SentMessage,
    text: &str,
) -> u64 {
    let send = |interaction: Value| match shard {
        None => fake.dispatch_interaction(interaction),
        Some(shard) => {
            let id = interaction["id"].as_str().and_then(|id| id.parse().ok());
            fake.dispatch_to_shard(shard, "INTERACTION_CREATE", interaction);
            id.expect("an interaction id")
        }
    };
    let button = answer_button(prompt).expect("the prompt has an Answer button");
    let press = fake.interaction_button(who, prompt, &button);
    let opened = accepted_callback(fake, send(press)).await;
    assert_eq!(opened.kind, 9, "a modal is the first response: {opened:?}");
    let modal_id = opened.data["custom_id"]
        .as_str()
        .expect("a modal id")
        .to_owned();
    let field = opened.data["components"][0]["components"][0]["custom_id"]
        .as_str()
        .expect("a text input")
        .to_owned();
    let submit =
        fake.interaction_modal_submit(who, &modal_id, &[(field.as_str(), text)], Some(prompt));
    let submitted = send(submit);
    let acknowledged = accepted_callback(fake, submitted).await;
    assert!(matches!(acknowledged.kind, 4 | 6), "{acknowledged:?}");
    submitted
}

/// How a run answers its prompts.
#[derive(Debug, Clone, Copy)]
pub enum How {
    Modal,
    Reply { ping: bool },
}

/// Discord's "loading" flag of a deferred response.
const LOADING: u64 = 128;

/// The custom id of a message's "Answer" button, if it has one.
pub fn answer_button(message: &SentMessage) -> Option<String> {
    message
        .custom_ids()
        .into_iter()
        .find(|id| matches!(ChargenId::decode(id), Some(ChargenId::Answer { .. })))
}

/// An answer that moves a generator on, from the question at the end of its prompt.
pub fn answer_for(prompt: &str) -> &'static str {
    let question = prompt
        .lines()
        .rfind(|line| !line.trim().is_empty() && !line.starts_with("```"))
        .unwrap_or("")
        .to_uppercase();
    if question.contains("NAME") {
        return "Udo";
    }
    if question.contains("GENDER") || question.contains("MALE OR FEMALE") {
        return "M";
    }
    if question.contains("(Y/N)") {
        return if question.contains("ANOTHER") {
            "N"
        } else {
            "Y"
        };
    }
    "1"
}

/// The custom id of the button labelled `label` on `message`.
pub fn button_id(message: &SentMessage, label: &str) -> String {
    message
        .components
        .iter()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .find(|component| component["label"] == label)
        .and_then(|component| component["custom_id"].as_str().map(str::to_owned))
        .unwrap_or_else(|| panic!("no button {label} on {message:?}"))
}

/// Asserts that a message starts with `prefix`, showing it when not.
#[track_caller]
pub fn assert_starts(message: &SentMessage, prefix: &str) {
    check_text(
        message,
        message.content.starts_with(prefix),
        "start with",
        prefix,
    );
}

/// Asserts that a message ends with `suffix`, showing it when not.
#[track_caller]
pub fn assert_ends(message: &SentMessage, suffix: &str) {
    check_text(
        message,
        message.content.ends_with(suffix),
        "end with",
        suffix,
    );
}

/// Asserts that a message contains `part`, showing it when not.
#[track_caller]
pub fn assert_has(message: &SentMessage, part: &str) {
    check_text(message, message.content.contains(part), "contain", part);
}

#[track_caller]
fn check_text(message: &SentMessage, holds: bool, should: &str, text: &str) {
    assert!(holds, "{}\nshould {should}\n{text}", message.content);
}

/// A member with the Manage Server permission.
pub fn admin() -> Invoker {
    alice().with_permissions(permissions::MEMBER | permissions::MANAGE_GUILD)
}

/// The answer of a command sent by `who`, once final; it never pings anyone.
pub async fn ask(tavern: &Tavern, who: &Invoker, command: &str, options: Vec<Opt>) -> SentMessage {
    let answer = tavern.answer(tavern.slash(who, command, options)).await;
    assert_eq!(answer.allowed_mentions, Some(no_mentions()), "{answer:?}");
    assert!(answer.pings.is_empty(), "{answer:?}");
    answer
}

/// The answer of `/NAME SUB options…`.
pub async fn ask_sub(
    tavern: &Tavern,
    who: &Invoker,
    command: &str,
    sub: &str,
    options: Vec<Opt>,
) -> SentMessage {
    ask(tavern, who, command, vec![Opt::subcommand(sub, options)]).await
}

/// The `(name, value)` choices autocomplete offers while `who` types.
pub async fn suggestions(
    tavern: &Tavern,
    who: &Invoker,
    command: &str,
    options: Vec<Opt>,
) -> Vec<(String, String)> {
    let callback = tavern
        .callback(tavern.autocomplete(who, command, options))
        .await;
    assert_eq!(callback.kind, 8, "autocomplete is answered with choices");
    let choices = callback.data["choices"].as_array().expect("choices");
    assert!(choices.len() <= 25);
    choices
        .iter()
        .map(|choice| {
            (
                choice["name"].as_str().unwrap_or_default().to_owned(),
                choice["value"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

pub fn alice() -> Invoker {
    Invoker::member(ALICE, GUILD, CHANNEL).with_name("Alice")
}

pub fn bob() -> Invoker {
    Invoker::member(BOB, GUILD, CHANNEL).with_name("Bob")
}

/// The content of an interaction callback (type 4), or "" for other types.
pub fn content(callback: &Callback) -> &str {
    callback.data["content"].as_str().unwrap_or("")
}

pub fn is_ephemeral(callback: &Callback) -> bool {
    callback.data["flags"].as_u64().unwrap_or(0) & 64 != 0
}

/// The `allowed_mentions` Tavern sends on everything.
pub fn no_mentions() -> Value {
    serde_json::json!({"parse": [], "users": [], "roles": [], "replied_user": false})
}

fn new_core(
    storage: &Storage,
    config: &Config,
    engines: &Engines,
    clock: &Arc<ManualClock>,
    seed: u64,
) -> Arc<Core> {
    // As `tavern run` builds it: attachments come over HTTP (here from the fake's CDN).
    let fetch = tavern::fetch::HttpFetch::new(Duration::from_secs(10)).expect("an HTTP client");
    Arc::new(
        Core::new(
            storage.clone(),
            engines.clone(),
            CoreSettings::from_config(config),
            clock.clone(),
            Some(seed),
        )
        .with_fetch(Arc::new(fetch)),
    )
}
