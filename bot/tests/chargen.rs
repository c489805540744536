//! `/chargen` sessions and `/character` through the core: every route of an answer,
//! stale and foreign buttons, expiry, long output, errors, restarts.

use tavern::core::chargen::ChargenId;
use tavern::core::{OptionValue, Reply, RequestKind};

use crate::harness::{ALICE, BOB, GUILD, Harness, Hold, Sent, command, text};

fn start(program: Option<&str>) -> RequestKind {
    match program {
        Some(name) => command("chargen", &["start"], &[("program", text(name))]),
        None => command("chargen", &["start"], &[]),
    }
}

fn reply_to(message: i64, answer: &str) -> RequestKind {
    RequestKind::MessageReply {
        message_id: message + 1_000_000,
        to_message: message,
        text: answer.to_owned(),
    }
}

fn modal(sent: &Sent) -> &tavern::core::Modal {
    sent.replies
        .iter()
        .find_map(|reply| match reply {
            Reply::Modal(modal) => Some(modal),
            _ => None,
        })
        .expect("a modal")
}

fn edits(sent: &Sent) -> Vec<String> {
    sent.replies
        .iter()
        .filter_map(|reply| match reply {
            Reply::Edit { message, .. } => Some(message.content.clone()),
            _ => None,
        })
        .collect()
}

/// The last channel message: the prompt (or the summary at the end).
fn last_channel_text(sent: &Sent) -> String {
    sent.channel_messages()
        .last()
        .map(|message| message.content.clone())
        .unwrap_or_default()
}

#[tokio::test]
async fn a_whole_run_answered_by_replies() {
    let mut harness = Harness::new().await;
    let started = harness.alice(start(None)).await;
    let notice = started.interaction();
    assert!(notice.ephemeral);
    assert!(notice.content.starts_with("Started `chargen`."));
    let pages = started.channel_messages();
    assert_eq!(pages.len(), 1);
    assert_eq!(
        pages[0].content,
        "```\nWELCOME TO THE TEST GENERATOR\n@everyone <@123> cannot ping\nWHAT IS YOUR NAME? \n```"
    );
    assert!(started.button("Answer").is_some());
    let prompt = started.prompt_message.unwrap();

    let named = harness.alice(reply_to(prompt, "Udo")).await;
    assert!(
        !named
            .replies
            .iter()
            .any(|reply| matches!(reply, Reply::Interaction(_)))
    );
    assert_eq!(
        edits(&named),
        [
            "```\nWELCOME TO THE TEST GENERATOR\n@everyone <@123> cannot ping\nWHAT IS YOUR NAME? Udo\n```"
        ]
    );
    // CHR$(12) starts a new message.
    let texts: Vec<String> = named
        .channel_messages()
        .iter()
        .map(|m| m.content.clone())
        .collect();
    assert_eq!(texts.len(), 2);
    assert_eq!(texts[0], "```\nHELLO Udo\n```");
    assert!(texts[1].starts_with("```\nSTRENGTH 17\nCLASS (1=FIGHTER"));
    let prompt = named.prompt_message.unwrap();

    let classed = harness.alice(reply_to(prompt, "1")).await;
    assert_eq!(last_channel_text(&classed), "```\nGENDER? \n```");
    let prompt = classed.prompt_message.unwrap();

    let finished = harness
        .alice(reply_to(prompt, "M\nignored second line"))
        .await;
    assert_eq!(edits(&finished), ["```\nGENDER? M\n```"]);
    assert!(finished.button("Answer").is_none());
    assert_eq!(finished.prompt_message, None);
    let texts: Vec<String> = finished
        .channel_messages()
        .iter()
        .map(|m| m.content.clone())
        .collect();
    assert_eq!(
        texts,
        [
            "```\nFAREWELL Udo\n```".to_owned(),
            "**Udo** is ready: CLASS 1 · GENDER M · STR 17 · GOLD 120 GP\n\
             See the sheet with `/character show Udo`.\n\
             `chargen` has ended. **Udo** was stored.\n\
             Roll with its fields, e.g. `/roll 1d20 + @STR_MOD` (`/character show` lists \
             them). A roll uses the character you chose with `/character use NAME`, else \
             your newest."
                .to_owned(),
        ]
    );

    assert!(
        harness
            .storage
            .session_of(ALICE, GUILD)
            .await
            .unwrap()
            .is_none()
    );
    let udo = harness
        .storage
        .character_named(ALICE, GUILD, "udo")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(udo.program, "chargen");
    assert_eq!(udo.gold, 120);
    assert_eq!(
        udo.fields,
        r#"[["NAME","Udo"],["CLASS","1"],["GENDER","M"],["STR","17"],["GOLD","120 GP"]]"#
    );
    assert!(
        udo.transcript
            .starts_with("WELCOME TO THE TEST GENERATOR\n")
    );
    assert!(
        udo.transcript
            .contains("WHAT IS YOUR NAME? Udo\nHELLO Udo\n\x0cSTRENGTH 17\n")
    );
    assert!(udo.transcript.ends_with("GENDER? M\nFAREWELL Udo\n"));
}

