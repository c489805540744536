//! Localization (issue 18): the catalogues agree with each other and with the folders
//! they are embedded from, the language of an answer is decided as documented, and the
//! core and the console speak German to a German user.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use fluent_syntax::ast;
use tavern::console::{Console, ConsoleIdentity};
use tavern::core::language::language_for;
use tavern::core::{Core, CoreSettings, Request, RequestKind, User};
use tavern::i18n::{self, Lang, LanguageSetting};

use crate::cli::{stderr, stdout, tavern, tavern_with_env};
use crate::console::say;
use crate::harness::{ALICE, GUILD, Harness, command, text};

// ----- the catalogue files -----

#[test]
fn every_file_in_the_locale_folders_is_embedded_and_both_languages_have_the_same() {
    let embedded: BTreeSet<String> = i18n::FILES
        .iter()
        .map(|(name, _, _)| (*name).to_owned())
        .collect();
    for lang in Lang::ALL {
        let folder = format!("{}/locales/{}", env!("CARGO_MANIFEST_DIR"), lang.code());
        let on_disk: BTreeSet<String> = std::fs::read_dir(&folder)
            .unwrap_or_else(|error| panic!("{folder}: {error}"))
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".ftl"))
            .collect();
        assert_eq!(on_disk, embedded, "{folder} against i18n::FILES");
    }
}

/// What one file declares: message id → (has a value, attribute → variables), and the
/// value's variables under the attribute name "".
pub(crate) type Shape = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

pub(crate) fn shape(file: &str, source: &str) -> Shape {
    let resource = fluent_syntax::parser::parse(source)
        .unwrap_or_else(|(_, errors)| panic!("{file} does not parse: {errors:?}"));
    let mut shape = Shape::new();
    for entry in &resource.body {
        match entry {
            ast::Entry::Message(message) => {
                let mut parts = BTreeMap::new();
                if let Some(value) = &message.value {
                    parts.insert(String::new(), variables(value));
                }
                for attribute in &message.attributes {
                    parts.insert(attribute.id.name.to_owned(), variables(&attribute.value));
                }
                let previous = shape.insert(message.id.name.to_owned(), parts);
                assert!(previous.is_none(), "{file}: `{}` twice", message.id.name);
            }
            ast::Entry::Term(term) => {
                panic!("{file}: term `-{}`: keep texts in messages", term.id.name)
            }
            ast::Entry::Junk { content } => panic!("{file}: junk {content:?}"),
            _ => {}
        }
    }
    shape
}

fn variables(pattern: &ast::Pattern<&str>) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    pattern_variables(pattern, &mut found);
    found
}

fn pattern_variables(pattern: &ast::Pattern<&str>, found: &mut BTreeSet<String>) {
    for element in &pattern.elements {
        if let ast::PatternElement::Placeable { expression } = element {
            expression_variables(expression, found);
        }
    }
}

fn expression_variables(expression: &ast::Expression<&str>, found: &mut BTreeSet<String>) {
    match expression {
        ast::Expression::Select { selector, variants } => {
            inline_variables(selector, found);
            for variant in variants {
                pattern_variables(&variant.value, found);
            }
        }
        ast::Expression::Inline(inline) => inline_variables(inline, found),
    }
}

fn inline_variables(inline: &ast::InlineExpression<&str>, found: &mut BTreeSet<String>) {
    match inline {
        ast::InlineExpression::VariableReference { id } => {
            found.insert(id.name.to_owned());
        }
        ast::InlineExpression::FunctionReference { arguments, .. } => {
            for argument in &arguments.positional {
                inline_variables(argument, found);
            }
            for argument in &arguments.named {
                inline_variables(&argument.value, found);
            }
        }
        ast::InlineExpression::Placeable { expression } => {
            expression_variables(expression, found);
        }
        _ => {}
    }
}

/// `commands.ftl` holds `cmd-…`; every other file's keys start with its name.
fn prefix_of(file: &str) -> String {
    match file {
        "commands.ftl" => "cmd-".to_owned(),
        other => format!("{}-", other.trim_end_matches(".ftl")),
    }
}

