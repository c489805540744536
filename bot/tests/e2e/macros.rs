//! Macros through serenity: who may keep server macros (Manage Server, Administrator
//! or the role `/config macro-role` names, read from the interaction's member), the
//! order personal and server macros resolve in, cycles, `/macro show|list|delete`,
//! autocomplete, and a character's fields in rolls.

use fake_discord::{Callback, Invoker, Opt, SentMessage, permissions};

use crate::e2e::support::{
    CHANNEL, GUILD, How, Setup, Tavern, admin, alice, ask_sub, assert_has, assert_starts, bob,
    content, is_ephemeral, no_mentions, suggestions,
};

const ROLE: u64 = 4_242;

fn carol() -> Invoker {
    Invoker::member(44, GUILD, CHANNEL).with_name("Carol")
}

fn set(name: &str, expr: &str, scope: Option<&str>) -> Vec<Opt> {
    let mut options = vec![Opt::string("name", name), Opt::string("expr", expr)];
    if let Some(scope) = scope {
        options.push(Opt::string("scope", scope));
    }
    options
}

/// `/macro set` as `who`.
async fn save(
    tavern: &Tavern,
    who: &Invoker,
    name: &str,
    expr: &str,
    scope: Option<&str>,
) -> SentMessage {
    ask_sub(tavern, who, "macro", "set", set(name, expr, scope)).await
}

/// `/roll expr` as `who`: its callback (a roll is answered at once, never pinging).
async fn rolled(tavern: &Tavern, who: &Invoker, expr: &str) -> Callback {
    let callback = tavern
        .callback(tavern.slash(who, "roll", vec![Opt::string("expr", expr)]))
        .await;
    assert_eq!(callback.kind, 4, "{callback:?}");
    assert_eq!(callback.data["allowed_mentions"], no_mentions());
    callback
}

/// `/roll expr` as `who`: the answer's text.
async fn roll(tavern: &Tavern, who: &Invoker, expr: &str) -> String {
    content(&rolled(tavern, who, expr).await).to_owned()
}

/// The total of a rolled answer: the number after the last `= **`.
fn total_of(answer: &str) -> Option<i64> {
    let at = answer.rfind("= **")?;
    let rest = &answer[at + 4..];
    rest[..rest.find("**")?].parse().ok()
}

