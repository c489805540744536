//! Generator programs installed by server admins, through the core: permissions,
//! the install-time check (refusals, every syntax error in one answer, "Install
//! anyway"), files, code and the paste form, limits, list, remove and default.

use std::collections::HashMap;
use std::sync::Arc;

use tavern::core::chargen::programs::{decode_confirm_id, paste_form_id};
use tavern::core::{Core, CoreSettings, OptionValue, Reply, RequestKind};
use tavern::fetch::MapFetch;
use tavern::storage::Storage;

use crate::harness::{ALICE, BOB, GUILD, Harness, Sent, command, text};
use crate::macros::{CAROL, ROLE, member_request, settings};
use crate::on_both_backends;

/// A harness whose core reads attachments from `files` (URL → bytes).
pub fn harness_with_files(
    storage: Storage,
    settings: CoreSettings,
    files: &[(&str, &[u8])],
) -> Harness {
    let mut harness = Harness::on(storage.clone(), settings.clone(), 7);
    let files: HashMap<String, Vec<u8>> = files
        .iter()
        .map(|(url, bytes)| ((*url).to_owned(), bytes.to_vec()))
        .collect();
    harness.core = Arc::new(
        Core::new(
            storage,
            crate::doubles::engines(),
            settings,
            harness.clock.clone(),
            Some(7),
        )
        .with_fetch(Arc::new(MapFetch(files))),
    );
    harness
}

pub fn file(name: &str, url: &str) -> OptionValue {
    OptionValue::Attachment {
        filename: name.to_owned(),
        url: url.to_owned(),
        size: 10,
    }
}

pub fn add(name: &str, source: (&str, OptionValue)) -> RequestKind {
    command(
        "chargen",
        &["program", "add"],
        &[("name", text(name)), source],
    )
}

/// Sends as Alice (Manage Server), Bob (nothing) or Carol (the macro role, once set).
pub async fn send_as(harness: &mut Harness, user: i64, kind: RequestKind) -> Sent {
    let (permissions, roles): (u64, &[i64]) = match user {
        ALICE => (tavern::core::Permissions::MANAGE_GUILD, &[]),
        CAROL => (0, &[ROLE]),
        _ => (0, &[]),
    };
    harness
        .send(&member_request(user, permissions, roles, kind))
        .await
}

pub async fn said(harness: &mut Harness, user: i64, kind: RequestKind) -> String {
    send_as(harness, user, kind)
        .await
        .interaction()
        .content
        .clone()
}

/// The new state of the pressed message, which must be its one reply and carry no
/// buttons any more.
async fn updated(harness: &mut Harness, user: i64, kind: RequestKind) -> String {
    let sent = send_as(harness, user, kind).await;
    let [Reply::Update(message)] = sent.replies.as_slice() else {
        panic!("not an update of the pressed message: {:#?}", sent.replies);
    };
    assert!(message.components.is_empty(), "{message:?}");
    message.content.clone()
}

const SHORT: &str = "10 INPUT \"NAME\"; N$\n20 RECORD \"NAME\", N$, \"HP\", 7\n";
/// Two broken lines after the END, as old listings have them: they never run.
pub const BROKEN: &str = r#"10 PRINT "HELLO"
20 INPUT "NAME"; N$
30 RECORD "NAME", N$, "HP", 3
40 END
50 PRINT "NEVER" +
60 IF N$ THEN THEN
"#;
/// What an admin installing [`BROKEN`] as `broken` is told.
pub const BROKEN_ERRORS: &str = "`broken` has 2 syntax errors:\n```\nline 50, column 19: expected an \
     expression\nline 60, column 19: THEN cannot start a statement\n```\nA line with a syntax \
     error stops the program only when a run reaches it (GW-BASIC does the same), so old \
     listings often work anyway. Install it as it is?";

