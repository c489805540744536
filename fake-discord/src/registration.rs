//! Discord's rules for registering application commands (`PUT` or `POST`
//! `/commands`): names, descriptions, choice names and their localizations, as pure
//! functions over the request JSON. Discord answers a violation with
//! `400 {"code": 50035}`; the limits come from its API documentation.

use serde_json::Value;

use crate::records::Rule;
use crate::rules::{MAX_CHOICE_CHARS, Problem, array, char_len};

/// The locales Discord accepts as keys of `name_localizations` and
/// `description_localizations` (API reference, "Locales").
const DISCORD_LOCALES: &[&str] = &[
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl",
    "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th",
    "zh-CN", "ja", "zh-TW", "ko",
];
const MAX_COMMAND_NAME_CHARS: usize = 32;
const MAX_COMMAND_DESCRIPTION_CHARS: usize = 100;

/// Everything Discord refuses in one command of a registration (`PUT` or `POST`
/// `/commands`): names, descriptions and choice names, and their localizations.
pub(crate) fn check_command(command: &Value) -> Vec<Problem> {
    let mut problems = Vec::new();
    check_command_level(command, "", &mut problems);
    problems
}

/// A command or an option (subcommands and groups are options), then its options.
fn check_command_level(level: &Value, path: &str, problems: &mut Vec<Problem>) {
    // A context-menu command (type 2 or 3) has a free name of 1 to 32 characters and
    // no description.
    let kind = level.get("type").and_then(Value::as_u64).unwrap_or(1);
    if path.is_empty() && kind != 1 {
        check_length(level.get("name"), "name", MAX_COMMAND_NAME_CHARS, problems);
        return;
    }
    let name_path = format!("{path}name");
    check_command_name(level.get("name"), &name_path, problems);
    check_localizations(
        level,
        "name_localizations",
        path,
        problems,
        |value, at, problems| {
            check_command_name(Some(value), at, problems);
        },
    );
    let description_path = format!("{path}description");
    let max = MAX_COMMAND_DESCRIPTION_CHARS;
    check_length(level.get("description"), &description_path, max, problems);
    check_localizations(
        level,
        "description_localizations",
        path,
        problems,
        |value, at, problems| check_length(Some(value), at, max, problems),
    );
    for (index, choice) in array(level.get("choices")).iter().enumerate() {
        let choice_path = format!("{path}choices.{index}.");
        let name_path = format!("{choice_path}name");
        check_length(choice.get("name"), &name_path, MAX_CHOICE_CHARS, problems);
        check_localizations(
            choice,
            "name_localizations",
            &choice_path,
            problems,
            |value, at, problems| check_length(Some(value), at, MAX_CHOICE_CHARS, problems),
        );
    }
    for (index, option) in array(level.get("options")).iter().enumerate() {
        check_command_level(option, &format!("{path}options.{index}."), problems);
    }
}

/// Each entry of the map `field` of `level`: a known locale, and a value `check` passes.
fn check_localizations(
    level: &Value,
    field: &str,
    path: &str,
    problems: &mut Vec<Problem>,
    check: impl Fn(&Value, &str, &mut Vec<Problem>),
) {
    let Some(map) = level.get(field).and_then(Value::as_object) else {
        return;
    };
    for (locale, value) in map {
        let at = format!("{path}{field}.{locale}");
        if !DISCORD_LOCALES.contains(&locale.as_str()) {
            problems.push(Problem::new(
                Rule::CommandInvalid,
                at,
                "LOCALE_INVALID",
                format!("Invalid locale `{locale}`."),
            ));
            continue;
        }
        check(value, &at, problems);
    }
}

fn command_problem(path: String, message: String) -> Problem {
    Problem::new(Rule::CommandInvalid, path, "BASE_TYPE_BAD_LENGTH", message)
}

