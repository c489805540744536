//! `/effect install|list|show|remove` and how NPC scripts' `APPLY_EFFECT` is checked
//! against the server's effect file.

use tavern::core::{Permissions, Reply, RequestKind};

use crate::harness::{ALICE, BOB, GUILD, command, text};

use super::support::*;

const EFFECTS: &str = include_str!("../../../npc-core/scripts/effects.ghul");

/// A healer who casts `CurePoison` on a keyword.
const CASTER: &str = r#"
CONV c { NATIVE { HAIL r_hail CURE r_cure } }
RESP r_hail { SAY "Hurt?" }
RESP r_cure { APPLY_EFFECT CurePoison SAY "Be well." }
"#;

fn install_code(code: &str) -> RequestKind {
    command("effect", &["install"], &[("code", text(code))])
}

async fn admin(table: &mut Table, kind: RequestKind) -> String {
    let sent = table
        .member(ALICE, Permissions::MANAGE_GUILD, &[], kind)
        .await;
    sent.all_text()
}

#[tokio::test]
async fn a_file_without_effects_or_elements_lists_no_empty_code() {
    let mut table = Table::new().await;
    for (code, installed_text, header) in [
        (
            "ELEMENTS { FIRE COLD }",
            "Installed this server's effect file: no effects and 2 elements.",
            "elements `FIRE COLD`:",
        ),
        (
            "ELEMENTS { }",
            "Replaced this server's effect file: no effects and 0 elements.",
            "no elements:",
        ),
    ] {
        let installed = admin(&mut table, install_code(code)).await;
        assert_eq!(installed, installed_text);
        let listed = table
            .as_user(BOB, command("effect", &["list"], &[]))
            .await
            .all_text();
        assert!(listed.contains(header), "{listed}");
        assert!(
            listed.contains("\nThe file declares no effects.\n"),
            "{listed}"
        );
        assert!(!listed.contains("``"), "{listed}");
    }
}

#[tokio::test]
async fn an_effect_file_is_installed_listed_shown_and_removed() {
    let mut table = Table::new().await;
    let installed = admin(&mut table, install_code(EFFECTS)).await;
    assert!(
        installed.starts_with("Installed this server's effect file: "),
        "{installed}"
    );
    assert!(
        installed.contains("Fireball, Poison, CurePoison"),
        "{installed}"
    );
    let stored = table
        .storage()
        .effect_library(GUILD)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.source.trim(), EFFECTS.trim());
    assert_eq!(stored.installed_by, ALICE);

    // Anyone may read the list and a declaration.
    let listed = table
        .as_user(BOB, command("effect", &["list"], &[]))
        .await
        .all_text();
    assert!(
        listed.contains("Poison: subject HitPoints; value -2"),
        "{listed}"
    );
    assert!(
        listed.contains("`BURN POISON MAGIC EDGED_WEAPON HOLY`"),
        "{listed}"
    );
    let shown = table
        .as_user(
            BOB,
            command("effect", &["show"], &[("name", text("Poison"))]),
        )
        .await
        .all_text();
    assert!(shown.starts_with("```\nEFFECT Poison {"), "{shown}");
    let missing = table
        .as_user(BOB, command("effect", &["show"], &[("name", text("Nope"))]))
        .await
        .all_text();
    assert!(missing.starts_with("There is no effect `Nope`; the effects are Fireball"));

    // Autocomplete offers the tags.
    let RequestKind::Command(typing) = command("effect", &["show"], &[("name", text("fi"))]) else {
        panic!("a command");
    };
    let choices = table
        .as_user(
            BOB,
            RequestKind::Autocomplete {
                command: typing,
                focused: "name".to_owned(),
            },
        )
        .await;
    let Reply::Choices(choices) = &choices.replies[0] else {
        panic!("choices");
    };
    let names: Vec<&str> = choices.iter().map(|choice| choice.value.as_str()).collect();
    assert_eq!(names, ["Fireball", "FireWard"]);

    // One effect goes; the file still loads without it.
    let removed = admin(
        &mut table,
        command("effect", &["remove"], &[("name", text("Fireball"))]),
    )
    .await;
    assert_eq!(removed, "Removed the effect `Fireball`.");
    let stored = table
        .storage()
        .effect_library(GUILD)
        .await
        .unwrap()
        .unwrap();
    assert!(!stored.source.contains("EFFECT Fireball"));
    assert!(stored.source.contains("EFFECT Poison"));

    // The whole file goes.
    let gone = admin(
        &mut table,
        command(
            "effect",
            &["remove"],
            &[("everything", tavern::core::OptionValue::Boolean(true))],
        ),
    )
    .await;
    assert_eq!(gone, "Removed this server's effect file.");
    assert!(
        table
            .storage()
            .effect_library(GUILD)
            .await
            .unwrap()
            .is_none()
    );
    let listed = table
        .as_user(BOB, command("effect", &["list"], &[]))
        .await
        .all_text();
    assert!(listed.starts_with("This server has no effect file."));
}

