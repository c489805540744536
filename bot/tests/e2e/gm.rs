//! Rolls for the GM through serenity and the fake (issue 26): the channel line, the
//! GM channel's message with its Reveal button, a refused press and a GM's, and a GM
//! channel where the bot may not post (the roller gets the result privately); a
//! German server's, on SQLite and on PostgreSQL.

use fake_discord::{Opt, Rule, permissions};

use crate::e2e::support::{
    CHANNEL, GUILD, Setup, Tavern, admin, ask_sub, bob, button_id, content, is_ephemeral,
};

const GM_CHANNEL: u64 = 8_100;

#[tokio::test(flavor = "multi_thread")]
async fn a_roll_for_the_gm_reaches_the_gm_channel_and_is_revealed_once() {
    let tavern = Tavern::start().await;
    let set = ask_sub(
        &tavern,
        &admin(),
        "config",
        "gm-channel",
        vec![Opt::channel("channel", GM_CHANNEL)],
    )
    .await;
    assert!(set.content.contains("now go to <#8100>"), "{}", set.content);

    let stealth = || {
        vec![
            Opt::string("expr", "1d20+5"),
            Opt::string("label", "Stealth"),
            Opt::string("to", "gm"),
        ]
    };
    let roll = tavern.slash(&bob(), "roll", stealth());
    let line = tavern.callback(roll).await;
    assert!(!is_ephemeral(&line));
    assert_eq!(
        content(&line),
        "**Bob** rolls **Stealth** (`1d20+5`) for the GM."
    );
    let secret = tavern
        .fake
        .wait_message(|message| message.channel_id == GM_CHANNEL)
        .await
        .expect("the GM channel's message");
    // The GM channel links the line in the channel: the message, not only the channel.
    let posted = tavern
        .fake
        .wait_message(|message| message.interaction_id == Some(roll) && !message.is_ephemeral())
        .await
        .expect("the line in the channel");
    assert_eq!(posted.channel_id, CHANNEL);
    assert!(
        secret.content.starts_with(&format!(
            "**Bob** rolled for the GM in <#8000> (https://discord.com/channels/{GUILD}/{CHANNEL}/{}):",
            posted.id
        )),
        "{}",
        secret.content
    );
    let (_, rolled) = secret.content.split_once('\n').expect("a breakdown");
    assert!(rolled.starts_with("**Stealth**: 1d20 ("), "{rolled}");
    let reveal = button_id(&secret, "Reveal");

    // The roller may not reveal; a GM (Manage Server) may, once.
    let refused = tavern
        .callback(tavern.press(&bob(), &secret, &reveal))
        .await;
    assert!(is_ephemeral(&refused));
    assert!(
        content(&refused).starts_with("Only a GM"),
        "{}",
        content(&refused)
    );
    let pressed = tavern.press(&admin(), &secret, &reveal);
    let revealed = tavern
        .fake
        .wait_message(|message| {
            message.channel_id == CHANNEL && message.content.contains("revealed by")
        })
        .await
        .expect("the result in the channel");
    assert_eq!(
        revealed.content,
        format!("**Bob**'s roll for the GM, revealed by **Alice**:\n{rolled}")
    );
    tavern.callback(pressed).await;
    tavern.settled().await;
    let closed = tavern.fake.message(secret.id).expect("the GM message");
    assert!(
        closed.content.ends_with("Revealed by **Alice**."),
        "{}",
        closed.content
    );
    // Revealed, the GM message still links the line.
    assert!(
        closed
            .content
            .starts_with(secret.content.lines().next().unwrap_or("?")),
        "{}",
        closed.content
    );
    assert!(closed.custom_ids().is_empty());
    let again = tavern
        .callback(tavern.press(&admin(), &secret, &reveal))
        .await;
    assert!(content(&again).contains("has ended"), "{}", content(&again));

    // The bot may not post in the GM channel: the roller gets the result privately.
    let table = [
        (
            permissions::VIEW_CHANNEL | permissions::READ_MESSAGE_HISTORY,
            "**Send Messages**",
        ),
        (permissions::SEND_MESSAGES, "**View Channel**"),
    ];
    for (granted, named) in table {
        tavern.fake.set_bot_permissions(GM_CHANNEL, granted);
        let roll = tavern.slash(&bob(), "roll", stealth());
        let notice = tavern
            .fake
            .wait_message(|m| m.interaction_id == Some(roll) && m.content.contains("GM channel"))
            .await
            .expect("a private notice with the roll");
        assert!(notice.is_ephemeral(), "{}", notice.content);
        assert!(notice.content.contains(named), "{}", notice.content);
        let (_, kept) = notice.content.split_once('\n').expect("the roll");
        assert!(
            kept.starts_with("**Stealth**: 1d20 ("),
            "{}",
            notice.content
        );
        tavern.settled().await;
        let refused: Vec<_> = tavern
            .fake
            .take_violations()
            .into_iter()
            .map(|violation| violation.rule)
            .collect();
        assert_eq!(refused, vec![Rule::MissingPermissions]);
    }
    tavern.fake.assert_no_violations();
    tavern.stop().await;
}

/// A German server's roll for the GM, set, rolled and revealed in German.
async fn in_german(tavern: Tavern) {
    let gm = admin().with_locale("de").with_guild_locale("de");
    let player = bob().with_locale("de").with_guild_locale("de");
    let set = ask_sub(
        &tavern,
        &gm,
        "config",
        "gm-channel",
        vec![Opt::channel("channel", GM_CHANNEL)],
    )
    .await;
    assert!(
        set.content.contains("gehen jetzt nach <#8100>"),
        "{}",
        set.content
    );
    let roll = tavern.slash(
        &player,
        "roll",
        vec![
            Opt::string("expr", "1d20+5"),
            Opt::string("label", "Heimlichkeit"),
            Opt::string("to", "gm"),
        ],
    );
    let line = tavern.callback(roll).await;
    assert_eq!(
        content(&line),
        "**Bob** würfelt **Heimlichkeit** (`1d20+5`) für die Spielleitung."
    );
    let secret = tavern
        .fake
        .wait_message(|message| message.channel_id == GM_CHANNEL)
        .await
        .expect("the GM channel's message");
    assert!(
        secret
            .content
            .starts_with("**Bob** hat in <#8000> für die Spielleitung gewürfelt ("),
        "{}",
        secret.content
    );
    let (_, rolled) = secret.content.split_once('\n').expect("a breakdown");
    let reveal = button_id(&secret, "Aufdecken");
    let pressed = tavern.press(&gm, &secret, &reveal);
    let revealed = tavern
        .fake
        .wait_message(|message| {
            message.channel_id == CHANNEL && message.content.contains("aufgedeckt von")
        })
        .await
        .expect("the result in the channel");
    assert_eq!(
        revealed.content,
        format!("**Bob**s Wurf für die Spielleitung, aufgedeckt von **Alice**:\n{rolled}")
    );
    tavern.callback(pressed).await;
    tavern.settled().await;
    tavern.fake.assert_no_violations();
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_german_roll_for_the_gm_on_sqlite() {
    in_german(Tavern::start_with(Setup::busy()).await).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_german_roll_for_the_gm_on_postgres() {
    let Some(setup) = Setup::busy().on_postgres("gm_e2e_de").await else {
        return;
    };
    in_german(Tavern::start_with(setup).await).await;
}
