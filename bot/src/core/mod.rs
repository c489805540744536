//! The command core: transport-free handling of every command.
//!
//! A [`Request`] (slash command, button, modal submit, message reply, autocomplete)
//! goes into [`Core::handle`]; a list of [`Reply`] comes out, which the transport
//! carries out in order. The core never sends anything itself, and it stores every
//! state change before returning, so a reply that reaches the user always describes
//! stored state.
//!
//! Transports also call [`Core::ack`] (how to acknowledge a slow interaction),
//! [`Core::message_sent`] (the id of a sent message the core tracks) and
//! [`Core::sweep`] (periodically: expired sessions and their notices).

mod character;
mod chargen;
pub mod commands;
pub mod custom_id;
pub mod fields;
pub mod fit;
pub mod help;
pub mod limits;
pub mod macros;
mod model;
pub mod npc;
mod odds;
mod programs;
pub mod record_map;
mod roll;
mod settings;
pub mod text;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};

pub use model::*;

use crate::config::Config;
use crate::engine::Engines;
use crate::engine::npc::NpcScripts;
use crate::engine::worker::{WorkError, Workers};
use crate::fetch::{Fetch, NoFetch};
use crate::storage::Storage;
use custom_id::CustomId;
use limits::{Clock, RateLimiter};

/// The settings the core reads from the configuration.
#[derive(Debug, Clone)]
pub struct CoreSettings {
    pub max_repeat: u32,
    /// Characters a rendered roll may take (all repetitions together).
    pub render_budget: usize,
    pub session_expiry_ms: i64,
    pub max_messages_per_step: usize,
    /// The longest answer to a generator's question.
    pub max_answer_len: usize,
    pub rate_burst: u32,
    pub rate_per_minute: u32,
    /// Server macros one server may have.
    pub max_server_macros: u32,
    /// Personal macros one user may have in one server.
    pub max_personal_macros: u32,
    /// Generator programs one server may install.
    pub max_programs: u32,
    /// The largest listing a server may install, in bytes.
    pub max_program_bytes: usize,
    /// An NPC conversation idle this long ends as "left".
    pub npc_idle_ms: i64,
    pub npc_max_script_bytes: usize,
    pub npc_max_per_server: u32,
    /// How long a user waits at most for one engine job (exact odds, a generator
    /// step or program check, an NPC turn), and how many such jobs run at once.
    pub engine_time_limit: std::time::Duration,
    pub engine_workers: usize,
}

impl Default for CoreSettings {
    fn default() -> Self {
        CoreSettings::from_config(&Config::default())
    }
}

impl CoreSettings {
    pub fn from_config(config: &Config) -> CoreSettings {
        CoreSettings {
            max_repeat: config.dice.max_repeat,
            render_budget: config.dice.render_budget.unwrap_or(1800).clamp(100, 1900),
            session_expiry_ms: i64::try_from(config.chargen.session_expiry_minutes)
                .unwrap_or(i64::MAX / 60_000)
                .saturating_mul(60_000),
            max_messages_per_step: config.chargen.max_messages_per_step,
            max_answer_len: config.basic.max_input_len.unwrap_or(255).clamp(1, 4000),
            rate_burst: config.rate_limit.burst,
            rate_per_minute: config.rate_limit.per_minute,
            max_server_macros: config.macros.max_per_server,
            max_personal_macros: config.macros.max_per_user,
            max_programs: config.chargen.max_programs_per_server,
            max_program_bytes: config.basic.max_program_bytes.unwrap_or(512 * 1024),
            npc_idle_ms: i64::try_from(config.npc.idle_minutes)
                .unwrap_or(i64::MAX / 60_000)
                .saturating_mul(60_000),
            npc_max_script_bytes: config.npc.max_script_bytes,
            npc_max_per_server: config.npc.max_per_server,
            engine_time_limit: crate::engine::worker::DEFAULT_TIME_LIMIT,
            engine_workers: crate::engine::worker::DEFAULT_MAX_RUNNING,
        }
    }
}

/// The command core. Share it with an `Arc`; every method takes `&self`.
pub struct Core {
    storage: Storage,
    engines: Engines,
    settings: CoreSettings,
    clock: Arc<dyn Clock>,
    rng: Mutex<StdRng>,
    limiter: RateLimiter,
    /// Reads attachments (`/chargen program add`, `/npc install`); refuses them
    /// unless a transport sets one.
    fetch: Arc<dyn Fetch>,
    /// Where engine work whose cost the input decides runs, under a time limit.
    workers: Workers,
    /// NPC scripts loaded once per text, for every turn and autocomplete.
    npc_scripts: Arc<NpcScripts>,
    errors: ErrorCounts,
}

