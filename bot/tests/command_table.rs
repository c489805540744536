//! The real command table (the one Discord registration, the console and `/help`
//! read) against Discord's registration rules, in every locale it is registered in,
//! and every registered command against the core's dispatch: nothing here names a
//! command, so nothing drifts.

use tavern::core::chargen::ChargenId;
use tavern::core::commands::{CommandSpec, OptionKind, OptionSpec, SubcommandSpec};
use tavern::core::encounter::{InitAction, InitId};
use tavern::core::help::HelpPage;
use tavern::core::npc::{NpcAction, NpcId};
use tavern::core::odds::{OddsId, OddsView};
use tavern::core::roll::{RollAgain, RollId};
use tavern::core::table::{self, COMMANDS};
use tavern::core::{ErrorTotals, Member, OptionValue, Permissions, internal_error_text};
use tavern::i18n::commands::{command_key, entries, option_key};
use tavern::i18n::{self, Lang};

use crate::harness::{ALICE, CHANNEL, GUILD, Harness, command};

/// Discord's limits for CHAT_INPUT commands (application commands reference).
const MAX_NAME_CHARS: usize = 32;
const MAX_DESCRIPTION_CHARS: usize = 100;
const MAX_OPTIONS: usize = 25;
const MAX_CHOICES: usize = 25;
const MAX_CHOICE_CHARS: usize = 100;
/// Name, description and choice names and values of a command, its options,
/// subcommands and groups, all together.
const MAX_COMMAND_TOTAL_CHARS: usize = 8_000;

/// Discord's `^[-_'\p{L}\p{N}]{1,32}$`, lower case wherever a letter has a lower
/// case. Letters and digits are checked by their Unicode general category as far
/// as the standard library knows them (alphabetic, numeric).
fn name_problem(name: &str) -> Option<String> {
    let chars = name.chars().count();
    if !(1..=MAX_NAME_CHARS).contains(&chars) {
        return Some(format!("`{name}` has {chars} characters, not 1 to 32"));
    }
    if let Some(bad) = name
        .chars()
        .find(|ch| !(ch.is_alphabetic() || ch.is_numeric() || matches!(ch, '-' | '_' | '\'')))
    {
        return Some(format!("`{name}` holds {bad:?}"));
    }
    if name.to_lowercase() != name {
        return Some(format!("`{name}` is not lower case"));
    }
    None
}

fn description_problem(owner: &str, description: &str) -> Option<String> {
    let chars = description.chars().count();
    (!(1..=MAX_DESCRIPTION_CHARS).contains(&chars))
        .then(|| format!("`{owner}`'s description has {chars} characters, not 1 to 100"))
}

/// Everything Discord would refuse in one list of options.
fn options_problems(owner: &str, options: &[OptionSpec], problems: &mut Vec<String>) {
    if options.len() > MAX_OPTIONS {
        problems.push(format!("`{owner}` has {} options", options.len()));
    }
    if let Some(first_optional) = options.iter().position(|option| !option.required)
        && let Some(late) = options[first_optional..]
            .iter()
            .find(|option| option.required)
    {
        problems.push(format!(
            "`{owner}`: required `{}` comes after an optional one",
            late.name
        ));
    }
    for option in options {
        let path = format!("{owner} {}", option.name);
        problems.extend(name_problem(option.name));
        problems.extend(description_problem(&path, option.description));
        if option.choices.len() > MAX_CHOICES {
            problems.push(format!("`{path}` has {} choices", option.choices.len()));
        }
        if !option.choices.is_empty() && !matches!(option.kind, OptionKind::String { .. }) {
            // The adapter registers every choice as a string choice.
            problems.push(format!(
                "`{path}` has string choices on a non-string option"
            ));
        }
        for choice in option.choices {
            // The adapter registers each choice with the same name and value.
            let chars = choice.chars().count();
            if !(1..=MAX_CHOICE_CHARS).contains(&chars) {
                problems.push(format!(
                    "`{path}`: choice `{choice}` has {chars} characters"
                ));
            }
        }
        if option.autocomplete {
            if !matches!(
                option.kind,
                OptionKind::String { .. } | OptionKind::Integer { .. }
            ) {
                problems.push(format!("`{path}` autocompletes a {:?} option", option.kind));
            }
            if !option.choices.is_empty() {
                problems.push(format!("`{path}` has both autocomplete and choices"));
            }
        }
        match option.kind {
            OptionKind::String { max_length } if !(1..=6_000).contains(&max_length) => {
                problems.push(format!(
                    "`{path}`: max_length {max_length} is not 1 to 6000"
                ));
            }
            OptionKind::Integer { min, max } if min > max => {
                problems.push(format!("`{path}`: min {min} above max {max}"));
            }
            _ => {}
        }
    }
}

