//! [`FakeDiscord`]: starting the server and everything a test does with it.

use std::io;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::routing::get;
use axum::serve::ListenerExt as _;
use serde_json::Value;
use tokio::task::JoinHandle;

use crate::config::FakeConfig;
use crate::gateway;
use crate::payloads::{self, Frame, Invoker, Opt};
use crate::records::{
    Callback, CdnFile, GatewayRecord, RecordedRequest, SentMessage, Timeout, Violation,
};
use crate::rest;
use crate::rules::{self, snowflake};
use crate::state::{Inner, ScriptedRateLimit, Shared};

/// A fake Discord serving REST and the gateway on `127.0.0.1:<free port>`.
///
/// One per test: each binds its own port, so tests run in parallel. Dropping it stops the
/// server; [`FakeDiscord::shutdown`] also waits for it.
pub struct FakeDiscord {
    shared: Arc<Shared>,
    server: Option<JoinHandle<()>>,
}

impl FakeDiscord {
    /// Binds `127.0.0.1:0` and starts serving.
    ///
    /// # Panics
    ///
    /// When no loopback port can be bound; use [`FakeDiscord::try_start`] to handle that.
    pub async fn start(config: FakeConfig) -> FakeDiscord {
        match FakeDiscord::try_start(config).await {
            Ok(fake) => fake,
            Err(error) => panic!("fake-discord: cannot bind 127.0.0.1:0: {error}"),
        }
    }

