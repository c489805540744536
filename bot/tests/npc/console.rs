//! NPCs through the console: plain lines, menus, restarts.

use std::sync::Arc;

use tavern::core::Core;
use tavern::storage::Storage;

use crate::harness::START_MS;
use crate::support::TempDir;

use super::support::*;

fn console_on(storage: &Storage) -> tavern::console::Console {
    let core = Core::new(
        storage.clone(),
        crate::doubles::engines(),
        settings(),
        Arc::new(tavern::core::limits::ManualClock::new(START_MS)),
        Some(3),
    )
    .with_fetch(Arc::new(tavern::fetch::FileFetch));
    let identity = tavern::console::ConsoleIdentity {
        user: tavern::core::User {
            id: 1,
            name: "tester".to_owned(),
        },
        guild_id: 1,
        channel_id: 1,
        lang: tavern::i18n::Lang::En,
    };
    tavern::console::Console::new(Arc::new(core), identity)
}

async fn type_line(console: &mut tavern::console::Console, line: &str) -> String {
    match console.line(line).await {
        tavern::console::LineOutcome::Output(text) => text,
        tavern::console::LineOutcome::Quit => "<quit>".to_owned(),
    }
}

#[tokio::test]
async fn the_console_talks_with_plain_lines_and_resumes_after_a_restart() {
    let dir = TempDir::new("npc-console");
    let storage = crate::support::sqlite_storage(&dir).await;
    let mut console = console_on(&storage);
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../npc-core/scripts/shopkeeper.ghul");
    let installed = type_line(
        &mut console,
        &format!("/npc install hawknoz file:{}", script.display()),
    )
    .await;
    assert!(
        installed.starts_with("(only you) Installed **Hawknoz**"),
        "{installed}"
    );
    let missing = type_line(&mut console, "/npc install x file:/nonexistent/x.ghul").await;
    assert!(
        missing.starts_with("(only you) I could not read the script"),
        "{missing}"
    );
    let nobody = type_line(&mut console, "/talk hawknoz").await;
    assert!(nobody.contains("you need a character here"), "{nobody}");
    for line in ["/chargen start", "Udo", "1", "M"] {
        type_line(&mut console, line).await;
    }

    let hail = type_line(&mut console, "/talk Hawknoz").await;
    assert_eq!(
        hail,
        "(only you) You talk to Hawknoz as **Udo**. Answer with the buttons under Hawknoz's \
         message, or reply to it.\n*tester talks to Hawknoz.*\n\
         Hawknoz: Welcome to my forge, stranger.\n[buttons: Ask Hawknoz… | Bye] (/press LABEL)\n"
    );
    let name = type_line(&mut console, "name").await;
    assert_eq!(
        name,
        "> **tester:** name\nHawknoz: Hawknoz, smith of Glasdrin.\n\
         [buttons: Ask Hawknoz… | Bye | name] (/press LABEL)\n"
    );
    assert_eq!(type_line(&mut console, "").await, "");
    let shop = type_line(&mut console, "trade").await;
    assert!(shop.contains("*For sale:* iron helm 80 gold"), "{shop}");
    assert!(
        shop.ends_with("[buttons: Buy… | Sell… | Done | Walk away] (/press LABEL)\n"),
        "{shop}"
    );
    let bought = type_line(&mut console, "buy arrow 2").await;
    assert!(
        bought.contains("*You buy 2 arrows for 6 gold.*"),
        "{bought}"
    );
    drop(console);
    storage.close().await;

    let storage = crate::support::sqlite_storage(&dir).await;
    let mut console = console_on(&storage);
    let greeting = console.greeting().await.unwrap();
    assert!(
        greeting.starts_with(
            "Your conversation with `hawknoz` is waiting for an answer:\n> **tester:** buy arrow 2"
        ),
        "{greeting}"
    );
    // The waiting prompt's buttons and menu are the last run's: listed and pressable.
    assert!(
        greeting.contains("[menu: Pick an item, then Buy or Sell]\n  1. iron helm"),
        "{greeting}"
    );
    assert!(
        greeting.ends_with("[buttons: Buy… | Sell… | Done | Walk away] (/press LABEL)\n"),
        "{greeting}"
    );
    let done = type_line(&mut console, "/press Done").await;
    assert!(done.contains("Hawknoz: Mind the edges."), "{done}");
    let asked = type_line(&mut console, "/press name").await;
    assert!(
        asked.contains("Hawknoz: Hawknoz, smith of Glasdrin."),
        "{asked}"
    );
    let form = type_line(&mut console, "/press Ask Hawknoz…").await;
    assert!(
        form.starts_with("[form: Talking to Hawknoz] Ask about…"),
        "{form}"
    );
    let weather = type_line(&mut console, "weather").await;
    assert!(
        weather.contains("Hawknoz: Cold. Good weather for a forge."),
        "{weather}"
    );
    let bye = type_line(&mut console, "bye").await;
    assert!(
        bye.contains("Hawknoz: Farewell.\n*The conversation is over.*"),
        "{bye}"
    );
    let sheet = type_line(&mut console, "/character show Udo").await;
    assert!(
        sheet.contains("Gold 114 · Food 0\nInventory: 2 arrow\nParty: none"),
        "{sheet}"
    );
    storage.close().await;
}

#[tokio::test]
async fn the_console_chooses_from_menus_and_keeps_an_npcs_buttons_while_a_generator_waits() {
    let dir = TempDir::new("npc-console-menus");
    let storage = crate::support::sqlite_storage(&dir).await;
    let mut console = console_on(&storage);
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../npc-core/scripts/shopkeeper.ghul");
    type_line(
        &mut console,
        &format!("/npc install hawknoz file:{}", script.display()),
    )
    .await;
    for line in ["/chargen start", "Udo", "1", "M"] {
        type_line(&mut console, line).await;
    }
    type_line(&mut console, "/talk Hawknoz").await;
    let shop = type_line(&mut console, "trade").await;
    assert!(
        shop.contains("[menu: Pick an item, then Buy or Sell]\n  1. iron helm"),
        "{shop}"
    );
    assert!(shop.contains("\n  2. short sword ("), "{shop}");
    assert_eq!(
        type_line(&mut console, "/choose 9").await,
        "No option \"9\"; choose a number from 1 to 4.\n"
    );
    type_line(&mut console, "/choose short sword").await;

    let form = type_line(&mut console, "/press Buy…").await;
    assert!(
        form.starts_with("[form: How many short sword to buy?]"),
        "{form}"
    );
    let bought = type_line(&mut console, "1").await;
    assert!(
        bought.contains("*You buy 1 short sword for 40 gold.*"),
        "{bought}"
    );
    // Done closes the trade message that shows the purchase: it is shown again as
    // that message edited, so one purchase does not read as two.
    let done = type_line(&mut console, "/press Done").await;
    assert!(
        done.starts_with("(edited) > **tester:** buy short sword 1\n*You buy 1 short sword"),
        "{done}"
    );

    // A generator's question does not hide the NPC's buttons.
    let started = type_line(&mut console, "/chargen start").await;
    assert!(started.contains("[buttons: Answer]"), "{started}");
    let left = type_line(&mut console, "/press Bye").await;
    assert!(left.contains("Hawknoz: Farewell."), "{left}");
    drop(console);
    storage.close().await;
}
