//! Issue 18: every message of every command module, in English and German, within
//! Discord's limits for the longest and most hostile inputs, as a property.
//!
//! Each case builds a server with the longest names everything allows (a macro, a
//! program, an NPC, an effect file, a character, an encounter of twenty monsters),
//! then sends every path of every registered command (read from the command table,
//! so a new command is covered without editing this file) with generated values at
//! and just below each option's maximum length: once all hostile (markdown,
//! mentions, backticks, new lines, long words, multi-byte, combining, right-to-left
//! and zero-width characters), once naming what exists. It presses every button,
//! picks from every menu, fills every form and answers every prompt the answers
//! offer, and asks every autocomplete. The harness checks Discord's rules on each
//! reply; this module adds that no reply needed the core's last-resort cut
//! (`Core::cut_replies`), since every builder aims below the limits by
//! construction, and that no answer shows an empty code block.
//! All of it runs under each way a language is chosen: the user's Discord locale,
//! the server's, and the server's `/config language`.

use proptest::prelude::*;
use tavern::core::commands::{CommandSpec, OptionKind, OptionSpec};
use tavern::core::{
    Command, CommandOption, Component, Member, OptionValue, Permissions, Reply, Request,
    RequestKind,
};
use tavern::storage::NewCharacter;

use crate::harness::{ALICE, GUILD, Harness, START_MS, Sent, check_rules, command, text};

/// How the languages of one run are chosen: the user's Discord locale, the server's
/// Discord locale, and the server's `/config language` (`auto`: its Discord locale).
#[derive(Debug, Clone, Copy)]
struct Setup {
    user: &'static str,
    server: &'static str,
    setting: &'static str,
}

const SETUPS: [Setup; 4] = [
    Setup {
        user: "en-US",
        server: "en-US",
        setting: "auto",
    },
    Setup {
        user: "de",
        server: "de",
        setting: "auto",
    },
    // Private answers German, public ones English.
    Setup {
        user: "de",
        server: "en-US",
        setting: "auto",
    },
    // An English Discord everywhere, but the server speaks German by setting.
    Setup {
        user: "en-US",
        server: "en-US",
        setting: "de",
    },
];

/// Pieces hostile text is made of.
const ATOMS: &[&str] = &[
    "*",
    "_",
    "~",
    "|",
    "\\",
    "`",
    "```",
    "**bold**",
    "||spoiler||",
    "@everyone",
    "@here",
    "<@11>",
    "<@&4242>",
    "<#600>",
    "\n",
    "\r\n",
    " ",
    "# ",
    "> ",
    "- ",
    "[a](http://127.0.0.1/)",
    "Rindfleischetikettierungsüberwachungsaufgabenübertragungsgesetz",
    "ß",
    "😀",
    "👩\u{200d}👩\u{200d}👧",
    "e\u{301}\u{301}",
    "\u{202e}",
    "שלום",
    "مرحبا",
    "\u{200b}",
    "\u{feff}",
    "$",
    "@",
    "{",
    "}",
    ";",
    ",",
    ":",
    "0",
    "9",
    "d",
    "-",
    "+",
    "=",
];

/// A code block with nothing in it: what an answer shows when the text meant for it
/// was dropped as too long.
const EMPTY_BLOCK: &str = "```\n\n```";

/// The generated part of a case.
#[derive(Debug, Clone)]
struct Inputs {
    /// Hostile text is these atoms, repeated.
    atoms: Vec<&'static str>,
    /// Characters below each option's maximum (0: at it).
    below: usize,
    /// Which of an integer option's edge values, and which choice, each run takes.
    pick: usize,
    /// Letters of the longest valid names.
    letters: String,
}

fn case_inputs() -> impl Strategy<Value = Inputs> {
    (
        // Half the cases start with a code fence, the atom that breaks most.
        (
            prop::collection::vec(prop::sample::select(ATOMS), 1..10),
            any::<bool>(),
        )
            .prop_map(|(mut atoms, fence)| {
                if fence {
                    atoms.insert(0, "```");
                }
                atoms
            }),
        prop_oneof![Just(0_usize), Just(1), 0_usize..40],
        0_usize..64,
        "[a-zA-Z]{8}",
    )
        .prop_map(|(atoms, below, pick, letters)| Inputs {
            atoms,
            below,
            pick,
            letters,
        })
}

