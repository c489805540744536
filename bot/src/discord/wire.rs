//! A slash command or autocomplete interaction as Tavern reads it off the gateway:
//! only the fields the core and the answer use, decoded once from the frame into
//! owned values that move into the core's [`Request`] without a copy.
//!
//! serenity's `CommandInteraction` builds everything Discord sends (the member's join
//! date and flags, entitlements, resolved users, roles and channels, the channel's
//! name) and reads every option's value into a JSON `Value` before its type; that was
//! most of a `/roll`'s decoding (BENCHMARKS.md, "A command read by Tavern"). Here the
//! rest is skipped unread. What serenity refuses this refuses too (a zero or
//! non-numeric snowflake, an option whose value is not of its type), so an
//! interaction either side would skip is still skipped.

use std::collections::HashMap;
use std::fmt;
use std::num::NonZeroU64;

use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};

use super::incoming::Invoker;
use crate::core::{Command, CommandOption, Member, OptionValue, Permissions, Request, RequestKind};

/// A Discord snowflake: a non-zero `u64`, sent as a decimal string (a number is read
/// too, as serenity reads it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Snowflake(pub NonZeroU64);

impl Snowflake {
    /// As the core stores it: snowflakes stay below 2^63 for centuries; a larger one
    /// (never sent by Discord) maps to `i64::MAX` rather than wrapping.
    fn core(self) -> i64 {
        super::incoming::snowflake(self.0.get())
    }
}

impl<'de> Deserialize<'de> for Snowflake {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Snowflake, D::Error> {
        let bits = deserializer.deserialize_any(Decimal("a snowflake"))?;
        NonZeroU64::new(bits)
            .map(Snowflake)
            .ok_or_else(|| de::Error::invalid_value(de::Unexpected::Unsigned(0), &"a snowflake"))
    }
}

/// Permission bits, sent as a decimal string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Bits(pub u64);

impl<'de> Deserialize<'de> for Bits {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Bits, D::Error> {
        deserializer
            .deserialize_any(Decimal("permission bits"))
            .map(Bits)
    }
}

/// Reads a `u64` written as a decimal string or as a number.
struct Decimal(&'static str);

impl Visitor<'_> for Decimal {
    type Value = u64;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.0)
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<u64, E> {
        Ok(value)
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<u64, E> {
        u64::try_from(value).map_err(|_| E::invalid_value(de::Unexpected::Signed(value), &self))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<u64, E> {
        text.parse()
            .map_err(|_| E::invalid_value(de::Unexpected::Str(text), &self))
    }
}

/// `INTERACTION_CREATE`'s `d` for an application command (type 2) or its
/// autocomplete (type 4).
#[derive(Debug, Deserialize)]
pub(super) struct CommandEvent {
    pub id: Snowflake,
    pub token: String,
    pub guild_id: Option<Snowflake>,
    pub channel_id: Snowflake,
    pub channel: Option<ChannelPart>,
    pub app_permissions: Option<Bits>,
    #[serde(default)]
    pub locale: String,
    pub guild_locale: Option<String>,
    pub member: Option<MemberPart>,
    /// Sent in direct messages; in a server the member carries the user.
    pub user: Option<UserPart>,
    pub data: CommandPart,
}

#[derive(Debug, Deserialize)]
pub(super) struct ChannelPart {
    /// Present only on threads; its contents do not matter here.
    thread_metadata: Option<de::IgnoredAny>,
}

#[derive(Debug, Deserialize)]
pub(super) struct MemberPart {
    nick: Option<String>,
    permissions: Option<Bits>,
    #[serde(default)]
    roles: Vec<Snowflake>,
    user: Option<UserPart>,
}

#[derive(Debug, Deserialize)]
pub(super) struct UserPart {
    id: Snowflake,
    username: String,
    global_name: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(super) struct CommandPart {
    name: String,
    #[serde(default)]
    options: Vec<OptionPart>,
    #[serde(default)]
    resolved: Resolved,
}

#[derive(Debug, Default, Deserialize)]
struct Resolved {
    /// Keyed by the attachment's id as Discord writes it.
    #[serde(default)]
    attachments: HashMap<String, AttachmentPart>,
}

#[derive(Debug, Deserialize)]
struct AttachmentPart {
    filename: String,
    url: String,
    size: u64,
}

#[derive(Debug, Deserialize)]
struct OptionPart {
    name: String,
    #[serde(rename = "type")]
    kind: u8,
    value: Option<Scalar>,
    #[serde(default)]
    options: Vec<OptionPart>,
    focused: Option<bool>,
}

/// An option's value before its type says what it is.
#[derive(Debug)]
enum Scalar {
    Text(String),
    Integer(i64),
    Float(f64),
    Flag(bool),
}

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Scalar, D::Error> {
        deserializer.deserialize_any(ScalarVisitor)
    }
}

struct ScalarVisitor;

impl Visitor<'_> for ScalarVisitor {
    type Value = Scalar;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a string, number or boolean")
    }

    fn visit_bool<E: de::Error>(self, flag: bool) -> Result<Scalar, E> {
        Ok(Scalar::Flag(flag))
    }

    fn visit_i64<E: de::Error>(self, number: i64) -> Result<Scalar, E> {
        Ok(Scalar::Integer(number))
    }

    fn visit_u64<E: de::Error>(self, number: u64) -> Result<Scalar, E> {
        // Past `i64` only a number option can hold it.
        Ok(i64::try_from(number).map_or(Scalar::Float(number as f64), Scalar::Integer))
    }

    fn visit_f64<E: de::Error>(self, number: f64) -> Result<Scalar, E> {
        Ok(Scalar::Float(number))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Scalar, E> {
        Ok(Scalar::Text(text.to_owned()))
    }

    fn visit_string<E: de::Error>(self, text: String) -> Result<Scalar, E> {
        Ok(Scalar::Text(text))
    }
}

