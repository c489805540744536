//! The command core, driven as a transport would drive it.

use tavern::core::chargen::ChargenId;
use tavern::core::roll::{RollAgain, RollId};
use tavern::core::{Ack, CoreSettings, OptionValue, Reply, RequestKind};

use crate::harness::{ALICE, BOB, GUILD, Harness, command, text};

fn roll(options: &[(&str, OptionValue)]) -> RequestKind {
    command("roll", &[], options)
}

#[tokio::test]
async fn roll_answers_table() {
    struct Case {
        options: Vec<(&'static str, OptionValue)>,
        ephemeral: bool,
        contains: &'static [&'static str],
        has_button: bool,
    }
    let cases = vec![
        Case {
            options: vec![("expr", text("2d6"))],
            ephemeral: false,
            contains: &["2d6 (", ") = **"],
            has_button: true,
        },
        Case {
            options: vec![("expr", text("1d20+5")), ("label", text("to hit"))],
            ephemeral: false,
            contains: &["**to hit**: 1d20 (", ") + 5 = **"],
            has_button: true,
        },
        Case {
            options: vec![
                ("expr", text("1d6")),
                ("private", OptionValue::Boolean(true)),
            ],
            ephemeral: true,
            contains: &["1d6 ("],
            has_button: true,
        },
        Case {
            options: vec![("expr", text("3d6")), ("repeat", OptionValue::Integer(3))],
            ephemeral: false,
            contains: &["×3\n1. 3d6 (", "\n2. 3d6 (", "\n3. 3d6 ("],
            has_button: true,
        },
        Case {
            options: vec![("expr", text("2d6+"))],
            ephemeral: true,
            contains: &["I can't roll that:\n```\n2d6+\n    ^ expected a value"],
            has_button: false,
        },
        Case {
            options: vec![("expr", text("1d6")), ("repeat", OptionValue::Integer(21))],
            ephemeral: true,
            contains: &["`repeat` must be between 1 and 20."],
            has_button: false,
        },
        Case {
            options: vec![("expr", text("1d6")), ("repeat", OptionValue::Integer(0))],
            ephemeral: true,
            contains: &["between 1 and 20"],
            has_button: false,
        },
        Case {
            options: vec![("expr", text("   "))],
            ephemeral: true,
            contains: &["Tell me what to roll"],
            has_button: false,
        },
        Case {
            // Text that would ping is shown, and the message allows no mentions.
            options: vec![
                ("expr", text("1d4")),
                ("label", text("@everyone <@&1>\nnext")),
            ],
            ephemeral: false,
            contains: &["@everyone <@&1> next"],
            has_button: true,
        },
    ];
    let mut harness = Harness::new().await;
    for case in cases {
        let sent = harness.alice(roll(&case.options)).await;
        assert_eq!(sent.replies.len(), 1, "{:?}", case.options);
        let message = sent.interaction();
        assert_eq!(message.ephemeral, case.ephemeral, "{:?}", case.options);
        for expected in case.contains {
            assert!(
                message.content.contains(expected),
                "{:?}: {:?} lacks {expected:?}",
                case.options,
                message.content
            );
        }
        assert_eq!(sent.button("Roll again").is_some(), case.has_button);
    }
}

#[tokio::test]
async fn rolls_are_reproducible_from_the_seed() {
    let mut first = Harness::new().await;
    let mut second = Harness::new().await;
    let options = [("expr", text("10d20")), ("repeat", OptionValue::Integer(5))];
    let a = first
        .alice(roll(&options))
        .await
        .interaction()
        .content
        .clone();
    let b = second
        .alice(roll(&options))
        .await
        .interaction()
        .content
        .clone();
    assert_eq!(a, b);
}

#[tokio::test]
async fn roll_again_repeats_the_roll_for_whoever_presses() {
    let mut harness = Harness::new().await;
    let sent = harness
        .alice(roll(&[
            ("expr", text("2d6+1")),
            ("label", text("damage")),
            ("private", OptionValue::Boolean(true)),
        ]))
        .await;
    let custom_id = sent.button("Roll again").unwrap();
    assert_eq!(
        RollId::decode(&custom_id),
        Some(RollId::Inline(RollAgain {
            expr: "2d6+1".to_owned(),
            label: Some("damage".to_owned()),
            private: true,
            repeat: 1,
            to_gm: false,
        }))
    );
    let press = harness.request(
        BOB,
        Some(GUILD),
        RequestKind::Button {
            custom_id,
            message_id: 1,
        },
    );
    let again = harness.send(&press).await;
    let message = again.interaction();
    assert!(message.ephemeral);
    assert!(
        message
            .content
            .starts_with("Bob rolls again, **damage**: 2d6 ("),
        "{}",
        message.content
    );
    assert!(again.button("Roll again").is_some());
}