/// What the user is told when the database cannot be reached or stays locked: the
/// request changed nothing, and trying again later works once the database is back.
pub const DATABASE_UNAVAILABLE: &str = "The database is not answering right now, so nothing \
     was changed. Please try again in a minute.";

/// Failed requests since start, for the metrics.
#[derive(Debug, Default)]
struct ErrorCounts {
    /// Answered with an error id.
    internal: AtomicU64,
    /// Answered with [`DATABASE_UNAVAILABLE`].
    database: AtomicU64,
}

/// How many requests failed since start, by cause.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ErrorTotals {
    pub internal: u64,
    pub database_unavailable: u64,
}

impl Core {
    /// `seed` makes rolls and generator runs reproducible (tests, `--seed`).
    pub fn new(
        storage: Storage,
        engines: Engines,
        settings: CoreSettings,
        clock: Arc<dyn Clock>,
        seed: Option<u64>,
    ) -> Core {
        let rng = match seed {
            Some(seed) => StdRng::seed_from_u64(seed),
            None => StdRng::from_os_rng(),
        };
        let limiter = RateLimiter::new(settings.rate_burst, settings.rate_per_minute);
        let workers = Workers::new(settings.engine_time_limit, settings.engine_workers);
        Core {
            storage,
            engines,
            settings,
            clock,
            rng: Mutex::new(rng),
            limiter,
            fetch: Arc::new(NoFetch),
            workers,
            npc_scripts: Arc::default(),
            errors: ErrorCounts::default(),
        }
    }

    /// How this transport reads attachments (HTTP for Discord, files for the console).
    pub fn with_fetch(mut self, fetch: Arc<dyn Fetch>) -> Core {
        self.fetch = fetch;
        self
    }

    pub fn storage(&self) -> &Storage {
        &self.storage
    }

    pub fn settings(&self) -> &CoreSettings {
        &self.settings
    }

    /// Requests that failed since start.
    pub fn error_totals(&self) -> ErrorTotals {
        ErrorTotals {
            internal: self.errors.internal.load(Ordering::Relaxed),
            database_unavailable: self.errors.database.load(Ordering::Relaxed),
        }
    }

    /// Waiting generator sessions and NPC conversations; "active" ones were answered
    /// within the last `recent_ms` milliseconds of the core's clock.
    pub async fn session_counts(
        &self,
        recent_ms: i64,
    ) -> anyhow::Result<crate::storage::SessionCounts> {
        self.storage
            .session_counts(self.now().saturating_sub(recent_ms))
            .await
    }

    /// The slash commands to register.
    pub fn command_specs(&self) -> Vec<commands::CommandSpec> {
        commands::command_specs(self.settings.max_repeat)
    }

    /// Handles one request. Internal errors are logged with an id and answered with a
    /// short message carrying that id. Every reply is fitted to Discord's limits here,
    /// whatever built it.
    pub async fn handle(&self, request: &Request) -> Vec<Reply> {
        fit::replies(self.answer(request).await)
    }

    async fn answer(&self, request: &Request) -> Vec<Reply> {
        match self.dispatch(request).await {
            Ok(replies) => replies,
            Err(error) => {
                let error_id = new_error_id(&mut *self.rng());
                let unavailable = crate::storage::is_unavailable(&error);
                let counter = match unavailable {
                    true => &self.errors.database,
                    false => &self.errors.internal,
                };
                counter.fetch_add(1, Ordering::Relaxed);
                tracing::error!(
                    error_id = %error_id,
                    user = request.user.id,
                    guild = request.place(),
                    error = %format!("{error:#}"),
                    database_unavailable = unavailable,
                    "request failed"
                );
                if unavailable {
                    return ephemeral(DATABASE_UNAVAILABLE);
                }
                vec![Reply::Interaction(Message::ephemeral(internal_error_text(
                    &error_id,
                )))]
            }
        }
    }

