//! The command table: one [`CommandEntry`] per slash command, declared by the module
//! that implements it. Registration, the console, `/help`, the metrics, dispatch,
//! acknowledgement, autocomplete and the routing of custom ids all read this one
//! list, so adding a command is one module and one line in [`COMMANDS`].

use std::future::Future;
use std::pin::Pin;

use super::commands::CommandSpec;
use super::context::Context;
use super::custom_id;
use super::{Ack, Command, CoreSettings, Reply, Request, RequestKind};

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