on_both_backends!(only_admins_install_and_syntax_errors_need_a_confirmation);
async fn only_admins_install_and_syntax_errors_need_a_confirmation(storage: Storage) {
    let mut harness = harness_with_files(
        storage,
        settings(),
        &[
            ("https://cdn.test/short.bas", SHORT.as_bytes()),
            ("https://cdn.test/broken.bas", BROKEN.as_bytes()),
            (
                "https://cdn.test/refused.bas",
                b"10 PRINT 1\n20 OPEN \"X\" FOR OUTPUT AS #1\n",
            ),
        ],
    );
    let short = add(
        "short",
        ("file", file("short.bas", "https://cdn.test/short.bas")),
    );
    let steps: Vec<(i64, RequestKind, &str)> = vec![
        (
            BOB,
            short.clone(),
            "Only members with the Manage Server permission (or the role a server admin sets \
             with `/config macro-role`) can install, remove or choose generator programs.",
        ),
        (
            ALICE,
            short.clone(),
            "Installed `short` (2 lines). Start it with `/chargen start program:short`",
        ),
        (ALICE, short, "Replaced `short` (2 lines)"),
        (
            ALICE,
            add(
                "nope",
                ("file", file("refused.bas", "https://cdn.test/refused.bas")),
            ),
            "`nope` was not installed: OPEN is not allowed here (file and device I/O) in 20.",
        ),
        (
            ALICE,
            add(
                "gone",
                ("file", file("gone.bas", "https://cdn.test/gone.bas")),
            ),
            "I could not read the listing: the file could not be read: not found.",
        ),
        (
            ALICE,
            add(
                "text",
                ("file", file("notes.txt", "https://cdn.test/short.bas")),
            ),
            "`notes.txt` is not a `.bas` listing.",
        ),
        (
            ALICE,
            add("chargen", ("code", text(SHORT))),
            "`chargen` is the name of a program that ships with Tavern; choose another.",
        ),
        (
            ALICE,
            add("bad name", ("code", text(SHORT))),
            "`bad name` cannot be a program name",
        ),
        (
            ALICE,
            add("both", ("code", text(""))),
            "The listing is empty.",
        ),
        (
            ALICE,
            command(
                "chargen",
                &["program", "add"],
                &[
                    ("name", text("both")),
                    ("code", text(SHORT)),
                    ("file", file("short.bas", "https://cdn.test/short.bas")),
                ],
            ),
            "Give the program either as a file or as code, not both.",
        ),
    ];
    for (user, kind, expected) in steps {
        let got = said(&mut harness, user, kind.clone()).await;
        assert!(
            got.contains(expected),
            "{kind:?}:\n{got}\nlacks\n{expected}"
        );
    }

    // Every syntax error in one answer, and nothing installed until confirmed.
    let broken = add(
        "broken",
        ("file", file("broken.bas", "https://cdn.test/broken.bas")),
    );
    let sent = send_as(&mut harness, ALICE, broken.clone()).await;
    let message = sent.interaction();
    assert!(message.ephemeral);
    assert_eq!(message.content, BROKEN_ERRORS);
    assert!(
        harness
            .storage
            .installed_program(GUILD, "broken")
            .await
            .unwrap()
            .is_none()
    );
    let cancel = sent.button("Cancel").unwrap();
    let cancelled = updated(&mut harness, ALICE, press(&cancel)).await;
    assert_eq!(cancelled, "`broken` was not installed.");
    let again = said(&mut harness, ALICE, press(&cancel)).await;
    assert!(again.starts_with("That install has been confirmed, cancelled or has expired"));

    let sent = send_as(&mut harness, ALICE, broken).await;
    let install = sent.button("Install anyway").unwrap();
    let refused = said(&mut harness, BOB, press(&install)).await;
    assert!(refused.starts_with("Only members with"), "{refused}");
    // Carol gets the role; she may confirm what Alice started.
    said(
        &mut harness,
        ALICE,
        command(
            "config",
            &["macro-role"],
            &[("role", OptionValue::Role(ROLE))],
        ),
    )
    .await;
    let installed = updated(&mut harness, CAROL, press(&install)).await;
    assert!(
        installed.starts_with("Installed `broken` (6 lines, 2 syntax errors accepted)."),
        "{installed}"
    );
    let twice = said(&mut harness, ALICE, press(&install)).await;
    assert!(
        twice.starts_with("That install has been confirmed"),
        "{twice}"
    );

    let listed = said(
        &mut harness,
        BOB,
        command("chargen", &["program", "list"], &[]),
    )
    .await;
    assert!(
        listed.starts_with(
            "Generator programs here:\n- `chargen` (shipped with Tavern) — the default\n"
        ),
        "{listed}"
    );
    assert!(
        listed.contains(
            "- `broken`: 6 lines, 112 bytes, installed by **Carol** on 2026-01-01 00:00 UTC; 2 \
             syntax errors accepted\n- `short`: 2 lines, 50 bytes, installed by **Alice** on"
        ),
        "{listed}"
    );
    // An installed program runs to a stored character; its broken lines never run.
    let started = send_as(
        &mut harness,
        BOB,
        command("chargen", &["start"], &[("program", text("broken"))]),
    )
    .await;
    assert!(
        started
            .interaction()
            .content
            .starts_with("Started `broken`")
    );
    let finished = send_as(
        &mut harness,
        BOB,
        command("chargen", &["answer"], &[("text", text("Mira"))]),
    )
    .await;
    assert!(
        finished.all_text().contains("**Mira** is ready: HP 3"),
        "{}",
        finished.all_text()
    );
    let mira = harness
        .storage
        .character_named(BOB, GUILD, "Mira")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(mira.program, "broken");
}