impl Inputs {
    /// Hostile text of exactly `chars` characters, starting `offset` atoms in.
    fn hostile(&self, chars: usize, offset: usize) -> String {
        let start = offset % self.atoms.len();
        let pieces = self.atoms[start..].iter().chain(&self.atoms[..start]);
        let seed: String = pieces.copied().collect();
        seed.chars().cycle().take(chars).collect()
    }

    /// A name of `chars` valid characters (letters, so any name rule takes it).
    fn name(&self, first: char, chars: usize) -> String {
        std::iter::once(first)
            .chain(self.letters.chars().cycle())
            .take(chars)
            .collect()
    }

    /// The length a string option gets: its maximum, or a little below.
    fn length(&self, max_length: u16) -> usize {
        usize::from(max_length).saturating_sub(self.below).max(1)
    }
}

/// What the fixture installed, by the longest names allowed.
struct Known {
    macro_name: String,
    program: String,
    npc: String,
    effect: String,
    monster: String,
    character: String,
    dice: String,
}

/// A GM with Manage Server who sends everything, under one language set-up.
struct Run {
    harness: Harness,
    setup: Setup,
    /// The user's display name: Discord allows 32 characters, hostile ones too.
    user_name: String,
    failures: Vec<String>,
}

impl Run {
    fn request(&self, kind: RequestKind) -> Request {
        let mut request = self.harness.request(ALICE, Some(GUILD), kind);
        request.locale = Some(self.setup.user.to_owned());
        request.guild_locale = Some(self.setup.server.to_owned());
        request.user.name = self.user_name.clone();
        request.member = Some(Member {
            permissions: Permissions(Permissions::MANAGE_GUILD),
            roles: Vec::new(),
        });
        request
    }

    /// Sends `kind` and notes every broken rule of Discord's (the harness's
    /// checks), any reply the core had to cut and any empty code block.
    async fn send(&mut self, kind: RequestKind) -> Sent {
        let request = self.request(kind);
        let cut_before = self.harness.core.cut_replies();
        // Every request is a new moment, so no cooldown or expiry merges them.
        self.harness.clock.advance_ms(1);
        let replies = self.harness.core.handle(&request).await;
        // Every broken rule of every case is reported, not only the first.
        let checked = std::panic::catch_unwind(|| check_rules(&replies));
        if let Err(panic) = checked {
            let rule = panic
                .downcast_ref::<String>()
                .cloned()
                .unwrap_or_else(|| "a rule".to_owned());
            self.failures.push(format!(
                "{:?}: {rule}\nafter {:?}",
                self.setup, request.kind
            ));
        }
        let sent = self.harness.deliver(replies).await;
        if self.harness.core.cut_replies() != cut_before {
            self.failures.push(format!(
                "{:?}: cut to fit: {:?}\n→ {:#?}",
                self.setup, request.kind, sent.replies
            ));
        }
        if let Some(text) = sent
            .texts()
            .into_iter()
            .find(|text| text.contains(EMPTY_BLOCK))
        {
            self.failures.push(format!(
                "{:?}: an empty code block: {:?}\n→ {text}",
                self.setup, request.kind
            ));
        }
        sent
    }

    /// Sends `kind`, then what its answers offer (buttons, menus, forms, prompts),
    /// breadth first, up to `budget` requests in all.
    async fn explore(&mut self, kind: RequestKind, inputs: &Inputs, budget: usize) {
        let mut queue = std::collections::VecDeque::from([kind]);
        let mut sent_count = 0;
        while let Some(kind) = queue.pop_front() {
            if sent_count == budget {
                break;
            }
            sent_count += 1;
            let sent = self.send(kind).await;
            queue.extend(follow_ups(&sent, inputs));
        }
    }
}

