//! Installing scripts: errors, sources, refusals, who may change NPCs.

use tavern::core::{OptionValue, Permissions, RequestKind};

use crate::harness::{ALICE, BOB, GUILD, command, text};

use super::support::*;

#[tokio::test]
async fn an_install_with_errors_answers_every_error_and_installs_nothing() {
    let mut table = Table::new().await;
    let sent = table
        .member(
            ALICE,
            Permissions::MANAGE_GUILD,
            &[],
            install("broken", "broken.ghul"),
        )
        .await;
    let answer = sent.interaction();
    assert!(answer.ephemeral);
    assert_eq!(
        answer.content,
        "`broken` was not installed: the script has 2 errors.\n```\n\
         CONV c { NATIVE { HAIL r_missing } }\n                       ^\n\
         line 1: unknown response `r_missing` in NATIVE\n\n\
         RESP r { say \"hi\" }\n         ^\n\
         line 2: expected a response statement or `}`, found `say` (words are case-sensitive: write `SAY`)\n```"
    );
    assert!(table.storage().npc_scripts(GUILD).await.unwrap().is_empty());

    // Every error of a long list is in the answer's file.
    let many: String = (0..60)
        .map(|n| format!("RESP r{n} {{ $missing{n} }}\n"))
        .collect();
    let sent = table
        .member(
            ALICE,
            Permissions::MANAGE_GUILD,
            &[],
            command(
                "npc",
                &["install"],
                &[("name", text("many")), ("code", text(&many))],
            ),
        )
        .await;
    let answer = sent.interaction();
    assert!(
        answer
            .content
            .starts_with("`many` was not installed: the script has 60 errors.")
    );
    assert!(
        answer
            .content
            .contains("every error is in the attached file")
    );
    let file = String::from_utf8(answer.attachments[0].bytes.clone()).unwrap();
    assert!(
        file.contains("line 60: unknown response `$missing59` in call"),
        "{file}"
    );
    assert!(table.storage().npc_scripts(GUILD).await.unwrap().is_empty());
}