fn press(custom_id: &str) -> RequestKind {
    RequestKind::Button {
        custom_id: custom_id.to_owned(),
        message_id: 1,
    }
}

#[tokio::test]
async fn a_listing_without_file_or_code_is_pasted_in_a_form() {
    let mut harness = Harness::with_settings(settings()).await;
    let request = member_request(
        ALICE,
        tavern::core::Permissions::MANAGE_GUILD,
        &[],
        command("chargen", &["program", "add"], &[("name", text("pasted"))]),
    );
    assert_eq!(harness.core.ack(&request), tavern::core::Ack::Immediate);
    let sent = harness.send(&request).await;
    let Some(Reply::Modal(modal)) = sent.replies.first() else {
        panic!("a form: {:?}", sent.replies);
    };
    assert_eq!(modal.title, "Install the program pasted");
    assert_eq!(modal.inputs[0].max_length, 4000);
    let submit = member_request(
        ALICE,
        tavern::core::Permissions::MANAGE_GUILD,
        &[],
        RequestKind::Modal {
            custom_id: modal.custom_id.clone(),
            fields: vec![(
                modal.inputs[0].custom_id.clone(),
                format!("```basic\n{SHORT}\n```"),
            )],
        },
    );
    assert_eq!(
        harness.core.ack(&submit),
        tavern::core::Ack::Defer { ephemeral: true }
    );
    let done = harness.send(&submit).await;
    assert!(
        done.interaction()
            .content
            .starts_with("Installed `pasted` (2 lines).")
    );
    let row = harness
        .storage
        .installed_program(GUILD, "PASTED")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(row.source, SHORT.trim_end());
    // A forged form from a member without the permission installs nothing.
    let forged = member_request(
        BOB,
        0,
        &[],
        RequestKind::Modal {
            custom_id: paste_form_id("evil"),
            fields: vec![("source".to_owned(), SHORT.to_owned())],
        },
    );
    assert!(
        harness
            .send(&forged)
            .await
            .interaction()
            .content
            .starts_with("Only members")
    );
}

#[tokio::test]
async fn limits_on_programs() {
    let limited = CoreSettings {
        max_programs: 1,
        max_program_bytes: 60,
        ..settings()
    };
    let big = "10 PRINT \"A LONG LINE OF TEXT\"\n".repeat(3);
    let dir = crate::support::TempDir::new("program-limits");
    let mut harness = harness_with_files(
        crate::support::sqlite_storage(&dir).await,
        limited,
        &[("https://cdn.test/big.bas", big.as_bytes())],
    );
    let steps: Vec<(RequestKind, &str)> = vec![
        (add("one", ("code", text(SHORT))), "Installed `one`"),
        (
            add("two", ("code", text(SHORT))),
            "This server has 1 programs installed, the most it may have.",
        ),
        (add("one", ("code", text("10 PRINT 2"))), "Replaced `one`"),
        (
            add("one", ("code", text(&big))),
            "The listing is larger than 60 bytes, the most a program may have.",
        ),
        (
            add("one", ("file", file("big.bas", "https://cdn.test/big.bas"))),
            "I could not read the listing: the file is larger than 60 bytes.",
        ),
    ];
    for (kind, expected) in steps {
        let got = said(&mut harness, ALICE, kind.clone()).await;
        assert!(
            got.contains(expected),
            "{kind:?}:\n{got}\nlacks\n{expected}"
        );
    }
    // An attachment whose announced size is too large is not even fetched.
    let mut kind = add(
        "one",
        ("file", file("big.bas", "https://cdn.test/unknown.bas")),
    );
    if let RequestKind::Command(command) = &mut kind
        && let Some(OptionValue::Attachment { size, .. }) = command
            .options
            .iter_mut()
            .find(|o| o.name == "file")
            .map(|o| &mut o.value)
    {
        *size = 1_000_000;
    }
    let got = said(&mut harness, ALICE, kind).await;
    assert!(got.contains("larger than 60 bytes"), "{got}");
}

