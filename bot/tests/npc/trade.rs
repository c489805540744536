//! Menus and trades: selects, costs, quantities.

use crate::harness::ALICE;

use super::support::*;

#[tokio::test]
async fn a_menu_is_a_select_whose_costs_are_charged() {
    let mut table = Table::new().await;
    table.install("avra", "healer.ghul").await;
    let udo = character(table.storage(), 1, ALICE, "Udo", 40).await;
    let hail = table.alice(talk("avra")).await;
    let asked = table
        .alice(reply_to(hail.prompt_message.unwrap(), "heal"))
        .await;
    let menu = table.alice(press(button(&asked, "Yes"))).await;
    assert!(
        said(&menu).ends_with(
            "*Choose:* Heal (30 gold) · Cure poison (50 gold) · Bless (100 gold) · Donate · Done"
        ),
        "{}",
        said(&menu)
    );
    let select = &selects(&menu)[0];
    let options: Vec<(&str, Option<&str>)> = select
        .options
        .iter()
        .map(|option| (option.label.as_str(), option.description.as_deref()))
        .collect();
    assert_eq!(
        options,
        [
            ("Heal", Some("30 gold")),
            ("Cure poison", Some("50 gold")),
            ("Bless", Some("100 gold")),
            ("Donate", None),
            ("Done", None)
        ]
    );
    assert_eq!(buttons(&menu), ["Walk away"]);
    let healed = table.alice(choose(&menu, "Heal")).await;
    assert!(said(&healed).starts_with("> **Alice:** Heal\nAvra: Your wounds close.\n*Choose:*"));
    let poor = table.alice(choose(&healed, "Cure poison")).await;
    assert!(
        said(&poor).contains("*You cannot afford Cure poison.*"),
        "{}",
        said(&poor)
    );
    // Donating asks for an amount in a modal.
    let donate = table.alice(choose(&poor, "Donate")).await;
    assert!(said(&donate).ends_with("Avra: How much will you give?\n*How much?*"));
    let opened = table.alice(press(button(&donate, "Answer…"))).await;
    let given = table.alice(submit(&modal(&opened), "4")).await;
    assert!(
        said(&given).contains("Avra: Bless you for your gift."),
        "{}",
        said(&given)
    );
    let done = table.alice(choose(&given, "Done")).await;
    assert!(said(&done).ends_with("Avra: Go in peace."));
    assert_eq!(
        world(table.storage(), ALICE, udo, "avra", "c_avra").await,
        "gold=6 food=3 items=- party=- flags=- parms=1:1"
    );
}