    /// How to acknowledge `request` if its answer takes longer than Discord allows.
    pub fn ack(&self, request: &Request) -> Ack {
        if let Some(ack) = npc::ack(request) {
            return ack;
        }
        match &request.kind {
            RequestKind::Command(command) => match (command.name.as_str(), command.sub()) {
                ("roll", _) => Ack::Immediate,
                ("odds", _) => Ack::Defer { ephemeral: false },
                // Without a file or code, the answer is the paste form: a modal must
                // be the first response.
                ("chargen", Some("program"))
                    if command.subcommand.get(1).is_some_and(|sub| sub == "add")
                        && command.option("file").is_none()
                        && command.option("code").is_none() =>
                {
                    Ack::Immediate
                }
                ("character", Some("show")) => Ack::Defer { ephemeral: false },
                _ => Ack::Defer { ephemeral: true },
            },
            RequestKind::Autocomplete { .. } => Ack::Immediate,
            RequestKind::Button { custom_id, .. } => match CustomId::decode(custom_id) {
                // A modal must be the first response; it cannot follow a deferral.
                Some(CustomId::ChargenAnswer { .. }) => Ack::Immediate,
                // A view button redraws its own message.
                Some(CustomId::Odds(_) | CustomId::OddsStored { .. }) => Ack::DeferUpdate,
                // A page button shows another page in the same (private) message.
                Some(CustomId::Help { .. }) => Ack::DeferUpdate,
                // The confirmation's own message becomes the outcome.
                Some(
                    CustomId::ProgramInstall { .. }
                    | CustomId::ProgramCancel { .. }
                    | CustomId::CharacterDelete { .. }
                    | CustomId::CharacterKeep { .. },
                ) => Ack::DeferUpdate,
                _ => Ack::Defer { ephemeral: false },
            },
            RequestKind::Modal { custom_id, .. }
                if matches!(
                    CustomId::decode(custom_id),
                    Some(CustomId::ProgramModal { .. })
                ) =>
            {
                // Submitted from a command, not from a message: a new (ephemeral)
                // answer, not an update.
                Ack::Defer { ephemeral: true }
            }
            RequestKind::Select { .. } | RequestKind::Modal { .. } => Ack::DeferUpdate,
            RequestKind::MessageReply { .. } => Ack::None,
        }
    }

    /// Whether a reply whose text Discord withheld (`request`, a `MessageReply` with
    /// an empty text) answers a question that waits for this very user: only then is
    /// a hint about mentions worth sending, since other players' replies to it are
    /// table talk. When the database cannot tell, the hint is sent.
    pub async fn awaits_reply_from(&self, request: &Request) -> bool {
        let RequestKind::MessageReply { to_message, .. } = request.kind else {
            return false;
        };
        let user = request.user.id;
        let asked = async {
            if let Some(session) = self.storage.session_by_prompt_message(to_message).await? {
                return Ok(session.user_id == user);
            }
            let conversation = self.storage.npc_conversation_by_message(to_message).await?;
            anyhow::Ok(conversation.is_some_and(|row| row.user_id == user))
        };
        asked.await.unwrap_or_else(|error| {
            tracing::warn!(error = %format!("{error:#}"), "cannot tell whose question a reply answers");
            true
        })
    }

    /// Records the id a tracked message got when it was sent.
    pub async fn message_sent(&self, track: Track, message_id: i64) -> anyhow::Result<()> {
        match track {
            Track::ChargenPrompt { session_id, step } => {
                self.storage
                    .set_prompt_message(session_id, step, message_id)
                    .await?;
            }
            Track::NpcPrompt {
                conversation_id,
                step,
            } => {
                self.storage
                    .set_npc_message(conversation_id, step, message_id)
                    .await?;
            }
        }
        Ok(())
    }

    /// Ends the session whose tracked prompt Discord refused to post (the bot lacks a
    /// permission in the channel): nobody could see or answer it, and the user may start
    /// again where the bot can post.
    pub async fn message_failed(&self, track: Track) -> anyhow::Result<()> {
        match track {
            Track::ChargenPrompt { session_id, step } => {
                self.storage.delete_session(session_id, Some(step)).await?;
            }
            Track::NpcPrompt {
                conversation_id,
                step,
            } => {
                self.storage
                    .delete_npc_conversation(conversation_id, Some(step))
                    .await?;
            }
        }
        Ok(())
    }

    /// Ends expired sessions and returns their notices (regular channel messages and
    /// edits that remove stale buttons). Call it periodically.
    pub async fn sweep(&self) -> anyhow::Result<Vec<Reply>> {
        let now = self.now();
        let mut replies = self.expire_sessions(now).await?;
        // Installs waiting for "Install anyway" hold whole listings; they expire.
        self.purge_pending_installs(now).await?;
        self.purge_pending_deletes(now).await?;
        replies.extend(self.expire_npc_conversations(now).await?);
        // Roll-again buttons older than 30 days are forgotten.
        self.storage
            .purge_button_states(now.saturating_sub(30 * 24 * 3_600_000))
            .await?;
        Ok(fit::replies(replies))
    }

