//! `/talk`: greetings, keywords by modal, button and reply, yes/no, quests and the party.

use tavern::core::{Ack, Reply, RequestKind};

use crate::harness::{ALICE, BOB, GUILD, command, text};

use super::support::*;

#[tokio::test]
async fn talk_greets_and_keywords_are_asked_by_modal_button_and_reply() {
    let mut table = Table::new().await;
    table.install("hawknoz", "shopkeeper.ghul").await;
    let udo = character(table.storage(), 1, ALICE, "Udo", 120).await;

    let none = table.as_user(BOB, talk("hawknoz")).await;
    assert_eq!(
        none.interaction().content,
        "To talk to Hawknoz you need a character here: make one with `/chargen start`."
    );
    let missing = table.alice(talk("nobody")).await;
    assert!(
        missing
            .interaction()
            .content
            .starts_with("There is no NPC called `nobody` here.")
    );

    let hail = table.alice(talk("Hawknoz")).await;
    let ack = hail.interaction();
    assert!(ack.ephemeral);
    assert!(
        ack.content.starts_with("You talk to Hawknoz as **Udo**."),
        "{}",
        ack.content
    );
    assert_eq!(
        said(&hail),
        "*Alice talks to Hawknoz.*\nHawknoz: Welcome to my forge, stranger."
    );
    assert_eq!(buttons(&hail), ["Ask Hawknoz…", "Bye"]);
    let prompt = hail.prompt_message.expect("the prompt is tracked");

    // "Ask…" opens a modal at once; its answer is the keyword.
    let ask = RequestKind::Button {
        custom_id: button(&hail, "Ask Hawknoz…"),
        message_id: prompt,
    };
    assert_eq!(
        table
            .harness
            .core
            .ack(&table.harness.request(ALICE, Some(GUILD), ask.clone())),
        Ack::Immediate
    );
    let opened = table.alice(ask).await;
    let form = modal(&opened);
    assert_eq!(form.title, "Talking to Hawknoz");
    // NPCs answer to the first word: the form says so.
    assert_eq!(
        form.inputs[0].placeholder.as_deref(),
        Some("One word: name, job, trade, bye…")
    );
    let answered = table.alice(submit(&form, "Name?")).await;
    assert_eq!(
        said(&answered),
        "> **Alice:** Name?\nHawknoz: Hawknoz, smith of Glasdrin."
    );
    // The answered prompt loses its buttons.
    let edits: Vec<&Reply> = answered
        .replies
        .iter()
        .filter(|reply| matches!(reply, Reply::Edit { .. }))
        .collect();
    assert_eq!(edits.len(), 1);
    if let Reply::Edit {
        message_id,
        message,
        ..
    } = edits[0]
    {
        assert_eq!(*message_id, prompt);
        assert!(message.components.is_empty());
        assert_eq!(
            message.content,
            "*Alice talks to Hawknoz.*\nHawknoz: Welcome to my forge, stranger."
        );
    }
    assert_eq!(buttons(&answered), ["Ask Hawknoz…", "Bye", "name"]);

    // An empty reply (what Discord shows the bot without the message-content intent)
    // is no BYE.
    let blank = table
        .alice(reply_to(answered.prompt_message.unwrap(), "  "))
        .await;
    assert!(blank.replies.is_empty());
    // A reply to the NPC's message answers too; an imported keyword becomes a button.
    let weather = table
        .alice(reply_to(answered.prompt_message.unwrap(), "weathervane"))
        .await;
    assert_eq!(
        said(&weather),
        "> **Alice:** weathervane\nHawknoz: Cold. Good weather for a forge."
    );
    assert_eq!(
        buttons(&weather),
        ["Ask Hawknoz…", "Bye", "weather", "name"]
    );
    // DEFAULT answers and "no reply" make no button.
    let what = table.alice(press(button(&weather, "Ask Hawknoz…"))).await;
    let what = table.alice(submit(&modal(&what), "gossip")).await;
    assert!(said(&what).ends_with("Hawknoz: Hmm? Ask me about my job, or let us trade."));
    assert_eq!(buttons(&what), ["Ask Hawknoz…", "Bye", "weather", "name"]);
    // A keyword button asks again.
    let again = table.alice(press(button(&what, "name"))).await;
    assert_eq!(
        said(&again),
        "> **Alice:** NAME\nHawknoz: Hawknoz, smith of Glasdrin."
    );
    let bye = table.alice(press(button(&again, "Bye"))).await;
    assert_eq!(
        said(&bye),
        "> **Alice:** bye\nHawknoz: Farewell.\n*The conversation is over.*"
    );
    assert!(buttons(&bye).is_empty());
    assert!(bye.prompt_message.is_none());
    assert!(
        table
            .storage()
            .npc_conversation_of(ALICE, GUILD)
            .await
            .unwrap()
            .is_none()
    );
    // The keyword buttons are remembered for the next conversation.
    let next = table.alice(talk("hawknoz")).await;
    assert_eq!(
        said(&next),
        "*Alice talks to Hawknoz.*\nHawknoz: Back again? Good."
    );
    assert_eq!(buttons(&next), ["Ask Hawknoz…", "Bye", "name", "weather"]);
    assert_eq!(
        world(table.storage(), ALICE, udo, "hawknoz", "c_hawknoz").await,
        "gold=120 food=3 items=- party=- flags=c_hawknoz:1 parms=-"
    );
}