#[tokio::test]
async fn install_sources_and_refusals() {
    struct Case {
        options: Vec<(&'static str, OptionValue)>,
        answer: &'static str,
    }
    let attachment = |file: &str| OptionValue::Attachment {
        filename: file.to_owned(),
        url: format!("https://cdn.test/{file}"),
        size: 10,
    };
    let cases = vec![
        Case {
            options: vec![
                ("name", text("hawknoz")),
                ("file", attachment("shopkeeper.ghul")),
            ],
            answer: "Installed **Hawknoz** (`hawknoz`; conversations `c_hawknoz`, `c_townsfolk`). \
                     Players talk to it with `/talk npc:hawknoz`.",
        },
        Case {
            options: vec![
                ("name", text("hawknoz")),
                ("file", attachment("shopkeeper.ghul")),
                ("display", text("Hawknoz the Smith")),
            ],
            answer: "Replaced **Hawknoz the Smith** (`hawknoz`;",
        },
        Case {
            options: vec![
                ("name", text("guard")),
                (
                    "code",
                    text("```ghul CONV c_guard { NATIVE { HAIL r } } RESP r { SAY \"Halt!\" } ```"),
                ),
            ],
            answer: "Installed **Guard** (`guard`; conversations `c_guard`).",
        },
        Case {
            options: vec![("name", text("x")), ("file", attachment("notes.txt"))],
            answer: "`notes.txt` is not a `.ghul` script.",
        },
        Case {
            options: vec![("name", text("x")), ("file", attachment("missing.ghul"))],
            answer: "I could not read the script: the file could not be read: not found.",
        },
        Case {
            options: vec![("name", text("x")), ("file", attachment("latin1.ghul"))],
            answer: "The script is not UTF-8 text.",
        },
        Case {
            options: vec![("name", text("x"))],
            answer: "Attach the script as a `.ghul` file (`file`), or paste it as `code`.",
        },
        Case {
            options: vec![
                ("name", text("x")),
                ("file", attachment("healer.ghul")),
                ("code", text("CONV c {}")),
            ],
            answer: "Give the script either as a file or as code, not both.",
        },
        Case {
            options: vec![("name", text("old maud")), ("code", text("CONV c {}"))],
            answer: "`old maud` cannot name an NPC",
        },
        Case {
            options: vec![("name", text("9lives")), ("code", text("CONV c {}"))],
            answer: "`9lives` cannot name an NPC",
        },
        Case {
            options: vec![
                ("name", text("big")),
                (
                    "file",
                    OptionValue::Attachment {
                        filename: "big.ghul".to_owned(),
                        url: "https://cdn.test/big.ghul".to_owned(),
                        size: 10_000_000,
                    },
                ),
            ],
            answer: "The script is larger than 262144 bytes.",
        },
    ];
    let mut table = Table::new().await;
    for case in cases {
        let sent = table
            .member(
                ALICE,
                Permissions::MANAGE_GUILD,
                &[],
                command("npc", &["install"], &case.options),
            )
            .await;
        let answer = sent.interaction();
        assert!(answer.ephemeral);
        assert!(
            answer.content.starts_with(case.answer),
            "{:?}: {}",
            case.options,
            answer.content
        );
    }
    let names: Vec<String> = table
        .storage()
        .npc_scripts(GUILD)
        .await
        .unwrap()
        .into_iter()
        .map(|row| row.name)
        .collect();
    assert_eq!(names, ["guard", "hawknoz"]);
    let listed = table.alice(command("npc", &["list"], &[])).await;
    assert_eq!(
        listed.interaction().content,
        "NPCs here (2):\n- **Guard** (`guard`)\n- **Hawknoz the Smith** (`hawknoz`)\n\
         Talk to one with `/talk npc:NAME`."
    );
}

#[tokio::test]
async fn only_managers_and_the_tavern_role_change_npcs() {
    let mut table = Table::new().await;
    sqlx::query(
        "INSERT INTO guild_settings (guild_id, macro_role_id, updated_by, updated_at) \
         VALUES ($1, 77, 1, 1)",
    )
    .bind(GUILD)
    .execute(table.storage().pool())
    .await
    .unwrap();
    let refused = "Only members with the Manage Server permission";
    let cases: Vec<(u64, Vec<i64>, RequestKind, &str)> = vec![
        (0, vec![], install("hawknoz", "shopkeeper.ghul"), refused),
        (0, vec![5], install("hawknoz", "shopkeeper.ghul"), refused),
        (
            Permissions::MANAGE_GUILD,
            vec![],
            install("hawknoz", "shopkeeper.ghul"),
            "Installed",
        ),
        (
            Permissions::ADMINISTRATOR,
            vec![],
            install("avra", "healer.ghul"),
            "Installed",
        ),
        (
            0,
            vec![5, 77],
            install("maud", "quest_giver.ghul"),
            "Installed",
        ),
        (
            0,
            vec![],
            command(
                "npc",
                &["activity"],
                &[("name", text("hawknoz")), ("code", OptionValue::Integer(1))],
            ),
            refused,
        ),
        (
            0,
            vec![],
            command("npc", &["remove"], &[("name", text("maud"))]),
            refused,
        ),
        (
            0,
            vec![77],
            command(
                "npc",
                &["activity"],
                &[("name", text("Hawknoz")), ("code", OptionValue::Integer(1))],
            ),
            "`Hawknoz` now has activity code 1",
        ),
        (
            Permissions::MANAGE_GUILD,
            vec![],
            command(
                "npc",
                &["activity"],
                &[("name", text("nobody")), ("code", OptionValue::Integer(1))],
            ),
            "There is no NPC called `nobody` here.",
        ),
        (
            Permissions::MANAGE_GUILD,
            vec![],
            command("npc", &["remove"], &[("name", text("maud"))]),
            "Removed `maud`.",
        ),
        // Anyone may list.
        (0, vec![], command("npc", &["list"], &[]), "NPCs here (2):"),
    ];
    for (permissions, roles, kind, expected) in cases {
        let sent = table.member(BOB, permissions, &roles, kind.clone()).await;
        let answer = &sent.interaction().content;
        assert!(answer.starts_with(expected), "{kind:?}: {answer}");
    }
    let hawknoz = table
        .storage()
        .npc_script(GUILD, "hawknoz")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(hawknoz.activity, 1);
    assert!(
        table
            .storage()
            .npc_script(GUILD, "maud")
            .await
            .unwrap()
            .is_none()
    );
    // In direct messages there are no NPCs.
    let dm = table.harness.request(ALICE, None, talk("hawknoz"));
    let sent = table.harness.send(&dm).await;
    assert!(
        sent.interaction()
            .content
            .starts_with("NPCs live on servers")
    );
}