fn options_chars(options: &[OptionSpec]) -> usize {
    options
        .iter()
        .map(|option| {
            option.name.chars().count()
                + option.description.chars().count()
                // Each choice counts its name and its value, which are the same text.
                + option
                    .choices
                    .iter()
                    .map(|choice| 2 * choice.chars().count())
                    .sum::<usize>()
        })
        .sum()
}

fn subcommand_chars(sub: &SubcommandSpec) -> usize {
    sub.name.chars().count() + sub.description.chars().count() + options_chars(&sub.options)
}

/// What Discord counts against a command's 8,000 characters.
fn total_chars(spec: &CommandSpec) -> usize {
    spec.name.chars().count()
        + spec.description.chars().count()
        + options_chars(&spec.options)
        + spec.subcommands.iter().map(subcommand_chars).sum::<usize>()
        + spec
            .groups
            .iter()
            .map(|group| {
                group.name.chars().count()
                    + group.description.chars().count()
                    + group
                        .subcommands
                        .iter()
                        .map(subcommand_chars)
                        .sum::<usize>()
            })
            .sum::<usize>()
}

/// Everything Discord would refuse in one command's registration.
fn command_problems(spec: &CommandSpec) -> Vec<String> {
    let mut problems = Vec::new();
    problems.extend(name_problem(spec.name));
    problems.extend(description_problem(spec.name, spec.description));
    // A command takes options, or subcommands and groups, never both.
    let has_subcommands = !spec.subcommands.is_empty() || !spec.groups.is_empty();
    if has_subcommands && !spec.options.is_empty() {
        problems.push(format!("`{}` mixes options and subcommands", spec.name));
    }
    let top_level = spec.options.len() + spec.subcommands.len() + spec.groups.len();
    if top_level > MAX_OPTIONS {
        problems.push(format!("`{}` has {top_level} options", spec.name));
    }
    options_problems(spec.name, &spec.options, &mut problems);
    for sub in &spec.subcommands {
        let path = format!("{} {}", spec.name, sub.name);
        problems.extend(name_problem(sub.name));
        problems.extend(description_problem(&path, sub.description));
        options_problems(&path, &sub.options, &mut problems);
    }
    for group in &spec.groups {
        let path = format!("{} {}", spec.name, group.name);
        problems.extend(name_problem(group.name));
        problems.extend(description_problem(&path, group.description));
        if group.subcommands.is_empty() || group.subcommands.len() > MAX_OPTIONS {
            problems.push(format!(
                "`{path}` has {} subcommands",
                group.subcommands.len()
            ));
        }
        for sub in &group.subcommands {
            let path = format!("{path} {}", sub.name);
            problems.extend(name_problem(sub.name));
            problems.extend(description_problem(&path, sub.description));
            options_problems(&path, &sub.options, &mut problems);
        }
    }
    let total = total_chars(spec);
    if total > MAX_COMMAND_TOTAL_CHARS {
        problems.push(format!("`{}` totals {total} characters", spec.name));
    }
    problems
}

/// Every path a user can invoke: `roll`, `chargen start`, `chargen program add` ….
fn invocable_paths(spec: &CommandSpec) -> Vec<Vec<&'static str>> {
    if spec.subcommands.is_empty() && spec.groups.is_empty() {
        return vec![Vec::new()];
    }
    let mut paths: Vec<Vec<&'static str>> =
        spec.subcommands.iter().map(|sub| vec![sub.name]).collect();
    for group in &spec.groups {
        paths.extend(
            group
                .subcommands
                .iter()
                .map(|sub| vec![group.name, sub.name]),
        );
    }
    paths
}

