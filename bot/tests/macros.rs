//! Macros through the core: saving (names, validation, permissions, limits), rolling
//! (`/roll fireball`, `$name` in expressions, personal before server, macros using
//! macros, cycles and expansion limits), `/macro show|list|delete`, autocomplete and
//! `/config macro-role`. The suites run on SQLite and, when configured, PostgreSQL.

use tavern::core::{
    Command, CoreSettings, Member, OptionValue, Permissions, Reply, Request, RequestKind,
};
use tavern::storage::Storage;

use crate::harness::{ALICE, BOB, GUILD, Harness, START_MS, command, text};
use crate::on_both_backends;

pub const CAROL: i64 = 13;
pub const ROLE: i64 = 4242;

/// A core without a rate limit worth the name: these tests send many commands.
pub fn settings() -> CoreSettings {
    CoreSettings {
        rate_burst: 10_000,
        ..CoreSettings::default()
    }
}

pub fn harness_on(storage: Storage) -> Harness {
    Harness::on(storage, settings(), 7)
}

/// A request from `user` in the guild with the given permissions and roles.
pub fn member_request(user: i64, permissions: u64, roles: &[i64], kind: RequestKind) -> Request {
    Request {
        user: tavern::core::User {
            id: user,
            name: match user {
                ALICE => "Alice",
                BOB => "Bob",
                _ => "Carol",
            }
            .to_owned(),
        },
        guild_id: Some(GUILD),
        channel_id: crate::harness::CHANNEL,
        member: Some(Member {
            permissions: Permissions(permissions),
            roles: roles.to_vec(),
        }),
        locale: Some("en-US".to_owned()),
        guild_locale: Some("en-US".to_owned()),
        kind,
    }
}

/// The one interaction answer's text.
pub async fn answer(harness: &mut Harness, request: &Request) -> String {
    let sent = harness.send(request).await;
    sent.interaction().content.clone()
}

/// Alice is an admin (Manage Server), Bob a plain member, Carol has the macro role.
pub async fn as_user(harness: &mut Harness, user: i64, kind: RequestKind) -> String {
    let (permissions, roles): (u64, &[i64]) = match user {
        ALICE => (Permissions::MANAGE_GUILD, &[]),
        CAROL => (0, &[ROLE]),
        _ => (0, &[]),
    };
    answer(harness, &member_request(user, permissions, roles, kind)).await
}

pub fn set(name: &str, expr: &str, scope: Option<&str>) -> RequestKind {
    let mut options = vec![("name", text(name)), ("expr", text(expr))];
    if let Some(scope) = scope {
        options.push(("scope", text(scope)));
    }
    command("macro", &["set"], &options)
}

pub fn roll(expr: &str) -> RequestKind {
    command("roll", &[], &[("expr", text(expr))])
}

/// The total of a rolled answer: the number after the last `= **`.
pub fn total_of(answer: &str) -> Option<i64> {
    let at = answer.rfind("= **")?;
    let rest = &answer[at + 4..];
    rest[..rest.find("**")?].parse().ok()
}

fn autocomplete(name: &str, sub: &[&str], focused: &str, typed: &str) -> RequestKind {
    let RequestKind::Command(command) = command(name, sub, &[(focused, text(typed))]) else {
        unreachable!()
    };
    RequestKind::Autocomplete {
        command: Command { ..command },
        focused: focused.to_owned(),
    }
}

/// Autocomplete choices as (name, value).
async fn choices(harness: &mut Harness, user: i64, kind: RequestKind) -> Vec<(String, String)> {
    let sent = harness.send(&member_request(user, 0, &[], kind)).await;
    assert_eq!(sent.replies.len(), 1);
    let Reply::Choices(choices) = &sent.replies[0] else {
        panic!("choices expected: {:?}", sent.replies);
    };
    assert!(choices.len() <= 25);
    choices
        .iter()
        .map(|choice| {
            assert!((1..=100).contains(&choice.name.chars().count()));
            assert!(choice.value.chars().count() <= 100);
            (choice.name.clone(), choice.value.clone())
        })
        .collect()
}

