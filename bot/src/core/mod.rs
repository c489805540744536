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
//!
//! Each command lives in its own module, which declares its spec, handler,
//! acknowledgement, autocomplete and custom-id families in one
//! [`table::CommandEntry`]; [`Core`] only looks them up in [`table::COMMANDS`].
//! Handlers receive a [`Context`] (storage, engines, settings, clock, RNG, rate
//! limiter), never the `Core`.

mod access;
pub mod authoring;
pub mod character;
mod characters;
pub mod chargen;
mod combatants;
pub mod commands;
mod context;
pub mod custom_id;
mod dates;
pub mod effect;
pub mod encounter;
pub mod fields;
pub mod fit;
pub mod gen_reason;
pub mod help;
pub mod language;
pub mod limits;
pub mod live;
pub mod macro_advantage;
mod macro_choices;
pub mod macros;
mod model;
mod naming;
pub mod npc;
pub mod odds;
mod playing;
mod prepare;
pub mod record_map;
mod reply_routes;
pub mod roll;
mod roll_line;
pub mod scripts;
mod settings;
pub mod table;
mod turn;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};

/// Text shaping lives below the core (`crate::text`); command modules keep naming it here.
pub use crate::text;
pub use context::Context;
pub use model::*;

use crate::config::Config;
use crate::engine::Engines;
use crate::engine::worker::{WorkError, Workers};
use crate::fetch::{Fetch, NoFetch};
use crate::i18n::{self, Lang};
use crate::storage::Storage;
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
    /// An encounter without a change this long ends as `/init end` does.
    pub encounter_idle_ms: i64,
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
            encounter_idle_ms: i64::try_from(config.encounters.idle_minutes)
                .unwrap_or(i64::MAX / 60_000)
                .saturating_mul(60_000),
            npc_max_per_server: config.npc.max_per_server,
            engine_time_limit: crate::engine::worker::DEFAULT_TIME_LIMIT,
            engine_workers: crate::engine::worker::DEFAULT_MAX_RUNNING,
        }
    }
}

/// The command core. Share it with an `Arc`; every method takes `&self`.
pub struct Core {
    /// What handlers receive.
    cx: Context,
    errors: ErrorCounts,
    /// Replies that [`fit`] had to change: a builder that aimed beyond Discord's
    /// limits (each is logged; tests hold it at zero for the longest inputs).
    cut_replies: AtomicU64,
}

/// What the user is told when the database cannot be reached or stays locked: the
/// request changed nothing, and trying again later works once the database is back.
pub fn database_unavailable_text(lang: Lang) -> String {
    i18n::tr(lang, "common-database-unavailable")
}

