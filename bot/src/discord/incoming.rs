//! serenity's components, modals and messages mapped onto the core's [`Request`]
//! (commands are read by `wire.rs`).

use serenity::all::{ActionRowComponent, Permissions as SerenityPermissions, RoleId};
use serenity::all::{
    ComponentInteraction, ComponentInteractionDataKind, GuildId, Member as SerenityMember,
    Message as SerenityMessage, ModalInteraction, PartialMember, User as SerenityUser,
};

use crate::core::chargen::ChargenId;
use crate::core::npc::NpcId;
use crate::core::{Member, Permissions, Request, RequestKind, User};

/// A snowflake as the core stores it. Snowflakes stay below 2^63 for centuries; a
/// larger one (never sent by Discord) maps to `i64::MAX` rather than wrapping.
pub(super) fn snowflake(id: u64) -> i64 {
    i64::try_from(id).unwrap_or(i64::MAX)
}

/// A button press or a select-menu choice.
pub(super) fn component(interaction: &ComponentInteraction) -> Request {
    let custom_id = interaction.data.custom_id.clone();
    let message_id = snowflake(interaction.message.id.get());
    let kind = match &interaction.data.kind {
        ComponentInteractionDataKind::StringSelect { values } => RequestKind::Select {
            custom_id,
            message_id,
            values: values.clone(),
        },
        ComponentInteractionDataKind::UserSelect { values } => {
            select(custom_id, message_id, values)
        }
        ComponentInteractionDataKind::RoleSelect { values } => {
            select(custom_id, message_id, values)
        }
        ComponentInteractionDataKind::ChannelSelect { values } => {
            select(custom_id, message_id, values)
        }
        ComponentInteractionDataKind::MentionableSelect { values } => {
            select(custom_id, message_id, values)
        }
        ComponentInteractionDataKind::Button | ComponentInteractionDataKind::Unknown(_) => {
            RequestKind::Button {
                custom_id,
                message_id,
            }
        }
    };
    request(
        &interaction.user,
        interaction.member.as_ref().map(member_parts),
        interaction.guild_id,
        interaction.channel_id.get(),
        Locales::of(&interaction.locale, interaction.guild_locale.as_deref()),
        kind,
    )
}

fn select<T: ToString>(custom_id: String, message_id: i64, values: &[T]) -> RequestKind {
    RequestKind::Select {
        custom_id,
        message_id,
        values: values.iter().map(ToString::to_string).collect(),
    }
}

/// A modal submit: the value of every text input.
pub(super) fn modal(interaction: &ModalInteraction) -> Request {
    let fields = interaction
        .data
        .components
        .iter()
        .flat_map(|row| row.components.iter())
        .filter_map(|component| match component {
            ActionRowComponent::InputText(input) => Some((
                input.custom_id.clone(),
                input.value.clone().unwrap_or_default(),
            )),
            _ => None,
        })
        .collect();
    request(
        &interaction.user,
        interaction.member.as_ref().map(member_parts),
        interaction.guild_id,
        interaction.channel_id.get(),
        Locales::of(&interaction.locale, interaction.guild_locale.as_deref()),
        RequestKind::Modal {
            custom_id: interaction.data.custom_id.clone(),
            fields,
        },
    )
}

/// What a regular message means to Tavern.
#[derive(Debug)]
pub(super) enum Incoming {
    /// Not for us: a bot's message, not a reply, or a reply to someone else.
    Ignore,
    /// A reply to one of our questions whose text Discord withheld (no
    /// message-content intent, no ping, not a DM): a `MessageReply` with no text.
    Unreadable(Request),
    /// A reply to one of our messages.
    Reply(Request),
}

/// A message replying to one of the bot's messages becomes a `MessageReply`.
pub(super) fn message(message: &SerenityMessage, bot_user_id: u64) -> Incoming {
    if message.author.bot || message.webhook_id.is_some() {
        return Incoming::Ignore;
    }
    let Some(to_message) = message
        .message_reference
        .as_ref()
        .and_then(|reference| reference.message_id)
    else {
        return Incoming::Ignore;
    };
    // Discord sends the replied-to message along; when it is absent (deleted, or too
    // old to resolve) the core still matches the id against its prompts.
    if let Some(referenced) = &message.referenced_message
        && referenced.author.id.get() != bot_user_id
    {
        return Incoming::Ignore;
    }
    let reply = |text: String| {
        request(
            &message.author,
            message.member.as_deref().map(partial_member_parts),
            message.guild_id,
            message.channel_id.get(),
            // A message carries no locale: answers to it are the server's language.
            Locales::default(),
            RequestKind::MessageReply {
                message_id: snowflake(message.id.get()),
                to_message: snowflake(to_message.get()),
                text,
            },
        )
    };
    if message.content.trim().is_empty() {
        let replied_to_prompt = message
            .referenced_message
            .as_deref()
            .is_some_and(carries_answer_button);
        if replied_to_prompt {
            return Incoming::Unreadable(reply(String::new()));
        }
        return Incoming::Ignore;
    }
    let text = without_mentions_of(&message.content, bot_user_id);
    if text.is_empty() {
        // Only a mention of the bot: nothing was answered.
        return Incoming::Ignore;
    }
    Incoming::Reply(reply(text))
}