#[tokio::test]
async fn many_syntax_errors_fit_one_answer_with_a_file() {
    let mut harness = Harness::with_settings(settings()).await;
    let source: String = (1..=300)
        .map(|n| format!("{} PRINT \"A\" +\n", n * 10))
        .collect();
    let sent = send_as(&mut harness, ALICE, add("many", ("code", text(&source)))).await;
    let message = sent.interaction();
    assert!(
        message.content.starts_with(
            "`many` has 300 syntax errors:\n```\nline 10, column 15: expected an expression\n"
        ),
        "{}",
        message.content
    );
    assert!(message.content.chars().count() <= 2000);
    assert!(
        message
            .content
            .contains("more: all of them are in the attached file")
    );
    let attached = String::from_utf8(message.attachments[0].bytes.clone()).unwrap();
    assert_eq!(attached.lines().count(), 300);
    assert!(attached.ends_with("line 3000, column 17: expected an expression\n"));
    assert!(sent.button("Install anyway").is_some());
    // The confirmation is good for an hour.
    harness.clock.advance_ms(3_600_000);
    let late = said(
        &mut harness,
        ALICE,
        press(&sent.button("Install anyway").unwrap()),
    )
    .await;
    assert!(late.starts_with("That install has been confirmed, cancelled or has expired"));
    // The sweep forgets listings nobody confirmed.
    let Some((state_id, true)) = decode_confirm_id(&sent.button("Install anyway").unwrap()) else {
        panic!("an install button");
    };
    let again = send_as(&mut harness, ALICE, add("many", ("code", text(&source)))).await;
    let Some((fresh, true)) = decode_confirm_id(&again.button("Install anyway").unwrap()) else {
        panic!("an install button");
    };
    harness.clock.advance_ms(3_600_001);
    harness.core.sweep().await.unwrap();
    assert!(
        harness
            .storage
            .button_state(state_id)
            .await
            .unwrap()
            .is_none()
    );
    assert!(harness.storage.button_state(fresh).await.unwrap().is_none());
}

on_both_backends!(default_and_remove);
async fn default_and_remove(storage: Storage) {
    let mut harness = Harness::on(storage, settings(), 7);
    said(&mut harness, ALICE, add("short", ("code", text(SHORT)))).await;
    let steps: Vec<(i64, RequestKind, &str)> = vec![
        (
            BOB,
            command(
                "chargen",
                &["program", "default"],
                &[("name", text("short"))],
            ),
            "Only members with",
        ),
        (
            ALICE,
            command(
                "chargen",
                &["program", "default"],
                &[("name", text("nothing"))],
            ),
            "There is no program called `nothing` here.",
        ),
        (
            ALICE,
            command(
                "chargen",
                &["program", "default"],
                &[("name", text("SHORT"))],
            ),
            "`/chargen start` runs `short` here now.",
        ),
        (BOB, command("chargen", &["start"], &[]), "Started `short`"),
        (BOB, command("chargen", &["cancel"], &[]), "has ended"),
        (
            ALICE,
            command(
                "chargen",
                &["program", "remove"],
                &[("name", text("chargen"))],
            ),
            "`chargen` ships with Tavern and cannot be removed.",
        ),
        (
            ALICE,
            command(
                "chargen",
                &["program", "remove"],
                &[("name", text("short"))],
            ),
            "Removed `short`.",
        ),
        (
            ALICE,
            command(
                "chargen",
                &["program", "remove"],
                &[("name", text("short"))],
            ),
            "There is no program called `short` here.",
        ),
        // The default went back to the shipped program with it.
        (
            BOB,
            command("config", &["show"], &[]),
            "default generator program: `chargen` (shipped)",
        ),
        (
            BOB,
            command("chargen", &["start"], &[]),
            "Started `chargen`",
        ),
        (
            ALICE,
            command(
                "chargen",
                &["program", "default"],
                &[("name", text("plain"))],
            ),
            "`/chargen start` runs `plain` here now.",
        ),
        (
            ALICE,
            command("chargen", &["program", "default"], &[]),
            "`/chargen start` runs `chargen` here now.",
        ),
    ];
    for (user, kind, expected) in steps {
        let got = said(&mut harness, user, kind.clone()).await;
        assert!(
            got.contains(expected),
            "{kind:?}:\n{got}\nlacks\n{expected}"
        );
    }
    let in_dms = harness.request(ALICE, None, command("chargen", &["program", "list"], &[]));
    assert_eq!(
        harness.send(&in_dms).await.interaction().content,
        "That belongs to a server; use it there."
    );
}