on_both_backends!(saving_checks_names_expressions_and_permissions);
async fn saving_checks_names_expressions_and_permissions(storage: Storage) {
    let mut harness = harness_on(storage);
    // (who, request, what the answer contains)
    let cases: Vec<(i64, RequestKind, &str)> = vec![
        (
            BOB,
            set("fireball", "8d6 fire", None),
            "Saved your macro `$fireball`: `8d6 fire`.",
        ),
        (
            BOB,
            set("fireball", "10d6 fire", Some("me")),
            "Changed your macro `$fireball`",
        ),
        (BOB, set("$dollar", "1", None), "Saved your macro `$dollar`"),
        (BOB, set("1st", "1", None), "`1st` cannot be a macro name"),
        (
            BOB,
            set("fire-ball", "1", None),
            "`fire-ball` cannot be a macro name",
        ),
        (
            BOB,
            set(&"a".repeat(33), "1", None),
            "cannot be a macro name: use 1 to 32",
        ),
        (
            BOB,
            set("d20", "1d20", None),
            "`d20` reads as a dice expression",
        ),
        (BOB, set("df", "1", None), "`df` reads as a dice expression"),
        (
            BOB,
            set("broken", "2d6 + (3", None),
            "That expression is not valid, so `broken` was not saved:\n```\n2d6 + (3\n        ^ expected `)` or an operator at the end\n```",
        ),
        (
            BOB,
            set("long", &"1+".repeat(300), None),
            "at most 500 characters",
        ),
        (
            BOB,
            set("where", "1", Some("everywhere")),
            "`scope` is `server` or `me`",
        ),
        // Server macros: Manage Server, Administrator, or the configured role.
        (
            BOB,
            set("smite", "2d8", Some("server")),
            "Only members with the Manage Server permission (or the role a server admin \
             sets with `/config macro-role`) can create or change server macros.",
        ),
        (
            ALICE,
            set("smite", "2d8", Some("server")),
            "Saved server macro `$smite`: `2d8`.",
        ),
        (
            CAROL,
            set("heal", "1d8+1", Some("server")),
            "can create or change server macros",
        ),
        (
            BOB,
            command(
                "config",
                &["macro-role"],
                &[("role", OptionValue::Role(ROLE))],
            ),
            "Only members with the Manage Server permission can choose the macro role.",
        ),
        (
            ALICE,
            command(
                "config",
                &["macro-role"],
                &[("role", OptionValue::Role(ROLE))],
            ),
            "Members with the role <@&4242> can now manage server macros",
        ),
        (
            CAROL,
            set("heal", "1d8+1", Some("server")),
            "Saved server macro `$heal`",
        ),
        (
            BOB,
            set("heal", "1d8+2", Some("server")),
            "Only members with the Manage Server permission or the role <@&4242> can",
        ),
        (
            BOB,
            command("config", &["show"], &[]),
            "- macro role: <@&4242> (and Manage Server)",
        ),
    ];
    for (user, kind, expected) in cases {
        let got = as_user(&mut harness, user, kind.clone()).await;
        assert!(
            got.contains(expected),
            "{kind:?}:\n{got}\nlacks\n{expected}"
        );
    }
    // Administrator counts as Manage Server.
    let request = member_request(
        BOB,
        Permissions::ADMINISTRATOR,
        &[],
        set("bless", "1d4", Some("server")),
    );
    assert!(
        answer(&mut harness, &request)
            .await
            .starts_with("Saved server macro")
    );
    // Only the saved ones exist.
    let names: Vec<String> = harness
        .storage
        .macros_visible(GUILD, BOB)
        .await
        .unwrap()
        .into_iter()
        .map(|row| format!("{}:{}", row.owner_id, row.name))
        .collect();
    assert_eq!(
        names,
        ["12:dollar", "12:fireball", "0:bless", "0:heal", "0:smite"]
    );
}

