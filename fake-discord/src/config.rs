//! What a test can choose about the fake before it starts.

use std::time::Duration;

/// Which pings the fake counts as violations.
///
/// Every message the bot sends is checked for the mentions Discord would turn into pings,
/// given its `allowed_mentions` (a message without `allowed_mentions` pings everything it
/// mentions, as on Discord). The pings are always recorded on the [`SentMessage`]; this
/// policy decides which of them are also recorded as a [`Violation`].
///
/// [`SentMessage`]: crate::SentMessage
/// [`Violation`]: crate::Violation
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MentionPolicy {
    /// `@everyone` and `@here` pings are violations; user and role pings are allowed.
    #[default]
    ForbidEveryone,
    /// Any ping is a violation (Tavern's rule: nothing the bot sends may ping).
    ForbidAll,
    /// Nothing is a violation; pings are only recorded.
    AllowAll,
}

/// Configuration of one [`FakeDiscord`](crate::FakeDiscord).
///
/// `Default` gives a single-shard Discord that accepts any token, acknowledges every
/// heartbeat, and enforces Discord's real deadlines (3 s to acknowledge, 15 min token).
#[derive(Clone, Debug)]
pub struct FakeConfig {
    /// The bot token the fake expects, without the `Bot ` prefix. `None` accepts any token.
    /// A wrong token closes the gateway with 4004 and answers REST with 401.
    pub token: Option<String>,
    /// The application id, sent in READY (serenity takes the Http's application id from it).
    pub application_id: u64,
    /// The bot user's id (the author of everything the bot sends).
    pub bot_user_id: u64,
    /// The bot user's name.
    pub bot_username: String,
    /// Total number of shards: answered by `GET /gateway/bot` and used to route
    /// dispatches, `(guild_id >> 22) % shard_count`.
    pub shard_count: u32,
    /// Guilds listed (as unavailable) in each shard's READY, filtered by shard.
    pub guilds: Vec<u64>,
    /// The `heartbeat_interval` sent in HELLO.
    pub heartbeat_interval: Duration,
    /// How long after an interaction is sent the first callback is accepted (Discord: 3 s).
    pub interaction_deadline: Duration,
    /// How long an interaction token serves follow-ups and edits (Discord: 15 min).
    pub token_lifetime: Duration,
    /// Whether IDENTIFY may ask for the privileged MESSAGE_CONTENT intent. When `false`,
    /// such an IDENTIFY is closed with 4014, as Discord does for an app without it.
    pub message_content_intent_allowed: bool,
    /// Send dispatches as zlib-compressed binary frames (serenity's payload compression).
    pub compress_dispatches: bool,
    /// Add `x-ratelimit-*` headers to every REST answer.
    pub rate_limit_headers: bool,
    /// Which pings are violations.
    pub mention_policy: MentionPolicy,
    /// How long the waits without an explicit timeout (`wait_callback`, `wait_message`)
    /// wait before giving up.
    pub wait_timeout: Duration,
}

impl Default for FakeConfig {
    fn default() -> Self {
        FakeConfig {
            token: None,
            application_id: 1_100_000_000_000_000_001,
            bot_user_id: 1_100_000_000_000_000_001,
            bot_username: "Tavern".to_owned(),
            shard_count: 1,
            guilds: Vec::new(),
            heartbeat_interval: Duration::from_millis(41_250),
            interaction_deadline: Duration::from_secs(3),
            token_lifetime: Duration::from_secs(15 * 60),
            message_content_intent_allowed: true,
            compress_dispatches: false,
            rate_limit_headers: false,
            mention_policy: MentionPolicy::ForbidEveryone,
            wait_timeout: Duration::from_secs(10),
        }
    }
}