/// The requests a user can make from what `sent` shows.
fn follow_ups(sent: &Sent, inputs: &Inputs) -> Vec<RequestKind> {
    let message_id = sent.prompt_message.unwrap_or(1);
    let mut next = Vec::new();
    for reply in &sent.replies {
        let message = match reply {
            Reply::Interaction(message)
            | Reply::Update(message)
            | Reply::Channel { message, .. }
            | Reply::Edit { message, .. } => message,
            Reply::Modal(modal) => {
                let fields = modal
                    .inputs
                    .iter()
                    .enumerate()
                    .map(|(index, input)| {
                        let chars = usize::from(input.max_length).saturating_sub(inputs.below);
                        (input.custom_id.clone(), inputs.hostile(chars.max(1), index))
                    })
                    .collect();
                next.push(RequestKind::Modal {
                    custom_id: modal.custom_id.clone(),
                    fields,
                });
                continue;
            }
            Reply::Choices(_) => continue,
        };
        for component in message.components.iter().flat_map(|row| &row.0) {
            match component {
                Component::Button(button) if !button.disabled => {
                    next.push(RequestKind::Button {
                        custom_id: button.custom_id.clone(),
                        message_id,
                    });
                }
                Component::Button(_) => {}
                Component::Select(select) => {
                    let values = select
                        .options
                        .iter()
                        .map(|option| option.value.clone())
                        .take(usize::from(select.max_values.max(1)))
                        .collect();
                    next.push(RequestKind::Select {
                        custom_id: select.custom_id.clone(),
                        message_id,
                        values,
                    });
                }
            }
        }
    }
    if let Some(prompt) = sent.prompt_message {
        next.push(RequestKind::MessageReply {
            message_id: prompt + 1,
            to_message: prompt,
            text: inputs.hostile(2000, 3),
        });
    }
    next
}

/// Every invocable path of `spec` with its options: `["chargen", "program", "add"]`.
fn paths(spec: &CommandSpec) -> Vec<(Vec<&'static str>, Vec<OptionSpec>)> {
    if spec.subcommands.is_empty() && spec.groups.is_empty() {
        return vec![(Vec::new(), spec.options.clone())];
    }
    let mut paths: Vec<_> = spec
        .subcommands
        .iter()
        .map(|sub| (vec![sub.name], sub.options.clone()))
        .collect();
    for group in &spec.groups {
        paths.extend(
            group
                .subcommands
                .iter()
                .map(|sub| (vec![group.name, sub.name], sub.options.clone())),
        );
    }
    paths
}

/// Subcommands that take away what later paths use: sent last.
fn destroys(path: &[&str]) -> bool {
    matches!(
        path.last(),
        Some(&("delete" | "remove" | "end" | "cancel" | "uninstall"))
    )
}

/// What a command's option names when it names something the fixture installed.
fn known_value(known: &Known, command: &str, path: &[&str], option: &str) -> Option<String> {
    let value = match (command, path.first().copied(), option) {
        ("macro", _, "name") => &known.macro_name,
        ("macro", _, "expr") | ("roll" | "odds", _, "expr") => &known.dice,
        ("chargen", _, "name" | "program") => &known.program,
        ("character", _, "name") | ("init", _, "character") => &known.character,
        ("npc", _, "name") | ("talk", _, "npc") => &known.npc,
        ("effect", _, "name") | ("init", _, "effect") => &known.effect,
        ("init", Some("add"), "name") => return Some(known.monster[..29].to_owned()),
        ("init", Some("add" | "join"), "init" | "hp") => return Some("1d20+1d20".to_owned()),
        ("init", Some("hp"), "amount") => return Some(format!("-{}", &known.dice[..99])),
        ("init", _, "target") => return Some(format!("{}_20", &known.monster[..29])),
        ("init", _, "targets") => {
            let names: Vec<String> = (1..=20)
                .map(|n| format!("{}_{n}", &known.monster[..29]))
                .collect();
            return Some(names.join(","));
        }
        ("help", _, "topic") => return Some("init".to_owned()),
        _ => return None,
    };
    Some(value.clone())
}

