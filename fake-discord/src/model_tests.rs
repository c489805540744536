//! Every payload the fake builds, read back with serenity 0.12.5's own models: a payload
//! serenity cannot read would reach the bot as `Event::Unknown`, silently.

use serde_json::{Value, json};
use serenity::model::application::{
    ActionRowComponent, Command, CommandDataOptionValue, ComponentInteractionDataKind, Interaction,
};
use serenity::model::channel::{Attachment, Message, PrivateChannel};
use serenity::model::event::{Event, GatewayEvent};
use serenity::model::gateway::Ready;

use crate::payloads::{self, MessageParts, cdn_file_json, message_json};
use crate::records::{CdnFile, Origin, SentMessage};
use crate::{FakeConfig, FakeDiscord, Invoker, Opt, permissions};

/// The frame the fake writes, read the way serenity reads it (`from_str`, not
/// `from_value`: some of serenity's deserializers borrow).
fn as_gateway_event(name: &str, data: &Value) -> Event {
    let frame = json!({"op": 0, "t": name, "s": 1, "d": data}).to_string();
    match serde_json::from_str::<GatewayEvent>(&frame) {
        Ok(GatewayEvent::Dispatch(1, event)) => event,
        other => panic!("{name} is not a dispatch serenity reads: {other:?}"),
    }
}

fn as_interaction(data: &Value) -> Interaction {
    match as_gateway_event("INTERACTION_CREATE", data) {
        Event::InteractionCreate(event) => event.interaction,
        other => {
            let why = serde_json::from_str::<Interaction>(&data.to_string()).err();
            panic!("not an interaction for serenity: {why:?}\n{other:?}")
        }
    }
}

fn as_message(data: &Value) -> Message {
    match as_gateway_event("MESSAGE_CREATE", data) {
        Event::MessageCreate(event) => event.message,
        other => {
            let why = serde_json::from_str::<Message>(&data.to_string()).err();
            panic!("not a message for serenity: {why:?}\n{other:?}")
        }
    }
}

fn member() -> Invoker {
    Invoker::member(42, 3_000_000_000_000, 4_000_000_000_000)
        .with_permissions(permissions::MEMBER | permissions::MANAGE_GUILD)
        .with_roles(&[77, 78])
}

fn sent_message(fake: &FakeDiscord) -> SentMessage {
    let object = message_json(MessageParts {
        id: 9_000,
        channel_id: 4_000_000_000_000,
        author: payloads::user_json(fake.config().bot_user_id, "Tavern", true),
        content: "pick one",
        kind: 0,
        mentions: Vec::new(),
        attachments: &[],
    });
    let mut object = object;
    object["components"] = json!([{"type": 1, "components": [
        {"type": 2, "style": 1, "custom_id": "cg:v1:answer", "label": "Answer"},
        {"type": 2, "style": 5, "url": "https://example.invalid", "label": "Docs"},
    ]}]);
    SentMessage {
        id: 9_000,
        channel_id: 4_000_000_000_000,
        origin: Origin::Channel,
        interaction_id: None,
        content: "pick one".into(),
        embeds: Vec::new(),
        components: Vec::new(),
        allowed_mentions: None,
        flags: 0,
        message_reference: None,
        attachments: Vec::new(),
        pings: Vec::new(),
        edits: 0,
        deleted: false,
        object,
    }
}

