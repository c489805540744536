//! `/character delete` through serenity (issue 17): a private question whose
//! "Delete" / "Cancel" turn it into the outcome in place; another member's press is
//! refused and nothing goes without the owner's.

use fake_discord::{Opt, SentMessage};

use crate::e2e::support::{BOB, GUILD, Tavern, alice, ask_sub, bob, button_id};
use crate::fields::character;

/// Presses `label` under `question` as `who` and waits for the question to become
/// the outcome (new text, no buttons).
async fn decide(
    tavern: &Tavern,
    who: &fake_discord::Invoker,
    question: &SentMessage,
    label: &str,
) -> SentMessage {
    tavern.press(who, question, &button_id(question, label));
    let updated = tavern
        .fake
        .wait_message(|sent| {
            sent.id == question.id && sent.content != question.content && sent.components.is_empty()
        })
        .await
        .expect("the question updated in place");
    assert!(updated.is_ephemeral(), "{}", updated.content);
    updated
}

async fn bobs_udo_is_stored(tavern: &Tavern) -> bool {
    tavern
        .storage
        .character_named(BOB as i64, GUILD as i64, "Udo")
        .await
        .unwrap()
        .is_some()
}

async fn ask_delete(tavern: &Tavern) -> SentMessage {
    let question = ask_sub(
        tavern,
        &bob(),
        "character",
        "delete",
        vec![Opt::string("name", "Udo")],
    )
    .await;
    assert!(question.is_ephemeral(), "{}", question.content);
    assert!(
        question.content.starts_with("Delete **Udo**"),
        "{}",
        question.content
    );
    assert_eq!(question.custom_ids().len(), 2);
    question
}

#[tokio::test(flavor = "multi_thread")]
async fn deleting_a_character_asks_and_the_answer_replaces_the_question() {
    let tavern = Tavern::start().await;
    let mut udo = character(1, BOB as i64, "Udo", &[("STR", "17")]);
    udo.guild_id = GUILD as i64;
    tavern.storage.finish_session(None, &[udo]).await.unwrap();

    let question = ask_delete(&tavern).await;
    assert!(bobs_udo_is_stored(&tavern).await);
    // Alice's press (a forged one: the question is Bob's alone) is refused privately.
    let refused = tavern
        .answer(tavern.press(&alice(), &question, &button_id(&question, "Delete")))
        .await;
    assert!(refused.is_ephemeral());
    assert_eq!(
        refused.content,
        "Only the character's owner can answer that."
    );
    assert!(bobs_udo_is_stored(&tavern).await);

    let kept = decide(&tavern, &bob(), &question, "Cancel").await;
    assert_eq!(kept.content, "Kept **Udo**.");
    assert!(bobs_udo_is_stored(&tavern).await);

    let question = ask_delete(&tavern).await;
    let deleted = decide(&tavern, &bob(), &question, "Delete").await;
    assert_eq!(deleted.content, "Deleted **Udo**.");
    assert!(!bobs_udo_is_stored(&tavern).await);
    tavern.stop().await;
}
