use std::time::Duration;

use fake_discord::{FakeConfig, FakeDiscord, GatewayRecord, Opt};
use serenity::all::{
    Command, CommandOptionType, CreateAllowedMentions, CreateCommand, CreateCommandOption,
    CreateInteractionResponse, CreateInteractionResponseMessage,
};

use crate::support::{TOKEN, WAIT, alice, ready_bot};

#[tokio::test(flavor = "multi_thread")]
async fn serenity_connects_registers_commands_and_answers_a_slash_command() {
    let config = FakeConfig {
        heartbeat_interval: Duration::from_millis(1000),
        ..FakeConfig::default()
    };
    let fake = FakeDiscord::start(config).await;
    let mut bot = ready_bot(&fake).await;

    let gateway = fake
        .wait_request(WAIT, |r| r.method == "GET" && r.path == "/gateway")
        .await
        .expect("GET /gateway");
    assert_eq!(
        gateway.authorization.as_deref(),
        Some(&*format!("Bot {TOKEN}"))
    );
    let identify = fake
        .wait_gateway(WAIT, |r| matches!(r, GatewayRecord::Identify { .. }))
        .await
        .expect("IDENTIFY");
    let GatewayRecord::Identify {
        shard,
        intents,
        payload,
        ..
    } = identify
    else {
        unreachable!()
    };
    assert_eq!(shard, [0, 1]);
    assert_eq!(intents, 1 | (1 << 9) | (1 << 12));
    assert_eq!(payload["token"], format!("Bot {TOKEN}"));
    fake.wait_gateway(WAIT, |r| {
        matches!(r, GatewayRecord::Heartbeat { acked: true, .. })
    })
    .await
    .expect("a heartbeat, acknowledged");

    // The application id came from READY: without it this call fails with ApplicationIdMissing.
    let option = CreateCommandOption::new(CommandOptionType::String, "expr", "dice expression")
        .required(true);
    let created = Command::set_global_commands(
        &bot.http,
        vec![
            CreateCommand::new("roll")
                .description("Roll dice")
                .add_option(option),
        ],
    )
    .await
    .expect("bulk overwrite");
    assert_eq!(created[0].name, "roll");
    assert_eq!(fake.commands(None).len(), 1);

    let id = fake.dispatch_interaction(fake.interaction_slash(
        &alice(),
        "roll",
        vec![Opt::string("expr", "1d20")],
    ));
    let command = bot.command().await;
    assert_eq!(command.id.get(), id);
    assert_eq!(
        command.data.id, created[0].id,
        "the payload carries the registered command's id"
    );
    let reply = CreateInteractionResponseMessage::new()
        .content("1d20 (17) = **17**")
        .allowed_mentions(CreateAllowedMentions::new());
    command
        .create_response(&bot.http, CreateInteractionResponse::Message(reply))
        .await
        .expect("callback accepted");

    let callback = fake.wait_callback(id).await.expect("callback");
    assert!(callback.accepted());
    assert_eq!((callback.kind, callback.status), (4, 204));
    let answer = fake
        .wait_message(|m| m.interaction_id == Some(id))
        .await
        .expect("the response message");
    assert_eq!(answer.content, "1d20 (17) = **17**");
    assert_eq!(
        answer.allowed_mentions,
        Some(serde_json::json!({"parse": [], "users": [], "roles": []}))
    );
    assert!(answer.pings.is_empty());
    fake.assert_no_violations();
    bot.stop().await;
    fake.shutdown().await;
}
