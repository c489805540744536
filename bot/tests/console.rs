//! The console adapter: typed commands, answers, buttons, and a restart in the middle
//! of a generator.

use std::sync::Arc;

use tavern::console::{Console, ConsoleIdentity, LineOutcome, parse_options};
use tavern::core::commands::command_specs;
use tavern::core::{CommandOption, Core, CoreSettings, OptionValue, User};
use tavern::storage::Storage;

pub fn console_on(storage: &Storage) -> Console {
    console_in(storage, tavern::i18n::Lang::En)
}

/// A console on `storage` speaking `lang`.
pub fn console_in(storage: &Storage, lang: tavern::i18n::Lang) -> Console {
    let core = Core::new(
        storage.clone(),
        crate::doubles::engines(),
        CoreSettings::default(),
        Arc::new(tavern::core::limits::ManualClock::new(
            crate::harness::START_MS,
        )),
        Some(3),
    )
    .with_fetch(Arc::new(tavern::fetch::FileFetch));
    let identity = ConsoleIdentity {
        user: User {
            id: 1,
            name: "tester".to_owned(),
        },
        guild_id: 1,
        channel_id: 1,
        lang,
    };
    Console::new(Arc::new(core), identity)
}

pub async fn say(console: &mut Console, line: &str) -> String {
    match console.line(line).await {
        LineOutcome::Output(text) => text,
        LineOutcome::Quit => "<quit>".to_owned(),
    }
}

