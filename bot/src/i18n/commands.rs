//! The command table's names and descriptions in other languages (`commands.ftl`),
//! keyed by the spec's own names, so the specs stay as they are and every element
//! finds its texts by its path.
//!
//! The key scheme (Fluent message ids hold ASCII letters, digits, `-` and `_`; any
//! other character of a name becomes `_`):
//! - a command, subcommand group or subcommand: `cmd-` and its path joined by `-`:
//!   `cmd-roll`, `cmd-chargen-program`, `cmd-chargen-program-add`;
//! - an option: its command's key, `--` and its name: `cmd-roll--expr`,
//!   `cmd-chargen-program-add--name`;
//! - each of these messages has the attributes `.name` and `.description`;
//! - a choice is an attribute of its option's message, `.choice-` and its value:
//!   `cmd-help--topic` has `.choice-roll`.
//!
//! ```text
//! cmd-roll =
//!     .name = würfeln
//!     .description = Würfeln: 1d20+5, 4d6kh3, 8d6 Feuer …
//! cmd-help--topic =
//!     .name = thema
//!     .description = Welche Seite …
//!     .choice-roll = würfeln
//! ```
//!
//! The English file holds the spec's own texts (a test keeps them equal), as the
//! source beside which translators write.

use crate::spec::{CommandSpec, OptionSpec, SubcommandSpec};

use super::Lang;

/// The message key of a command, subcommand group or subcommand at `path`
/// (`["chargen", "program", "add"]`).
pub fn command_key(path: &[&str]) -> String {
    let mut key = String::from("cmd");
    for name in path {
        key.push('-');
        push_identifier(&mut key, name);
    }
    key
}

/// The message key of option `option` of the command at `path`.
pub fn option_key(path: &[&str], option: &str) -> String {
    let mut key = command_key(path);
    key.push_str("--");
    push_identifier(&mut key, option);
    key
}

/// The attribute, on its option's message, that names choice `value`.
pub fn choice_attribute(value: &str) -> String {
    let mut attribute = String::from("choice-");
    push_identifier(&mut attribute, value);
    attribute
}

fn push_identifier(key: &mut String, name: &str) {
    key.extend(name.chars().map(|ch| match ch {
        'a'..='z' | 'A'..='Z' | '0'..='9' | '-' | '_' => ch,
        _ => '_',
    }));
}

/// One element of the table as the catalogue knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub key: String,
    /// The English name (the spec's).
    pub name: &'static str,
    /// The English description (the spec's); empty for a choice.
    pub description: &'static str,
    /// `None` for a command, group, subcommand or option (attributes `name` and
    /// `description`); the choice's attribute for a choice.
    pub choice: Option<String>,
}

/// Every element of `spec` with its key, in registration order: the command, then
/// its options, subcommands (each with its options) and groups.
pub fn entries(spec: &CommandSpec) -> Vec<Entry> {
    let mut entries = vec![named(
        command_key(&[spec.name]),
        spec.name,
        spec.description,
    )];
    options(&[spec.name], &spec.options, &mut entries);
    for sub in &spec.subcommands {
        subcommand(&[spec.name], sub, &mut entries);
    }
    for group in &spec.groups {
        let path = [spec.name, group.name];
        entries.push(named(command_key(&path), group.name, group.description));
        for sub in &group.subcommands {
            subcommand(&path, sub, &mut entries);
        }
    }
    entries
}

fn named(key: String, name: &'static str, description: &'static str) -> Entry {
    Entry {
        key,
        name,
        description,
        choice: None,
    }
}

fn subcommand(parent: &[&'static str], sub: &SubcommandSpec, entries: &mut Vec<Entry>) {
    let mut path = parent.to_vec();
    path.push(sub.name);
    entries.push(named(command_key(&path), sub.name, sub.description));
    options(&path, &sub.options, entries);
}

fn options(path: &[&str], options: &[OptionSpec], entries: &mut Vec<Entry>) {
    for option in options {
        let key = option_key(path, option.name);
        entries.push(named(key.clone(), option.name, option.description));
        for choice in option.choices {
            entries.push(Entry {
                key: key.clone(),
                name: choice,
                description: "",
                choice: Some(choice_attribute(choice)),
            });
        }
    }
}

/// A name and description in one Discord locale.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Localized {
    /// Discord's locale: `de`.
    pub locale: &'static str,
    pub name: String,
    pub description: String,
}

/// The name and description of the element at `key` in every language registered
/// as a localization; a language that lacks either is left out (Discord then shows
/// the English).
pub fn localizations(key: &str) -> Vec<Localized> {
    Lang::LOCALIZED
        .into_iter()
        .filter_map(|lang| {
            Some(Localized {
                locale: lang.discord_locale(),
                name: super::attribute(lang, key, "name")?,
                description: super::attribute(lang, key, "description")?,
            })
        })
        .collect()
}

/// The name of choice `value` of the option at `option_key`, per registered locale.
pub fn choice_localizations(option_key: &str, value: &str) -> Vec<(&'static str, String)> {
    let attribute = choice_attribute(value);
    Lang::LOCALIZED
        .into_iter()
        .filter_map(|lang| {
            let name = super::attribute(lang, option_key, &attribute)?;
            Some((lang.discord_locale(), name))
        })
        .collect()
}
