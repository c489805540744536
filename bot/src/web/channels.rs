//! Who may see a channel's tracker, decided as Discord decides `VIEW_CHANNEL`, and
//! what the channel is called.
//!
//! The user's permission bits in the server come from the login (`/users/@me/guilds`
//! gives them with the roles already folded in); the channel's permission overwrites
//! and the member's role ids are read through the bot's token (`GET
//! /guilds/{id}/channels`, `GET /guilds/{id}/members/{user}`, `GET /channels/{id}`
//! for a thread) and kept in the database for `[web] cache_seconds`, as the roles
//! already are. Then, as Discord: Administrator sees everything; else the server's
//! bits, the `@everyone` overwrite, the member's roles' overwrites together, the
//! member's own overwrite, in that order. A thread takes its channel's permissions
//! (a private thread needs Manage Threads there too: the dashboard does not read
//! thread membership).
//!
//! Without the bot's token (the development login, a dashboard without Discord)
//! nothing can be read: every channel is visible as before and named by its id. With
//! it, a read that fails hides the channels from everyone but Administrators (who see
//! them named by id): a tracker is never shown on a guess.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::Web;
use super::oauth;
use super::session::{SessionGuild, Viewer};
use crate::core::Permissions;

/// Discord's View Channel bit.
pub const VIEW_CHANNEL: u64 = 1 << 10;
/// Discord's Manage Threads bit (a private thread's).
pub const MANAGE_THREADS: u64 = 1 << 34;
/// Threads read one by one per page, at most (a thread is not in the server's list).
const MAX_THREAD_READS: usize = 8;

/// One permission overwrite of a channel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Overwrite {
    /// A role's id (the server's id: `@everyone`) or a member's.
    pub id: i64,
    /// A member's overwrite (Discord's type 1), else a role's (type 0).
    pub member: bool,
    pub allow: u64,
    pub deny: u64,
}

/// A channel as the dashboard keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Channel {
    pub id: i64,
    pub name: String,
    /// Discord's channel type (threads are 10, 11, 12).
    pub kind: u64,
    pub parent: Option<i64>,
    pub overwrites: Vec<Overwrite>,
}

impl Channel {
    fn is_thread(&self) -> bool {
        (10..=12).contains(&self.kind)
    }
}

/// The user's permission bits in a channel whose overwrites are `overwrites`, from
/// their bits in the server (`base`) and their role ids: Discord's order.
pub fn permissions_in(
    base: u64,
    guild_id: i64,
    user_id: i64,
    roles: &[i64],
    overwrites: &[Overwrite],
) -> u64 {
    if Permissions(base).has(Permissions::ADMINISTRATOR) {
        return u64::MAX;
    }
    let mut bits = base;
    if let Some(everyone) = overwrites
        .iter()
        .find(|overwrite| !overwrite.member && overwrite.id == guild_id)
    {
        bits = (bits & !everyone.deny) | everyone.allow;
    }
    let (mut allow, mut deny) = (0, 0);
    for overwrite in overwrites.iter().filter(|overwrite| {
        !overwrite.member && overwrite.id != guild_id && roles.contains(&overwrite.id)
    }) {
        allow |= overwrite.allow;
        deny |= overwrite.deny;
    }
    bits = (bits & !deny) | allow;
    if let Some(own) = overwrites
        .iter()
        .find(|overwrite| overwrite.member && overwrite.id == user_id)
    {
        bits = (bits & !own.deny) | own.allow;
    }
    bits
}

/// What the viewer may see of a server's channels, for one page.
#[derive(Debug)]
pub enum ChannelAccess {
    /// Nothing can be read (no bot token, the development login): all visible.
    Unchecked,
    /// The read failed: only an Administrator sees channels.
    Unknown { administrator: bool },
    /// Read: the channels (and threads) known, with the member's bits.
    Read {
        channels: HashMap<i64, Channel>,
        base: u64,
        guild_id: i64,
        user_id: i64,
        roles: Vec<i64>,
    },
}

