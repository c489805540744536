//! Channel rules: the bot's permissions per channel, replies to deleted messages, files
//! kept or removed by edits, and the intents gate on events.

use fake_discord::{FakeConfig, FakeDiscord, GatewayRecord, Rule, permissions};
use serenity::all::{
    ChannelId, CreateAllowedMentions, CreateAttachment, CreateMessage, EditAttachments,
    EditMessage, GatewayIntents, MessageReference,
};

use crate::support::{CHANNEL, alice, discord_error, ready_bot, start_bot};

const ALL: u64 = permissions::VIEW_CHANNEL
    | permissions::SEND_MESSAGES
    | permissions::SEND_MESSAGES_IN_THREADS
    | permissions::READ_MESSAGE_HISTORY
    | permissions::ATTACH_FILES;

fn text(content: &str) -> CreateMessage {
    CreateMessage::new()
        .content(content)
        .allowed_mentions(CreateAllowedMentions::new())
}

#[tokio::test(flavor = "multi_thread")]
async fn posts_need_the_channels_permissions() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    let bot = ready_bot(&fake).await;
    let channel = ChannelId::new(CHANNEL);
    let table: Vec<(&str, u64, bool, (u16, isize))> = vec![
        (
            "no View Channel",
            ALL & !permissions::VIEW_CHANNEL,
            false,
            (403, 50001),
        ),
        (
            "no Send Messages",
            ALL & !permissions::SEND_MESSAGES,
            false,
            (403, 50013),
        ),
        (
            "no Send Messages in Threads",
            ALL & !permissions::SEND_MESSAGES_IN_THREADS,
            true,
            (403, 50013),
        ),
    ];
    for (name, bits, thread, expected) in table {
        if thread {
            fake.set_thread_permissions(CHANNEL, bits);
        } else {
            fake.set_bot_permissions(CHANNEL, bits);
        }
        let refused = channel.send_message(&bot.http, text("hello")).await;
        assert_eq!(discord_error(refused), expected, "{name}");
        assert_eq!(
            fake.take_violations()[0].rule,
            Rule::MissingPermissions,
            "{name}"
        );
    }
    // A thread needs Send Messages in Threads, not Send Messages.
    fake.set_thread_permissions(CHANNEL, ALL & !permissions::SEND_MESSAGES);
    channel
        .send_message(&bot.http, text("in a thread"))
        .await
        .expect("sent");

    // A reply also needs Read Message History; a file, Attach Files.
    fake.set_bot_permissions(CHANNEL, ALL);
    let first = channel
        .send_message(&bot.http, text("first"))
        .await
        .expect("sent");
    fake.set_bot_permissions(CHANNEL, ALL & !permissions::READ_MESSAGE_HISTORY);
    channel
        .send_message(&bot.http, text("plain"))
        .await
        .expect("no history needed");
    let reply = text("reply").reference_message(&first);
    assert_eq!(
        discord_error(channel.send_message(&bot.http, reply).await),
        (403, 50013)
    );
    fake.set_bot_permissions(CHANNEL, ALL & !permissions::ATTACH_FILES);
    let file = text("file").add_file(CreateAttachment::bytes(b"x".as_slice(), "x.txt"));
    assert_eq!(
        discord_error(channel.send_message(&bot.http, file).await),
        (403, 50013)
    );
    fake.take_violations();

    // Interactions from the channel carry the bits as app_permissions.
    let interaction = fake.interaction_slash(&alice(), "roll", vec![]);
    let id = fake.dispatch_interaction(interaction);
    let mut bot = bot;
    let command = bot.command().await;
    assert_eq!(command.id.get(), id);
    assert_eq!(
        command.app_permissions.map(|p| p.bits()),
        Some(ALL & !permissions::ATTACH_FILES)
    );
    fake.assert_no_violations();
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_reply_to_a_deleted_message_fails_unless_told_not_to() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    let bot = ready_bot(&fake).await;
    let channel = ChannelId::new(CHANNEL);
    let user_message = fake.dispatch_message(fake.message_create(&alice(), "hi", &[]));
    let reference = |fail: bool| {
        MessageReference::from((channel, serenity::all::MessageId::new(user_message)))
            .fail_if_not_exists(fail)
    };
    channel
        .send_message(
            &bot.http,
            text("to a live message").reference_message(reference(true)),
        )
        .await
        .expect("the message exists");
    fake.delete_message(user_message);
    let refused = channel
        .send_message(
            &bot.http,
            text("to a gone message").reference_message(reference(true)),
        )
        .await;
    assert_eq!(discord_error(refused), (400, 50035));
    assert_eq!(rules(&fake.take_violations()), vec![Rule::UnknownReference]);
    let sent = channel
        .send_message(
            &bot.http,
            text("plain after all").reference_message(reference(false)),
        )
        .await
        .expect("sent without the reference");
    let recorded = fake.message(sent.id.get()).expect("recorded");
    assert!(recorded.message_reference.is_none());
    fake.assert_no_violations();
    bot.stop().await;
}