#[tokio::test]
async fn a_whole_run_answered_with_the_button_and_its_modal() {
    let mut harness = Harness::new().await;
    let mut sent = harness.alice(start(None)).await;
    for (answer, label) in [
        ("Udo", "WHAT IS YOUR NAME?"),
        ("2", "CLASS (1=FIGHTER 2=MAGIC USER 3=CLERIC…"),
        ("F", "GENDER?"),
    ] {
        let custom_id = sent.button("Answer").unwrap();
        let opened = harness
            .alice(RequestKind::Button {
                custom_id,
                message_id: sent.prompt_message.unwrap(),
            })
            .await;
        assert_eq!(opened.replies.len(), 1);
        let form = modal(&opened).clone();
        assert_eq!(form.title, "Character generator: chargen");
        assert_eq!(form.inputs[0].label, label);
        assert!(form.inputs[0].label.chars().count() <= 45);
        assert_eq!(form.inputs[0].max_length, 255);
        let field = form.inputs[0].custom_id.clone();
        sent = harness
            .alice(RequestKind::Modal {
                custom_id: form.custom_id,
                fields: vec![(field, answer.to_owned())],
            })
            .await;
        assert_eq!(edits(&sent).len(), 1);
    }
    assert!(
        sent.all_text()
            .contains("**Udo** is ready: CLASS 2 · GENDER F")
    );
    assert!(
        harness
            .storage
            .character_named(ALICE, GUILD, "Udo")
            .await
            .unwrap()
            .is_some()
    );
}

#[tokio::test]
async fn a_whole_run_answered_by_command() {
    let mut harness = Harness::new().await;
    harness.alice(start(None)).await;
    for answer in ["Rex", "3", "M"] {
        let sent = harness
            .alice(command("chargen", &["answer"], &[("text", text(answer))]))
            .await;
        let ack = sent.interaction();
        assert!(ack.ephemeral);
        assert_eq!(ack.content, format!("Answered `{answer}`."));
    }
    let rex = harness
        .storage
        .character_named(ALICE, GUILD, "rex")
        .await
        .unwrap();
    assert!(rex.is_some());
}

#[tokio::test]
async fn stale_and_foreign_answers_are_refused() {
    let mut harness = Harness::new().await;
    let started = harness.alice(start(None)).await;
    let old_button = started.button("Answer").unwrap();
    let old_prompt = started.prompt_message.unwrap();
    let Some(ChargenId::Answer { session_id, step }) = ChargenId::decode(&old_button) else {
        panic!("not a chargen button: {old_button}");
    };
    // Bob can neither press Alice's button nor answer her prompt.
    let bob_press = harness.request(
        BOB,
        Some(GUILD),
        RequestKind::Button {
            custom_id: old_button.clone(),
            message_id: old_prompt,
        },
    );
    let refused = harness.send(&bob_press).await;
    assert!(refused.interaction().ephemeral);
    assert!(
        refused
            .interaction()
            .content
            .contains("character generator of Alice")
    );
    let bob_reply = harness.request(BOB, Some(GUILD), reply_to(old_prompt, "Mallory"));
    assert!(harness.send(&bob_reply).await.replies.is_empty());

    harness.alice(reply_to(old_prompt, "Udo")).await;
    // The first prompt is answered: its button, its modal and replies to it are stale.
    let pressed = harness
        .alice(RequestKind::Button {
            custom_id: old_button,
            message_id: old_prompt,
        })
        .await;
    assert_eq!(
        pressed.interaction().content,
        "That question has been answered already."
    );
    let submitted = harness
        .alice(RequestKind::Modal {
            custom_id: ChargenId::Modal { session_id, step }.encode(),
            fields: vec![("answer".to_owned(), "Again".to_owned())],
        })
        .await;
    assert_eq!(
        submitted.interaction().content,
        "That question has been answered already."
    );
    assert!(
        harness
            .alice(reply_to(old_prompt, "Again"))
            .await
            .replies
            .is_empty()
    );
    let row = harness
        .storage
        .session_of(ALICE, GUILD)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(row.step, 1);
    // Replies to messages that are no prompt get no answer at all.
    assert!(
        harness
            .alice(reply_to(4242, "hello"))
            .await
            .replies
            .is_empty()
    );
}