#[tokio::test]
async fn roll_again_of_a_long_expression_keeps_its_state_in_the_database() {
    let mut harness = Harness::new().await;
    let label = "a label long enough to push the custom id past its limit ".repeat(2);
    let sent = harness
        .alice(roll(&[("expr", text("1d6+1")), ("label", text(&label))]))
        .await;
    let custom_id = sent.button("Roll again").unwrap();
    assert!(custom_id.starts_with("tv1:rs:"), "{custom_id}");
    let press = RequestKind::Button {
        custom_id,
        message_id: 1,
    };
    let again = harness.alice(press).await;
    assert!(again.interaction().content.contains(": 1d6 ("));
}

#[tokio::test]
async fn unknown_and_forged_buttons_are_refused_kindly() {
    let mut harness = Harness::new().await;
    for custom_id in ["tv0:r:-:1:0:1d6", "tv1:ca:zz", "nonsense", "tv1:rs:3"] {
        let sent = harness
            .alice(RequestKind::Button {
                custom_id: custom_id.to_owned(),
                message_id: 1,
            })
            .await;
        let message = sent.interaction();
        assert!(message.ephemeral, "{custom_id}");
        assert!(
            message.content.contains("has ended"),
            "{custom_id}: {}",
            message.content
        );
    }
}

#[tokio::test]
async fn custom_ids_round_trip() {
    let chargen = [
        ChargenId::Answer {
            session_id: i64::MAX,
            step: 0,
        },
        ChargenId::Modal {
            session_id: 12345,
            step: 99,
        },
    ];
    for id in chargen {
        let encoded = id.encode();
        assert!(encoded.starts_with("tv1:"));
        assert_eq!(ChargenId::decode(&encoded), Some(id));
    }
    let rolls = [
        RollId::Inline(RollAgain {
            expr: "1d20:+5".to_owned(),
            label: Some("a:b".to_owned()),
            private: false,
            repeat: 20,
            to_gm: false,
        }),
        RollId::Stored { state_id: 1 },
    ];
    for id in rolls {
        let encoded = id.encode();
        assert!(encoded.starts_with("tv1:"));
        assert_eq!(RollId::decode(&encoded), Some(id));
    }
}

#[tokio::test]
async fn every_request_kind_has_an_acknowledgement() {
    let harness = Harness::new().await;
    let cases = [
        (roll(&[("expr", text("1d6"))]), Ack::Immediate),
        (
            command("chargen", &["start"], &[]),
            Ack::Defer { ephemeral: true },
        ),
        (
            command("character", &["show"], &[("name", text("x"))]),
            Ack::Defer { ephemeral: false },
        ),
        (
            RequestKind::Button {
                custom_id: ChargenId::Answer {
                    session_id: 1,
                    step: 0,
                }
                .encode(),
                message_id: 1,
            },
            Ack::Immediate,
        ),
        (
            RequestKind::Modal {
                custom_id: "tv1:cm:1:0".to_owned(),
                fields: vec![],
            },
            Ack::DeferUpdate,
        ),
        (
            RequestKind::MessageReply {
                message_id: 1,
                to_message: 2,
                text: "x".to_owned(),
            },
            Ack::None,
        ),
    ];
    for (kind, expected) in cases {
        let request = harness.request(ALICE, Some(GUILD), kind.clone());
        assert_eq!(harness.core.ack(&request), expected, "{kind:?}");
    }
}

#[tokio::test]
async fn the_rate_limit_answers_kindly_and_recovers() {
    let settings = CoreSettings {
        rate_burst: 3,
        rate_per_minute: 6,
        ..CoreSettings::default()
    };
    let mut harness = Harness::with_settings(settings).await;
    for _ in 0..3 {
        let sent = harness.alice(roll(&[("expr", text("1d6"))])).await;
        assert!(!sent.interaction().ephemeral);
    }
    let limited = harness.alice(roll(&[("expr", text("1d6"))])).await;
    let message = limited.interaction();
    assert!(message.ephemeral);
    assert!(
        message.content.contains("Try again in 10 s"),
        "{}",
        message.content
    );
    // Another user is not affected.
    let bob = harness.request(BOB, Some(GUILD), roll(&[("expr", text("1d6"))]));
    assert!(!harness.send(&bob).await.interaction().ephemeral);
    harness.clock.advance_ms(10_000);
    let sent = harness.alice(roll(&[("expr", text("1d6"))])).await;
    assert!(!sent.interaction().ephemeral);
}