#[tokio::test]
async fn every_registered_command_passes_discords_rules() {
    let harness = Harness::new().await;
    let specs = harness.core.command_specs();
    assert!(!specs.is_empty());
    let problems: Vec<String> = specs.iter().flat_map(command_problems).collect();
    assert!(problems.is_empty(), "{problems:#?}");
    let mut names: Vec<&str> = specs.iter().map(|spec| spec.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(
        names.len(),
        specs.len(),
        "a command name is registered twice"
    );
}

#[test]
fn the_rule_checks_catch_what_discord_refuses() {
    let option = |name: &'static str, required: bool| OptionSpec {
        name,
        description: "fine",
        kind: OptionKind::Boolean,
        required,
        autocomplete: false,
        choices: &[],
    };
    let good = CommandSpec {
        name: "roll",
        description: "Roll",
        options: vec![option("a", true), option("b", false)],
        subcommands: Vec::new(),
        groups: Vec::new(),
    };
    assert_eq!(command_problems(&good), Vec::<String>::new());
    let broken = [
        CommandSpec {
            name: "Roll",
            ..good.clone()
        },
        CommandSpec {
            name: "roll dice",
            ..good.clone()
        },
        CommandSpec {
            description: "",
            ..good.clone()
        },
        CommandSpec {
            options: vec![option("b", false), option("a", true)],
            ..good.clone()
        },
        CommandSpec {
            options: vec![OptionSpec {
                autocomplete: true,
                ..option("a", false)
            }],
            ..good.clone()
        },
        CommandSpec {
            options: vec![OptionSpec {
                kind: OptionKind::String { max_length: 10 },
                autocomplete: true,
                choices: &["x"],
                ..option("a", false)
            }],
            ..good.clone()
        },
        CommandSpec {
            options: (0..26).map(|_| option("a", false)).collect(),
            ..good.clone()
        },
    ];
    for spec in &broken {
        assert!(!command_problems(spec).is_empty(), "{spec:?}");
    }
    let long = CommandSpec {
        subcommands: (0..25)
            .map(|_| SubcommandSpec {
                name: "sub",
                description: "d",
                options: (0..25)
                    .map(|_| OptionSpec {
                        description: "an option description that is long enough to count",
                        ..option("a", false)
                    })
                    .collect(),
            })
            .collect(),
        options: Vec::new(),
        ..good.clone()
    };
    assert!(total_chars(&long) > MAX_COMMAND_TOTAL_CHARS);
    assert!(!command_problems(&long).is_empty());
}

/// Text options that take dice or a number; every other one takes a name.
const NUMERIC_TEXT: &[&str] = &["expr", "init", "hp", "amount"];

/// A value Discord would send for `option`: a choice where it has choices, else the
/// smallest that fits its kind (`1` for dice and numbers, `a` for a name: a macro,
/// a monster, a character, an NPC).
fn minimal_value(option: &OptionSpec) -> Option<OptionValue> {
    if let Some(choice) = option.choices.first() {
        return Some(OptionValue::String((*choice).to_owned()));
    }
    match option.kind {
        OptionKind::String { .. } => {
            let value = if NUMERIC_TEXT.contains(&option.name) {
                "1"
            } else {
                "a"
            };
            Some(OptionValue::String(value.to_owned()))
        }
        OptionKind::Integer { min, max } => Some(OptionValue::Integer(1.clamp(min, max))),
        OptionKind::Boolean => Some(OptionValue::Boolean(false)),
        OptionKind::Role => Some(OptionValue::Role(1)),
        OptionKind::Channel => Some(OptionValue::Channel(CHANNEL)),
        // No command requires a file; an optional one is left out.
        OptionKind::Attachment => None,
    }
}

/// The options of the command at `path`.
fn options_at<'a>(spec: &'a CommandSpec, path: &[&str]) -> &'a [OptionSpec] {
    match path {
        [] => &spec.options,
        [sub] => &spec.subcommand(sub).unwrap().options,
        [group, sub] => {
            let group = spec.group(group).unwrap();
            let sub = group.subcommands.iter().find(|each| each.name == *sub);
            &sub.unwrap().options
        }
        _ => unreachable!("a path is at most a group and a subcommand"),
    }
}

