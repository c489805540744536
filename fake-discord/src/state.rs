//! The fake's whole state, behind one mutex, and the gateway bookkeeping that both the
//! WebSocket handler and the test handle drive.
//!
//! Every change bumps a `watch` counter; the `wait_*` functions re-check their predicate
//! on each bump, so a test wakes on the change itself instead of polling on a timer.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::io::Write;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use flate2::Compression;
use flate2::write::ZlibEncoder;
use serde_json::{Value, json};
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;

use crate::config::FakeConfig;
use crate::records::{
    Callback, CdnFile, GatewayRecord, RecordedRequest, Rule, SentMessage, Violation,
};
use crate::rules::{self, MESSAGE_CONTENT_INTENT, snowflake};

/// How many sent events a session keeps for replay on RESUME.
const REPLAY_LOG_LEN: usize = 1000;

pub(crate) struct Shared {
    pub(crate) config: FakeConfig,
    /// `http://127.0.0.1:PORT`
    pub(crate) base_url: String,
    inner: Mutex<Inner>,
    pub(crate) changed: watch::Sender<u64>,
    pub(crate) shutdown: watch::Sender<bool>,
}

impl Shared {
    pub(crate) fn new(config: FakeConfig, base_url: String) -> Self {
        let shards = (0..config.shard_count.max(1))
            .map(|_| ShardState::default())
            .collect();
        let inner = Inner {
            shards,
            next_id: FIRST_ID,
            ..Inner::default()
        };
        Shared {
            config,
            base_url,
            inner: Mutex::new(inner),
            changed: watch::channel(0).0,
            shutdown: watch::channel(false).0,
        }
    }

    /// Runs `change` on the state and wakes every waiter.
    pub(crate) fn with<R>(&self, change: impl FnOnce(&mut Inner, &Ctx<'_>) -> R) -> R {
        let result = {
            let mut inner = self.lock();
            let ctx = Ctx {
                config: &self.config,
                base_url: &self.base_url,
            };
            change(&mut inner, &ctx)
        };
        self.changed.send_modify(|version| *version += 1);
        result
    }

    /// Reads the state without waking anyone.
    pub(crate) fn read<R>(&self, look: impl FnOnce(&Inner) -> R) -> R {
        look(&self.lock())
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panicking test thread must not hide the records from the others.
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// What the state's methods need to know besides the state.
pub(crate) struct Ctx<'a> {
    pub(crate) config: &'a FakeConfig,
    pub(crate) base_url: &'a str,
}

const FIRST_ID: u64 = 1_200_000_000_000_000_000;

#[derive(Default)]
pub(crate) struct Inner {
    next_id: u64,
    next_connection: u64,
    clock_offset: Duration,
    pub(crate) requests: Vec<RecordedRequest>,
    pub(crate) violations: Vec<Violation>,
    pub(crate) messages: BTreeMap<u64, SentMessage>,
    pub(crate) callbacks: Vec<Callback>,
    pub(crate) interactions: HashMap<u64, InteractionState>,
    pub(crate) gateway_log: Vec<GatewayRecord>,
    pub(crate) shards: Vec<ShardState>,
    pub(crate) sessions: HashMap<String, Session>,
    pub(crate) connections: HashMap<u64, Connection>,
    pub(crate) files: HashMap<u64, (CdnFile, Vec<u8>)>,
    pub(crate) commands: BTreeMap<Option<u64>, Vec<Value>>,
    pub(crate) dm_channels: HashMap<u64, u64>,
    pub(crate) rate_limits: Vec<ScriptedRateLimit>,
    /// Files uploaded by the request being answered, for its record.
    pub(crate) requests_files_pending: Vec<CdnFile>,
    /// Channels where the bot's permissions were set by the test (all others: every
    /// permission).
    pub(crate) channels: HashMap<u64, ChannelRules>,
    /// Messages of users the fake dispatched, by id: whether each was deleted since.
    pub(crate) user_messages: HashMap<u64, bool>,
    /// The OAuth2 application, its test users, codes and access tokens.
    pub(crate) oauth: crate::oauth::OAuthState,
    /// Servers' channels and their overwrites (`channels.rs`).
    pub(crate) guild_channels: crate::channels::Channels,
}

/// What the bot may do in one channel, and whether the channel is a thread.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ChannelRules {
    pub(crate) permissions: u64,
    pub(crate) is_thread: bool,
}

/// One interaction the fake dispatched, and how it was answered so far.
#[derive(Clone, Debug)]
pub(crate) struct InteractionState {
    pub(crate) token: String,
    pub(crate) kind: u64,
    pub(crate) channel_id: u64,
    pub(crate) component_message: Option<u64>,
    /// When it went out on a socket; the deadline counts from here.
    pub(crate) sent_at: Option<Instant>,
    /// The callback type that acknowledged it.
    pub(crate) acked: Option<u64>,
    /// The message `@original` refers to.
    pub(crate) original: Option<u64>,
    /// A type-5 defer whose placeholder the next follow-up replaces.
    pub(crate) defer_pending: bool,
}

#[derive(Default)]
pub(crate) struct ShardState {
    /// Dispatches waiting for a live session.
    pub(crate) pending: VecDeque<(String, Value)>,
    pub(crate) session_id: Option<String>,
    /// Heartbeats to leave unacknowledged.
    pub(crate) skip_acks: u32,
}

pub(crate) struct Session {
    pub(crate) shard: u32,
    pub(crate) intents: u64,
    pub(crate) seq: u64,
    /// Sent events `(seq, frame)`, for replay on RESUME.
    pub(crate) log: VecDeque<(u64, Outbound)>,
    pub(crate) connection: Option<u64>,
    pub(crate) resumable: bool,
}

pub(crate) struct Connection {
    pub(crate) tx: mpsc::UnboundedSender<Outbound>,
    pub(crate) session_id: Option<String>,
}

#[derive(Clone, Debug)]
pub(crate) enum Outbound {
    Text(String),
    Binary(Vec<u8>),
    Close(u16, String),
}

/// A 429 the fake answers instead of the next matching request(s).
#[derive(Clone, Debug)]
pub(crate) struct ScriptedRateLimit {
    pub(crate) path_contains: String,
    pub(crate) retry_after: f64,
    pub(crate) global: bool,
    pub(crate) remaining: u32,
}

impl Inner {
    pub(crate) fn next_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    pub(crate) fn now(&self) -> Instant {
        Instant::now() + self.clock_offset
    }