    /// Binds `127.0.0.1:0` and starts serving, or says why it could not.
    pub async fn try_start(config: FakeConfig) -> io::Result<FakeDiscord> {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0)).await?;
        let address = listener.local_addr()?;
        // Small frames and answers go out at once, as from Discord's servers; with
        // Nagle's algorithm they could wait for the client's delayed ACK (40 ms).
        let listener = listener.tap_io(|stream| {
            if let Err(error) = stream.set_nodelay(true) {
                tracing::debug!(%error, "cannot set TCP_NODELAY");
            }
        });
        let shared = Arc::new(Shared::new(config, format!("http://{address}")));
        let router = Router::new()
            .route("/ws", get(gateway::upgrade))
            .fallback(rest::handle)
            // Discord reads bodies past the per-file limit and answers 413 itself.
            .layer(axum::extract::DefaultBodyLimit::max(rest::MAX_BODY_BYTES))
            .with_state(shared.clone());
        let mut stop = shared.shutdown.subscribe();
        let server = tokio::spawn(async move {
            let stopped = async move {
                // An error means the handle is gone, which is a stop too.
                let _ = stop.changed().await;
            };
            if let Err(error) = axum::serve(listener, router)
                .with_graceful_shutdown(stopped)
                .await
            {
                tracing::warn!(%error, "fake-discord server ended");
            }
        });
        Ok(FakeDiscord {
            shared,
            server: Some(server),
        })
    }

    /// The base for serenity's `HttpBuilder::proxy`: `http://127.0.0.1:PORT`. Use it
    /// together with `ratelimiter_disabled(true)` (see the crate docs).
    pub fn api_base(&self) -> String {
        self.shared.base_url.clone()
    }

    /// The gateway URL answered by `GET /gateway`: `ws://127.0.0.1:PORT/ws`.
    pub fn gateway_url(&self) -> String {
        gateway::gateway_url(&self.shared.base_url)
    }

    /// The configuration it runs with.
    pub fn config(&self) -> &FakeConfig {
        &self.shared.config
    }

    fn with<R>(&self, change: impl FnOnce(&mut Inner, &crate::state::Ctx<'_>) -> R) -> R {
        self.shared.with(change)
    }

    fn read<R>(&self, look: impl FnOnce(&Inner) -> R) -> R {
        self.shared.read(look)
    }

    // ----- dispatching -----

    /// Sends a gateway dispatch (`op 0`, `t = event`) to the shard that owns it:
    /// `(guild_id >> 22) % shard_count`, or shard 0 when `data` has no `guild_id` (DMs).
    /// It waits in a queue until that shard has a live session, and gets the session's next
    /// sequence number when sent. An INTERACTION_CREATE starts its deadline when sent.
    pub fn dispatch(&self, event: &str, data: Value) {
        self.with(|inner, ctx| {
            let shard = inner.shard_for(&data);
            inner.dispatch(ctx, shard, event, data);
        });
    }

    /// Like [`FakeDiscord::dispatch`], to a chosen shard.
    pub fn dispatch_to_shard(&self, shard: u32, event: &str, data: Value) {
        self.with(|inner, ctx| inner.dispatch(ctx, shard, event, data));
    }

    /// Dispatches an INTERACTION_CREATE and returns the interaction's id.
    pub fn dispatch_interaction(&self, interaction: Value) -> u64 {
        let id = interaction.get("id").and_then(snowflake).unwrap_or(0);
        self.dispatch("INTERACTION_CREATE", interaction);
        id
    }

    /// Dispatches a MESSAGE_CREATE and returns the message's id.
    pub fn dispatch_message(&self, message: Value) -> u64 {
        let id = message.get("id").and_then(snowflake).unwrap_or(0);
        self.dispatch("MESSAGE_CREATE", message);
        id
    }

    /// Dispatches the GUILD_CREATE of a server to the shard that owns it, as Discord
    /// does for every server of READY once the shard is connected. A session without
    /// the `GUILDS` intent never receives it.
    pub fn dispatch_guild_create(&self, shape: &crate::GuildShape) {
        let config = self.config();
        let data = crate::guilds::guild_create(shape, config.bot_user_id, &config.bot_username);
        let shard = self.shard_for_guild(shape.id);
        self.dispatch_to_shard(shard, "GUILD_CREATE", data);
    }

    /// The shard a guild's events go to.
    pub fn shard_for_guild(&self, guild_id: u64) -> u32 {
        self.read(|inner| inner.shard_for(&serde_json::json!({"guild_id": guild_id.to_string()})))
    }

    // ----- payload builders -----

    fn frame_ids(&self) -> (u64, String) {
        let id = self.with(|inner, _| inner.next_id());
        (id, format!("fake-token-{id}"))
    }

    fn command_id(&self, command: &str, guild: Option<u64>) -> u64 {
        let registered = self.read(|inner| {
            let find = |key: Option<u64>| {
                inner
                    .commands
                    .get(&key)?
                    .iter()
                    .find(|c| c.get("name").and_then(Value::as_str) == Some(command))?
                    .get("id")
                    .and_then(snowflake)
            };
            guild.and_then(|g| find(Some(g))).or_else(|| find(None))
        });
        registered.unwrap_or_else(|| self.with(|inner, _| inner.next_id()))
    }

    fn command_payload(&self, kind: u64, who: &Invoker, command: &str, options: &[Opt]) -> Value {
        let (interaction_id, token) = self.frame_ids();
        let frame = Frame {
            application_id: self.config().application_id,
            interaction_id,
            token: &token,
        };
        let command_id = self.command_id(command, who.guild_id);
        payloads::command_interaction(&frame, kind, who, command_id, command, options)
    }

    /// A slash command interaction (type 2) from `who`. The command id is the one the bot
    /// registered under that name, if it did.
    pub fn interaction_slash(&self, who: &Invoker, command: &str, options: Vec<Opt>) -> Value {
        self.command_payload(rules::INTERACTION_COMMAND, who, command, &options)
    }

    /// An autocomplete interaction (type 4); mark the option being typed with
    /// [`Opt::focused`].
    pub fn interaction_autocomplete(
        &self,
        who: &Invoker,
        command: &str,
        options: Vec<Opt>,
    ) -> Value {
        self.command_payload(rules::INTERACTION_AUTOCOMPLETE, who, command, &options)
    }

    /// A button press (type 3, component type 2) on a message the bot sent.
    pub fn interaction_button(
        &self,
        who: &Invoker,
        message: &SentMessage,
        custom_id: &str,
    ) -> Value {
        let (interaction_id, token) = self.frame_ids();
        let frame = Frame {
            application_id: self.config().application_id,
            interaction_id,
            token: &token,
        };
        payloads::component_interaction(&frame, who, &message.object, custom_id, 2, None)
    }

    /// A string-select choice (type 3, component type 3) on a message the bot sent.
    pub fn interaction_select(
        &self,
        who: &Invoker,
        message: &SentMessage,
        custom_id: &str,
        values: &[&str],
    ) -> Value {
        let (interaction_id, token) = self.frame_ids();
        let frame = Frame {
            application_id: self.config().application_id,
            interaction_id,
            token: &token,
        };
        payloads::component_interaction(&frame, who, &message.object, custom_id, 3, Some(values))
    }

    /// A modal submit (type 5) with one text field per `(custom_id, value)`; `message` is
    /// the message whose button opened the modal, if any.
    pub fn interaction_modal_submit(
        &self,
        who: &Invoker,
        custom_id: &str,
        fields: &[(&str, &str)],
        message: Option<&SentMessage>,
    ) -> Value {
        let (interaction_id, token) = self.frame_ids();
        let frame = Frame {
            application_id: self.config().application_id,
            interaction_id,
            token: &token,
        };
        payloads::modal_submit_interaction(
            &frame,
            who,
            custom_id,
            fields,
            message.map(|m| &m.object),
        )
    }

    /// A MESSAGE_CREATE from `who`, with files registered by [`FakeDiscord::add_attachment`].
    pub fn message_create(&self, who: &Invoker, content: &str, attachments: &[CdnFile]) -> Value {
        let id = self.with(|inner, _| inner.next_id());
        payloads::message_create(id, who, content, attachments, None, None)
    }

    /// A reply (type 19) from `who` to a message the bot sent. `ping` is the user's
    /// "ping on reply" switch: it puts the bot in `mentions`, which the message-content
    /// exemption for replies needs.
    pub fn message_create_reply(
        &self,
        who: &Invoker,
        content: &str,
        replied_to: &SentMessage,
        ping: bool,
    ) -> Value {
        let id = self.with(|inner, _| inner.next_id());
        let config = self.config();
        let bot = payloads::user_json(config.bot_user_id, &config.bot_username, true);
        payloads::message_create(
            id,
            who,
            content,
            &[],
            Some(&replied_to.object),
            ping.then_some(&bot),
        )
    }

    // ----- CDN -----

    /// Serves `bytes` from the fake's CDN route and returns the file (its `url` is what a
    /// serenity `Attachment::download` fetches).
    pub fn add_attachment(&self, filename: &str, bytes: impl Into<Vec<u8>>) -> CdnFile {
        let bytes = bytes.into();
        self.with(|inner, ctx| {
            rest::store_file(
                inner,
                ctx,
                filename,
                rest::content_type_for(filename),
                bytes,
            )
        })
    }

    // ----- channels -----

    /// Sets what the bot may do in `channel_id` (permission bits, see [`permissions`]):
    /// channel messages there are refused as Discord refuses them (`403`, 50001 without
    /// View Channel, 50013 without Send Messages, Read Message History for a reply or
    /// Attach Files for files), and interactions from there carry these bits as
    /// `app_permissions`. Channels never set allow everything.
    ///
    /// [`permissions`]: crate::permissions
    pub fn set_bot_permissions(&self, channel_id: u64, bits: u64) {
        self.set_channel(channel_id, bits, false);
    }

    /// Like [`set_bot_permissions`](Self::set_bot_permissions), for a thread: posting
    /// needs Send Messages in Threads instead of Send Messages.
    pub fn set_thread_permissions(&self, channel_id: u64, bits: u64) {
        self.set_channel(channel_id, bits, true);
    }

    fn set_channel(&self, channel_id: u64, permissions: u64, is_thread: bool) {
        self.with(|inner, _| {
            let rules = crate::state::ChannelRules {
                permissions,
                is_thread,
            };
            inner.channels.insert(channel_id, rules);
        });
    }

    /// Deletes a message: one the fake dispatched as a user's (by `dispatch_message`) or
    /// one the bot sent. A reply to it is then refused unless it says
    /// `fail_if_not_exists: false`.
    pub fn delete_message(&self, message_id: u64) {
        self.with(|inner, _| {
            if let Some(deleted) = inner.user_messages.get_mut(&message_id) {
                *deleted = true;
            }
            if let Some(message) = inner.messages.get_mut(&message_id) {
                message.deleted = true;
            }
        });
    }

    // ----- records -----

    /// Every REST request so far, in order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.read(|inner| inner.requests.clone())
    }

    /// Every message the bot sent (including interaction responses), oldest first.
    pub fn messages(&self) -> Vec<SentMessage> {
        self.read(|inner| inner.messages.values().cloned().collect())
    }

    /// The messages the bot sent in one channel, oldest first.
    pub fn messages_in(&self, channel_id: u64) -> Vec<SentMessage> {
        self.read(|inner| {
            inner
                .messages
                .values()
                .filter(|m| m.channel_id == channel_id)
                .cloned()
                .collect()
        })
    }

    /// One message by id.
    pub fn message(&self, id: u64) -> Option<SentMessage> {
        self.read(|inner| inner.messages.get(&id).cloned())
    }

    /// Every interaction callback, accepted or not, in order.
    pub fn callbacks(&self) -> Vec<Callback> {
        self.read(|inner| inner.callbacks.clone())
    }

    /// The commands the bot registered, globally (`None`) or for a guild.
    pub fn commands(&self, guild_id: Option<u64>) -> Vec<Value> {
        self.read(|inner| inner.commands.get(&guild_id).cloned().unwrap_or_default())
    }

    /// Every broken rule so far.
    pub fn violations(&self) -> Vec<Violation> {
        self.read(|inner| inner.violations.clone())
    }

    /// Returns the broken rules so far and forgets them (after a test broke one on purpose).
    pub fn take_violations(&self) -> Vec<Violation> {
        self.with(|inner, _| std::mem::take(&mut inner.violations))
    }

    /// Panics with the list of broken rules, if there are any.
    #[track_caller]
    pub fn assert_no_violations(&self) {
        let violations = self.violations();
        if violations.is_empty() {
            return;
        }
        let list: Vec<String> = violations.iter().map(ToString::to_string).collect();
        panic!(
            "fake-discord recorded {} violation(s):\n  {}",
            list.len(),
            list.join("\n  ")
        );
    }

    /// Everything that happened on the gateway, in order.
    pub fn gateway_log(&self) -> Vec<GatewayRecord> {
        self.read(|inner| inner.gateway_log.clone())
    }

    /// How many IDENTIFYs the fake received (a RESUME is not one).
    pub fn identify_count(&self) -> usize {
        self.read(|inner| {
            inner
                .gateway_log
                .iter()
                .filter(|r| matches!(r, GatewayRecord::Identify { .. }))
                .count()
        })
    }

    // ----- waiting -----

    /// Waits until `check` finds something in the state, re-checking on every change.
    async fn wait_for<T>(
        &self,
        timeout: Duration,
        what: &str,
        mut check: impl FnMut(&Inner) -> Option<T>,
    ) -> Result<T, Timeout> {
        let mut changes = self.shared.changed.subscribe();
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            if let Some(found) = self.read(&mut check) {
                return Ok(found);
            }
            // Subscribing before the check means no change between the two is missed.
            match tokio::time::timeout_at(deadline, changes.changed()).await {
                Ok(Ok(())) => {}
                Ok(Err(_)) | Err(_) => {
                    return Err(Timeout {
                        waited_for: what.to_owned(),
                    });
                }
            }
        }
    }

    /// The first request (already made or yet to come) that `predicate` accepts.
    pub async fn wait_request(
        &self,
        timeout: Duration,
        predicate: impl Fn(&RecordedRequest) -> bool,
    ) -> Result<RecordedRequest, Timeout> {
        self.wait_for(timeout, "a matching request", |inner| {
            inner.requests.iter().find(|r| predicate(r)).cloned()
        })
        .await
    }

    /// The first callback for this interaction, accepted or not (waits up to
    /// `config.wait_timeout`).
    pub async fn wait_callback(&self, interaction_id: u64) -> Result<Callback, Timeout> {
        let what = format!("a callback for interaction {interaction_id}");
        self.wait_for(self.config().wait_timeout, &what, |inner| {
            inner
                .callbacks
                .iter()
                .find(|c| c.interaction_id == interaction_id)
                .cloned()
        })
        .await
    }

    /// The first message the bot sent (in its current state) that `predicate` accepts
    /// (waits up to `config.wait_timeout`).
    pub async fn wait_message(
        &self,
        predicate: impl Fn(&SentMessage) -> bool,
    ) -> Result<SentMessage, Timeout> {
        self.wait_for(self.config().wait_timeout, "a matching message", |inner| {
            inner.messages.values().find(|m| predicate(m)).cloned()
        })
        .await
    }

    /// The first gateway record (already logged or yet to come) that `predicate` accepts.
    pub async fn wait_gateway(
        &self,
        timeout: Duration,
        predicate: impl Fn(&GatewayRecord) -> bool,
    ) -> Result<GatewayRecord, Timeout> {
        self.wait_for(timeout, "a matching gateway record", |inner| {
            inner.gateway_log.iter().find(|r| predicate(r)).cloned()
        })
        .await
    }

    /// Waits until `shard` has a session live on a connection (after READY or RESUMED).
    pub async fn wait_ready(&self, shard: u32, timeout: Duration) -> Result<(), Timeout> {
        let what = format!("shard {shard} to be connected");
        self.wait_for(timeout, &what, |inner| {
            let session_id = inner.shards.get(shard as usize)?.session_id.as_ref()?;
            inner.sessions.get(session_id)?.connection.map(|_| ())
        })
        .await
    }

    // ----- OAuth2 -----

    /// Registers the application for the OAuth2 flow (its secret, its redirect URIs).
    pub fn set_oauth_app(&self, app: crate::OAuthApp) {
        self.with(|inner, _| inner.oauth.app = Some(app));
    }

    /// Adds a person who can grant on `/oauth2/authorize`; the bot reads their roles
    /// in each of their servers through `GET /guilds/{id}/members/{user}`.
    pub fn add_oauth_user(&self, user: crate::OAuthUser) {
        self.with(|inner, _| inner.oauth.users.push(user));
    }

    /// Replaces a test user's servers (a permission or role changed, or they left).
    pub fn set_oauth_guilds(&self, user_id: u64, guilds: Vec<crate::OAuthGuild>) {
        self.with(|inner, _| {
            if let Some(user) = inner.oauth.users.iter_mut().find(|u| u.id == user_id) {
                user.guilds = guilds;
            }
        });
    }

    /// Sets a server's channels and their permission overwrites, as `GET
    /// /guilds/{id}/channels` and `GET /channels/{id}` answer them.
    pub fn set_guild_channels(&self, guild_id: u64, channels: Vec<crate::GuildChannel>) {
        self.with(|inner, _| inner.guild_channels.set(guild_id, channels));
    }

    // ----- time -----

    /// Moves the fake's clock forward: interactions already sent age by `by`, so a test
    /// checks the 3-second deadline and the 15-minute token without waiting.
    pub fn advance_time(&self, by: Duration) {
        self.with(|inner, _| inner.advance_clock(by));
    }

    // ----- faults -----

    /// Sends op 7 RECONNECT on the shard's connection; `false` if it has none.
    pub fn send_reconnect(&self, shard: u32) -> bool {
        self.with(|inner, _| gateway::send_reconnect(inner, shard))
    }

    /// Sends op 9 INVALID_SESSION with `d = resumable`; when `false`, the session is
    /// forgotten and the bot must IDENTIFY again. `false` if the shard has no connection.
    pub fn invalidate_session(&self, shard: u32, resumable: bool) -> bool {
        self.with(|inner, _| gateway::invalidate_session(inner, shard, resumable))
    }

    /// Closes the shard's connection with a close code: 4000 lets the bot resume, 4004
    /// (authentication failed) is fatal for serenity. `false` if the shard has no connection.
    pub fn close_gateway(&self, shard: u32, code: u16) -> bool {
        self.with(|inner, _| gateway::close_shard(inner, shard, code))
    }

    /// Leaves the shard's next `count` heartbeats unacknowledged; serenity then reconnects
    /// at its next heartbeat.
    pub fn skip_heartbeat_acks(&self, shard: u32, count: u32) {
        self.with(|inner, _| {
            if let Some(state) = inner.shards.get_mut(shard as usize) {
                state.skip_acks += count;
            }
        });
    }

    /// Answers the next `count` requests whose path contains `path_contains` with 429, a
    /// `retry_after` in seconds, and `x-ratelimit-global` when `global`. The refused request
    /// has no effect (a refused callback does not acknowledge the interaction).
    pub fn rate_limit_next(
        &self,
        path_contains: &str,
        count: u32,
        retry_after: Duration,
        global: bool,
    ) {
        let limit = ScriptedRateLimit {
            path_contains: path_contains.to_owned(),
            retry_after: retry_after.as_secs_f64(),
            global,
            remaining: count,
        };
        self.with(|inner, _| inner.rate_limits.push(limit));
    }

    // ----- stopping -----

    /// Closes every gateway connection (code 1001) and stops the server.
    pub async fn shutdown(mut self) {
        self.shared.shutdown.send_replace(true);
        if let Some(server) = self.server.take() {
            // The server task never panics on its own; a join error only means it was aborted.
            let _ = server.await;
        }
    }
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        self.shared.shutdown.send_replace(true);
        if let Some(server) = self.server.take() {
            server.abort();
        }
    }
}