on_both_backends!(macros_resolve_personal_before_server);
async fn macros_resolve_personal_before_server(storage: Storage) {
    let mut harness = harness_on(storage);
    for (user, kind) in [
        (ALICE, set("hit", "10", Some("server"))),
        (ALICE, set("bonus", "5", Some("server"))),
        (BOB, set("hit", "20", None)),
        (BOB, set("twice", "$hit * 2", None)),
        (ALICE, set("attack", "1d1 + $bonus to hit", Some("server"))),
    ] {
        let got = as_user(&mut harness, user, kind).await;
        assert!(got.starts_with("Saved"), "{got}");
    }
    // (who, what they roll, the total)
    let cases: Vec<(i64, &str, i64)> = vec![
        (ALICE, "hit", 10),
        (BOB, "hit", 20),
        (ALICE, "$hit + 1", 11),
        (BOB, "$hit + 1", 21),
        (BOB, "$HIT", 20),
        (BOB, "twice", 40),
        (BOB, "$twice + $hit", 60),
        (ALICE, "attack", 6),
        (BOB, "attack against the orc", 6),
        (CAROL, "8d1 + $bonus", 13),
    ];
    for (user, expr, expected) in cases {
        let got = as_user(&mut harness, user, roll(expr)).await;
        assert_eq!(total_of(&got), Some(expected), "{user} rolls {expr}: {got}");
    }
    // The answer names what was asked and shows what it stood for.
    let got = as_user(&mut harness, BOB, roll("$twice + $hit")).await;
    assert!(
        got.starts_with("`$twice + $hit`: ((20) \\* 2) + (20) = **60**"),
        "{got}"
    );
    let got = as_user(&mut harness, BOB, roll("attack against the orc")).await;
    assert!(
        got.starts_with("`$attack`: *against the orc*: (1d1 ("),
        "{got}"
    );
    let got = as_user(&mut harness, CAROL, roll("2 + $bonus # to hit")).await;
    assert!(
        got.starts_with("`2 + $bonus`: *to hit*: 2 + (5) = **7**"),
        "{got}"
    );
    // Twice as many as fit: the custom id of "Roll again" keeps the macro by name.
    let sent = harness
        .send(&member_request(BOB, 0, &[], roll("twice")))
        .await;
    let again = sent.button("Roll again").unwrap();
    let pressed = harness
        .send(&member_request(
            ALICE,
            0,
            &[],
            RequestKind::Button {
                custom_id: again,
                message_id: 1,
            },
        ))
        .await;
    // Alice has no `$twice`: the macro is looked up for whoever presses.
    assert!(
        pressed
            .interaction()
            .content
            .contains("There is no macro called `twice` here"),
        "{}",
        pressed.interaction().content
    );
    // Unknown names are errors with the caret.
    let got = as_user(&mut harness, BOB, roll("firebal")).await;
    assert!(
        got.contains("There is no macro called `firebal` here; `/macro list` shows them."),
        "{got}"
    );
    let got = as_user(&mut harness, BOB, roll("2d6 + $nothing")).await;
    assert!(
        got.contains("\n      ^^^^^^^^ unknown macro $nothing\n"),
        "{got}"
    );
}

on_both_backends!(cycles_and_expansion_limits_are_refused);
async fn cycles_and_expansion_limits_are_refused(storage: Storage) {
    let mut harness = harness_on(storage);
    let steps: Vec<(i64, RequestKind, &str)> = vec![
        (
            BOB,
            set("a", "$b + 1", None),
            "Note: `$b` is not defined yet",
        ),
        (
            BOB,
            set("b", "$a + 1", None),
            "`b` was not saved: macro cycle: $b → $a → $b.",
        ),
        (
            BOB,
            set("self", "$self", None),
            "`self` was not saved: macro cycle: $self → $self.",
        ),
        (BOB, set("b", "$c", None), "Note: `$c` is not defined yet"),
        (
            BOB,
            set("c", "2 * $a", None),
            "macro cycle: $c → $a → $b → $c",
        ),
        // Server macros are checked among the server's: a personal `$p` is no server
        // macro, so this one saves.
        (BOB, set("p", "$s", None), "Saved your macro `$p`"),
        (
            ALICE,
            set("s", "$p + 1", Some("server")),
            "Saved server macro `$s`",
        ),
        // Doubling chains: m6 expands 64 references, m7 more than the limit.
        (BOB, set("m0", "1", None), "Saved"),
        (BOB, set("m1", "$m0 + $m0", None), "Saved"),
        (BOB, set("m2", "$m1 + $m1", None), "Saved"),
        (BOB, set("m3", "$m2 + $m2", None), "Saved"),
        (BOB, set("m4", "$m3 + $m3", None), "Saved"),
        (BOB, set("m5", "$m4 + $m4", None), "Saved"),
        (
            BOB,
            set("m6", "$m5 + $m5", None),
            "macros expand more than 64 times",
        ),
    ];
    for (user, kind, expected) in steps {
        let got = as_user(&mut harness, user, kind.clone()).await;
        assert!(
            got.contains(expected),
            "{kind:?}:\n{got}\nlacks\n{expected}"
        );
    }
    // Bob's `$p` uses the server's `$s`, which uses Bob's `$p`: a cycle only Bob
    // meets, named when he rolls.
    let got = as_user(&mut harness, BOB, roll("1 + $p")).await;
    assert!(got.contains("macro cycle: $p → $s → $p"), "{got}");
    let got = as_user(&mut harness, BOB, roll("m5")).await;
    assert_eq!(total_of(&got), Some(32), "{got}");
    // Carol has no `$p`: the server's `$s` is unknown-macro for her.
    let got = as_user(&mut harness, CAROL, roll("$s")).await;
    assert!(got.contains("unknown macro $p"), "{got}");
}