/// Discord's option types ("Application Command Option Type").
mod option_type {
    pub const SUB_COMMAND: u8 = 1;
    pub const SUB_COMMAND_GROUP: u8 = 2;
    pub const STRING: u8 = 3;
    pub const INTEGER: u8 = 4;
    pub const BOOLEAN: u8 = 5;
    pub const CHANNEL: u8 = 7;
    pub const ROLE: u8 = 8;
    pub const NUMBER: u8 = 10;
    pub const ATTACHMENT: u8 = 11;
}

/// Why a decoded command is still unreadable; serenity refuses such an interaction
/// too, so it is skipped as before.
#[derive(Debug, PartialEq)]
pub(super) enum Unreadable {
    /// An option whose value does not fit its type.
    Option { name: String, kind: u8 },
    /// Neither a member with a user nor a user.
    NoUser,
}

impl fmt::Display for Unreadable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unreadable::Option { name, kind } => {
                write!(f, "option {name:?} of type {kind} has no value of its type")
            }
            Unreadable::NoUser => f.write_str("no user"),
        }
    }
}

/// What the answer needs beside the request.
pub(super) struct CommandTarget {
    pub id: Snowflake,
    pub token: String,
    pub app_permissions: Option<u64>,
    pub in_thread: bool,
}

impl CommandEvent {
    /// The answer's target and the core's request; `autocomplete` makes it an
    /// autocomplete request for the focused option.
    pub(super) fn into_request(
        self,
        autocomplete: bool,
    ) -> Result<(CommandTarget, Request), Unreadable> {
        let (command, focused) = command_of(self.data)?;
        let kind = if autocomplete {
            RequestKind::Autocomplete {
                command,
                focused: focused.unwrap_or_default(),
            }
        } else {
            RequestKind::Command(command)
        };
        let target = CommandTarget {
            id: self.id,
            token: self.token,
            app_permissions: self.app_permissions.map(|bits| bits.0),
            in_thread: self
                .channel
                .is_some_and(|channel| channel.thread_metadata.is_some()),
        };
        let (nick, member, member_user) = match self.member {
            Some(member) => (
                member.nick,
                Some(Member {
                    permissions: Permissions(member.permissions.map_or(0, |bits| bits.0)),
                    roles: member.roles.into_iter().map(Snowflake::core).collect(),
                }),
                member.user,
            ),
            None => (None, None, None),
        };
        // serenity takes the member's user in a server, the user elsewhere.
        let Some(user) = member_user.or(self.user) else {
            return Err(Unreadable::NoUser);
        };
        let request = Invoker {
            user_id: user.id.core(),
            display_name: user.global_name.unwrap_or(user.username),
            nick,
            member,
            guild_id: self.guild_id.map(Snowflake::core),
            channel_id: self.channel_id.core(),
            locale: Some(self.locale),
            guild_locale: self.guild_locale,
        }
        .request(kind);
        Ok((target, request))
    }
}