/// A reply's text without mentions of the bot: a user who types `@Tavern` so that
/// Discord shows the bot the reply means only the rest as the answer.
fn without_mentions_of(content: &str, bot_user_id: u64) -> String {
    content
        .replace(&format!("<@{bot_user_id}>"), "")
        .replace(&format!("<@!{bot_user_id}>"), "")
        .trim()
        .to_owned()
}

/// Whether a message of ours waits for a typed answer: a generator's question (its
/// "Answer" button) or any waiting NPC prompt (a keyword, yes/no, an amount, a menu
/// choice or a trade command may all be typed in a reply).
fn carries_answer_button(message: &SerenityMessage) -> bool {
    message
        .components
        .iter()
        .flat_map(|row| row.components.iter())
        .any(|component| match component {
            ActionRowComponent::Button(button) => match &button.data {
                serenity::all::ButtonKind::NonLink { custom_id, .. } => {
                    takes_typed_answers(custom_id)
                }
                _ => false,
            },
            _ => false,
        })
}

fn takes_typed_answers(custom_id: &str) -> bool {
    if let Some(ChargenId::Answer { .. }) = ChargenId::decode(custom_id) {
        return true;
    }
    NpcId::decode(custom_id).is_some()
}

/// The member's display name, permissions and roles.
struct MemberParts {
    nick: Option<String>,
    permissions: Option<SerenityPermissions>,
    roles: Vec<RoleId>,
}

fn member_parts(member: &SerenityMember) -> MemberParts {
    MemberParts {
        nick: member.nick.clone(),
        permissions: member.permissions,
        roles: member.roles.clone(),
    }
}

fn partial_member_parts(member: &PartialMember) -> MemberParts {
    MemberParts {
        nick: member.nick.clone(),
        permissions: member.permissions,
        roles: member.roles.clone(),
    }
}

/// The user's and the server's Discord locale, as an interaction carries them.
#[derive(Default)]
struct Locales {
    user: Option<String>,
    guild: Option<String>,
}

impl Locales {
    fn of(locale: &str, guild_locale: Option<&str>) -> Locales {
        Locales {
            user: Some(locale.to_owned()),
            guild: guild_locale.map(str::to_owned),
        }
    }
}

fn request(
    user: &SerenityUser,
    member: Option<MemberParts>,
    guild_id: Option<GuildId>,
    channel_id: u64,
    locales: Locales,
    kind: RequestKind,
) -> Request {
    let (nick, member) = match member {
        Some(parts) => (
            parts.nick,
            Some(Member {
                permissions: Permissions(parts.permissions.map_or(0, |bits| bits.bits())),
                roles: parts
                    .roles
                    .iter()
                    .map(|role| snowflake(role.get()))
                    .collect(),
            }),
        ),
        None => (None, None),
    };
    Invoker {
        user_id: snowflake(user.id.get()),
        display_name: user.display_name().to_owned(),
        nick,
        member,
        guild_id: guild_id.map(|guild| snowflake(guild.get())),
        channel_id: snowflake(channel_id),
        locale: locales.user,
        guild_locale: locales.guild,
    }
    .request(kind)
}

/// Who sent an event and where, as plain values. serenity's model (here) and
/// `wire.rs` both fill it, and [`Invoker::request`] keeps the rules once.
pub(super) struct Invoker {
    pub user_id: i64,
    /// The global name, else the username.
    pub display_name: String,
    pub nick: Option<String>,
    /// The member's permissions and roles, when the event came with a member.
    pub member: Option<Member>,
    pub guild_id: Option<i64>,
    pub channel_id: i64,
    /// The user's Discord locale; empty or absent means unknown.
    pub locale: Option<String>,
    pub guild_locale: Option<String>,
}

impl Invoker {
    /// The core's request: the nick before the display name, and the member and the
    /// server's locale only in a server.
    pub(super) fn request(self, kind: RequestKind) -> Request {
        Request {
            user: User {
                id: self.user_id,
                name: self.nick.unwrap_or(self.display_name),
            },
            guild_id: self.guild_id,
            channel_id: self.channel_id,
            member: self.guild_id.and(self.member),
            locale: self.locale.filter(|locale| !locale.is_empty()),
            guild_locale: self.guild_id.and(self.guild_locale),
            kind,
        }
    }
}