/// A value for `option`: hostile text at or just below its maximum length, an
/// integer at or beyond an edge, a choice, a file that cannot be read.
fn value(option: &OptionSpec, inputs: &Inputs, index: usize) -> OptionValue {
    if !option.choices.is_empty() {
        let choice = option.choices[(inputs.pick + index) % option.choices.len()];
        return text(choice);
    }
    match option.kind {
        OptionKind::String { max_length } => {
            OptionValue::String(inputs.hostile(inputs.length(max_length), index))
        }
        OptionKind::Integer { min, max } => {
            let edges = [
                min,
                max,
                min.saturating_sub(1),
                max.saturating_add(1),
                0,
                i64::MIN,
                i64::MAX,
            ];
            OptionValue::Integer(edges[(inputs.pick + index) % edges.len()])
        }
        OptionKind::Boolean => OptionValue::Boolean((inputs.pick + index).is_multiple_of(2)),
        OptionKind::Attachment => OptionValue::Attachment {
            filename: inputs.hostile(200, index),
            url: "http://127.0.0.1:9/unreadable".to_owned(),
            size: u64::MAX,
        },
        OptionKind::Role => OptionValue::Role(i64::MAX),
        OptionKind::Channel => OptionValue::Channel(i64::MAX),
    }
}

/// The BASIC program the fixture installs: prints hostile lines and asks twice.
const PROGRAM: &str = r#"10 PRINT "**@everyone** <@11> ``` ||x|| ~~y~~ \\ _z_ # > - [a](http://127.0.0.1/)"
20 INPUT "WHAT IS YOUR NAME, TRAVELLER OF THE LONG ROADS AND THE LONGER QUESTIONS"; N$
30 PRINT N$; N$; N$; N$
40 INPUT "AND YOUR CLASS"; C$
50 RECORD "NAME", N$, "CLASS", C$, "GOLD", 2147483647
"#;

const HEALER: &str = include_str!("../../npc-core/scripts/healer.ghul");
const EFFECTS: &str = include_str!("../../npc-core/scripts/effects.ghul");

/// A server holding the longest of everything, under `setup`.
async fn fixture(setup: Setup, inputs: &Inputs) -> (Run, Known) {
    let harness = Harness::with_settings(crate::macros::settings()).await;
    let mut run = Run {
        harness,
        setup,
        user_name: inputs.hostile(32, 1),
        failures: Vec::new(),
    };
    let known = Known {
        macro_name: inputs.name('m', 32),
        program: inputs.name('p', 32),
        npc: inputs.name('n', 32),
        effect: inputs.name('T', 64),
        monster: inputs.name('M', 32),
        character: character_name(&inputs.hostile(64, 2)),
        dice: format!("{}+1d20", "1d4+".repeat(99)),
    };
    let language = command(
        "config",
        &["language"],
        &[("language", text(setup.setting))],
    );
    run.send(language).await;
    let description = inputs.hostile(100, 4);
    let saved = command(
        "macro",
        &["set"],
        &[
            ("name", text(&known.macro_name)),
            ("expr", text(&known.dice[..500.min(known.dice.len())])),
            ("description", text(&description)),
        ],
    );
    run.send(saved).await;
    let program = command(
        "chargen",
        &["program", "add"],
        &[("name", text(&known.program)), ("code", text(PROGRAM))],
    );
    run.explore(program, inputs, 3).await;
    let display = inputs.hostile(32, 5);
    let npc = command(
        "npc",
        &["install"],
        &[
            ("name", text(&known.npc)),
            ("display", text(&display)),
            ("code", text(HEALER)),
        ],
    );
    run.send(npc).await;
    let library = format!(
        "{EFFECTS}\nEFFECT {} {{\n target_type Character\n subject HitPoints\n value -1d4\n method (MAGIC)\n duration 3\n}}\n",
        known.effect
    );
    let effects = command("effect", &["install"], &[("code", text(&library))]);
    run.send(effects).await;
    character(&run.harness, &known.character).await;
    run.send(command("init", &["begin"], &[])).await;
    let add = command(
        "init",
        &["add"],
        &[
            ("name", text(&known.monster[..29])),
            ("init", text("1d20+1d20+1d20+1d20+1d20+1d20+1d20+1d20")),
            (
                "hp",
                text("1d4+1d4+1d4+1d4+1d4+1d4+1d4+1d4+1d4+1d4+1d4+1d4+1d4"),
            ),
            ("count", OptionValue::Integer(20)),
            ("hidden", OptionValue::Boolean(true)),
        ],
    );
    run.send(add).await;
    (run, known)
}