/// The command with its subcommand path and options, and the focused option's name.
fn command_of(data: CommandPart) -> Result<(Command, Option<String>), Unreadable> {
    let mut subcommand = Vec::new();
    let mut options = data.options;
    // A group holds one subcommand; a subcommand holds the options.
    while options.len() == 1
        && matches!(
            options[0].kind,
            option_type::SUB_COMMAND | option_type::SUB_COMMAND_GROUP
        )
    {
        let Some(only) = options.pop() else { break };
        subcommand.push(only.name);
        options = only.options;
    }
    let mut focused = None;
    let mut values = Vec::with_capacity(options.len());
    let attachments = data.resolved.attachments;
    for option in options {
        let wrong = || Unreadable::Option {
            name: option.name.clone(),
            kind: option.kind,
        };
        if option.focused == Some(true) {
            let text = match option.value {
                Some(Scalar::Text(text)) => text,
                Some(Scalar::Integer(number)) => number.to_string(),
                Some(Scalar::Float(number)) => number.to_string(),
                Some(Scalar::Flag(flag)) => flag.to_string(),
                None => return Err(wrong()),
            };
            focused = Some(option.name.clone());
            values.push(CommandOption {
                name: option.name,
                value: OptionValue::String(text),
            });
            continue;
        }
        let value = match (option.kind, option.value) {
            (option_type::STRING, Some(Scalar::Text(text))) => OptionValue::String(text),
            (option_type::INTEGER, Some(Scalar::Integer(number))) => OptionValue::Integer(number),
            (option_type::BOOLEAN, Some(Scalar::Flag(flag))) => OptionValue::Boolean(flag),
            (option_type::NUMBER, Some(Scalar::Integer(number))) => {
                OptionValue::Number(number as f64)
            }
            (option_type::NUMBER, Some(Scalar::Float(number))) => OptionValue::Number(number),
            (option_type::ROLE, Some(value)) => {
                OptionValue::Role(snowflake_of(&value).ok_or_else(wrong)?.core())
            }
            (option_type::CHANNEL, Some(value)) => {
                OptionValue::Channel(snowflake_of(&value).ok_or_else(wrong)?.core())
            }
            (option_type::ATTACHMENT, Some(value)) => {
                let id = snowflake_of(&value).ok_or_else(wrong)?;
                let Some(file) = attachments.get(&id.0.to_string()) else {
                    continue;
                };
                OptionValue::Attachment {
                    filename: file.filename.clone(),
                    url: file.url.clone(),
                    size: file.size,
                }
            }
            (
                option_type::STRING
                | option_type::INTEGER
                | option_type::BOOLEAN
                | option_type::NUMBER
                | option_type::ROLE
                | option_type::CHANNEL
                | option_type::ATTACHMENT,
                _,
            ) => return Err(wrong()),
            // No Tavern command takes users, mentionables or nested subcommands
            // beside options; an unknown kind is skipped rather than guessed at.
            _ => continue,
        };
        values.push(CommandOption {
            name: option.name,
            value,
        });
    }
    let command = Command {
        name: data.name,
        subcommand,
        options: values,
    };
    Ok((command, focused))
}

