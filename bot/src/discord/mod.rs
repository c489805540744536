//! The Discord transport: serenity 0.12.5's model and HTTP client over the command
//! core, with a gateway reader of its own (`gateway`: serenity's shard runner decoded
//! each frame three times, 40 % of a `/roll`'s CPU).
//!
//! Gateway events become core [`Request`](crate::core::Request)s (`incoming`): slash
//! commands, autocomplete, buttons and selects, modal submits, and regular messages
//! that reply to one of our prompts. The core's [`Reply`](crate::core::Reply)s become
//! Discord calls (`answer`, `outgoing`) within Discord's rules: the 3-second
//! acknowledgement, a modal only as the first response, an empty `allowed_mentions`
//! on every message. Commands are registered with one bulk overwrite (`commands`) by
//! the one process configured to do it, a periodic sweep posts the notices of expired
//! generator sessions, and [`RunningBot::shutdown`] stops the shards and waits for the
//! answers in flight; every session is already stored.
//!
//! A test points the bot at a fake Discord with `[discord] api_base`; `http` refuses
//! any such base that is not on loopback, because serenity's proxy support needs its
//! rate limiter off.

mod answer;
mod callback;
mod commands;
mod gateway;
mod http;
mod incoming;
mod outgoing;
mod queue;
mod wire;

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::Context as _;
use serenity::all::{
    ComponentInteraction, GatewayIntents, Http, InteractionId, Message as SerenityMessage,
    ModalInteraction, Permissions as SerenityPermissions, Ready,
};
use tokio::sync::{Notify, Semaphore, SemaphorePermit, watch};
use tokio::task::{JoinHandle, JoinSet};

pub use commands::Scope;
pub use http::{HttpGuardError, HttpPlan, build_http};

use crate::config::Config;
use crate::core::Core;
use crate::metrics::Metrics;
use answer::{Interaction, InteractionKind};
use incoming::Incoming;

/// An interaction as the gateway decoded it: a command or its autocomplete already
/// as the core's request (`wire.rs`), components and modals in serenity's model.
// The command, the common case, stays unboxed: it moves once into its task, and a
// box would be one more allocation on every `/roll`.
#[allow(clippy::large_enum_variant)]
enum Inbound {
    Command {
        target: wire::CommandTarget,
        request: crate::core::Request,
        autocomplete: bool,
    },
    Component(Box<ComponentInteraction>),
    Modal(Box<ModalInteraction>),
}

/// How long no event must arrive before the bot gives freed memory back: long enough
/// that a steady stream of events never pays for it.
const REST_BEFORE_GIVING_BACK: Duration = Duration::from_secs(1);
/// How long a shutdown waits for answers in flight.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(10);

/// Events handled at once; later ones wait their turn, oldest first. serenity starts
/// a task per event, and without a bound a backlog becomes thousands of concurrent
/// HTTP requests, each on a connection of its own, all slowing each other down past
/// Discord's deadline; with it, connections are reused and the oldest event (the one
/// nearest its deadline) is answered first.
const MAX_CONCURRENT_EVENTS: usize = 64;

/// Everything the transport needs besides the core.
#[derive(Debug, Clone)]
pub struct DiscordOptions {
    /// The bot token (from `DISCORD_TOKEN`, never from the file).
    pub token: String,
    /// Otherwise taken from READY.
    pub application_id: Option<u64>,
    /// Tests only: the base URL of a fake Discord on loopback.
    pub api_base: Option<String>,
    /// Ask for the privileged message-content intent.
    pub message_content_intent: bool,
    /// How long an answer may take before the interaction is deferred.
    pub defer_after: Duration,
    /// Where this process registers the commands; `None`: another process does.
    pub register: Option<Scope>,
    /// The first and last (inclusive) shard this process runs, and the total.
    pub shard_start: u32,
    pub shard_end: u32,
    pub shard_total: u32,
    /// How often expired generator sessions are looked for.
    pub sweep_interval: Duration,
}

impl DiscordOptions {
    pub fn from_config(config: &Config, token: impl Into<String>) -> DiscordOptions {
        let register =
            config
                .shards
                .registers_commands()
                .then_some(match config.discord.dev_guild_id {
                    Some(guild_id) => Scope::Guild(guild_id),
                    None => Scope::Global,
                });
        DiscordOptions {
            token: token.into(),
            application_id: config.discord.application_id,
            api_base: config.discord.api_base.clone(),
            message_content_intent: config.discord.message_content_intent,
            defer_after: Duration::from_millis(config.discord.defer_after_ms),
            register,
            shard_start: config.shards.start,
            shard_end: config.shards.end,
            shard_total: config.shards.total,
            sweep_interval: Duration::from_secs(config.chargen.sweep_interval_seconds.max(1)),
        }
    }

