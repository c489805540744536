//! A server as the gateway's GUILD_CREATE describes it when a shard starts: Discord
//! lists each server as unavailable in READY, then sends one GUILD_CREATE per server
//! with its channels, roles and the members the session's intents allow.
//!
//! Discord sends GUILD_CREATE only to sessions that asked for the `GUILDS` intent (the
//! fake drops it otherwise, as it drops every event a session did not ask for), and
//! without the privileged `GUILD_MEMBERS` intent the member list holds only the bot's
//! own member.

use serde_json::{Value, json};

use crate::payloads::{timestamp_now, user_json};

/// The shape of one server: how many of each kind of channel and role it has, and how
/// many members Discord counts.
#[derive(Debug, Clone)]
pub struct GuildShape {
    pub id: u64,
    pub name: String,
    /// Text channels, spread over the categories.
    pub text_channels: u32,
    pub voice_channels: u32,
    pub categories: u32,
    /// Roles besides `@everyone` (whose id is the server's).
    pub roles: u32,
    pub member_count: u64,
    pub locale: String,
}

impl GuildShape {
    /// A typical role-playing community: a few categories of text and voice channels,
    /// a dozen roles, a few hundred members.
    pub fn typical(id: u64) -> GuildShape {
        GuildShape {
            id,
            name: format!("Table {id}"),
            text_channels: 14,
            voice_channels: 4,
            categories: 4,
            roles: 12,
            member_count: 320,
            locale: "en-US".to_owned(),
        }
    }

    /// The first text channel's id: interactions of this server come from it.
    pub fn first_text_channel(&self) -> u64 {
        self.channel_id(self.categories)
    }

    /// Channel and role ids: the server's id plus a small number, unique per server
    /// while servers are at least 1,024 ids apart (snowflakes of distinct seconds).
    fn channel_id(&self, index: u32) -> u64 {
        self.id + 1 + u64::from(index)
    }

    fn role_id(&self, index: u32) -> u64 {
        self.id + 512 + u64::from(index)
    }
}

/// The GUILD_CREATE payload of `shape` for a session without `GUILD_MEMBERS` and
/// `GUILD_PRESENCES`: the bot's own member only, no presences.
pub(crate) fn guild_create(shape: &GuildShape, bot_user_id: u64, bot_username: &str) -> Value {
    let guild_id = shape.id.to_string();
    let mut channels = Vec::new();
    for index in 0..shape.categories {
        channels.push(channel(shape, index, 4, None, &format!("category-{index}")));
    }
    let parent =
        |index: u32| (shape.categories > 0).then(|| shape.channel_id(index % shape.categories));
    for index in 0..shape.text_channels {
        let id = shape.categories + index;
        channels.push(channel(
            shape,
            id,
            0,
            parent(index),
            &format!("table-talk-{index}"),
        ));
    }
    for index in 0..shape.voice_channels {
        let id = shape.categories + shape.text_channels + index;
        let mut voice = channel(shape, id, 2, parent(index), &format!("voice-{index}"));
        voice["bitrate"] = json!(64_000);
        voice["user_limit"] = json!(0);
        voice["rtc_region"] = Value::Null;
        channels.push(voice);
    }
    let mut roles = vec![role(&guild_id, "@everyone", 0, 0x0006_3584_0e41)];
    for index in 0..shape.roles {
        let id = shape.role_id(index).to_string();
        roles.push(role(
            &id,
            &format!("role-{index}"),
            index + 1,
            0x0006_3584_0e41,
        ));
    }
    let bot_member = json!({
        "user": user_json(bot_user_id, bot_username, true),
        "nick": null,
        "avatar": null,
        "roles": [],
        "joined_at": "2024-01-01T00:00:00.000000+00:00",
        "premium_since": null,
        "deaf": false,
        "mute": false,
        "flags": 0,
        "pending": false,
    });
    json!({
        "id": guild_id,
        "name": shape.name,
        "icon": null,
        "splash": null,
        "discovery_splash": null,
        "owner_id": (shape.id + 1_000).to_string(),
        "afk_channel_id": null,
        "afk_timeout": 300,
        "verification_level": 1,
        "default_message_notifications": 1,
        "explicit_content_filter": 2,
        "roles": roles,
        "emojis": [],
        "features": ["COMMUNITY", "NEWS"],
        "mfa_level": 0,
        "application_id": null,
        "system_channel_id": shape.first_text_channel().to_string(),
        "system_channel_flags": 0,
        "rules_channel_id": null,
        "vanity_url_code": null,
        "description": null,
        "banner": null,
        "premium_tier": 1,
        "premium_subscription_count": 3,
        "preferred_locale": shape.locale,
        "public_updates_channel_id": null,
        "nsfw_level": 0,
        "stickers": [],
        "premium_progress_bar_enabled": false,
        "joined_at": timestamp_now(),
        "large": shape.member_count > 250,
        "unavailable": false,
        "member_count": shape.member_count,
        "voice_states": [],
        "members": [bot_member],
        "channels": channels,
        "threads": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
    })
}

fn channel(shape: &GuildShape, index: u32, kind: u64, parent: Option<u64>, name: &str) -> Value {
    json!({
        "id": shape.channel_id(index).to_string(),
        "type": kind,
        "name": name,
        "position": index,
        "parent_id": parent.map(|id| id.to_string()),
        "permission_overwrites": [
            {"id": shape.id.to_string(), "type": 0, "allow": "0", "deny": "2048"},
        ],
        "nsfw": false,
        "topic": null,
        "last_message_id": null,
        "rate_limit_per_user": 0,
        "flags": 0,
    })
}

fn role(id: &str, name: &str, position: u32, permissions: u64) -> Value {
    json!({
        "id": id,
        "name": name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": null, "tertiary_color": null},
        "hoist": false,
        "icon": null,
        "unicode_emoji": null,
        "position": position,
        "permissions": permissions.to_string(),
        "managed": false,
        "mentionable": false,
        "flags": 0,
    })
}