#[test]
fn english_and_german_have_the_same_keys_attributes_and_variables() {
    let mut keys = 0;
    for (file, english, german) in i18n::FILES {
        let english = shape(file, english);
        let german = shape(file, german);
        let prefix = prefix_of(file);
        for key in english.keys().chain(german.keys()) {
            assert!(key.starts_with(&prefix), "{file}: `{key}` lacks `{prefix}`");
        }
        let only_english: Vec<_> = english
            .keys()
            .filter(|key| !german.contains_key(*key))
            .collect();
        let only_german: Vec<_> = german
            .keys()
            .filter(|key| !english.contains_key(*key))
            .collect();
        assert!(
            only_english.is_empty(),
            "{file}: missing in German: {only_english:?}"
        );
        assert!(
            only_german.is_empty(),
            "{file}: missing in English: {only_german:?}"
        );
        for (key, english_parts) in &english {
            // Same value-or-not, same attributes, and each uses the same variables:
            // a variable only one language uses is one the caller gives for nothing
            // or one that shows as `{$name}`.
            assert_eq!(
                english_parts, &german[key],
                "{file}: `{key}` (English, German)"
            );
            keys += 1;
        }
    }
    // The phase-A texts and the command table at least.
    assert!(keys > 80, "{keys} keys");
}

/// Every Rust file under `bot/src`, with its path.
fn bot_sources() -> Vec<(String, String)> {
    let mut folders = vec![std::path::PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src"
    ))];
    let mut sources = Vec::new();
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                let source = std::fs::read_to_string(&path).unwrap();
                sources.push((path.display().to_string(), source));
            }
        }
    }
    sources
}

/// The key of every `tr(lang, "key")` and `tr_args(lang, "key", …)` in `bot/src`:
/// keys are written as literals in the call, so that this finds them all.
fn keys_named_in_the_sources() -> BTreeSet<String> {
    bot_sources()
        .iter()
        .flat_map(|(_, source)| keys_in_calls(source))
        .collect()
}

/// The literal second argument of each call of `tr` or `tr_args` in `source`, outside
/// comments and unit tests.
fn keys_in_calls(source: &str) -> Vec<String> {
    let code: String = source
        .split("#[cfg(test)]")
        .next()
        .unwrap_or_default()
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut keys = Vec::new();
    for call in ["tr(", "tr_args("] {
        for (at, _) in code.match_indices(call) {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|ch| ch.is_alphanumeric() || ch == '_' || ch == '.') {
                continue;
            }
            let arguments = &code[at + call.len()..];
            if let Some(key) = second_literal(arguments) {
                keys.push(key.to_owned());
            }
        }
    }
    keys
}

/// `"key"` after the first argument (which may hold calls) of an argument list.
fn second_literal(arguments: &str) -> Option<&str> {
    let mut depth = 0;
    for (at, ch) in arguments.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' if depth == 0 => return None,
            ')' => depth -= 1,
            '"' => return None,
            ',' if depth == 0 => {
                let literal = arguments[at + 1..].trim_start().strip_prefix('"')?;
                return literal.split_once('"').map(|(key, _)| key);
            }
            _ => {}
        }
    }
    None
}

#[test]
fn every_key_the_code_names_exists_in_both_languages() {
    let keys = keys_named_in_the_sources();
    // The phase-A keys at least: the core's and `/config language`'s.
    for known in [
        "common-stale-component",
        "common-rate-limited",
        "config-language-set",
    ] {
        assert!(
            keys.contains(known),
            "{known} not found in bot/src: {keys:?}"
        );
    }
    let missing: Vec<String> = keys
        .iter()
        .flat_map(|key| {
            Lang::ALL
                .into_iter()
                .filter(|lang| !i18n::has_message(*lang, key))
                .map(move |lang| format!("{key} in {lang:?}"))
        })
        .collect();
    assert!(missing.is_empty(), "{missing:#?}");
}