    /// The gateway intents: messages in servers and DMs (for replies to prompts), and
    /// their content only when configured.
    pub fn intents(&self) -> GatewayIntents {
        let mut intents = GatewayIntents::GUILD_MESSAGES | GatewayIntents::DIRECT_MESSAGES;
        if self.message_content_intent {
            intents |= GatewayIntents::MESSAGE_CONTENT;
        }
        intents
    }
}

/// Settings the event handler reads on every event.
struct Settings {
    defer_after: Duration,
    register: Option<Scope>,
}

/// What the event handler and the sweeper share.
struct Shared {
    core: Arc<Core>,
    settings: Settings,
    /// Set once this process has registered the commands (or is doing so).
    registered: AtomicBool,
    in_flight: InFlight,
    /// Turns to handle an event ([`MAX_CONCURRENT_EVENTS`]), granted in order.
    turns: Semaphore,
    /// Each user's events, carried out in order.
    users: queue::UserQueues,
    metrics: Arc<Metrics>,
    /// The first responses to interactions, posted on kept connections; `None` behind
    /// an HTTPS proxy, which only serenity's `Http` goes through.
    callbacks: Option<callback::Callbacks>,
}

/// Counts the events being handled, so a shutdown can wait for them and memory is
/// given back only at rest.
#[derive(Default)]
struct InFlight {
    count: AtomicUsize,
    /// Every event ever entered: unchanged over a while means none arrived.
    entered: AtomicU64,
    idle: Notify,
}

struct InFlightGuard<'a>(&'a InFlight);

impl InFlight {
    fn enter(&self) -> InFlightGuard<'_> {
        self.count.fetch_add(1, Ordering::SeqCst);
        self.entered.fetch_add(1, Ordering::Relaxed);
        InFlightGuard(self)
    }

    /// Waits for the end of a burst of events, then until [`REST_BEFORE_GIVING_BACK`]
    /// passes with none arriving.
    async fn rest(&self) {
        self.idle.notified().await;
        loop {
            let seen = self.entered.load(Ordering::Relaxed);
            tokio::time::sleep(REST_BEFORE_GIVING_BACK).await;
            if self.entered.load(Ordering::Relaxed) == seen
                && self.count.load(Ordering::SeqCst) == 0
            {
                return;
            }
        }
    }

    async fn wait_idle(&self, timeout: Duration) -> bool {
        let wait = async {
            loop {
                let notified = self.idle.notified();
                if self.count.load(Ordering::SeqCst) == 0 {
                    return;
                }
                notified.await;
            }
        };
        tokio::time::timeout(timeout, wait).await.is_ok()
    }
}

impl Drop for InFlightGuard<'_> {
    fn drop(&mut self) {
        if self.0.count.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

impl Shared {
    /// Waits for a turn to handle an event. The semaphore is never closed; should it
    /// be, the event is handled without a turn rather than dropped.
    async fn turn(&self) -> Option<SemaphorePermit<'_>> {
        self.turns.acquire().await.ok()
    }

    /// Ends expired sessions and posts their notices; returns how many replies went out.
    async fn sweep(&self, http: &Http) -> anyhow::Result<usize> {
        let _working = self.in_flight.enter();
        let replies = self.core.sweep().await?;
        let mut sent = 0;
        for reply in &replies {
            let result = match reply {
                crate::core::Reply::Channel {
                    channel_id,
                    message,
                } => answer::send_channel(self, http, *channel_id, message)
                    .await
                    .map_err(drop),
                crate::core::Reply::Edit {
                    channel_id,
                    message_id,
                    message,
                } => answer::send_edit(self, http, *channel_id, *message_id, message).await,
                other => {
                    tracing::warn!(reply = ?other, "a sweep reply without a channel; dropped");
                    Err(())
                }
            };
            if result.is_ok() {
                sent += 1;
            }
        }
        Ok(sent)
    }

    async fn register_commands(&self, http: &Http, shard: u32) {
        let Some(scope) = self.settings.register else {
            return;
        };
        // READY comes again after every reconnect and on every shard; register once.
        if self.registered.swap(true, Ordering::SeqCst) {
            return;
        }
        let specs = self.core.command_specs();
        match commands::register(http, &specs, scope).await {
            Ok(count) => tracing::info!(?scope, count, shard, "slash commands registered"),
            Err(error) => {
                // The next READY tries again.
                self.registered.store(false, Ordering::SeqCst);
                let error_id = answer::new_error_id();
                tracing::error!(
                    error_id = %error_id,
                    error = %format!("{error:#}"),
                    "cannot register the slash commands"
                );
            }
        }
    }
}

