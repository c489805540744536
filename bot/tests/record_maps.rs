//! Record maps (issue 13): a listing in the 1983 style (a loop over several
//! characters, a closing `CLEAR`, no `RECORD`) with a map, through the core; the
//! last-alive capture without a map; safe ids; any map over any program.

use proptest::prelude::*;

use tavern::core::record_map;
use tavern::core::{CoreSettings, RequestKind};
use tavern::storage::Storage;

use crate::harness::{ALICE, GUILD, Harness, command, text};
use crate::macros::{as_user, roll, total_of};
use crate::on_both_backends;

/// A generator written for these tests in the style of DM'S PERSONNEL SERVICE:
/// three characters in one run, the recap, "ANOTHER CHARACTER (Y/N)" at 4180 and a
/// closing `CLEAR` that wipes every variable before the end.
pub const LISTING: &str = r#"10 REM A GENERATOR IN THE 1983 STYLE: NO RECORD
20 DIM AB(6)
30 N = 0
100 N = N + 1
110 INPUT "CHARACTER'S NAME"; NA$
120 INPUT "RACE"; RA$
130 ST = 10 + N: IN = 9: WI = 8: DX = 12 + N: CO = 11: CH = 7
140 LL = 1: PT = 4 + N: GC = 10 * N
150 AB(1) = ST
160 PRINT "RECAP OF "; NA$; ": STR"; ST; "HP"; PT; "GOLD"; GC
4180 INPUT "ANOTHER CHARACTER (Y/N)"; A$
4190 IF A$ = "Y" THEN 100
4200 CLEAR
4210 END
"#;

/// The map the README walks through, for this listing.
pub const MAP: &str = "at 4180 NAME=NA$ RACE=RA$ LEVEL=LL STR=ST INT=IN WIS=WI DEX=DX \
                       CON=CO CHA=CH HP=PT GOLD=GC";

/// The answers of one run that makes Ann, Bo and Cy.
pub const ANSWERS: [&str; 9] = ["Ann", "Elf", "Y", "Bo", "Dwarf", "Y", "Cy", "Human", "N"];

fn add(map: Option<&str>) -> RequestKind {
    let mut options = vec![("name", text("dmps")), ("code", text(LISTING))];
    if let Some(map) = map {
        options.push(("map", text(map)));
    }
    command("chargen", &["program", "add"], &options)
}

fn set_map(map: &str) -> RequestKind {
    command(
        "chargen",
        &["program", "map"],
        &[("name", text("dmps")), ("map", text(map))],
    )
}

fn show(name: &str) -> RequestKind {
    command("character", &["show"], &[("name", text(name))])
}

/// Alice's request, a few seconds after the last one (the rate limit stays quiet).
async fn alice_says(harness: &mut Harness, kind: RequestKind) -> String {
    harness.clock.advance_ms(5_000);
    as_user(harness, ALICE, kind).await
}

/// Runs the listing once as Alice, answering every question; the texts of every
/// answer (each character is shown when it is taken).
async fn run(harness: &mut Harness, answers: &[&str]) -> String {
    harness.clock.advance_ms(5_000);
    let started = harness
        .alice(command("chargen", &["start"], &[("program", text("dmps"))]))
        .await;
    assert!(started.prompt_message.is_some(), "{}", started.all_text());
    let mut last = String::new();
    for answer in answers {
        harness.clock.advance_ms(5_000);
        let sent = harness
            .alice(command("chargen", &["answer"], &[("text", text(answer))]))
            .await;
        last.push_str(&sent.all_text());
    }
    last
}

async fn names(storage: &Storage) -> Vec<String> {
    storage
        .characters_of(ALICE, GUILD)
        .await
        .unwrap()
        .into_iter()
        .map(|row| row.name)
        .collect()
}

