//! What the fake records for tests to inspect: requests, messages, callbacks, gateway
//! traffic and broken rules.

use std::fmt;

use serde_json::Value;

/// One REST request the bot made, with the status the fake answered.
#[derive(Clone, Debug)]
pub struct RecordedRequest {
    /// `GET`, `POST`, ...
    pub method: String,
    /// The path without the `/api/v10` prefix, e.g. `/channels/5/messages`.
    pub path: String,
    /// The query string without `?`, if any.
    pub query: Option<String>,
    /// The `Authorization` header (`Bot <token>`), if sent.
    pub authorization: Option<String>,
    /// The JSON body (for multipart requests, the `payload_json` part); `Null` if none.
    pub body: Value,
    /// Files uploaded in a multipart request.
    pub files: Vec<CdnFile>,
    /// The status the fake answered.
    pub status: u16,
}

/// A file served by the fake's CDN route, registered by a test or uploaded by the bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CdnFile {
    /// The attachment id.
    pub id: u64,
    /// The file name.
    pub filename: String,
    /// The size in bytes.
    pub size: u64,
    /// The MIME type the CDN route answers with.
    pub content_type: String,
    /// The loopback URL serving the bytes (`Attachment::url` in serenity).
    pub url: String,
}

/// Where a message the bot sent came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// `POST /channels/{id}/messages`: a regular message, which members can reply to with
    /// the message-content exemption.
    Channel,
    /// The original response of an interaction (callback type 4 or 5).
    InteractionResponse,
    /// A follow-up through the interaction's webhook.
    Followup,
}

/// A mention Discord would turn into a notification.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ping {
    /// `@everyone` or `@here`.
    Everyone,
    /// `<@id>` or `<@!id>`.
    User(u64),
    /// `<@&id>`.
    Role(u64),
    /// The author of the message replied to.
    RepliedUser,
}

/// A message the bot sent, as it stands now (after edits).
#[derive(Clone, Debug)]
pub struct SentMessage {
    /// The message id.
    pub id: u64,
    /// The channel it is in.
    pub channel_id: u64,
    /// How it was sent.
    pub origin: Origin,
    /// The interaction it answers, for responses and follow-ups.
    pub interaction_id: Option<u64>,
    /// The content.
    pub content: String,
    /// The embeds as sent.
    pub embeds: Vec<Value>,
    /// The action rows as sent.
    pub components: Vec<Value>,
    /// `allowed_mentions` of the latest request that wrote this message (`None`: not sent).
    pub allowed_mentions: Option<Value>,
    /// The message flags (64 = ephemeral, 128 = loading for a deferred response).
    pub flags: u64,
    /// `message_reference` as sent, for replies.
    pub message_reference: Option<Value>,
    /// Files attached.
    pub attachments: Vec<CdnFile>,
    /// Who the latest write would have pinged.
    pub pings: Vec<Ping>,
    /// How many times it was edited.
    pub edits: u32,
    /// Whether it was deleted.
    pub deleted: bool,
    /// The message object the fake answers with (and puts in button interactions).
    pub object: Value,
}

impl SentMessage {
    /// Whether only the invoking user can see it (flag 64).
    pub fn is_ephemeral(&self) -> bool {
        self.flags & crate::rules::FLAG_EPHEMERAL != 0
    }

    /// Every `custom_id` of the message's components, row by row.
    pub fn custom_ids(&self) -> Vec<String> {
        let mut ids = Vec::new();
        for row in &self.components {
            let Some(children) = row.get("components").and_then(Value::as_array) else {
                continue;
            };
            for child in children {
                if let Some(id) = child.get("custom_id").and_then(Value::as_str) {
                    ids.push(id.to_owned());
                }
            }
        }
        ids
    }
}

/// One call of `POST /interactions/{id}/{token}/callback`, accepted or not.
#[derive(Clone, Debug)]
pub struct Callback {
    /// The interaction answered.
    pub interaction_id: u64,
    /// The response type: 4 message, 5 deferred message, 6 deferred update, 7 update,
    /// 8 autocomplete result, 9 modal.
    pub kind: u64,
    /// The `data` object of the response (`Null` if absent).
    pub data: Value,
    /// The status the fake answered: 204 when accepted.
    pub status: u16,
    /// Discord's JSON error code when refused (10062, 40060, 50035, ...).
    pub error_code: Option<u32>,
    /// When the fake received it, in real time (not moved by `advance_time`): load
    /// generators measure latency from their dispatch to this.
    pub received_at: std::time::Instant,
}

impl Callback {
    /// Whether the fake accepted it (204).
    pub fn accepted(&self) -> bool {
        self.status == 204
    }
}