#[tokio::test]
async fn a_file_with_errors_installs_nothing_and_names_every_line() {
    let mut table = Table::new().await;
    admin(&mut table, install_code(EFFECTS)).await;
    let broken = "ELEMENTS { FIRE }\nEFFECT Hot {\n  subject HitPoints\n  value -2\n}\n\
                  EFFECT Cold { target_type Character subject Nope value 1 }\n";
    let answer = admin(&mut table, install_code(broken)).await;
    assert!(
        answer.starts_with("`effects` was not installed: the effect file has 4 errors."),
        "{answer}"
    );
    assert!(answer.contains("line 2: "), "{answer}");
    assert!(answer.contains("line 6: "), "{answer}");
    // The earlier file stays.
    let stored = table
        .storage()
        .effect_library(GUILD)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.source.trim(), EFFECTS.trim());
}

#[tokio::test]
async fn only_admins_change_the_file_and_the_paste_form_installs() {
    let mut table = Table::new().await;
    let refused = table.as_user(BOB, install_code(EFFECTS)).await.all_text();
    assert!(
        refused.starts_with("Only members with the Manage Server permission"),
        "{refused}"
    );
    assert!(
        table
            .storage()
            .effect_library(GUILD)
            .await
            .unwrap()
            .is_none()
    );

    // Without a file or code the answer is the paste form, acknowledged at once.
    let ask = command("effect", &["install"], &[]);
    let request = table.harness.request(ALICE, Some(GUILD), ask.clone());
    assert_eq!(
        table.harness.core.ack(&request),
        tavern::core::Ack::Immediate
    );
    let sent = table
        .member(ALICE, Permissions::MANAGE_GUILD, &[], ask)
        .await;
    let Reply::Modal(form) = &sent.replies[0] else {
        panic!("a paste form: {:?}", sent.replies);
    };
    let submit = RequestKind::Modal {
        custom_id: form.custom_id.clone(),
        fields: vec![(
            form.inputs[0].custom_id.clone(),
            format!("```ghul\n{EFFECTS}```"),
        )],
    };
    let refused = table.as_user(BOB, submit.clone()).await.all_text();
    assert!(refused.starts_with("Only members with"), "{refused}");
    let installed = admin(&mut table, submit).await;
    assert!(
        installed.starts_with("Installed this server's effect file"),
        "{installed}"
    );
    let stored = table
        .storage()
        .effect_library(GUILD)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.source.trim(), EFFECTS.trim());
}