#[tokio::test]
async fn one_session_per_user_per_server_and_one_in_dms() {
    let mut harness = Harness::new().await;
    harness.alice(start(None)).await;
    let again = harness.alice(start(None)).await;
    assert!(
        again
            .interaction()
            .content
            .starts_with("You already have a character generator")
    );
    assert!(again.channel_messages().is_empty());
    let in_dms = harness.request(ALICE, None, start(None));
    let dm = harness.send(&in_dms).await;
    assert!(dm.interaction().content.starts_with("Started"));
    let bob = harness.request(BOB, Some(GUILD), start(None));
    assert!(
        harness
            .send(&bob)
            .await
            .interaction()
            .content
            .starts_with("Started")
    );
    assert_eq!(harness.storage.count_sessions().await.unwrap(), 3);
    assert_eq!(
        harness
            .storage
            .session_of(ALICE, 0)
            .await
            .unwrap()
            .unwrap()
            .channel_id,
        711
    );
}

#[tokio::test]
async fn status_and_cancel() {
    let mut harness = Harness::new().await;
    let none = harness.alice(command("chargen", &["status"], &[])).await;
    assert!(
        none.interaction()
            .content
            .starts_with("You have no character generator running")
    );
    harness.alice(start(None)).await;
    harness.clock.advance_ms(90_000);
    let status = harness.alice(command("chargen", &["status"], &[])).await;
    let message = status.interaction();
    assert!(message.ephemeral);
    assert!(
        message
            .content
            .contains("started 1 min ago and has had no answer yet"),
        "{}",
        message.content
    );
    assert!(message.content.contains("WHAT IS YOUR NAME? "));
    assert!(
        message.content.contains("It ends in 23 h 58 min"),
        "{}",
        message.content
    );
    assert!(status.button("Answer").is_some());
    let cancelled = harness.alice(command("chargen", &["cancel"], &[])).await;
    assert!(
        cancelled
            .interaction()
            .content
            .contains("has ended. Nothing was stored.")
    );
    assert_eq!(edits(&cancelled).len(), 1);
    assert!(edits(&cancelled)[0].ends_with("```\n(cancelled)"));
    assert!(
        harness
            .storage
            .session_of(ALICE, GUILD)
            .await
            .unwrap()
            .is_none()
    );
    let again = harness.alice(command("chargen", &["cancel"], &[])).await;
    assert!(
        again
            .interaction()
            .content
            .starts_with("You have no character generator")
    );
}

