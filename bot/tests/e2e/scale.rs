//! Several processes: two bots, each running one of two shards, on one database.

use fake_discord::{Invoker, Opt};

use crate::e2e::support::{ALICE, How, Setup, Tavern, answer_button};

/// A guild the fake routes to shard 0 of 2, and one it routes to shard 1.
const GUILD_ON_0: u64 = 2 << 22;
const GUILD_ON_1: u64 = 3 << 22;
const CHANNEL_ON_1: u64 = 9_100;

fn two_shards() -> Setup {
    let mut setup = Setup::default();
    setup.fake.shard_count = 2;
    setup.config.shards.total = 2;
    setup.config.shards.start = 0;
    setup.config.shards.end = 0;
    setup
}

/// Process A runs shard 0 (and registers the commands), process B shard 1. Each
/// answers its own guilds; a generator started on B is answered once through A (as
/// after a reshard moves the guild) and finished on B again: the session is a row.
async fn two_processes_share_the_work_and_the_sessions(setup: Setup) {
    let a = Tavern::start_with(setup).await;
    let b = a.another_process(1, 1).await;
    assert_eq!(
        (
            a.fake.shard_for_guild(GUILD_ON_0),
            a.fake.shard_for_guild(GUILD_ON_1)
        ),
        (0, 1)
    );

    // Each process gets the interactions of its own guilds.
    let on_0 = Invoker::member(ALICE, GUILD_ON_0, 9_000).with_name("Alice");
    let on_1 = Invoker::member(ALICE, GUILD_ON_1, CHANNEL_ON_1).with_name("Alice");
    for who in [&on_0, &on_1, &on_1] {
        let roll = a.slash(who, "roll", vec![Opt::string("expr", "1d6")]);
        assert_eq!(a.callback(roll).await.kind, 4);
    }
    // Both processes are idle: every roll was handled where it arrived.
    a.settled().await;
    assert!(b.bot.settled().await);
    assert_eq!(a.bot().metrics().received_count("roll"), 1);
    assert_eq!(b.bot.metrics().received_count("roll"), 2);

    // Only the process that runs shard 0 registered the commands.
    assert!(a.bot().commands_registered());
    assert!(!b.bot.commands_registered());
    assert_eq!(a.requests_to("PUT", "/commands"), 1);

    // A generator started on B ...
    let start = a.slash(&on_1, "chargen", vec![Opt::subcommand("start", vec![])]);
    a.callback(start).await;
    let first = a
        .fake
        .wait_message(|message| answer_button(message).is_some())
        .await
        .expect("B's first prompt");
    assert!(b.bot.settled().await);
    assert_eq!(b.bot.metrics().received_count("chargen"), 1);
    assert_eq!(a.bot().metrics().received_count("chargen"), 0);

    // ... is answered through A ...
    a.answer_with_modal_on(Some(0), &on_1, &first, "Udo").await;
    let second = a.prompt_after(&[first.id]).await;
    assert_eq!(a.bot().metrics().received_count("modal"), 1);
    let session = b
        .storage
        .session_of(ALICE as i64, GUILD_ON_1 as i64)
        .await
        .unwrap()
        .expect("the session, seen from B's pool");
    assert_eq!(session.step, 1);
    assert_eq!(session.prompt_message_id, Some(second.id as i64));

    // ... and finished on B, which reads what A stored.
    let answered = a.answer_prompts(&on_1, &[first.id], How::Modal, 0).await;
    assert!(answered >= 2);
    assert!(b.bot.settled().await);
    assert!(b.bot.metrics().received_count("modal") >= 1);
    let summary = a.summary(CHANNEL_ON_1).await;
    assert!(
        summary.content.contains("**Udo** is ready"),
        "{}",
        summary.content
    );
    let udo = a
        .storage
        .character_named(ALICE as i64, GUILD_ON_1 as i64, "Udo")
        .await
        .unwrap();
    assert!(udo.is_some(), "the character is stored");
    b.stop().await;
    a.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn two_processes_on_one_sqlite_file() {
    two_processes_share_the_work_and_the_sessions(two_shards()).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn two_processes_on_one_postgres_schema() {
    let Some(setup) = two_shards().on_postgres("scale").await else {
        return;
    };
    two_processes_share_the_work_and_the_sessions(setup).await;
}