fn snowflake_of(value: &Scalar) -> Option<Snowflake> {
    let bits = match value {
        Scalar::Text(text) => text.parse().ok()?,
        Scalar::Integer(number) => u64::try_from(*number).ok()?,
        Scalar::Float(_) | Scalar::Flag(_) => return None,
    };
    NonZeroU64::new(bits).map(Snowflake)
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::core::User;

    use super::*;

    fn member(nick: Value, global_name: Value) -> Value {
        json!({
            "nick": nick, "roles": ["5", "6"], "permissions": "8", "joined_at": "2024-01-01T00:00:00+00:00",
            "deaf": false, "mute": false, "flags": 0, "avatar": null,
            "user": {"id": "42", "username": "ann", "global_name": global_name, "discriminator": "0", "avatar": null},
        })
    }

    /// A guild interaction as Discord sends it, with `data` and extra fields merged in.
    fn in_guild(data: Value, extra: Value) -> Value {
        let mut event = json!({
            "id": "900", "application_id": "1", "type": 2, "token": "tok", "version": 1,
            "guild_id": "7", "channel_id": "8", "app_permissions": "2048", "locale": "de",
            "guild_locale": "en-US", "entitlements": [], "member": member(json!(null), json!("Ann")),
            "channel": {"id": "8", "type": 0, "name": "tavern"}, "data": data,
        });
        if let (Value::Object(event), Value::Object(extra)) = (&mut event, extra) {
            event.extend(extra);
        }
        event
    }

    fn roll(expression: &str) -> Value {
        json!({"id": "3", "name": "roll", "type": 1, "options": [{"name": "expression", "type": 3, "value": expression}]})
    }

    fn decode(event: &Value, autocomplete: bool) -> Result<(CommandTarget, Request), Unreadable> {
        serde_json::from_value::<CommandEvent>(event.clone())
            .expect("decodes")
            .into_request(autocomplete)
    }

    fn command(name: &str, subcommand: &[&str], options: Vec<(&str, OptionValue)>) -> Command {
        Command {
            name: name.to_owned(),
            subcommand: subcommand.iter().map(|&part| part.to_owned()).collect(),
            options: options
                .into_iter()
                .map(|(name, value)| CommandOption {
                    name: name.to_owned(),
                    value,
                })
                .collect(),
        }
    }

    fn guild_request(name: &str, kind: RequestKind) -> Request {
        Request {
            user: User {
                id: 42,
                name: name.to_owned(),
            },
            guild_id: Some(7),
            channel_id: 8,
            member: Some(Member {
                permissions: Permissions(8),
                roles: vec![5, 6],
            }),
            locale: Some("de".to_owned()),
            guild_locale: Some("en-US".to_owned()),
            kind,
        }
    }

    #[test]
    fn commands_become_the_core_s_requests() {
        let roll_kind = || {
            RequestKind::Command(command(
                "roll",
                &[],
                vec![("expression", OptionValue::String("4d6+2".into()))],
            ))
        };
        let cases: Vec<(&str, Value, bool, Request)> = vec![
            (
                "a roll in a server",
                in_guild(roll("4d6+2"), json!({})),
                false,
                guild_request("Ann", roll_kind()),
            ),
            (
                "the nick before the global name",
                in_guild(
                    roll("4d6+2"),
                    json!({"member": member(json!("Grog"), json!("Ann"))}),
                ),
                false,
                guild_request("Grog", roll_kind()),
            ),
            (
                "the username without a global name",
                in_guild(
                    roll("4d6+2"),
                    json!({"member": member(json!(null), json!(null))}),
                ),
                false,
                guild_request("ann", roll_kind()),
            ),
            (
                "a direct message: no member, no server locale",
                json!({
                    "id": "900", "type": 2, "token": "tok", "channel_id": "8", "locale": "",
                    "guild_locale": "fr", "user": {"id": "42", "username": "ann", "global_name": "Ann"},
                    "channel": {"id": "8", "type": 1}, "data": roll("4d6+2"),
                }),
                false,
                Request {
                    user: User {
                        id: 42,
                        name: "Ann".into(),
                    },
                    guild_id: None,
                    channel_id: 8,
                    member: None,
                    locale: None,
                    guild_locale: None,
                    kind: roll_kind(),
                },
            ),
            (
                "a group's subcommand and every option type",
                in_guild(
                    json!({"name": "macro", "options": [{"name": "server", "type": 2, "options": [
                        {"name": "set", "type": 1, "options": [
                            {"name": "name", "type": 3, "value": "atk"},
                            {"name": "count", "type": 4, "value": 3},
                            {"name": "public", "type": 5, "value": true},
                            {"name": "bonus", "type": 10, "value": 2},
                            {"name": "scale", "type": 10, "value": 1.5},
                            {"name": "role", "type": 8, "value": "11"},
                            {"name": "where", "type": 7, "value": "12"},
                            {"name": "who", "type": 6, "value": "13"},
                            {"name": "file", "type": 11, "value": "77"},
                            {"name": "gone", "type": 11, "value": "78"},
                        ]}]}],
                        "resolved": {"attachments": {"77": {"id": "77", "filename": "gen.bas", "size": 120,
                            "url": "https://cdn.example/gen.bas", "proxy_url": "x"}}}}),
                    json!({}),
                ),
                false,
                guild_request(
                    "Ann",
                    RequestKind::Command(command(
                        "macro",
                        &["server", "set"],
                        vec![
                            ("name", OptionValue::String("atk".into())),
                            ("count", OptionValue::Integer(3)),
                            ("public", OptionValue::Boolean(true)),
                            ("bonus", OptionValue::Number(2.0)),
                            ("scale", OptionValue::Number(1.5)),
                            ("role", OptionValue::Role(11)),
                            ("where", OptionValue::Channel(12)),
                            (
                                "file",
                                OptionValue::Attachment {
                                    filename: "gen.bas".into(),
                                    url: "https://cdn.example/gen.bas".into(),
                                    size: 120,
                                },
                            ),
                        ],
                    )),
                ),
            ),
            (
                "an autocomplete's focused option is text whatever its type",
                in_guild(
                    json!({"name": "init", "options": [{"name": "add", "type": 1, "options": [
                        {"name": "name", "type": 3, "value": "Gob"},
                        {"name": "count", "type": 4, "value": "1", "focused": true}]}]}),
                    json!({"type": 4}),
                ),
                true,
                guild_request(
                    "Ann",
                    RequestKind::Autocomplete {
                        command: command(
                            "init",
                            &["add"],
                            vec![
                                ("name", OptionValue::String("Gob".into())),
                                ("count", OptionValue::String("1".into())),
                            ],
                        ),
                        focused: "count".into(),
                    },
                ),
            ),
        ];
        for (what, event, autocomplete, expected) in cases {
            let (target, request) =
                decode(&event, autocomplete).unwrap_or_else(|error| panic!("{what}: {error}"));
            assert_eq!(request, expected, "{what}");
            assert_eq!(
                (target.id.0.get(), target.token.as_str()),
                (900, "tok"),
                "{what}"
            );
        }
    }

    #[test]
    fn the_answer_s_target_knows_permissions_and_threads() {
        let (target, _) = decode(&in_guild(roll("1"), json!({})), false).expect("reads");
        assert_eq!(
            (target.app_permissions, target.in_thread),
            (Some(2048), false)
        );
        let thread =
            json!({"channel": {"id": "8", "type": 11, "thread_metadata": {"archived": false}}});
        let (target, _) = decode(&in_guild(roll("1"), thread), false).expect("reads");
        assert!(target.in_thread);
        let none = json!({"channel": null, "app_permissions": null});
        let (target, _) = decode(&in_guild(roll("1"), none), false).expect("reads");
        assert_eq!((target.app_permissions, target.in_thread), (None, false));
    }

    #[test]
    fn what_serenity_refuses_is_refused() {
        let wrong = |kind: u8, value: Value| {
            in_guild(
                json!({"name": "x", "options": [{"name": "o", "type": kind, "value": value}]}),
                json!({}),
            )
        };
        let refused: Vec<(&str, Value, Unreadable)> = vec![
            (
                "text for an integer",
                wrong(4, json!("3")),
                Unreadable::Option {
                    name: "o".into(),
                    kind: 4,
                },
            ),
            (
                "a float for an integer",
                wrong(4, json!(1.5)),
                Unreadable::Option {
                    name: "o".into(),
                    kind: 4,
                },
            ),
            (
                "a number for text",
                wrong(3, json!(3)),
                Unreadable::Option {
                    name: "o".into(),
                    kind: 3,
                },
            ),
            (
                "text for a flag",
                wrong(5, json!("yes")),
                Unreadable::Option {
                    name: "o".into(),
                    kind: 5,
                },
            ),
            (
                "a role that is no id",
                wrong(8, json!("x")),
                Unreadable::Option {
                    name: "o".into(),
                    kind: 8,
                },
            ),
            (
                "a role of id 0",
                wrong(8, json!("0")),
                Unreadable::Option {
                    name: "o".into(),
                    kind: 8,
                },
            ),
            (
                "no value",
                wrong(3, json!(null)),
                Unreadable::Option {
                    name: "o".into(),
                    kind: 3,
                },
            ),
            (
                "no user at all",
                in_guild(roll("1"), json!({"member": null})),
                Unreadable::NoUser,
            ),
        ];
        for (what, event, expected) in refused {
            let error = decode(&event, false).err();
            assert_eq!(error, Some(expected), "{what}");
        }
        let undecodable = [
            ("an id of 0", in_guild(roll("1"), json!({"id": "0"}))),
            (
                "an id that is no number",
                in_guild(roll("1"), json!({"id": "x"})),
            ),
            ("no token", in_guild(roll("1"), json!({"token": null}))),
            ("no data", in_guild(json!(null), json!({}))),
            ("an object for a value", wrong(3, json!({"a": 1}))),
        ];
        for (what, event) in undecodable {
            assert!(
                serde_json::from_value::<CommandEvent>(event).is_err(),
                "{what}"
            );
        }
    }
}