    pub(crate) fn advance_clock(&mut self, by: Duration) {
        self.clock_offset += by;
    }

    pub(crate) fn violate(&mut self, rule: Rule, source: &str, detail: impl Into<String>) {
        let violation = Violation {
            rule,
            detail: detail.into(),
            source: source.to_owned(),
        };
        tracing::debug!(%violation, "fake-discord violation");
        self.violations.push(violation);
    }

    pub(crate) fn open_connection(&mut self, tx: mpsc::UnboundedSender<Outbound>) -> u64 {
        self.next_connection += 1;
        let connection = self.next_connection;
        self.connections.insert(
            connection,
            Connection {
                tx,
                session_id: None,
            },
        );
        self.gateway_log
            .push(GatewayRecord::Connected { connection });
        connection
    }

    pub(crate) fn close_connection(&mut self, connection: u64, code: Option<u16>, by_fake: bool) {
        let Some(closed) = self.connections.remove(&connection) else {
            return;
        };
        if let Some(session) = closed.session_id.and_then(|id| self.sessions.get_mut(&id))
            && session.connection == Some(connection)
        {
            session.connection = None;
        }
        self.gateway_log.push(GatewayRecord::Closed {
            connection,
            code,
            by_fake,
        });
    }

    pub(crate) fn send_raw(&mut self, connection: u64, frame: Outbound) {
        let Some(open) = self.connections.get(&connection) else {
            return;
        };
        // A closed receiver means the socket task is gone; the close is recorded there.
        let _ = open.tx.send(frame);
    }

    /// The shard a dispatch goes to: `(guild_id >> 22) % shards`, DMs to shard 0.
    pub(crate) fn shard_for(&self, data: &Value) -> u32 {
        let total = self.shards.len() as u64;
        let guild = data.get("guild_id").and_then(snowflake);
        guild.map_or(0, |guild_id| ((guild_id >> 22) % total.max(1)) as u32)
    }

    /// Queues a dispatch for `shard` and sends whatever the shard's session can take.
    pub(crate) fn dispatch(&mut self, ctx: &Ctx<'_>, shard: u32, event: &str, mut data: Value) {
        if event == "INTERACTION_CREATE" {
            self.register_interaction(&data);
            // Discord tells the bot its permissions in the channel of each interaction.
            let channel = data.get("channel_id").and_then(snowflake);
            if let Some(rules) = channel.and_then(|id| self.channels.get(&id)) {
                data["app_permissions"] = json!(rules.permissions.to_string());
            }
        }
        if event == "MESSAGE_CREATE"
            && let Some(id) = data.get("id").and_then(snowflake)
        {
            self.user_messages.insert(id, false);
        }
        let Some(state) = self.shards.get_mut(shard as usize) else {
            self.violate(Rule::Gateway, "dispatch", format!("no shard {shard}"));
            return;
        };
        state.pending.push_back((event.to_owned(), data));
        self.flush(ctx, shard);
    }

