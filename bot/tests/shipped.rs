//! The shipped chargen.bas on the engines of the binary: through the core, and
//! through a piped `tavern console` that is stopped in the middle and resumed by a
//! second process from the SQLite file.

use std::sync::Arc;

use tavern::config::Config;
use tavern::core::fields::{ability_modifier, roll_fields};
use tavern::core::{Core, Reply};

use crate::cli::{stderr, stdout, tavern};
use crate::harness::{ALICE, GUILD, Harness, command, text};
use crate::macros::{roll, settings, total_of};
use crate::support::TempDir;

/// The answers that take chargen.bas from its start to a stored fighter named Udo:
/// ready, scores noted, class 1 (a fighter needs nothing), keep him, name, gender.
const FIRST_HALF: [&str; 6] = ["1", "1", "1", "Y", "Udo", "M"];
/// Then: the record noted, the abilities noted, no other adventurer.
const SECOND_HALF: [&str; 3] = ["1", "1", "N"];

const FIELD_NAMES: [&str; 14] = [
    "NAME", "CLASS", "RACE", "GENDER", "LEVEL", "STR", "INT", "WIS", "DEX", "CON", "CHA", "HP",
    "AC", "GOLD",
];

fn stored_fields(json: &str) -> Vec<(String, String)> {
    serde_json::from_str(json).expect("fields are JSON pairs")
}

#[tokio::test]
async fn the_shipped_chargen_runs_through_the_core_to_a_character_used_in_rolls() {
    let dir = TempDir::new("shipped-core");
    let storage = crate::support::sqlite_storage(&dir).await;
    let mut harness = Harness::on(storage.clone(), settings(), 5);
    let engines = tavern::engine::real_engines(&Config::default()).unwrap();
    assert_eq!(engines.builtin_programs[0].name, "chargen");
    harness.core = Arc::new(Core::new(
        storage,
        engines,
        settings(),
        harness.clock.clone(),
        Some(5),
    ));
    let started = harness.alice(command("chargen", &["start"], &[])).await;
    assert!(
        started
            .interaction()
            .content
            .starts_with("Started `chargen`.")
    );
    // CHR$(12) clears the screen: the guild hall is a message of its own.
    let first = started.channel_messages();
    assert!(
        first
            .last()
            .unwrap()
            .content
            .contains("THE ADVENTURERS' GUILD HALL")
    );
    let mut prompt = started.prompt_message.unwrap();
    let mut all = String::new();
    for answer in FIRST_HALF.iter().chain(SECOND_HALF.iter()) {
        let last = harness
            .alice(tavern::core::RequestKind::MessageReply {
                message_id: prompt + 1_000_000,
                to_message: prompt,
                text: (*answer).to_owned(),
            })
            .await;
        if let Some(next) = last.prompt_message {
            prompt = next;
        }
        // Udo is shown the moment RECORD takes him, before the last questions.
        all.push_str(&last.all_text());
    }
    assert!(
        all.contains("THE GUILD CLERK BLOTS THE LEDGER. FAREWELL!"),
        "{all}"
    );
    assert!(
        all.contains("**Udo** is ready: CLASS FIGHTER · RACE HUMAN · GENDER MALE"),
        "{all}"
    );
    let udo = harness
        .storage
        .character_named(ALICE, GUILD, "Udo")
        .await
        .unwrap()
        .unwrap();
    let fields = stored_fields(&udo.fields);
    let names: Vec<&str> = fields.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, FIELD_NAMES);
    let numbers = roll_fields(&fields);
    let strength = numbers["STR"];
    assert!((3..=18).contains(&strength));
    assert_eq!(numbers["STR_MOD"], ability_modifier(strength));
    assert!(
        udo.transcript
            .contains("WHAT IS YOUR ADVENTURER'S NAME? Udo\n")
    );

    harness
        .alice(command("character", &["use"], &[("name", text("Udo"))]))
        .await;
    let rolled = harness.alice(roll("10 + @STR_MOD + @LEVEL")).await;
    assert_eq!(
        total_of(&rolled.interaction().content),
        Some(11 + ability_modifier(strength))
    );
    let sheet = harness
        .alice(command("character", &["show"], &[("name", text("udo"))]))
        .await;
    let content = &sheet.interaction().content;
    assert!(content.contains("\nCLASS   FIGHTER\n"), "{content}");
    assert!(
        content.contains(&format!(
            "\nSTR     {strength} ({})\n",
            tavern::core::fields::signed(ability_modifier(strength))
        )),
        "{content}"
    );
    assert!(matches!(sheet.replies[0], Reply::Interaction(_)));
}

