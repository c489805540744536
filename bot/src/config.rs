//! The configuration file (`config.example.toml` at the repository root documents
//! every key). Every key has a default, so an empty file is a valid configuration and
//! the console runs without one.

use std::path::Path;

use anyhow::Context as _;
use serde::Deserialize;

/// The whole configuration. Unknown keys are refused so a typo does not silently fall
/// back to a default.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub discord: DiscordConfig,
    pub database: DatabaseConfig,
    pub dice: DiceConfig,
    pub basic: BasicConfig,
    pub chargen: ChargenConfig,
    pub macros: MacrosConfig,
    pub npc: NpcConfig,
    pub encounters: EncountersConfig,
    pub rate_limit: RateLimitConfig,
    pub log: LogConfig,
    pub shards: ShardsConfig,
    pub runtime: RuntimeConfig,
    pub metrics: MetricsConfig,
    pub web: WebConfig,
}

impl Config {
    pub fn from_toml(text: &str) -> anyhow::Result<Config> {
        let config: Config = toml::from_str(text)?;
        config.validate()?;
        Ok(config)
    }

    pub fn load(path: &Path) -> anyhow::Result<Config> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the configuration {}", path.display()))?;
        let mut config =
            Config::from_toml(&text).with_context(|| format!("in {}", path.display()))?;
        config.apply_env(|name| std::env::var(name).ok());
        Ok(config)
    }

    /// Settings that may come from the environment instead of the file, because they
    /// carry secrets: `TAVERN_DATABASE_URL` (a PostgreSQL password) wins over
    /// `[database] url`. `lookup` reads a variable.
    pub fn apply_env(&mut self, lookup: impl Fn(&str) -> Option<String>) {
        if let Some(url) = lookup("TAVERN_DATABASE_URL").filter(|url| !url.trim().is_empty()) {
            self.database.url = url.trim().to_owned();
        }
        if let Some(secret) =
            lookup("TAVERN_WEB_CLIENT_SECRET").filter(|secret| !secret.trim().is_empty())
        {
            self.web.client_secret = Some(secret.trim().to_owned());
        }
    }

    fn validate(&self) -> anyhow::Result<()> {
        anyhow::ensure!(self.shards.total >= 1, "[shards] total must be at least 1");
        anyhow::ensure!(
            self.shards.start <= self.shards.end && self.shards.end < self.shards.total,
            "[shards] needs start <= end < total (end is inclusive)"
        );
        anyhow::ensure!(
            self.runtime
                .worker_threads
                .is_none_or(|threads| (1..=256).contains(&threads)),
            "[runtime] worker_threads must be between 1 and 256"
        );
        if let Some(address) = &self.metrics.address {
            anyhow::ensure!(
                address.parse::<std::net::SocketAddr>().is_ok(),
                "[metrics] address must be IP:PORT, such as \"127.0.0.1:9187\" (got {address:?})"
            );
        }
        self.web.validate()?;
        anyhow::ensure!(
            self.discord.defer_after_ms <= 2_500,
            "[discord] defer_after_ms must be at most 2500 (Discord allows 3 seconds)"
        );
        anyhow::ensure!(
            self.dice.max_repeat >= 1,
            "[dice] max_repeat must be at least 1"
        );
        anyhow::ensure!(
            self.rate_limit.burst >= 1,
            "[rate_limit] burst must be at least 1"
        );
        anyhow::ensure!(
            self.chargen.session_expiry_minutes >= 1,
            "[chargen] session_expiry_minutes must be at least 1"
        );
        anyhow::ensure!(
            self.npc.idle_minutes >= 1,
            "[npc] idle_minutes must be at least 1"
        );
        anyhow::ensure!(
            self.encounters.idle_minutes >= 1,
            "[encounters] idle_minutes must be at least 1"
        );
        anyhow::ensure!(
            (1..=1 << 20).contains(&self.npc.max_script_bytes),
            "[npc] max_script_bytes must be between 1 and 1048576"
        );
        // Output beyond the messages of a step goes out as one file, and Discord takes
        // no file over 10 MiB.
        anyhow::ensure!(
            self.basic
                .max_output_bytes
                .is_none_or(|bytes| bytes <= MAX_DISCORD_FILE_BYTES),
            "[basic] max_output_bytes must be at most {MAX_DISCORD_FILE_BYTES} (Discord's file limit)"
        );
        anyhow::ensure!(
            (1..=20).contains(&self.chargen.max_messages_per_step),
            "[chargen] max_messages_per_step must be between 1 and 20"
        );
        Ok(())
    }
}

/// The largest file Discord takes in a server without boosts.
pub const MAX_DISCORD_FILE_BYTES: usize = 10 * 1024 * 1024;

#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DiscordConfig {
    /// The application (client) id; read from READY when absent.
    pub application_id: Option<u64>,
    /// Commands are registered in this guild only (instant updates, for development).
    pub dev_guild_id: Option<u64>,
    /// Tests only: the base URL of a fake Discord.
    pub api_base: Option<String>,
    /// Request the privileged message-content intent (off: replies still work in DMs
    /// and when the reply pings the bot).
    pub message_content_intent: bool,
    /// An interaction whose answer is not ready after this long is deferred (Discord
    /// drops interactions not acknowledged within 3 seconds).
    pub defer_after_ms: u64,
}