#[tokio::test]
async fn every_registered_command_is_dispatched() {
    // Every command in one go: past the rate limit, most would only hear "Easy there".
    let mut harness = Harness::with_settings(tavern::core::CoreSettings {
        rate_burst: 1000,
        ..tavern::core::CoreSettings::default()
    })
    .await;
    let specs = harness.core.command_specs();
    // Everything the admin may do runs its handler's work, not only its refusal.
    let admin = |harness: &Harness, kind| {
        let mut request = harness.request(ALICE, Some(GUILD), kind);
        request.member = Some(Member {
            permissions: Permissions(Permissions::MANAGE_GUILD),
            roles: vec![],
        });
        request
    };
    // "Something went wrong on our side": the id that follows differs each time.
    let internal = internal_error_text(Lang::En, "");
    let internal = internal.split('.').next().unwrap();
    let mut paths = 0;
    for spec in &specs {
        for path in invocable_paths(spec) {
            paths += 1;
            // Without options a command answers with what it misses, a modal or its
            // work, never that it does not know the command.
            let bare = harness.alice(command(spec.name, &path, &[])).await;
            // With its required options, as an admin, it does its work; what it sends
            // then tells a working command from one that fails on the way.
            let options: Vec<(&str, OptionValue)> = options_at(spec, &path)
                .iter()
                .filter(|option| option.required)
                .filter_map(|option| Some((option.name, minimal_value(option)?)))
                .collect();
            let request = admin(&harness, command(spec.name, &path, &options));
            let worked = harness.send(&request).await;
            for sent in [bare, worked] {
                assert!(!sent.replies.is_empty(), "/{} {path:?}", spec.name);
                let text = sent.all_text();
                assert!(
                    !text.contains("not a command") && !text.contains("I don't know the command"),
                    "/{} {path:?}: {text}",
                    spec.name
                );
                assert!(
                    !text.contains(internal),
                    "/{} {path:?} {options:?} failed inside: {text}",
                    spec.name
                );
            }
            assert_eq!(
                harness.core.error_totals(),
                ErrorTotals::default(),
                "/{} {path:?} {options:?}",
                spec.name
            );
        }
    }
    assert!(paths >= specs.len());
}

#[test]
fn every_table_entry_is_named_as_its_spec_and_unique() {
    let settings = tavern::core::CoreSettings::default();
    let mut names = std::collections::BTreeSet::new();
    for entry in COMMANDS {
        assert_eq!((entry.spec)(&settings).name, entry.name);
        assert!(names.insert(entry.name), "/{} twice", entry.name);
    }
}

