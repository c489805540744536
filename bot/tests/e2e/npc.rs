//! NPC conversations through serenity: a script installed from an attachment on the
//! (fake) CDN, `/talk`, the "Ask…" modal, keyword buttons and replies.

use fake_discord::{Callback, Invoker, Opt, Origin, SentMessage, permissions};

use crate::e2e::support::{
    ALICE, BOB, CHANNEL, GUILD, How, Setup, Tavern, admin, alice, ask, ask_sub, assert_ends,
    assert_has, assert_starts, bob, button_id, content, is_ephemeral, no_mentions, suggestions,
};

const SHOPKEEPER: &str = include_str!("../../../npc-core/scripts/shopkeeper.ghul");

/// The NPC's message carrying a button labelled `label`, newer than `after`.
async fn npc_message(tavern: &Tavern, label: &str, after: u64) -> SentMessage {
    let message = tavern
        .fake
        .wait_message(|message| {
            message.id > after
                && message.origin == Origin::Channel
                && message.components.iter().any(|row| {
                    row["components"]
                        .as_array()
                        .is_some_and(|buttons| buttons.iter().any(|b| b["label"] == label))
                })
        })
        .await
        .expect("the NPC's message");
    tavern.settled().await;
    message
}

#[tokio::test(flavor = "multi_thread")]
async fn an_npc_from_an_attachment_talks_by_modal_button_and_reply() {
    // More than the default ten commands at once (the test's clock stands still).
    let mut setup = Setup::default();
    setup.config.rate_limit.burst = 50;
    let tavern = Tavern::start_with(setup).await;
    // Alice needs a character to talk as.
    tavern.chargen_run(&alice(), None, How::Modal).await;

    // A server manager installs the script as an attachment; the bot downloads it
    // from the CDN URL Discord gives.
    let admin = alice().with_permissions(permissions::MEMBER | permissions::MANAGE_GUILD);
    let file = tavern.fake.add_attachment("shopkeeper.ghul", SHOPKEEPER);
    let install = tavern.slash(
        &admin,
        "npc",
        vec![Opt::subcommand(
            "install",
            vec![
                Opt::string("name", "hawknoz"),
                Opt::attachment("file", &file),
            ],
        )],
    );
    let installed = tavern.answer(install).await;
    assert!(
        installed
            .content
            .starts_with("Installed **Hawknoz** (`hawknoz`;"),
        "{}",
        installed.content
    );

    let talk = tavern.slash(&alice(), "talk", vec![Opt::string("npc", "hawknoz")]);
    assert!(
        tavern
            .answer(talk)
            .await
            .content
            .starts_with("You talk to Hawknoz as **Udo**.")
    );
    let hail = npc_message(&tavern, "Bye", 0).await;
    assert_eq!(hail.channel_id, CHANNEL);
    assert!(
        hail.content
            .ends_with("Hawknoz: Welcome to my forge, stranger.")
    );

    // "Ask…" opens its modal as the first response; the keyword is answered.
    submit_modal(&tavern, &alice(), &hail, "Ask Hawknoz…", "Name?").await;
    let named = npc_message(&tavern, "name", hail.id).await;
    assert_ends(&named, "Hawknoz: Hawknoz, smith of Glasdrin.");

    // A reply Discord hides from the bot gets the hint; one that pings it answers.
    let hidden = tavern.reply(&alice(), &named, "weathervane", false);
    let hint = tavern.reply_to(hidden).await;
    assert!(hint.content.starts_with("I can't read that reply"));
    tavern.reply(&alice(), &named, "weathervane", true);
    let weather = npc_message(&tavern, "weather", named.id).await;
    assert!(
        weather
            .content
            .ends_with("Hawknoz: Cold. Good weather for a forge.")
    );

    // A keyword button, then Bye.
    let again = tavern.press(&alice(), &weather, &button_id(&weather, "name"));
    tavern.callback(again).await;
    let asked = npc_message(&tavern, "Bye", weather.id).await;
    assert!(
        asked
            .content
            .ends_with("Hawknoz: Hawknoz, smith of Glasdrin.")
    );
    let bye = tavern.press(&alice(), &asked, &button_id(&asked, "Bye"));
    tavern.callback(bye).await;
    let farewell = tavern
        .fake
        .wait_message(|message| message.content.ends_with("*The conversation is over.*"))
        .await
        .expect("the farewell");
    assert!(farewell.custom_ids().is_empty());
    tavern.stop().await;
}