/// What the shards' gateway connections hand their events to (`gateway`).
struct Handler {
    shared: Arc<Shared>,
    http: Arc<Http>,
    /// The bot's own user id, from READY; 0 before it.
    bot_user_id: AtomicU64,
}

impl Handler {
    /// Called by the shard's reader before it reads on, so that every message after
    /// READY knows the bot's own id.
    fn ready_user(&self, ready: &Ready) {
        self.bot_user_id
            .store(ready.user.id.get(), Ordering::SeqCst);
        if self.http.application_id().is_none() {
            self.http.set_application_id(ready.application.id);
        }
    }

    async fn ready(&self, shard: u32, ready: Ready) {
        tracing::info!(
            shard,
            user = %ready.user.name,
            guilds = ready.guilds.len(),
            "connected to Discord"
        );
        self.shared.register_commands(&self.http, shard).await;
    }

    /// Keeps `/readyz` and the shard gauge current: a shard is up only while connected
    /// (not while identifying, resuming or reconnecting).
    fn stage(&self, shard: u32, connected: bool, stage: &'static str) {
        tracing::info!(shard, to = stage, "gateway connection stage");
        self.shared.metrics.shard_connected(shard, connected);
    }

    async fn interaction_create(&self, interaction: Inbound) {
        let http = &self.http;
        // Discord's 3 seconds run from here, also while waiting for a turn.
        let received = tokio::time::Instant::now();
        let _working = self.shared.in_flight.enter();
        let _counted = self.shared.metrics.in_flight();
        let _turn = self.shared.turn().await;
        let (target, request) = match interaction {
            Inbound::Command {
                target,
                request,
                autocomplete,
            } => {
                let (kind, access) = if autocomplete {
                    (
                        InteractionKind::Autocomplete,
                        answer::ChannelAccess::default(),
                    )
                } else {
                    let permissions = target
                        .app_permissions
                        .map(SerenityPermissions::from_bits_truncate);
                    (
                        InteractionKind::Command,
                        answer::ChannelAccess::new(permissions, target.in_thread),
                    )
                };
                (
                    Interaction {
                        id: InteractionId::from(target.id.0),
                        token: target.token,
                        kind,
                        received,
                        access,
                        kept_files: Vec::new(),
                    },
                    request,
                )
            }
            Inbound::Component(component) => {
                let target = Interaction {
                    id: component.id,
                    token: component.token.clone(),
                    kind: InteractionKind::Component,
                    received,
                    access: answer::ChannelAccess::of(
                        component.app_permissions,
                        component.channel.as_ref(),
                    ),
                    kept_files: component
                        .message
                        .attachments
                        .iter()
                        .map(|file| file.id)
                        .collect(),
                };
                // A modal must be the first response: the "Answer" button's opens
                // before any database work.
                if let Some(modal) = self.shared.core.answer_modal(
                    &component.data.custom_id,
                    &component.message.content,
                    Some(&component.locale),
                ) {
                    self.shared.metrics.received("button");
                    // Boxed: its HTTP call would otherwise size every event's future.
                    Box::pin(answer::modal_at_once(&self.shared, http, &target, &modal)).await;
                    self.shared.metrics.answered("button", received.elapsed());
                    return;
                }
                (target, incoming::component(&component))
            }
            Inbound::Modal(modal) => (
                Interaction {
                    id: modal.id,
                    token: modal.token.clone(),
                    kind: InteractionKind::ModalSubmit,
                    received,
                    access: answer::ChannelAccess::of(
                        modal.app_permissions,
                        modal.channel.as_ref(),
                    ),
                    kept_files: modal
                        .message
                        .iter()
                        .flat_map(|message| message.attachments.iter().map(|file| file.id))
                        .collect(),
                },
                incoming::modal(&modal),
            ),
        };
        let label = self.shared.metrics.label(&request);
        self.shared.metrics.received(label);
        answer::interaction(&self.shared, http, target, request).await;
        self.shared.metrics.answered(label, received.elapsed());
    }