/// Each `tr_args(lang, "key", &[("name", …), …])` in `bot/src` whose arguments are a
/// literal list: the key, the names it gives, and the file, for the check below
/// (calls that build their arguments elsewhere are covered at run time:
/// `i18n::format_errors`, which every reply the harness checks requires to be 0).
fn literal_argument_lists() -> Vec<(String, BTreeSet<String>, String)> {
    let mut calls = Vec::new();
    for (file, source) in bot_sources() {
        let code = source.split("#[cfg(test)]").next().unwrap_or_default();
        for (at, _) in code.match_indices("tr_args(") {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|ch| ch.is_alphanumeric() || ch == '_' || ch == '.') {
                continue;
            }
            let arguments = &code[at + "tr_args(".len()..];
            let Some(key) = second_literal(arguments) else {
                continue;
            };
            let after_key =
                &arguments[arguments.find(&format!("\"{key}\"")).unwrap() + key.len() + 2..];
            let Some(list) = after_key
                .trim_start()
                .strip_prefix(',')
                .map(str::trim_start)
                .and_then(|rest| rest.strip_prefix("&["))
            else {
                continue;
            };
            let Some(names) = names_in_list(list) else {
                continue;
            };
            calls.push((key.to_owned(), names, file.clone()));
        }
    }
    calls
}

