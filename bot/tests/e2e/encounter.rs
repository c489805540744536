//! `/init` through serenity and the fake Discord (issue 14): an effect file
//! installed with `/effect install`, an encounter begun, joined and fought for two
//! rounds on the tracker's own buttons while a poison wears off, a hidden monster as
//! a player and as the GM see it, a non-GM refused, a stale button, a restart in
//! the middle, and the end writing the character back; an encounter left idle is
//! ended by the bot's sweep with a notice in its channel (issue 26).

use fake_discord::{Invoker, Opt, Origin, SentMessage};

use crate::e2e::support::{
    BOB, CHANNEL, GUILD, Setup, Tavern, admin, alice, ask_sub, bob, button_id,
};
use crate::fields::character;

const EFFECTS: &str = "ELEMENTS { POISON MAGIC }
EFFECT Poison { target_type Character; subject HitPoints; value -2; method (POISON);
    duration 2; cumulative no }
EFFECT Bless { target_type Character; subject Strength; value +1; method (MAGIC);
    duration -1; mode while_active }
";

fn carol() -> Invoker {
    Invoker::member(44, GUILD, CHANNEL).with_name("Carol")
}

/// The tracker: the one channel message the bot posted for the encounter.
async fn tracker(tavern: &Tavern) -> SentMessage {
    let found = tavern
        .fake
        .wait_message(|message| {
            message.origin == Origin::Channel
                && !message.deleted
                && message.content.starts_with("**Initiative")
        })
        .await
        .expect("the tracker");
    // Every tracker edit is the same message.
    let trackers = tavern
        .fake
        .messages_in(CHANNEL)
        .into_iter()
        .filter(|message| {
            message.origin == Origin::Channel
                && !message.deleted
                && message.content.starts_with("**Initiative")
        })
        .collect::<Vec<_>>();
    assert_eq!(trackers.len(), 1, "{trackers:#?}");
    found
}

/// Presses a button of the tracker as `who`; returns the press' answer (the events
/// as a follow-up, or a private refusal) and the tracker after it.
async fn press(tavern: &Tavern, who: &Invoker, label: &str) -> (SentMessage, SentMessage) {
    let before = tracker(tavern).await;
    let interaction = tavern.press(who, &before, &button_id(&before, label));
    let answer = tavern.answer(interaction).await;
    tavern.settled().await;
    (answer, tracker(tavern).await)
}

/// `/init SUB` as `who`: the answer, and the tracker once the bot is done.
async fn init(
    tavern: &Tavern,
    who: &Invoker,
    sub: &str,
    options: Vec<Opt>,
) -> (SentMessage, SentMessage) {
    let answer = ask_sub(tavern, who, "init", sub, options).await;
    tavern.settled().await;
    (answer, tracker(tavern).await)
}

fn plain(message: &SentMessage) -> String {
    message.content.replace('\\', "")
}