#[tokio::test]
async fn a_rate_limited_modal_hands_back_what_was_typed() {
    let settings = CoreSettings {
        rate_burst: 1,
        rate_per_minute: 1,
        ..CoreSettings::default()
    };
    let mut harness = Harness::with_settings(settings).await;
    harness.alice(roll(&[("expr", text("1d6"))])).await;
    let submit = |typed: &str| RequestKind::Modal {
        custom_id: "tv1:whatever".to_owned(),
        fields: vec![("answer".to_owned(), typed.to_owned())],
    };
    let short = harness.alice(submit("Udo the ```bold```")).await;
    let message = short.interaction();
    assert!(message.ephemeral);
    assert!(message.content.starts_with("Easy there, adventurer!"));
    assert!(
        message
            .content
            .ends_with("What you typed:\n```\nUdo the `\u{200b}``bold`\u{200b}``\n```"),
        "{}",
        message.content
    );
    // Too long for the message (a pasted program): a file.
    let pasted = "10 PRINT \"HELLO\"\n".repeat(200);
    let long = harness.alice(submit(&pasted)).await;
    let message = long.interaction();
    assert!(
        message
            .content
            .ends_with("What you typed is in the attached file.")
    );
    assert_eq!(message.attachments.len(), 1);
    assert_eq!(message.attachments[0].bytes, pasted.as_bytes());
}

#[tokio::test]
async fn internal_errors_show_an_id_and_nothing_internal() {
    let mut harness = Harness::new().await;
    harness.storage.close().await;
    let sent = harness.alice(command("chargen", &["status"], &[])).await;
    let message = sent.interaction();
    assert!(message.ephemeral);
    assert!(
        message
            .content
            .starts_with("Something went wrong on our side.")
    );
    let id = message
        .content
        .split('`')
        .nth(1)
        .expect("an error id in backticks");
    assert_eq!(id.len(), 8);
    assert!(id.chars().all(|ch| ch.is_ascii_hexdigit()));
    assert!(!message.content.to_lowercase().contains("pool"));
}

#[tokio::test]
async fn unknown_commands_are_answered() {
    let mut harness = Harness::new().await;
    let sent = harness.alice(command("dance", &[], &[])).await;
    assert_eq!(
        sent.interaction().content,
        "I don't know the command `/dance`."
    );
    let sent = harness.alice(command("chargen", &["fly"], &[])).await;
    assert!(sent.interaction().content.contains("not a command"));
}

#[tokio::test]
async fn replies_of_every_kind_carry_no_mentions() {
    let mut harness = Harness::new().await;
    let sent = harness.alice(command("chargen", &["start"], &[])).await;
    assert!(sent.all_text().contains("@everyone <@123> cannot ping"));
    for reply in &sent.replies {
        if let Reply::Channel { message, .. } | Reply::Interaction(message) = reply {
            assert_eq!(
                message.allowed_mentions,
                tavern::core::AllowedMentions::None
            );
        }
    }
}