impl Default for DiscordConfig {
    fn default() -> Self {
        DiscordConfig {
            application_id: None,
            dev_guild_id: None,
            api_base: None,
            message_content_intent: false,
            defer_after_ms: 1_500,
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DatabaseConfig {
    /// `sqlite://PATH` (created when missing) or `postgres://…`.
    pub url: String,
    pub max_connections: u32,
    pub busy_timeout_ms: u64,
    /// How long a query waits for a connection before the user is told the database
    /// is not answering.
    pub acquire_timeout_ms: u64,
}

impl Default for DatabaseConfig {
    fn default() -> Self {
        DatabaseConfig {
            url: "sqlite://tavern.db".to_owned(),
            max_connections: 8,
            busy_timeout_ms: 5_000,
            acquire_timeout_ms: 10_000,
        }
    }
}

/// Limits of the dice language. Absent keys keep `dice-core`'s defaults.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DiceConfig {
    pub max_input_len: Option<usize>,
    pub max_depth: Option<usize>,
    pub max_dice: Option<u64>,
    pub max_faces: Option<u64>,
    pub max_series_len: Option<usize>,
    pub max_explosions_per_die: Option<u32>,
    pub max_rerolls_per_die: Option<u32>,
    pub max_macro_expansions: Option<usize>,
    pub render_budget: Option<usize>,
    /// The largest `repeat` of `/roll`.
    pub max_repeat: u32,
}

impl Default for DiceConfig {
    fn default() -> Self {
        DiceConfig {
            max_input_len: None,
            max_depth: None,
            max_dice: None,
            max_faces: None,
            max_series_len: None,
            max_explosions_per_die: None,
            max_rerolls_per_die: None,
            max_macro_expansions: None,
            render_budget: None,
            max_repeat: 20,
        }
    }
}

/// Limits of the BASIC sandbox. Absent keys keep `basic-runner`'s defaults.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BasicConfig {
    pub max_steps_per_resume: Option<u64>,
    pub max_steps_per_session: Option<u64>,
    pub max_memory_bytes: Option<usize>,
    /// GOSUB, FOR, WHILE and function calls nested together.
    pub max_stack_depth: Option<usize>,
    /// Output between two INPUTs.
    pub max_output_bytes: Option<usize>,
    pub max_program_bytes: Option<usize>,
    pub max_lines: Option<usize>,
    pub max_input_len: Option<usize>,
    /// Characters one run may hand over with RECORD.
    pub max_records: Option<usize>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ChargenConfig {
    /// A session without activity for this long ends with a notice.
    pub session_expiry_minutes: u64,
    /// How often the bot looks for expired sessions.
    pub sweep_interval_seconds: u64,
    /// Output of one step beyond this many messages is sent as a file instead.
    pub max_messages_per_step: usize,
    /// Generator programs one server may install (`/chargen program add`).
    pub max_programs_per_server: u32,
}

impl Default for ChargenConfig {
    fn default() -> Self {
        ChargenConfig {
            session_expiry_minutes: 24 * 60,
            sweep_interval_seconds: 60,
            max_messages_per_step: 6,
            max_programs_per_server: 25,
        }
    }
}

/// The web dashboard (`tavern web`).
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WebConfig {
    /// Where `tavern web` listens (`IP:PORT`) unless `--address` says otherwise.
    pub address: String,
    /// The address browsers use (`https://tavern.example.org`): the one origin forms
    /// may come from, and `https` makes the session cookie `Secure`. Absent:
    /// `http://` and the listening address.
    pub public_url: Option<String>,
    /// How long a login lasts.
    pub session_hours: u32,
    /// `tavern run` serves the dashboard beside the bot.
    pub enabled: bool,
    /// The Discord application's client id: "Log in with Discord" when set (with
    /// the secret, here or in `TAVERN_WEB_CLIENT_SECRET`). Register
    /// `<public_url>/login/callback` as its redirect URI.
    pub client_id: Option<u64>,
    /// The application's client secret (prefer the environment variable).
    pub client_secret: Option<String>,
    /// Where Discord is (tests: a fake's base URL).
    pub discord_url: String,
    /// How long a user's servers and roles read from Discord are trusted.
    pub cache_seconds: u32,
}

impl Default for WebConfig {
    fn default() -> Self {
        WebConfig {
            address: "127.0.0.1:8080".to_owned(),
            public_url: None,
            session_hours: 7 * 24,
            enabled: false,
            client_id: None,
            client_secret: None,
            discord_url: "https://discord.com".to_owned(),
            cache_seconds: 300,
        }
    }
}

impl WebConfig {
    fn validate(&self) -> anyhow::Result<()> {
        anyhow::ensure!(
            self.address.parse::<std::net::SocketAddr>().is_ok(),
            "[web] address must be IP:PORT, such as \"127.0.0.1:8080\" (got {:?})",
            self.address
        );
        if let Some(url) = &self.public_url {
            anyhow::ensure!(
                (url.starts_with("http://") || url.starts_with("https://"))
                    && !url.trim_end_matches('/').contains(['?', '#']),
                "[web] public_url must be an http:// or https:// origin (got {url:?})"
            );
        }
        anyhow::ensure!(
            (1..=24 * 366).contains(&self.session_hours),
            "[web] session_hours must be between 1 and 8784"
        );
        anyhow::ensure!(
            self.discord_url.starts_with("https://")
                || self.discord_url.starts_with("http://127.0.0.1:"),
            "[web] discord_url must be https:// (or a fake on http://127.0.0.1:PORT)"
        );
        anyhow::ensure!(
            (1..=3_600).contains(&self.cache_seconds),
            "[web] cache_seconds must be between 1 and 3600"
        );
        Ok(())
    }
}

/// How many macros a server and a user may keep.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MacrosConfig {
    /// Server macros per server.
    pub max_per_server: u32,
    /// Personal macros per user per server.
    pub max_per_user: u32,
}

impl Default for MacrosConfig {
    fn default() -> Self {
        MacrosConfig {
            max_per_server: 200,
            max_per_user: 100,
        }
    }
}

/// NPC conversations (`/npc`, `/talk`).
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NpcConfig {
    /// A conversation without an answer for this long ends, as if the player walked
    /// away. The chargen sweep interval also sweeps these.
    pub idle_minutes: u64,
    /// The largest script `/npc install` accepts.
    pub max_script_bytes: usize,
    /// Most NPCs installed in one server.
    pub max_per_server: u32,
}

impl Default for NpcConfig {
    fn default() -> Self {
        NpcConfig {
            idle_minutes: 15,
            max_script_bytes: 256 * 1024,
            max_per_server: 100,
        }
    }
}

/// Encounters (`/init`).
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EncountersConfig {
    /// An encounter without a change for this long ends as `/init end` does, with a
    /// notice in its channel. The chargen sweep interval also sweeps these.
    pub idle_minutes: u64,
}

impl Default for EncountersConfig {
    fn default() -> Self {
        EncountersConfig {
            idle_minutes: 24 * 60,
        }
    }
}

/// A token bucket per user: `burst` commands at once, refilled at `per_minute`.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RateLimitConfig {
    pub burst: u32,
    pub per_minute: u32,
}

