//! A server's channels as the bot's REST calls read them: `GET /guilds/{id}/channels`
//! (every channel of the server, threads excepted, as Discord lists them) and `GET
//! /channels/{id}` (one channel or thread), each with its `permission_overwrites` in
//! Discord's shape: `{"id", "type": 0 (role) | 1 (member), "allow", "deny"}`, the bit
//! sets as decimal strings. A test sets them with `FakeDiscord::set_guild_channels`;
//! an unknown server answers `10004 Unknown Guild`, an unknown channel `10003 Unknown
//! Channel`, as Discord does.

use std::collections::HashMap;

use serde_json::{Value, json};

/// Discord's channel types the fake lists.
pub mod kind {
    pub const TEXT: u8 = 0;
    pub const CATEGORY: u8 = 4;
    pub const PUBLIC_THREAD: u8 = 11;
}

/// Whose an overwrite is: a role's (its id; the server's id is `@everyone`) or one
/// member's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OverwriteTarget {
    Role(u64),
    Member(u64),
}

/// One permission overwrite of a channel.
#[derive(Clone, Debug)]
pub struct Overwrite {
    pub target: OverwriteTarget,
    pub allow: u64,
    pub deny: u64,
}

/// A channel of a server, as a test describes it.
#[derive(Clone, Debug)]
pub struct GuildChannel {
    pub id: u64,
    pub name: String,
    /// [`kind`]: a text channel, a category, a thread.
    pub kind: u8,
    /// The category of a channel, the channel of a thread.
    pub parent_id: Option<u64>,
    pub overwrites: Vec<Overwrite>,
}

impl GuildChannel {
    /// A text channel without overwrites.
    pub fn text(id: u64, name: &str) -> GuildChannel {
        GuildChannel {
            id,
            name: name.to_owned(),
            kind: kind::TEXT,
            parent_id: None,
            overwrites: Vec::new(),
        }
    }

    fn is_thread(&self) -> bool {
        (10..=12).contains(&self.kind)
    }
}

/// The channels of every server a test described.
#[derive(Default)]
pub(crate) struct Channels {
    guilds: HashMap<u64, Vec<GuildChannel>>,
}

impl Channels {
    pub(crate) fn set(&mut self, guild_id: u64, channels: Vec<GuildChannel>) {
        self.guilds.insert(guild_id, channels);
    }

    /// `GET /guilds/{id}/channels`: the server's channels, threads excepted.
    pub(crate) fn of_guild(&self, guild_id: u64) -> Option<Value> {
        let channels = self.guilds.get(&guild_id)?;
        Some(Value::Array(
            channels
                .iter()
                .enumerate()
                .filter(|(_, channel)| !channel.is_thread())
                .map(|(position, channel)| channel_json(guild_id, position, channel))
                .collect(),
        ))
    }

    /// `GET /channels/{id}`: the channel or thread of any server.
    pub(crate) fn channel(&self, channel_id: u64) -> Option<Value> {
        self.guilds.iter().find_map(|(guild_id, channels)| {
            let position = channels.iter().position(|c| c.id == channel_id)?;
            Some(channel_json(*guild_id, position, &channels[position]))
        })
    }
}

fn channel_json(guild_id: u64, position: usize, channel: &GuildChannel) -> Value {
    let overwrites: Vec<Value> = channel
        .overwrites
        .iter()
        .map(|overwrite| {
            let (id, kind) = match overwrite.target {
                OverwriteTarget::Role(id) => (id, 0),
                OverwriteTarget::Member(id) => (id, 1),
            };
            json!({
                "id": id.to_string(),
                "type": kind,
                "allow": overwrite.allow.to_string(),
                "deny": overwrite.deny.to_string(),
            })
        })
        .collect();
    json!({
        "id": channel.id.to_string(),
        "type": channel.kind,
        "guild_id": guild_id.to_string(),
        "name": channel.name,
        "position": position,
        "parent_id": channel.parent_id.map(|id| id.to_string()),
        "permission_overwrites": overwrites,
        "nsfw": false,
        "topic": null,
        "last_message_id": null,
        "rate_limit_per_user": 0,
        "flags": 0,
    })
}
