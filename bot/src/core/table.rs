//! The command table: one [`CommandEntry`] per slash command, declared by the module
//! that implements it. Registration, the console, `/help`, the metrics, dispatch,
//! acknowledgement, autocomplete and the routing of custom ids all read this one
//! list, so adding a command is one module and one line in [`COMMANDS`].

use std::future::Future;
use std::pin::Pin;

use super::access;
use super::commands::CommandSpec;
use super::context::Context;
use super::custom_id;
use super::{Ack, Command, CoreSettings, Reply, Request, RequestKind, ephemeral};
use crate::i18n::{self, Lang};

pub use super::access::MacroChange;

/// What a handler returns: the replies, built after every change is stored.
pub type Answer<'a> = Pin<Box<dyn Future<Output = anyhow::Result<Vec<Reply>>> + Send + 'a>>;

/// A slash command and everything it owns.
pub struct CommandEntry {
    /// The command's name, as in its spec (the table test holds them equal).
    pub name: &'static str,
    /// What Discord registers and the console parses.
    pub spec: fn(&CoreSettings) -> CommandSpec,
    /// How a transport acknowledges this command if its answer is slow; decided by
    /// the module, which knows whether the answer is a modal, a public message or a
    /// private one.
    pub ack: fn(&Command) -> Ack,
    pub run: for<'a> fn(&'a Context, &'a Request, &'a Command) -> Answer<'a>,
    /// Choices for the focused option (the last argument); an empty list where the
    /// command offers none.
    pub autocomplete: for<'a> fn(&'a Context, &'a Request, &'a Command, &'a str) -> Answer<'a>,
    /// The custom-id families of the buttons, selects and modals this command posts.
    pub components: &'static [ComponentFamily],
    /// The subcommands dispatched by the table, each with its guards; empty for a
    /// command without subcommands, which `run` answers. When not empty, `run` is
    /// not called for a command (`by_subcommand`).
    pub subcommands: &'static [Subcommand],
    /// How this command takes text typed as a Discord reply to one of its prompts;
    /// `None` where it posts no such prompt. Each family claims only messages it
    /// posted (looked up by message id), so the order they are asked in does not
    /// matter.
    pub typed_replies: Option<TypedReplies>,
    /// What [`super::Core::sweep`] runs now and then for this command: its state that
    /// expired is ended or forgotten, with notices where it showed; `None` where the
    /// command keeps nothing that expires. Run in the table's order.
    pub sweep: Option<Sweep>,
}

/// Ends or forgets what expired by `now` (the core's clock, unix milliseconds) and
/// returns the notices for the channels.
pub type Sweep = for<'a> fn(&'a Context, i64) -> Answer<'a>;

/// Handles a message typed in reply to message `to_message`: `None` when that
/// message is not one of this command's prompts.
pub type TypedReplies = for<'a> fn(&'a Context, &'a Request, i64, &'a str) -> TypedAnswer<'a>;

/// What a [`TypedReplies`] returns.
pub type TypedAnswer<'a> =
    Pin<Box<dyn Future<Output = anyhow::Result<Option<Vec<Reply>>>> + Send + 'a>>;

/// A subcommand, its guards and its handler: [`dispatch`] runs every guard, in
/// order, before the handler, so a subcommand cannot forget its guard.
pub struct Subcommand {
    /// The subcommand's name as in the spec, after its group's and a space for one
    /// in a group (`program add`); `None` is what the command runs when a request
    /// names no subcommand (Discord and the console always name one).
    pub name: Option<&'static str>,
    pub guards: &'static [Guard],
    pub run: for<'a> fn(&'a Context, &'a Request, &'a Command) -> Answer<'a>,
}

