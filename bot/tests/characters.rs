//! `/character delete` asks first (issue 17): only the owner's "Delete" deletes, once,
//! in time; "Cancel" keeps; the question becomes the outcome in place. `/character
//! show` without a name: the character played here, else the newest.

use tavern::core::{Reply, RequestKind};
use tavern::storage::{NewCharacter, Storage};

use crate::fields::character;
use crate::harness::{ALICE, BOB, GUILD, Harness, START_MS, Sent, command, text};
use crate::macros::harness_on;
use crate::on_both_backends;

fn press(sent: &Sent, label: &str) -> RequestKind {
    RequestKind::Button {
        custom_id: sent
            .button(label)
            .unwrap_or_else(|| panic!("no button {label:?} in {:#?}", sent.replies)),
        message_id: 1,
    }
}

fn named(sub: &str, name: &str) -> RequestKind {
    command("character", &[sub], &[("name", text(name))])
}

async fn send(harness: &mut Harness, user: i64, kind: RequestKind) -> Sent {
    harness.clock.advance_ms(5_000);
    let request = harness.request(user, Some(GUILD), kind);
    harness.send(&request).await
}

/// The new state of the pressed message, its one reply, without buttons.
fn updated(sent: &Sent) -> String {
    let [Reply::Update(message)] = sent.replies.as_slice() else {
        panic!("not an update of the pressed message: {:#?}", sent.replies);
    };
    assert!(message.ephemeral, "{message:?}");
    assert!(message.components.is_empty(), "{message:?}");
    message.content.clone()
}

/// The private answer to a press that changed nothing.
fn refused(sent: &Sent) -> String {
    let message = sent.interaction();
    assert!(message.ephemeral, "{message:?}");
    message.content.clone()
}

async fn exists(storage: &Storage, owner: i64, name: &str) -> bool {
    storage
        .character_named(owner, GUILD, name)
        .await
        .unwrap()
        .is_some()
}

/// `/character delete NAME` and its "Delete" pressed by the owner: the outcome.
pub async fn delete(harness: &mut Harness, user: i64, name: &str) -> String {
    let asked = send(harness, user, named("delete", name)).await;
    let pressed = send(harness, user, press(&asked, "Delete")).await;
    updated(&pressed)
}

const STALE: &str = "That deletion has been confirmed, cancelled or has expired; run \
                     `/character delete` again.";

on_both_backends!(deleting_asks_and_only_the_owners_press_deletes);
async fn deleting_asks_and_only_the_owners_press_deletes(storage: Storage) {
    let mut harness = harness_on(storage);
    let udo = character(1, ALICE, "Udo", &[("STR", "17")]);
    let mira = character(2, ALICE, "Mira", &[("STR", "9")]);
    harness
        .storage
        .finish_session(None, &[udo, mira])
        .await
        .unwrap();

    let asked = send(&mut harness, ALICE, named("delete", "udo")).await;
    let question = asked.interaction();
    assert!(question.ephemeral);
    assert_eq!(
        question.content,
        "Delete **Udo** (made with `chargen`), with its fields, belongings and transcript? \
         This cannot be undone."
    );
    assert!(asked.button("Cancel").is_some());
    // Asking deletes nothing; someone else's press neither.
    assert!(exists(&harness.storage, ALICE, "Udo").await);
    let foreign = send(&mut harness, BOB, press(&asked, "Delete")).await;
    assert_eq!(
        refused(&foreign),
        "Only the character's owner can answer that."
    );
    assert!(exists(&harness.storage, ALICE, "Udo").await);

    // Cancel keeps it, and the question's buttons are spent.
    let kept = send(&mut harness, ALICE, press(&asked, "Cancel")).await;
    assert_eq!(updated(&kept), "Kept **Udo**.");
    let stale = send(&mut harness, ALICE, press(&asked, "Delete")).await;
    assert_eq!(refused(&stale), STALE);
    assert!(exists(&harness.storage, ALICE, "Udo").await);

    // Delete deletes, once.
    let asked = send(&mut harness, ALICE, named("delete", "Udo")).await;
    let deleted = send(&mut harness, ALICE, press(&asked, "Delete")).await;
    assert_eq!(updated(&deleted), "Deleted **Udo**.");
    assert!(!exists(&harness.storage, ALICE, "Udo").await);
    let again = send(&mut harness, ALICE, press(&asked, "Delete")).await;
    assert_eq!(refused(&again), STALE);
    let missing = send(&mut harness, ALICE, named("delete", "Udo")).await;
    assert!(
        refused(&missing).starts_with("You have no character called `Udo` here."),
        "{}",
        refused(&missing)
    );

    // Two questions for one character: the second press finds it gone.
    let first = send(&mut harness, ALICE, named("delete", "Mira")).await;
    let second = send(&mut harness, ALICE, named("delete", "Mira")).await;
    updated(&send(&mut harness, ALICE, press(&first, "Delete")).await);
    let gone = send(&mut harness, ALICE, press(&second, "Delete")).await;
    assert_eq!(updated(&gone), "**Mira** was already gone.");
}