#[tokio::test]
async fn three_characters_in_one_run_each_with_its_fields() {
    let mut harness = Harness::new().await;
    let installed = alice_says(&mut harness, add(Some(MAP))).await;
    assert!(installed.starts_with("Installed `dmps`"), "{installed}");
    assert!(
        installed.contains(&format!("mapped with `{MAP}`")),
        "{installed}"
    );
    let list = alice_says(&mut harness, command("chargen", &["program", "list"], &[])).await;
    assert!(list.contains(&format!("map: `{MAP}`")), "{list}");
    let shown = as_user(
        &mut harness,
        ALICE,
        command("chargen", &["program", "show"], &[("name", text("dmps"))]),
    )
    .await;
    assert!(
        shown.contains("A character is taken every time line 4180 is about to run."),
        "{shown}"
    );
    assert!(shown.contains("STR ← ST\n"), "{shown}");

    let end = run(&mut harness, &ANSWERS).await;
    assert!(
        end.contains("**Ann** is ready: RACE Elf · LEVEL 1 · STR 11"),
        "{end}"
    );
    assert!(end.contains("**Bo** is ready"), "{end}");
    assert!(end.contains("**Cy** is ready"), "{end}");
    assert!(
        end.ends_with(
            "`dmps` has ended. 3 characters were stored: **Ann**, **Bo**, **Cy**.\n\
             Roll with its fields, e.g. `/roll 1d20 + @STR_MOD` (`/character show` lists \
             them). A roll uses the character you chose with `/character use NAME`, else \
             your newest."
        ),
        "{end}"
    );
    assert_eq!(names(&harness.storage).await, ["Ann", "Bo", "Cy"]);

    let sheet = alice_says(&mut harness, show("Bo")).await;
    assert_eq!(
        sheet,
        "**Bo**, made with `dmps` on 2026-01-01\n```\n\
         RACE   Dwarf\n\
         LEVEL  1\n\
         HP     6\n\
         STR    12 (0)\n\
         INT    9 (0)\n\
         WIS    8 (-1)\n\
         DEX    14 (+1)\n\
         CON    11 (0)\n\
         CHA    7 (-1)\n```\n\
         Gold 20 · Food 0\nInventory: none\nParty: none\n\
         In rolls: `@CHA`, `@CHA_MOD`, `@CON`, `@CON_MOD`, `@DEX`, `@DEX_MOD`, `@FOOD`, \
         `@GOLD`, `@HP`, `@INT`, `@INT_MOD`, `@LEVEL`, `@STR`, `@STR_MOD`, `@WIS`, `@WIS_MOD`"
    );

    alice_says(
        &mut harness,
        command("character", &["use"], &[("name", text("Cy"))]),
    )
    .await;
    for (expr, total) in [("1d1 + @STR", 14), ("@HP + @GOLD + @LEVEL", 7 + 30 + 1)] {
        let rolled = alice_says(&mut harness, roll(expr)).await;
        assert_eq!(total_of(&rolled), Some(total), "{expr}: {rolled}");
    }
}

on_both_backends!(a_map_changed_afterwards_relabels_the_characters_made);
async fn a_map_changed_afterwards_relabels_the_characters_made(storage: Storage) {
    let mut harness = crate::macros::harness_on(storage);
    // A first map with two fields mixed up: STR took the hit points.
    let wrong = "at 4180 NAME=NA$ STR=PT";
    alice_says(&mut harness, add(Some(wrong))).await;
    run(&mut harness, &ANSWERS).await;
    let before = alice_says(&mut harness, show("Ann")).await;
    assert!(before.contains("STR  5 (-2)"), "{before}");

    let changed = alice_says(&mut harness, set_map(MAP)).await;
    assert!(changed.contains("maps its characters with"), "{changed}");
    assert!(changed.contains("3 of them not yet traded"), "{changed}");
    let after = alice_says(&mut harness, show("Ann")).await;
    assert!(after.contains("STR    11 (0)\n"), "{after}");
    assert!(after.contains("HP     5\n"), "{after}");
    assert!(after.contains("Gold 10 · Food 0"), "{after}");
    alice_says(
        &mut harness,
        command("character", &["use"], &[("name", text("Ann"))]),
    )
    .await;
    let rolled = alice_says(&mut harness, roll("@STR + @GOLD")).await;
    assert_eq!(total_of(&rolled), Some(21), "{rolled}");
}