/// A character's name as `/chargen` makes one of a program's text: one line of at
/// most 64 characters; "Character 1" when nothing is left.
fn character_name(text: &str) -> String {
    let name = tavern::core::text::one_line(text, 64);
    match name.is_empty() {
        true => "Character 1".to_owned(),
        false => name,
    }
}

/// Alice's character, named as hostile as a RECORD may name one.
async fn character(harness: &Harness, name: &str) {
    let fields = serde_json::json!([["NAME", name], ["NOTE", "x".repeat(255)]]).to_string();
    harness
        .storage
        .finish_session(
            None,
            &[NewCharacter {
                id: 1,
                owner_id: ALICE,
                guild_id: GUILD,
                name: name.to_owned(),
                program: "chargen".to_owned(),
                program_hash: "x".to_owned(),
                gold: i64::MAX,
                food: i64::MAX,
                fields,
                transcript: "y".repeat(4000),
                now: START_MS,
                capture: String::new(),
                numbered: false,
            }],
        )
        .await
        .unwrap()
        .unwrap();
}

/// One case under one set-up: every path twice (hostile, then naming what exists),
/// destructive ones last, and every autocomplete.
async fn every_module(setup: Setup, inputs: &Inputs) -> Vec<String> {
    let (mut run, known) = fixture(setup, inputs).await;
    let specs = run.harness.core.command_specs();
    let mut requests = Vec::new();
    for spec in &specs {
        for (path, options) in paths(spec) {
            let hostile: Vec<CommandOption> = options
                .iter()
                .enumerate()
                .map(|(index, option)| CommandOption {
                    name: option.name.to_owned(),
                    value: value(option, inputs, index),
                })
                .collect();
            // What exists, by name; other required options hostile, optional ones
            // left out (their defaults).
            let named: Vec<CommandOption> = options
                .iter()
                .zip(&hostile)
                .filter_map(|(option, hostile)| {
                    let value = match known_value(&known, spec.name, &path, option.name) {
                        Some(known) => OptionValue::String(known),
                        None if option.required => hostile.value.clone(),
                        None => return None,
                    };
                    Some(CommandOption {
                        name: option.name.to_owned(),
                        value,
                    })
                })
                .collect();
            // The server keeps the set-up's language.
            let keep_setting = spec.name == "config" && path == ["language"];
            for options in [hostile, named] {
                let options = match keep_setting {
                    true => vec![CommandOption {
                        name: "language".to_owned(),
                        value: text(setup.setting),
                    }],
                    false => options,
                };
                let command = Command {
                    name: spec.name.to_owned(),
                    subcommand: path.iter().map(|part| (*part).to_owned()).collect(),
                    options,
                };
                for option in options_to_complete(spec, &path) {
                    requests.push((
                        false,
                        RequestKind::Autocomplete {
                            command: command.clone(),
                            focused: option,
                        },
                    ));
                }
                requests.push((destroys(&path), RequestKind::Command(command)));
            }
        }
    }
    // Stable: the order of the table, the destructive paths after all others.
    requests.sort_by_key(|(destroys, _)| *destroys);
    for (_, kind) in requests {
        run.explore(kind, inputs, 6).await;
    }
    run.failures
}

/// The options of `path` that offer autocomplete.
fn options_to_complete(spec: &CommandSpec, path: &[&str]) -> Vec<String> {
    let options = match path {
        [] => &spec.options,
        [sub] => match spec.subcommand(sub) {
            Some(sub) => &sub.options,
            None => return Vec::new(),
        },
        [group, sub, ..] => match spec.group(group).and_then(|group| group.subcommand(sub)) {
            Some(sub) => &sub.options,
            None => return Vec::new(),
        },
    };
    options
        .iter()
        .filter(|option| option.autocomplete)
        .map(|option| option.name.to_owned())
        .collect()
}

fn block_on<T>(future: impl std::future::Future<Output = T>) -> T {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(future)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 3,
        // A case takes seconds; its failures name each request, so a short
        // shrink is enough.
        max_shrink_iters: 0,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Every message of every module, under every language set-up, fits Discord's
    /// limits without a cut.
    #[test]
    fn every_message_of_every_module_fits_discord_in_both_languages(inputs in case_inputs()) {
        let failures: Vec<String> = SETUPS
            .into_iter()
            .flat_map(|setup| block_on(every_module(setup, &inputs)))
            .collect();
        prop_assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    }
}