fn rules(violations: &[fake_discord::Violation]) -> Vec<Rule> {
    violations.iter().map(|v| v.rule).collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn edits_keep_or_remove_files_as_discord_does() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    let bot = ready_bot(&fake).await;
    let channel = ChannelId::new(CHANNEL);
    let with_file = text("report").add_file(CreateAttachment::bytes(b"e".as_slice(), "errors.txt"));
    let sent = channel
        .send_message(&bot.http, with_file)
        .await
        .expect("sent");
    let files = |id: u64| fake.message(id).expect("recorded").attachments.len();

    // No attachments field: the files stay.
    let edit = EditMessage::new().content("edited");
    channel
        .edit_message(&bot.http, sent.id, edit)
        .await
        .expect("edited");
    assert_eq!(files(sent.id.get()), 1);
    // Listing the file keeps it; an empty list removes it.
    let keep = EditMessage::new().attachments(EditAttachments::keep_all(&sent));
    channel
        .edit_message(&bot.http, sent.id, keep)
        .await
        .expect("edited");
    assert_eq!(files(sent.id.get()), 1);
    let clear = EditMessage::new().attachments(EditAttachments::new());
    channel
        .edit_message(&bot.http, sent.id, clear)
        .await
        .expect("edited");
    assert_eq!(files(sent.id.get()), 0);

    // Eleven files are refused, ten accepted; so is a description over 1,024 characters.
    let many = |n: usize| {
        (0..n).fold(text("many"), |message, i| {
            message.add_file(CreateAttachment::bytes(b"x".as_slice(), format!("{i}.txt")))
        })
    };
    channel
        .send_message(&bot.http, many(10))
        .await
        .expect("ten files");
    assert_eq!(
        discord_error(channel.send_message(&bot.http, many(11)).await),
        (400, 50035)
    );
    let described = text("described")
        .add_file(CreateAttachment::bytes(b"x".as_slice(), "x.txt").description("d".repeat(1025)));
    assert_eq!(
        discord_error(channel.send_message(&bot.http, described).await),
        (400, 50035)
    );
    // A file over 10 MiB is too large for the request.
    let big = text("big").add_file(CreateAttachment::bytes(
        vec![0; 10 * 1024 * 1024 + 1],
        "big.bin",
    ));
    assert_eq!(
        discord_error(channel.send_message(&bot.http, big).await),
        (413, 40005)
    );
    assert_eq!(
        rules(&fake.take_violations()),
        vec![Rule::AttachmentLimit; 3]
    );
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn events_the_bot_did_not_ask_for_never_arrive() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    // Direct messages only: a guild message is not for this session.
    let mut bot = start_bot(&fake, GatewayIntents::DIRECT_MESSAGES, 1).await;
    bot.ready().await;
    fake.dispatch_message(fake.message_create(&alice(), "in the guild", &[]));
    let dm = fake_discord::Invoker::dm(42, 9_000);
    let dm_id = fake.dispatch_message(fake.message_create(&dm, "in a DM", &[]));
    let (_, message) = bot.message().await;
    assert_eq!(message.id.get(), dm_id, "the guild message never came");
    let dispatched: Vec<GatewayRecord> = fake
        .gateway_log()
        .into_iter()
        .filter(|r| matches!(r, GatewayRecord::Dispatch { event, .. } if event == "MESSAGE_CREATE"))
        .collect();
    assert_eq!(dispatched.len(), 1);
    fake.assert_no_violations();
    bot.stop().await;
}

/// `GET /guilds/{id}/channels` and `GET /channels/{id}` answer the channels a test
/// set, with their permission overwrites, in shapes serenity's models take; an
/// unknown server or channel is Discord's 404 with its code.
#[tokio::test(flavor = "multi_thread")]
async fn a_servers_channels_and_their_overwrites_are_read_as_discord_serves_them() {
    use fake_discord::{GuildChannel, Overwrite, OverwriteTarget, channel_kind};
    use serenity::all::{GuildId, HttpBuilder, PermissionOverwriteType, Permissions};

    const GUILD: u64 = 9_000;
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    let mut hidden = GuildChannel::text(9_001, "battle-map");
    hidden.overwrites = vec![
        Overwrite {
            target: OverwriteTarget::Role(GUILD),
            allow: 0,
            deny: permissions::VIEW_CHANNEL,
        },
        Overwrite {
            target: OverwriteTarget::Member(42),
            allow: permissions::VIEW_CHANNEL,
            deny: 0,
        },
    ];
    let mut thread = GuildChannel::text(9_002, "round-1");
    thread.kind = channel_kind::PUBLIC_THREAD;
    thread.parent_id = Some(9_001);
    fake.set_guild_channels(GUILD, vec![hidden, thread]);
    let http = HttpBuilder::new(crate::support::TOKEN)
        .proxy(fake.api_base())
        .ratelimiter_disabled(true)
        .build();

    let channels = http.get_channels(GuildId::new(GUILD)).await.unwrap();
    assert_eq!(channels.len(), 1, "threads are not in the server's list");
    let read = &channels[0];
    assert_eq!(read.name, "battle-map");
    let overwrites: Vec<_> = read
        .permission_overwrites
        .iter()
        .map(|overwrite| (overwrite.kind, overwrite.allow, overwrite.deny))
        .collect();
    let view = Permissions::VIEW_CHANNEL;
    assert_eq!(
        overwrites,
        [
            (
                PermissionOverwriteType::Role(GUILD.into()),
                Permissions::empty(),
                view
            ),
            (
                PermissionOverwriteType::Member(42.into()),
                view,
                Permissions::empty()
            ),
        ]
    );
    let thread = http.get_channel(ChannelId::new(9_002)).await.unwrap();
    let thread = thread.guild().unwrap();
    assert_eq!(thread.parent_id, Some(ChannelId::new(9_001)));
    assert_eq!(thread.guild_id, GuildId::new(GUILD));

    let unknown_guild = http.get_channels(GuildId::new(1)).await;
    assert_eq!(discord_error(unknown_guild), (404, 10004));
    let unknown_channel = http.get_channel(ChannelId::new(1)).await;
    assert_eq!(discord_error(unknown_channel), (404, 10003));
    fake.assert_no_violations();
}