on_both_backends!(a_map_changed_afterwards_renames_the_characters_made);
async fn a_map_changed_afterwards_renames_the_characters_made(storage: Storage) {
    let mut harness = crate::macros::harness_on(storage);
    let sorted = async |harness: &Harness| {
        let mut names = names(&harness.storage).await;
        names.sort();
        names
    };
    // A first map that takes the name from the race.
    alice_says(&mut harness, add(Some("at 4180 NAME=RA$ STR=ST"))).await;
    run(&mut harness, &ANSWERS).await;
    assert_eq!(sorted(&harness).await, ["Dwarf", "Elf", "Human"]);

    // The right map renames them; every lookup follows the new names.
    let changed = alice_says(&mut harness, set_map(MAP)).await;
    assert!(
        changed.ends_with(" 3 of them took the name the new map gives them."),
        "{changed}"
    );
    assert_eq!(sorted(&harness).await, ["Ann", "Bo", "Cy"]);
    let sheet = alice_says(&mut harness, show("Ann")).await;
    assert!(sheet.starts_with("**Ann**, made with `dmps`"), "{sheet}");
    assert!(sheet.contains("RACE   Elf\n"), "{sheet}");
    let old = alice_says(&mut harness, show("Elf")).await;
    assert!(
        old.starts_with("You have no character called `Elf`"),
        "{old}"
    );
    alice_says(
        &mut harness,
        command("character", &["use"], &[("name", text("Bo"))]),
    )
    .await;
    let rolled = alice_says(&mut harness, roll("1d1 + @STR")).await;
    assert_eq!(total_of(&rolled), Some(13), "{rolled}");

    // A map naming them all alike keeps names unique, as at creation.
    alice_says(&mut harness, set_map("at 4180 NAME=LL STR=ST")).await;
    assert_eq!(sorted(&harness).await, ["1", "1 2", "1 3"]);
    let deleted = crate::characters::delete(&mut harness, ALICE, "1 2").await;
    assert_eq!(deleted, "Deleted **1 2**.");
    // A map without NAME leaves the names as they are.
    let unnamed = alice_says(&mut harness, set_map("at 4180 STR=ST")).await;
    assert!(!unnamed.contains("took the name"), "{unnamed}");
    assert_eq!(sorted(&harness).await, ["1", "1 3"]);
}

#[tokio::test]
async fn a_bad_map_is_refused_with_the_reason() {
    let mut harness = Harness::new().await;
    let cases = [
        ("at 999 NAME=NA$", "the program has no line 999"),
        ("at 4180 STR=QQ", "`STR=QQ`: the program never assigns `QQ`"),
        ("at 4180 ST R=ST", "`ST` is not FIELD=VARIABLE"),
        ("at 4180 1STR=ST", "`1STR` cannot be a field name"),
        ("at 4180 STR=ST(", "`ST(` is not a BASIC variable"),
        ("at 4180 STR=ST STR=IN", "the field `STR` is mapped twice"),
        ("at four", "`at four`: a line number is digits only"),
    ];
    for (map, reason) in cases {
        let refused = alice_says(&mut harness, add(Some(map))).await;
        assert!(
            refused.starts_with("`dmps` was not installed: its map does not fit: "),
            "{map}: {refused}"
        );
        assert!(refused.contains(reason), "{map}: {refused}");
    }
    alice_says(&mut harness, add(Some(MAP))).await;
    let refused = alice_says(&mut harness, set_map("at 4180 STR=AB(1) HP=ZZ$")).await;
    assert!(
        refused.contains("The map was not saved: `HP=ZZ$`: the program never assigns `ZZ$`"),
        "{refused}"
    );
    assert!(
        refused.contains(&format!("keeps its map `{MAP}`")),
        "{refused}"
    );
    // An array element the listing assigns is a variable too.
    let element = alice_says(&mut harness, set_map("at 4180 STR=AB(1)")).await;
    assert!(
        element.contains("maps its characters with `at 4180 STR=AB(1)`"),
        "{element}"
    );
}