#[tokio::test]
async fn idle_sessions_expire_with_a_notice() {
    let mut harness = Harness::new().await;
    harness.alice(start(None)).await;
    harness.clock.advance_ms(24 * 3_600_000 - 1);
    assert!(harness.core.sweep().await.unwrap().is_empty());
    harness.clock.advance_ms(1);
    let notices = harness.core.sweep().await.unwrap();
    crate::harness::check_rules(&notices);
    assert_eq!(notices.len(), 2);
    let Reply::Channel {
        channel_id,
        message,
    } = &notices[0]
    else {
        panic!("a channel notice first: {notices:?}");
    };
    assert_eq!(*channel_id, crate::harness::CHANNEL);
    assert_eq!(
        message.content,
        "The character generator of Alice (`chargen`) ended after 24 h without an answer. \
         Nothing was stored. `/chargen start` begins a new one."
    );
    let Reply::Edit { message, .. } = &notices[1] else {
        panic!("then the prompt without its button: {notices:?}");
    };
    assert!(message.content.ends_with("(expired)") && message.components.is_empty());
    assert!(harness.core.sweep().await.unwrap().is_empty());
    let late = harness
        .alice(command("chargen", &["answer"], &[("text", text("Udo"))]))
        .await;
    assert!(
        late.interaction()
            .content
            .starts_with("You have no character generator")
    );
}

#[tokio::test]
async fn an_expired_session_met_before_the_sweep_ends_too() {
    let mut harness = Harness::new().await;
    let started = harness.alice(start(None)).await;
    harness.clock.advance_ms(25 * 3_600_000);
    let late = harness
        .alice(reply_to(started.prompt_message.unwrap(), "Udo"))
        .await;
    assert!(
        late.all_text()
            .contains("ended after 24 h without an answer")
    );
    assert!(late.all_text().contains("had expired"));
    let fresh = harness.alice(start(None)).await;
    assert!(fresh.interaction().content.starts_with("Started"));
}

#[tokio::test]
async fn long_output_is_split_and_the_excess_attached() {
    let mut harness = Harness::new().await;
    let started = harness.alice(start(Some("long"))).await;
    let pages = started.channel_messages();
    assert_eq!(pages.len(), 6);
    assert_eq!(pages[0].attachments.len(), 1);
    assert_eq!(pages[0].attachments[0].filename, "output.txt");
    let attached = String::from_utf8(pages[0].attachments[0].bytes.clone()).unwrap();
    assert!(attached.starts_with("0000 A LINE OF OUTPUT"));
    assert!(attached.ends_with("NAME? "));
    for page in &pages[1..] {
        assert!(page.content.starts_with("```\n") && page.content.ends_with("\n```"));
        assert!(page.content.chars().count() < 2000);
    }
    assert!(
        pages[5]
            .content
            .ends_with("0399 A LINE OF OUTPUT THAT FILLS THE SCREEN\nNAME? \n```")
    );
    let finished = harness
        .alice(reply_to(started.prompt_message.unwrap(), "Tess"))
        .await;
    assert!(finished.all_text().contains("**Tess** is ready"));
}