/// An innkeeper whose keywords reach every kind of prompt: yes/no, an amount, a menu,
/// a trade, a flag, and text that would ping if anything let it.
const INNKEEPER: &str = r#"
CONV c_inn {
  NATIVE {
    HAIL   r_hail
    ROOM   r_room
    DONATE r_donate
    FOOD   r_food
    TRADE  r_trade
    PING   r_ping
    BYE    r_bye
  }
}
RESP r_hail {
  CHECK_FLAG 2 { SAY "Welcome back, sleeper." } { SAY "Welcome, traveller." }
}
RESP r_room {
  SAY "A room is 5 gold. Want one?"
  GET_YES_NO { TAKE_GOLD 5 SET_FLAG 2 SAY "Sleep well." } { SAY "Suit yourself." }
}
RESP r_donate { SAY "How much do you give?" GET_AMOUNT TAKE_GOLD SAY "Bless you." }
RESP r_food {
  MENU {
    "Stew" 2 { SAY "Hot stew." }
    "Bread" { SAY "Fresh bread." }
    "Nothing" { BREAK }
  }
  SAY "Anything else?"
}
RESP r_trade { TRADE { t_ale 4 t_torch 8 } SAY "Come again." }
RESP r_ping { SAY "@everyone <@42> <@&7> hear ye" }
RESP r_bye { SAY "Safe travels." }
"#;

/// `/npc install name file:` as `who`.
async fn install_npc(
    tavern: &Tavern,
    who: &Invoker,
    name: &str,
    file: &fake_discord::CdnFile,
) -> SentMessage {
    let options = vec![Opt::string("name", name), Opt::attachment("file", file)];
    ask_sub(tavern, who, "npc", "install", options).await
}

/// Installs the innkeeper as `inn` from a CDN attachment.
async fn install_innkeeper(tavern: &Tavern) {
    let file = tavern.fake.add_attachment("inn.ghul", INNKEEPER);
    let installed = install_npc(tavern, &admin(), "inn", &file).await;
    assert!(
        installed.content.starts_with("Installed **Inn** (`inn`;"),
        "{}",
        installed.content
    );
}

/// A bot where Alice has made a character (to talk as).
async fn alice_with_a_character() -> Tavern {
    let tavern = Tavern::start_with(Setup::busy()).await;
    tavern.chargen_run(&alice(), None, How::Modal).await;
    tavern
}

/// A bot with the innkeeper installed, Alice's character, and the innkeeper's greeting
/// to her.
async fn alice_at_the_inn() -> (Tavern, SentMessage) {
    let tavern = alice_with_a_character().await;
    install_innkeeper(&tavern).await;
    let hail = talk(&tavern, &alice(), 0).await;
    (tavern, hail)
}

/// `/talk npc:inn` as `who`: the private note, then the NPC's greeting.
async fn talk(tavern: &Tavern, who: &Invoker, after: u64) -> SentMessage {
    let note = ask(tavern, who, "talk", vec![Opt::string("npc", "inn")]).await;
    assert!(note.is_ephemeral());
    assert_starts(&note, "You talk to Inn as");
    turn(tavern, who, after, "Inn: Welcome").await
}

/// The NPC's newest message in `who`'s channel after message `after` that contains
/// `needle`, once the bot has recorded it.
async fn turn(tavern: &Tavern, who: &Invoker, after: u64, needle: &str) -> SentMessage {
    let message = tavern
        .fake
        .wait_message(|message| {
            message.id > after
                && message.channel_id == who.channel_id
                && message.origin == Origin::Channel
                && message.content.contains(needle)
        })
        .await
        .unwrap_or_else(|_| panic!("the NPC says {needle:?}"));
    tavern.settled().await;
    assert_eq!(message.allowed_mentions, Some(no_mentions()));
    assert!(message.pings.is_empty(), "{message:?}");
    message
}

/// Presses `label` on the NPC's message and returns the acknowledgement.
async fn press(tavern: &Tavern, who: &Invoker, message: &SentMessage, label: &str) -> Callback {
    tavern
        .callback(tavern.press(who, message, &button_id(message, label)))
        .await
}