#[tokio::test]
async fn without_a_map_the_last_living_variables_are_kept() {
    let mut harness = Harness::new().await;
    alice_says(&mut harness, add(None)).await;
    // The closing CLEAR wiped everything; the character is what lived before it.
    let end = run(&mut harness, &["Dee", "Gnome", "N"]).await;
    assert!(end.contains("**Dee** is ready:"), "{end}");
    let rows = harness.storage.characters_of(ALICE, GUILD).await.unwrap();
    assert_eq!(rows.len(), 1);
    let fields: Vec<(String, String)> = serde_json::from_str(&rows[0].fields).unwrap();
    let value = |name: &str| {
        fields
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.clone())
    };
    assert_eq!(value("ST").as_deref(), Some("11"));
    assert_eq!(value("RA$").as_deref(), Some("Gnome"));
    assert_eq!(value("AB(1)").as_deref(), Some("11"));
    assert!(
        rows[0].capture.contains(r#"["PT","5"]"#),
        "{}",
        rows[0].capture
    );
    // A map set afterwards reads the kept capture.
    alice_says(&mut harness, set_map("NAME=NA$ STR=ST HP=PT")).await;
    let sheet = alice_says(&mut harness, show("Dee")).await;
    assert!(sheet.contains("```\nHP   5\nSTR  11 (0)\n```"), "{sheet}");
}

#[tokio::test]
async fn a_nameless_capture_is_character_n() {
    let mut harness = Harness::new().await;
    let listing = "10 X = 3\n20 CLEAR\n";
    alice_says(
        &mut harness,
        command(
            "chargen",
            &["program", "add"],
            &[("name", text("nameless")), ("code", text(listing))],
        ),
    )
    .await;
    for _ in 0..2 {
        harness
            .alice(command(
                "chargen",
                &["start"],
                &[("program", text("nameless"))],
            ))
            .await;
    }
    assert_eq!(
        names(&harness.storage).await,
        ["Character 1", "Character 2"]
    );
}

/// `tavern console --seed N` twice on one database: the same seed replays the game's
/// rolls, but ids do not come from them, so the second run's character is stored too.
#[tokio::test]
async fn the_same_seed_twice_on_one_database_stores_both_characters() {
    let dir = crate::support::TempDir::new("seeded");
    let storage = crate::support::sqlite_storage(&dir).await;
    for _ in 0..2 {
        let mut harness = Harness::on(storage.clone(), CoreSettings::default(), 42);
        harness.alice(command("chargen", &["start"], &[])).await;
        for answer in ["Udo", "1", "M"] {
            let sent = harness
                .alice(command("chargen", &["answer"], &[("text", text(answer))]))
                .await;
            assert!(!sent.all_text().contains("error"), "{}", sent.all_text());
        }
    }
    assert_eq!(names(&storage).await, ["Udo", "Udo 2"]);
}

