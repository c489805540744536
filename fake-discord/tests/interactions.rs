use std::time::Duration;

use fake_discord::{FakeConfig, FakeDiscord, Opt, Origin, Ping, Rule};
use serenity::all::{
    ActionRowComponent, ChannelId, CreateActionRow, CreateAllowedMentions,
    CreateAutocompleteResponse, CreateButton, CreateInputText, CreateInteractionResponse,
    CreateInteractionResponseFollowup, CreateInteractionResponseMessage, CreateMessage,
    CreateModal, InputTextStyle, Interaction,
};

use crate::support::{CHANNEL, alice, discord_error, ready_bot};

fn say(content: &str) -> CreateInteractionResponse {
    let message = CreateInteractionResponseMessage::new()
        .content(content)
        .allowed_mentions(CreateAllowedMentions::new());
    CreateInteractionResponse::Message(message)
}

fn rules_of(fake: &FakeDiscord) -> Vec<Rule> {
    fake.take_violations().iter().map(|v| v.rule).collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_callback_after_three_seconds_is_an_unknown_interaction() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    let mut bot = ready_bot(&fake).await;
    fake.dispatch_interaction(fake.interaction_slash(&alice(), "roll", vec![]));
    let late = bot.command().await;

    fake.advance_time(Duration::from_millis(3001));
    assert_eq!(
        discord_error(late.create_response(&bot.http, say("too late")).await),
        (404, 10062)
    );
    assert_eq!(rules_of(&fake), vec![Rule::InteractionDeadline]);

    // Within the deadline, on the fake's clock, the same call is accepted.
    fake.dispatch_interaction(fake.interaction_slash(&alice(), "roll", vec![]));
    let in_time = bot.command().await;
    fake.advance_time(Duration::from_millis(2900));
    in_time
        .create_response(&bot.http, say("in time"))
        .await
        .expect("accepted");
    fake.assert_no_violations();
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_second_acknowledgement_is_refused() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    let mut bot = ready_bot(&fake).await;
    let id = fake.dispatch_interaction(fake.interaction_slash(&alice(), "roll", vec![]));
    let command = bot.command().await;
    command
        .defer(&bot.http)
        .await
        .expect("first acknowledgement");
    assert_eq!(
        discord_error(command.create_response(&bot.http, say("again")).await),
        (400, 40060)
    );
    assert_eq!(rules_of(&fake), vec![Rule::AlreadyAcknowledged]);
    let callbacks: Vec<(u64, u16)> = fake
        .callbacks()
        .iter()
        .filter(|c| c.interaction_id == id)
        .map(|c| (c.kind, c.status))
        .collect();
    assert_eq!(callbacks, vec![(5, 204), (4, 400)]);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn content_over_2000_characters_is_refused_and_2000_accepted() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    let mut bot = ready_bot(&fake).await;
    fake.dispatch_interaction(fake.interaction_slash(&alice(), "roll", vec![]));
    let command = bot.command().await;
    // serenity's builders refuse 2,001 characters themselves (`MessageTooLong`); the raw
    // calls show the fake refuses them as Discord does, for a client without that check.
    let too_long = serde_json::json!({"type": 4, "data": {"content": "é".repeat(2001), "allowed_mentions": {"parse": []}}});
    let refused = bot
        .http
        .create_interaction_response(command.id, &command.token, &too_long, vec![])
        .await;
    assert_eq!(discord_error(refused), (400, 50035));
    assert_eq!(rules_of(&fake), vec![Rule::ContentTooLong]);
    // A refused callback did not acknowledge: the interaction can still be answered.
    command
        .create_response(&bot.http, say(&"é".repeat(2000)))
        .await
        .expect("2000 characters");
    let body = serde_json::json!({"content": "a".repeat(2001), "allowed_mentions": {"parse": []}});
    let overlong_channel_message = bot
        .http
        .send_message(ChannelId::new(CHANNEL), vec![], &body)
        .await;
    assert_eq!(discord_error(overlong_channel_message), (400, 50035));
    assert_eq!(rules_of(&fake), vec![Rule::ContentTooLong]);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn allowed_mentions_are_recorded_and_pings_checked() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    let bot = ready_bot(&fake).await;
    let quiet = CreateMessage::new()
        .content("@everyone <@42> rolled")
        .allowed_mentions(CreateAllowedMentions::new());
    let quiet = ChannelId::new(CHANNEL)
        .send_message(&bot.http, quiet)
        .await
        .expect("sent");
    let recorded = fake.message(quiet.id.get()).expect("recorded");
    assert_eq!(
        recorded.allowed_mentions,
        Some(serde_json::json!({"parse": [], "users": [], "roles": []}))
    );
    assert!(recorded.pings.is_empty());
    fake.assert_no_violations();

    // `say` sends no allowed_mentions, so Discord would ping everyone it names.
    let loud = ChannelId::new(CHANNEL)
        .say(&bot.http, "@everyone <@42> rolled")
        .await
        .expect("sent");
    let recorded = fake.message(loud.id.get()).expect("recorded");
    assert_eq!(recorded.allowed_mentions, None);
    assert_eq!(recorded.pings, vec![Ping::Everyone, Ping::User(42)]);
    assert_eq!(rules_of(&fake), vec![Rule::WouldPing]);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_first_followup_after_a_defer_edits_the_original() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    let mut bot = ready_bot(&fake).await;
    let id = fake.dispatch_interaction(fake.interaction_slash(&alice(), "chargen", vec![]));
    let command = bot.command().await;
    command.defer(&bot.http).await.expect("deferred");
    let followup = |text: &str| {
        CreateInteractionResponseFollowup::new()
            .content(text)
            .allowed_mentions(CreateAllowedMentions::new())
    };
    let first = command
        .create_followup(&bot.http, followup("first").ephemeral(true))
        .await
        .expect("first follow-up");
    let second = command
        .create_followup(&bot.http, followup("second"))
        .await
        .expect("second follow-up");

    let sent: Vec<(Origin, String, bool)> = fake
        .messages()
        .iter()
        .filter(|m| m.interaction_id == Some(id))
        .map(|m| (m.origin, m.content.clone(), m.is_ephemeral()))
        .collect();
    assert_eq!(
        sent,
        vec![
            (Origin::InteractionResponse, "first".into(), false),
            (Origin::Followup, "second".into(), false)
        ]
    );
    assert_eq!(
        fake.message(first.id.get()).map(|m| m.origin),
        Some(Origin::InteractionResponse)
    );
    assert_ne!(first.id, second.id);
    fake.assert_no_violations();
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn button_opens_a_modal_whose_submit_is_answered() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    let mut bot = ready_bot(&fake).await;
    let prompt = CreateMessage::new()
        .content("```\nNAME?\n```")
        .components(vec![CreateActionRow::Buttons(vec![
            CreateButton::new("cg:v1:answer").label("Answer"),
        ])])
        .allowed_mentions(CreateAllowedMentions::new());
    ChannelId::new(CHANNEL)
        .send_message(&bot.http, prompt)
        .await
        .expect("prompt sent");
    let prompt = fake
        .wait_message(|m| m.custom_ids() == ["cg:v1:answer"])
        .await
        .expect("prompt recorded");

    fake.dispatch_interaction(fake.interaction_button(&alice(), &prompt, "cg:v1:answer"));
    let (_, interaction) = bot.interaction().await;
    let Interaction::Component(press) = interaction else {
        panic!("not a button")
    };
    assert_eq!(press.message.id.get(), prompt.id);
    let input = CreateInputText::new(InputTextStyle::Short, "NAME?", "answer").max_length(4000);
    let modal = CreateModal::new("cg:v1:modal", "Chargen")
        .components(vec![CreateActionRow::InputText(input)]);
    press
        .create_response(&bot.http, CreateInteractionResponse::Modal(modal))
        .await
        .expect("modal accepted");

    fake.dispatch_interaction(fake.interaction_modal_submit(
        &alice(),
        "cg:v1:modal",
        &[("answer", "Udo")],
        Some(&prompt),
    ));
    let (_, interaction) = bot.interaction().await;
    let Interaction::Modal(submit) = interaction else {
        panic!("not a modal submit")
    };
    let ActionRowComponent::InputText(text) = &submit.data.components[0].components[0] else {
        panic!("no text input")
    };
    assert_eq!(text.value.as_deref(), Some("Udo"));
    // A modal cannot answer a modal submit.
    let again = CreateModal::new("m2", "Again").components(vec![CreateActionRow::InputText(
        CreateInputText::new(InputTextStyle::Short, "x", "y"),
    )]);
    assert_eq!(
        discord_error(
            submit
                .create_response(&bot.http, CreateInteractionResponse::Modal(again))
                .await
        ),
        (400, 50035)
    );
    assert_eq!(rules_of(&fake), vec![Rule::ResponseTypeNotAllowed]);
    // A modal submit's `defer` is a deferred update (type 6): `@original` is then the
    // message whose button opened the modal, and the edit changes the prompt itself.
    submit.defer(&bot.http).await.expect("deferred");
    submit
        .edit_response(
            &bot.http,
            serenity::all::EditInteractionResponse::new().content("Udo it is"),
        )
        .await
        .expect("edited");
    let edited = fake.message(prompt.id).expect("prompt");
    assert_eq!((edited.content.as_str(), edited.edits), ("Udo it is", 1));
    fake.assert_no_violations();
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn components_are_checked_before_they_are_sent() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    let bot = ready_bot(&fake).await;
    let channel = ChannelId::new(CHANNEL);
    let buttons = |ids: &[&str]| {
        CreateActionRow::Buttons(
            ids.iter()
                .map(|id| CreateButton::new(*id).label("x"))
                .collect(),
        )
    };
    let send = |rows: Vec<CreateActionRow>| {
        CreateMessage::new()
            .content("x")
            .components(rows)
            .allowed_mentions(CreateAllowedMentions::new())
    };
    let long_id = "x".repeat(101);
    let cases: Vec<(Vec<CreateActionRow>, Rule)> = vec![
        (vec![buttons(&[&long_id])], Rule::CustomIdLength),
        (
            vec![buttons(&["a"]), buttons(&["a"])],
            Rule::CustomIdDuplicate,
        ),
        (
            vec![buttons(&["a", "b", "c", "d", "e", "f"])],
            Rule::ComponentLayout,
        ),
        (
            (0..6).map(|i| buttons(&[&*i.to_string()])).collect(),
            Rule::ComponentLayout,
        ),
    ];
    for (rows, rule) in cases {
        assert_eq!(
            discord_error(channel.send_message(&bot.http, send(rows)).await),
            (400, 50035)
        );
        assert_eq!(rules_of(&fake), vec![rule]);
    }
    channel
        .send_message(&bot.http, send(vec![buttons(&["a", "b", "c", "d", "e"])]))
        .await
        .expect("five buttons");
    fake.assert_no_violations();
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn autocomplete_answers_at_most_25_choices() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    let mut bot = ready_bot(&fake).await;
    fake.dispatch_interaction(fake.interaction_autocomplete(
        &alice(),
        "roll",
        vec![Opt::string("expr", "fi").focused()],
    ));
    let (_, interaction) = bot.interaction().await;
    let Interaction::Autocomplete(typing) = interaction else {
        panic!("not autocomplete")
    };
    assert_eq!(typing.data.autocomplete().map(|o| o.value), Some("fi"));
    let choices = |n: usize| {
        (0..n).fold(CreateAutocompleteResponse::new(), |r, i| {
            r.add_string_choice(format!("fire{i}"), format!("fire{i}"))
        })
    };
    let too_many = typing
        .create_response(
            &bot.http,
            CreateInteractionResponse::Autocomplete(choices(26)),
        )
        .await;
    assert_eq!(discord_error(too_many), (400, 50035));
    assert_eq!(rules_of(&fake), vec![Rule::AutocompleteChoices]);
    let defer = typing
        .create_response(
            &bot.http,
            CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new()),
        )
        .await;
    assert_eq!(
        discord_error(defer),
        (400, 50035),
        "autocomplete has no defer"
    );
    assert_eq!(rules_of(&fake), vec![Rule::ResponseTypeNotAllowed]);
    typing
        .create_response(
            &bot.http,
            CreateInteractionResponse::Autocomplete(choices(25)),
        )
        .await
        .expect("25 choices");
    fake.assert_no_violations();
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_attachment_option_downloads_from_the_fake_cdn() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    let mut bot = ready_bot(&fake).await;
    let listing = "10 PRINT \"STRENGTH\"\n20 INPUT S\n";
    let file = fake.add_attachment("dmps.bas", listing);
    fake.dispatch_interaction(fake.interaction_slash(
        &alice(),
        "chargen",
        vec![Opt::subcommand(
            "add",
            vec![Opt::string("name", "dmps"), Opt::attachment("file", &file)],
        )],
    ));
    let command = bot.command().await;
    let attachment = command
        .data
        .resolved
        .attachments
        .values()
        .next()
        .expect("resolved attachment");
    assert_eq!(attachment.filename, "dmps.bas");
    let bytes = attachment
        .download()
        .await
        .expect("downloaded from loopback");
    assert_eq!(bytes, listing.as_bytes());
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_interaction_token_serves_follow_ups_for_15_minutes() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    let mut bot = ready_bot(&fake).await;
    fake.dispatch_interaction(fake.interaction_slash(&alice(), "chargen", vec![]));
    let command = bot.command().await;
    let edit = |text: &str| {
        serenity::all::EditInteractionResponse::new()
            .content(text)
            .allowed_mentions(CreateAllowedMentions::new())
    };
    assert_eq!(
        discord_error(command.edit_response(&bot.http, edit("early")).await),
        (404, 10015),
        "edit before any acknowledgement"
    );
    assert_eq!(rules_of(&fake), vec![Rule::UnknownMessage]);
    command.defer(&bot.http).await.expect("deferred");
    fake.advance_time(Duration::from_secs(14 * 60));
    command
        .edit_response(&bot.http, edit("still fine"))
        .await
        .expect("within 15 minutes");
    fake.advance_time(Duration::from_secs(2 * 60));
    assert_eq!(
        discord_error(command.edit_response(&bot.http, edit("too late")).await),
        (401, 50027)
    );
    assert_eq!(rules_of(&fake), vec![Rule::TokenExpired]);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn files_the_bot_uploads_are_recorded_and_served() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    let bot = ready_bot(&fake).await;
    let sheet = serenity::all::CreateAttachment::bytes(b"STR 17\nDEX 12\n".as_slice(), "udo.txt");
    let message = CreateMessage::new()
        .content("Udo's sheet")
        .add_file(sheet)
        .allowed_mentions(CreateAllowedMentions::new());
    let sent = ChannelId::new(CHANNEL)
        .send_message(&bot.http, message)
        .await
        .expect("multipart message");
    let recorded = fake.message(sent.id.get()).expect("recorded");
    assert_eq!(recorded.content, "Udo's sheet");
    assert_eq!(
        recorded
            .attachments
            .iter()
            .map(|f| f.filename.as_str())
            .collect::<Vec<_>>(),
        vec!["udo.txt"]
    );
    let request = fake
        .wait_request(Duration::from_secs(5), |r| !r.files.is_empty())
        .await
        .expect("request with a file");
    assert_eq!(request.body["content"], "Udo's sheet");
    let bytes = sent.attachments[0]
        .download()
        .await
        .expect("served by the fake CDN");
    assert_eq!(bytes, b"STR 17\nDEX 12\n");
    fake.assert_no_violations();
    bot.stop().await;
}
