//! How a turn commits: the script runs outside any transaction, so a turn waiting for
//! its engine keeps nobody else waiting; the step is claimed and the world written in
//! one short transaction, and a turn whose world changed meanwhile runs again on what
//! is there now.

use std::time::{Duration, Instant};

use tavern::core::{CoreSettings, Reply, Request};

use crate::harness::{ALICE, BOB, GUILD, Hold, command, text};
use crate::support::TempDir;

use super::support::*;

/// A table with one engine worker, and Alice's conversation with `spin` waiting.
async fn one_worker_table(dir: &TempDir) -> (Table, i64, i64) {
    let settings = CoreSettings {
        engine_workers: 1,
        // Long enough that no turn gives up while a test holds the worker.
        engine_time_limit: Duration::from_secs(600),
        ..settings()
    };
    let storage = crate::support::sqlite_storage(dir).await;
    let mut table = Table::on(storage, settings, 7);
    table.install("spin", "runaway.ghul").await;
    let udo = character(table.storage(), 1, ALICE, "Udo", 5).await;
    let hail = table.alice(talk("spin")).await;
    (table, udo, hail.prompt_message.unwrap())
}

/// Alice's answer "gift" to the prompt.
fn gift(table: &Table, prompt: i64) -> Request {
    table
        .harness
        .request(ALICE, Some(GUILD), reply_to(prompt, "gift"))
}

fn said_in(replies: &[Reply]) -> String {
    replies
        .iter()
        .filter_map(|reply| match reply {
            Reply::Channel { message, .. } => Some(message.content.clone()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_waiting_for_its_engine_delays_no_other_write() {
    let dir = TempDir::new("npc-turn-lock");
    let (mut table, udo, prompt) = one_worker_table(&dir).await;
    let hold = Hold::start(&table.harness.core).await;
    let turn = hold.queue(gift(&table, prompt)).await;

    // While Alice's turn waits for the engine, Bob saves a macro: on SQLite a
    // transaction held across the engine's work would keep him waiting for it.
    let started = Instant::now();
    let saved = table
        .as_user(
            BOB,
            command(
                "macro",
                &["set"],
                &[("name", text("hit")), ("expr", text("1d20+5"))],
            ),
        )
        .await;
    let took = started.elapsed();
    eprintln!("macro saved in {took:?} while an NPC turn waited for its engine");
    assert!(
        saved.interaction().content.starts_with("Saved your macro"),
        "{}",
        saved.interaction().content
    );
    assert!(!turn.is_finished());

    hold.let_go().await;
    let replies = turn.await.unwrap();
    assert!(said_in(&replies).ends_with("*You receive 1 gem.*\nSpin: A gem for you."));
    assert_eq!(
        world(table.storage(), ALICE, udo, "spin", "c_spin").await,
        "gold=5 food=3 items=t_gem:1 party=- flags=- parms=-"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_whose_world_changed_meanwhile_runs_again_on_the_new_one() {
    let dir = TempDir::new("npc-turn-changed");
    let (table, udo, prompt) = one_worker_table(&dir).await;
    let hold = Hold::start(&table.harness.core).await;
    let turn = hold.queue(gift(&table, prompt)).await;
    // The turn read 5 gold before it queued; the purse changes before it writes.
    assert!(table.storage().restart_purse(udo, 50, 3).await.unwrap());
    hold.let_go().await;
    let replies = turn.await.unwrap();
    assert!(said_in(&replies).ends_with("*You receive 1 gem.*\nSpin: A gem for you."));
    assert_eq!(
        world(table.storage(), ALICE, udo, "spin", "c_spin").await,
        "gold=50 food=3 items=t_gem:1 party=- flags=- parms=-"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_answers_to_one_question_at_once_apply_once() {
    let dir = TempDir::new("npc-turn-twice");
    let (table, udo, prompt) = one_worker_table(&dir).await;
    let hold = Hold::start(&table.harness.core).await;
    let first = hold.queue(gift(&table, prompt)).await;
    let second = hold.queue(gift(&table, prompt)).await;
    hold.let_go().await;
    let answers = [first.await.unwrap(), second.await.unwrap()];
    let given = answers
        .iter()
        .filter(|replies| said_in(replies).ends_with("Spin: A gem for you."))
        .count();
    assert_eq!(given, 1, "{answers:#?}");
    // A reply to a message gets no private answer: the late one changes nothing.
    assert!(answers.iter().any(|replies| said_in(replies).is_empty()));
    assert_eq!(
        world(table.storage(), ALICE, udo, "spin", "c_spin").await,
        "gold=5 food=3 items=t_gem:1 party=- flags=- parms=-"
    );
}
