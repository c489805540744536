//! Stored conversation state on both backends, and concurrent turns applied once.

use tavern::core::Reply;
use tavern::storage::Storage;

use crate::harness::{ALICE, GUILD};
use crate::on_both_backends;

use super::support::*;

on_both_backends!(conversation_state_on_both_backends);
async fn conversation_state_on_both_backends(storage: Storage) {
    let mut table = Table::on(storage, settings(), 5);
    table.install("maud", "quest_giver.ghul").await;
    table.install("hawknoz", "shopkeeper.ghul").await;
    let udo = character(table.storage(), 1, ALICE, "Udo", 100).await;
    let hail = table.alice(talk("maud")).await;
    let asked = table
        .alice(reply_to(hail.prompt_message.unwrap(), "ring"))
        .await;
    table.alice(press(button(&asked, "Yes"))).await;
    let shop = table.alice(talk("hawknoz")).await;
    let shop = table
        .alice(reply_to(shop.prompt_message.unwrap(), "buy"))
        .await;
    table.alice(choose(&shop, "arrow")).await;
    let opened = table.alice(press(button(&shop, "Buy…"))).await;
    let bought = table.alice(submit(&modal(&opened), "7")).await;
    assert!(
        said(&bought).contains("*You buy 7 arrows for 21 gold.*\n*Your gold:* 79"),
        "{}",
        said(&bought)
    );
    assert_eq!(
        world(table.storage(), ALICE, udo, "maud", "c_maud").await,
        "gold=79 food=3 items=t_arrow:7 party=- flags=c_maud:1 parms=-"
    );
    assert_eq!(
        world(table.storage(), ALICE, udo, "hawknoz", "c_hawknoz").await,
        "gold=79 food=3 items=t_arrow:7 party=- flags=c_hawknoz:1 parms=-"
    );
    let keywords = table
        .storage()
        .npc_conversation_of(ALICE, GUILD)
        .await
        .unwrap();
    assert!(keywords.is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_talks_and_double_presses_apply_once() {
    let mut table = Table::new().await;
    table.install("hawknoz", "shopkeeper.ghul").await;
    let players: Vec<i64> = (100..108).collect();
    for (index, player) in players.iter().enumerate() {
        character(table.storage(), 1000 + index as i64, *player, "Hero", 100).await;
    }
    let mut talks = tokio::task::JoinSet::new();
    for player in &players {
        let core = table.harness.core.clone();
        let request = table.harness.request(*player, Some(GUILD), talk("hawknoz"));
        talks.spawn(async move { core.handle(&request).await });
    }
    let mut gifts = Vec::new();
    while let Some(replies) = talks.join_next().await {
        let replies = replies.unwrap();
        let greeted = replies.iter().any(|reply| {
            matches!(reply, Reply::Channel { message, .. } if message.content.contains("Welcome to my forge"))
        });
        assert!(greeted, "{replies:#?}");
        gifts.push(replies);
    }
    assert_eq!(gifts.len(), players.len());

    // Alice opens the shop, picks arrows, and submits the same quantity form twice at once.
    character(table.storage(), 1, ALICE, "Udo", 100).await;
    let hail = table.alice(talk("hawknoz")).await;
    let shop = table
        .alice(reply_to(hail.prompt_message.unwrap(), "wares"))
        .await;
    table.alice(choose(&shop, "arrow")).await;
    let form = modal(&table.alice(press(button(&shop, "Buy…"))).await);
    let mut submits = tokio::task::JoinSet::new();
    for _ in 0..2 {
        let core = table.harness.core.clone();
        let request = table
            .harness
            .request(ALICE, Some(GUILD), submit(&form, "5"));
        submits.spawn(async move { core.handle(&request).await });
    }
    let mut bought = 0;
    while let Some(replies) = submits.join_next().await {
        for reply in replies.unwrap() {
            match reply {
                Reply::Channel { message, .. } if message.content.contains("You buy 5 arrows") => {
                    bought += 1
                }
                Reply::Interaction(message) => {
                    assert_eq!(message.content, "That question has been answered already.")
                }
                _ => {}
            }
        }
    }
    assert_eq!(bought, 1);
    assert_eq!(
        world(table.storage(), ALICE, 1, "hawknoz", "c_hawknoz").await,
        "gold=85 food=3 items=t_arrow:5 party=- flags=c_hawknoz:1 parms=-"
    );
}