    async fn message(&self, message: SerenityMessage) {
        let received = tokio::time::Instant::now();
        let http = &self.http;
        // Set by the shard's reader at READY, before it starts any later event's task.
        let bot_user_id = self.bot_user_id.load(Ordering::SeqCst);
        match incoming::message(&message, bot_user_id) {
            Incoming::Ignore => {}
            Incoming::Unreadable(request) => {
                let _working = self.shared.in_flight.enter();
                let _counted = self.shared.metrics.in_flight();
                let _turn = self.shared.turn().await;
                if !self.shared.core.awaits_reply_from(&request).await {
                    return;
                }
                self.shared.metrics.received("reply");
                answer::unreadable_reply(
                    &self.shared,
                    http,
                    message.channel_id,
                    message.id,
                    &request,
                )
                .await;
                self.shared.metrics.answered("reply", received.elapsed());
            }
            Incoming::Reply(request) => {
                let _working = self.shared.in_flight.enter();
                let _counted = self.shared.metrics.in_flight();
                let _turn = self.shared.turn().await;
                self.shared.metrics.received("reply");
                answer::message_reply(&self.shared, http, message.channel_id, message.id, request)
                    .await;
                self.shared.metrics.answered("reply", received.elapsed());
            }
        }
    }
}

/// A bot pointed at Discord (or a fake), its gateway URL known, not started yet.
pub struct Bot {
    http: Arc<Http>,
    gateway_url: String,
    plan: HttpPlan,
    shared: Arc<Shared>,
    options: DiscordOptions,
}

impl Bot {
    /// Builds the `Http` (refusing an unsafe `api_base`) and asks `GET /gateway` for
    /// the gateway URL.
    pub async fn connect(core: Arc<Core>, options: DiscordOptions) -> anyhow::Result<Bot> {
        anyhow::ensure!(
            options.shard_start <= options.shard_end && options.shard_end < options.shard_total,
            "the shard range {}..={} does not fit {} shards",
            options.shard_start,
            options.shard_end,
            options.shard_total
        );
        let http = build_http(
            &options.token,
            options.api_base.as_deref(),
            options.application_id,
        )?;
        let callbacks =
            callback::Callbacks::new(&options.token, options.api_base.as_deref(), |name| {
                std::env::var(name).ok()
            })
            .context("cannot set up the interaction callbacks")?;
        let shared = Arc::new(Shared {
            core,
            settings: Settings {
                defer_after: options.defer_after,
                register: options.register,
            },
            registered: AtomicBool::new(false),
            in_flight: InFlight::default(),
            turns: Semaphore::new(MAX_CONCURRENT_EVENTS),
            users: queue::UserQueues::default(),
            metrics: Arc::new(Metrics::default()),
            callbacks,
        });
        shared
            .metrics
            .own_shards(options.shard_start, options.shard_end);
        let gateway_url = http
            .get_gateway()
            .await
            .context("cannot ask Discord for the gateway's address")?
            .url;
        let plan = HttpPlan::for_api_base(options.api_base.as_deref());
        plan.check_gateway(&gateway_url)?;
        Ok(Bot {
            http: Arc::new(http),
            gateway_url,
            plan,
            shared,
            options,
        })
    }

    /// The counters of this bot, for the metrics endpoint.
    pub fn metrics(&self) -> Arc<Metrics> {
        self.shared.metrics.clone()
    }

    /// The gateway URL the shards connect to (`GET /gateway`'s answer); tests compare
    /// it with their fake's.
    pub async fn gateway_url(&self) -> String {
        self.gateway_url.clone()
    }

    /// Connects the shards and starts the sweeper.
    pub fn start(self) -> RunningBot {
        let Bot {
            http,
            gateway_url,
            plan,
            shared,
            options,
        } = self;
        let handler = Arc::new(Handler {
            shared: shared.clone(),
            http: http.clone(),
            bot_user_id: AtomicU64::new(0),
        });
        let (stop, stopped) = watch::channel(false);
        let identify = Arc::new(gateway::IdentifyQueue::default());
        let mut shards = JoinSet::new();
        for index in options.shard_start..=options.shard_end {
            let spec = gateway::ShardSpec {
                index,
                total: options.shard_total,
                token: options
                    .token
                    .strip_prefix("Bot ")
                    .unwrap_or(&options.token)
                    .to_owned(),
                intents: options.intents().bits(),
                url: gateway_url.clone(),
                plan: plan.clone(),
            };
            shards.spawn(gateway::run_shard(
                spec,
                handler.clone(),
                identify.clone(),
                stopped.clone(),
            ));
        }
        // Ends when every shard has stopped, or at the first refused for good.
        let gateway = tokio::spawn(async move {
            while let Some(ended) = shards.join_next().await {
                match ended {
                    Ok(Ok(())) => {}
                    Ok(Err(fatal)) => return Err(fatal),
                    Err(error) => tracing::error!(%error, "a shard's task failed"),
                }
            }
            Ok(())
        });
        let sweeper = tokio::spawn(sweep_periodically(
            shared.clone(),
            http.clone(),
            options.sweep_interval,
        ));
        let giver = tokio::spawn(give_back_memory_at_rest(shared.clone()));
        RunningBot {
            stop,
            http,
            shared,
            gateway,
            sweeper,
            giver,
        }
    }
}