#[tokio::test(flavor = "multi_thread")]
async fn server_macros_need_manage_server_administrator_or_the_macro_role() {
    let tavern = Tavern::start_with(Setup::busy()).await;
    // (who, the command's options, what the private answer starts with)
    let steps: Vec<(Invoker, &str, Vec<Opt>, &str)> = vec![
        (
            bob(),
            "set",
            set("smite", "2d8", Some("server")),
            "Only members with the Manage Server permission (or the role a server admin \
             sets with `/config macro-role`) can create or change server macros.",
        ),
        (
            admin(),
            "set",
            set("smite", "2d8", Some("server")),
            "Saved server macro `$smite`: `2d8`.",
        ),
        (
            bob().with_permissions(permissions::MEMBER | permissions::ADMINISTRATOR),
            "set",
            set("bless", "1d4", Some("server")),
            "Saved server macro `$bless`",
        ),
        // Anyone keeps personal macros.
        (
            bob(),
            "set",
            set("smite", "1d1", None),
            "Saved your macro `$smite`: `1d1`.",
        ),
        (
            carol().with_roles(&[ROLE]),
            "set",
            set("heal", "1d8+1", Some("server")),
            "Only members with the Manage Server permission",
        ),
    ];
    for (who, sub, options, expected) in steps {
        let answer = ask_sub(&tavern, &who, "macro", sub, options).await;
        assert!(answer.is_ephemeral(), "{}", answer.content);
        assert!(
            answer.content.starts_with(expected),
            "{}\nshould start with\n{expected}",
            answer.content
        );
    }

    // Only Manage Server chooses the role, given as a Role option.
    let refused = ask_sub(
        &tavern,
        &bob(),
        "config",
        "macro-role",
        vec![Opt::role("role", ROLE)],
    )
    .await;
    assert_eq!(
        refused.content,
        "Only members with the Manage Server permission can choose the macro role."
    );
    let chosen = ask_sub(
        &tavern,
        &admin(),
        "config",
        "macro-role",
        vec![Opt::role("role", ROLE)],
    )
    .await;
    assert!(chosen.is_ephemeral());
    assert_starts(
        &chosen,
        "Members with the role <@&4242> can now manage server macros",
    );
    let shown = ask_sub(&tavern, &bob(), "config", "show", vec![]).await;
    assert_has(&shown, "- macro role: <@&4242> (and Manage Server)");

    // The member's roles in the interaction decide: Carol has the role, Bob not.
    let saved = ask_sub(
        &tavern,
        &carol().with_roles(&[7, ROLE]),
        "macro",
        "set",
        set("heal", "1d8+1", Some("server")),
    )
    .await;
    assert_starts(&saved, "Saved server macro `$heal`");
    let refused = save(
        &tavern,
        &bob().with_roles(&[7]),
        "heal",
        "1d8+2",
        Some("server"),
    )
    .await;
    assert_starts(
        &refused,
        "Only members with the Manage Server permission or the role <@&4242> can",
    );
    // Deleting a server macro is managed the same way.
    let refused = ask_sub(
        &tavern,
        &bob(),
        "macro",
        "delete",
        vec![Opt::string("name", "heal")],
    )
    .await;
    assert_starts(&refused, "Only members with");
    let deleted = ask_sub(
        &tavern,
        &carol().with_roles(&[ROLE]),
        "macro",
        "delete",
        vec![Opt::string("name", "heal")],
    )
    .await;
    assert_eq!(deleted.content, "Deleted the server macro `$heal`.");

    // Clearing the role takes it back from Carol.
    let cleared = ask_sub(&tavern, &admin(), "config", "macro-role", vec![]).await;
    assert_starts(&cleared, "No role is set");
    let refused = save(
        &tavern,
        &carol().with_roles(&[ROLE]),
        "heal",
        "1d8",
        Some("server"),
    )
    .await;
    assert_starts(&refused, "Only members with");

    // In a DM there is no server to keep macros for.
    let dm = Invoker::dm(44, 9_100);
    let refused = save(&tavern, &dm, "smite", "2d8", Some("server")).await;
    assert_starts(&refused, "Server macros live on servers");
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn personal_macros_shadow_server_macros_and_cycles_are_refused() {
    let tavern = Tavern::start_with(Setup::busy()).await;
    for (who, options) in [
        (admin(), set("hit", "10", Some("server"))),
        (admin(), set("bonus", "5", Some("server"))),
        (bob(), set("hit", "20", None)),
        (bob(), set("twice", "$hit * 2", None)),
    ] {
        let answer = ask_sub(&tavern, &who, "macro", "set", options).await;
        assert_starts(&answer, "Saved");
    }
    // (who, what they roll, the total)
    let cases = [
        (alice(), "hit", 10),
        (bob(), "hit", 20),
        (alice(), "$hit + 1", 11),
        (bob(), "8d1 + $HIT", 28),
        (bob(), "twice", 40),
        (carol(), "$bonus + $hit", 15),
    ];
    for (who, expr, total) in cases {
        let answer = roll(&tavern, &who, expr).await;
        assert_eq!(
            total_of(&answer),
            Some(total),
            "{} rolls {expr}: {answer}",
            who.username
        );
    }
    let answer = roll(&tavern, &bob(), "$twice + $hit").await;
    assert!(
        answer.starts_with("`$twice + $hit`: ((20) \\* 2) + (20) = **60**"),
        "{answer}"
    );

    // "Roll again" looks the macro up for whoever presses: Alice gets the server's.
    let bobs = tavern.slash(&bob(), "roll", vec![Opt::string("expr", "hit")]);
    let bobs_roll = tavern.answer(bobs).await;
    let again = tavern.press(&alice(), &bobs_roll, &bobs_roll.custom_ids()[0]);
    let rerolled = tavern.callback(again).await;
    assert_eq!(
        total_of(content(&rerolled)),
        Some(10),
        "{}",
        content(&rerolled)
    );

    // A cycle is refused when saved, naming the macros in it.
    let noted = save(&tavern, &bob(), "a", "$b + 1", None).await;
    assert_has(&noted, "Note: `$b` is not defined yet");
    let cycle = save(&tavern, &bob(), "b", "$a + 1", None).await;
    assert!(cycle.is_ephemeral());
    assert_has(&cycle, "`b` was not saved: macro cycle: $b → $a → $b.");
    // An invalid expression is refused with the caret.
    let broken = ask_sub(
        &tavern,
        &bob(),
        "macro",
        "set",
        set("broken", "2d6 + (3", None),
    )
    .await;
    assert_eq!(
        broken.content,
        "That expression is not valid, so `broken` was not saved:\n```\n2d6 + (3\n        ^ expected `)` or an operator at the end\n```"
    );
    // Unknown names in a roll: a private answer with the caret.
    let callback = rolled(&tavern, &bob(), "firebal").await;
    assert!(is_ephemeral(&callback));
    assert!(
        content(&callback)
            .contains("There is no macro called `firebal` here; `/macro list` shows them."),
        "{}",
        content(&callback)
    );
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn show_list_and_delete_answer_privately_with_who_and_when() {
    let tavern = Tavern::start_with(Setup::busy()).await;
    save(&tavern, &admin(), "smite", "2d8", Some("server")).await;
    tavern.clock.advance_ms(3 * 3_600_000 + 60_000);
    let mut changed = set("Smite", "3d8 radiant", Some("server"));
    changed.push(Opt::string("description", "Paladin's *smite* @everyone"));
    let bob_admin = bob().with_permissions(permissions::MEMBER | permissions::MANAGE_GUILD);
    let answer = ask_sub(&tavern, &bob_admin, "macro", "set", changed).await;
    assert_starts(&answer, "Changed server macro `$Smite`");
    save(&tavern, &bob(), "smite", "1d1", None).await;

    let shown = ask_sub(
        &tavern,
        &bob(),
        "macro",
        "show",
        vec![Opt::string("name", "smite")],
    )
    .await;
    assert!(shown.is_ephemeral());
    assert_eq!(
        shown.content,
        "`$smite` (your macro):\n```\n1d1\n```\nCreated by **Bob** on 2026-01-01 03:01 UTC.\n\n\
         `$Smite` (server macro):\n```\n3d8 radiant\n```\nPaladin's \\*smite\\* @everyone\n\
         Created by **Alice** on 2026-01-01 00:00 UTC; last changed by **Bob** on \
         2026-01-01 03:01 UTC.\n(Your own macro shadows it when you roll.)"
    );
    let listed = ask_sub(&tavern, &bob(), "macro", "list", vec![]).await;
    assert!(listed.is_ephemeral());
    assert_starts(
        &listed,
        "Your macros here (1):\n- `$smite` = `1d1`\n\nServer macros (1):\n",
    );
    let nothing = ask_sub(
        &tavern,
        &carol(),
        "macro",
        "show",
        vec![Opt::string("name", "nope")],
    )
    .await;
    assert_eq!(
        nothing.content,
        "There is no macro called `nope` here. `/macro list` shows them."
    );

    // Delete without a scope: your own first; then the server's, which needs the
    // permission.
    let steps = [
        (bob(), None, "Deleted your macro `$smite`."),
        (
            bob(),
            None,
            "Only members with the Manage Server permission",
        ),
        (
            bob(),
            Some("me"),
            "There is no macro of yours called `smite` here.",
        ),
        (
            admin(),
            Some("server"),
            "Deleted the server macro `$smite`.",
        ),
        (
            admin(),
            None,
            "There is no server macro called `smite` here.",
        ),
    ];
    for (who, scope, expected) in steps {
        let mut options = vec![Opt::string("name", "smite")];
        if let Some(scope) = scope {
            options.push(Opt::string("scope", scope));
        }
        let answer = ask_sub(&tavern, &who, "macro", "delete", options).await;
        assert!(answer.is_ephemeral());
        assert!(
            answer.content.starts_with(expected),
            "{}\nlacks\n{expected}",
            answer.content
        );
    }
    let empty = ask_sub(&tavern, &carol(), "macro", "list", vec![]).await;
    assert_starts(&empty, "There are no macros here yet.");
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn autocomplete_offers_macro_names_from_the_database() {
    let tavern = Tavern::start_with(Setup::busy()).await;
    save(&tavern, &admin(), "fireball", "8d6 fire", Some("server")).await;
    save(&tavern, &admin(), "fire_bolt", "1d10", Some("server")).await;
    save(&tavern, &bob(), "fireball", "8d6+2", None).await;
    for index in 0..30 {
        save(&tavern, &bob(), &format!("x{index:02}"), "1", None).await;
    }
    let typing = |text: &str| vec![Opt::string("expr", text).focused()];
    assert_eq!(
        suggestions(&tavern, &bob(), "roll", typing("fi")).await,
        [
            (
                "fire_bolt · 1d10 (server)".to_owned(),
                "fire_bolt".to_owned()
            ),
            ("fireball · 8d6+2 (yours)".to_owned(), "fireball".to_owned()),
        ]
    );
    assert_eq!(
        suggestions(&tavern, &bob(), "roll", typing("2d6 + $FIREB")).await,
        [(
            "2d6 + $fireball · 8d6+2 (yours)".to_owned(),
            "2d6 + $fireball".to_owned()
        )]
    );
    assert_eq!(
        suggestions(&tavern, &alice(), "roll", typing("fireb")).await[0].0,
        "fireball · 8d6 fire (server)"
    );
    // At most 25 of Bob's 32; nothing where no name is being typed.
    assert_eq!(
        suggestions(&tavern, &bob(), "roll", typing("")).await.len(),
        25
    );
    assert!(
        suggestions(&tavern, &bob(), "roll", typing("4d6kh3 + "))
            .await
            .is_empty()
    );

    let name = |sub: &str, text: &str| {
        vec![Opt::subcommand(
            sub,
            vec![Opt::string("name", text).focused()],
        )]
    };
    let values: Vec<String> = suggestions(&tavern, &bob(), "macro", name("show", "$x2"))
        .await
        .into_iter()
        .map(|(_, value)| value)
        .collect();
    assert_eq!(
        values,
        [
            "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29"
        ]
    );
    assert_eq!(
        suggestions(&tavern, &carol(), "macro", name("delete", "F"))
            .await
            .len(),
        2
    );
    // Suggestions are not commands: no rate limit counts them, no roll is made.
    assert_eq!(tavern.requests_to("POST", "/channels/"), 0);
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_active_characters_fields_are_used_in_rolls() {
    let tavern = Tavern::start_with(Setup::busy()).await;
    // Before any character: a roll with a field says how to get one.
    let callback = rolled(&tavern, &alice(), "1d20 + @STR_MOD").await;
    assert!(is_ephemeral(&callback));
    assert!(
        content(&callback).contains("you play no character here"),
        "{}",
        content(&callback)
    );

    tavern.chargen_run(&alice(), None, How::Modal).await;
    let used = ask_sub(
        &tavern,
        &alice(),
        "character",
        "use",
        vec![Opt::string("name", "udo")],
    )
    .await;
    assert!(used.is_ephemeral());
    assert_has(&used, "Udo");

    // STR 17: modifier +2; a macro may use fields too.
    assert_eq!(
        total_of(&roll(&tavern, &alice(), "1d1 + @STR_MOD").await),
        Some(3)
    );
    assert_eq!(
        total_of(&roll(&tavern, &alice(), "@STR + @str_mod").await),
        Some(19)
    );
    save(&tavern, &alice(), "hit", "1d1 + @STR_MOD to hit", None).await;
    let answer = roll(&tavern, &alice(), "hit").await;
    assert_eq!(total_of(&answer), Some(3), "{answer}");

    // An unknown field lists the fields there are, privately.
    let callback = rolled(&tavern, &alice(), "1d20 + @WIS").await;
    assert!(is_ephemeral(&callback));
    let text = content(&callback);
    assert!(text.contains("@WIS"), "{text}");
    assert!(text.contains("STR_MOD"), "{text}");

    // Bob plays no character: Alice's is hers alone.
    let callback = rolled(&tavern, &bob(), "1 + @STR").await;
    assert!(content(&callback).contains("you play no character here"));

    // The sheet.
    let sheet = ask_sub(
        &tavern,
        &alice(),
        "character",
        "show",
        vec![Opt::string("name", "Udo")],
    )
    .await;
    assert!(!sheet.is_ephemeral());
    let shown = format!("{}{:?}", sheet.content, sheet.embeds);
    assert!(shown.contains("STR"), "{shown}");
    assert!(shown.contains("17"), "{shown}");
    tavern.stop().await;
}