impl Default for RateLimitConfig {
    fn default() -> Self {
        RateLimitConfig {
            burst: 10,
            per_minute: 30,
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LogConfig {
    /// A `tracing` env-filter; `RUST_LOG` wins when set.
    pub filter: String,
    /// One JSON object per line instead of human-readable lines.
    pub json: bool,
}

impl Default for LogConfig {
    fn default() -> Self {
        LogConfig {
            // serenity's functions open spans at INFO; recording them costs about a
            // third of the CPU time of a /roll (see BENCHMARKS.md).
            filter: "info,serenity=warn".to_owned(),
            json: false,
        }
    }
}

/// The gateway shards this process runs: `start..=end` of `total`.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ShardsConfig {
    pub total: u32,
    pub start: u32,
    /// Inclusive, as serenity's `start_shard_range` treats it.
    pub end: u32,
    /// Whether this process registers the slash commands. Absent: the process whose
    /// range holds shard 0 does, so exactly one of a group of processes registers.
    pub register_commands: Option<bool>,
}

impl ShardsConfig {
    /// Whether this process registers the commands (see `register_commands`).
    pub fn registers_commands(&self) -> bool {
        self.register_commands.unwrap_or(self.start == 0)
    }
}

impl Default for ShardsConfig {
    fn default() -> Self {
        ShardsConfig {
            total: 1,
            start: 0,
            end: 0,
            register_commands: None,
        }
    }
}

/// The async runtime of `tavern run`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RuntimeConfig {
    /// Threads of the async runtime. Absent: one per shard this process runs, at
    /// most one per core (see [`Config::bot_worker_threads`]).
    pub worker_threads: Option<usize>,
}

impl Config {
    /// The async runtime's threads for `tavern run` on a machine with `cores` cores.
    ///
    /// A shard's events arrive one after the other on its one gateway task, and every
    /// engine run, chart and SQLite statement has threads of its own, so one shard
    /// keeps one runtime thread busy. A second thread mostly adds wake-ups: with one
    /// thread per shard a `/roll` costs about a tenth less CPU at 2,000 a second and
    /// sustained rates up to 4,000 a second are answered as well or better; a burst of
    /// 10,000 rolls at once drains in about 2 s instead of 1.2 to 1.5 s (BENCHMARKS.md,
    /// "One runtime thread per shard").
    pub fn bot_worker_threads(&self, cores: usize) -> usize {
        if let Some(threads) = self.runtime.worker_threads {
            return threads;
        }
        let shards = self.shards.end.saturating_sub(self.shards.start) as usize + 1;
        shards.clamp(1, cores.max(1))
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MetricsConfig {
    /// Where `tavern run` serves `/healthz`, `/readyz` and `/metrics` (`IP:PORT`); absent: not
    /// served.
    pub address: Option<String>,
}