/// Every subcommand the table dispatches, with its guards: a subcommand that
/// changes the server's shared things (or who may) has an admin guard, every
/// server-only one refuses direct messages first; a macro subcommand is guarded by
/// the scope it acts on, an encounter's GM-only ones by its GM. Written out so that
/// a new subcommand, or a guard dropped, shows here.
#[test]
fn every_table_subcommand_has_its_guards() {
    use table::Guard::{
        Admin, AdminPlain, EncounterGm, GuildOnly, GuildOnlyWith, MacroScope, ManagesServer,
    };
    use table::MacroChange;
    let effect_admin = Admin {
        what_key: "effect-not-allowed",
    };
    let programs_admin = Admin {
        what_key: "programs-may-manage",
    };
    let npc_here = GuildOnlyWith {
        refusal_key: "npc-not-here",
    };
    let npc_admin = Admin {
        what_key: "npc-not-allowed",
    };
    let gm = |refusal_key| EncounterGm { refusal_key };
    let expected: &[(&str, Option<&str>, &[table::Guard])] = &[
        ("chargen", None, &[]),
        ("chargen", Some("start"), &[]),
        ("chargen", Some("answer"), &[]),
        ("chargen", Some("cancel"), &[]),
        ("chargen", Some("status"), &[]),
        ("chargen", Some("program add"), &[GuildOnly, programs_admin]),
        ("chargen", Some("program list"), &[GuildOnly]),
        (
            "chargen",
            Some("program remove"),
            &[GuildOnly, programs_admin],
        ),
        (
            "chargen",
            Some("program default"),
            &[GuildOnly, programs_admin],
        ),
        ("chargen", Some("program show"), &[GuildOnly]),
        ("chargen", Some("program map"), &[GuildOnly, programs_admin]),
        ("character", None, &[]),
        ("character", Some("list"), &[]),
        ("character", Some("show"), &[]),
        ("character", Some("delete"), &[]),
        ("character", Some("use"), &[]),
        ("macro", None, &[]),
        (
            "macro",
            Some("set"),
            &[MacroScope {
                change: MacroChange::Set,
                dm_key: "macros-server-in-dms",
                what_key: "macros-may-set-server",
            }],
        ),
        ("macro", Some("show"), &[]),
        ("macro", Some("list"), &[]),
        (
            "macro",
            Some("delete"),
            &[MacroScope {
                change: MacroChange::Delete,
                dm_key: "config-not-in-dms",
                what_key: "macros-may-delete-server",
            }],
        ),
        ("config", None, &[GuildOnly]),
        ("config", Some("show"), &[GuildOnly]),
        ("config", Some("language"), &[GuildOnly]),
        (
            "config",
            Some("gm-channel"),
            &[
                GuildOnly,
                AdminPlain {
                    refusal_key: "gm-config-not-allowed",
                },
            ],
        ),
        (
            "config",
            Some("gm-role"),
            &[
                GuildOnly,
                ManagesServer {
                    refusal_key: "gm-config-not-allowed",
                },
            ],
        ),
        (
            "config",
            Some("macro-role"),
            &[
                GuildOnly,
                ManagesServer {
                    refusal_key: "config-macro-role-not-allowed",
                },
            ],
        ),
        ("npc", None, &[npc_here]),
        ("npc", Some("install"), &[npc_here, npc_admin]),
        ("npc", Some("list"), &[npc_here]),
        ("npc", Some("remove"), &[npc_here, npc_admin]),
        ("npc", Some("activity"), &[npc_here, npc_admin]),
        ("effect", None, &[GuildOnly]),
        ("effect", Some("list"), &[GuildOnly]),
        ("effect", Some("show"), &[GuildOnly]),
        ("effect", Some("install"), &[GuildOnly, effect_admin]),
        ("effect", Some("remove"), &[GuildOnly, effect_admin]),
        ("init", None, &[GuildOnly]),
        ("init", Some("begin"), &[GuildOnly]),
        ("init", Some("join"), &[GuildOnly]),
        (
            "init",
            Some("add"),
            &[GuildOnly, gm("encounter-gm-only-add")],
        ),
        ("init", Some("attack"), &[GuildOnly]),
        ("init", Some("save"), &[GuildOnly]),
        ("init", Some("next"), &[GuildOnly]),
        (
            "init",
            Some("prev"),
            &[GuildOnly, gm("encounter-gm-only-prev")],
        ),
        ("init", Some("hp"), &[GuildOnly]),
        ("init", Some("effect"), &[GuildOnly]),
        ("init", Some("cure"), &[GuildOnly]),
        ("init", Some("remove"), &[GuildOnly]),
        ("init", Some("list"), &[GuildOnly]),
        (
            "init",
            Some("end"),
            &[GuildOnly, gm("encounter-gm-only-end")],
        ),
    ];
    let actual: Vec<(&str, Option<&str>, &[table::Guard])> = COMMANDS
        .iter()
        .flat_map(|entry| {
            entry
                .subcommands
                .iter()
                .map(move |sub| (entry.name, sub.name, sub.guards))
        })
        .collect();
    assert_eq!(actual, expected);
    // Every refusal a guard names is in every catalogue.
    for (_, _, guards) in expected {
        for guard in *guards {
            let keys = match guard {
                Admin { what_key } => vec![*what_key],
                AdminPlain { refusal_key }
                | ManagesServer { refusal_key }
                | GuildOnlyWith { refusal_key }
                | EncounterGm { refusal_key } => vec![*refusal_key],
                MacroScope {
                    dm_key, what_key, ..
                } => vec![*dm_key, *what_key],
                GuildOnly => continue,
            };
            for key in keys {
                for lang in [Lang::En, Lang::De] {
                    // Asked, not formatted: a refusal may name its variables (`$gm`).
                    assert!(i18n::has_message(lang, key), "{key} in {lang:?}");
                }
            }
        }
    }
}

