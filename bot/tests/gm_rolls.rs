//! Rolls for the GM (issue 26): `/config gm-channel` and `gm-role`, `/roll … to:gm`
//! (the channel sees who rolls what, the GM channel the result), the **Reveal**
//! button (GMs only, once), the private fallback without a GM channel, and the console
//! showing both sides. The suites run on SQLite and, when configured, PostgreSQL.

use tavern::core::{ButtonStyle, Component, Message, OptionValue, Permissions, Reply, Request};
use tavern::storage::Storage;

use crate::harness::{ALICE, BOB, CHANNEL, GUILD, Harness, command, text};
use crate::macros::{CAROL, ROLE, harness_on, member_request, settings};
use crate::on_both_backends;

const GM_CHANNEL: i64 = 777;
/// A command's options, as the tables give them.
type Options<'a> = &'a [(&'a str, OptionValue)];
const GM_ROLE: i64 = 5151;
/// A member with the GM role only.
const DANA: i64 = 14;

/// Alice has Manage Server, Bob nothing, Carol the macro role, Dana the GM role.
fn as_member(user: i64, kind: tavern::core::RequestKind) -> Request {
    let (permissions, roles): (u64, &[i64]) = match user {
        ALICE => (Permissions::MANAGE_GUILD, &[]),
        CAROL => (0, &[ROLE]),
        DANA => (0, &[GM_ROLE]),
        _ => (0, &[]),
    };
    let mut request = member_request(user, permissions, roles, kind);
    if user == DANA {
        request.user.name = "Dana".to_owned();
    }
    request
}

fn roll(expr: &str, extra: &[(&str, OptionValue)]) -> tavern::core::RequestKind {
    let mut options = vec![("expr", text(expr))];
    options.extend(extra.iter().cloned());
    command("roll", &[], &options)
}

fn press(custom_id: &str) -> tavern::core::RequestKind {
    tavern::core::RequestKind::Button {
        custom_id: custom_id.to_owned(),
        message_id: 9_999,
    }
}

/// The messages of an answer: where each went (`None`: the interaction), whether
/// private, and its text.
fn messages(replies: &[Reply]) -> Vec<(Option<i64>, bool, String)> {
    replies
        .iter()
        .filter_map(|reply| match reply {
            Reply::Interaction(message) => Some((None, message.ephemeral, message.content.clone())),
            Reply::Channel {
                channel_id,
                message,
            } => Some((
                Some(*channel_id),
                message.ephemeral,
                message.content.clone(),
            )),
            Reply::Update(message) => Some((Some(-1), false, message.content.clone())),
            _ => None,
        })
        .collect()
}

fn reveal_button(message: &Message) -> Option<String> {
    message
        .components
        .iter()
        .flat_map(|row| row.0.iter())
        .find_map(|component| match component {
            Component::Button(button) if button.label == "Reveal" => {
                assert_eq!(button.style, ButtonStyle::Primary);
                Some(button.custom_id.clone())
            }
            _ => None,
        })
}

/// The GM channel's message of an answer, and its Reveal button.
fn gm_message(replies: &[Reply]) -> (String, String) {
    replies
        .iter()
        .find_map(|reply| match reply {
            Reply::Channel {
                channel_id: GM_CHANNEL,
                message,
            } => Some((
                message.content.clone(),
                reveal_button(message).expect("a Reveal button"),
            )),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no GM channel message in {replies:#?}"))
}

/// Everything after the GM message's first line: the roll as the channel would have
/// seen it.
fn breakdown(gm_text: &str) -> &str {
    gm_text.split_once('\n').map_or("", |(_, rest)| rest)
}

async fn gm_settings_and_reveal(storage: Storage) {
    let mut harness = harness_on(storage);
    let stealth = || roll("1d20+5", &[("label", text("Stealth")), ("to", text("gm"))]);

    // Without a GM channel the roll stays the roller's, with how to set one.
    let sent = harness.send(&as_member(BOB, stealth())).await;
    let shown = messages(&sent.replies);
    let [(None, true, fallback)] = shown.as_slice() else {
        panic!("{shown:#?}");
    };
    assert!(fallback.starts_with("No GM channel is set"), "{fallback}");
    assert!(fallback.contains("/config gm-channel"), "{fallback}");
    assert!(fallback.contains("**Stealth**"), "{fallback}");

    // Who may set what: the channel is for admins (the macro role too), the role for
    // Manage Server only.
    let set_channel = || {
        command(
            "config",
            &["gm-channel"],
            &[("channel", OptionValue::Channel(GM_CHANNEL))],
        )
    };
    let set_role = || {
        command(
            "config",
            &["gm-role"],
            &[("role", OptionValue::Role(GM_ROLE))],
        )
    };
    let macro_role = command(
        "config",
        &["macro-role"],
        &[("role", OptionValue::Role(ROLE))],
    );
    let cases: Vec<(i64, tavern::core::RequestKind, &str)> = vec![
        (ALICE, macro_role, "<@&4242> can now manage"),
        (BOB, set_channel(), "Only members with the Manage Server"),
        (CAROL, set_role(), "Only members with the Manage Server"),
        (DANA, set_channel(), "Only members with the Manage Server"),
        (CAROL, set_channel(), "now go to <#777>"),
        (ALICE, set_role(), "<@&5151> are GMs"),
    ];
    for (user, kind, expected) in cases {
        let sent = harness.send(&as_member(user, kind)).await;
        let answer = &sent.interaction().content;
        assert!(sent.interaction().ephemeral);
        assert!(answer.contains(expected), "{user}: {answer}");
    }
    let show = harness
        .send(&as_member(BOB, command("config", &["show"], &[])))
        .await;
    let show = &show.interaction().content;
    assert!(show.contains("- GM channel: <#777>"), "{show}");
    assert!(show.contains("- GM role: <@&5151>"), "{show}");

    // A player's roll: the channel sees who rolls what, the GM channel the result.
    let sent = harness.send(&as_member(BOB, stealth())).await;
    let shown = messages(&sent.replies);
    assert_eq!(shown.len(), 2, "{shown:#?}");
    let (None, false, line) = &shown[0] else {
        panic!("{shown:#?}");
    };
    assert_eq!(line, "**Bob** rolls **Stealth** (`1d20+5`) for the GM.");
    let (gm_text, reveal) = gm_message(&sent.replies);
    // The GM channel links the line in the channel, the message itself.
    let line_id = sent.answer_message.expect("the line is tracked");
    assert!(
        gm_text.starts_with(&format!(
            "**Bob** rolled for the GM in <#{CHANNEL}> (https://discord.com/channels/{GUILD}/{CHANNEL}/{line_id}):\n"
        )),
        "{gm_text}"
    );
    let rolled = breakdown(&gm_text).to_owned();
    assert!(rolled.starts_with("**Stealth**: "), "{gm_text}");
    assert!(!line.contains(&rolled));

    // Only a GM reveals: not the roller, not a plain member.
    for user in [BOB] {
        let sent = harness.send(&as_member(user, press(&reveal))).await;
        assert_eq!(
            messages(&sent.replies),
            vec![(
                None,
                true,
                "Only a GM (the GM role, or members with Manage Server or the macro role) can reveal a roll for the GM.".to_owned()
            )],
            "{user}"
        );
    }
    let sent = harness.send(&as_member(DANA, press(&reveal))).await;
    let shown = messages(&sent.replies);
    assert_eq!(
        shown,
        vec![
            (Some(-1), false, format!("{gm_text}\nRevealed by **Dana**.")),
            (
                Some(CHANNEL),
                false,
                format!("**Bob**'s roll for the GM, revealed by **Dana**:\n{rolled}")
            ),
        ]
    );
    // The Update carries no button: nothing is left to press.
    assert!(sent.replies.iter().all(|reply| match reply {
        Reply::Update(message) => message.components.is_empty(),
        _ => true,
    }));
    // A second press (another GM's, an old client's) is stale.
    let again = harness.send(&as_member(ALICE, press(&reveal))).await;
    let again = &again.interaction().content;
    assert!(again.contains("has ended"), "{again}");

    // A GM's own roll leaves no trace in the channel.
    let sent = harness
        .send(&as_member(DANA, roll("1d20", &[("to", text("gm"))])))
        .await;
    let shown = messages(&sent.replies);
    assert_eq!(shown.len(), 2, "{shown:#?}");
    assert_eq!(
        shown[0],
        (
            None,
            true,
            "Sent to the GM channel <#777>; the table sees nothing.".to_owned()
        )
    );
    // Nothing in the channel to link: the link names the channel.
    assert!(
        shown[1].2.starts_with(&format!(
            "**Dana** rolled for the GM in <#{CHANNEL}> (https://discord.com/channels/{GUILD}/{CHANNEL}):\n"
        )),
        "{shown:#?}"
    );

    // Cleared, a roll for the GM is private again.
    let cleared = harness
        .send(&as_member(ALICE, command("config", &["gm-channel"], &[])))
        .await;
    assert!(
        cleared
            .interaction()
            .content
            .starts_with("No GM channel is set"),
        "{}",
        cleared.interaction().content
    );
    let sent = harness.send(&as_member(BOB, stealth())).await;
    assert!(sent.interaction().ephemeral);
    assert!(sent.channel_messages().is_empty());
}
on_both_backends!(gm_settings_and_reveal);

/// The GM gets exactly what the channel would have seen: each kind of roll line is
/// rolled once with `to:gm` and once plainly, by two cores with the same seed.
#[tokio::test]
async fn a_roll_for_the_gm_is_rolled_as_any_roll() {
    let cases: &[(&str, Options<'_>, &str)] = &[
        ("1d20+5 adv", &[], "`1d20+5 adv`"),
        ("1d20+5 to hit; 2d6+3", &[], "`1d20+5 to hit; 2d6+3`"),
        ("3 1d6", &[], "`1d6` ×3"),
        ("2d6", &[("repeat", OptionValue::Integer(2))], "`2d6` ×2"),
        (
            "sneak",
            &[("label", text("Stealth"))],
            "**Stealth** (`sneak`)",
        ),
        ("sneak + 1", &[], "`sneak + 1`"),
        // Bob's character's field, as `/roll` reads it.
        ("1d20+@DEX_MOD", &[], "`1d20+@DEX_MOD`"),
    ];
    for (expr, extra, what) in cases {
        let mut plain = Harness::with_settings(settings()).await;
        let mut secret = Harness::with_settings(settings()).await;
        for harness in [&mut plain, &mut secret] {
            let setup = [
                command(
                    "config",
                    &["gm-channel"],
                    &[("channel", OptionValue::Channel(GM_CHANNEL))],
                ),
                command(
                    "macro",
                    &["set"],
                    &[
                        ("name", text("sneak")),
                        ("expr", text("1d20+7")),
                        ("scope", text("server")),
                    ],
                ),
            ];
            for kind in setup {
                let sent = harness.send(&as_member(ALICE, kind)).await;
                assert!(sent.interaction().ephemeral);
            }
            let bram = crate::fields::character(7, BOB, "Bram", &[("DEX", "16")]);
            harness.storage.finish_session(None, &[bram]).await.unwrap();
        }
        let seen = plain.send(&as_member(BOB, roll(expr, extra))).await;
        let seen = seen.interaction().content.clone();
        let mut options = extra.to_vec();
        options.push(("to", text("gm")));
        let sent = secret.send(&as_member(BOB, roll(expr, &options))).await;
        let (gm_text, _) = gm_message(&sent.replies);
        assert_eq!(breakdown(&gm_text), seen, "{expr}");
        assert_eq!(
            sent.interaction().content,
            format!("**Bob** rolls {what} for the GM."),
            "{expr}"
        );
    }
}

/// `to:me` is today's `private:true`, which keeps working; `to:channel` is the
/// default.
#[tokio::test]
async fn to_me_is_private_and_to_channel_is_public() {
    let mut harness = Harness::with_settings(settings()).await;
    let cases: &[(&[(&str, OptionValue)], bool)] = &[
        (&[("to", OptionValue::String("me".to_owned()))], true),
        (&[("private", OptionValue::Boolean(true))], true),
        (&[("to", OptionValue::String("channel".to_owned()))], false),
        (
            &[
                ("to", OptionValue::String("channel".to_owned())),
                ("private", OptionValue::Boolean(true)),
            ],
            false,
        ),
        (&[], false),
    ];
    for (options, private) in cases {
        let sent = harness.send(&as_member(BOB, roll("1d20", options))).await;
        assert_eq!(sent.interaction().ephemeral, *private, "{options:?}");
        assert!(sent.channel_messages().is_empty());
    }
}

/// The GM channel refused the message (the bot lacks a permission there): the roller
/// gets the result privately, and the Reveal is gone.
#[tokio::test]
async fn a_refused_gm_channel_hands_the_roll_to_its_roller() {
    let mut harness = Harness::with_settings(settings()).await;
    let set = command(
        "config",
        &["gm-channel"],
        &[("channel", OptionValue::Channel(GM_CHANNEL))],
    );
    harness.send(&as_member(ALICE, set)).await;
    let replies = harness
        .core
        .handle(&as_member(BOB, roll("1d20+5", &[("to", text("gm"))])))
        .await;
    let (gm_text, reveal) = gm_message(&replies);
    let track = replies
        .iter()
        .find_map(|reply| match reply {
            Reply::Channel { message, .. } => message.track,
            _ => None,
        })
        .expect("the GM message is tracked");
    let lang = tavern::i18n::Lang::En;
    let handed = harness
        .core
        .undelivered_gm_roll(track, lang, "Send Messages")
        .await
        .unwrap()
        .expect("the roll");
    assert_eq!(
        handed,
        format!(
            "I may not post in the GM channel: I lack the **Send Messages** permission there. So only you see this roll. Ask a server admin to give it to me there, or to choose another channel with `/config gm-channel`.\n{}",
            breakdown(&gm_text)
        )
    );
    // Handed over once; the Reveal is stale.
    let again = harness
        .core
        .undelivered_gm_roll(track, lang, "Send Messages")
        .await
        .unwrap();
    assert_eq!(again, None);
    let pressed = harness.send(&as_member(ALICE, press(&reveal))).await;
    assert!(pressed.interaction().content.contains("has ended"));
}

/// The console is one channel and a GM: its own roll for the GM shows only the GM
/// channel's message, marked, and Reveal posts the result below.
#[tokio::test]
async fn the_console_shows_both_sides() {
    let dir = crate::support::TempDir::new("console-gm");
    let storage = crate::support::sqlite_storage(&dir).await;
    let mut console = crate::console::console_on(&storage);
    let say = crate::console::say;
    let set = say(&mut console, "/config gm-channel channel:<#2>").await;
    assert!(set.contains("now go to <#2>"), "{set}");
    let rolled = say(&mut console, "/roll 1d20+5 label:Stealth to:gm").await;
    let lines: Vec<&str> = rolled.lines().collect();
    assert_eq!(
        lines[0],
        "(only you) Sent to the GM channel <#2>; the table sees nothing."
    );
    assert_eq!(
        lines[1],
        "[in <#2>] **tester** rolled for the GM in <#1> (https://discord.com/channels/1/1):"
    );
    assert!(lines[2].starts_with("**Stealth**: "), "{rolled}");
    assert!(rolled.contains("[buttons: Reveal]"), "{rolled}");
    let revealed = say(&mut console, "/press Reveal").await;
    assert!(
        revealed.contains("(edited) **tester** rolled for the GM"),
        "{revealed}"
    );
    assert!(revealed.contains("Revealed by **tester**."), "{revealed}");
    assert!(
        revealed.contains(&format!(
            "**tester**'s roll for the GM, revealed by **tester**:\n{}",
            lines[2]
        )),
        "{revealed}"
    );
    let again = say(&mut console, "/press Reveal").await;
    assert!(!again.contains("revealed by"), "{again}");
}

/// A German table: the line, the GM channel's message, the button and the private
/// fallback speak German (public texts the server's language, private the member's).
#[tokio::test]
async fn a_german_table_gets_german_words() {
    let mut harness = Harness::with_settings(settings()).await;
    let german = |user: i64, kind| {
        let mut request = as_member(user, kind);
        request.locale = Some("de".to_owned());
        request.guild_locale = Some("de".to_owned());
        request
    };
    let stealth = || {
        roll(
            "1d20+5",
            &[("label", text("Schleichen")), ("to", text("gm"))],
        )
    };
    let private = harness.send(&german(BOB, stealth())).await;
    assert!(
        private
            .interaction()
            .content
            .starts_with("Auf diesem Server ist kein Kanal der Spielleitung eingestellt"),
        "{}",
        private.interaction().content
    );
    let set = command(
        "config",
        &["gm-channel"],
        &[("channel", OptionValue::Channel(GM_CHANNEL))],
    );
    harness.send(&german(ALICE, set)).await;
    let sent = harness.send(&german(BOB, stealth())).await;
    assert_eq!(
        sent.interaction().content,
        "**Bob** würfelt **Schleichen** (`1d20+5`) für die Spielleitung."
    );
    let gm = sent.channel_messages()[0];
    assert!(
        gm.content
            .starts_with("**Bob** hat in <#600> für die Spielleitung gewürfelt"),
        "{}",
        gm.content
    );
    assert!(sent.button("Aufdecken").is_some());
}