/// The console user is the server's admin: installs from a local file, server
/// macros, a character in rolls.
#[tokio::test]
async fn the_console_installs_a_local_listing_and_keeps_server_macros() {
    use tavern::console::{Console, ConsoleIdentity, LineOutcome};
    let dir = crate::support::TempDir::new("console-admin");
    let listing = dir.path("dmps.bas");
    std::fs::write(&listing, BROKEN).unwrap();
    let storage = crate::support::sqlite_storage(&dir).await;
    let core = Core::new(
        storage.clone(),
        crate::doubles::engines(),
        settings(),
        Arc::new(tavern::core::limits::ManualClock::new(
            crate::harness::START_MS,
        )),
        Some(3),
    )
    .with_fetch(Arc::new(tavern::fetch::FileFetch));
    let identity = ConsoleIdentity {
        user: tavern::core::User {
            id: 1,
            name: "tester".to_owned(),
        },
        guild_id: 1,
        channel_id: 1,
        lang: tavern::i18n::Lang::En,
    };
    let mut console = Console::new(Arc::new(core), identity);
    let mut say = async |line: &str| match console.line(line).await {
        LineOutcome::Output(text) => text,
        LineOutcome::Quit => "<quit>".to_owned(),
    };
    let added = say(&format!(
        "/chargen program add dmps file:{}",
        listing.display()
    ))
    .await;
    assert!(
        added.starts_with(
            "(only you) `dmps` has 2 syntax errors:\nline 50, column 19: expected an expression\n"
        ),
        "{added}"
    );
    assert!(
        added.ends_with("[buttons: Install anyway | Cancel] (/press LABEL)\n"),
        "{added}"
    );
    let installed = say("/press Install anyway").await;
    assert!(
        installed.starts_with(
            "(edited) (only you) Installed `dmps` (6 lines, 2 syntax errors accepted)."
        ),
        "{installed}"
    );
    let missing = say("/chargen program add other file:/nonexistent/other.bas").await;
    assert!(missing.starts_with("(only you) I could not read the listing: the file could not be read: /nonexistent/other.bas: "), "{missing}");
    assert!(
        say("/chargen program default dmps")
            .await
            .contains("runs `dmps` here now")
    );
    let started = say("/chargen start").await;
    assert!(
        started.starts_with("(only you) Started `dmps`."),
        "{started}"
    );
    let finished = say("Mira").await;
    assert!(finished.contains("**Mira** is ready: HP 3"), "{finished}");
    let saved = say("/macro set hp expr:@HP * 10 scope:server").await;
    assert!(
        saved.starts_with("(only you) Saved server macro `$hp`"),
        "{saved}"
    );
    assert!(
        say("/character use Mira")
            .await
            .starts_with("(only you) You play **Mira** here now.")
    );
    let rolled = say("/roll hp").await;
    assert!(
        rolled.starts_with("`$hp` as **Mira**: (3 \\* 10) = **30**"),
        "{rolled}"
    );
    let role = say("/config macro-role role:<@&77>").await;
    assert!(role.contains("<@&77>"), "{role}");
    let shown = say("/config show").await;
    assert!(
        shown.contains("- default generator program: `dmps`"),
        "{shown}"
    );
    storage.close().await;
}