on_both_backends!(show_list_and_delete);
async fn show_list_and_delete(storage: Storage) {
    let mut harness = harness_on(storage);
    as_user(&mut harness, ALICE, set("smite", "2d8", Some("server"))).await;
    harness.clock.advance_ms(3 * 3_600_000 + 60_000);
    let changed = member_request(
        BOB,
        Permissions::MANAGE_GUILD,
        &[],
        command(
            "macro",
            &["set"],
            &[
                ("name", text("Smite")),
                ("expr", text("3d8 radiant")),
                ("description", text("Paladin's *smite*")),
                ("scope", text("server")),
            ],
        ),
    );
    assert!(
        answer(&mut harness, &changed)
            .await
            .starts_with("Changed server macro `$Smite`")
    );
    as_user(&mut harness, BOB, set("smite", "1d1", None)).await;

    let shown = as_user(
        &mut harness,
        BOB,
        command("macro", &["show"], &[("name", text("smite"))]),
    )
    .await;
    assert_eq!(
        shown,
        "`$smite` (your macro):\n```\n1d1\n```\nCreated by **Bob** on 2026-01-01 03:01 UTC.\n\n\
         `$Smite` (server macro):\n```\n3d8 radiant\n```\nPaladin's \\*smite\\*\n\
         Created by **Alice** on 2026-01-01 00:00 UTC; last changed by **Bob** on \
         2026-01-01 03:01 UTC.\n(Your own macro shadows it when you roll.)"
    );
    let missing = as_user(
        &mut harness,
        BOB,
        command("macro", &["show"], &[("name", text("nope"))]),
    )
    .await;
    assert_eq!(
        missing,
        "There is no macro called `nope` here. `/macro list` shows them."
    );

    let listed = as_user(&mut harness, BOB, command("macro", &["list"], &[])).await;
    assert_eq!(
        listed,
        "Your macros here (1):\n- `$smite` = `1d1`\n\nServer macros (1):\n\
         - `$Smite` = `3d8 radiant` — Paladin's \\*smite\\* (yours shadows it)"
    );
    let none = as_user(&mut harness, CAROL, command("macro", &["list"], &[])).await;
    assert!(none.starts_with("Server macros (1):"), "{none}");

    // Delete: without a scope, your own first; the server's needs the permission.
    let delete = |scope: Option<&str>| {
        let mut options = vec![("name", text("smite"))];
        if let Some(scope) = scope {
            options.push(("scope", text(scope)));
        }
        command("macro", &["delete"], &options)
    };
    let steps: Vec<(i64, RequestKind, &str)> = vec![
        (
            BOB,
            delete(Some("server")),
            "Only members with the Manage Server permission",
        ),
        (BOB, delete(None), "Deleted your macro `$smite`."),
        (
            BOB,
            delete(Some("me")),
            "There is no macro of yours called `smite` here.",
        ),
        (
            BOB,
            delete(None),
            "Only members with the Manage Server permission",
        ),
        (ALICE, delete(None), "Deleted the server macro `$smite`."),
        (
            ALICE,
            delete(None),
            "There is no server macro called `smite` here.",
        ),
    ];
    for (user, kind, expected) in steps {
        let got = as_user(&mut harness, user, kind.clone()).await;
        assert!(
            got.contains(expected),
            "{kind:?}:\n{got}\nlacks\n{expected}"
        );
    }
}

