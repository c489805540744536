//! Characters in rolls: `/character use`, `@FIELD` and the derived ability
//! modifiers, the sheet of `/character show`.

use tavern::core::fields::{ability_modifier, field_key, numeric_value, roll_fields};
use tavern::storage::{NewCharacter, Storage};

use crate::harness::{ALICE, BOB, GUILD, START_MS, command, text};
use crate::macros::{as_user, harness_on, roll, set, total_of};
use crate::on_both_backends;

#[test]
fn the_modifier_table_is_the_bx_one() {
    // score → modifier, for every score a program might record.
    let table = [
        (-5, -3),
        (0, -3),
        (3, -3),
        (4, -2),
        (5, -2),
        (6, -1),
        (8, -1),
        (9, 0),
        (12, 0),
        (13, 1),
        (15, 1),
        (16, 2),
        (17, 2),
        (18, 3),
        (25, 3),
    ];
    for (score, modifier) in table {
        assert_eq!(ability_modifier(score), modifier, "score {score}");
    }
}

#[test]
fn field_names_and_values() {
    let keys = [
        ("STR", Some("STR")),
        ("str", Some("STR")),
        ("N$", Some("N")),
        ("HIT POINTS", Some("HIT_POINTS")),
        ("A(1)", Some("A_1")),
        ("2ND", Some("_2ND")),
        ("$$", None),
        ("", None),
    ];
    for (name, key) in keys {
        assert_eq!(field_key(name).as_deref(), key, "{name:?}");
    }
    let values = [
        ("17", Some(17)),
        (" -1 ", Some(-1)),
        ("+3", Some(3)),
        ("120 GP", Some(120)),
        ("3 4", None),
        ("3.5", None),
        ("FIGHTER", None),
        ("", None),
        ("99999999999999999999", None),
    ];
    for (value, number) in values {
        assert_eq!(numeric_value(value), number, "{value:?}");
    }
}

#[test]
fn roll_fields_derive_the_modifiers() {
    let fields: Vec<(String, String)> = [
        ("NAME", "Udo"),
        ("CLASS", "FIGHTER"),
        ("STR", "17"),
        ("INTELLIGENCE", "5"),
        ("DEX", "9"),
        ("CHA_MOD", "+1"),
        ("CHA", "3"),
        ("HP", "8"),
        ("GOLD", "120 GP"),
    ]
    .iter()
    .map(|(key, value)| ((*key).to_owned(), (*value).to_owned()))
    .collect();
    let numbers = roll_fields(&fields);
    let listed: Vec<String> = numbers
        .iter()
        .map(|(key, value)| format!("{key}={value}"))
        .collect();
    assert_eq!(
        listed,
        [
            // A modifier the program recorded wins over the derived one.
            "CHA=3",
            "CHA_MOD=1",
            "DEX=9",
            "DEX_MOD=0",
            "GOLD=120",
            "HP=8",
            "INT=5",
            "INTELLIGENCE=5",
            "INT_MOD=-2",
            "STR=17",
            "STR_MOD=2",
        ]
    );
}

pub fn character(id: i64, owner: i64, name: &str, fields: &[(&str, &str)]) -> NewCharacter {
    let fields: Vec<(&str, &str)> = fields.to_vec();
    NewCharacter {
        id,
        owner_id: owner,
        guild_id: GUILD,
        name: name.to_owned(),
        program: "chargen".to_owned(),
        program_hash: "h".to_owned(),
        fields: serde_json::to_string(&fields).unwrap(),
        transcript: "…".to_owned(),
        gold: 0,
        food: 0,
        now: START_MS,
        capture: String::new(),
        numbered: false,
    }
}

const UDO: &[(&str, &str)] = &[
    ("NAME", "Udo"),
    ("CLASS", "FIGHTER"),
    ("STR", "17"),
    ("INT", "8"),
    ("WIS", "10"),
    ("DEX", "13"),
    ("CON", "4"),
    ("CHA", "18"),
    ("HP", "6"),
];

