//! The language of an answer through the real adapter (issue 18): the interaction's
//! `locale` and `guild_locale` reach the core; private answers speak the user's
//! language, the server's setting names the table's.

use fake_discord::Opt;

use super::support::{Tavern, admin, alice, ask_sub, content, is_ephemeral};

#[tokio::test(flavor = "multi_thread")]
async fn a_german_user_in_an_english_server_and_the_reverse() {
    let tavern = Tavern::start().await;
    // A German admin in a server whose Discord is English: her answer is German and
    // names English as the table's language.
    let german_admin = admin().with_locale("de");
    let shown = ask_sub(&tavern, &german_admin, "config", "language", vec![]).await;
    assert!(
        shown.content.starts_with(
            "Öffentliche Nachrichten erscheinen hier auf Englisch, der Discord-Sprache des Servers"
        ),
        "{}",
        shown.content
    );
    // An English user in a German server: English, naming German.
    let english_in_german = admin().with_locale("en-GB").with_guild_locale("de");
    let shown = ask_sub(&tavern, &english_in_german, "config", "language", vec![]).await;
    assert!(
        shown.content.starts_with(
            "Public messages here are in German, the server's Discord language (auto)."
        ),
        "{}",
        shown.content
    );
    // The server chooses English; the German user's own answers stay German.
    let set = ask_sub(
        &tavern,
        &german_admin,
        "config",
        "language",
        vec![Opt::string("language", "en")],
    )
    .await;
    assert!(
        set.content
            .starts_with("Ab jetzt schreibt Tavern öffentliche Nachrichten hier auf Englisch."),
        "{}",
        set.content
    );
    // The rate limit refuses in the refused user's language.
    let german = alice().with_locale("de");
    let mut last = None;
    for _ in 0..11 {
        let roll = tavern.slash(&german, "roll", vec![Opt::string("expr", "1d6")]);
        last = Some(tavern.callback(roll).await);
    }
    let limited = last.unwrap();
    assert!(is_ephemeral(&limited));
    assert!(
        content(&limited).starts_with("Immer langsam mit den jungen Pferden!"),
        "{}",
        content(&limited)
    );
    tavern.stop().await;
}
