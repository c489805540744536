//! Registering the core's command table with Discord: one bulk overwrite (`PUT`), so
//! the registered set is exactly the table, and stale commands disappear with it.

use serenity::all::{
    Command, CommandOptionType, CreateCommand, CreateCommandOption, GuildId, Http,
};

use crate::core::commands::{CommandSpec, OptionKind, OptionSpec, SubcommandSpec};

/// Where the commands go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Every server and DMs with the bot (updates can take a while to reach clients).
    Global,
    /// One development server; updates are instant.
    Guild(u64),
}

/// Overwrites the registered commands with `specs`; returns how many Discord holds.
pub(super) async fn register(
    http: &Http,
    specs: &[CommandSpec],
    scope: Scope,
) -> anyhow::Result<usize> {
    let commands = specs.iter().map(create_command).collect();
    let registered = match scope {
        Scope::Global => Command::set_global_commands(http, commands).await?,
        Scope::Guild(guild_id) => {
            let guild = GuildId::new(guild_id);
            guild.set_commands(http, commands).await?
        }
    };
    Ok(registered.len())
}

fn create_command(spec: &CommandSpec) -> CreateCommand {
    let mut command = CreateCommand::new(spec.name).description(spec.description);
    for option in &spec.options {
        command = command.add_option(create_option(option));
    }
    for sub in &spec.subcommands {
        command = command.add_option(create_subcommand(sub));
    }
    for group in &spec.groups {
        let mut created = CreateCommandOption::new(
            CommandOptionType::SubCommandGroup,
            group.name,
            group.description,
        );
        for sub in &group.subcommands {
            created = created.add_sub_option(create_subcommand(sub));
        }
        command = command.add_option(created);
    }
    command
}

fn create_subcommand(sub: &SubcommandSpec) -> CreateCommandOption {
    let mut created =
        CreateCommandOption::new(CommandOptionType::SubCommand, sub.name, sub.description);
    for option in &sub.options {
        created = created.add_sub_option(create_option(option));
    }
    created
}

fn create_option(spec: &OptionSpec) -> CreateCommandOption {
    let kind = match spec.kind {
        OptionKind::String { .. } => CommandOptionType::String,
        OptionKind::Integer { .. } => CommandOptionType::Integer,
        OptionKind::Boolean => CommandOptionType::Boolean,
        OptionKind::Attachment => CommandOptionType::Attachment,
        OptionKind::Role => CommandOptionType::Role,
    };
    let mut option = CreateCommandOption::new(kind, spec.name, spec.description)
        .required(spec.required)
        .set_autocomplete(spec.autocomplete);
    for choice in spec.choices {
        option = option.add_string_choice(*choice, *choice);
    }
    match spec.kind {
        OptionKind::String { max_length } => option.max_length(max_length),
        // serenity takes the bounds unsigned. A negative bound is left out rather than
        // turned into 0 (which would refuse every negative value on Discord); the core
        // checks the range itself.
        OptionKind::Integer { min, max } => {
            let option = match u64::try_from(min) {
                Ok(min) => option.min_int_value(min),
                Err(_) => option,
            };
            match u64::try_from(max) {
                Ok(max) => option.max_int_value(max),
                Err(_) => option,
            }
        }
        OptionKind::Boolean | OptionKind::Attachment | OptionKind::Role => option,
    }
}
