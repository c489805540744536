use std::time::Duration;

use fake_discord::{FakeConfig, FakeDiscord, GatewayRecord};
use serenity::all::{
    CreateAllowedMentions, CreateInteractionResponse, CreateInteractionResponseMessage,
    GatewayError,
};

use crate::support::{Bot, WAIT, alice, discord_error, ready_bot};

/// After a fault, the next interaction still reaches the bot and its answer is accepted.
async fn next_interaction_is_answered(fake: &FakeDiscord, bot: &mut Bot) {
    let id = fake.dispatch_interaction(fake.interaction_slash(&alice(), "roll", vec![]));
    let command = bot.command().await;
    assert_eq!(command.id.get(), id);
    let reply = CreateInteractionResponseMessage::new()
        .content("ok")
        .allowed_mentions(CreateAllowedMentions::new());
    command
        .create_response(&bot.http, CreateInteractionResponse::Message(reply))
        .await
        .expect("answered");
    assert!(fake.wait_callback(id).await.expect("callback").accepted());
}

fn resumed(record: &GatewayRecord) -> bool {
    matches!(record, GatewayRecord::Resumed { .. })
}

#[tokio::test(flavor = "multi_thread")]
async fn op7_reconnect_is_followed_by_a_resume() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    let mut bot = ready_bot(&fake).await;
    assert!(fake.send_reconnect(0));
    // Dispatched while the bot reconnects: it waits for the RESUME.
    next_interaction_is_answered(&fake, &mut bot).await;
    fake.wait_gateway(WAIT, resumed).await.expect("RESUMED");
    assert_eq!(fake.identify_count(), 1, "a resume, not a new IDENTIFY");
    fake.assert_no_violations();
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn close_4000_is_followed_by_a_resume() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    let mut bot = ready_bot(&fake).await;
    assert!(fake.close_gateway(0, 4000));
    fake.wait_gateway(WAIT, resumed).await.expect("RESUMED");
    next_interaction_is_answered(&fake, &mut bot).await;
    assert_eq!(fake.identify_count(), 1);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn op9_invalid_session_makes_serenity_identify_again() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    let mut bot = ready_bot(&fake).await;
    assert!(fake.invalidate_session(0, false));
    // serenity waits up to 5 s between two IDENTIFYs of a shard.
    bot.ready().await;
    assert_eq!(fake.identify_count(), 2);
    next_interaction_is_answered(&fake, &mut bot).await;
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn resumable_op9_is_followed_by_a_resume() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    let mut bot = ready_bot(&fake).await;
    assert!(fake.invalidate_session(0, true));
    fake.wait_gateway(WAIT, resumed).await.expect("RESUMED");
    next_interaction_is_answered(&fake, &mut bot).await;
    assert_eq!(fake.identify_count(), 1);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_missed_heartbeat_ack_makes_serenity_reconnect() {
    let config = FakeConfig {
        heartbeat_interval: Duration::from_millis(1000),
        ..FakeConfig::default()
    };
    let fake = FakeDiscord::start(config).await;
    let mut bot = ready_bot(&fake).await;
    fake.skip_heartbeat_acks(0, 1);
    fake.wait_gateway(WAIT, |r| {
        matches!(r, GatewayRecord::Heartbeat { acked: false, .. })
    })
    .await
    .expect("an unacknowledged heartbeat");
    bot.ready().await;
    assert_eq!(fake.identify_count(), 2);
    next_interaction_is_answered(&fake, &mut bot).await;
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_429_on_a_callback_reaches_the_handler_and_the_retry_succeeds() {
    let fake = FakeDiscord::start(FakeConfig {
        rate_limit_headers: true,
        ..FakeConfig::default()
    })
    .await;
    let mut bot = ready_bot(&fake).await;
    fake.rate_limit_next("/callback", 1, Duration::from_millis(200), false);
    let id = fake.dispatch_interaction(fake.interaction_slash(&alice(), "roll", vec![]));
    let command = bot.command().await;
    let reply = || {
        CreateInteractionResponse::Message(
            CreateInteractionResponseMessage::new()
                .content("ok")
                .allowed_mentions(CreateAllowedMentions::new()),
        )
    };
    // With the rate limiter off (as with the proxy) serenity does not retry by itself.
    assert_eq!(
        discord_error(command.create_response(&bot.http, reply()).await).0,
        429
    );
    command
        .create_response(&bot.http, reply())
        .await
        .expect("the retry is accepted");
    let statuses: Vec<u16> = fake
        .callbacks()
        .iter()
        .filter(|c| c.interaction_id == id)
        .map(|c| c.status)
        .collect();
    assert_eq!(statuses, vec![429, 204]);
    fake.assert_no_violations();
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn close_4004_is_fatal_for_serenity() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    let bot = ready_bot(&fake).await;
    assert!(fake.close_gateway(0, 4004));
    let ended = bot.ended().await;
    assert!(
        matches!(
            ended,
            Err(serenity::Error::Gateway(
                GatewayError::InvalidAuthentication
            ))
        ),
        "client ended with {ended:?}"
    );
}