#[test]
fn a_piped_console_makes_a_character_across_a_restart() {
    let dir = TempDir::new("shipped-console");
    let db = dir.path("play.db");
    let db = db.to_str().unwrap();
    let first_input = format!("/chargen start\n{}\n", FIRST_HALF.join("\n"));
    let first = tavern(&["console", "--db", db, "--seed", "1"], &first_input);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let first_out = stdout(&first);
    assert!(
        first_out.starts_with("(only you) Started `chargen`."),
        "{first_out}"
    );
    assert!(
        first_out.contains("IS Udo MALE OR FEMALE (M/F)? \n"),
        "{first_out}"
    );
    // stdin ended: the process left with the generator waiting at its next question.
    assert!(
        first_out.ends_with("TO CONTINUE, ENTER A ONE (1)? \n[buttons: Answer] (/press LABEL)\n"),
        "{first_out}"
    );

    let second_input = format!(
        "{}\n/character show Udo\n/character use Udo\n/roll 10 + @STR_MOD\n",
        SECOND_HALF.join("\n")
    );
    let second = tavern(&["console", "--db", db, "--seed", "2"], &second_input);
    assert_eq!(second.status.code(), Some(0), "{}", stderr(&second));
    let second_out = stdout(&second);
    assert!(
        second_out.starts_with(
            "Your character generator `chargen` is waiting for an answer:\n\n       \
             RECORD OF A NEW ADVENTURER\n\nNAME..... Udo\n"
        ),
        "{second_out}"
    );
    assert!(
        second_out.contains(
            "ANOTHER ADVENTURER (Y/N)? \n[buttons: Answer] (/press LABEL)\n\
             **Udo** is ready: CLASS FIGHTER"
        ),
        "{second_out}"
    );
    assert!(
        second_out.contains(
            "THE GUILD CLERK BLOTS THE LEDGER. FAREWELL!\n`chargen` has ended. **Udo** was stored."
        ),
        "{second_out}"
    );
    assert!(
        second_out.contains("\n[attached: udo.txt ("),
        "{second_out}"
    );

    // The stored character, read back from the file.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let fields = runtime.block_on(async {
        let storage = crate::support::sqlite_storage_at(std::path::Path::new(db)).await;
        let udo = storage
            .character_named(1, 1, "Udo")
            .await
            .unwrap()
            .expect("Udo is stored");
        storage.close().await;
        stored_fields(&udo.fields)
    });
    let names: Vec<&str> = fields.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, FIELD_NAMES);
    let strength = roll_fields(&fields)["STR"];
    let modifier = ability_modifier(strength);
    assert!(
        second_out.contains(&format!(
            "`10 + @STR_MOD` as **Udo**: 10 + {} = **{}**",
            if modifier < 0 {
                format!("({modifier})")
            } else {
                modifier.to_string()
            },
            10 + modifier
        )),
        "{second_out}"
    );
}

/// `tavern console --seed N` twice on one database: the second run replays the
/// first's rolls, but ids never come from the game's RNG, so its character is
/// stored too (it used to fail with `UNIQUE constraint failed: characters.id`).
#[test]
fn the_same_seed_twice_on_one_database_stores_two_characters() {
    let dir = TempDir::new("shipped-seeded");
    let db = dir.path("play.db");
    let db = db.to_str().unwrap();
    let answers = FIRST_HALF.iter().chain(&SECOND_HALF).copied();
    let input = format!(
        "/chargen start\n{}\n",
        answers.collect::<Vec<_>>().join("\n")
    );
    for expected in ["**Udo** is ready", "**Udo 2** is ready"] {
        let run = tavern(&["console", "--db", db, "--seed", "7"], &input);
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        let out = stdout(&run);
        assert!(out.contains(expected), "{out}");
        assert!(!out.contains("error"), "{out}");
    }
}