/// A few lines a listing may have, for programs made up by the property test.
const LINES: [&str; 8] = [
    "N$ = \"ANN\"",
    "DIM A(3): A(1) = 7",
    "S = S + 1",
    "INPUT \"NAME\"; N$",
    "CLEAR",
    "IF S < 3 THEN 10",
    "X$ = STRING$(250, \"Z\")",
    "PRINT S",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Any map over any program (made of the lines above, in any order): checking
    /// never panics, a run with the map's capture line ends within the limits, and
    /// the mapped fields stay within the limits.
    #[test]
    fn any_map_over_any_program_is_checked_and_applied_within_the_limits(
        picks in prop::collection::vec(0..LINES.len(), 1..8),
        map in "(at [0-9]{1,2}0 )?([A-Z]{1,4}=(N\\$|X\\$|S|A\\([0-4]\\)|Q) ){0,5}",
    ) {
        use tavern::engine::Generators;
        let source: String = picks
            .iter()
            .enumerate()
            .map(|(index, pick)| format!("{} {}\n", (index + 1) * 10, LINES[*pick]))
            .collect();
        let engine = tavern::engine::basic::BasicEngine::new(basic_runner::Limits {
            max_steps_per_resume: 10_000,
            max_steps_per_session: 100_000,
            max_records: 20,
            ..basic_runner::Limits::default()
        });
        let check = engine.check(&source).expect("the lines load");
        let Ok(parsed) = record_map::parse(&map) else { return Ok(()) };
        let has_line = |line: u32| check.line_numbers.contains(&line);
        let facts = record_map::ProgramFacts {
            has_line: &has_line,
            assigned: &check.assigned_variables,
        };
        let _ = record_map::check(&parsed, &facts);
        let program = tavern::engine::ProgramText::new("any", &source);
        let mut session = engine.start(&program, 1).expect("starts");
        if let Some(line) = parsed.at {
            session.capture_at_line(line);
        }
        let mut step = session.resume(None);
        for _ in 0..10 {
            match &step {
                Ok(tavern::engine::GenStep { state: tavern::engine::GenState::NeedsInput { .. }, .. }) => {
                    step = session.resume(Some("Bo"));
                }
                _ => break,
            }
        }
        if let Ok(tavern::engine::GenStep {
            state: tavern::engine::GenState::Finished(tavern::engine::FinishedRun { variables, captures, .. }),
            ..
        }) = step
        {
            prop_assert!(captures.len() <= 20);
            for capture in captures.iter().chain([&variables]) {
                for (field, value) in record_map::apply(&parsed, capture) {
                    prop_assert!(field.chars().count() <= record_map::MAX_FIELD_LEN);
                    prop_assert!(value.chars().count() <= record_map::MAX_VALUE_LEN);
                }
            }
        }
    }

    /// Any map text over any capture: parsing never panics, and applying a parsed
    /// map never yields a field name or value past the limits.
    #[test]
    fn any_map_over_any_capture_stays_within_the_limits(
        map in "(at [0-9]{1,6} )?([A-Za-z_0-9]{0,24}=[A-Z$%!#()0-9,]{0,12} ?){0,8}",
        noise in ".{0,60}",
        capture in prop::collection::vec(("[A-Z]{1,3}[$%]?(\\([0-9]\\))?", ".{0,400}"), 0..20),
    ) {
        for text in [map.clone(), format!("{map}{noise}"), noise.clone()] {
            let Ok(parsed) = record_map::parse(&text) else { continue };
            prop_assert!(parsed.pairs.len() <= record_map::MAX_PAIRS);
            let reparsed = record_map::parse(&parsed.to_string());
            prop_assert_eq!(reparsed.as_ref(), Ok(&parsed));
            for (field, value) in record_map::apply(&parsed, &capture) {
                prop_assert!(field.chars().count() <= record_map::MAX_FIELD_LEN);
                prop_assert!(value.chars().count() <= record_map::MAX_VALUE_LEN);
            }
        }
    }
}

/// One gold: a trade changes the character's gold column; the sheet shows that one
/// value (the generator's `GOLD` field is where it started) and `@GOLD` reads it.
#[tokio::test]
async fn the_sheet_and_gold_in_rolls_read_the_one_purse() {
    let mut harness = Harness::new().await;
    let mut udo = crate::fields::character(1, ALICE, "Udo", &[("NAME", "Udo"), ("GOLD", "140")]);
    udo.gold = 140;
    harness.storage.finish_session(None, &[udo]).await.unwrap();
    // What an NPC trade does to the purse.
    sqlx::query(
        "UPDATE characters SET gold = 0, food = 2, updated_at = updated_at + 1 WHERE id = 1",
    )
    .execute(harness.storage.pool())
    .await
    .unwrap();
    let sheet = alice_says(&mut harness, show("Udo")).await;
    assert!(sheet.contains("Gold 0 · Food 2"), "{sheet}");
    assert!(!sheet.contains("140"), "{sheet}");
    alice_says(
        &mut harness,
        command("character", &["use"], &[("name", text("Udo"))]),
    )
    .await;
    let rolled = alice_says(&mut harness, roll("@GOLD + @FOOD")).await;
    assert_eq!(total_of(&rolled), Some(2), "{rolled}");
}