#[tokio::test]
async fn slash_command_in_a_guild_with_every_option_kind() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    let file = fake.add_attachment("dmps.bas", "10 END\n");
    let options = vec![
        Opt::string("expr", "4d6kh3"),
        Opt::integer("repeat", 3),
        Opt::number("bonus", 1.5),
        Opt::boolean("private", true),
        Opt::user("target", 55),
        Opt::channel("where", 66),
        Opt::role("role", 77),
        Opt::attachment("program", &file),
    ];
    let Interaction::Command(command) =
        as_interaction(&fake.interaction_slash(&member(), "roll", options))
    else {
        panic!("not a command")
    };
    assert_eq!(command.data.name, "roll");
    assert_eq!(command.user.id.get(), 42);
    assert_eq!(command.guild_id.map(|g| g.get()), Some(3_000_000_000_000));
    let member = command.member.as_ref().expect("member");
    assert_eq!(
        member.roles.iter().map(|r| r.get()).collect::<Vec<_>>(),
        vec![77, 78]
    );
    let permissions = member.permissions.expect("permissions");
    assert!(permissions.manage_guild());
    assert_eq!(command.data.options.len(), 8);
    assert_eq!(
        command.data.options[0].value,
        CommandDataOptionValue::String("4d6kh3".into())
    );
    assert_eq!(
        command.data.options[1].value,
        CommandDataOptionValue::Integer(3)
    );
    let attachment_id = command.data.options[7]
        .value
        .as_attachment_id()
        .expect("attachment option");
    let attachment = &command.data.resolved.attachments[&attachment_id];
    assert_eq!(attachment.filename, "dmps.bas");
    assert_eq!(attachment.url, file.url);
    assert!(command.data.resolved.users.contains_key(&55.into()));
    assert!(command.data.resolved.roles.contains_key(&77.into()));
}

#[tokio::test]
async fn slash_command_in_a_dm_with_subcommands() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    let dm = Invoker::dm(42, 5_000);
    let options = vec![Opt::subcommand("show", vec![Opt::string("name", "Udo")])];
    let Interaction::Command(command) =
        as_interaction(&fake.interaction_slash(&dm, "character", options))
    else {
        panic!("not a command")
    };
    assert!(command.guild_id.is_none());
    assert!(command.member.is_none());
    assert_eq!(command.user.id.get(), 42);
    let CommandDataOptionValue::SubCommand(inner) = &command.data.options[0].value else {
        panic!("not a subcommand")
    };
    assert_eq!(inner[0].value, CommandDataOptionValue::String("Udo".into()));
    let grouped = vec![Opt::group("program", vec![Opt::subcommand("list", vec![])])];
    assert!(matches!(
        as_interaction(&fake.interaction_slash(&member(), "chargen", grouped)),
        Interaction::Command(_)
    ));
}

#[tokio::test]
async fn autocomplete_marks_the_focused_option() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    let options = vec![
        Opt::string("expr", "fire").focused(),
        Opt::integer("repeat", 2).focused(),
    ];
    let Interaction::Autocomplete(command) =
        as_interaction(&fake.interaction_autocomplete(&member(), "roll", options))
    else {
        panic!("not autocomplete")
    };
    let focused = command.data.autocomplete().expect("focused option");
    assert_eq!((focused.name, focused.value), ("expr", "fire"));
}

#[tokio::test]
async fn button_and_select_on_a_sent_message() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    let message = sent_message(&fake);
    let Interaction::Component(button) =
        as_interaction(&fake.interaction_button(&member(), &message, "cg:v1:answer"))
    else {
        panic!("not a component")
    };
    assert_eq!(button.data.custom_id, "cg:v1:answer");
    assert!(matches!(
        button.data.kind,
        ComponentInteractionDataKind::Button
    ));
    assert_eq!(button.message.id.get(), 9_000);
    assert_eq!(button.message.components[0].components.len(), 2);
    let dm = Invoker::dm(42, 5_000);
    let Interaction::Component(select) =
        as_interaction(&fake.interaction_select(&dm, &message, "npc:menu", &["Heal"]))
    else {
        panic!("not a component")
    };
    let ComponentInteractionDataKind::StringSelect { values } = &select.data.kind else {
        panic!("not a select")
    };
    assert_eq!(values, &["Heal".to_owned()]);
}

#[tokio::test]
async fn modal_submit_with_and_without_a_message() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    let message = sent_message(&fake);
    for from_message in [None, Some(&message)] {
        let payload = fake.interaction_modal_submit(
            &member(),
            "cg:v1:modal",
            &[("answer", "Udo"), ("note", "")],
            from_message,
        );
        let Interaction::Modal(modal) = as_interaction(&payload) else {
            panic!("not a modal submit")
        };
        assert_eq!(modal.data.custom_id, "cg:v1:modal");
        let ActionRowComponent::InputText(input) = &modal.data.components[0].components[0] else {
            panic!("not a text input")
        };
        assert_eq!(
            (input.custom_id.as_str(), input.value.as_deref()),
            ("answer", Some("Udo"))
        );
        assert_eq!(modal.message.is_some(), from_message.is_some());
    }
}