#[tokio::test]
async fn trade_buys_and_sells_with_a_select_buttons_and_a_quantity_modal() {
    let mut table = Table::new().await;
    table.install("hawknoz", "shopkeeper.ghul").await;
    let udo = character(table.storage(), 1, ALICE, "Udo", 120).await;
    let hail = table.alice(talk("hawknoz")).await;
    let shop = table
        .alice(reply_to(hail.prompt_message.unwrap(), "wares"))
        .await;
    assert!(
        said(&shop).ends_with(
            "*For sale:* iron helm 80 gold · short sword 40 gold · arrow 3 gold · light potion 10 gold\n\
             *Say buy ITEM [N], sell ITEM [N] or done.*\n\
             *Your gold:* 120 · *you can sell:* nothing this trader buys"
        ),
        "{}",
        said(&shop)
    );
    assert_eq!(buttons(&shop), ["Buy…", "Sell…", "Done", "Walk away"]);
    let items: Vec<String> = selects(&shop)[0]
        .options
        .iter()
        .map(|option| {
            format!(
                "{}: {}",
                option.label,
                option.description.clone().unwrap_or_default()
            )
        })
        .collect();
    assert_eq!(
        items,
        [
            "iron helm: 80 gold; sells back for 20",
            "short sword: 40 gold; sells back for 10",
            "arrow: 3 gold",
            "light potion: 10 gold; sells back for 2"
        ]
    );
    // Buy without a pick: a hint.
    let hint = table.alice(press(button(&shop, "Buy…"))).await;
    assert_eq!(
        hint.interaction().content,
        "Pick an item from the list first."
    );
    // Picking an item answers nothing visible; Buy then opens the quantity modal.
    let picked = table.alice(choose(&shop, "arrow")).await;
    assert!(picked.replies.is_empty());
    let opened = table.alice(press(button(&shop, "Buy…"))).await;
    let form = modal(&opened);
    assert_eq!(form.title, "How many arrow to buy?");
    assert_eq!(form.inputs[0].label, "Quantity (3 gold each)");
    let not_a_number = table.alice(submit(&form, "lots")).await;
    assert_eq!(
        not_a_number.interaction().content,
        "Give the quantity as a whole number, like 3."
    );
    let bought = table.alice(submit(&form, "10")).await;
    assert_eq!(
        said(&bought),
        "> **Alice:** buy arrow 10\n*You buy 10 arrows for 30 gold.*\n\
         *Your gold:* 90 · *you can sell:* nothing this trader buys"
    );
    assert_eq!(
        world(table.storage(), ALICE, udo, "hawknoz", "c_hawknoz").await,
        "gold=90 food=3 items=t_arrow:10 party=- flags=c_hawknoz:1 parms=-"
    );
    // The pick belonged to the answered prompt: pick again, then sell.
    let picked = table.alice(choose(&bought, "iron helm")).await;
    assert!(picked.replies.is_empty());
    let helm = table.alice(press(button(&bought, "Buy…"))).await;
    let bought = table.alice(submit(&modal(&helm), "")).await;
    assert!(said(&bought).ends_with(
        "*You buy 1 iron helm for 80 gold.*\n\
         *Your gold:* 10 · *you can sell:* 1 iron helm (20 gold each)"
    ));
    table.alice(choose(&bought, "iron helm")).await;
    let sell = table.alice(press(button(&bought, "Sell…"))).await;
    assert_eq!(modal(&sell).title, "How many iron helm to sell?");
    let sold = table.alice(submit(&modal(&sell), "5")).await;
    assert!(
        said(&sold).ends_with(
            "*You sell 1 iron helm for 20 gold.*\n\
             *Your gold:* 30 · *you can sell:* nothing this trader buys"
        ),
        "{}",
        said(&sold)
    );
    // Typed trade commands work as replies.
    let typed = table
        .alice(reply_to(sold.prompt_message.unwrap(), "sell arrow 4"))
        .await;
    assert!(
        said(&typed).ends_with(
            "*Hawknoz will not buy arrow: it sells for 3 gold, and Hawknoz pays a quarter of \
             that, rounded down: nothing.*\n\
             *Your gold:* 30 · *you can sell:* nothing this trader buys"
        ),
        "{}",
        said(&typed)
    );
    let gem = table
        .alice(reply_to(typed.prompt_message.unwrap(), "sell gem"))
        .await;
    assert!(
        said(&gem)
            .contains("*Hawknoz will not buy gem: Hawknoz buys back only what Hawknoz sells.*"),
        "{}",
        said(&gem)
    );
    // A purchase cut to what the gold pays for says so.
    let potions = table
        .alice(reply_to(gem.prompt_message.unwrap(), "buy light potion 5"))
        .await;
    assert!(
        said(&potions).contains(
            "*You buy 3 light potions for 30 gold.* *Your gold pays for 3 of the 5.*\n\
             *Your gold:* 0 · *you can sell:* 3 light potions (2 gold each)"
        ),
        "{}",
        said(&potions)
    );
    let done = table.alice(press(button(&potions, "Done"))).await;
    assert!(
        said(&done).ends_with("Hawknoz: Mind the edges."),
        "{}",
        said(&done)
    );
    assert_eq!(
        world(table.storage(), ALICE, udo, "hawknoz", "c_hawknoz").await,
        "gold=0 food=3 items=t_arrow:10,t_light_potion:3 party=- flags=c_hawknoz:1 parms=-"
    );
}