/// Every part of a `/roll` line is rolled or refused: a label never silently holds
/// dice, `adv` or `dis`; other bots' habits (Avrae, Dice Maiden, German tables) roll
/// what their users mean.
#[tokio::test]
async fn every_part_of_a_roll_line_is_rolled_or_refused() {
    struct Case {
        line: &'static str,
        repeat: Option<i64>,
        /// Refused (privately, without a button) rather than rolled.
        refused: bool,
        contains: &'static [&'static str],
        lacks: &'static [&'static str],
    }
    let rolled = |line, contains, lacks| Case {
        line,
        repeat: None,
        refused: false,
        contains,
        lacks,
    };
    let refused = |line, contains| Case {
        line,
        repeat: None,
        refused: true,
        contains,
        lacks: &[],
    };
    let cases = vec![
        // A comma before dice starts a second roll.
        rolled(
            "1d20+5 to hit, 2d6 dmg",
            &["*to hit*: 1d20 (", "\n*dmg*: 2d6 ("],
            &["2d6 dmg*"],
        ),
        rolled("1d20, 1d20", &["**\n1d20 ("], &[]),
        rolled("{1d20, 1d20}kh1", &["= **"], &["\n"]),
        // Dice in a label without a comma: refused with the fix.
        refused(
            "1d20+5 to hit 2d6 dmg",
            &[
                "`2d6` reads as dice",
                "1d20+5 to hit 2d6 dmg\n              ^^^",
                "`1d20+5 to hit; 2d6 dmg`",
                "`1d20+5 # to hit 2d6 dmg`",
            ],
        ),
        refused("1d20+5 to hit, then 2d6", &["`2d6` reads as dice"]),
        refused("1d20 attack (1d8)", &["`(1d8)` reads as dice"]),
        // After `#` the label is the user's text.
        rolled(
            "1d20+5 # to hit 2d6 dmg",
            &["*to hit 2d6 dmg*: 1d20 ("],
            &[],
        ),
        // `adv` / `dis` anywhere in the label, alone or with `with` / `mit`.
        rolled("1d20+5 to hit adv", &["*to hit*: 2d20kh1 ("], &["adv"]),
        rolled("1d20+5 adv to hit", &["*to hit*: 2d20kh1 ("], &["adv"]),
        rolled("1d20+5 mit Vorteil", &["2d20kh1 ("], &["mit", "Vorteil"]),
        rolled(
            "1d20+5 Stealth with disadvantage",
            &["*Stealth*: 2d20kl1 ("],
            &["with"],
        ),
        rolled("1d20+5 Vorteile", &["*Vorteile*: 1d20 ("], &["kh1"]),
        refused("1d20+5 adv dis", &["both advantage and disadvantage"]),
        refused("2d6 fire adv", &["has none"]),
        // Dice Maiden: `6 4d6` rolls six times; ` ! ` starts a comment.
        rolled("6 4d6", &["×6\n1. 4d6 (", "\n6. 4d6 ("], &["7. "]),
        rolled("2 1d20+5 adv", &["×2\n1. 2d20kh1 (", "\n2. 2d20kh1 ("], &[]),
        rolled("6 to hit", &["*to hit*: 6"], &["×"]),
        // Other bots' `6#4d6` is the same repeat; `#` before a label stays a label.
        rolled("3#1d20+4", &["×3\n1. 1d20 (", "\n3. 1d20 ("], &["4. "]),
        rolled("6 # to hit", &["*to hit*: 6"], &["×"]),
        Case {
            line: "6 4d6",
            repeat: Some(2),
            refused: true,
            contains: &["already rolls 6 times"],
            lacks: &[],
        },
        // A count past the limit is named as typed, not as a `repeat` never given.
        refused("30 4d6", &["`30 …` asks for 30 rolls"]),
        rolled("1d20 ! sneak", &["*sneak*: 1d20 ("], &["!"]),
        rolled("1d20+5 ! to hit 2d6", &["*to hit 2d6*: 1d20 ("], &[]),
        // German `W` for Würfel.
        rolled("3W6", &["3W6 (", ") = **"], &[]),
        rolled("1W20+2 Vorteil", &["2d20kh1 ("], &["Vorteil"]),
        rolled(
            "1w20+2 Angriff, 2W6+1 Schaden",
            &["*Angriff*: 1w20 (", "*Schaden*: 2W6 ("],
            &[],
        ),
    ];
    let mut harness = Harness::new().await;
    for case in cases {
        let mut options = vec![("expr", text(case.line))];
        if let Some(repeat) = case.repeat {
            options.push(("repeat", OptionValue::Integer(repeat)));
        }
        // Past the rate limit: each line is a user's first roll in a while.
        harness.clock.advance_ms(10_000);
        let sent = harness.alice(roll(&options)).await;
        let message = sent.interaction();
        let content = &message.content;
        assert_eq!(message.ephemeral, case.refused, "{}: {content}", case.line);
        assert_eq!(
            sent.button("Roll again").is_some(),
            !case.refused,
            "{}: {content}",
            case.line
        );
        for needle in case.contains {
            assert!(content.contains(needle), "{}: {content}", case.line);
        }
        for needle in case.lacks {
            assert!(!content.contains(needle), "{}: {content}", case.line);
        }
    }
    // The longest label shows a window around the dice, not all of itself thrice.
    let long = format!("1d20 {}2d6", "word ".repeat(195));
    harness.clock.advance_ms(10_000);
    let sent = harness.alice(roll(&[("expr", text(&long))])).await;
    let content = &sent.interaction().content;
    assert!(
        content.contains("word 2d6\n") && content.contains(" ^^^\n") && content.len() < 1000,
        "{content}"
    );
}