/// `^[-_'\p{L}\p{N}]{1,32}$`, lower case wherever a letter has a lower case.
fn check_command_name(name: Option<&Value>, path: &str, problems: &mut Vec<Problem>) {
    let before = problems.len();
    check_length(name, path, MAX_COMMAND_NAME_CHARS, problems);
    if problems.len() > before {
        return;
    }
    let name = name.and_then(Value::as_str).unwrap_or_default();
    let allowed =
        |ch: char| ch.is_alphabetic() || ch.is_numeric() || matches!(ch, '-' | '_' | '\'');
    if !name.chars().all(allowed) || name.to_lowercase() != name {
        problems.push(Problem::new(
            Rule::CommandInvalid,
            path,
            "APPLICATION_COMMAND_INVALID_NAME",
            format!("Command name is invalid: `{name}`."),
        ));
    }
}

/// A text of 1 to `max` characters.
fn check_length(text: Option<&Value>, path: &str, max: usize, problems: &mut Vec<Problem>) {
    let len = char_len(text);
    if !(1..=max).contains(&len) {
        problems.push(command_problem(
            path.to_owned(),
            format!("Must be between 1 and {max} in length (got {len})."),
        ));
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Map, json};

    use super::*;

    #[test]
    fn command_registration_rules_cover_localizations() {
        let good = json!({
            "name": "roll",
            "description": "Roll dice",
            "name_localizations": {"de": "würfeln", "en-GB": "roll"},
            "description_localizations": {"de": "Würfeln"},
            "options": [{
                "type": 3,
                "name": "scope",
                "description": "Whose",
                "name_localizations": {"de": "wessen"},
                "choices": [{"name": "me", "value": "me", "name_localizations": {"de": "meins"}}],
            }],
        });
        assert_eq!(check_command(&good), vec![]);
        // (what is changed, the path Discord names)
        let broken: [(&str, Value, &str); 9] = [
            (
                "/name_localizations",
                json!({"de-DE": "würfeln"}),
                "name_localizations.de-DE",
            ),
            (
                "/name_localizations",
                json!({"de": "Würfeln"}),
                "name_localizations.de",
            ),
            (
                "/name_localizations",
                json!({"de": "würfel wurf"}),
                "name_localizations.de",
            ),
            (
                "/name_localizations",
                json!({"de": "w".repeat(33)}),
                "name_localizations.de",
            ),
            (
                "/name_localizations",
                json!({"de": ""}),
                "name_localizations.de",
            ),
            (
                "/description_localizations",
                json!({"de": "x".repeat(101)}),
                "description_localizations.de",
            ),
            (
                "/options/0/name_localizations",
                json!({"fr-FR": "qui"}),
                "options.0.name_localizations.fr-FR",
            ),
            (
                "/options/0/choices/0/name_localizations",
                json!({"de": "m".repeat(101)}),
                "options.0.choices.0.name_localizations.de",
            ),
            ("/options/0/name", json!("Scope"), "options.0.name"),
        ];
        for (pointer, value, path) in broken {
            let mut command = good.clone();
            *command.pointer_mut(pointer).unwrap() = value;
            let problems = check_command(&command);
            assert_eq!(
                problems.iter().map(|p| p.rule).collect::<Vec<_>>(),
                vec![Rule::CommandInvalid],
                "{pointer}"
            );
            assert_eq!(problems[0].path, path);
        }
        // Every locale of Discord's list is accepted, names with letters of any script.
        let mut everywhere = good.clone();
        let names: Map<String, Value> = DISCORD_LOCALES
            .iter()
            .map(|locale| ((*locale).to_owned(), json!("würfeln-ß_'2")))
            .collect();
        everywhere["name_localizations"] = Value::Object(names);
        assert_eq!(check_command(&everywhere), vec![]);
        // A context-menu command has no description, and its name may have capitals
        // and spaces.
        assert_eq!(
            check_command(&json!({"name": "Inspect Item", "type": 3})),
            vec![]
        );
        assert_eq!(check_command(&json!({"name": "", "type": 3})).len(), 1);
    }
}
