//! Registering the core's command table with Discord: one bulk overwrite (`PUT`), so
//! the registered set is exactly the table, and stale commands disappear with it.
//! Every name and description carries its translations (`name_localizations`,
//! `description_localizations`) from the catalogue, found by the element's path
//! (`i18n::commands`); the spec's own texts are the default (English).

use serenity::all::{
    Command, CommandOptionType, CreateCommand, CreateCommandOption, GuildId, Http,
};

use crate::core::commands::{CommandSpec, OptionKind, OptionSpec, SubcommandSpec};
use crate::i18n::commands::{choice_localizations, command_key, localizations, option_key};

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
    let path = [spec.name];
    let mut command = CreateCommand::new(spec.name).description(spec.description);
    for localized in localizations(&command_key(&path)) {
        command = command
            .name_localized(localized.locale, localized.name)
            .description_localized(localized.locale, localized.description);
    }
    for option in &spec.options {
        command = command.add_option(create_option(&path, option));
    }
    for sub in &spec.subcommands {
        command = command.add_option(create_subcommand(&path, sub));
    }
    for group in &spec.groups {
        let path = [spec.name, group.name];
        let mut created = localized_option(
            CreateCommandOption::new(
                CommandOptionType::SubCommandGroup,
                group.name,
                group.description,
            ),
            &command_key(&path),
        );
        for sub in &group.subcommands {
            created = created.add_sub_option(create_subcommand(&path, sub));
        }
        command = command.add_option(created);
    }
    command
}

/// `option` with the translations of the element at `key`.
fn localized_option(mut option: CreateCommandOption, key: &str) -> CreateCommandOption {
    for localized in localizations(key) {
        option = option
            .name_localized(localized.locale, localized.name)
            .description_localized(localized.locale, localized.description);
    }
    option
}

fn create_subcommand(parent: &[&str], sub: &SubcommandSpec) -> CreateCommandOption {
    let mut path = parent.to_vec();
    path.push(sub.name);
    let mut created = localized_option(
        CreateCommandOption::new(CommandOptionType::SubCommand, sub.name, sub.description),
        &command_key(&path),
    );
    for option in &sub.options {
        created = created.add_sub_option(create_option(&path, option));
    }
    created
}

fn create_option(path: &[&str], spec: &OptionSpec) -> CreateCommandOption {
    let key = option_key(path, spec.name);
    let kind = match spec.kind {
        OptionKind::String { .. } => CommandOptionType::String,
        OptionKind::Integer { .. } => CommandOptionType::Integer,
        OptionKind::Boolean => CommandOptionType::Boolean,
        OptionKind::Attachment => CommandOptionType::Attachment,
        OptionKind::Role => CommandOptionType::Role,
        OptionKind::Channel => CommandOptionType::Channel,
    };
    let mut option = localized_option(
        CreateCommandOption::new(kind, spec.name, spec.description),
        &key,
    )
    .required(spec.required)
    .set_autocomplete(spec.autocomplete);
    for choice in spec.choices {
        option = option.add_string_choice_localized(
            *choice,
            *choice,
            choice_localizations(&key, choice),
        );
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
        // The GM channel takes text channels only: Tavern posts there.
        OptionKind::Channel => option.channel_types(vec![serenity::all::ChannelType::Text]),
        OptionKind::Boolean | OptionKind::Attachment | OptionKind::Role => option,
    }
}