#[test]
fn options_are_parsed_from_typed_text() {
    let specs = command_specs(20);
    let roll = &specs[0].options;
    let string = |value: &str| OptionValue::String(value.to_owned());
    type Expected = Result<Vec<(&'static str, OptionValue)>, &'static str>;
    let cases: Vec<(&str, Expected)> = vec![
        ("4d6kh3", Ok(vec![("expr", string("4d6kh3"))])),
        (
            "4d6kh3 label:stats",
            Ok(vec![("expr", string("4d6kh3")), ("label", string("stats"))]),
        ),
        (
            "1d20 + 5 label:to hit private:true",
            Ok(vec![
                ("expr", string("1d20 + 5")),
                ("label", string("to hit")),
                ("private", OptionValue::Boolean(true)),
            ]),
        ),
        (
            "expr:2d6 repeat:3",
            Ok(vec![
                ("expr", string("2d6")),
                ("repeat", OptionValue::Integer(3)),
            ]),
        ),
        (
            "label:\"a: b\" expr:1d4",
            Ok(vec![("label", string("a: b")), ("expr", string("1d4"))]),
        ),
        // An option the command does not have is a typo, refused with the names.
        (
            "unknown:1 1d4",
            Err(
                "`/roll` has no option `unknown:`; its options are expr:, label:, private:, repeat:, to:.",
            ),
        ),
        ("1d20 privat:true", Err("has no option `privat:`")),
        // Colons that are not options stay text.
        (
            "1d20 label:at 12:30 https://x.example",
            Ok(vec![
                ("expr", string("1d20")),
                ("label", string("at 12:30 https://x.example")),
            ]),
        ),
        (
            "1d20 label:Note: \"a:b\"",
            Ok(vec![
                ("expr", string("1d20")),
                ("label", string("Note: \"a:b\"")),
            ]),
        ),
        ("1d4 repeat:many", Err("repeat must be a whole number")),
        ("label:x", Err("Missing expr")),
        ("1d4 expr:1d6", Err("given twice")),
    ];
    for (typed, expected) in cases {
        let parsed = parse_options(tavern::i18n::Lang::En, &["roll"], roll, typed);
        match expected {
            Ok(options) => {
                let options: Vec<CommandOption> = options
                    .into_iter()
                    .map(|(name, value)| CommandOption {
                        name: name.to_owned(),
                        value,
                    })
                    .collect();
                assert_eq!(parsed, Ok(options), "{typed}");
            }
            Err(needle) => {
                let error = parsed.expect_err(typed);
                assert!(error.contains(needle), "{typed}: {error}");
            }
        }
    }
}

#[test]
fn an_option_a_command_does_not_have_is_refused_in_both_languages() {
    let specs = command_specs(20);
    let macro_set = specs
        .iter()
        .find(|spec| spec.name == "macro")
        .and_then(|spec| spec.subcommands.iter().find(|sub| sub.name == "set"))
        .expect("/macro set");
    let cases = [
        (
            tavern::i18n::Lang::De,
            &["roll"][..],
            &specs[0].options,
            "1d20 privt:ja",
            "`/würfeln` hat keine Option `privt:`; seine Optionen sind ausdruck:, zweck:, privat:, anzahl:, an:.",
        ),
        (
            tavern::i18n::Lang::De,
            &["roll"][..],
            &specs[0].options,
            "1d20 private:ja label:x",
            "",
        ),
        (
            tavern::i18n::Lang::En,
            &["macro", "set"][..],
            &macro_set.options,
            "name:fb expr:8d6 scop:server",
            "`/macro set` has no option `scop:`; its options are name:, expr:, description:, scope:.",
        ),
    ];
    for (lang, path, options, typed, refusal) in cases {
        let parsed = parse_options(lang, path, options, typed);
        match refusal {
            "" => assert!(parsed.is_ok(), "{typed}: {parsed:?}"),
            refusal => assert_eq!(parsed, Err(refusal.to_owned()), "{typed}"),
        }
    }
}

#[tokio::test]
async fn a_scripted_console_session_makes_a_character_and_survives_a_restart() {
    let dir = crate::support::TempDir::new("console");
    let storage = crate::support::sqlite_storage(&dir).await;
    let mut console = console_on(&storage);
    assert_eq!(console.greeting().await.unwrap(), "");

    let rolled = say(&mut console, "/roll 2d6 label:damage").await;
    assert!(rolled.starts_with("**damage**: 2d6 ("), "{rolled}");
    assert!(
        rolled.ends_with("[buttons: Roll again] (/press LABEL)\n"),
        "{rolled}"
    );
    let again = say(&mut console, "/press roll again").await;
    assert!(
        again.starts_with("tester rolls again, **damage**: 2d6 ("),
        "{again}"
    );
    let bad = say(&mut console, "/roll 2d6+").await;
    assert_eq!(
        bad,
        "(only you) I can't roll that:\n2d6+\n    ^ expected a value (a number, dice, `(`, `{` or a \
         function) at the end\n"
    );

    let started = say(&mut console, "/chargen start").await;
    assert_eq!(
        started,
        "(only you) Started `chargen`. Answer with the **Answer** button, by replying to the \
         question, or with `/chargen answer`.\n\
         WELCOME TO THE TEST GENERATOR\n@everyone <@123> cannot ping\nWHAT IS YOUR NAME? \n\
         [buttons: Answer] (/press LABEL)\n"
    );
    let named = say(&mut console, "Udo").await;
    assert!(
        named.starts_with("HELLO Udo\nSTRENGTH 17\nCLASS (1=FIGHTER"),
        "{named}"
    );
    drop(console);
    storage.close().await;

    // A new process on the same database picks the question up again.
    let storage = crate::support::sqlite_storage(&dir).await;
    let mut console = console_on(&storage);
    let greeting = console.greeting().await.unwrap();
    assert!(greeting.starts_with("Your character generator `chargen` is waiting for an answer:\nSTRENGTH 17\nCLASS (1=FIGHTER"), "{greeting}");
    // The waiting question's button is listed again, and pressable.
    assert!(
        greeting.ends_with("\n[buttons: Answer] (/press LABEL)\n"),
        "{greeting}"
    );
    let class_form = say(&mut console, "/press Answer").await;
    assert!(
        class_form.starts_with("[form: Character generator: chargen] CLASS (1=FIGHTER"),
        "{class_form}"
    );
    let gendered = say(&mut console, "1").await;
    assert_eq!(gendered, "GENDER? \n[buttons: Answer] (/press LABEL)\n");
    let form = say(&mut console, "/press Answer").await;
    assert_eq!(
        form,
        "[form: Character generator: chargen] GENDER?\n(type your answer on the next line)\n"
    );
    let finished = say(&mut console, "M").await;
    assert_eq!(
        finished,
        "FAREWELL Udo\n**Udo** is ready: CLASS 1 · GENDER M · STR 17 · GOLD 120 GP\n\
         See the sheet with `/character show Udo`.\n`chargen` has ended. **Udo** was stored.\n\
         Roll with its fields, e.g. `/roll 1d20 + @STR_MOD` (`/character show` lists them). A \
         roll uses the character you chose with `/character use NAME`, else your newest.\n"
    );
    let sheet = say(&mut console, "/character show Udo").await;
    assert!(
        sheet.starts_with("**Udo**, made with `chargen` on 2026-01-01\nGENDER  M\nCLASS   1\n"),
        "{sheet}"
    );
    assert!(sheet.contains("\n[attached: udo.txt ("), "{sheet}");
    // The transcript is written to the file the console names.
    let written = sheet
        .split("[written to ")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .expect("the file's path");
    let transcript = std::fs::read_to_string(written).expect("the transcript file");
    assert!(transcript.contains("Udo"), "{transcript}");
    // In the console's own folder, which goes with the console.
    let written = std::path::PathBuf::from(written);
    assert_eq!(written.parent(), Some(console.files_dir()));
    let listed = say(&mut console, "/character list").await;
    assert!(listed.contains("- **Udo** (chargen"), "{listed}");
    // Nothing waits: the console says what can be typed, not that no generator runs.
    let nothing = say(&mut console, "hello?").await;
    assert_eq!(
        nothing,
        "Nothing is waiting for an answer. Commands start with `/`; try /help.\n"
    );
    assert_eq!(say(&mut console, "/quit").await, "<quit>");
    let files = console.files_dir().to_owned();
    drop(console);
    assert!(!written.exists(), "{}", written.display());
    assert!(!files.exists(), "{}", files.display());
    storage.close().await;
}

#[tokio::test]
async fn console_help_and_mistakes() {
    let dir = crate::support::TempDir::new("console-help");
    let storage = crate::support::sqlite_storage(&dir).await;
    let mut console = console_on(&storage);
    let help = say(&mut console, "/help").await;
    for needle in [
        "/roll expr:… [label:…] [private:…] [repeat:…]",
        "/chargen start [program:…]",
        "/character show [name:…]",
        "/press LABEL",
    ] {
        assert!(help.contains(needle), "{needle} missing from {help}");
    }
    assert_eq!(
        say(&mut console, "/dance").await,
        "Unknown command /dance. Try /help.\n"
    );
    assert_eq!(
        say(&mut console, "/chargen fly").await,
        "/chargen takes one of: start, answer, cancel, status, program.\n"
    );
    // A command with subcommands runs none of them by itself: it lists them.
    let bare = [
        (
            "/chargen",
            "/chargen takes one of: start, answer, cancel, status, program.\n",
        ),
        (
            "/init",
            "/init takes one of: begin, join, add, attack, save, next, prev, hp, effect, cure, remove, list, \
             end.\n",
        ),
        (
            "/chargen program",
            "/chargen program takes one of: add, list, remove, default, show, map.\n",
        ),
    ];
    for (typed, expected) in bare {
        assert_eq!(say(&mut console, typed).await, expected, "{typed}");
    }
    // No encounter was begun by the bare /init.
    let listed = say(&mut console, "/init list").await;
    assert!(!listed.contains("**Initiative**"), "{listed}");
    assert_eq!(
        say(&mut console, "/press Nope").await,
        "There is no button to press.\n"
    );
    assert_eq!(
        say(&mut console, "/roll").await,
        "Missing expr: give it as expr:… or as the first value.\n"
    );
    assert_eq!(say(&mut console, "").await, "");
    assert_eq!(say(&mut console, "/exit").await, "<quit>");
    storage.close().await;
}

#[tokio::test]
async fn help_pages_turn_with_buttons_and_rolls_take_adv_and_semicolons() {
    let dir = crate::support::TempDir::new("console-help");
    let storage = crate::support::sqlite_storage(&dir).await;
    let mut console = console_on(&storage);

    let dice = say(&mut console, "/help roll").await;
    assert!(dice.starts_with("(only you) **Dice**"), "{dice}");
    assert!(
        dice.contains("[buttons: Macros & @fields | Characters | NPCs | Odds | Encounters]"),
        "{dice}"
    );
    let odds = say(&mut console, "/press odds").await;
    assert!(
        odds.starts_with("(edited) (only you) **Odds** are the exact chances"),
        "{odds}"
    );
    assert!(odds.contains("[buttons: Dice | Macros"), "{odds}");
    let unknown = say(&mut console, "/help spells").await;
    assert!(
        unknown.contains("I have no page about `spells`"),
        "{unknown}"
    );
    let commands = say(&mut console, "/help").await;
    assert!(commands.contains("/help [topic:…]"), "{commands}");

    let rolled = say(&mut console, "/roll 1d20+5 adv; 2d6 fire").await;
    let lines: Vec<&str> = rolled.lines().collect();
    assert!(lines[0].starts_with("2d20kh1 ("), "{rolled}");
    assert!(lines[1].starts_with("*fire*: 2d6 ("), "{rolled}");
    let too_many = say(&mut console, "/roll 1;2;3;4;5").await;
    assert!(too_many.contains("At most 4 rolls"), "{too_many}");
    let no_d20 = say(&mut console, "/roll 3d6 adv").await;
    assert!(no_d20.contains("work on a roll with one d20"), "{no_d20}");
}

/// `/help` takes a page's button name as its topic, and a page turned by a button is
/// the same message, edited.
#[tokio::test]
async fn help_takes_the_buttons_names_as_topics() {
    let dir = crate::support::TempDir::new("console-help-topics");
    let storage = crate::support::sqlite_storage(&dir).await;
    let mut console = console_on(&storage);
    // The button's name is a topic too.
    let topics = [
        ("/help encounters", "(only you) **Encounters** track"),
        ("/help Characters", "(only you) **Characters** are made"),
        ("/help dice", "(only you) **Dice**"),
        (
            "/help macros & @fields",
            "(only you) **Macros** name a roll",
        ),
    ];
    for (typed, start) in topics {
        let page = say(&mut console, typed).await;
        assert!(page.starts_with(start), "{typed}: {page}");
    }
    // A page turned by its button is the same message, edited.
    let turned = say(&mut console, "/press Dice").await;
    assert!(
        turned.starts_with("(edited) (only you) **Dice**"),
        "{turned}"
    );
    storage.close().await;
}

#[test]
fn the_console_user_is_never_named_you() {
    use tavern::console::ConsoleIdentity;
    let table = [
        (Some("udo"), "udo"),
        (None, "Player"),
        (Some("  "), "Player"),
        (Some("you"), "Player"),
    ];
    for (login, expected) in table {
        let identity = ConsoleIdentity::named(login.map(str::to_owned));
        assert_eq!(identity.user.name, expected, "{login:?}");
    }
}

/// The German console: a bare group command lists its subcommands by their German
/// names, and a button's German name is a help topic.
#[tokio::test]
async fn the_german_console_lists_subcommands_and_takes_button_names_as_topics() {
    let dir = crate::support::TempDir::new("console-de");
    let storage = crate::support::sqlite_storage(&dir).await;
    let mut console = console_in(&storage, tavern::i18n::Lang::De);
    let listed = say(&mut console, "/initiative").await;
    assert!(
        listed.starts_with("/initiative kennt: beginnen, beitreten,"),
        "{listed}"
    );
    let listed = say(&mut console, "/generator").await;
    assert!(listed.starts_with("/generator kennt: starten,"), "{listed}");
    let page = say(&mut console, "/hilfe begegnungen").await;
    assert!(
        page.starts_with("(nur für dich) **Begegnungen** verfolgen"),
        "{page}"
    );
    let edited = say(&mut console, "/press Würfel").await;
    assert!(
        edited.starts_with("(bearbeitet) (nur für dich) **Würfeln**"),
        "{edited}"
    );
    // A line when nothing waits points to the command by its German name.
    let nothing = say(&mut console, "hallo?").await;
    assert_eq!(
        nothing,
        "Nichts wartet auf eine Antwort. Befehle beginnen mit `/`; versuch es mit /hilfe.\n"
    );
    storage.close().await;
}

/// Attachments go into one folder per console: at most so many files and bytes,
/// the newest kept; removed when the console ends; folders of consoles that are gone
/// are removed when the next one starts.
#[test]
fn the_consoles_files_stay_in_one_bounded_folder_that_is_cleaned() {
    use tavern::scratch::Scratch;
    let parent = crate::support::TempDir::new("scratch");
    let root = parent.path("");
    // No process has this id (above the largest Linux allows, 2^22).
    let stale = parent.path("4194305-0");
    std::fs::create_dir_all(&stale).unwrap();
    std::fs::write(stale.join("odds.png"), b"old").unwrap();
    let alive = parent.path(&format!("{}-9999", std::process::id()));
    std::fs::create_dir_all(&alive).unwrap();

    let mut scratch = Scratch::under(&root, 3, 1_000);
    assert!(
        !stale.exists(),
        "a gone console's folder is removed at start"
    );
    assert!(alive.exists(), "a running console's folder stays");
    let names = |dir: &std::path::Path| {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    for n in 0..5 {
        let path = scratch.write(&format!("{n}-odds.png"), &[0; 100]).unwrap();
        assert_eq!(path.parent(), Some(scratch.dir()));
    }
    assert_eq!(
        names(scratch.dir()),
        ["2-odds.png", "3-odds.png", "4-odds.png"]
    );
    scratch.write("5-big.txt", &[0; 900]).unwrap();
    assert_eq!(names(scratch.dir()), ["4-odds.png", "5-big.txt"]);
    scratch.write("6-huge.txt", &[0; 2_000]).unwrap();
    assert_eq!(names(scratch.dir()), ["6-huge.txt"]);
    let sneaky = scratch.write("../escape.txt", b"x").unwrap();
    assert_eq!(sneaky.parent(), Some(scratch.dir()));
    let dir = scratch.dir().to_owned();
    drop(scratch);
    assert!(!dir.exists(), "the folder goes with its console");
}

/// A listing the sandbox refuses is refused naming every refused statement, in the
/// console's language.
#[tokio::test]
async fn every_refused_statement_of_a_listing_is_named() {
    let dir = crate::support::TempDir::new("console-refused");
    let listing = dir.path("refused.bas");
    std::fs::write(
        &listing,
        "10 PRINT 1\n20 OPEN \"X\" FOR OUTPUT AS #1\n30 POKE 0, 1\n",
    )
    .unwrap();
    let storage = crate::support::sqlite_storage(&dir).await;
    let cases = [
        (
            tavern::i18n::Lang::En,
            "OPEN is not allowed here (file and device I/O) in 20; POKE is not allowed here \
             (direct memory access) in 30",
        ),
        (tavern::i18n::Lang::De, "OPEN ist hier nicht erlaubt"),
    ];
    for (lang, expected) in cases {
        let mut console = console_in(&storage, lang);
        let typed = format!("/chargen program add name:nope file:{}", listing.display());
        let refused = say(&mut console, &typed).await;
        assert!(refused.contains(expected), "{lang:?}: {refused}");
        assert!(refused.contains(" 30"), "{lang:?}: {refused}");
    }
    storage.close().await;
}