/// Failed requests since start, for the metrics.
#[derive(Debug, Default)]
struct ErrorCounts {
    /// Answered with an error id.
    internal: AtomicU64,
    /// Answered with [`database_unavailable_text`].
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
        let cx = Context {
            storage,
            engines,
            settings,
            clock,
            rng: Mutex::new(rng),
            limiter,
            fetch: Arc::new(NoFetch),
            workers,
            npc_scripts: Arc::default(),
            effect_libraries: Arc::default(),
            languages: language::LanguageCache::default(),
            encounter_changes: live::EncounterChanges::default(),
            reply_routes: reply_routes::ReplyRoutes::default(),
        };
        Core {
            cx,
            errors: ErrorCounts::default(),
            cut_replies: AtomicU64::new(0),
        }
    }

    /// How this transport reads attachments (HTTP for Discord, files for the console).
    pub fn with_fetch(mut self, fetch: Arc<dyn Fetch>) -> Core {
        self.cx.fetch = fetch;
        self
    }

    pub fn storage(&self) -> &Storage {
        &self.cx.storage
    }

    /// Notices of every encounter change this core stores, for live views.
    pub fn encounter_changes(&self) -> tokio::sync::broadcast::Receiver<live::EncounterChanged> {
        self.cx.encounter_changes.subscribe()
    }

    pub fn settings(&self) -> &CoreSettings {
        &self.cx.settings
    }

    /// The engine workers every handler's engine work runs on.
    pub fn workers(&self) -> &Workers {
        &self.cx.workers
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
        self.cx
            .storage
            .session_counts(self.cx.now().saturating_sub(recent_ms))
            .await
    }

    /// The slash commands to register, in the table's order.
    pub fn command_specs(&self) -> Vec<commands::CommandSpec> {
        table::COMMANDS
            .iter()
            .map(|entry| (entry.spec)(&self.cx.settings))
            .collect()
    }

    /// The buttons under a waiting generator's prompt, in `table`'s words: a
    /// transport that lost them (the console after a restart) shows them again.
    pub fn chargen_prompt_components(
        &self,
        row: &crate::storage::SessionRow,
        table: Lang,
    ) -> Vec<ActionRow> {
        chargen::prompt_components(row, table)
    }

    /// The buttons and menus under a waiting NPC conversation's prompt, in
    /// `table`'s words (see [`Core::chargen_prompt_components`]).
    pub async fn npc_prompt_components(
        &self,
        row: &crate::storage::npc::NpcConversationRow,
        table: Lang,
    ) -> anyhow::Result<Vec<ActionRow>> {
        self.cx.npc_prompt_components(row, table).await
    }

    /// Handles one request. Internal errors are logged with an id and answered with a
    /// short message carrying that id. Every reply is fitted to Discord's limits here,
    /// whatever built it.
    pub async fn handle(&self, request: &Request) -> Vec<Reply> {
        let replies = self.answer(request).await;
        let origin = match &request.kind {
            RequestKind::Command(command) | RequestKind::Autocomplete { command, .. } => {
                command.name.as_str()
            }
            RequestKind::Button { custom_id, .. }
            | RequestKind::Select { custom_id, .. }
            | RequestKind::Modal { custom_id, .. } => custom_id.as_str(),
            RequestKind::MessageReply { .. } => "a reply",
        };
        self.fitted(origin, replies)
    }

    /// Replies since start that had to be cut or trimmed to fit Discord's limits.
    pub fn cut_replies(&self) -> u64 {
        self.cut_replies.load(Ordering::Relaxed)
    }

    /// `replies` within Discord's limits; a reply that needed fitting is counted and
    /// logged, since cutting is the last resort and its builder should aim below.
    fn fitted(&self, origin: &str, replies: Vec<Reply>) -> Vec<Reply> {
        replies
            .into_iter()
            .map(|reply| {
                let (fitted, cut) = reply.fit_noting();
                if cut {
                    self.cut_replies.fetch_add(1, Ordering::Relaxed);
                    tracing::warn!(origin, "a reply was cut to fit Discord's limits");
                }
                fitted
            })
            .collect()
    }

    async fn answer(&self, request: &Request) -> Vec<Reply> {
        match self.dispatch(request).await {
            Ok(replies) => replies,
            Err(error) => {
                let error_id = new_error_id(&mut *self.cx.rng());
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
                let lang = language::private_language(request);
                if unavailable {
                    return ephemeral(database_unavailable_text(lang));
                }
                vec![Reply::Interaction(Message::ephemeral(internal_error_text(
                    lang, &error_id,
                )))]
            }
        }
    }

    /// How to acknowledge `request` if its answer takes longer than Discord allows:
    /// the owning module decides.
    pub fn ack(&self, request: &Request) -> Ack {
        match &request.kind {
            RequestKind::Command(command) => table::command(&command.name)
                .map_or(Ack::Defer { ephemeral: true }, |entry| (entry.ack)(command)),
            RequestKind::Autocomplete { .. } => Ack::Immediate,
            RequestKind::Button { custom_id, .. } => match table::component(custom_id) {
                Some((_, family)) => (family.ack)(request, custom_id),
                None => Ack::Defer { ephemeral: false },
            },
            RequestKind::Select { custom_id, .. } | RequestKind::Modal { custom_id, .. } => {
                match table::component(custom_id) {
                    Some((_, family)) => (family.ack)(request, custom_id),
                    None => Ack::DeferUpdate,
                }
            }
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
            if let Some(session) = self
                .cx
                .storage
                .session_by_prompt_message(to_message)
                .await?
            {
                return Ok(session.user_id == user);
            }
            let conversation = self
                .cx
                .storage
                .npc_conversation_by_message(to_message)
                .await?;
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
                self.cx
                    .storage
                    .set_prompt_message(session_id, step, message_id)
                    .await?;
                self.cx
                    .reply_routes
                    .posted(message_id, chargen::COMMAND.name);
            }
            Track::NpcPrompt {
                conversation_id,
                step,
            } => {
                self.cx
                    .storage
                    .set_npc_message(conversation_id, step, message_id)
                    .await?;
                self.cx
                    .reply_routes
                    .posted(message_id, npc::TALK_COMMAND.name);
            }
            Track::Encounter { encounter_id } => {
                self.cx
                    .storage
                    .set_encounter_message(encounter_id, message_id)
                    .await?;
            }
            // The Reveal button names its roll; the message id is not needed.
            Track::GmRoll { .. } => {}
            Track::GmAnswer { state_id } => {
                self.cx.gm_answer_sent(state_id, message_id).await?;
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
                self.cx
                    .storage
                    .delete_session(session_id, Some(step))
                    .await?;
            }
            Track::NpcPrompt {
                conversation_id,
                step,
            } => {
                self.cx
                    .storage
                    .delete_npc_conversation(conversation_id, Some(step))
                    .await?;
            }
            // The encounter goes on; its next change posts the tracker again.
            Track::Encounter { encounter_id } => {
                self.cx
                    .storage
                    .clear_encounter_message(encounter_id)
                    .await?;
            }
            // The roller gets the result instead ([`Core::undelivered_gm_roll`]); a
            // line the channel refused leaves the GM's message linking the channel.
            Track::GmRoll { .. } | Track::GmAnswer { .. } => {}
        }
        Ok(())
    }

    /// The private answer to the roller whose roll for the GM the GM channel refused
    /// (the bot lacks `permission` there, named in `lang`): the result itself, so
    /// nothing is lost. `None` when `track` is no such roll.
    pub async fn undelivered_gm_roll(
        &self,
        track: Track,
        lang: Lang,
        permission: &str,
    ) -> anyhow::Result<Option<String>> {
        self.cx.undelivered_gm_roll(track, lang, permission).await
    }

    /// Ends expired sessions and returns their notices (regular channel messages and
    /// edits that remove stale buttons). Call it periodically.
    pub async fn sweep(&self) -> anyhow::Result<Vec<Reply>> {
        let now = self.cx.now();
        let mut replies = Vec::new();
        for sweep in table::COMMANDS.iter().filter_map(|entry| entry.sweep) {
            replies.extend(sweep(&self.cx, now).await?);
        }
        // Roll-again buttons older than 30 days are forgotten.
        self.cx
            .storage
            .purge_button_states(now.saturating_sub(30 * 24 * 3_600_000))
            .await?;
        Ok(self.fitted("the sweep", replies))
    }

    /// The "Answer" button's modal, built without the database (see
    /// [`Context::answer_modal`]), in the presser's Discord `locale`; `None` when the
    /// custom id is not such a button.
    pub fn answer_modal(
        &self,
        custom_id: &str,
        prompt_message: &str,
        locale: Option<&str>,
    ) -> Option<Modal> {
        self.cx.answer_modal(custom_id, prompt_message, locale)
    }

    /// Routes a request to the module that owns it: a command by its name, a
    /// component by its custom id's family, a reply by the message it answers.
    async fn dispatch(&self, request: &Request) -> anyhow::Result<Vec<Reply>> {
        let cx = &self.cx;
        if let RequestKind::Autocomplete { command, focused } = &request.kind {
            return match table::command(&command.name) {
                Some(entry) => (entry.autocomplete)(cx, request, command, focused).await,
                None => Ok(vec![Reply::Choices(Vec::new())]),
            };
        }
        if let RequestKind::MessageReply {
            to_message, text, ..
        } = &request.kind
        {
            // Rate limits apply once a reply is known to answer something. The module
            // that posted the message, when remembered, is asked first (one lookup
            // instead of another module's miss before it); the others after it.
            let poster = cx.reply_routes.poster_of(*to_message);
            let answering = table::COMMANDS
                .iter()
                .filter(|entry| entry.typed_replies.is_some());
            let ordered = answering
                .clone()
                .filter(|entry| Some(entry.name) == poster)
                .chain(answering.filter(|entry| Some(entry.name) != poster));
            for typed_replies in ordered.filter_map(|entry| entry.typed_replies) {
                if let Some(replies) = typed_replies(cx, request, *to_message, text).await? {
                    return Ok(replies);
                }
            }
            return Ok(Vec::new());
        }
        if let Some(replies) = cx.rate_limited(request) {
            return Ok(replies);
        }
        if let RequestKind::Command(command) = &request.kind {
            return match table::command(&command.name) {
                Some(entry) => table::dispatch(cx, entry, request, command).await,
                None => Ok(ephemeral(i18n::tr_args(
                    language::private_language(request),
                    "common-unknown-command",
                    &[("command", command.name.as_str().into())],
                ))),
            };
        }
        let Some(custom_id) = table::custom_id_of(request) else {
            return Ok(Vec::new());
        };
        match table::component(custom_id) {
            Some((_, family)) => (family.run)(cx, request, custom_id).await,
            None => Ok(stale_component(request)),
        }
    }
}