impl ChannelAccess {
    /// The viewer's access in `guild`, reading `wanted`'s channels (threads, which
    /// the server's list lacks, one by one).
    pub async fn read(
        web: &Web,
        viewer: &Viewer,
        guild: &SessionGuild,
        wanted: &[i64],
    ) -> ChannelAccess {
        let bot_token = web
            .options
            .discord
            .as_ref()
            .and_then(|discord| discord.bot_token.as_ref());
        if viewer.dev_login || bot_token.is_none() {
            return ChannelAccess::Unchecked;
        }
        match read_access(web, viewer, guild, wanted).await {
            Ok(access) => access,
            Err(error) => {
                tracing::warn!(
                    error = format!("{error:#}"),
                    guild_id = guild.id,
                    "cannot read a server's channels"
                );
                ChannelAccess::Unknown {
                    administrator: Permissions(guild.permissions).has(Permissions::ADMINISTRATOR),
                }
            }
        }
    }

    /// Whether the viewer may view `channel_id` (and so its tracker).
    pub fn may_view(&self, channel_id: i64) -> bool {
        let (channels, base, guild_id, user_id, roles) = match self {
            ChannelAccess::Unchecked => return true,
            ChannelAccess::Unknown { administrator } => return *administrator,
            ChannelAccess::Read {
                channels,
                base,
                guild_id,
                user_id,
                roles,
            } => (channels, *base, *guild_id, *user_id, roles),
        };
        if Permissions(base).has(Permissions::ADMINISTRATOR) {
            return true;
        }
        let Some(channel) = channels.get(&channel_id) else {
            return false;
        };
        let (own, private_thread) = if channel.is_thread() {
            let Some(parent) = channel.parent.and_then(|id| channels.get(&id)) else {
                return false;
            };
            (parent, channel.kind == 12)
        } else {
            (channel, false)
        };
        let bits = permissions_in(base, guild_id, user_id, roles, &own.overwrites);
        let needed = if private_thread {
            VIEW_CHANNEL | MANAGE_THREADS
        } else {
            VIEW_CHANNEL
        };
        bits & needed == needed
    }

    /// The channel's name, when it was read.
    pub fn name(&self, channel_id: i64) -> Option<&str> {
        match self {
            ChannelAccess::Read { channels, .. } => channels
                .get(&channel_id)
                .map(|channel| channel.name.as_str()),
            _ => None,
        }
    }
}

async fn read_access(
    web: &Web,
    viewer: &Viewer,
    guild: &SessionGuild,
    wanted: &[i64],
) -> anyhow::Result<ChannelAccess> {
    let mut channels: HashMap<i64, Channel> = guild_channels(web, guild.id)
        .await?
        .into_iter()
        .map(|channel| (channel.id, channel))
        .collect();
    // A thread is not in the server's list: read it alone (a few per page).
    let missing: Vec<i64> = wanted
        .iter()
        .copied()
        .filter(|id| !channels.contains_key(id))
        .take(MAX_THREAD_READS)
        .collect();
    for id in missing {
        match oauth::bot_get(web, &format!("/channels/{id}")).await {
            Ok(answer) => {
                if let Some(channel) = channel_of(&answer)
                    && answer["guild_id"].as_str() == Some(guild.id.to_string().as_str())
                {
                    channels.insert(channel.id, channel);
                }
            }
            // A deleted channel stays unknown, so hidden.
            Err(error) => tracing::debug!(error = format!("{error:#}"), id, "no such channel"),
        }
    }
    let roles = oauth::member_roles(web, guild.id, viewer.user.id).await?;
    Ok(ChannelAccess::Read {
        channels,
        base: guild.permissions,
        guild_id: guild.id,
        user_id: viewer.user.id,
        roles,
    })
}

/// The server's channels, from the database while fresh, else from Discord.
async fn guild_channels(web: &Web, guild_id: i64) -> anyhow::Result<Vec<Channel>> {
    let storage = web.core.storage();
    let now = web.now();
    if let Some((channels, at)) = storage.web_guild_channels(guild_id).await?
        && now - at < web.options.cache_ms
    {
        return Ok(serde_json::from_str(&channels).unwrap_or_default());
    }
    let answer = oauth::bot_get(web, &format!("/guilds/{guild_id}/channels")).await?;
    let channels: Vec<Channel> = answer
        .as_array()
        .ok_or_else(|| anyhow::anyhow!("/guilds/{guild_id}/channels is not a list"))?
        .iter()
        .filter_map(channel_of)
        .collect();
    storage
        .set_web_guild_channels(guild_id, &serde_json::to_string(&channels)?, now)
        .await?;
    Ok(channels)
}