/// A map names variables as the listing writes them: `ST` is `ST%` under `DEFINT`,
/// `ST!` is `ST`, and case does not matter.
#[test]
fn map_variables_match_as_basic_names_them() {
    let pairs = |list: &[(&str, &str)]| -> Vec<(String, String)> {
        list.iter()
            .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
            .collect()
    };
    let map = record_map::parse("STR=st DEX=DX! HP=hp(1) NAME=N$").unwrap();
    let capture = pairs(&[("ST%", "12"), ("DX", "9"), ("HP%(1)", "4"), ("N$", "Al")]);
    assert_eq!(
        record_map::apply(&map, &capture),
        pairs(&[("STR", "12"), ("DEX", "9"), ("HP", "4"), ("NAME", "Al")])
    );
    let assigned = ["ST%".to_owned(), "HP%()".to_owned()];
    let has_line = |_| true;
    let facts = record_map::ProgramFacts {
        has_line: &has_line,
        assigned: &assigned,
    };
    let checked = record_map::check(&record_map::parse("STR=ST HP=HP(2)").unwrap(), &facts);
    assert_eq!(checked, Ok(()));
    let checked = record_map::check(&record_map::parse("STR=ST$").unwrap(), &facts)
        .map_err(|error| error.text(tavern::i18n::Lang::En));
    assert_eq!(
        checked,
        Err("`STR=ST$`: the program never assigns `ST$`".to_owned())
    );
}

/// The paste form carries the map in its second field.
#[tokio::test]
async fn the_paste_form_takes_the_map_too() {
    let mut harness = Harness::new().await;
    let form = RequestKind::Modal {
        custom_id: tavern::core::chargen::programs::paste_form_id("dmps"),
        fields: vec![
            ("source".to_owned(), LISTING.to_owned()),
            ("map".to_owned(), MAP.to_owned()),
        ],
    };
    let installed = alice_says(&mut harness, form).await;
    assert!(
        installed.contains(&format!("mapped with `{MAP}`")),
        "{installed}"
    );
    let row = harness
        .storage
        .installed_program(GUILD, "dmps")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(row.record_map, MAP);
}

/// [`LISTING`] with a line that fails (subscript out of range) for the race `BAD`.
fn crashing_listing() -> String {
    LISTING.replace("130 ST", "125 IF RA$ = \"BAD\" THEN AB(99) = 1\n130 ST")
}

/// A generator that hands each character over with `RECORD` and then asks for
/// another: the same defect, had each record waited for the end of the run.
const RECORDING: &str = r#"10 INPUT "NAME"; N$
20 RECORD "NAME", N$, "STR", 12
30 INPUT "ANOTHER (Y/N)"; A$
40 IF A$ = "Y" THEN 10
"#;