/// What a member must be, or where they must be, before a subcommand runs. Every
/// refusal is private, in the user's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Guard {
    /// Only in a server: a direct message is refused.
    GuildOnly,
    /// Only in a server, a direct message refused with the plain text `refusal_key`.
    GuildOnlyWith { refusal_key: &'static str },
    /// Manage Server or the macro role ([`Context::refuse_unless_admin`]); `what_key`
    /// names what the others may not do.
    Admin { what_key: &'static str },
    /// Manage Server or the macro role, refused with the plain text `refusal_key`.
    AdminPlain { refusal_key: &'static str },
    /// Manage Server itself, not the macro role (what handing out roles takes).
    ManagesServer { refusal_key: &'static str },
    /// Manage Server or the macro role when the macro the `scope` option names (or
    /// `change` means without it) is the server's: refused with `what_key` as
    /// [`Guard::Admin`] is, in a direct message with `dm_key`; a `scope` that is
    /// neither is refused too ([`Context::refuse_macro_scope`]).
    MacroScope {
        change: MacroChange,
        dm_key: &'static str,
        what_key: &'static str,
    },
    /// The GM of the channel's encounter, or Tavern's admins: refused with
    /// `refusal_key` (its `gm` names the GM); without an encounter the handler
    /// answers ([`Context::refuse_unless_encounter_gm`]).
    EncounterGm { refusal_key: &'static str },
}

impl Guard {
    /// The refusal when the member fails this guard, or `None` when they pass.
    async fn refusal(
        self,
        cx: &Context,
        request: &Request,
        command: &Command,
    ) -> anyhow::Result<Option<Vec<Reply>>> {
        let lang = cx.language(request, false).await?;
        match self {
            Guard::GuildOnly => Ok(request
                .guild_id
                .is_none()
                .then(|| ephemeral(access::not_in_dms(lang)))),
            Guard::GuildOnlyWith { refusal_key } => Ok(request
                .guild_id
                .is_none()
                .then(|| ephemeral(i18n::tr(lang, refusal_key)))),
            Guard::Admin { what_key } => cx.refuse_unless_admin(lang, request, what_key).await,
            Guard::AdminPlain { refusal_key } => Ok((!cx.may_administer(request).await?)
                .then(|| ephemeral(i18n::tr(lang, refusal_key)))),
            Guard::ManagesServer { refusal_key } => {
                Ok((!access::manages_server(request))
                    .then(|| ephemeral(i18n::tr(lang, refusal_key))))
            }
            Guard::MacroScope {
                change,
                dm_key,
                what_key,
            } => {
                cx.refuse_macro_scope(lang, request, command, change, dm_key, what_key)
                    .await
            }
            Guard::EncounterGm { refusal_key } => {
                cx.refuse_unless_encounter_gm(lang, request, refusal_key)
                    .await
            }
        }
    }
}

/// Runs `command` of `entry`: its subcommand's guards, then its handler; the
/// command's own `run` where the table holds no subcommands.
pub async fn dispatch(
    cx: &Context,
    entry: &CommandEntry,
    request: &Request,
    command: &Command,
) -> anyhow::Result<Vec<Reply>> {
    if entry.subcommands.is_empty() {
        return (entry.run)(cx, request, command).await;
    }
    let path = command.subcommand.join(" ");
    let Some(subcommand) = entry
        .subcommands
        .iter()
        .find(|subcommand| subcommand.name.unwrap_or("") == path)
    else {
        // Discord sends only registered subcommands, and the console parses against
        // the same spec; one answer for all commands, should a client send another.
        let lang = cx.language(request, false).await?;
        return Ok(ephemeral(unknown_subcommand(
            lang,
            entry.name,
            &command.subcommand,
        )));
    };
    for guard in subcommand.guards {
        if let Some(refusal) = guard.refusal(cx, request, command).await? {
            return Ok(refusal);
        }
    }
    (subcommand.run)(cx, request, command).await
}

/// "`/chargen programm wat` is not a command": the command and the subcommand path
/// as typed in `lang`, each name the catalogue knows in its words.
fn unknown_subcommand(lang: Lang, command: &str, subcommand: &[String]) -> String {
    let mut path = vec![command];
    let mut shown = Vec::new();
    let mut known = true;
    for (at, name) in std::iter::once(command)
        .chain(subcommand.iter().map(String::as_str))
        .enumerate()
    {
        if at > 0 {
            path.push(name);
        }
        // A name the spec does not hold leaves the rest of the path as typed.
        let localized = known
            .then(|| i18n::attribute(lang, &i18n::commands::command_key(&path), "name"))
            .flatten();
        known = localized.is_some();
        shown.push(localized.unwrap_or_else(|| name.to_owned()));
    }
    let sub = shown.split_off(1).join(" ");
    i18n::tr_args(
        lang,
        "common-unknown-subcommand",
        &[("command", shown.remove(0).into()), ("sub", sub.into())],
    )
}

/// The server a [`Guard::GuildOnly`] subcommand runs in (the guard ran before).
pub fn guild_of(request: &Request) -> anyhow::Result<i64> {
    request
        .guild_id
        .ok_or_else(|| anyhow::anyhow!("a server-only subcommand ran without its guard"))
}

/// The `run` of a command whose subcommands the table dispatches: never called.
pub fn by_subcommand<'a>(_: &'a Context, _: &'a Request, command: &'a Command) -> Answer<'a> {
    let name = command.name.clone();
    Box::pin(async move { anyhow::bail!("/{name} is dispatched by its subcommands") })
}

/// Custom ids `tv1:<kind>:…` whose kind is one of `kinds`, and what to do with them.
pub struct ComponentFamily {
    pub kinds: &'static [&'static str],
    /// How to acknowledge a press or submit of such an id (`Request` says which).
    pub ack: fn(&Request, &str) -> Ack,
    /// Handles a button, select or modal submit carrying such an id.
    pub run: for<'a> fn(&'a Context, &'a Request, &'a str) -> Answer<'a>,
}