async fn sweep_periodically(shared: Arc<Shared>, http: Arc<Http>, interval: Duration) {
    let mut ticks = tokio::time::interval(interval);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        if let Err(error) = shared.sweep(&http).await {
            let error_id = answer::new_error_id();
            tracing::error!(
                error_id = %error_id,
                error = %format!("{error:#}"),
                "the session sweep failed"
            );
        }
    }
}

/// After each burst of events, once the bot rests, gives the memory the burst freed
/// back to the system (`memory.rs`).
async fn give_back_memory_at_rest(shared: Arc<Shared>) {
    loop {
        shared.in_flight.rest().await;
        match tokio::task::spawn_blocking(crate::memory::give_back).await {
            Ok(released) => tracing::debug!(released, "freed memory given back at rest"),
            Err(error) => tracing::warn!(%error, "giving freed memory back failed"),
        }
    }
}

/// A connected bot.
pub struct RunningBot {
    /// Set to stop every shard (each closes its session with 1000).
    stop: watch::Sender<bool>,
    http: Arc<Http>,
    shared: Arc<Shared>,
    gateway: JoinHandle<Result<(), gateway::FatalClose>>,
    sweeper: JoinHandle<()>,
    /// Gives freed memory back when the bot rests.
    giver: JoinHandle<()>,
}

impl RunningBot {
    /// Runs one sweep now (the periodic sweeper does the same); returns how many
    /// notices and edits went out.
    pub async fn sweep(&self) -> anyhow::Result<usize> {
        self.shared.sweep(&self.http).await
    }

    /// Waits (up to 10 s) until no event is being handled; `false` if some still are.
    /// An event's handling ends after its last message is sent and, for a prompt, its
    /// id recorded, so a reply to that prompt is understood from then on.
    pub async fn settled(&self) -> bool {
        self.shared.in_flight.wait_idle(DRAIN_TIMEOUT).await
    }

    /// The counters of this bot, for the metrics endpoint.
    pub fn metrics(&self) -> Arc<Metrics> {
        self.shared.metrics.clone()
    }

    /// Whether this process has registered the commands.
    pub fn commands_registered(&self) -> bool {
        self.shared.registered.load(Ordering::SeqCst)
    }

    /// Stops the shards (close 1000), the sweeper and the memory giver, and waits for the answers in
    /// flight. Sessions are stored at every step, so nothing else needs saving.
    pub async fn shutdown(self) {
        let _ = self.stop.send(true);
        self.sweeper.abort();
        self.giver.abort();
        match tokio::time::timeout(DRAIN_TIMEOUT, self.gateway).await {
            Ok(Ok(Ok(()))) => {}
            Ok(Ok(Err(error))) => tracing::warn!(error = %error, "the gateway ended with an error"),
            Ok(Err(error)) => tracing::warn!(error = %error, "the gateway task failed"),
            Err(_) => tracing::warn!("the gateway did not stop in time"),
        }
        if !self.shared.in_flight.wait_idle(DRAIN_TIMEOUT).await {
            tracing::warn!("answers still in flight at shutdown were abandoned");
        }
    }

    /// Runs until `stop` completes (a signal), then shuts down; or until the gateway
    /// ends by itself (a fatal close, such as an invalid token), which is an error.
    pub async fn run_until(mut self, stop: impl Future<Output = ()>) -> anyhow::Result<()> {
        tokio::select! {
            () = stop => {
                self.shutdown().await;
                Ok(())
            }
            ended = &mut self.gateway => {
                self.sweeper.abort();
                self.giver.abort();
                self.shared.in_flight.wait_idle(DRAIN_TIMEOUT).await;
                match ended {
                    Ok(Ok(())) => Ok(()),
                    Ok(Err(error)) => Err(anyhow::Error::new(error).context("the Discord gateway stopped")),
                    Err(error) => Err(anyhow::Error::new(error).context("the Discord gateway task failed")),
                }
            }
        }
    }
}
