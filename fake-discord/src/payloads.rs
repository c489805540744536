//! JSON payloads shaped the way Discord sends them and serenity 0.12.5 reads them.
//!
//! serenity demotes a dispatch it cannot deserialize to `Event::Unknown` without an
//! error, so every builder here is checked against serenity's models in this module's
//! tests. The fields 0.12.5 requires that are easy to forget: `attachment_size_limit`,
//! `entitlements`, `locale`, `version` and `channel_id` on interactions.

use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value, json};

use crate::records::CdnFile;

/// Permission bits a test commonly gives an [`Invoker`].
pub mod permissions {
    /// ADMINISTRATOR.
    pub const ADMINISTRATOR: u64 = 1 << 3;
    /// MANAGE_GUILD ("Manage Server").
    pub const MANAGE_GUILD: u64 = 1 << 5;
    /// What an ordinary member has in a default server: view channels, send messages,
    /// embed links, attach files, read history, mention (no manage bits), use application
    /// commands.
    pub const MEMBER: u64 = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31);
    /// VIEW_CHANNEL: without it, the channel does not exist for the bot (50001).
    pub const VIEW_CHANNEL: u64 = 1 << 10;
    /// SEND_MESSAGES.
    pub const SEND_MESSAGES: u64 = 1 << 11;
    /// ATTACH_FILES.
    pub const ATTACH_FILES: u64 = 1 << 15;
    /// READ_MESSAGE_HISTORY: needed to reply to a message.
    pub const READ_MESSAGE_HISTORY: u64 = 1 << 16;
    /// SEND_MESSAGES_IN_THREADS.
    pub const SEND_MESSAGES_IN_THREADS: u64 = 1 << 38;
    /// What the bot is told it has in the channel (`app_permissions`).
    pub const APP: u64 = 2_199_023_255_551;
}

/// The user an interaction or message comes from, and where.
#[derive(Clone, Debug)]
pub struct Invoker {
    /// The user's id.
    pub user_id: u64,
    /// The user's name.
    pub username: String,
    /// The guild, or `None` for a DM with the bot.
    pub guild_id: Option<u64>,
    /// The channel (the DM channel for a DM).
    pub channel_id: u64,
    /// The member's permissions in the channel, as Discord computes them (ignored in DMs).
    pub permissions: u64,
    /// The member's role ids (ignored in DMs).
    pub roles: Vec<u64>,
    /// The user's Discord locale (`locale`: `en-US`, `de` …).
    pub locale: String,
    /// The server's Discord locale (`guild_locale`, sent in guilds only).
    pub guild_locale: String,
}

impl Invoker {
    /// An ordinary member of `guild_id` writing in `channel_id`.
    pub fn member(user_id: u64, guild_id: u64, channel_id: u64) -> Self {
        Invoker {
            user_id,
            username: format!("user{user_id}"),
            guild_id: Some(guild_id),
            channel_id,
            permissions: permissions::MEMBER,
            roles: Vec::new(),
            locale: "en-US".to_owned(),
            guild_locale: "en-US".to_owned(),
        }
    }

    /// A user in a DM with the bot (`channel_id` is the DM channel).
    pub fn dm(user_id: u64, channel_id: u64) -> Self {
        Invoker {
            guild_id: None,
            ..Invoker::member(user_id, 0, channel_id)
        }
    }

    /// The same invoker with other permission bits.
    pub fn with_permissions(mut self, bits: u64) -> Self {
        self.permissions = bits;
        self
    }

    /// The same invoker with these roles.
    pub fn with_roles(mut self, roles: &[u64]) -> Self {
        self.roles = roles.to_vec();
        self
    }

    /// The same invoker with its Discord set to another language (`de`, `en-GB` …).
    pub fn with_locale(mut self, locale: &str) -> Self {
        self.locale = locale.to_owned();
        self
    }

    /// The same invoker in a server whose Discord locale is `locale`.
    pub fn with_guild_locale(mut self, locale: &str) -> Self {
        self.guild_locale = locale.to_owned();
        self
    }

    /// The same invoker with another user name.
    pub fn with_name(mut self, username: &str) -> Self {
        self.username = username.to_owned();
        self
    }

    /// The invoker's user object.
    pub fn user_json(&self) -> Value {
        user_json(self.user_id, &self.username, false)
    }
}

/// One option of a slash command or autocomplete interaction.
#[derive(Clone, Debug)]
pub struct Opt {
    name: String,
    value: OptValue,
    focused: bool,
}