#[tokio::test]
async fn npc_scripts_may_only_apply_effects_the_file_declares() {
    let mut table = Table::new().await;
    let install_caster = command(
        "npc",
        &["install"],
        &[("name", text("cleric")), ("code", text(CASTER))],
    );
    // No effect file: CurePoison is unknown, the script is refused with its line.
    let refused = admin(&mut table, install_caster.clone()).await;
    assert!(
        refused.starts_with("`cleric` was not installed: the script has 1 error."),
        "{refused}"
    );
    assert!(
        refused.contains("line 3: unknown effect `CurePoison`"),
        "{refused}"
    );

    admin(&mut table, install_code(EFFECTS)).await;
    let installed = admin(&mut table, install_caster).await;
    assert!(installed.starts_with("Installed **Cleric**"), "{installed}");

    // Removing the effect the script applies is allowed, and says which NPC it leaves
    // without it.
    let removed = admin(
        &mut table,
        command("effect", &["remove"], &[("name", text("CurePoison"))]),
    )
    .await;
    assert_eq!(
        removed,
        "Removed the effect `CurePoison`.\nThese NPCs apply effects the file no longer \
         has, which now do nothing: `cleric`."
    );
}

/// A witch and a healer in one: `hex` poisons, `cure` cures.
const WITCH: &str = r#"
CONV c { NATIVE { HAIL r_hail HEX r_hex CURE r_cure } }
RESP r_hail { SAY "Well met." }
RESP r_hex { APPLY_EFFECT Poison SAY "Feel that?" }
RESP r_cure { APPLY_EFFECT CurePoison SAY "Better." }
"#;

#[tokio::test]
async fn apply_effect_lands_on_the_character_and_is_stored_with_the_turn() {
    let mut table = Table::new().await;
    admin(&mut table, install_code(EFFECTS)).await;
    let installed = admin(
        &mut table,
        command(
            "npc",
            &["install"],
            &[("name", text("witch")), ("code", text(WITCH))],
        ),
    )
    .await;
    assert!(installed.starts_with("Installed **Witch**"), "{installed}");
    table
        .storage()
        .finish_session(
            None,
            &[tavern::storage::NewCharacter {
                id: 41,
                owner_id: ALICE,
                guild_id: GUILD,
                name: "Udo".to_owned(),
                program: "chargen".to_owned(),
                program_hash: "x".to_owned(),
                gold: 0,
                food: 0,
                fields: r#"[["NAME","Udo"],["HP","12"]]"#.to_owned(),
                transcript: String::new(),
                now: crate::harness::START_MS,
                capture: String::new(),
                numbered: false,
            }],
        )
        .await
        .unwrap()
        .unwrap();
    let greeted = table.alice(talk("witch")).await;
    let prompt = greeted.prompt_message.expect("the prompt is tracked");
    // (turn, what the conversation says of the effect, the HP stored after it)
    let turns = [
        ("hex", "*Poison on Udo: 12 → 10 hit points*", "10"),
        ("cure", "*Poison removed from Udo.*", "10"),
    ];
    let mut prompt = prompt;
    for (line, shown, hp) in turns {
        let sent = table.alice(reply_to(prompt, line)).await;
        let said = sent.all_text();
        assert!(said.contains(shown), "{line}: {said}");
        prompt = sent.prompt_message.expect("the next prompt");
        let kept = table
            .storage()
            .character_effects(41)
            .await
            .unwrap()
            .expect("stored with the turn");
        assert!(
            kept.fields.contains(&format!(r#"["HP","{hp}"]"#)),
            "{}",
            kept.fields
        );
    }
    // Poison again, then the file loses it: the witch's hex does nothing.
    table.alice(reply_to(prompt, "hex")).await;
    let sheet = table
        .alice(command("character", &["show"], &[("name", text("Udo"))]))
        .await
        .all_text();
    assert!(sheet.contains("Poison"), "{sheet}");
    admin(
        &mut table,
        command("effect", &["remove"], &[("name", text("Poison"))]),
    )
    .await;
    let again = table.alice(talk("witch")).await;
    let prompt = again.prompt_message.expect("a prompt");
    let sent = table.alice(reply_to(prompt, "hex")).await;
    assert!(
        sent.all_text().contains("*Nothing happens.*"),
        "{}",
        sent.all_text()
    );
}