/// A command the table dispatches by subcommand holds exactly the subcommands its
/// spec registers, a group's as `group sub` (and the one run without a subcommand).
/// Every command with subcommands is dispatched by the table.
#[test]
fn table_subcommands_are_the_spec_subcommands() {
    let settings = tavern::core::CoreSettings::default();
    for entry in COMMANDS {
        let spec = (entry.spec)(&settings);
        let mut registered: Vec<Option<String>> = spec
            .subcommands
            .iter()
            .map(|sub| Some(sub.name.to_owned()))
            .collect();
        for group in &spec.groups {
            registered.extend(
                group
                    .subcommands
                    .iter()
                    .map(|sub| Some(format!("{} {}", group.name, sub.name))),
            );
        }
        if registered.is_empty() {
            assert!(entry.subcommands.is_empty(), "/{}", entry.name);
            continue;
        }
        registered.push(None);
        registered.sort();
        let mut routed: Vec<Option<String>> = entry
            .subcommands
            .iter()
            .map(|sub| sub.name.map(str::to_owned))
            .collect();
        routed.sort();
        assert_eq!(routed, registered, "/{}", entry.name);
    }
}

/// Every kind of custom id has exactly one owner, and every id a module builds is
/// routed back to the command that posted it.
#[test]
fn every_custom_id_family_has_one_owner() {
    let mut owners = std::collections::BTreeMap::new();
    for entry in COMMANDS {
        for family in entry.components {
            for kind in family.kinds {
                assert!(
                    owners.insert(*kind, entry.name).is_none(),
                    "kind `{kind}` is claimed twice"
                );
            }
        }
    }
    let npc_actions = [
        NpcAction::Ask,
        NpcAction::AskModal,
        NpcAction::Keyword("door".to_owned()),
        NpcAction::Bye,
        NpcAction::Yes,
        NpcAction::No,
        NpcAction::Amount,
        NpcAction::AmountModal,
        NpcAction::Menu,
        NpcAction::TradeSelect(1),
        NpcAction::Buy,
        NpcAction::Sell,
        NpcAction::Quantity {
            sell: true,
            item: 2,
        },
        NpcAction::Done,
        NpcAction::Leave,
    ];
    let (delete, keep) = tavern::core::character::delete_ids(7);
    let (install, cancel) = tavern::core::chargen::programs::confirm_ids(8);
    let mut built = vec![
        (
            ChargenId::Answer {
                session_id: 1,
                step: 2,
            }
            .encode(),
            "chargen",
        ),
        (
            ChargenId::Modal {
                session_id: 1,
                step: 2,
            }
            .encode(),
            "chargen",
        ),
        (
            tavern::core::chargen::programs::paste_form_id("dmps"),
            "chargen",
        ),
        (install, "chargen"),
        (cancel, "chargen"),
        (RollId::Stored { state_id: 3 }.encode(), "roll"),
        (
            RollId::Inline(RollAgain {
                expr: "1d20".to_owned(),
                label: None,
                private: true,
                repeat: 1,
                to_gm: false,
            })
            .encode(),
            "roll",
        ),
        (
            OddsId::Stored {
                state_id: 4,
                view: "ge".to_owned(),
            }
            .encode(),
            "odds",
        ),
        (
            OddsId::Inline(OddsView {
                expr: "3d6".to_owned(),
                target: Some(tavern::chart::Target::AtLeast(10)),
                view: "eq".to_owned(),
            })
            .encode(),
            "odds",
        ),
        (delete, "character"),
        (keep, "character"),
        (tavern::core::help::page_id(HelpPage::Npc), "help"),
        (tavern::core::effect::paste_form_id(), "effect"),
        (tavern::core::roll::gm::reveal_id(77), "roll"),
    ];
    for action in [
        InitAction::Next,
        InitAction::Previous,
        InitAction::End,
        InitAction::ConfirmEnd,
        InitAction::CancelEnd,
    ] {
        built.push((InitId::new(action, 9, 10).encode(), "init"));
    }
    for action in npc_actions {
        built.push((NpcId::new(5, 6, action).encode().expect("fits"), "talk"));
    }
    for (custom_id, owner) in &built {
        let routed = table::component(custom_id).map(|(entry, _)| entry.name);
        assert_eq!(routed, Some(*owner), "{custom_id}");
    }
    // Every claimed kind is one that some module builds: no family is dead.
    for kind in owners.keys() {
        assert!(
            built
                .iter()
                .any(|(id, _)| id.starts_with(&format!("tv1:{kind}:"))),
            "nothing builds ids of kind `{kind}`"
        );
    }
}

