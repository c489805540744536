//! Generator programs server admins install, through serenity: `.bas` attachments
//! downloaded from the (fake) CDN, a listing pasted in a modal, refusals for members
//! without the permission, every syntax error with its line in one answer and the
//! "Install anyway" confirmation, and an installed program run to a stored character.

use fake_discord::{Opt, SentMessage};

use crate::e2e::support::{
    ALICE, BOB, GUILD, How, Setup, Tavern, admin, ask, ask_sub, assert_has, assert_starts, bob,
    button_id, suggestions,
};
use crate::programs::{BROKEN, BROKEN_ERRORS};

const SHORT: &str = "10 INPUT \"NAME\"; N$\n20 RECORD \"NAME\", N$, \"HP\", 7\n";

/// `/chargen program ACTION options…` as `who`.
async fn program(
    tavern: &Tavern,
    who: &fake_discord::Invoker,
    action: &str,
    options: Vec<Opt>,
) -> SentMessage {
    let answer = ask(
        tavern,
        who,
        "chargen",
        vec![Opt::group(
            "program",
            vec![Opt::subcommand(action, options)],
        )],
    )
    .await;
    assert!(answer.is_ephemeral(), "{}", answer.content);
    answer
}

fn named(name: &str) -> Vec<Opt> {
    vec![Opt::string("name", name)]
}

/// Bob's character Udo, which must be stored.
async fn bobs_udo(tavern: &Tavern) -> tavern::storage::CharacterRow {
    tavern
        .storage
        .character_named(BOB as i64, GUILD as i64, "Udo")
        .await
        .unwrap()
        .expect("Bob's character is stored")
}

/// `/chargen program add name file:` with a file served by the fake CDN.
async fn add_file(
    tavern: &Tavern,
    who: &fake_discord::Invoker,
    name: &str,
    filename: &str,
    listing: &str,
) -> SentMessage {
    let file = tavern.fake.add_attachment(filename, listing);
    program(
        tavern,
        who,
        "add",
        vec![Opt::string("name", name), Opt::attachment("file", &file)],
    )
    .await
}

/// Presses a button of a private answer and returns the (private) answer to that.
async fn press(
    tavern: &Tavern,
    who: &fake_discord::Invoker,
    message: &SentMessage,
    label: &str,
) -> SentMessage {
    let pressed = tavern.press(who, message, &button_id(message, label));
    let answer = tavern.answer(pressed).await;
    assert!(answer.is_ephemeral(), "{}", answer.content);
    answer
}

/// Presses `label` on the private install confirmation `message`, which becomes the
/// outcome in place: the buttons are gone, so they cannot be pressed again.
async fn confirm(
    tavern: &Tavern,
    who: &fake_discord::Invoker,
    message: &SentMessage,
    label: &str,
) -> SentMessage {
    tavern.press(who, message, &button_id(message, label));
    let updated = tavern
        .fake
        .wait_message(|sent| {
            sent.id == message.id && sent.content != message.content && sent.components.is_empty()
        })
        .await
        .expect("the confirmation updated in place");
    assert!(updated.is_ephemeral(), "{}", updated.content);
    updated
}