/// The string literals that open the tuples of a list's top level: `("name", …)`;
/// `None` when an element is not such a tuple (`noun.clone()`), whose names only
/// the run knows.
fn names_in_list(list: &str) -> Option<BTreeSet<String>> {
    let mut names = BTreeSet::new();
    let mut depth = 0;
    let mut in_string = false;
    let mut escaped = false;
    let mut element_starts = true;
    for (at, ch) in list.char_indices() {
        if element_starts && !in_string && !ch.is_whitespace() {
            element_starts = false;
            if ch != '(' && ch != ']' {
                return None;
            }
        }
        if in_string {
            match ch {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match ch {
            '"' => in_string = true,
            '(' | '[' | '{' => {
                if depth == 0
                    && ch == '('
                    && let Some(name) = list[at + 1..].trim_start().strip_prefix('"')
                    && let Some((name, _)) = name.split_once('"')
                {
                    names.insert(name.to_owned());
                }
                depth += 1;
            }
            ']' if depth == 0 => break,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => element_starts = true,
            _ => {}
        }
    }
    Some(names)
}

#[test]
fn every_call_gives_the_variables_its_message_uses() {
    let mut uses: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (file, english, _) in i18n::FILES {
        for (key, parts) in shape(file, english) {
            if let Some(value) = parts.get("") {
                uses.insert(key, value.clone());
            }
        }
    }
    let calls = literal_argument_lists();
    assert!(
        calls.len() > 200,
        "{} calls with literal arguments",
        calls.len()
    );
    let mut missing = Vec::new();
    for (key, given, file) in &calls {
        let Some(used) = uses.get(key) else {
            continue;
        };
        let lacking: Vec<&String> = used.difference(given).collect();
        if !lacking.is_empty() {
            missing.push(format!("{file}: `{key}` is not given {lacking:?}"));
        }
    }
    assert!(missing.is_empty(), "{missing:#?}");
}

#[test]
fn durations_and_missing_keys() {
    let cases = [
        (Lang::En, 12_000, "12 s"),
        (Lang::En, 5 * 60_000, "5 min"),
        (Lang::En, 3 * 3_600_000, "3 h"),
        (Lang::En, 3 * 3_600_000 + 20 * 60_000, "3 h 20 min"),
        (Lang::En, 50 * 3_600_000, "2 days"),
        (Lang::De, 12_000, "12 s"),
        (Lang::De, 3 * 3_600_000 + 20 * 60_000, "3 h 20 min"),
        (Lang::De, 50 * 3_600_000, "2 Tage"),
        (Lang::De, 24_000 * 3_600_000, "1000 Tage"),
        (Lang::De, 240_000 * 3_600_000, "10.000 Tage"),
        (Lang::En, 24_000 * 3_600_000, "1000 days"),
        (Lang::En, 240_000 * 3_600_000, "10,000 days"),
    ];
    for (lang, ms, expected) in cases {
        assert_eq!(i18n::duration(lang, ms), expected, "{lang:?} {ms}");
    }
    assert_eq!(i18n::tr(Lang::De, "no-such-key"), "no-such-key");
    // No Unicode isolation marks around variables: Discord would show them.
    let text = i18n::tr_args(
        Lang::De,
        "common-internal-error",
        &[("error_id", "ABCD1234".into())],
    );
    assert!(text.contains("`ABCD1234`"), "{text}");
    assert!(!text.contains(['\u{2068}', '\u{2069}']), "{text:?}");
}

// ----- which language -----

#[test]
fn languages_from_discord_codes_and_posix_locales() {
    let discord = [
        ("de", Some(Lang::De)),
        ("en-US", Some(Lang::En)),
        ("en-GB", Some(Lang::En)),
        ("fr", None),
        ("de-DE", None),
        ("", None),
    ];
    for (locale, expected) in discord {
        assert_eq!(Lang::from_discord_locale(locale), expected, "{locale}");
    }
    let posix = [
        ("de_DE.UTF-8", Some(Lang::De)),
        ("de_AT@euro", Some(Lang::De)),
        ("de", Some(Lang::De)),
        ("en_GB.UTF-8", Some(Lang::En)),
        ("C.UTF-8", None),
        ("POSIX", None),
        ("fr_FR.UTF-8", None),
    ];
    for (value, expected) in posix {
        assert_eq!(Lang::from_posix_locale(value), expected, "{value}");
    }
    let settings = [
        ("auto", Some(LanguageSetting::Auto)),
        ("DE", Some(LanguageSetting::Fixed(Lang::De))),
        (" en ", Some(LanguageSetting::Fixed(Lang::En))),
        ("fr", None),
    ];
    for (choice, expected) in settings {
        assert_eq!(LanguageSetting::parse(choice), expected, "{choice}");
    }
    for setting in [
        LanguageSetting::Auto,
        LanguageSetting::Fixed(Lang::De),
        LanguageSetting::Fixed(Lang::En),
    ] {
        assert_eq!(LanguageSetting::from_stored(setting.to_stored()), setting);
    }
    assert_eq!(
        LanguageSetting::from_stored(Some("klingon")),
        LanguageSetting::Auto
    );
}

fn request_in(guild: Option<i64>, locale: Option<&str>, guild_locale: Option<&str>) -> Request {
    Request {
        user: User {
            id: ALICE,
            name: "Alice".to_owned(),
        },
        guild_id: guild,
        channel_id: 600,
        member: None,
        locale: locale.map(str::to_owned),
        guild_locale: guild_locale.map(str::to_owned),
        kind: RequestKind::Command(Default::default()),
    }
}

#[test]
fn private_answers_speak_the_users_language_public_ones_the_servers() {
    use Lang::{De, En};
    use LanguageSetting::{Auto, Fixed};
    let server = Some(GUILD);
    // (guild, user locale, guild locale, setting, private, public)
    let cases = [
        // A German user in an English server, and the reverse.
        (server, Some("de"), Some("en-US"), Auto, De, En),
        (server, Some("en-GB"), Some("de"), Auto, En, De),
        // The server's choice beats its Discord locale, for public answers only.
        (server, Some("en-US"), Some("en-US"), Fixed(De), En, De),
        (server, Some("de"), Some("de"), Fixed(En), De, En),
        // A locale Tavern does not speak: the user gets what the table gets.
        (server, Some("fr"), Some("de"), Auto, De, De),
        (server, Some("fr"), Some("fr"), Fixed(De), De, De),
        (server, Some("fr"), Some("fr"), Auto, En, En),
        (server, None, None, Auto, En, En),
        // The console and a message reply carry no user locale.
        (server, None, Some("de"), Auto, De, De),
        // In DMs the user is the whole table.
        (None, Some("de"), None, Fixed(En), De, De),
        (None, Some("fr"), None, Auto, En, En),
        (None, None, None, Auto, En, En),
    ];
    for (guild, locale, guild_locale, setting, private, public) in cases {
        let request = request_in(guild, locale, guild_locale);
        let case = format!("{guild:?} {locale:?} {guild_locale:?} {setting:?}");
        assert_eq!(
            language_for(&request, setting, false),
            private,
            "private: {case}"
        );
        assert_eq!(
            language_for(&request, setting, true),
            public,
            "public: {case}"
        );
    }
}

// ----- the core in German -----

/// `kind` as Alice in the guild, with her Discord set to `locale` and the server's to
/// English.
fn alice_in(locale: &str, kind: RequestKind) -> Request {
    let mut request = request_in(Some(GUILD), Some(locale), Some("en-US"));
    request.kind = kind;
    request.member = Some(tavern::core::Member {
        permissions: tavern::core::Permissions(tavern::core::Permissions::MANAGE_GUILD),
        roles: Vec::new(),
    });
    request
}

#[tokio::test]
async fn the_core_refuses_and_fails_in_the_users_language() {
    let settings = CoreSettings {
        rate_burst: 2,
        rate_per_minute: 1,
        ..CoreSettings::default()
    };
    let mut harness = Harness::with_settings(settings).await;
    let stale = RequestKind::Button {
        custom_id: "tv1:gone".to_owned(),
        message_id: 1,
    };
    let sent = harness.send(&alice_in("de", stale.clone())).await;
    assert_eq!(
        sent.interaction().content,
        "Dieser Button gehört zu etwas, das schon vorbei ist."
    );
    let sent = harness.send(&alice_in("en-US", stale.clone())).await;
    assert_eq!(
        sent.interaction().content,
        "This button belongs to something that has ended."
    );
    let limited = harness.send(&alice_in("de", stale)).await;
    let content = &limited.interaction().content;
    assert!(
        content.starts_with("Immer langsam mit den jungen Pferden!")
            && content.contains("Warte 1 min und versuch es dann noch mal."),
        "{content}"
    );
    // A typed form handed back, under a German heading.
    let modal = RequestKind::Modal {
        custom_id: "tv1:whatever".to_owned(),
        fields: vec![("answer".to_owned(), "Udo".to_owned())],
    };
    let limited = harness.send(&alice_in("de", modal)).await;
    assert!(
        limited
            .interaction()
            .content
            .ends_with("Deine Eingabe:\n```\nUdo\n```"),
        "{}",
        limited.interaction().content
    );
    // A failure on our side, with its id.
    let mut harness = Harness::new().await;
    harness.storage.close().await;
    let failed = harness
        .send(&alice_in("de", command("chargen", &["status"], &[])))
        .await;
    assert!(
        failed
            .interaction()
            .content
            .starts_with("Bei uns ist etwas schiefgelaufen."),
        "{}",
        failed.interaction().content
    );
}

#[tokio::test]
async fn config_language_sets_the_servers_language_for_public_answers() {
    let mut harness = Harness::new().await;
    let language = |choice: Option<&str>| {
        let options: Vec<_> = choice.map(|c| ("language", text(c))).into_iter().collect();
        command("config", &["language"], &options)
    };
    // A German admin in a server whose Discord is English: auto means English.
    let shown = harness.send(&alice_in("de", language(None))).await;
    assert_eq!(
        shown.interaction().content,
        "Öffentliche Nachrichten erscheinen hier auf Englisch, der Discord-Sprache des \
         Servers (automatisch). Private Antworten folgen der Discord-Sprache des \
         jeweiligen Mitglieds."
    );
    let set = harness.send(&alice_in("de", language(Some("de")))).await;
    assert!(set.interaction().ephemeral);
    assert!(
        set.interaction().content.starts_with(
            "Ab jetzt schreibt Tavern öffentliche \
                                                Nachrichten hier auf Deutsch."
        ),
        "{}",
        set.interaction().content
    );
    let english_user = alice_in("en-US", language(None));
    assert_eq!(
        harness.core.language(&english_user, true).await.unwrap(),
        Lang::De
    );
    assert_eq!(
        harness.core.language(&english_user, false).await.unwrap(),
        Lang::En
    );
    let shown = harness.send(&english_user).await;
    assert!(
        shown
            .interaction()
            .content
            .starts_with("Public messages here are in German, as the server chose."),
        "{}",
        shown.interaction().content
    );
    let config = harness
        .send(&alice_in("en-US", command("config", &["show"], &[])))
        .await;
    assert!(
        config
            .interaction()
            .content
            .contains("\n- language: German\n"),
        "{}",
        config.interaction().content
    );
    // Back to auto; a member without Manage Server may not change it.
    let set = harness
        .send(&alice_in("en-US", language(Some("auto"))))
        .await;
    assert!(
        set.interaction()
            .content
            .contains("the server's Discord language, English at the moment")
    );
    assert_eq!(
        harness.core.language(&english_user, true).await.unwrap(),
        Lang::En
    );
    let mut member = alice_in("de", language(Some("de")));
    member.member = Some(tavern::core::Member::default());
    let refused = harness.send(&member).await;
    assert!(
        refused
            .interaction()
            .content
            .starts_with("Nur Mitglieder mit der Berechtigung")
    );
    assert_eq!(
        harness.core.language(&english_user, true).await.unwrap(),
        Lang::En
    );
    let unknown = harness
        .send(&alice_in("en-US", language(Some("klingon"))))
        .await;
    assert_eq!(
        unknown.interaction().content,
        "`klingon` is not a language Tavern speaks: choose de, en or auto."
    );
}

// ----- the console in German -----

#[tokio::test]
async fn a_german_console_refuses_floods_and_names_its_language_in_german() {
    let dir = crate::support::TempDir::new("console-de");
    let storage = crate::support::sqlite_storage(&dir).await;
    let settings = CoreSettings {
        rate_burst: 2,
        rate_per_minute: 1,
        ..CoreSettings::default()
    };
    let core = Core::new(
        storage.clone(),
        crate::doubles::engines(),
        settings,
        Arc::new(tavern::core::limits::ManualClock::new(
            crate::harness::START_MS,
        )),
        Some(3),
    );
    let identity = ConsoleIdentity::named(Some("tester".to_owned())).with_lang(Lang::De);
    let mut console = Console::new(Arc::new(core), identity);
    let shown = say(&mut console, "/config language").await;
    assert!(
        shown.contains("Öffentliche Nachrichten erscheinen hier auf Deutsch"),
        "{shown}"
    );
    say(&mut console, "/roll 1d1").await;
    let limited = say(&mut console, "/roll 1d1").await;
    assert!(
        limited.contains("Immer langsam mit den jungen Pferden!"),
        "{limited}"
    );
    storage.close().await;
}

/// Environment variables a run sets.
type Env<'a> = &'a [(&'a str, &'a str)];

#[test]
fn the_console_takes_its_language_from_lang_or_the_environment() {
    let dir = crate::support::TempDir::new("cli-lang");
    let db = dir.path("lang.db");
    let db = db.to_str().unwrap();
    let german = "Öffentliche Nachrichten erscheinen hier auf Deutsch";
    let english = "Public messages here are in English";
    let cases: [(&[&str], Env, &str); 5] = [
        (&["console", "--db", db, "--lang", "de"], &[], german),
        (&["console", "--db", db], &[("LANG", "de_DE.UTF-8")], german),
        // LC_ALL outranks LANG, as POSIX has it.
        (
            &["console", "--db", db],
            &[("LANG", "de_DE.UTF-8"), ("LC_ALL", "C")],
            english,
        ),
        (
            &["console", "--db", db, "--lang", "en"],
            &[("LANG", "de_DE.UTF-8")],
            english,
        ),
        (&["console", "--db", db], &[], english),
    ];
    for (args, env, expected) in cases {
        let output = tavern_with_env(args, "/config language\n", env);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        assert!(
            stdout(&output).contains(expected),
            "{args:?} {env:?}: {}",
            stdout(&output)
        );
    }
    let output = tavern(&["console", "--db", db, "--lang", "fr"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("not a language Tavern speaks"),
        "{}",
        stderr(&output)
    );
}