#[tokio::test]
async fn program_errors_end_the_session_and_store_nothing() {
    let mut harness = Harness::new().await;
    let started = harness.alice(start(Some("crash"))).await;
    let crashed = harness
        .alice(reply_to(started.prompt_message.unwrap(), "Udo"))
        .await;
    assert_eq!(
        crashed.interaction().content,
        "`crash` stopped with an error: Subscript out of range in 4350. Nothing was stored."
    );
    assert_eq!(
        last_channel_text(&crashed),
        "```\nALMOST\nSubscript out of range in 4350\n```"
    );
    assert!(
        harness
            .storage
            .session_of(ALICE, GUILD)
            .await
            .unwrap()
            .is_none()
    );

    let looped = harness.alice(start(Some("loop"))).await;
    assert!(looped.interaction().content.contains(
        "stopped at a limit of the sandbox: Step limit reached (100000 steps per input) in 100"
    ));
    assert_eq!(
        last_channel_text(&looped),
        "```\nSPINNING\nStep limit reached (100000 steps per input) in 100\n```"
    );

    let refused = harness.alice(start(Some("refused"))).await;
    assert_eq!(refused.replies.len(), 1);
    assert!(
        refused
            .interaction()
            .content
            .contains("`refused` cannot run: OPEN is not allowed here (file and device I/O) in 20")
    );
    let retyped = harness.alice(start(Some("retyped"))).await;
    assert!(retyped.interaction().content.contains(
        "`retyped` cannot run: DEFINT is not allowed here (a name it types is used here \
         with a type that depends on the way the run came) in 20"
    ));
    assert!(
        harness
            .storage
            .characters_of(ALICE, GUILD)
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(harness.storage.count_sessions().await.unwrap(), 0);
}

#[tokio::test]
async fn programs_without_questions_or_records_still_make_characters() {
    let mut harness = Harness::new().await;
    let instant = harness.alice(start(Some("INSTANT"))).await;
    assert!(
        instant
            .all_text()
            .contains("**Quick** is ready: HP 4\n**Quick 2** is ready: HP 5")
    );
    harness.clock.advance_ms(1_000);
    let started = harness.alice(start(Some("plain"))).await;
    let plain = harness
        .alice(reply_to(started.prompt_message.unwrap(), "Rex"))
        .await;
    // No RECORD: the variables; the name is what the program asked for after "NAME".
    assert!(plain.all_text().contains("**Rex** is ready: N$ Rex"));
    let names: Vec<String> = harness
        .storage
        .characters_of(ALICE, GUILD)
        .await
        .unwrap()
        .into_iter()
        .map(|row| row.name)
        .collect();
    assert_eq!(names, ["Quick", "Quick 2", "Rex"]);
    let unknown = harness.alice(start(Some("nope"))).await;
    assert_eq!(
        unknown.interaction().content,
        "There is no generator program called `nope` here. Programs: `chargen`, `long`, \
         `crash`, `loop`, `refused`, `retyped`, `instant`, `plain`."
    );
}

/// The core on a database in `dir`, started as the `nth` (1, then 2 after a restart).
async fn core_on(dir: &crate::support::TempDir, nth: u64) -> Harness {
    let storage = crate::support::sqlite_storage(dir).await;
    Harness::on(storage, tavern::core::CoreSettings::default(), nth)
}

/// The core restarted: the first one goes and its database is closed.
async fn restart(first: Harness, dir: &crate::support::TempDir) -> Harness {
    let storage = first.storage.clone();
    drop(first);
    storage.close().await;
    core_on(dir, 2).await
}

#[tokio::test]
async fn a_restarted_core_resumes_from_the_database() {
    let dir = crate::support::TempDir::new("restart");
    let mut first = core_on(&dir, 1).await;
    let started = first.alice(start(None)).await;
    let named = first
        .alice(reply_to(started.prompt_message.unwrap(), "Udo"))
        .await;
    let prompt = named.prompt_message.unwrap();
    let mut second = restart(first, &dir).await;
    let classed = second.alice(reply_to(prompt, "4")).await;
    assert_eq!(last_channel_text(&classed), "```\nGENDER? \n```");
    second
        .alice(reply_to(classed.prompt_message.unwrap(), "F"))
        .await;
    let udo = second
        .storage
        .character_named(ALICE, GUILD, "Udo")
        .await
        .unwrap()
        .unwrap();
    assert!(udo.fields.contains(r#"["CLASS","4"]"#));
}

// A listing that waits for keys (INPUT$ inside PRINT USING, a loop polling
// INKEY$) and pads with LSET: each wait is a prompt answered by a reply, and a
// core restarted while INPUT$ waits in the middle of its statement goes on
#[tokio::test]
async fn a_program_waiting_for_keys_resumes_after_a_restart() {
    const SOURCE: &str = "10 PRINT \"NAME\";: INPUT N$\n\
        20 C$ = SPACE$(8): LSET C$ = N$ + \"!\"\n\
        30 PRINT \"PRESS TWO KEYS\"\n\
        40 PRINT USING \"& / &\"; C$; INPUT$(2)\n\
        50 PRINT \"ANY KEY\"\n\
        60 K$ = INKEY$: IF K$ = \"\" THEN 60\n\
        70 RECORD \"NAME\", N$, \"CLASS\", C$, \"KEY\", K$\n";
    let dir = crate::support::TempDir::new("keys");
    let mut first = core_on(&dir, 1).await;
    first
        .storage
        .install_program(&program(1, "Keys", SOURCE, "hk"))
        .await
        .unwrap();
    let started = first.alice(start(Some("keys"))).await;
    let named = first
        .alice(reply_to(started.prompt_message.unwrap(), "Ida"))
        .await;
    // PRINT USING prints its first value before INPUT$ waits in the second
    assert_eq!(
        last_channel_text(&named),
        "```\nPRESS TWO KEYS\nIda!     / \n```"
    );
    // one key of two: INPUT$ waits on, in the middle of the statement
    let one = first
        .alice(reply_to(named.prompt_message.unwrap(), "x"))
        .await;
    // nothing new printed: the line so far is the prompt again
    assert_eq!(last_channel_text(&one), "```\nIda!     / \n```");
    let prompt = one.prompt_message.unwrap();
    let mut second = restart(first, &dir).await;
    let keyed = second.alice(reply_to(prompt, "y")).await;
    assert_eq!(last_channel_text(&keyed), "```\nxy\nANY KEY\n```");
    second
        .alice(reply_to(keyed.prompt_message.unwrap(), "go"))
        .await;
    let ida = second
        .storage
        .character_named(ALICE, GUILD, "Ida")
        .await
        .unwrap()
        .unwrap();
    assert!(
        ida.fields.contains(r#"["CLASS","Ida!    "]"#),
        "{}",
        ida.fields
    );
    assert!(ida.fields.contains(r#"["KEY","g"]"#), "{}", ida.fields);
}

fn program(id: i64, name: &str, source: &str, hash: &str) -> tavern::storage::NewProgram {
    tavern::storage::NewProgram {
        id,
        guild_id: GUILD,
        name: name.to_owned(),
        source: source.to_owned(),
        source_hash: hash.to_owned(),
        installed_by: ALICE,
        now: 0,
        ..Default::default()
    }
}

#[tokio::test]
async fn installed_programs_run_and_changed_programs_do_not_resume() {
    let mut harness = Harness::new().await;
    harness
        .storage
        .install_program(&program(
            1,
            "Short",
            "10 INPUT \"NAME\"; N$\n20 RECORD \"NAME\", N$\n",
            "h1",
        ))
        .await
        .unwrap();
    let started = harness.alice(start(Some("short"))).await;
    assert!(started.interaction().content.starts_with("Started `Short`"));
    harness
        .storage
        .install_program(&program(2, "short", "10 INPUT \"NAME\"; N$\n", "h2"))
        .await
        .unwrap();
    let changed = harness
        .alice(reply_to(started.prompt_message.unwrap(), "Udo"))
        .await;
    assert!(
        changed
            .interaction()
            .content
            .contains("has changed or was removed")
    );
    assert!(
        harness
            .storage
            .session_of(ALICE, GUILD)
            .await
            .unwrap()
            .is_none()
    );
    harness
        .storage
        .set_default_program(GUILD, Some("short"), ALICE, 0)
        .await
        .unwrap();
    let default = harness.alice(start(None)).await;
    assert!(default.interaction().content.starts_with("Started `short`"));
}

#[tokio::test]
async fn characters_are_listed_shown_and_deleted() {
    let mut harness = Harness::new().await;
    let list = harness.alice(command("character", &["list"], &[])).await;
    assert!(
        list.interaction()
            .content
            .starts_with("You have no characters here yet.")
    );
    harness.alice(start(Some("instant"))).await;
    harness.clock.advance_ms(2 * 3_600_000);
    let list = harness.alice(command("character", &[], &[])).await;
    assert_eq!(
        list.interaction().content,
        "Your characters here (2):\n- **Quick** (instant, made 2 h ago)\n- **Quick 2** (instant, made 2 h ago)"
    );
    let show = harness
        .alice(command(
            "character",
            &["show"],
            &[("name", text("QUICK 2"))],
        ))
        .await;
    let sheet = show.interaction();
    assert!(!sheet.ephemeral);
    assert_eq!(
        sheet.content,
        "**Quick 2**, made with `instant` on 2026-01-01
```
HP  5
```
\
         Gold 0 · Food 0
Inventory: none
Party: none
In rolls: `@FOOD`, `@GOLD`, `@HP`"
    );
    assert_eq!(sheet.attachments[0].filename, "quick-2.txt");
    assert_eq!(sheet.attachments[0].bytes, b"NO QUESTIONS\n");
    let suggestions = harness
        .alice(RequestKind::Autocomplete {
            command: match command("character", &["show"], &[("name", text("qu"))]) {
                RequestKind::Command(command) => command,
                _ => unreachable!(),
            },
            focused: "name".to_owned(),
        })
        .await;
    let Reply::Choices(choices) = &suggestions.replies[0] else {
        panic!("choices expected");
    };
    let names: Vec<&str> = choices.iter().map(|choice| choice.name.as_str()).collect();
    assert_eq!(names, ["Quick", "Quick 2"]);
    let deleted = crate::characters::delete(&mut harness, ALICE, "quick").await;
    assert_eq!(deleted, "Deleted **Quick**.");
    let missing = harness
        .alice(command("character", &["show"], &[("name", text("Quick"))]))
        .await;
    assert!(missing.interaction().ephemeral);
    assert!(
        missing
            .interaction()
            .content
            .starts_with("You have no character called `Quick` here.")
    );
    // Bob sees none of Alice's characters.
    let bob = harness.request(BOB, Some(GUILD), command("character", &["list"], &[]));
    assert!(
        harness
            .send(&bob)
            .await
            .interaction()
            .content
            .starts_with("You have no characters")
    );
    let _ = OptionValue::Boolean(true);
}

/// Two answers to one question at once: both read the session at that step, then
/// wait for the engine (the test holds the only worker). The one that claims the
/// step first is stored (`turn::write`); the other is refused and stores nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_answers_to_one_question_at_once_apply_once() {
    let mut harness = Harness::with_settings(tavern::core::CoreSettings {
        engine_workers: 1,
        // Long enough that no answer gives up while the test holds the worker.
        engine_time_limit: std::time::Duration::from_secs(600),
        ..tavern::core::CoreSettings::default()
    })
    .await;
    let started = harness.alice(start(None)).await;
    let prompt = started.prompt_message.unwrap();
    let hold = Hold::start(&harness.core).await;
    let first = hold
        .queue(harness.request(ALICE, Some(GUILD), reply_to(prompt, "Udo")))
        .await;
    let second = hold
        .queue(harness.request(ALICE, Some(GUILD), reply_to(prompt, "Mira")))
        .await;
    hold.let_go().await;
    let texts = |replies: Vec<Reply>| -> Vec<String> {
        replies
            .into_iter()
            .filter_map(|reply| match reply {
                Reply::Interaction(message)
                | Reply::Channel { message, .. }
                | Reply::Edit { message, .. } => Some(message.content),
                _ => None,
            })
            .collect()
    };
    // Either may claim the step first; the other is refused.
    let answers = [texts(first.await.unwrap()), texts(second.await.unwrap())];
    let refused = ["That question has been answered already."];
    assert_eq!(
        answers.iter().filter(|said| *said == &refused).count(),
        1,
        "{answers:#?}"
    );
    let (kept, lost) = if answers[1] == refused {
        (("Udo", &answers[0]), "Mira")
    } else {
        (("Mira", &answers[1]), "Udo")
    };
    let echoed = format!("WHAT IS YOUR NAME? {}", kept.0);
    assert!(
        kept.1.iter().any(|text| text.contains(&echoed)),
        "{answers:#?}"
    );
    let session = harness
        .storage
        .session_of(ALICE, GUILD)
        .await
        .unwrap()
        .expect("the session goes on");
    assert_eq!(session.step, 1);
    assert!(
        session.transcript.contains(kept.0),
        "{}",
        session.transcript
    );
    assert!(!session.transcript.contains(lost), "{}", session.transcript);
}

#[tokio::test]
async fn printed_control_codes_show_as_the_pc_screen_shows_them() {
    let mut harness = Harness::new().await;
    harness
        .storage
        .install_program(&program(
            1,
            "Menu",
            "10 PRINT CHR$(16);\" FIGHTER \";CHR$(1);CHR$(127)\n20 INPUT \"NAME\"; N$\n",
            "h1",
        ))
        .await
        .unwrap();
    let started = harness.alice(start(Some("menu"))).await;
    // CHR$(16) is the menu's arrow and CHR$(1) a face on the PC's screen; the
    // bytes themselves would show as nothing in Discord.
    assert_eq!(
        last_channel_text(&started),
        "```\n► FIGHTER ☺⌂\nNAME? \n```"
    );
}