on_both_backends!(fields_of_the_active_character_in_rolls);
async fn fields_of_the_active_character_in_rolls(storage: Storage) {
    let mut harness = harness_on(storage);
    harness
        .storage
        .finish_session(
            None,
            &[
                character(1, BOB, "Udo", UDO),
                character(2, BOB, "Tess", &[("NAME", "Tess"), ("STR", "6")]),
                character(3, ALICE, "Alba", &[("NAME", "Alba"), ("STR", "3")]),
            ],
        )
        .await
        .unwrap();
    // None chosen: the newest (Tess) plays, and the answer says so.
    let got = as_user(&mut harness, BOB, roll("1d1 + @STR_MOD")).await;
    assert!(got.starts_with("`1d1 + @STR_MOD` as **Tess**: "), "{got}");
    assert_eq!(total_of(&got), Some(0), "{got}");
    let used = as_user(
        &mut harness,
        BOB,
        command("character", &["use"], &[("name", text("udo"))]),
    )
    .await;
    assert!(used.starts_with("You play **Udo** here now. Its fields work in any roll, e.g. `/roll 1d20 + @STR_MOD`: `@CHA`, `@CHA_MOD`, `@CON`"), "{used}");
    let nobody = as_user(
        &mut harness,
        BOB,
        command("character", &["use"], &[("name", text("Alba"))]),
    )
    .await;
    assert!(
        nobody.starts_with("You have no character called `Alba` here."),
        "{nobody}"
    );
    as_user(
        &mut harness,
        BOB,
        set("attack", "1d1 + @STR_MOD to hit", None),
    )
    .await;
    // (who, expression, total)
    let cases: Vec<(i64, &str, i64)> = vec![
        (BOB, "1d1 + @STR_MOD", 3),
        (BOB, "@STR", 17),
        (
            BOB,
            "@str_mod + @int_mod + @wis_mod + @dex_mod + @con_mod + @cha_mod",
            // +2 -1 0 +1 -2 +3
            3,
        ),
        (BOB, "@HP * 2", 12),
        (BOB, "attack", 3),
        (BOB, "$attack + @CON_MOD", 1),
    ];
    for (user, expr, expected) in cases {
        let got = as_user(&mut harness, user, roll(expr)).await;
        assert_eq!(total_of(&got), Some(expected), "{expr}: {got}");
    }
    let got = as_user(&mut harness, BOB, roll("1d20 + @STR")).await;
    assert!(got.starts_with("`1d20 + @STR` as **Udo**: 1d20 ("), "{got}");
    let unknown = as_user(&mut harness, BOB, roll("1d20 + @LUCK")).await;
    assert!(
        unknown.contains(
            "       ^^^^^ unknown field @LUCK; there are: @CHA, @CHA_MOD, @CON, @CON_MOD, @DEX, \
             @DEX_MOD, @FOOD, @GOLD, @HP, @INT, @INT_MOD, @STR, @STR_MOD, @WIS, @WIS_MOD"
        ),
        "{unknown}"
    );
    // Switching characters switches the fields; deleting the active one leaves the
    // newest of the others.
    as_user(
        &mut harness,
        BOB,
        command("character", &["use"], &[("name", text("Tess"))]),
    )
    .await;
    let got = as_user(&mut harness, BOB, roll("@STR_MOD")).await;
    assert_eq!(total_of(&got), Some(-1), "{got}");
    // Alice's own character is hers; Bob's choice does not touch her.
    as_user(
        &mut harness,
        ALICE,
        command("character", &["use"], &[("name", text("Alba"))]),
    )
    .await;
    let got = as_user(&mut harness, ALICE, roll("@STR_MOD")).await;
    assert_eq!(total_of(&got), Some(-3), "{got}");
    let deleted = crate::characters::delete(&mut harness, BOB, "Tess").await;
    assert_eq!(deleted, "Deleted **Tess**.");
    let got = as_user(&mut harness, BOB, roll("@STR_MOD")).await;
    assert!(got.starts_with("`@STR_MOD` as **Udo**: "), "{got}");
    assert_eq!(total_of(&got), Some(2), "{got}");
}

on_both_backends!(the_sheet_shows_modifiers_and_roll_fields);
async fn the_sheet_shows_modifiers_and_roll_fields(storage: Storage) {
    let mut harness = harness_on(storage);
    harness
        .storage
        .finish_session(None, &[character(1, BOB, "Udo", UDO)])
        .await
        .unwrap();
    as_user(
        &mut harness,
        BOB,
        command("character", &["use"], &[("name", text("Udo"))]),
    )
    .await;
    let sheet = as_user(
        &mut harness,
        BOB,
        command("character", &["show"], &[("name", text("Udo"))]),
    )
    .await;
    assert_eq!(
        sheet,
        "**Udo**, made with `chargen` on 2026-01-01 (you play this character here)\n```\n\
         CLASS  FIGHTER\n\
         HP     6\n\
         STR    17 (+2)\n\
         INT    8 (-1)\n\
         WIS    10 (0)\n\
         DEX    13 (+1)\n\
         CON    4 (-2)\n\
         CHA    18 (+3)\n```\n\
         Gold 0 · Food 0\nInventory: none\nParty: none\n\
         In rolls: `@CHA`, `@CHA_MOD`, `@CON`, `@CON_MOD`, `@DEX`, `@DEX_MOD`, `@FOOD`, `@GOLD`, \
         `@HP`, `@INT`, `@INT_MOD`, `@STR`, `@STR_MOD`, `@WIS`, `@WIS_MOD`"
    );
    let _ = GUILD;
}