/// Every command, in registration order.
pub static COMMANDS: &[CommandEntry] = &[
    super::roll::COMMAND,
    super::chargen::COMMAND,
    super::character::COMMAND,
    super::macros::COMMAND,
    super::settings::COMMAND,
    super::npc::NPC_COMMAND,
    super::npc::TALK_COMMAND,
    super::effect::COMMAND,
    super::odds::COMMAND,
    super::encounter::COMMAND,
    super::help::COMMAND,
];

/// The entry of command `name`.
pub fn command(name: &str) -> Option<&'static CommandEntry> {
    COMMANDS.iter().find(|entry| entry.name == name)
}

/// The family that owns `custom_id`, and the command that owns the family.
pub fn component(custom_id: &str) -> Option<(&'static CommandEntry, &'static ComponentFamily)> {
    let (kind, _) = custom_id::split(custom_id)?;
    COMMANDS.iter().find_map(|entry| {
        entry
            .components
            .iter()
            .find(|family| family.kinds.contains(&kind))
            .map(|family| (entry, family))
    })
}

/// The custom id a component request carries, if it is one.
pub fn custom_id_of(request: &Request) -> Option<&str> {
    match &request.kind {
        RequestKind::Button { custom_id, .. }
        | RequestKind::Select { custom_id, .. }
        | RequestKind::Modal { custom_id, .. } => Some(custom_id),
        _ => None,
    }
}

/// A command's acknowledgement when it may take its time: a private "thinking…".
pub fn defer_private(_: &Command) -> Ack {
    Ack::Defer { ephemeral: true }
}

/// An autocomplete for commands that offer none.
pub fn no_choices<'a>(_: &'a Context, _: &'a Request, _: &'a Command, _: &'a str) -> Answer<'a> {
    Box::pin(async { Ok(vec![Reply::Choices(Vec::new())]) })
}

/// The acknowledgement of a component whose answer replaces its own message (a view
/// or page button, a confirmation).
pub fn defer_update(_: &Request, _: &str) -> Ack {
    Ack::DeferUpdate
}

/// An autocomplete answer of names: at most 25, each label within 100 characters.
pub fn name_choices(names: Vec<String>) -> Vec<Reply> {
    let choices = names
        .into_iter()
        .take(25)
        .map(|name| super::Choice {
            name: super::text::truncate(&name, 100),
            value: name,
        })
        .collect();
    vec![Reply::Choices(choices)]
}