#[tokio::test]
async fn message_create_plain_reply_dm_and_with_attachments() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    let file = fake.add_attachment("hawknoz.ghul", "CONV x {}");
    let plain = as_message(&fake.message_create(&member(), "hello", std::slice::from_ref(&file)));
    assert_eq!(plain.content, "hello");
    assert_eq!(plain.guild_id.map(|g| g.get()), Some(3_000_000_000_000));
    assert_eq!(plain.attachments[0].url, file.url);
    let replied = sent_message(&fake);
    let reply = as_message(&fake.message_create_reply(&member(), "Udo", &replied, true));
    let reference = reply.message_reference.as_ref().expect("reference");
    assert_eq!(reference.message_id.map(|m| m.get()), Some(9_000));
    assert_eq!(
        reply.referenced_message.as_ref().map(|m| m.id.get()),
        Some(9_000)
    );
    assert_eq!(reply.mentions[0].id.get(), fake.config().bot_user_id);
    let unpinged = as_message(&fake.message_create_reply(&member(), "Udo", &replied, false));
    assert!(unpinged.mentions.is_empty());
    let dm = as_message(&fake.message_create(&Invoker::dm(42, 5_000), "hi", &[]));
    assert!(dm.guild_id.is_none());
}

#[test]
fn rest_objects_read_as_serenity_models() {
    let file = CdnFile {
        id: 7,
        filename: "a.bas".into(),
        size: 3,
        content_type: "text/plain".into(),
        url: "http://127.0.0.1:1/attachments/7/a.bas".into(),
    };
    let attachment: Attachment = serde_json::from_value(cdn_file_json(&file)).expect("attachment");
    assert_eq!(attachment.size, 3);
    let message = message_json(MessageParts {
        id: 1,
        channel_id: 2,
        author: payloads::user_json(3, "Tavern", true),
        content: "x",
        kind: 20,
        mentions: Vec::new(),
        attachments: &[file],
    });
    let message: Message = serde_json::from_value(message).expect("message");
    assert_eq!(message.attachments.len(), 1);
    let channel = json!({"id": "9", "type": 1, "last_message_id": null, "recipients": [payloads::user_json(3, "u", false)]});
    let channel: PrivateChannel = serde_json::from_value(channel).expect("dm channel");
    assert_eq!(channel.recipient.id.get(), 3);
    let command = json!({
        "id": "1", "application_id": "2", "version": "3", "type": 1, "name": "roll", "description": "Roll dice",
        "options": [], "default_member_permissions": null, "nsfw": false,
    });
    let command: Command = serde_json::from_value(command).expect("command");
    assert_eq!(command.name, "roll");
    let ready = json!({
        "v": 10, "user": payloads::user_json(3, "Tavern", true), "guilds": [{"id": "5", "unavailable": true}],
        "session_id": "s", "resume_gateway_url": "ws://127.0.0.1:1/ws", "shard": [0, 1],
        "application": {"id": "3", "flags": 0},
    });
    let ready: Ready = serde_json::from_value(ready).expect("ready");
    assert_eq!(ready.application.id.get(), 3);
}

#[test]
fn serenity_reads_a_guild_create_with_its_channels_roles_and_the_bots_member() {
    let shape = crate::GuildShape::typical(7 << 22);
    let data = crate::guilds::guild_create(&shape, 3, "Tavern");
    let Event::GuildCreate(event) = as_gateway_event("GUILD_CREATE", &data) else {
        panic!("not a GUILD_CREATE for serenity");
    };
    let guild = event.guild;
    assert_eq!(guild.id.get(), shape.id);
    let channels = shape.categories + shape.text_channels + shape.voice_channels;
    assert_eq!(guild.channels.len(), channels as usize);
    assert_eq!(guild.roles.len(), shape.roles as usize + 1, "and @everyone");
    assert_eq!(guild.members.len(), 1, "only the bot without GUILD_MEMBERS");
    assert_eq!(guild.member_count, shape.member_count);
    assert!(
        guild
            .channels
            .keys()
            .any(|id| id.get() == shape.first_text_channel())
    );
}