fn ephemeral(content: impl Into<String>) -> Vec<Reply> {
    vec![Reply::Interaction(Message::ephemeral(content))]
}

/// The answer when engine work gave none in time: what was too big, and what to do,
/// in `lang` (`what` is a noun phrase in that language that can start a sentence:
/// "Computing the odds of `8d6` exactly"). A crash is an internal error (logged with
/// an id by [`Core::handle`]).
fn overrun_in(lang: Lang, what: &str, error: WorkError) -> anyhow::Result<Vec<Reply>> {
    match error {
        WorkError::TimedOut { limit } => Ok(ephemeral(i18n::tr_args(
            lang,
            "common-overrun-timed-out",
            &[
                ("what", what.into()),
                (
                    "wait",
                    i18n::duration(lang, i64::try_from(limit.as_millis()).unwrap_or(i64::MAX))
                        .into(),
                ),
            ],
        ))),
        WorkError::Busy => Ok(ephemeral(i18n::tr_args(
            lang,
            "common-overrun-busy",
            &[("what", what.into())],
        ))),
        WorkError::Crashed => Err(anyhow::anyhow!("{what}: an engine worker failed")),
    }
}

/// The answer to a button, select or form whose state is gone, in the presser's
/// language (private).
fn stale_component(request: &Request) -> Vec<Reply> {
    ephemeral(i18n::tr(
        language::private_language(request),
        "common-stale-component",
    ))
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
pub fn internal_error_text(lang: Lang, error_id: &str) -> String {
    i18n::tr_args(
        lang,
        "common-internal-error",
        &[("error_id", error_id.into())],
    )
}
