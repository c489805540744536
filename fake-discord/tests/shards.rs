use std::time::Duration;

use fake_discord::{FakeConfig, FakeDiscord, Invoker};
use serenity::all::{GatewayIntents, Interaction};

use crate::support::start_bot;

/// serenity boots the second shard 5 s after the first; this test pays that once.
#[tokio::test(flavor = "multi_thread")]
async fn dispatches_go_to_the_shard_of_their_guild_and_dms_to_shard_0() {
    let fake = FakeDiscord::start(FakeConfig {
        shard_count: 2,
        guilds: vec![2 << 22, 3 << 22],
        ..FakeConfig::default()
    })
    .await;
    let mut bot = start_bot(&fake, GatewayIntents::GUILDS, 2).await;
    let mut ready = vec![bot.ready().await, bot.ready().await];
    ready.sort_unstable();
    assert_eq!(ready, vec![0, 1]);
    fake.wait_ready(1, Duration::from_secs(15))
        .await
        .expect("shard 1 live");

    let on_shard_0 = Invoker::member(42, 2 << 22, 10);
    let on_shard_1 = Invoker::member(43, 3 << 22, 11);
    let in_dm = Invoker::dm(44, 12);
    assert_eq!(
        (fake.shard_for_guild(2 << 22), fake.shard_for_guild(3 << 22)),
        (0, 1)
    );
    for (who, expected_shard) in [(on_shard_1, 1), (on_shard_0, 0), (in_dm, 0)] {
        let id = fake.dispatch_interaction(fake.interaction_slash(&who, "roll", vec![]));
        let (shard, interaction) = bot.interaction().await;
        let Interaction::Command(command) = interaction else {
            panic!("not a command")
        };
        assert_eq!(
            (command.id.get(), shard),
            (id, expected_shard),
            "user {}",
            who.user_id
        );
    }
    bot.stop().await;
}
