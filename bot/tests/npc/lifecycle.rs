//! How conversations end, stop and resume: stale and foreign buttons, leaving, idle expiry, the step budget, restarts, activity, autocomplete and acknowledgements.

use tavern::core::{Ack, OptionValue, Permissions, Reply, RequestKind};

use crate::harness::{ALICE, BOB, CHANNEL, GUILD, command, text};
use crate::support::TempDir;

use super::support::*;

#[tokio::test]
async fn foreign_and_stale_components_are_refused() {
    let mut table = Table::new().await;
    table.install("maud", "quest_giver.ghul").await;
    character(table.storage(), 1, ALICE, "Udo", 10).await;
    character(table.storage(), 2, BOB, "Rex", 10).await;
    let hail = table.alice(talk("maud")).await;
    let asked = table
        .alice(reply_to(hail.prompt_message.unwrap(), "ring"))
        .await;
    let yes = button(&asked, "Yes");

    let foreign = table.as_user(BOB, press(yes.clone())).await;
    assert!(foreign.interaction().ephemeral);
    assert_eq!(
        foreign.interaction().content,
        "This is Alice's conversation; start your own with `/talk`."
    );
    // Bob's reply to Alice's NPC is table talk.
    let talk_over = table
        .as_user(BOB, reply_to(asked.prompt_message.unwrap(), "no"))
        .await;
    assert!(talk_over.replies.is_empty());

    let answered = table.alice(press(yes.clone())).await;
    assert!(said(&answered).contains("Bless you!"));
    // The same button again, and the earlier prompt's "Ask" button: stale.
    for old in [yes.clone(), button(&hail, "Ask Maud…")] {
        let stale = table.alice(press(old)).await;
        assert!(stale.interaction().ephemeral);
        assert_eq!(
            stale.interaction().content,
            "That question has been answered already."
        );
    }
    // A reply to an old message is no answer either.
    assert!(
        table
            .alice(reply_to(asked.prompt_message.unwrap(), "no"))
            .await
            .replies
            .is_empty()
    );
    // Walking away ends it; then every button of it has ended.
    let left = table.alice(press(button(&answered, "Bye"))).await;
    assert!(said(&left).contains("Maud: Mind the bees on your way out."));
    let ended = table.alice(press(button(&answered, "Ask Maud…"))).await;
    assert_eq!(
        ended.interaction().content,
        "This conversation has ended. `/talk` starts a new one."
    );
    // Forged ids are refused kindly too.
    for forged in ["tv1:ny:zzzzzz:0", "tv1:nx:1:0:q9", "tv1:nk:1:0:"] {
        let sent = table.alice(press(forged.to_owned())).await;
        assert!(sent.interaction().ephemeral, "{forged}");
    }
}

#[tokio::test]
async fn walking_away_and_idle_conversations_end_as_left() {
    let mut table = Table::new().await;
    table.install("avra", "healer.ghul").await;
    character(table.storage(), 1, ALICE, "Udo", 10).await;
    let hail = table.alice(talk("avra")).await;
    let asked = table
        .alice(reply_to(hail.prompt_message.unwrap(), "help"))
        .await;
    let left = table.alice(press(button(&asked, "Walk away"))).await;
    let Reply::Edit {
        message,
        message_id,
        ..
    } = &left.replies[0]
    else {
        panic!("an edit expected: {:#?}", left.replies);
    };
    assert_eq!(Some(*message_id), asked.prompt_message);
    assert!(message.content.ends_with("*Alice walked away.*"));
    assert!(message.components.is_empty());
    assert!(
        table
            .storage()
            .npc_conversation_of(ALICE, GUILD)
            .await
            .unwrap()
            .is_none()
    );

    // Idle for 15 minutes: the sweep ends it.
    let hail = table.alice(talk("avra")).await;
    table.harness.clock.advance_ms(14 * 60_000);
    assert!(table.harness.core.sweep().await.unwrap().is_empty());
    table.harness.clock.advance_ms(60_000);
    let notices = table.harness.core.sweep().await.unwrap();
    assert_eq!(notices.len(), 1);
    let Reply::Edit {
        message,
        message_id,
        channel_id,
    } = &notices[0]
    else {
        panic!("an edit expected: {notices:#?}");
    };
    assert_eq!(
        (Some(*message_id), *channel_id),
        (hail.prompt_message, CHANNEL)
    );
    assert!(message.content.ends_with("*Alice walked away.*"));
    let late = table.alice(press(button(&hail, "Bye"))).await;
    assert!(
        late.interaction()
            .content
            .starts_with("This conversation has ended.")
    );

    // A new /talk walks away from the waiting conversation.
    let first = table.alice(talk("avra")).await;
    let second = table.alice(talk("avra")).await;
    assert!(second.replies.iter().any(|reply| matches!(
        reply,
        Reply::Edit { message_id, message, .. }
            if Some(*message_id) == first.prompt_message && message.content.ends_with("*Alice walked away.*")
    )));
}