// ----- localizations (issue 18) -----

/// The table's specs, as registration reads them.
fn specs() -> Vec<CommandSpec> {
    tavern::core::commands::command_specs(tavern::core::CoreSettings::default().max_repeat)
}

#[test]
fn every_element_has_its_texts_in_every_catalogue_and_english_repeats_the_spec() {
    let mut missing = Vec::new();
    let mut elements = 0;
    for spec in specs() {
        for entry in entries(&spec) {
            elements += 1;
            for lang in Lang::ALL {
                let attributes: Vec<(&str, &str)> = match &entry.choice {
                    Some(choice) => vec![(choice.as_str(), entry.name)],
                    None => vec![("name", entry.name), ("description", entry.description)],
                };
                for (attribute, english) in attributes {
                    match i18n::attribute(lang, &entry.key, attribute) {
                        None => missing.push(format!("{lang:?}: {}.{attribute}", entry.key)),
                        Some(text) if lang == Lang::En && text != english => missing.push(format!(
                            "commands.ftl: {}.{attribute} is `{text}`, the spec says `{english}`",
                            entry.key
                        )),
                        Some(_) => {}
                    }
                }
            }
        }
    }
    assert!(missing.is_empty(), "{missing:#?}");
    assert!(elements > 70, "{elements}");
}

#[test]
fn derived_keys_are_unique() {
    let mut seen = std::collections::BTreeSet::new();
    for spec in specs() {
        for entry in entries(&spec) {
            let attribute = entry.choice.clone().unwrap_or_default();
            assert!(
                seen.insert((entry.key.clone(), attribute.clone())),
                "{} {attribute} names two elements",
                entry.key
            );
        }
    }
}

/// The names a level of the table registers side by side, in `lang`: Discord refuses
/// two equal names among siblings in any locale.
fn sibling_problems(lang: Lang, level: &str, keys: &[String], problems: &mut Vec<String>) {
    let mut names: Vec<String> = keys
        .iter()
        .filter_map(|key| i18n::attribute(lang, key, "name"))
        .collect();
    names.sort();
    for pair in names.windows(2) {
        if pair[0] == pair[1] {
            problems.push(format!("{lang:?}: `{}` twice in {level}", pair[0]));
        }
    }
}

fn option_keys(path: &[&str], options: &[OptionSpec]) -> Vec<String> {
    options
        .iter()
        .map(|option| option_key(path, option.name))
        .collect()
}

