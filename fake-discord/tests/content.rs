use fake_discord::{FakeConfig, FakeDiscord, Invoker};
use serenity::all::{
    ChannelId, CreateAllowedMentions, CreateInteractionResponse, CreateInteractionResponseMessage,
    CreateMessage, GatewayIntents,
};

use crate::support::{CHANNEL, alice, ready_bot, start_bot};

/// Without MESSAGE_CONTENT the bot reads only its DMs, messages that mention it, and
/// replies (with ping) to its regular messages; a reply to an interaction response is blank.
#[tokio::test(flavor = "multi_thread")]
async fn content_is_blanked_without_the_intent_except_where_discord_exempts_it() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    let mut bot = ready_bot(&fake).await;
    let bot_id = fake.config().bot_user_id;
    let quiet = CreateMessage::new()
        .content("NAME?")
        .allowed_mentions(CreateAllowedMentions::new());
    ChannelId::new(CHANNEL)
        .send_message(&bot.http, quiet)
        .await
        .expect("prompt");
    let prompt = fake
        .wait_message(|m| m.content == "NAME?")
        .await
        .expect("prompt recorded");
    fake.dispatch_interaction(fake.interaction_slash(&alice(), "roll", vec![]));
    let command = bot.command().await;
    let response = CreateInteractionResponseMessage::new()
        .content("rolled")
        .allowed_mentions(CreateAllowedMentions::new());
    command
        .create_response(&bot.http, CreateInteractionResponse::Message(response))
        .await
        .expect("answered");
    let response = fake
        .wait_message(|m| m.content == "rolled")
        .await
        .expect("response recorded");

    let file = fake.add_attachment("udo.txt", "x");
    let cases = [
        (
            "plain guild message",
            fake.message_create(&alice(), "hello", &[file]),
            "",
        ),
        (
            "mentions the bot",
            fake.message_create(&alice(), &format!("<@{bot_id}> roll"), &[]),
            "roll",
        ),
        (
            "in a DM",
            fake.message_create(&Invoker::dm(42, 9_999), "hello", &[]),
            "hello",
        ),
        (
            "reply with ping to a regular message",
            fake.message_create_reply(&alice(), "Udo", &prompt, true),
            "Udo",
        ),
        (
            "reply without ping",
            fake.message_create_reply(&alice(), "Udo", &prompt, false),
            "",
        ),
        (
            "reply with ping to an interaction response",
            fake.message_create_reply(&alice(), "Udo", &response, true),
            "",
        ),
    ];
    for (name, payload, expected) in cases {
        let expected = if expected.is_empty() {
            String::new()
        } else {
            payload["content"].as_str().unwrap_or_default().to_owned()
        };
        let id = fake.dispatch_message(payload);
        let (shard, message) = bot.message().await;
        assert_eq!((message.id.get(), shard), (id, 0), "{name}");
        assert_eq!(message.content, expected, "{name}");
        if name == "plain guild message" {
            assert!(
                message.attachments.is_empty(),
                "attachments are withheld too"
            );
        }
    }
    fake.assert_no_violations();
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn content_is_delivered_with_the_intent() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    let intents =
        GatewayIntents::GUILDS | GatewayIntents::GUILD_MESSAGES | GatewayIntents::MESSAGE_CONTENT;
    let mut bot = start_bot(&fake, intents, 1).await;
    fake.dispatch_message(fake.message_create(&alice(), "hello", &[]));
    assert_eq!(bot.message().await.1.content, "hello");
    bot.stop().await;
}