#[derive(Clone, Debug)]
enum OptValue {
    String(String),
    Integer(i64),
    Number(f64),
    Boolean(bool),
    User(u64),
    Channel(u64),
    Role(u64),
    Attachment(CdnFile),
    SubCommand(Vec<Opt>),
    SubCommandGroup(Vec<Opt>),
}

impl Opt {
    fn new(name: &str, value: OptValue) -> Self {
        Opt {
            name: name.to_owned(),
            value,
            focused: false,
        }
    }
    /// A string option (type 3).
    pub fn string(name: &str, value: &str) -> Self {
        Opt::new(name, OptValue::String(value.to_owned()))
    }
    /// An integer option (type 4).
    pub fn integer(name: &str, value: i64) -> Self {
        Opt::new(name, OptValue::Integer(value))
    }
    /// A number option (type 10).
    pub fn number(name: &str, value: f64) -> Self {
        Opt::new(name, OptValue::Number(value))
    }
    /// A boolean option (type 5).
    pub fn boolean(name: &str, value: bool) -> Self {
        Opt::new(name, OptValue::Boolean(value))
    }
    /// A user option (type 6); the user is added to `resolved`.
    pub fn user(name: &str, user_id: u64) -> Self {
        Opt::new(name, OptValue::User(user_id))
    }
    /// A channel option (type 7); the channel is added to `resolved`.
    pub fn channel(name: &str, channel_id: u64) -> Self {
        Opt::new(name, OptValue::Channel(channel_id))
    }
    /// A role option (type 8); the role is added to `resolved`.
    pub fn role(name: &str, role_id: u64) -> Self {
        Opt::new(name, OptValue::Role(role_id))
    }
    /// An attachment option (type 11) for a file registered with
    /// [`FakeDiscord::add_attachment`](crate::FakeDiscord::add_attachment).
    pub fn attachment(name: &str, file: &CdnFile) -> Self {
        Opt::new(name, OptValue::Attachment(file.clone()))
    }
    /// A subcommand (type 1) with its options.
    pub fn subcommand(name: &str, options: Vec<Opt>) -> Self {
        Opt::new(name, OptValue::SubCommand(options))
    }
    /// A subcommand group (type 2) with its subcommands.
    pub fn group(name: &str, subcommands: Vec<Opt>) -> Self {
        Opt::new(name, OptValue::SubCommandGroup(subcommands))
    }
    /// The same option marked as the one being typed (autocomplete).
    pub fn focused(mut self) -> Self {
        self.focused = true;
        self
    }
}

/// The ids and objects a payload needs that only the running fake knows.
pub(crate) struct Frame<'a> {
    pub(crate) application_id: u64,
    pub(crate) interaction_id: u64,
    pub(crate) token: &'a str,
}

pub(crate) fn user_json(id: u64, username: &str, bot: bool) -> Value {
    json!({
        "id": id.to_string(),
        "username": username,
        "discriminator": "0",
        "global_name": username,
        "avatar": null,
        "bot": bot,
        "public_flags": 0,
    })
}

fn member_json(invoker: &Invoker, with_user: bool) -> Value {
    let mut member = json!({
        "nick": null,
        "avatar": null,
        "roles": invoker.roles.iter().map(u64::to_string).collect::<Vec<_>>(),
        "joined_at": "2024-01-01T00:00:00.000000+00:00",
        "premium_since": null,
        "deaf": false,
        "mute": false,
        "flags": 0,
        "pending": false,
        "permissions": invoker.permissions.to_string(),
        "communication_disabled_until": null,
    });
    if with_user {
        member["user"] = invoker.user_json();
    }
    member
}

pub(crate) fn cdn_file_json(file: &CdnFile) -> Value {
    json!({
        "id": file.id.to_string(),
        "filename": file.filename,
        "size": file.size,
        "url": file.url,
        "proxy_url": file.url,
        "content_type": file.content_type,
        "height": null,
        "width": null,
    })
}