    async fn dispatch(&self, request: &Request) -> anyhow::Result<Vec<Reply>> {
        if let RequestKind::Autocomplete { command, focused } = &request.kind {
            return self.autocomplete(request, command, focused).await;
        }
        if !matches!(request.kind, RequestKind::MessageReply { .. })
            && let Some(replies) = self.rate_limited(request)
        {
            return Ok(replies);
        }
        if let Some(replies) = self.npc_dispatch(request).await? {
            return Ok(replies);
        }
        match &request.kind {
            RequestKind::Command(command) => match command.name.as_str() {
                "roll" => self.roll_command(request, command).await,
                "odds" => self.odds_command(request, command).await,
                "chargen" => self.chargen_command(request, command).await,
                "character" => self.character_command(request, command).await,
                "macro" => self.macro_command(request, command).await,
                "config" => self.config_command(request, command).await,
                "npc" => self.npc_command(request, command).await,
                "talk" => self.talk_command(request, command).await,
                "help" => Ok(help::help_command(command)),
                other => Ok(ephemeral(format!("I don't know the command `/{other}`."))),
            },
            RequestKind::Button { custom_id, .. } => match CustomId::decode(custom_id) {
                Some(CustomId::ChargenAnswer { session_id, step }) => {
                    self.chargen_answer_button(request, session_id, step).await
                }
                Some(CustomId::RollAgain(params)) => self.roll_again(request, params).await,
                Some(CustomId::Odds(view)) => self.odds_button(request, view).await,
                Some(CustomId::OddsStored { state_id, view }) => {
                    self.odds_button_stored(request, state_id, &view).await
                }
                Some(CustomId::RollAgainStored { state_id }) => {
                    self.roll_again_stored(request, state_id).await
                }
                Some(CustomId::ProgramInstall { state_id }) => {
                    self.program_confirm(request, state_id, true).await
                }
                Some(CustomId::ProgramCancel { state_id }) => {
                    self.program_confirm(request, state_id, false).await
                }
                Some(CustomId::Help { page }) => Ok(help::help_button(&page)),
                Some(CustomId::CharacterDelete { state_id }) => {
                    self.character_delete_confirm(request, state_id, true).await
                }
                Some(CustomId::CharacterKeep { state_id }) => {
                    self.character_delete_confirm(request, state_id, false)
                        .await
                }
                _ => Ok(stale_component()),
            },
            RequestKind::Modal { custom_id, fields } => match CustomId::decode(custom_id) {
                Some(CustomId::ChargenModal { session_id, step }) => {
                    let text = fields
                        .iter()
                        .find(|(id, _)| id == chargen::ANSWER_FIELD)
                        .map(|(_, value)| value.as_str())
                        .unwrap_or("");
                    self.chargen_answer(request, chargen::Target::Exact { session_id, step }, text)
                        .await
                }
                Some(CustomId::ProgramModal { name }) => {
                    self.program_pasted(request, &name, fields).await
                }
                _ => Ok(stale_component()),
            },
            RequestKind::Select { .. } => Ok(stale_component()),
            RequestKind::MessageReply {
                to_message, text, ..
            } => self.chargen_reply(request, *to_message, text).await,
            RequestKind::Autocomplete { .. } => Ok(Vec::new()),
        }
    }

    /// The refusal of a user over the rate limit. What they typed into a modal is
    /// handed back, since Discord does not keep it.
    fn rate_limited(&self, request: &Request) -> Option<Vec<Reply>> {
        let wait_ms = self.limiter.check(request.user.id, self.now()).err()?;
        let mut message = Message::ephemeral(format!(
            "Easy there, adventurer! That's a lot of commands at once. \
             Try again in {}.",
            text::human_duration(wait_ms)
        ));
        let typed = match &request.kind {
            RequestKind::Modal { fields, .. } => fields
                .iter()
                .map(|(_, value)| value.trim_end())
                .filter(|value| !value.is_empty())
                .collect::<Vec<_>>()
                .join("\n"),
            _ => String::new(),
        };
        if typed.is_empty() {
            return Some(vec![Reply::Interaction(message)]);
        }
        let block = text::code_block(&typed);
        if message.content.chars().count() + block.chars().count() + 40 <= text::MESSAGE_LIMIT {
            message.content = format!("{}\nWhat you typed:\n{block}", message.content);
        } else {
            message
                .content
                .push_str(" What you typed is in the attached file.");
            message.attachments.push(FileAttachment {
                filename: "what-you-typed.txt".to_owned(),
                bytes: format!("{typed}\n").into_bytes(),
                description: Some("What you typed, to send again".to_owned()),
            });
        }
        Some(vec![Reply::Interaction(message)])
    }

