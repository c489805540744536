//! `/chargen` through serenity: whole runs to a stored character, answered with the
//! button and its modal or by replying to the prompts, in a server and in DMs, and a
//! session that outlives the bot process.

use fake_discord::{Invoker, Opt, Origin};
use tavern::storage::CharacterRow;

use crate::e2e::support::{
    ALICE, CHANNEL, GUILD, How, Setup, Tavern, alice, answer_button, no_mentions,
};

async fn stored(tavern: &Tavern, user: u64, guild: u64, name: &str) -> CharacterRow {
    tavern
        .storage
        .character_named(user as i64, guild as i64, name)
        .await
        .unwrap()
        .unwrap_or_else(|| panic!("no character {name} stored"))
}

#[tokio::test(flavor = "multi_thread")]
async fn a_whole_run_answered_with_the_button_and_its_modal() {
    let tavern = Tavern::start().await;
    let answered = tavern.chargen_run(&alice(), None, How::Modal).await;
    assert_eq!(answered, 3);
    let udo = stored(&tavern, ALICE, GUILD, "Udo").await;
    assert_eq!(udo.program, "chargen");
    assert!(udo.fields.contains("\"CLASS\",\"1\""), "{}", udo.fields);

    // Every prompt went out as a regular channel message (so it can be replied to),
    // and was edited to show its answer, without its button.
    let prompts: Vec<_> = tavern
        .fake
        .messages_in(CHANNEL)
        .into_iter()
        .filter(|message| message.origin == Origin::Channel && message.edits > 0)
        .collect();
    assert_eq!(prompts.len(), 3);
    assert!(prompts[0].content.ends_with("WHAT IS YOUR NAME? Udo\n```"));
    assert!(prompts.iter().all(|prompt| prompt.custom_ids().is_empty()));
    assert!(
        tavern
            .fake
            .messages()
            .iter()
            .all(|message| message.allowed_mentions == Some(no_mentions()))
    );

    // The stored character, with its transcript attached.
    let show = tavern.slash(
        &alice(),
        "character",
        vec![Opt::subcommand("show", vec![Opt::string("name", "udo")])],
    );
    tavern.callback(show).await;
    let sheet = tavern.answer(show).await;
    assert!(sheet.content.starts_with("**Udo**, made with `chargen`"));
    assert_eq!(sheet.attachments.len(), 1);
    assert_eq!(sheet.attachments[0].filename, "udo.txt");
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_whole_run_answered_by_replies_that_ping_the_bot() {
    // No message-content intent (the default): Discord shows the bot a reply's text
    // only when the reply mentions it.
    let tavern = Tavern::start().await;
    let answered = tavern
        .chargen_run(&alice(), Some("chargen"), How::Reply { ping: true })
        .await;
    assert_eq!(answered, 3);
    let udo = stored(&tavern, ALICE, GUILD, "Udo").await;
    assert!(
        udo.transcript
            .contains("WHAT IS YOUR NAME? Udo\nHELLO Udo\n")
    );
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_reply_discord_hides_gets_a_hint_and_a_pinging_reply_answers() {
    let tavern = Tavern::start().await;
    let prompt = tavern.start_chargen(&alice()).await;

    let hidden = tavern.reply(&alice(), &prompt, "Udo", false);
    let hint = tavern.reply_to(hidden).await;
    assert!(
        hint.content.starts_with("I can't read that reply"),
        "{}",
        hint.content
    );
    assert!(hint.pings.is_empty(), "the hint does not ping its reader");
    let session = tavern.alices_session().await.expect("the session waits");
    assert_eq!(session.step, 0, "a hidden reply answers nothing");

    tavern.reply(&alice(), &prompt, "Udo", true);
    let next = tavern.prompt_after(&[prompt.id]).await;
    assert!(
        next.content.contains("CLASS (1=FIGHTER"),
        "{}",
        next.content
    );
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn with_the_message_content_intent_plain_replies_answer() {
    let mut setup = Setup::default();
    setup.config.discord.message_content_intent = true;
    let tavern = Tavern::start_with(setup).await;
    tavern
        .chargen_run(&alice(), None, How::Reply { ping: false })
        .await;
    stored(&tavern, ALICE, GUILD, "Udo").await;
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_whole_run_in_direct_messages_by_plain_replies() {
    let tavern = Tavern::start().await;
    let dm = Invoker::dm(44, 9_100).with_name("Dora");
    let answered = tavern
        .chargen_run(&dm, None, How::Reply { ping: false })
        .await;
    assert_eq!(answered, 3);
    // Direct messages are place 0.
    let udo = stored(&tavern, 44, 0, "Udo").await;
    assert_eq!(udo.guild_id, 0);
    assert!(
        tavern
            .fake
            .messages_in(9_100)
            .iter()
            .any(|message| message.content.contains("**Udo** is ready"))
    );
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn someone_elses_prompt_cannot_be_answered() {
    let tavern = Tavern::start().await;
    let prompt = tavern.start_chargen(&alice()).await;
    let bob = crate::e2e::support::bob();
    let submitted = tavern.answer_with_modal(&bob, &prompt, "Mallory").await;
    let refused = tavern.answer(submitted).await;
    assert!(refused.is_ephemeral());
    assert!(
        refused.content.contains("character generator of Alice"),
        "{}",
        refused.content
    );
    let session = tavern.alices_session().await.unwrap();
    assert_eq!(session.step, 0);
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_restarted_bot_resumes_the_session_where_it_stopped() {
    let mut tavern = Tavern::start().await;
    let first = tavern.start_chargen(&alice()).await;
    // Typing @Tavern makes Discord show the reply; the mention is not the answer.
    let bot = tavern.fake.config().bot_user_id;
    tavern.reply(&alice(), &first, &format!("<@{bot}> Udo"), true);
    let second = tavern.prompt_after(&[first.id]).await;

    // SIGTERM, and a new process on the same database file.
    tavern.restart().await;
    let session = tavern
        .alices_session()
        .await
        .expect("the session survived the restart");
    assert_eq!(session.step, 1);
    assert_eq!(session.prompt_message_id, Some(second.id as i64));

    // The old process' prompt answers in the new one, by button and by reply.
    let submitted = tavern.answer_with_modal(&alice(), &second, "2").await;
    assert_eq!(
        tavern.callback(submitted).await.kind,
        6,
        "the modal submit is acknowledged quietly"
    );
    let third = tavern.prompt_after(&[first.id, second.id]).await;
    assert!(answer_button(&third).is_some());
    tavern.reply(&alice(), &third, "F", true);
    let summary = tavern.summary(CHANNEL).await;
    assert!(
        summary
            .content
            .contains("**Udo** is ready: CLASS 2 · GENDER F")
    );
    stored(&tavern, ALICE, GUILD, "Udo").await;
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn status_and_cancel() {
    let tavern = Tavern::start().await;
    let prompt = tavern.start_chargen(&alice()).await;

    let status = tavern.slash(&alice(), "chargen", vec![Opt::subcommand("status", vec![])]);
    tavern.callback(status).await;
    let shown = tavern.answer(status).await;
    assert!(shown.is_ephemeral());
    assert!(
        shown.content.contains("WHAT IS YOUR NAME?"),
        "{}",
        shown.content
    );

    let cancel = tavern.slash(&alice(), "chargen", vec![Opt::subcommand("cancel", vec![])]);
    tavern.callback(cancel).await;
    let closed = tavern
        .fake
        .wait_message(|message| message.id == prompt.id && message.content.ends_with("(cancelled)"))
        .await
        .expect("the prompt is closed");
    assert!(closed.custom_ids().is_empty());
    assert!(tavern.alices_session().await.is_none());
    tavern.stop().await;
}