/// The fields every interaction carries.
fn interaction_base(frame: &Frame<'_>, kind: u64, invoker: &Invoker, data: Value) -> Value {
    let mut interaction = json!({
        "id": frame.interaction_id.to_string(),
        "application_id": frame.application_id.to_string(),
        "type": kind,
        "token": frame.token,
        "version": 1,
        "channel_id": invoker.channel_id.to_string(),
        "app_permissions": permissions::APP.to_string(),
        "locale": invoker.locale,
        "entitlements": [],
        "attachment_size_limit": 10_485_760,
        "data": data,
    });
    match invoker.guild_id {
        Some(guild_id) => {
            interaction["guild_id"] = json!(guild_id.to_string());
            interaction["guild_locale"] = json!(invoker.guild_locale);
            interaction["member"] = member_json(invoker, true);
            interaction["channel"] =
                json!({"id": invoker.channel_id.to_string(), "type": 0, "name": "tavern"});
            interaction["authorizing_integration_owners"] = json!({"0": guild_id.to_string()});
            interaction["context"] = json!(0);
        }
        None => {
            interaction["user"] = invoker.user_json();
            interaction["channel"] = json!({"id": invoker.channel_id.to_string(), "type": 1});
            interaction["authorizing_integration_owners"] = json!({"0": "0"});
            interaction["context"] = json!(1);
        }
    }
    interaction
}

/// Turns options into Discord's JSON and gathers what `resolved` must hold for them.
fn options_json(
    options: &[Opt],
    resolved: &mut Map<String, Value>,
    invoker: &Invoker,
) -> Vec<Value> {
    options
        .iter()
        .map(|opt| option_json(opt, resolved, invoker))
        .collect()
}

fn resolve(resolved: &mut Map<String, Value>, kind: &str, id: u64, object: Value) {
    let entry = resolved
        .entry(kind.to_owned())
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(map) = entry {
        map.insert(id.to_string(), object);
    }
}

fn option_json(opt: &Opt, resolved: &mut Map<String, Value>, invoker: &Invoker) -> Value {
    let (kind, value) = match &opt.value {
        OptValue::String(text) => (3, json!(text)),
        OptValue::Integer(number) => (4, json!(number)),
        OptValue::Boolean(flag) => (5, json!(flag)),
        OptValue::Number(number) => (10, json!(number)),
        OptValue::User(id) => {
            resolve(
                resolved,
                "users",
                *id,
                user_json(*id, &format!("user{id}"), false),
            );
            (6, json!(id.to_string()))
        }
        OptValue::Channel(id) => {
            let channel = json!({"id": id.to_string(), "type": 0, "name": format!("channel{id}"), "permissions": permissions::MEMBER.to_string()});
            resolve(resolved, "channels", *id, channel);
            (7, json!(id.to_string()))
        }
        OptValue::Role(id) => {
            let role = json!({
                "id": id.to_string(), "name": format!("role{id}"), "color": 0, "hoist": false,
                "colors": {"primary_color": 0, "secondary_color": null, "tertiary_color": null},
                "position": 1, "permissions": "0", "managed": false, "mentionable": true, "flags": 0,
            });
            resolve(resolved, "roles", *id, role);
            (8, json!(id.to_string()))
        }
        OptValue::Attachment(file) => {
            resolve(resolved, "attachments", file.id, cdn_file_json(file));
            (11, json!(file.id.to_string()))
        }
        OptValue::SubCommand(children) | OptValue::SubCommandGroup(children) => {
            let kind = if matches!(opt.value, OptValue::SubCommand(_)) {
                1
            } else {
                2
            };
            let children = options_json(children, resolved, invoker);
            return json!({"name": opt.name, "type": kind, "options": children});
        }
    };
    let mut option = json!({"name": opt.name, "type": kind, "value": value});
    if opt.focused {
        // Discord sends the partial text of a focused option as a string, whatever its type.
        option["focused"] = json!(true);
        if !value.is_string() {
            option["value"] = json!(value.to_string());
        }
    }
    option
}

/// APPLICATION_COMMAND (type 2) or APPLICATION_COMMAND_AUTOCOMPLETE (type 4).
pub(crate) fn command_interaction(
    frame: &Frame<'_>,
    kind: u64,
    invoker: &Invoker,
    command_id: u64,
    command: &str,
    options: &[Opt],
) -> Value {
    let mut resolved = Map::new();
    let options = options_json(options, &mut resolved, invoker);
    let mut data =
        json!({"id": command_id.to_string(), "name": command, "type": 1, "options": options});
    if !resolved.is_empty() {
        data["resolved"] = Value::Object(resolved);
    }
    if let Some(guild_id) = invoker.guild_id {
        data["guild_id"] = json!(guild_id.to_string());
    }
    interaction_base(frame, kind, invoker, data)
}