/// Every character is stored in the step that took it (the map's line reached, a
/// `RECORD` run), and shown at once: whatever ends the run afterwards (a cancel, the
/// expiry, a run-time error) keeps it, and the closing message says so; `/chargen
/// status` counts it meanwhile.
#[tokio::test]
async fn a_character_taken_is_kept_however_the_run_ends() {
    enum End {
        Cancel,
        Expiry,
        Answer(&'static str),
    }
    let cases = [
        (LISTING.to_owned(), Some(MAP), End::Cancel, "Ann"),
        (LISTING.to_owned(), Some(MAP), End::Expiry, "Ann"),
        (crashing_listing(), Some(MAP), End::Answer("BAD"), "Ann"),
        (RECORDING.to_owned(), None, End::Cancel, "Ann"),
    ];
    for (listing, map, end, kept) in cases {
        let settings = CoreSettings {
            session_expiry_ms: 60_000,
            ..crate::macros::settings()
        };
        let mut harness = Harness::with_settings(settings).await;
        let mut options = vec![("name", text("dmps")), ("code", text(&listing))];
        if let Some(map) = map {
            options.push(("map", text(map)));
        }
        let installed = alice_says(
            &mut harness,
            command("chargen", &["program", "add"], &options),
        )
        .await;
        assert!(installed.starts_with("Installed `dmps`"), "{installed}");
        // The character is taken at the second answer (the map's line, or RECORD).
        let answers: &[&str] = if map.is_some() {
            &["Ann", "Elf", "Y", "Bo"]
        } else {
            &["Ann", "Y"]
        };
        harness.clock.advance_ms(5_000);
        harness
            .alice(command("chargen", &["start"], &[("program", text("dmps"))]))
            .await;
        let mut shown = String::new();
        for answer in answers {
            harness.clock.advance_ms(5_000);
            let sent = harness
                .alice(command("chargen", &["answer"], &[("text", text(answer))]))
                .await;
            shown.push_str(&sent.all_text());
        }
        assert!(shown.contains(&format!("**{kept}** is ready")), "{shown}");
        assert_eq!(names(&harness.storage).await, [kept], "before the end");
        let status = alice_says(&mut harness, command("chargen", &["status"], &[])).await;
        assert!(status.contains("1 character is stored so far"), "{status}");

        let said = match end {
            End::Cancel => alice_says(&mut harness, command("chargen", &["cancel"], &[])).await,
            End::Expiry => {
                harness.clock.advance_ms(61_000);
                let replies = harness.core.sweep().await.unwrap();
                harness.deliver(replies).await.all_text()
            }
            End::Answer(answer) => {
                harness.clock.advance_ms(5_000);
                let sent = harness
                    .alice(command("chargen", &["answer"], &[("text", text(answer))]))
                    .await;
                sent.all_text()
            }
        };
        assert!(said.contains(&format!("**{kept}** was stored")), "{said}");
        assert!(!said.contains("Nothing was stored"), "{said}");
        assert_eq!(names(&harness.storage).await, [kept], "after the end");
    }
}

/// `kill -9` of a `tavern console` right after the first character was shown: the
/// character is in the database, as the message promised.
#[cfg(unix)]
#[test]
fn a_character_taken_survives_a_killed_process() {
    use std::io::{BufRead as _, BufReader, Write as _};
    use std::process::{Command, Stdio};

    let dir = crate::support::TempDir::new("killed-console");
    let db = dir.path("killed.db");
    let listing = dir.path("dmps.bas");
    std::fs::write(&listing, LISTING).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_tavern"))
        .args([
            "console",
            "--db",
            db.to_str().unwrap(),
            "--seed",
            "5",
            "--lang",
            "en",
        ])
        .env_remove("RUST_LOG")
        .env_remove("DISCORD_TOKEN")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run tavern console");
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    writeln!(
        input,
        "/chargen program add name:dmps file:{} map:{MAP}\n/chargen start program:dmps\nAnn\nElf",
        listing.display()
    )
    .unwrap();
    input.flush().unwrap();
    let mut transcript = String::new();
    loop {
        let mut line = String::new();
        let count = output.read_line(&mut line).unwrap();
        assert!(count > 0, "the console ended: {transcript}");
        transcript.push_str(&line);
        if line.contains("**Ann** is ready") {
            break;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let rows = tokio::runtime::Runtime::new().unwrap().block_on(async {
        let storage = crate::support::sqlite_storage_at(&db).await;
        storage.characters_of(1, 1).await.unwrap()
    });
    let names: Vec<&str> = rows.iter().map(|row| row.name.as_str()).collect();
    assert_eq!(names, ["Ann"], "{transcript}");
}