#[tokio::test]
async fn a_deletion_question_expires_and_the_sweep_forgets_it() {
    let mut harness = Harness::new().await;
    let udo = character(1, ALICE, "Udo", &[("STR", "17")]);
    harness.storage.finish_session(None, &[udo]).await.unwrap();
    let asked = send(&mut harness, ALICE, named("delete", "Udo")).await;
    harness.clock.advance_ms(15 * 60_000);
    let late = send(&mut harness, ALICE, press(&asked, "Delete")).await;
    assert_eq!(refused(&late), STALE);
    assert!(exists(&harness.storage, ALICE, "Udo").await);

    let asked = send(&mut harness, ALICE, named("delete", "Udo")).await;
    let Some((state_id, true)) =
        tavern::core::character::decode_delete_id(&asked.button("Delete").unwrap())
    else {
        panic!("a delete button");
    };
    harness.clock.advance_ms(15 * 60_000 + 1);
    harness.core.sweep().await.unwrap();
    assert!(
        harness
            .storage
            .button_state(state_id)
            .await
            .unwrap()
            .is_none()
    );
    assert!(exists(&harness.storage, ALICE, "Udo").await);
}

fn made_at(id: i64, name: &str, minutes: i64) -> NewCharacter {
    let mut made = character(id, ALICE, name, &[("NAME", name), ("HP", "5")]);
    made.now = START_MS + minutes * 60_000;
    made
}

#[tokio::test]
async fn show_without_a_name_shows_the_active_character_else_the_newest() {
    let mut harness = Harness::new().await;
    let show = || command("character", &["show"], &[]);
    let none = send(&mut harness, ALICE, show()).await;
    assert_eq!(
        refused(&none),
        "You have no characters here yet. Make one with `/chargen start`, then \
         `/character show` shows it."
    );
    let made = [made_at(1, "Old", 0), made_at(2, "New", 1)];
    harness.storage.finish_session(None, &made).await.unwrap();
    let newest = send(&mut harness, ALICE, show()).await;
    assert!(
        newest
            .interaction()
            .content
            .starts_with("**New**, made with"),
        "{}",
        newest.interaction().content
    );
    send(&mut harness, ALICE, named("use", "old")).await;
    let active = send(&mut harness, ALICE, show()).await;
    assert!(
        active.interaction().content.starts_with(
            "**Old**, made with `chargen` on 2026-01-01 (you play this character here)"
        ),
        "{}",
        active.interaction().content
    );
    // Another player's characters are not theirs to see.
    let bobs = send(&mut harness, BOB, show()).await;
    assert!(refused(&bobs).starts_with("You have no characters here yet."));
}

#[tokio::test]
async fn the_console_deletes_with_press_delete() {
    let dir = crate::support::TempDir::new("chars-console");
    let storage = crate::support::sqlite_storage(&dir).await;
    let mut udo = character(1, 1, "Udo", &[("STR", "17")]);
    udo.guild_id = 1;
    storage.finish_session(None, &[udo]).await.unwrap();
    let mut console = crate::console::console_on(&storage);
    let asked = crate::console::say(&mut console, "/character delete Udo").await;
    assert!(
        asked.ends_with("[buttons: Delete | Cancel] (/press LABEL)\n"),
        "{asked}"
    );
    let deleted = crate::console::say(&mut console, "/press Delete").await;
    // The private question becomes the outcome: an edit, as on Discord.
    assert_eq!(deleted, "(edited) (only you) Deleted **Udo**.\n");
    assert!(
        storage
            .character_named(1, 1, "Udo")
            .await
            .unwrap()
            .is_none()
    );
}

/// A double press of **Delete**: through the core with one custom id twice, and in
/// the console with two questions open, where the second `/press Delete` once
/// reached the older question and deleted a second character.
#[tokio::test]
async fn a_second_press_of_delete_deletes_nothing() {
    let mut harness = Harness::new().await;
    let made = [made_at(1, "Udo", 0), made_at(2, "Mira", 1)];
    harness.storage.finish_session(None, &made).await.unwrap();
    let first = send(&mut harness, ALICE, named("delete", "Udo")).await;
    let second = send(&mut harness, ALICE, named("delete", "Mira")).await;
    let pressed = press(&second, "Delete");
    assert_eq!(
        updated(&send(&mut harness, ALICE, pressed.clone()).await),
        "Deleted **Mira**."
    );
    assert_eq!(refused(&send(&mut harness, ALICE, pressed).await), STALE);
    assert!(exists(&harness.storage, ALICE, "Udo").await);
    // The first question's own button still answers for Udo, once.
    let pressed = press(&first, "Delete");
    assert_eq!(
        updated(&send(&mut harness, ALICE, pressed.clone()).await),
        "Deleted **Udo**."
    );
    assert_eq!(refused(&send(&mut harness, ALICE, pressed).await), STALE);

    let dir = crate::support::TempDir::new("chars-double");
    let storage = crate::support::sqlite_storage(&dir).await;
    let mut made = [made_at(1, "Udo", 0), made_at(2, "Mira", 1)];
    for character in &mut made {
        character.owner_id = 1;
        character.guild_id = 1;
    }
    storage.finish_session(None, &made).await.unwrap();
    let mut console = crate::console::console_on(&storage);
    crate::console::say(&mut console, "/character delete Udo").await;
    crate::console::say(&mut console, "/character delete Mira").await;
    let deleted = crate::console::say(&mut console, "/press Delete").await;
    assert_eq!(deleted, "(edited) (only you) Deleted **Mira**.\n");
    let again = crate::console::say(&mut console, "/press Delete").await;
    assert_eq!(again, "There is no button to press.\n");
    assert!(
        storage
            .character_named(1, 1, "Udo")
            .await
            .unwrap()
            .is_some()
    );
}