/// MESSAGE_COMPONENT (type 3) on `message` (a message object the bot sent).
pub(crate) fn component_interaction(
    frame: &Frame<'_>,
    invoker: &Invoker,
    message: &Value,
    custom_id: &str,
    component_type: u64,
    values: Option<&[&str]>,
) -> Value {
    let mut data = json!({"custom_id": custom_id, "component_type": component_type});
    if let Some(values) = values {
        data["values"] = json!(values);
    }
    let mut interaction = interaction_base(frame, 3, invoker, data);
    interaction["message"] = message.clone();
    interaction
}

/// MODAL_SUBMIT (type 5): one action row per `(custom_id, value)` text field.
pub(crate) fn modal_submit_interaction(
    frame: &Frame<'_>,
    invoker: &Invoker,
    custom_id: &str,
    fields: &[(&str, &str)],
    message: Option<&Value>,
) -> Value {
    let rows: Vec<Value> = fields
        .iter()
        .map(|(id, value)| json!({"type": 1, "components": [{"type": 4, "custom_id": id, "value": value}]}))
        .collect();
    let data = json!({"custom_id": custom_id, "components": rows});
    let mut interaction = interaction_base(frame, 5, invoker, data);
    if let Some(message) = message {
        interaction["message"] = message.clone();
    }
    interaction
}

/// A message object as Discord returns it from REST (no `guild_id`, no `member`).
pub(crate) struct MessageParts<'a> {
    pub(crate) id: u64,
    pub(crate) channel_id: u64,
    pub(crate) author: Value,
    pub(crate) content: &'a str,
    pub(crate) kind: u64,
    pub(crate) mentions: Vec<Value>,
    pub(crate) attachments: &'a [CdnFile],
}

pub(crate) fn message_json(parts: MessageParts<'_>) -> Value {
    json!({
        "id": parts.id.to_string(),
        "channel_id": parts.channel_id.to_string(),
        "author": parts.author,
        "content": parts.content,
        "timestamp": timestamp_now(),
        "edited_timestamp": null,
        "tts": false,
        "mention_everyone": false,
        "mentions": parts.mentions,
        "mention_roles": [],
        "attachments": parts.attachments.iter().map(cdn_file_json).collect::<Vec<_>>(),
        "embeds": [],
        "pinned": false,
        "type": parts.kind,
        "flags": 0,
        "components": [],
    })
}

/// A MESSAGE_CREATE dispatch from `invoker`; `reply_to` makes it a reply (type 19) and
/// `ping_bot` adds the bot to `mentions` (ping-on-reply).
pub(crate) fn message_create(
    id: u64,
    invoker: &Invoker,
    content: &str,
    attachments: &[CdnFile],
    reply_to: Option<&Value>,
    bot_user: Option<&Value>,
) -> Value {
    let mentions: Vec<Value> = bot_user.into_iter().cloned().collect();
    let kind = if reply_to.is_some() { 19 } else { 0 };
    let parts = MessageParts {
        id,
        channel_id: invoker.channel_id,
        author: invoker.user_json(),
        content,
        kind,
        mentions,
        attachments,
    };
    let mut message = message_json(parts);
    if let Some(guild_id) = invoker.guild_id {
        message["guild_id"] = json!(guild_id.to_string());
        message["member"] = member_json(invoker, false);
    }
    if let Some(replied) = reply_to {
        let mut reference = json!({"type": 0, "message_id": replied["id"], "channel_id": replied["channel_id"], "fail_if_not_exists": false});
        if let Some(guild_id) = invoker.guild_id {
            reference["guild_id"] = json!(guild_id.to_string());
        }
        message["message_reference"] = reference;
        message["referenced_message"] = replied.clone();
    }
    message
}

/// Now as Discord writes timestamps: `2026-01-02T03:04:05.678000+00:00`.
pub(crate) fn timestamp_now() -> String {
    let since_epoch = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    format_timestamp(since_epoch.as_secs(), since_epoch.subsec_micros())
}

fn format_timestamp(unix_secs: u64, micros: u32) -> String {
    let days = unix_secs / 86_400;
    let secs_of_day = unix_secs % 86_400;
    let (year, month, day) = civil_from_days(days);
    let (hour, minute, second) = (secs_of_day / 3600, secs_of_day / 60 % 60, secs_of_day % 60);
    format!("{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}.{micros:06}+00:00")
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z % 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_table() {
        assert_eq!(format_timestamp(0, 0), "1970-01-01T00:00:00.000000+00:00");
        assert_eq!(
            format_timestamp(951_782_400, 5),
            "2000-02-29T00:00:00.000005+00:00"
        );
        assert_eq!(
            format_timestamp(1_767_225_599, 999_999),
            "2025-12-31T23:59:59.999999+00:00"
        );
    }
}