#[tokio::test(flavor = "multi_thread")]
async fn an_encounter_is_fought_on_the_trackers_buttons_across_a_restart() {
    fought(Tavern::start_with(Setup::busy()).await).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_encounter_is_fought_the_same_on_postgres() {
    let Some(setup) = Setup::busy().on_postgres("encounter_e2e").await else {
        return;
    };
    fought(Tavern::start_with(setup).await).await;
}

/// Someone deletes the tracker: the next change posts it again, and later changes
/// edit the new one.
#[tokio::test(flavor = "multi_thread")]
async fn a_deleted_tracker_is_posted_again() {
    let tavern = Tavern::start().await;
    let (_, first) = init(&tavern, &alice(), "begin", vec![]).await;
    tavern.fake.delete_message(first.id);
    let orc = |name: &str| {
        vec![
            Opt::string("name", name),
            Opt::string("init", "10"),
            Opt::string("hp", "10"),
        ]
    };
    let (added, again) = init(&tavern, &alice(), "add", orc("Orc")).await;
    assert!(plain(&added).contains("Added `Orc`"), "{}", added.content);
    assert_ne!(again.id, first.id, "a new tracker");
    assert!(
        again.content.contains("  10 Orc 10/10"),
        "{}",
        again.content
    );
    let (_, edited) = init(&tavern, &alice(), "add", orc("Goblin")).await;
    assert_eq!(edited.id, again.id, "edited in place");
    assert!(
        edited.content.contains("  10 Goblin 10/10"),
        "{}",
        edited.content
    );
    tavern.settled().await;
    let violations = tavern.fake.take_violations();
    assert!(violations.is_empty(), "{violations:?}");
}

async fn fought(mut tavern: Tavern) {
    let installed = ask_sub(
        &tavern,
        &admin(),
        "effect",
        "install",
        vec![Opt::string("code", EFFECTS)],
    )
    .await;
    assert!(
        installed.content.starts_with("Installed"),
        "{}",
        installed.content
    );
    let mut bram = character(
        5,
        BOB as i64,
        "Bram",
        &[("HP", "12"), ("DEX", "16"), ("AC", "5"), ("STR", "10")],
    );
    let guild = GUILD as i64;
    bram.guild_id = guild;
    tavern.storage.finish_session(None, &[bram]).await.unwrap();
    tavern
        .storage
        .set_active_character(guild, BOB as i64, 5, 0)
        .await
        .unwrap();

    let (begun, first) = init(&tavern, &alice(), "begin", vec![]).await;
    assert!(
        begun.content.contains("**Alice** begins an encounter"),
        "{}",
        begun.content
    );
    assert!(first.content.contains("Nobody yet"), "{}", first.content);
    let (joined, _) = init(&tavern, &bob(), "join", vec![Opt::string("init", "20")]).await;
    assert!(plain(&joined).contains("joins as `Bram`: initiative 20, HP 12/12"));
    let (_, shown) = init(
        &tavern,
        &alice(),
        "add",
        vec![
            Opt::string("name", "Orc"),
            Opt::string("init", "10"),
            Opt::string("hp", "10"),
            Opt::integer("ac", 13),
            Opt::boolean("hidden", true),
        ],
    )
    .await;
    assert!(
        shown.content.contains("  10 Orc  healthy"),
        "{}",
        shown.content
    );
    assert_eq!(shown.id, first.id, "edited in place");
    let stale_next = button_id(&shown, "Next");

    // A member who is neither GM nor player cannot move the turn.
    let (refused, _) = press(&tavern, &carol(), "Next").await;
    assert!(refused.is_ephemeral());
    assert!(
        refused
            .content
            .starts_with("You cannot end someone else's turn")
    );

    let (events, shown) = press(&tavern, &alice(), "Next").await;
    assert!(
        plain(&events).contains("[round 1] Bram"),
        "{}",
        events.content
    );
    assert!(
        shown.content.contains("▶ 20 Bram 12/12 AC 5"),
        "{}",
        shown.content
    );
    // Bob poisons the Orc on his turn; its numbers stay hidden from the table.
    let (cast, shown) = init(
        &tavern,
        &bob(),
        "effect",
        vec![
            Opt::string("targets", "Orc"),
            Opt::string("effect", "Poison"),
        ],
    )
    .await;
    assert!(
        plain(&cast).contains("* Poison on Orc: healthy"),
        "{}",
        cast.content
    );
    assert!(
        shown.content.contains("Orc  healthy  Poison 2"),
        "{}",
        shown.content
    );
    // Bob ends his own turn with the tracker's button.
    let (events, _) = press(&tavern, &bob(), "Next").await;
    assert!(
        plain(&events).contains("[round 1] Orc"),
        "{}",
        events.content
    );

    // A button of an older tracker state is refused, and changes nothing.
    let before = tracker(&tavern).await;
    let stale = tavern
        .answer(tavern.press(&alice(), &before, &stale_next))
        .await;
    assert!(stale.is_ephemeral());
    assert!(stale.content.contains("has moved on"), "{}", stale.content);

    // A restart in the middle: the new process goes on from the database.
    tavern.restart().await;
    let (events, shown) = press(&tavern, &alice(), "Next").await;
    assert!(
        plain(&events).contains("[round 2] Bram"),
        "{}",
        events.content
    );
    let (events, shown_after) = press(&tavern, &alice(), "Next").await;
    let said = plain(&events);
    assert!(said.contains("[round 2] Orc"), "{said}");
    assert!(said.contains("* Poison on Orc: bloodied"), "{said}");
    assert!(said.contains("* Poison wears off Orc."), "{said}");
    assert_eq!(shown.id, shown_after.id);
    assert!(
        shown_after.content.contains("▶ 10 Orc  bloodied\n"),
        "{}",
        shown_after.content
    );
    assert!(!shown_after.content.contains("4/10"));

    // The GM sees the hidden numbers privately; a player sees the word.
    let (gm, _) = init(&tavern, &alice(), "list", vec![]).await;
    assert!(gm.is_ephemeral());
    assert!(
        gm.content.contains("Orc  4/10 AC 13 (hidden)"),
        "{}",
        gm.content
    );
    let (player, _) = init(&tavern, &bob(), "list", vec![]).await;
    assert!(
        player.content.contains("Orc  bloodied"),
        "{}",
        player.content
    );

    // Bless stays on Bram past the end; his HP is written back.
    init(
        &tavern,
        &bob(),
        "hp",
        vec![Opt::string("target", "Bram"), Opt::string("amount", "-5")],
    )
    .await;
    init(
        &tavern,
        &alice(),
        "effect",
        vec![
            Opt::string("targets", "Bram"),
            Opt::string("effect", "Bless"),
        ],
    )
    .await;
    let question = ask_sub(&tavern, &alice(), "init", "end", vec![]).await;
    assert!(question.is_ephemeral());
    let confirm = tavern.press(
        &alice(),
        &question,
        &button_id(&question, "End the encounter"),
    );
    tavern.callback(confirm).await;
    tavern.settled().await;
    let over = tavern
        .fake
        .wait_message(|message| {
            message.origin == Origin::Channel && message.content.contains("The encounter is over")
        })
        .await
        .expect("the end is told");
    assert!(
        plain(&over).contains("Bram HP 7, keeps Bless"),
        "{}",
        over.content
    );
    let last = tavern.fake.message(shown_after.id).unwrap();
    assert!(last.components.is_empty() && last.content.ends_with("*Ended.*"));
    assert!(
        tavern
            .storage
            .encounter_in_channel(CHANNEL as i64)
            .await
            .unwrap()
            .is_none()
    );
    let kept = tavern.storage.character_effects(5).await.unwrap().unwrap();
    assert_eq!(kept.fields, r#"[["HP","7"]]"#);
    tavern.stop().await;
}

/// Nobody changes the encounter for the idle time (24 hours by default): the bot's
/// sweep ends it as `/init end` does, with a notice in the channel in the server's
/// language; an hour earlier it goes on.
async fn swept_when_idle(tavern: Tavern, lang: &str, notice: &str) {
    let channel = i64::try_from(CHANNEL).unwrap();
    let gm = admin().with_locale(lang).with_guild_locale(lang);
    ask_sub(&tavern, &gm, "init", "begin", vec![]).await;
    init(
        &tavern,
        &gm,
        "add",
        vec![
            Opt::string("name", "Orc"),
            Opt::string("init", "10"),
            Opt::string("hp", "15"),
        ],
    )
    .await;
    tavern.clock.advance_ms(23 * 3_600_000);
    assert_eq!(tavern.bot().sweep().await.unwrap(), 0);
    let running = async || {
        let stored = tavern.storage.encounter_in_channel(channel).await;
        stored.unwrap().is_some()
    };
    assert!(running().await);
    tavern.clock.advance_ms(3_600_000);
    assert!(tavern.bot().sweep().await.unwrap() >= 1);
    let said = tavern
        .fake
        .wait_message(|message| message.channel_id == CHANNEL && message.content.contains(notice))
        .await
        .expect("the idle notice in the channel");
    assert_eq!(said.origin, Origin::Channel, "{}", said.content);
    tavern.settled().await;
    assert!(!running().await);
    tavern.fake.assert_no_violations();
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_idle_encounter_is_swept_with_a_notice() {
    swept_when_idle(
        Tavern::start_with(Setup::busy()).await,
        "en-US",
        "**This encounter ended** after 24 hours without a change.",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_idle_encounter_is_swept_in_german_on_postgres() {
    let Some(setup) = Setup::busy().on_postgres("encounter_idle_e2e").await else {
        return;
    };
    swept_when_idle(
        Tavern::start_with(setup).await,
        "de",
        "**Diese Begegnung wurde beendet**, nachdem sie 24 Stunden lang unverändert blieb.",
    )
    .await;
}