    async fn autocomplete(
        &self,
        request: &Request,
        command: &Command,
        focused: &str,
    ) -> anyhow::Result<Vec<Reply>> {
        let typed = command.string(focused).unwrap_or("");
        match (command.name.as_str(), command.sub(), focused) {
            ("roll" | "odds", _, "expr") => {
                return Ok(vec![Reply::Choices(
                    self.roll_suggestions(request, typed).await?,
                )]);
            }
            ("macro", Some("show" | "delete"), "name") => {
                return Ok(vec![Reply::Choices(
                    self.macro_name_suggestions(request, typed).await?,
                )]);
            }
            _ => {}
        }
        let names = match (command.name.as_str(), command.sub(), focused) {
            ("character", Some("show" | "delete" | "use"), "name") => {
                self.storage
                    .character_names_starting(request.user.id, request.place(), typed, 25)
                    .await?
            }
            ("chargen", Some("start"), "program") | ("chargen", Some("program"), "name") => {
                let typed = typed.to_lowercase();
                self.program_names(request.place())
                    .await?
                    .into_iter()
                    .filter(|name| name.to_lowercase().starts_with(&typed))
                    .collect()
            }
            ("talk", _, "npc" | "conv") | ("npc", Some("remove" | "activity"), "name") => {
                self.npc_autocomplete(request, command, focused).await?
            }
            _ => Vec::new(),
        };
        let choices = names
            .into_iter()
            .take(25)
            .map(|name| Choice {
                name: text::truncate(&name, 100),
                value: name,
            })
            .collect();
        Ok(vec![Reply::Choices(choices)])
    }

    fn now(&self) -> i64 {
        self.clock.now_ms()
    }

    /// Stores what a button needs beyond its custom id (which holds 100 characters)
    /// and returns the row's id, for the custom id to name.
    async fn store_button_state(
        &self,
        kind: &str,
        payload: &impl serde::Serialize,
    ) -> anyhow::Result<i64> {
        let state = crate::storage::ButtonState {
            id: self.new_id(),
            kind: kind.to_owned(),
            payload: serde_json::to_string(payload)?,
            created_at: self.now(),
        };
        self.storage.insert_button_state(&state).await?;
        Ok(state.id)
    }

    fn rng(&self) -> MutexGuard<'_, StdRng> {
        self.rng
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A fresh positive id for rows and sessions. Never from the game's RNG: a seeded
    /// core (`--seed`, tests) replays its rolls, and ids replayed on a database that
    /// already holds them would collide (`UNIQUE constraint failed: characters.id`).
    /// 63 random bits from the OS-seeded thread generator make a clash negligible.
    fn new_id(&self) -> i64 {
        loop {
            let id = (rand::random::<u64>() >> 1) as i64;
            if id != 0 {
                return id;
            }
        }
    }
}

fn ephemeral(content: impl Into<String>) -> Vec<Reply> {
    vec![Reply::Interaction(Message::ephemeral(content))]
}

/// The answer when engine work gave none in time: what was too big, and what to do.
/// A crash is an internal error (logged with an id by [`Core::handle`]).
fn overrun(what: &str, error: WorkError) -> anyhow::Result<Vec<Reply>> {
    match error {
        WorkError::TimedOut { limit } => Ok(ephemeral(format!(
            "{what} took too long: I stopped waiting after {}. Try something smaller.",
            text::human_duration(i64::try_from(limit.as_millis()).unwrap_or(i64::MAX))
        ))),
        WorkError::Busy => Ok(ephemeral(format!(
            "{what} has to wait: the bot is busy with other long computations. \
             Please try again in a minute."
        ))),
        WorkError::Crashed => Err(anyhow::anyhow!("{what}: an engine worker failed")),
    }
}

fn stale_component() -> Vec<Reply> {
    ephemeral("This button belongs to something that has ended.")
}

fn new_error_id(rng: &mut dyn RngCore) -> String {
    error_id(rng.next_u32())
}

/// An error id as logged and shown: eight hex digits, short enough to read out.
pub fn error_id(random: u32) -> String {
    format!("{random:08X}")
}

/// What the user sees when something breaks on our side: never the error itself,
/// only the id under which it is logged.
pub fn internal_error_text(error_id: &str) -> String {
    format!(
        "Something went wrong on our side. If it keeps happening, tell the bot's host \
         this error id: `{error_id}`."
    )
}