#[tokio::test(flavor = "multi_thread")]
async fn only_admins_install_and_an_installed_program_runs_to_a_stored_character() {
    let mut setup = Setup::busy();
    setup.config.basic.max_program_bytes = Some(2_000);
    let tavern = Tavern::start_with(setup).await;
    let refusal = "Only members with the Manage Server permission (or the role a server admin \
                   sets with `/config macro-role`) can install, remove or choose generator \
                   programs.";
    let refused = add_file(&tavern, &bob(), "short", "short.bas", SHORT).await;
    assert_eq!(refused.content, refusal);
    for (action, options) in [("remove", named("short")), ("default", named("short"))] {
        assert_eq!(
            program(&tavern, &bob(), action, options).await.content,
            refusal
        );
    }
    assert!(
        tavern
            .storage
            .installed_program(GUILD as i64, "short")
            .await
            .unwrap()
            .is_none()
    );

    // (name, file name, listing, what the answer starts with)
    let too_long = format!("10 REM {}\n", "X".repeat(2_100));
    let cases = [
        (
            "short",
            "short.bas",
            SHORT,
            "Installed `short` (2 lines). Start it with `/chargen start program:short`",
        ),
        ("short", "SHORT.BAS", SHORT, "Replaced `short` (2 lines)"),
        (
            "nope",
            "refused.bas",
            "10 PRINT 1\n20 OPEN \"X\" FOR OUTPUT AS #1\n",
            "`nope` was not installed: OPEN is not allowed here (file and device I/O) in 20.",
        ),
        (
            "text",
            "notes.txt",
            SHORT,
            "`notes.txt` is not a `.bas` listing.",
        ),
        (
            "big",
            "big.bas",
            too_long.as_str(),
            "The listing is larger than 2000 bytes, the most a program may have.",
        ),
        (
            "chargen",
            "chargen.bas",
            SHORT,
            "`chargen` is the name of a program that ships with Tavern; choose another.",
        ),
        (
            "bad.name",
            "bad.bas",
            SHORT,
            "`bad.name` cannot be a program name",
        ),
    ];
    for (name, filename, listing, expected) in cases {
        let answer = add_file(&tavern, &admin(), name, filename, listing).await;
        assert!(
            answer.content.starts_with(expected),
            "{}\nshould start with\n{expected}",
            answer.content
        );
    }
    // The oversized file was refused by its size, before any download.
    let big = tavern
        .fake
        .requests()
        .into_iter()
        .filter(|request| request.path.contains("big.bas"))
        .count();
    assert_eq!(big, 0, "the oversized listing was not downloaded");

    // Anyone may list; autocomplete offers installed programs.
    let listed = program(&tavern, &bob(), "list", vec![]).await;
    assert_has(
        &listed,
        "- `short`: 2 lines, 50 bytes, installed by **Alice** on 2026-01-01 00:00 UTC",
    );
    let offered = suggestions(
        &tavern,
        &bob(),
        "chargen",
        vec![Opt::subcommand(
            "start",
            vec![Opt::string("program", "sh").focused()],
        )],
    )
    .await;
    assert_eq!(offered, [("short".to_owned(), "short".to_owned())]);

    // The server's default runs without a name, to a stored character.
    let chosen = program(&tavern, &admin(), "default", named("short")).await;
    assert_eq!(chosen.content, "`/chargen start` runs `short` here now.");
    assert_eq!(tavern.chargen_run(&bob(), None, How::Modal).await, 1);
    let udo = bobs_udo(&tavern).await;
    assert_eq!(udo.program, "short");
    assert!(udo.fields.contains("\"HP\",\"7\""), "{}", udo.fields);

    // Removed: `/chargen start program:short` finds nothing to run.
    let removed = program(&tavern, &admin(), "remove", named("short")).await;
    assert_starts(&removed, "Removed `short`.");
    let start = ask_sub(
        &tavern,
        &admin(),
        "chargen",
        "start",
        vec![Opt::string("program", "short")],
    )
    .await;
    assert!(start.is_ephemeral());
    assert!(!start.content.starts_with("Started"), "{}", start.content);
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn syntax_errors_are_listed_with_their_lines_and_installed_only_when_confirmed() {
    let tavern = Tavern::start_with(Setup::busy()).await;
    let errors = add_file(&tavern, &admin(), "broken", "broken.bas", BROKEN).await;
    assert_eq!(errors.content, BROKEN_ERRORS);
    let buttons = errors.custom_ids();
    assert_eq!(buttons.len(), 2);
    assert!(buttons.iter().all(|id| id.len() <= 100));
    assert!(
        tavern
            .storage
            .installed_program(GUILD as i64, "broken")
            .await
            .unwrap()
            .is_none()
    );

    let cancelled = confirm(&tavern, &admin(), &errors, "Cancel").await;
    assert_eq!(cancelled.content, "`broken` was not installed.");
    let again = press(&tavern, &admin(), &errors, "Install anyway").await;
    assert_starts(
        &again,
        "That install has been confirmed, cancelled or has expired",
    );

    // A member without the permission cannot confirm; an admin can.
    let errors = add_file(&tavern, &admin(), "broken", "broken.bas", BROKEN).await;
    let refused = press(&tavern, &bob(), &errors, "Install anyway").await;
    assert_starts(&refused, "Only members with");
    let installed = confirm(&tavern, &admin(), &errors, "Install anyway").await;
    assert_starts(
        &installed,
        "Installed `broken` (6 lines, 2 syntax errors accepted).",
    );

    // The broken lines never run: Bob's run by replies ends with a character.
    tavern
        .chargen_run(&bob(), Some("broken"), How::Reply { ping: true })
        .await;
    let stored = bobs_udo(&tavern).await;
    assert_eq!(stored.program, "broken");

    // Too many errors for one message: all of them in an attached file.
    let many: String = (1..=300)
        .map(|line| format!("{} PRINT \"X\" +\n", line * 10))
        .collect();
    let errors = add_file(&tavern, &admin(), "many", "many.bas", &many).await;
    assert_starts(
        &errors,
        "`many` has 300 syntax errors:\n```\nline 10, column 15:",
    );
    assert!(errors.content.len() <= 2_000);
    assert_eq!(errors.attachments.len(), 1);
    assert_eq!(errors.attachments[0].filename, "many-syntax-errors.txt");
    // What Discord's CDN serves of the uploaded file.
    let attached = reqwest::get(&errors.attachments[0].url)
        .await
        .expect("the CDN answers")
        .text()
        .await
        .unwrap();
    assert_eq!(attached.lines().count(), 300);
    assert!(
        attached.ends_with("line 3000, column 17: expected an expression\n"),
        "{attached}"
    );
    // Confirmed, the message keeps its file however fast the answer comes (a fast
    // update lists the files to keep; Discord removes the ones it leaves out).
    let installed = confirm(&tavern, &admin(), &errors, "Install anyway").await;
    assert_starts(&installed, "Installed `many`");
    assert_eq!(
        installed.attachments.len(),
        1,
        "{:?}",
        installed.attachments
    );
    tavern.fake.assert_no_violations();
    tavern.stop().await;
}

/// `/chargen program add name:pasted` without a file or code: the paste form.
fn paste(tavern: &Tavern, who: &fake_discord::Invoker) -> u64 {
    let add = Opt::subcommand("add", vec![Opt::string("name", "pasted")]);
    tavern.slash(who, "chargen", vec![Opt::group("program", vec![add])])
}

#[tokio::test(flavor = "multi_thread")]
async fn a_listing_pasted_in_the_modal_is_installed() {
    let tavern = Tavern::start_with(Setup::busy()).await;
    // A member without the permission gets the refusal, not the form.
    let refused = tavern.callback(paste(&tavern, &bob())).await;
    assert_eq!(refused.kind, 4);
    assert!(crate::e2e::support::is_ephemeral(&refused));

    let form = tavern.callback(paste(&tavern, &admin())).await;
    assert_eq!(
        form.kind, 9,
        "the paste form is the first response: {form:?}"
    );
    let modal_id = form.data["custom_id"].as_str().unwrap().to_owned();
    let input = &form.data["components"][0]["components"][0];
    assert_eq!(input["style"], 2, "a paragraph field");
    assert!(input["max_length"].as_u64().unwrap() <= 4_000);
    let field = input["custom_id"].as_str().unwrap().to_owned();
    let pasted = format!("```basic\n{SHORT}```");
    let submit = tavern.fake.interaction_modal_submit(
        &admin(),
        &modal_id,
        &[(field.as_str(), pasted.as_str())],
        None,
    );
    let submitted = tavern.fake.dispatch_interaction(submit);
    let installed = tavern.answer(submitted).await;
    assert!(installed.is_ephemeral());
    assert_starts(&installed, "Installed `pasted` (2 lines).");
    let stored = tavern
        .storage
        .installed_programs(GUILD as i64)
        .await
        .unwrap();
    assert_eq!(stored.len(), 1);
    assert_eq!(
        (stored[0].name.as_str(), stored[0].installed_by),
        ("pasted", ALICE as i64)
    );

    // The form submitted by someone who lost the permission meanwhile is refused.
    let submit =
        tavern
            .fake
            .interaction_modal_submit(&bob(), &modal_id, &[(field.as_str(), SHORT)], None);
    let refused = tavern
        .answer(tavern.fake.dispatch_interaction(submit))
        .await;
    assert_starts(&refused, "Only members with");
    tavern.stop().await;
}