    fn register_interaction(&mut self, data: &Value) {
        let Some(id) = data.get("id").and_then(snowflake) else {
            return;
        };
        let state = InteractionState {
            token: data
                .get("token")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            kind: data.get("type").and_then(Value::as_u64).unwrap_or(0),
            channel_id: data.get("channel_id").and_then(snowflake).unwrap_or(0),
            component_message: data.pointer("/message/id").and_then(snowflake),
            sent_at: None,
            acked: None,
            original: None,
            defer_pending: false,
        };
        self.interactions.insert(id, state);
    }

    /// Sends the shard's pending dispatches if its session is live on a connection.
    pub(crate) fn flush(&mut self, ctx: &Ctx<'_>, shard: u32) {
        loop {
            let Some(state) = self.shards.get_mut(shard as usize) else {
                return;
            };
            let Some(session_id) = state.session_id.clone() else {
                return;
            };
            let live = self
                .sessions
                .get(&session_id)
                .is_some_and(|s| s.connection.is_some());
            if !live {
                return;
            }
            let Some((event, data)) = self.shards[shard as usize].pending.pop_front() else {
                return;
            };
            self.send_dispatch(ctx, &session_id, &event, data);
        }
    }

    /// Gives a dispatch the session's next sequence number and writes it to the socket.
    pub(crate) fn send_dispatch(
        &mut self,
        ctx: &Ctx<'_>,
        session_id: &str,
        event: &str,
        mut data: Value,
    ) {
        let Some(session) = self.sessions.get(session_id) else {
            return;
        };
        if !rules::intents_allow(session.intents, event, &data) {
            // Discord never sends what the session did not ask for.
            return;
        }
        if self.withholds_content(ctx, session.intents, event, &data) {
            rules::blank_message_content(&mut data);
        }
        if event == "INTERACTION_CREATE" {
            let now = self.now();
            let id = data.get("id").and_then(snowflake);
            if let Some(interaction) = id.and_then(|id| self.interactions.get_mut(&id)) {
                interaction.sent_at.get_or_insert(now);
            }
        }
        let Some(session) = self.sessions.get_mut(session_id) else {
            return;
        };
        session.seq += 1;
        let seq = session.seq;
        let shard = session.shard;
        let text = json!({"op": 0, "t": event, "s": seq, "d": data}).to_string();
        let frame = if ctx.config.compress_dispatches {
            compress(&text)
        } else {
            Outbound::Text(text)
        };
        session.log.push_back((seq, frame.clone()));
        if session.log.len() > REPLAY_LOG_LEN {
            session.log.pop_front();
        }
        let connection = session.connection;
        if let Some(connection) = connection {
            self.send_raw(connection, frame);
        }
        self.gateway_log.push(GatewayRecord::Dispatch {
            shard,
            event: event.to_owned(),
            seq,
        });
    }

    /// Discord's MESSAGE_CONTENT rule: without the intent, a bot gets message content only
    /// for its own messages, DMs, messages that mention it, and replies (with ping) to its
    /// regular (non-interaction) messages.
    fn withholds_content(&self, ctx: &Ctx<'_>, intents: u64, event: &str, message: &Value) -> bool {
        if intents & MESSAGE_CONTENT_INTENT != 0 {
            return false;
        }
        if !matches!(event, "MESSAGE_CREATE" | "MESSAGE_UPDATE") {
            return false;
        }
        let bot = ctx.config.bot_user_id;
        let from_bot = message.pointer("/author/id").and_then(snowflake) == Some(bot);
        let in_dm = message.get("guild_id").is_none();
        let content = message.get("content").and_then(Value::as_str).unwrap_or("");
        if from_bot || in_dm || rules::mentions_user(content, bot) {
            return false;
        }
        let pings_bot = message
            .get("mentions")
            .and_then(Value::as_array)
            .is_some_and(|users| {
                users
                    .iter()
                    .any(|u| u.get("id").and_then(snowflake) == Some(bot))
            });
        let replied = message
            .pointer("/message_reference/message_id")
            .and_then(snowflake);
        let replies_to_regular = replied
            .and_then(|id| self.messages.get(&id))
            .is_some_and(|m| m.origin == crate::records::Origin::Channel);
        !(pings_bot && replies_to_regular)
    }
}

fn compress(text: &str) -> Outbound {
    let mut encoder = ZlibEncoder::new(Vec::new(), Compression::fast());
    // Writing to a Vec cannot fail; fall back to text if it ever did.
    if encoder.write_all(text.as_bytes()).is_err() {
        return Outbound::Text(text.to_owned());
    }
    match encoder.finish() {
        Ok(bytes) => Outbound::Binary(bytes),
        Err(_) => Outbound::Text(text.to_owned()),
    }
}
