//! NPC conversations through serenity: a script installed from an attachment on the
//! (fake) CDN, `/talk`, the "Ask…" modal, keyword buttons and replies.

use fake_discord::{Opt, Origin, SentMessage, permissions};

use crate::e2e::support::{CHANNEL, How, Setup, Tavern, alice, button_id};

const SHOPKEEPER: &str = include_str!("../../../npc-core/scripts/shopkeeper.ghul");

/// The NPC's message carrying a button labelled `label`, newer than `after`.
async fn npc_message(tavern: &Tavern, label: &str, after: u64) -> SentMessage {
    let message = tavern
        .fake
        .wait_message(|message| {
            message.id > after
                && message.origin == Origin::Channel
                && message.components.iter().any(|row| {
                    row["components"]
                        .as_array()
                        .is_some_and(|buttons| buttons.iter().any(|b| b["label"] == label))
                })
        })
        .await
        .expect("the NPC's message");
    tavern.settled().await;
    message
}

#[tokio::test(flavor = "multi_thread")]
async fn an_npc_from_an_attachment_talks_by_modal_button_and_reply() {
    // More than the default ten commands at once (the test's clock stands still).
    let mut setup = Setup::default();
    setup.config.rate_limit.burst = 50;
    let tavern = Tavern::start_with(setup).await;
    // Alice needs a character to talk as.
    tavern.chargen_run(&alice(), None, How::Modal).await;

    // A server manager installs the script as an attachment; the bot downloads it
    // from the CDN URL Discord gives.
    let admin = alice().with_permissions(permissions::MEMBER | permissions::MANAGE_GUILD);
    let file = tavern.fake.add_attachment("shopkeeper.ghul", SHOPKEEPER);
    let install = tavern.slash(
        &admin,
        "npc",
        vec![Opt::subcommand(
            "install",
            vec![
                Opt::string("name", "hawknoz"),
                Opt::attachment("file", &file),
            ],
        )],
    );
    let installed = tavern.answer(install).await;
    assert!(
        installed
            .content
            .starts_with("Installed **Hawknoz** (`hawknoz`;"),
        "{}",
        installed.content
    );

    let talk = tavern.slash(&alice(), "talk", vec![Opt::string("npc", "hawknoz")]);
    assert!(
        tavern
            .answer(talk)
            .await
            .content
            .starts_with("You talk to Hawknoz as **Udo**.")
    );
    let hail = npc_message(&tavern, "Bye", 0).await;
    assert_eq!(hail.channel_id, CHANNEL);
    assert!(
        hail.content
            .ends_with("Hawknoz: Welcome to my forge, stranger.")
    );

    // "Ask…" opens its modal as the first response; the keyword is answered.
    let ask = button_id(&hail, "Ask Hawknoz…");
    let opened = tavern.callback(tavern.press(&alice(), &hail, &ask)).await;
    assert_eq!(opened.kind, 9, "{opened:?}");
    let modal_id = opened.data["custom_id"].as_str().unwrap().to_owned();
    let field = opened.data["components"][0]["components"][0]["custom_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let submit = tavern.fake.interaction_modal_submit(
        &alice(),
        &modal_id,
        &[(field.as_str(), "Name?")],
        Some(&hail),
    );
    tavern
        .callback(tavern.fake.dispatch_interaction(submit))
        .await;
    let named = npc_message(&tavern, "name", hail.id).await;
    assert!(
        named
            .content
            .ends_with("Hawknoz: Hawknoz, smith of Glasdrin."),
        "{}",
        named.content
    );

    // A reply Discord hides from the bot gets the hint; one that pings it answers.
    let hidden = tavern.reply(&alice(), &named, "weathervane", false);
    let hint = tavern
        .fake
        .wait_message(|message| {
            message
                .message_reference
                .as_ref()
                .and_then(|reference| reference["message_id"].as_str())
                == Some(hidden.to_string().as_str())
        })
        .await
        .expect("a hint");
    assert!(hint.content.starts_with("I can't read that reply"));
    tavern.reply(&alice(), &named, "weathervane", true);
    let weather = npc_message(&tavern, "weather", named.id).await;
    assert!(
        weather
            .content
            .ends_with("Hawknoz: Cold. Good weather for a forge.")
    );

    // A keyword button, then Bye.
    let again = tavern.press(&alice(), &weather, &button_id(&weather, "name"));
    tavern.callback(again).await;
    let asked = npc_message(&tavern, "Bye", weather.id).await;
    assert!(
        asked
            .content
            .ends_with("Hawknoz: Hawknoz, smith of Glasdrin.")
    );
    let bye = tavern.press(&alice(), &asked, &button_id(&asked, "Bye"));
    tavern.callback(bye).await;
    let farewell = tavern
        .fake
        .wait_message(|message| message.content.ends_with("*The conversation is over.*"))
        .await
        .expect("the farewell");
    assert!(farewell.custom_ids().is_empty());
    tavern.stop().await;
}