#[tokio::test]
async fn yes_no_buttons_and_flags_that_persist_per_player() {
    let mut table = Table::new().await;
    table.install("maud", "quest_giver.ghul").await;
    let udo = character(table.storage(), 1, ALICE, "Udo", 10).await;
    let rex = character(table.storage(), 2, BOB, "Rex", 10).await;

    let hail = table.alice(talk("maud")).await;
    assert!(
        said(&hail).ends_with("Maud: Oh, a visitor. I have a favour to ask. Ask me about my ring.")
    );
    let asked = table
        .alice(reply_to(hail.prompt_message.unwrap(), "ring"))
        .await;
    assert!(
        said(&asked).contains("Will you look for it?\n*Yes or no?*"),
        "{}",
        said(&asked)
    );
    assert_eq!(buttons(&asked), ["Yes", "No", "Walk away"]);
    // Anything else than yes or no is asked again (Y1); a reply works here too.
    let bye = table
        .alice(reply_to(asked.prompt_message.unwrap(), "bye"))
        .await;
    assert!(
        said(&bye).contains("*Please answer yes or no.*\n*Yes or no?*"),
        "{}",
        said(&bye)
    );
    let yes = table.alice(press(button(&bye, "Yes"))).await;
    assert!(said(&yes).contains("Maud: Bless you! Come back when you have it."));
    table.alice(press(button(&yes, "Bye"))).await;
    assert_eq!(
        world(table.storage(), ALICE, udo, "maud", "c_maud").await,
        "gold=10 food=3 items=- party=- flags=c_maud:1 parms=-"
    );

    // The flag is Alice's: she is remembered, Bob is not.
    let back = table.alice(talk("maud")).await;
    assert!(said(&back).ends_with("Maud: Any news of my ring?"));
    let bob = table.as_user(BOB, talk("maud")).await;
    assert!(
        said(&bob).ends_with("Maud: Oh, a visitor. I have a favour to ask. Ask me about my ring.")
    );
    let no = table
        .as_user(BOB, reply_to(bob.prompt_message.unwrap(), "quest"))
        .await;
    let no = table.as_user(BOB, press(button(&no, "No"))).await;
    assert!(said(&no).ends_with("Maud: Ah well. Perhaps someone else will."));
    assert_eq!(
        world(table.storage(), BOB, rex, "maud", "c_maud").await,
        "gold=10 food=3 items=- party=- flags=- parms=-"
    );
    // Both conversations wait at once, each with its own state.
    assert!(
        table
            .storage()
            .npc_conversation_of(ALICE, GUILD)
            .await
            .unwrap()
            .is_some()
    );
    assert!(
        table
            .storage()
            .npc_conversation_of(BOB, GUILD)
            .await
            .unwrap()
            .is_some()
    );
}

#[tokio::test]
async fn a_quest_rewards_items_and_gold_then_the_npc_joins_the_party() {
    let mut table = Table::new().await;
    table.install("maud", "quest_giver.ghul").await;
    let udo = character(table.storage(), 1, ALICE, "Udo", 10).await;
    let hail = table.alice(talk("maud")).await;
    let asked = table
        .alice(reply_to(hail.prompt_message.unwrap(), "ring"))
        .await;
    let yes = table.alice(press(button(&asked, "Yes"))).await;
    // Alice finds the ring (another command would give it; here the database does).
    sqlx::query(
        "INSERT INTO character_items (character_id, item, count) VALUES ($1, 't_silver_ring', 1)",
    )
    .bind(udo)
    .execute(table.storage().pool())
    .await
    .unwrap();
    let found = table
        .alice(reply_to(yes.prompt_message.unwrap(), "reward"))
        .await;
    assert!(
        said(&found).ends_with("Maud: My ring! You found it!\n*You receive 2 healing potion.*"),
        "{}",
        said(&found)
    );
    let joined = table
        .alice(reply_to(found.prompt_message.unwrap(), "join"))
        .await;
    assert!(
        said(&joined).ends_with(
            "Maud: Adventure, at my age? Oh, why not!\n*Maud joins your party.*\n*The conversation is over.*"
        ),
        "{}",
        said(&joined)
    );
    assert_eq!(
        world(table.storage(), ALICE, udo, "maud", "c_maud").await,
        "gold=60 food=3 items=t_healing_potion:2 party=maud flags=c_maud:1,2;global:150 parms=-"
    );
    let sheet = table
        .alice(command("character", &["show"], &[("name", text("Udo"))]))
        .await;
    assert!(
        sheet.interaction().content.ends_with(
            "Gold 60 · Food 3\nInventory: 2 healing potion\nParty: maud\nIn rolls: `@FOOD`, `@GOLD`"
        ),
        "{}",
        sheet.interaction().content
    );
    // A member already: she says so and the conversation goes on.
    let again = table.alice(talk("maud")).await;
    let again = table
        .alice(reply_to(again.prompt_message.unwrap(), "join"))
        .await;
    assert!(
        said(&again).ends_with("*Maud is already in your party.*"),
        "{}",
        said(&again)
    );
}