#[tokio::test]
async fn a_turn_stopped_by_the_step_budget_changes_nothing() {
    let mut table = Table::new().await;
    table.install("spin", "runaway.ghul").await;
    let udo = character(table.storage(), 1, ALICE, "Udo", 5).await;
    let hail = table.alice(talk("spin")).await;
    // SAY text reaches chat as written, markdown-escaped (Discord shows the one
    // backslash); check_rules saw that nothing can ping.
    assert!(
        said(&hail)
            .ends_with(r#"Spin: Round and round. Ping @everyone and <@123>, "quoted" \\ slash."#)
    );
    let gift = table
        .alice(reply_to(hail.prompt_message.unwrap(), "gift"))
        .await;
    assert!(said(&gift).ends_with("*You receive 1 gem.*\nSpin: A gem for you."));
    let before = world(table.storage(), ALICE, udo, "spin", "c_spin").await;
    assert_eq!(
        before,
        "gold=5 food=3 items=t_gem:1 party=- flags=- parms=-"
    );
    let spun = table
        .alice(reply_to(gift.prompt_message.unwrap(), "spin"))
        .await;
    assert_eq!(
        said(&spun),
        "> **Alice:** spin\n*Spin stopped: the script ran more than 10000 statements without \
         waiting for the player. Nothing of this turn was kept.*"
    );
    assert!(buttons(&spun).is_empty());
    assert_eq!(
        world(table.storage(), ALICE, udo, "spin", "c_spin").await,
        before
    );
    assert!(
        table
            .storage()
            .npc_conversation_of(ALICE, GUILD)
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn a_restarted_core_resumes_the_waiting_conversation() {
    let dir = TempDir::new("npc-restart");
    let path = dir.path("tavern.db");
    let storage = crate::support::sqlite_storage_at(&path).await;
    let mut table = Table::on(storage.clone(), settings(), 1);
    table.install("hawknoz", "shopkeeper.ghul").await;
    let udo = character(table.storage(), 1, ALICE, "Udo", 100).await;
    let hail = table.alice(talk("hawknoz")).await;
    let shop = table
        .alice(reply_to(hail.prompt_message.unwrap(), "trade"))
        .await;
    table.alice(choose(&shop, "short sword")).await;
    storage.close().await;
    drop(table);

    let storage = crate::support::sqlite_storage_at(&path).await;
    let mut table = Table::on(storage.clone(), settings(), 2);
    let opened = table.alice(press(button(&shop, "Buy…"))).await;
    assert_eq!(modal(&opened).title, "How many short sword to buy?");
    let bought = table.alice(submit(&modal(&opened), "2")).await;
    assert!(said(&bought).contains("*You buy 2 short swords for 80 gold.*\n*Your gold:* "));
    let typed = table
        .alice(reply_to(bought.prompt_message.unwrap(), "done"))
        .await;
    assert!(said(&typed).ends_with("Hawknoz: Mind the edges."));
    assert_eq!(
        world(table.storage(), ALICE, udo, "hawknoz", "c_hawknoz").await,
        "gold=20 food=3 items=t_short_sword:2 party=- flags=c_hawknoz:1 parms=-"
    );
    storage.close().await;
}

#[tokio::test]
async fn activity_conversations_autocomplete_and_acks() {
    let mut table = Table::new().await;
    table.install("hawknoz", "shopkeeper.ghul").await;
    table.install("hawk2", "healer.ghul").await;
    character(table.storage(), 1, ALICE, "Udo", 100).await;
    table
        .member(
            ALICE,
            Permissions::MANAGE_GUILD,
            &[],
            command(
                "npc",
                &["activity"],
                &[("name", text("hawknoz")), ("code", OptionValue::Integer(1))],
            ),
        )
        .await;
    let closed = table.alice(talk("hawknoz")).await;
    assert_eq!(
        said(&closed),
        "*Alice talks to Hawknoz.*\nHawknoz: The forge is cold for the night. Come back in the morning.\n\
         *The conversation is over.*"
    );
    assert!(buttons(&closed).is_empty());
    // A second CONV of the script, by name.
    let townsfolk = table
        .alice(command(
            "talk",
            &[],
            &[("npc", text("hawknoz")), ("conv", text("c_townsfolk"))],
        ))
        .await;
    assert_eq!(said(&townsfolk), "*Alice talks to Hawknoz.*");
    let unknown = table
        .alice(command(
            "talk",
            &[],
            &[("npc", text("hawknoz")), ("conv", text("c_x"))],
        ))
        .await;
    assert_eq!(
        unknown.interaction().content,
        "Hawknoz has no conversation `c_x`; there are: `c_hawknoz`, `c_townsfolk`."
    );

    let complete = |options: &[(&str, OptionValue)], focused: &str| {
        let RequestKind::Command(command) = command("talk", &[], options) else {
            unreachable!()
        };
        RequestKind::Autocomplete {
            command,
            focused: focused.to_owned(),
        }
    };
    for (options, focused, expected) in [
        (vec![("npc", text("HAW"))], "npc", vec!["hawk2", "hawknoz"]),
        (vec![("npc", text("hawkn"))], "npc", vec!["hawknoz"]),
        (
            vec![("npc", text("hawknoz")), ("conv", text(""))],
            "conv",
            vec!["c_hawknoz", "c_townsfolk"],
        ),
        (
            vec![("npc", text("hawknoz")), ("conv", text("c_t"))],
            "conv",
            vec!["c_townsfolk"],
        ),
    ] {
        let sent = table.alice(complete(&options, focused)).await;
        let Reply::Choices(choices) = &sent.replies[0] else {
            panic!("choices expected");
        };
        let names: Vec<&str> = choices.iter().map(|choice| choice.name.as_str()).collect();
        assert_eq!(names, expected, "{options:?}");
    }

    let core = &table.harness.core;
    let request = |kind: RequestKind| table.harness.request(ALICE, Some(GUILD), kind);
    let id = |code: &str| format!("tv1:{code}:1:0");
    for (kind, expected) in [
        (talk("hawknoz"), Ack::Defer { ephemeral: true }),
        (press(id("na")), Ack::Immediate),
        (press(id("nq")), Ack::Immediate),
        (press(id("nu")), Ack::Immediate),
        (press(id("ns")), Ack::Immediate),
        (press(id("ny")), Ack::DeferUpdate),
        (press(id("nl")), Ack::DeferUpdate),
        (press(format!("{}:weather", id("nk"))), Ack::DeferUpdate),
        (
            RequestKind::Select {
                custom_id: id("nm"),
                message_id: 1,
                values: vec!["0".to_owned()],
            },
            Ack::DeferUpdate,
        ),
        (
            RequestKind::Modal {
                custom_id: id("nam"),
                fields: vec![],
            },
            Ack::DeferUpdate,
        ),
    ] {
        assert_eq!(core.ack(&request(kind.clone())), expected, "{kind:?}");
    }
}