#[test]
fn every_localization_passes_discords_rules() {
    let specs = specs();
    let mut problems = Vec::new();
    for lang in Lang::LOCALIZED {
        let top: Vec<String> = specs.iter().map(|spec| command_key(&[spec.name])).collect();
        sibling_problems(lang, "the commands", &top, &mut problems);
        for spec in &specs {
            let mut total = 0;
            for entry in entries(spec) {
                let localized = match &entry.choice {
                    Some(choice) => {
                        let name = i18n::attribute(lang, &entry.key, choice).unwrap_or_default();
                        let chars = name.chars().count();
                        if !(1..=MAX_CHOICE_CHARS).contains(&chars) {
                            problems.push(format!(
                                "{lang:?}: {}.{choice} has {chars} characters",
                                entry.key
                            ));
                        }
                        // The value stays the spec's.
                        total += chars + entry.name.chars().count();
                        continue;
                    }
                    None => (
                        i18n::attribute(lang, &entry.key, "name").unwrap_or_default(),
                        i18n::attribute(lang, &entry.key, "description").unwrap_or_default(),
                    ),
                };
                let (name, description) = localized;
                problems.extend(name_problem(&name).map(|problem| format!("{lang:?}: {problem}")));
                problems.extend(
                    description_problem(&entry.key, &description)
                        .map(|problem| format!("{lang:?}: {problem}")),
                );
                total += name.chars().count() + description.chars().count();
            }
            if total > MAX_COMMAND_TOTAL_CHARS {
                problems.push(format!(
                    "{lang:?}: `{}` totals {total} characters",
                    spec.name
                ));
            }
            let path = [spec.name];
            let mut level = option_keys(&path, &spec.options);
            level.extend(
                spec.subcommands
                    .iter()
                    .map(|sub| command_key(&[spec.name, sub.name])),
            );
            level.extend(
                spec.groups
                    .iter()
                    .map(|group| command_key(&[spec.name, group.name])),
            );
            sibling_problems(lang, spec.name, &level, &mut problems);
            let subs = spec
                .subcommands
                .iter()
                .map(|sub| (vec![spec.name, sub.name], sub))
                .chain(spec.groups.iter().flat_map(|group| {
                    let keys: Vec<String> = group
                        .subcommands
                        .iter()
                        .map(|sub| command_key(&[spec.name, group.name, sub.name]))
                        .collect();
                    sibling_problems(lang, group.name, &keys, &mut problems);
                    group
                        .subcommands
                        .iter()
                        .map(move |sub| (vec![spec.name, group.name, sub.name], sub))
                }))
                .collect::<Vec<_>>();
            for (path, sub) in subs {
                let keys = option_keys(&path, &sub.options);
                sibling_problems(lang, &path.join(" "), &keys, &mut problems);
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

/// ARCHITECTURE.md's "Adding a command" names files and the table's items: each
/// named file exists (paths without a `<placeholder>`), and each `table::item` is
/// declared public in `core/table.rs`, so the guide cannot drift from the code.
#[test]
fn adding_a_command_names_what_exists() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let guide = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let start = guide.find("## Adding a command").expect("the section");
    let section = &guide[start..];
    let table_source = std::fs::read_to_string(root.join("bot/src/core/table.rs")).unwrap();
    let spans: Vec<&str> = section.split('`').skip(1).step_by(2).collect();
    let mut files = 0;
    let mut items = 0;
    let mut problems = Vec::new();
    for span in spans {
        let is_path = (span.starts_with("bot/") || span.starts_with("core/"))
            && span.ends_with(".rs")
            || span.ends_with(".ftl") && span.starts_with("bot/");
        if is_path && !span.contains('<') && !span.contains("coin") {
            files += 1;
            let path = match span.strip_prefix("core/") {
                Some(rest) => root.join("bot/src/core").join(rest),
                None => root.join(span),
            };
            if !path.exists() {
                problems.push(format!("no file {span}"));
            }
        }
        if let Some(rest) = span.strip_prefix("table::") {
            let name: String = rest
                .chars()
                .take_while(|ch| ch.is_alphanumeric() || *ch == '_')
                .collect();
            items += 1;
            let declared = ["fn", "async fn", "struct", "enum", "type", "static"]
                .iter()
                .any(|kind| table_source.contains(&format!("pub {kind} {name}")));
            if !declared {
                problems.push(format!("no pub item {name} in core/table.rs"));
            }
        }
    }
    // Every guard a subcommand can have is named, so a new kind reaches the guide.
    let guards = table_source
        .split_once("pub enum Guard {")
        .and_then(|(_, rest)| rest.split_once("\n}"))
        .expect("enum Guard in core/table.rs")
        .0;
    for line in guards.lines() {
        let variant: String = line
            .strip_prefix("    ")
            .unwrap_or("")
            .chars()
            .take_while(|ch| ch.is_alphanumeric())
            .collect();
        if variant.starts_with(|ch: char| ch.is_uppercase()) && !section.contains(&variant) {
            problems.push(format!("the guard {variant} is not named"));
        }
    }
    // Every field of an entry is named, so a new one reaches the guide (and its sketch).
    let fields = table_source
        .split_once("pub struct CommandEntry {")
        .and_then(|(_, rest)| rest.split_once("\n}"))
        .expect("struct CommandEntry in core/table.rs")
        .0;
    for line in fields.lines() {
        let Some(field) = line
            .strip_prefix("    pub ")
            .and_then(|rest| rest.split_once(':'))
            .map(|(name, _)| name)
        else {
            continue;
        };
        let in_sketch = section.contains(&format!("\n    {field}:"))
            || section.contains(&format!("\n    {field},"));
        if !section.contains(&format!("`{field}`")) || !in_sketch {
            problems.push(format!(
                "the entry's field {field} is not named, or not in the sketch"
            ));
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(files >= 5 && items >= 5, "{files} files, {items} items");
}