on_both_backends!(autocomplete_offers_macro_names);
async fn autocomplete_offers_macro_names(storage: Storage) {
    let mut harness = harness_on(storage);
    as_user(
        &mut harness,
        ALICE,
        set("fireball", "8d6 fire", Some("server")),
    )
    .await;
    as_user(
        &mut harness,
        ALICE,
        set("fire_bolt", "1d10", Some("server")),
    )
    .await;
    as_user(&mut harness, BOB, set("fireball", "8d6+2", None)).await;
    for index in 0..30 {
        as_user(&mut harness, BOB, set(&format!("x{index:02}"), "1", None)).await;
    }
    let got = choices(&mut harness, BOB, autocomplete("roll", &[], "expr", "fi")).await;
    assert_eq!(
        got,
        [
            (
                "fire_bolt · 1d10 (server)".to_owned(),
                "fire_bolt".to_owned()
            ),
            ("fireball · 8d6+2 (yours)".to_owned(), "fireball".to_owned()),
        ]
    );
    // `_` is a name character, not a wildcard.
    let got = choices(
        &mut harness,
        BOB,
        autocomplete("roll", &[], "expr", "fire_"),
    )
    .await;
    assert_eq!(got.len(), 1);
    let got = choices(
        &mut harness,
        BOB,
        autocomplete("roll", &[], "expr", "2d6 + $FIREB"),
    )
    .await;
    assert_eq!(
        got,
        [(
            "2d6 + $fireball · 8d6+2 (yours)".to_owned(),
            "2d6 + $fireball".to_owned()
        )]
    );
    let got = choices(
        &mut harness,
        ALICE,
        autocomplete("roll", &[], "expr", "fireb"),
    )
    .await;
    assert_eq!(got[0].0, "fireball · 8d6 fire (server)");
    // At most 25, and nothing for text that is no name.
    assert_eq!(
        choices(&mut harness, BOB, autocomplete("roll", &[], "expr", ""))
            .await
            .len(),
        25
    );
    assert!(
        choices(
            &mut harness,
            BOB,
            autocomplete("roll", &[], "expr", "4d6kh3 + ")
        )
        .await
        .is_empty()
    );
    let got = choices(
        &mut harness,
        BOB,
        autocomplete("macro", &["show"], "name", "$x2"),
    )
    .await;
    let values: Vec<&str> = got.iter().map(|(_, value)| value.as_str()).collect();
    assert_eq!(
        values,
        [
            "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29"
        ]
    );
    let got = choices(
        &mut harness,
        CAROL,
        autocomplete("macro", &["delete"], "name", "F"),
    )
    .await;
    assert_eq!(got.len(), 2);
}

#[tokio::test]
async fn limits_on_the_number_of_macros() {
    let settings = CoreSettings {
        max_personal_macros: 2,
        max_server_macros: 1,
        ..settings()
    };
    let mut harness = Harness::with_settings(settings).await;
    let steps: Vec<(i64, RequestKind, &str)> = vec![
        (BOB, set("one", "1", None), "Saved"),
        (BOB, set("two", "2", None), "Saved"),
        (
            BOB,
            set("three", "3", None),
            "You have 2 macros here, the most there can be.",
        ),
        (BOB, set("two", "22", None), "Changed"),
        (ALICE, set("three", "3", None), "Saved"),
        (ALICE, set("s1", "1", Some("server")), "Saved"),
        (
            ALICE,
            set("s2", "1", Some("server")),
            "This server has 1 macros here, the most",
        ),
    ];
    for (user, kind, expected) in steps {
        let got = as_user(&mut harness, user, kind.clone()).await;
        assert!(
            got.contains(expected),
            "{kind:?}:\n{got}\nlacks\n{expected}"
        );
    }
}

#[tokio::test]
async fn macros_in_direct_messages_are_personal() {
    let mut harness = Harness::new().await;
    let dm = |kind| harness.request(BOB, None, kind);
    let server = dm(set("x", "1", Some("server")));
    let personal = dm(set("x", "7", None));
    let rolled = dm(roll("x"));
    let configured = dm(command("config", &["show"], &[]));
    assert!(
        answer(&mut harness, &server)
            .await
            .starts_with("Server macros live on servers")
    );
    assert!(
        answer(&mut harness, &personal)
            .await
            .starts_with("Saved your macro")
    );
    assert_eq!(total_of(&answer(&mut harness, &rolled).await), Some(7));
    assert_eq!(
        answer(&mut harness, &configured).await,
        "That belongs to a server; use it there."
    );
    // The guild does not see DM macros.
    let got = as_user(&mut harness, BOB, roll("x")).await;
    assert!(got.contains("There is no macro called `x`"), "{got}");
    let _ = START_MS;
}