/// A channel of Discord's answer, as the dashboard keeps it.
fn channel_of(value: &Value) -> Option<Channel> {
    let snowflake = |value: &Value| value.as_str()?.parse::<i64>().ok();
    let bits = |value: &Value| value.as_str()?.parse::<u64>().ok();
    let overwrites = value["permission_overwrites"]
        .as_array()
        .map(|list| {
            list.iter()
                .filter_map(|overwrite| {
                    Some(Overwrite {
                        id: snowflake(&overwrite["id"])?,
                        member: overwrite["type"].as_u64()? == 1,
                        allow: bits(&overwrite["allow"])?,
                        deny: bits(&overwrite["deny"])?,
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    Some(Channel {
        id: snowflake(&value["id"])?,
        name: value["name"]
            .as_str()
            .unwrap_or("")
            .chars()
            .take(100)
            .collect(),
        kind: value["type"].as_u64().unwrap_or(0),
        parent: snowflake(&value["parent_id"]),
        overwrites,
    })
}

#[cfg(test)]
mod tests {
    use super::{Overwrite, VIEW_CHANNEL, permissions_in};

    const GUILD: i64 = 100;
    const USER: i64 = 7;
    const PLAYERS: i64 = 201;
    const GMS: i64 = 202;
    const SEND: u64 = 1 << 11;

    fn role(id: i64, allow: u64, deny: u64) -> Overwrite {
        Overwrite {
            id,
            member: false,
            allow,
            deny,
        }
    }

    fn member(id: i64, allow: u64, deny: u64) -> Overwrite {
        Overwrite {
            id,
            member: true,
            allow,
            deny,
        }
    }

    #[test]
    fn view_channel_follows_discords_order_of_overwrites() {
        let hidden = role(GUILD, 0, VIEW_CHANNEL);
        // (server bits, roles, overwrites, may view)
        let cases: &[(u64, &[i64], Vec<Overwrite>, bool)] = &[
            (VIEW_CHANNEL, &[], vec![], true),
            (0, &[], vec![], false),
            (VIEW_CHANNEL, &[], vec![hidden.clone()], false),
            // A role's allow beats @everyone's deny.
            (
                VIEW_CHANNEL,
                &[PLAYERS],
                vec![hidden.clone(), role(PLAYERS, VIEW_CHANNEL, 0)],
                true,
            ),
            // Another role's allow does not help a member without it.
            (
                VIEW_CHANNEL,
                &[GMS],
                vec![hidden.clone(), role(PLAYERS, VIEW_CHANNEL, 0)],
                false,
            ),
            // Among roles, one allow beats another's deny.
            (
                VIEW_CHANNEL,
                &[PLAYERS, GMS],
                vec![role(PLAYERS, 0, VIEW_CHANNEL), role(GMS, VIEW_CHANNEL, 0)],
                true,
            ),
            // The member's own overwrite comes last, either way.
            (
                VIEW_CHANNEL,
                &[PLAYERS],
                vec![
                    role(PLAYERS, VIEW_CHANNEL, 0),
                    member(USER, 0, VIEW_CHANNEL),
                ],
                false,
            ),
            (
                0,
                &[],
                vec![hidden.clone(), member(USER, VIEW_CHANNEL, 0)],
                true,
            ),
            // Another member's overwrite is not this one's.
            (VIEW_CHANNEL, &[], vec![member(8, 0, VIEW_CHANNEL)], true),
            // Administrator sees through every overwrite.
            (
                1 << 3,
                &[],
                vec![hidden.clone(), member(USER, 0, VIEW_CHANNEL)],
                true,
            ),
            // Other bits do not decide viewing.
            (VIEW_CHANNEL, &[], vec![role(GUILD, 0, SEND)], true),
        ];
        for (index, (base, roles, overwrites, expected)) in cases.iter().enumerate() {
            let bits = permissions_in(*base, GUILD, USER, roles, overwrites);
            assert_eq!(bits & VIEW_CHANNEL != 0, *expected, "case {index}");
        }
    }
}