/// Opens the modal behind `label` and submits `text` in its one field.
async fn submit_modal(
    tavern: &Tavern,
    who: &Invoker,
    message: &SentMessage,
    label: &str,
    text: &str,
) {
    let opened = press(tavern, who, message, label).await;
    assert_eq!(opened.kind, 9, "a modal is the first response: {opened:?}");
    let modal_id = opened.data["custom_id"].as_str().unwrap().to_owned();
    let field = opened.data["components"][0]["components"][0]["custom_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let submit = tavern.fake.interaction_modal_submit(
        who,
        &modal_id,
        &[(field.as_str(), text)],
        Some(message),
    );
    let acknowledged = tavern
        .callback(tavern.fake.dispatch_interaction(submit))
        .await;
    assert_eq!(acknowledged.kind, 6, "{acknowledged:?}");
}

/// Asks the NPC about `keyword` through "Ask Inn…" and its modal.
async fn ask_npc(
    tavern: &Tavern,
    who: &Invoker,
    message: &SentMessage,
    keyword: &str,
    needle: &str,
) -> SentMessage {
    submit_modal(tavern, who, message, "Ask Inn…", keyword).await;
    turn(tavern, who, message.id, needle).await
}

/// The select menu on `message`: its custom id and its options' (label, value).
fn select_menu(message: &SentMessage, row: usize) -> (String, Vec<(String, String)>) {
    let select = &message.components[row]["components"][0];
    assert_eq!(select["type"], 3, "a string select: {select}");
    let options = select["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|option| {
            (
                option["label"].as_str().unwrap().to_owned(),
                option["value"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    (select["custom_id"].as_str().unwrap().to_owned(), options)
}

/// Picks the option labelled `label` in the select menu of `row`.
async fn choose(
    tavern: &Tavern,
    who: &Invoker,
    message: &SentMessage,
    row: usize,
    label: &str,
) -> Callback {
    let (custom_id, options) = select_menu(message, row);
    let value = options
        .iter()
        .find(|(shown, _)| shown == label)
        .map(|(_, value)| value.clone())
        .unwrap_or_else(|| panic!("no option {label} in {options:?}"));
    let pick = tavern
        .fake
        .interaction_select(who, message, &custom_id, &[value.as_str()]);
    tavern
        .callback(tavern.fake.dispatch_interaction(pick))
        .await
}

/// `/npc activity name code` as `who`.
async fn activity(tavern: &Tavern, who: &Invoker, name: &str, code: i64) -> SentMessage {
    let options = vec![Opt::string("name", name), Opt::integer("code", code)];
    ask_sub(tavern, who, "npc", "activity", options).await
}

async fn udos_gold(tavern: &Tavern, user: u64) -> i64 {
    tavern
        .storage
        .character_named(user as i64, GUILD as i64, "Udo")
        .await
        .unwrap()
        .expect("Udo")
        .gold
}

#[tokio::test(flavor = "multi_thread")]
async fn yes_no_amount_menu_and_trade_through_buttons_selects_and_modals() {
    let (tavern, hail) = alice_at_the_inn().await;
    assert_eq!(udos_gold(&tavern, ALICE).await, 120);
    assert_ends(&hail, "Inn: Welcome, traveller.");
    assert_eq!(labels(&hail), ["Ask Inn…", "Bye"]);

    // GET_YES_NO: two buttons (and a way out).
    let room = ask_npc(&tavern, &alice(), &hail, "room", "Want one?").await;
    assert_eq!(labels(&room), ["Yes", "No", "Walk away"]);
    assert_ends(&room, "*Yes or no?*");
    // The answered message lost its buttons.
    assert!(
        tavern
            .fake
            .message(hail.id)
            .unwrap()
            .custom_ids()
            .is_empty()
    );
    assert_eq!(press(&tavern, &alice(), &room, "Yes").await.kind, 6);
    let slept = turn(&tavern, &alice(), room.id, "Sleep well.").await;
    assert_starts(&slept, "> **Alice:** yes\n");
    assert_eq!(udos_gold(&tavern, ALICE).await, 115);
    // The keyword asked is offered as a button from now on.
    assert_eq!(labels(&slept), ["Ask Inn…", "Bye", "room"]);

    // GET_AMOUNT: a modal with a number field; TAKE_GOLD takes it.
    let donate = ask_npc(&tavern, &alice(), &slept, "donate", "How much do you give?").await;
    assert_eq!(labels(&donate), ["Answer…", "Walk away"]);
    submit_modal(&tavern, &alice(), &donate, "Answer…", "15").await;
    let blessed = turn(&tavern, &alice(), donate.id, "Bless you.").await;
    assert_eq!(udos_gold(&tavern, ALICE).await, 100);

    // MENU: a select menu, costs in the descriptions; BREAK leaves it.
    let food = ask_npc(&tavern, &alice(), &blessed, "food", "*Choose:*").await;
    let (_, options) = select_menu(&food, 0);
    let shown: Vec<&str> = options.iter().map(|(label, _)| label.as_str()).collect();
    assert_eq!(shown, ["Stew", "Bread", "Nothing"]);
    assert_eq!(
        food.components[0]["components"][0]["options"][0]["description"],
        "2 gold"
    );
    assert_eq!(choose(&tavern, &alice(), &food, 0, "Stew").await.kind, 6);
    let stew = turn(&tavern, &alice(), food.id, "Hot stew.").await;
    assert_eq!(udos_gold(&tavern, ALICE).await, 98);
    choose(&tavern, &alice(), &stew, 0, "Nothing").await;
    let done = turn(&tavern, &alice(), stew.id, "Anything else?").await;

    // TRADE: pick an item, Buy…, a quantity modal; then Sell… and Done.
    let shop = ask_npc(&tavern, &alice(), &done, "trade", "*For sale:*").await;
    let (_, wares) = select_menu(&shop, 0);
    assert_eq!(
        wares,
        [
            ("ale".to_owned(), "0".to_owned()),
            ("torch".to_owned(), "1".to_owned())
        ]
    );
    assert_eq!(labels(&shop), ["Buy…", "Sell…", "Done", "Walk away"]);
    // Buy before picking: a private hint, and the prompt stays.
    let early = press(&tavern, &alice(), &shop, "Buy…").await;
    assert_private(&early, "Pick an item from the list first.");
    assert_eq!(choose(&tavern, &alice(), &shop, 0, "torch").await.kind, 6);
    submit_modal(&tavern, &alice(), &shop, "Buy…", "3").await;
    let bought = turn(&tavern, &alice(), shop.id, "You buy 3 torches for 24 gold.").await;
    assert_starts(&bought, "> **Alice:** buy torch 3\n");
    assert_eq!(udos_gold(&tavern, ALICE).await, 74);
    choose(&tavern, &alice(), &bought, 0, "torch").await;
    submit_modal(&tavern, &alice(), &bought, "Sell…", "").await;
    let sold = turn(&tavern, &alice(), bought.id, "You sell 1 torch for 2 gold.").await;
    assert_eq!(udos_gold(&tavern, ALICE).await, 76);
    press(&tavern, &alice(), &sold, "Done").await;
    let after_trade = turn(&tavern, &alice(), sold.id, "Come again.").await;

    // Mention-like text reaches Discord verbatim and pings no one.
    let ping = ask_npc(&tavern, &alice(), &after_trade, "ping", "hear ye").await;
    assert_has(&ping, "Inn: @everyone <@42> <@&7> hear ye");

    press(&tavern, &alice(), &ping, "Bye").await;
    let farewell = turn(&tavern, &alice(), ping.id, "Safe travels.").await;
    assert!(farewell.content.ends_with("*The conversation is over.*"));
    assert!(farewell.custom_ids().is_empty());

    // The flag set by the room is remembered: the next greeting differs.
    let again = talk(&tavern, &alice(), farewell.id).await;
    assert_ends(&again, "Inn: Welcome back, sleeper.");
    tavern.stop().await;
}

const ENDED: &str = "This conversation has ended. `/talk` starts a new one.";

/// A private answer (callback type 4, ephemeral) saying `text`.
fn assert_private(callback: &Callback, text: &str) {
    assert_eq!(callback.kind, 4, "{callback:?}");
    assert!(is_ephemeral(callback), "{callback:?}");
    assert_eq!(content(callback), text);
}

/// The labels of a message's buttons, row by row.
fn labels(message: &SentMessage) -> Vec<String> {
    message
        .components
        .iter()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .filter(|component| component["type"] == 2)
        .map(|button| button["label"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn other_players_buttons_and_stale_buttons_are_refused_privately() {
    let (tavern, hail) = alice_at_the_inn().await;
    tavern.chargen_run(&bob(), None, How::Modal).await;

    // Bob cannot press Alice's buttons, not even the one that opens a modal.
    for label in ["Ask Inn…", "Bye"] {
        let refused = press(&tavern, &bob(), &hail, label).await;
        assert_eq!(refused.kind, 4, "{refused:?}");
        assert_private(
            &refused,
            "This is Alice's conversation; start your own with `/talk`.",
        );
    }
    // A reply of Bob's to Alice's NPC is table talk: nothing happens.
    tavern.reply(&bob(), &hail, "room", true);
    tavern.settled().await;

    let room = ask_npc(&tavern, &alice(), &hail, "room", "Want one?").await;
    // The greeting's buttons belong to an answered prompt.
    let stale = press(&tavern, &alice(), &hail, "Bye").await;
    assert_private(&stale, "That question has been answered already.");
    // A reply Discord hides from the bot (no ping) gets the hint at any question, not
    // only where a keyword is asked.
    let hidden = tavern.reply(&alice(), &room, "yes", false);
    let hint = tavern.reply_to(hidden).await;
    assert_starts(&hint, "I can't read that reply");
    // Another player's hidden reply to it is table talk: no hint for them.
    let table_talk = tavern.reply(&bob(), &room, "nice inn", false);
    // Yes/no takes nothing else: a typed reply gets asked again. A mention of the bot
    // (typed so that Discord shows it the reply) is not part of the answer.
    let bot = tavern.fake.config().bot_user_id;
    tavern.reply(&alice(), &room, &format!("<@{bot}> maybe"), true);
    let asked = turn(&tavern, &alice(), room.id, "Please answer yes or no.").await;
    tavern.reply(&alice(), &asked, &format!("<@!{bot}>  Yes"), true);
    let slept = turn(&tavern, &alice(), asked.id, "Sleep well.").await;
    let table_talk = table_talk.to_string();
    let answered_bob = tavern.fake.messages().into_iter().any(|message| {
        message
            .message_reference
            .as_ref()
            .is_some_and(|reference| reference["message_id"] == table_talk.as_str())
    });
    assert!(!answered_bob, "Bob's table talk got an answer");

    // Bob's world is his own: no flag, his own gold.
    let bobs = talk(&tavern, &bob(), slept.id).await;
    assert_ends(&bobs, "Inn: Welcome, traveller.");
    assert_eq!(udos_gold(&tavern, BOB).await, 120);
    assert_eq!(udos_gold(&tavern, ALICE).await, 115);

    // Walking away ends it; its buttons then say so.
    press(&tavern, &alice(), &slept, "Bye").await;
    turn(&tavern, &alice(), slept.id, "Safe travels.").await;
    let ended = press(&tavern, &alice(), &slept, "Ask Inn…").await;
    assert_private(&ended, ENDED);
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_idle_conversation_ends_as_left_after_fifteen_minutes() {
    let (tavern, hail) = alice_at_the_inn().await;
    let room = ask_npc(&tavern, &alice(), &hail, "room", "Want one?").await;

    // Fourteen minutes: still there.
    tavern.clock.advance_ms(14 * 60_000);
    assert_eq!(tavern.bot().sweep().await.unwrap(), 0);
    // Sixteen: the sweep ends it as "left"; the message loses its buttons.
    tavern.clock.advance_ms(2 * 60_000);
    assert_eq!(tavern.bot().sweep().await.unwrap(), 1);
    let left = tavern.fake.message(room.id).unwrap();
    assert_ends(&left, "*Alice walked away.*");
    assert!(left.custom_ids().is_empty());
    let ended = press(&tavern, &alice(), &room, "Yes").await;
    assert_private(&ended, ENDED);
    // Nothing of the pending prompt happened.
    assert_eq!(udos_gold(&tavern, ALICE).await, 120);

    // Idle past its time before a sweep came: pressing ends it there and then.
    let hail = talk(&tavern, &alice(), room.id).await;
    tavern.clock.advance_ms(16 * 60_000);
    let late = press(&tavern, &alice(), &hail, "Bye").await;
    assert_private(&late, ENDED);
    let left = tavern
        .fake
        .wait_message(|message| {
            message.id == hail.id && message.content.ends_with("*Alice walked away.*")
        })
        .await
        .expect("the greeting is marked as left");
    assert!(left.custom_ids().is_empty());
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_conversation_continues_in_a_restarted_bot() {
    let (mut tavern, hail) = alice_at_the_inn().await;
    let room = ask_npc(&tavern, &alice(), &hail, "room", "Want one?").await;

    // SIGTERM, and a new process on the same database file.
    tavern.restart().await;
    press(&tavern, &alice(), &room, "Yes").await;
    let slept = turn(&tavern, &alice(), room.id, "Sleep well.").await;
    assert_eq!(udos_gold(&tavern, ALICE).await, 115);

    // Again, mid-menu, answered by a reply to the old process' message.
    let food = ask_npc(&tavern, &alice(), &slept, "food", "*Choose:*").await;
    // The reply arrives right after the new process' READY, before anything else.
    tavern
        .restart_while(|down| {
            down.reply(&alice(), &food, "bread", true);
        })
        .await;
    let bread = turn(&tavern, &alice(), food.id, "Fresh bread.").await;
    // Stale components of the first process stay stale in the second.
    let stale = press(&tavern, &alice(), &slept, "Bye").await;
    assert_eq!(content(&stale), "That question has been answered already.");
    choose(&tavern, &alice(), &bread, 0, "Nothing").await;
    let done = turn(&tavern, &alice(), bread.id, "Anything else?").await;
    press(&tavern, &alice(), &done, "Bye").await;
    turn(&tavern, &alice(), done.id, "Safe travels.").await;
    // The flag survived both restarts.
    let again = talk(&tavern, &alice(), done.id).await;
    assert_ends(&again, "Welcome back, sleeper.");
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn admins_install_list_set_activity_and_remove_npcs() {
    let tavern = alice_with_a_character().await;
    let file = tavern.fake.add_attachment("inn.ghul", INNKEEPER);
    // Members without the permission are told why.
    let refused = install_npc(&tavern, &bob(), "inn", &file).await;
    assert!(refused.is_ephemeral());
    assert_eq!(
        refused.content,
        "Only members with the Manage Server permission (or the role a server admin sets \
         with `/config macro-role`) can install, remove or change NPCs."
    );
    // Every load error at once, with its line and a caret; nothing installed.
    let broken = tavern.fake.add_attachment(
        "broken.ghul",
        "CONV c_bad {\n  NATIVE { HAIL r_missing }\n}\nRESP r_x { say \"hi\" }\nRESP r_y { SET_FLAG 300 }\n",
    );
    let errors = install_npc(&tavern, &admin(), "bad", &broken).await;
    assert_starts(&errors, "`bad` was not installed: the script has ");
    for line in ["line 2", "line 4", "line 5"] {
        assert!(errors.content.contains(line), "{line}: {}", errors.content);
    }
    assert_has(&errors, "^");
    let wrong = tavern.fake.add_attachment("inn.txt", INNKEEPER);
    let refused = install_npc(&tavern, &admin(), "inn", &wrong).await;
    assert_eq!(refused.content, "`inn.txt` is not a `.ghul` script.");
    let listed = ask_sub(&tavern, &bob(), "npc", "list", vec![]).await;
    assert_starts(&listed, "No NPCs live here yet.");

    // The macro role may install too.
    ask_sub(
        &tavern,
        &admin(),
        "config",
        "macro-role",
        vec![Opt::role("role", 77)],
    )
    .await;
    let installed = install_npc(&tavern, &bob().with_roles(&[77]), "inn", &file).await;
    assert_starts(
        &installed,
        "Installed **Inn** (`inn`; conversations `c_inn`)",
    );
    let offered = suggestions(
        &tavern,
        &alice(),
        "talk",
        vec![Opt::string("npc", "i").focused()],
    )
    .await;
    assert_eq!(offered, [("inn".to_owned(), "inn".to_owned())]);
    let offered = suggestions(
        &tavern,
        &alice(),
        "npc",
        vec![Opt::subcommand(
            "remove",
            vec![Opt::string("name", "").focused()],
        )],
    )
    .await;
    assert_eq!(offered.len(), 1);

    // The activity code: set by admins, shown in the list.
    let refused = activity(&tavern, &bob(), "inn", 1).await;
    assert_starts(&refused, "Only members with");
    let set = activity(&tavern, &admin(), "inn", 3).await;
    assert_eq!(
        set.content,
        "`inn` now has activity code 3; conversations see it from their next turn."
    );
    let listed = ask_sub(&tavern, &bob(), "npc", "list", vec![]).await;
    assert_has(&listed, "- **Inn** (`inn`), activity 3");
    let negative = activity(&tavern, &admin(), "inn", -2).await;
    assert_starts(&negative, "`inn` now has activity code -2;");

    // Removing it ends a waiting conversation.
    let hail = talk(&tavern, &alice(), 0).await;
    let removed = ask_sub(
        &tavern,
        &admin(),
        "npc",
        "remove",
        vec![Opt::string("name", "inn")],
    )
    .await;
    assert_starts(&removed, "Removed `inn`.");
    let gone = press(&tavern, &alice(), &hail, "Bye").await;
    assert!(is_ephemeral(&gone));
    let talk = ask(&tavern, &alice(), "talk", vec![Opt::string("npc", "inn")]).await;
    assert_eq!(
        talk.content,
        "There is no NPC called `inn` here. `/npc list` shows who lives here."
    );
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_activity_code_reaches_the_script() {
    let tavern = alice_with_a_character().await;
    let file = tavern.fake.add_attachment("shopkeeper.ghul", SHOPKEEPER);
    install_npc(&tavern, &admin(), "hawknoz", &file).await;
    activity(&tavern, &admin(), "hawknoz", 1).await;
    let note = ask(
        &tavern,
        &alice(),
        "talk",
        vec![Opt::string("npc", "hawknoz")],
    )
    .await;
    assert_eq!(note.content, "You talk to Hawknoz as **Udo**.");
    let closed = turn(&tavern, &alice(), 0, "The forge is cold").await;
    assert_ends(&closed, "*The conversation is over.*");
    assert!(closed.custom_ids().is_empty());
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_turn_stopped_by_the_step_budget_is_rolled_back_and_the_player_told() {
    let tavern = alice_with_a_character().await;
    // Pasted as `code`: Discord's option fields hold one line, which GhulScript allows.
    let one_line = crate::npc::RUNAWAY.replace('\n', " ");
    let installed = ask_sub(
        &tavern,
        &admin(),
        "npc",
        "install",
        vec![Opt::string("name", "spin"), Opt::string("code", &one_line)],
    )
    .await;
    assert_starts(&installed, "Installed **Spin**");
    let offered = suggestions(
        &tavern,
        &alice(),
        "talk",
        vec![
            Opt::string("npc", "spin"),
            Opt::string("conv", "c_").focused(),
        ],
    )
    .await;
    assert_eq!(offered, [("c_spin".to_owned(), "c_spin".to_owned())]);

    let note = ask(
        &tavern,
        &alice(),
        "talk",
        vec![Opt::string("npc", "spin"), Opt::string("conv", "c_spin")],
    )
    .await;
    assert_starts(&note, "You talk to Spin as **Udo**.");
    let hail = turn(&tavern, &alice(), 0, "Round and round.").await;
    assert_ends(
        &hail,
        // The NPC's words are markdown-escaped: Discord shows the one backslash.
        r#"Spin: Round and round. Ping @everyone and <@123>, "quoted" \\ slash."#,
    );
    submit_modal(&tavern, &alice(), &hail, "Ask Spin…", "spin").await;
    let stopped = turn(&tavern, &alice(), hail.id, "Nothing of this turn was kept.").await;
    assert_eq!(
        stopped.content,
        "> **Alice:** spin\n*Spin stopped: the script ran more than 10000 statements without \
         waiting for the player. Nothing of this turn was kept.*"
    );
    assert!(stopped.custom_ids().is_empty());
    // GIVE_ITEM and CHANGE_PARM GOLD +100 ran before the budget stopped the turn.
    assert_eq!(udos_gold(&tavern, ALICE).await, 120);
    assert!(
        tavern
            .storage
            .npc_conversation_of(ALICE as i64, GUILD as i64)
            .await
            .unwrap()
            .is_none()
    );
    tavern.stop().await;
}

/// The private answer to interaction `id`, however it came (a response, the edit of a
/// deferred one, or a follow-up).
async fn private_answer(tavern: &Tavern, id: u64) -> SentMessage {
    let answer = tavern
        .fake
        .wait_message(|message| message.interaction_id == Some(id) && message.flags & 128 == 0)
        .await
        .expect("an answer");
    assert!(answer.is_ephemeral(), "{answer:?}");
    answer
}

#[tokio::test(flavor = "multi_thread")]
async fn conversations_and_installs_work_when_every_answer_is_deferred() {
    // As with a slow database: an answer not ready at once is deferred (which ones
    // are depends on timing, so callback types are not asserted here).
    let mut setup = Setup::busy();
    setup.config.discord.defer_after_ms = 0;
    let tavern = Tavern::start_with(setup).await;
    tavern.chargen_run(&alice(), None, How::Modal).await;
    install_innkeeper(&tavern).await;
    let hail = talk(&tavern, &alice(), 0).await;
    let room = ask_npc(&tavern, &alice(), &hail, "room", "Want one?").await;

    // Someone else's press is refused privately.
    let pressed = tavern.press(&bob(), &room, &button_id(&room, "Yes"));
    let refused = private_answer(&tavern, pressed).await;
    assert_eq!(
        refused.content,
        "This is Alice's conversation; start your own with `/talk`."
    );

    press(&tavern, &alice(), &room, "Yes").await;
    let slept = turn(&tavern, &alice(), room.id, "Sleep well.").await;
    let shop = ask_npc(&tavern, &alice(), &slept, "trade", "*For sale:*").await;
    assert_eq!(choose(&tavern, &alice(), &shop, 0, "ale").await.kind, 6);
    submit_modal(&tavern, &alice(), &shop, "Buy…", "2").await;
    turn(&tavern, &alice(), shop.id, "You buy 2 ales for 8 gold.").await;
    assert_eq!(udos_gold(&tavern, ALICE).await, 107);

    // A program with syntax errors, confirmed from its private message.
    let file = tavern
        .fake
        .add_attachment("broken.bas", crate::programs::BROKEN);
    let add = Opt::subcommand(
        "add",
        vec![
            Opt::string("name", "broken"),
            Opt::attachment("file", &file),
        ],
    );
    let asked = tavern.slash(&admin(), "chargen", vec![Opt::group("program", vec![add])]);
    let errors = private_answer(&tavern, asked).await;
    assert_eq!(errors.content, crate::programs::BROKEN_ERRORS);
    tavern.press(&admin(), &errors, &button_id(&errors, "Install anyway"));
    let installed = tavern
        .fake
        .wait_message(|message| message.id == errors.id && message.components.is_empty())
        .await
        .expect("the confirmation updated in place");
    assert_starts(
        &installed,
        "Installed `broken` (6 lines, 2 syntax errors accepted).",
    );
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn conversations_with_names_over_100_characters_are_not_offered_whole() {
    let tavern = alice_with_a_character().await;
    let long = format!("c_{}", "x".repeat(100));
    let script = format!(
        "CONV c_short {{ NATIVE {{ HAIL r_hail }} }} CONV {long} {{ NATIVE {{ HAIL r_hail }} }} \
         RESP r_hail {{ SAY \"Hello.\" }}"
    );
    let installed = ask_sub(
        &tavern,
        &admin(),
        "npc",
        "install",
        vec![
            Opt::string("name", "longwinded"),
            Opt::string("code", &script),
        ],
    )
    .await;
    assert_starts(&installed, "Installed **Longwinded**");
    // Discord refuses a choice value over 100 characters: the long name is typed, not
    // picked; the fake would record the refused answer as a violation.
    let offered = suggestions(
        &tavern,
        &alice(),
        "talk",
        vec![
            Opt::string("npc", "longwinded"),
            Opt::string("conv", "c_").focused(),
        ],
    )
    .await;
    assert_eq!(offered, [("c_short".to_owned(), "c_short".to_owned())]);
    tavern.fake.assert_no_violations();
    tavern.stop().await;
}