/// A rule of Discord's that a request broke (or a route the fake does not know).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Rule {
    /// Content over 2,000 characters.
    ContentTooLong,
    /// A message with no content, embed, component or file.
    EmptyMessage,
    /// More than 10 embeds, or an embed field over its limit, or more than 6,000
    /// characters across a message's embeds.
    EmbedLimit,
    /// A `custom_id` of 0 or more than 100 characters.
    CustomIdLength,
    /// Two components of one message with the same `custom_id`.
    CustomIdDuplicate,
    /// More than 5 action rows, an empty row or more than 5 buttons in a row, a select
    /// sharing its row, or a component that is not in an action row.
    ComponentLayout,
    /// A select menu without options or with more than 25, an option's label, value
    /// (1–100) or description (≤ 100) out of bounds, a placeholder over 150 characters,
    /// or `min_values`/`max_values` outside 0–25 / 1–25, reversed, or above the options.
    SelectOptions,
    /// A button label over 80 characters, or a button with neither label nor emoji.
    ButtonLabel,
    /// An autocomplete answer with more than 25 choices, or a choice whose name (1–100)
    /// or string value (≤ 100) is out of bounds.
    AutocompleteChoices,
    /// More than 10 files on a message, an attachment description over 1,024
    /// characters, or a file over 10 MiB (`413`, code 40005).
    AttachmentLimit,
    /// A channel message where the bot lacks View Channel (`403`, 50001), Send Messages
    /// (Send Messages in Threads in a thread), Read Message History for a reply, or
    /// Attach Files for files (`403`, 50013).
    MissingPermissions,
    /// A reply whose referenced message does not exist (any more), sent without
    /// `fail_if_not_exists: false` (`400`, 50035).
    UnknownReference,
    /// A modal with a bad title, custom id, rows or text inputs (label, placeholder over
    /// 100, `min_length` over `max_length`, lengths over 4,000).
    ModalInvalid,
    /// A callback type that the interaction's type does not allow (a modal in answer to a
    /// modal submit, a message in answer to autocomplete, ...).
    ResponseTypeNotAllowed,
    /// The first callback came after the deadline (Discord: 3 s): 404, code 10062.
    InteractionDeadline,
    /// A second callback for one interaction: 400, code 40060.
    AlreadyAcknowledged,
    /// A callback or webhook call for an interaction the fake never sent.
    UnknownInteraction,
    /// A follow-up or edit before the interaction was acknowledged, or of a message that
    /// does not exist.
    UnknownMessage,
    /// A follow-up or edit after the token's lifetime (Discord: 15 min).
    TokenExpired,
    /// A message that would ping what the [`MentionPolicy`](crate::MentionPolicy) forbids.
    WouldPing,
    /// A wrong or missing token.
    Unauthorized,
    /// A route the fake does not serve.
    UnknownRoute,
    /// A gateway payload the fake could not accept (bad shard, unknown opcode, ...).
    Gateway,
    /// A command registration Discord refuses: a name (of a command, option or choice's
    /// option) breaking `^[-_'\p{L}\p{N}]{1,32}$` or not lower case, a description
    /// outside 1–100 characters, a choice name outside 1–100, or a localization under a
    /// locale Discord does not know or breaking the same rules.
    CommandInvalid,
}

/// One broken rule, with what broke it.
#[derive(Clone, Debug)]
pub struct Violation {
    /// The rule.
    pub rule: Rule,
    /// A sentence saying what was wrong.
    pub detail: String,
    /// `METHOD /path` of the request, or `gateway`.
    pub source: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} at {}: {}", self.rule, self.source, self.detail)
    }
}

/// Something that happened on the gateway, in order.
#[derive(Clone, Debug, PartialEq)]
pub enum GatewayRecord {
    /// A WebSocket connection was opened (the fake sent HELLO).
    Connected {
        /// The connection number, counted from 1.
        connection: u64,
    },
    /// The bot sent IDENTIFY.
    Identify {
        /// The connection it came on.
        connection: u64,
        /// `[shard, total]` it asked for.
        shard: [u32; 2],
        /// The intents bits.
        intents: u64,
        /// The whole `d` object.
        payload: Value,
    },
    /// The fake answered IDENTIFY with READY.
    Ready {
        /// The shard.
        shard: u32,
        /// The new session id.
        session_id: String,
    },
    /// The bot sent RESUME.
    Resume {
        /// The connection it came on.
        connection: u64,
        /// The session it asked for.
        session_id: String,
        /// The last sequence number it saw.
        seq: u64,
    },
    /// The fake answered RESUME: replayed the missed events, then RESUMED.
    Resumed {
        /// The shard.
        shard: u32,
        /// How many events it replayed.
        replayed: usize,
    },
    /// The bot sent a heartbeat.
    Heartbeat {
        /// The shard (`None` before IDENTIFY or RESUME).
        shard: Option<u32>,
        /// The `d` sequence number.
        seq: Option<u64>,
        /// Whether the fake acknowledged it.
        acked: bool,
    },
    /// The fake sent a dispatch.
    Dispatch {
        /// The shard.
        shard: u32,
        /// The event name.
        event: String,
        /// Its sequence number.
        seq: u64,
    },
    /// The fake sent op 7 RECONNECT.
    ReconnectSent {
        /// The shard.
        shard: u32,
    },
    /// The fake sent op 9 INVALID_SESSION.
    InvalidSessionSent {
        /// The shard (`None` for a RESUME of an unknown session).
        shard: Option<u32>,
        /// The `d` flag: whether the bot may resume.
        resumable: bool,
    },
    /// A connection ended.
    Closed {
        /// The connection.
        connection: u64,
        /// The close code, if a close frame was sent by either side.
        code: Option<u16>,
        /// Whether the fake closed it (rather than the bot).
        by_fake: bool,
    },
}

/// A wait that ran out of time.
#[derive(Clone, Debug)]
pub struct Timeout {
    /// What was waited for.
    pub waited_for: String,
}

impl fmt::Display for Timeout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "fake-discord: timed out waiting for {}", self.waited_for)
    }
}

impl std::error::Error for Timeout {}