/// What the property found, kept as cases: each request, under each set-up, on the
/// fixture of a case, answers within the limits, uncut, without an empty block.
#[tokio::test]
async fn what_the_property_found_stays_fixed() {
    let found = Inputs {
        atoms: vec!["|", "\u{feff}", "|", "d", ";", "~", "שלום", "ß"],
        below: 0,
        pick: 0,
        letters: "zHMxUduN".to_owned(),
    };
    // A 4,000-character line pasted into the effect file's form (and as `code`):
    // its caret was longer than the answer's error budget, so the answer showed an
    // empty block and "…and 1 more" for its only error.
    let long_line = found.hostile(4000, 0);
    for setup in SETUPS {
        // Load errors are private answers, in the member's language.
        let line_one = if setup.user == "de" {
            "Zeile 1:"
        } else {
            "line 1:"
        };
        let cases = [
            (
                RequestKind::Modal {
                    custom_id: "tv1:fp:".to_owned(),
                    fields: vec![("source".to_owned(), long_line.clone())],
                },
                line_one,
            ),
            (
                command("effect", &["install"], &[("code", text(&long_line))]),
                line_one,
            ),
            (
                command(
                    "npc",
                    &["install"],
                    &[("name", text("longline")), ("code", text(&long_line))],
                ),
                line_one,
            ),
            // A program name with a code fence: echoed inside a code span, it opened a
            // block that swallowed the rest of the answer.
            (
                command("chargen", &["start"], &[("program", text("😀```|ß,}>"))]),
                "`😀'''|ß,}>`",
            ),
        ];
        let (mut run, known) = fixture(setup, &found).await;
        let monster = format!("{}_1", &known.monster[..29]);
        // User text echoed in code spans: a fence in it became a block.
        let echoed = [
            (
                command(
                    "init",
                    &["effect"],
                    &[("targets", text(&monster)), ("effect", text("```x"))],
                ),
                "`'''x`".to_owned(),
            ),
            (
                command(
                    "init",
                    &["add"],
                    &[
                        ("name", text("Orc")),
                        ("init", text("```")),
                        ("hp", text("1")),
                    ],
                ),
                "`'''` ".to_owned(),
            ),
            (
                command("character", &["show"], &[("name", text("a```b"))]),
                "`a'''b`".to_owned(),
            ),
            (
                command("npc", &["remove"], &[("name", text("```"))]),
                "`'''`".to_owned(),
            ),
            (
                command("chargen", &["start"], &[("program", text(&known.program))]),
                known.program.clone(),
            ),
            (
                command("chargen", &["answer"], &[("text", text("```x"))]),
                "`'''x`".to_owned(),
            ),
        ];
        let all = cases
            .iter()
            .map(|(kind, expected)| (kind.clone(), (*expected).to_owned()))
            .chain(echoed);
        for (kind, expected) in all {
            let sent = run.send(kind).await;
            let answer = &sent.interaction().content;
            assert!(answer.contains(&expected), "{setup:?}: {answer}");
        }
        assert!(run.failures.is_empty(), "{}", run.failures.join("\n\n"));
    }
    // Answers of nothing but backticks: the fixture's program prints the first four
    // times, and the prompt message is edited to show each. Broken up so they open
    // no block, the backticks grew by half again and more, past the pages' and the
    // edit's budgets counted before, so the replies were cut to fit.
    let fences = Inputs {
        atoms: vec!["```"],
        ..found
    };
    for setup in SETUPS {
        let (mut run, known) = fixture(setup, &fences).await;
        let start = command("chargen", &["start"], &[("program", text(&known.program))]);
        run.send(start).await;
        for _ in 0..2 {
            let answer = fences.hostile(255, 0);
            run.send(command("chargen", &["answer"], &[("text", text(&answer))]))
                .await;
        }
        assert!(run.failures.is_empty(), "{}", run.failures.join("\n\n"));
    }
}
