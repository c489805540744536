//! One rule for "your character", for every command that needs one: the character
//! chosen with `/character use`, else the only or newest one made in this server.
//! A roll that used a character's `@FIELD`s says whose, in both languages.

use tavern::core::RequestKind;
use tavern::storage::Storage;

use crate::fields::character;
use crate::harness::{GUILD, Harness, START_MS, command, text};
use crate::macros::{harness_on, roll, set, total_of};
use crate::on_both_backends;

/// A player's characters (name, STR, minutes after the start it was made), the one
/// chosen with `/character use` and the one deleted afterwards.
struct Setup {
    made: &'static [(&'static str, &'static str, i64)],
    chosen: Option<&'static str>,
    deleted: Option<&'static str>,
}

const ONE: &[(&str, &str, i64)] = &[("Grimli", "16", 0)];
const TWO: &[(&str, &str, i64)] = &[("Grimli", "16", 0), ("Tess", "6", 5)];

/// Sends `kind` as `user` in `lang` (user and server alike); the answer's text.
async fn as_player(harness: &mut Harness, user: i64, lang: &str, kind: RequestKind) -> String {
    harness.clock.advance_ms(1_000);
    let mut request = harness.request(user, Some(GUILD), kind);
    request.locale = Some(lang.to_owned());
    request.guild_locale = Some(lang.to_owned());
    harness.send(&request).await.interaction().content.clone()
}

on_both_backends!(every_command_plays_the_same_character);
async fn every_command_plays_the_same_character(storage: Storage) {
    let mut harness = harness_on(storage);
    // (setup, language, what is asked, how the answer starts, the total)
    let cases: &[(Setup, &str, &str, &str, Option<i64>)] = &[
        (
            Setup {
                made: ONE,
                chosen: None,
                deleted: None,
            },
            "en-US",
            "@STR",
            "`@STR` as **Grimli**: ",
            Some(16),
        ),
        (
            Setup {
                made: ONE,
                chosen: None,
                deleted: None,
            },
            "de",
            "1d1 + @STR_MOD",
            "`1d1 + @STR_MOD` als **Grimli**: ",
            Some(3),
        ),
        (
            Setup {
                made: TWO,
                chosen: None,
                deleted: None,
            },
            "en-US",
            "@STR",
            "`@STR` as **Tess**: ",
            Some(6),
        ),
        (
            Setup {
                made: TWO,
                chosen: Some("grimli"),
                deleted: None,
            },
            "en-US",
            "@STR",
            "`@STR` as **Grimli**: ",
            Some(16),
        ),
        (
            Setup {
                made: TWO,
                chosen: Some("Tess"),
                deleted: Some("Tess"),
            },
            "de",
            "@STR",
            "`@STR` als **Grimli**: ",
            Some(16),
        ),
        // A macro using fields says whose too.
        (
            Setup {
                made: ONE,
                chosen: None,
                deleted: None,
            },
            "en-US",
            "strength",
            "`$strength` as **Grimli**: ",
            Some(16),
        ),
        // Several rolls: each one that used fields.
        (
            Setup {
                made: ONE,
                chosen: None,
                deleted: None,
            },
            "de",
            "@STR; 1d1",
            "`@STR` als **Grimli**: ",
            Some(1),
        ),
        // A roll without fields names nobody.
        (
            Setup {
                made: ONE,
                chosen: None,
                deleted: None,
            },
            "en-US",
            "1d1+1",
            "1d1 (**1**) + 1 = **2**",
            Some(2),
        ),
        (
            Setup {
                made: &[],
                chosen: None,
                deleted: None,
            },
            "en-US",
            "@STR",
            "That roll uses a character's fields (`@…`), and you play no character here.",
            None,
        ),
        (
            Setup {
                made: &[],
                chosen: None,
                deleted: None,
            },
            "de",
            "@STR",
            "Dieser Wurf nutzt Werte eines Charakters (`@…`), aber du spielst hier keinen.",
            None,
        ),
    ];
    for (number, (setup, lang, asked, starts, total)) in cases.iter().enumerate() {
        // A player of their own for each case.
        let user = 1_000 + number as i64;
        let made: Vec<_> = setup
            .made
            .iter()
            .enumerate()
            .map(|(index, (name, strength, minutes))| {
                let mut made = character(
                    user * 10 + index as i64,
                    user,
                    name,
                    &[("NAME", name), ("STR", strength)],
                );
                made.now = START_MS + minutes * 60_000;
                made
            })
            .collect();
        harness.storage.finish_session(None, &made).await.unwrap();
        if let Some(name) = setup.chosen {
            let used = command("character", &["use"], &[("name", text(name))]);
            as_player(&mut harness, user, lang, used).await;
        }
        if let Some(name) = setup.deleted {
            assert_eq!(
                crate::characters::delete(&mut harness, user, name).await,
                format!("Deleted **{name}**.")
            );
        }
        as_player(&mut harness, user, lang, set("strength", "@STR", None)).await;
        let got = as_player(&mut harness, user, lang, roll(asked)).await;
        assert!(got.starts_with(starts), "case {number}: {asked}: {got}");
        assert_eq!(total_of(&got), *total, "case {number}: {asked}: {got}");
        // `/odds` of the same line names the character the same way in its header.
        let named = starts.contains(" as **") || starts.contains(" als **");
        if total.is_some() {
            let odds = command("odds", &[], &[("expr", text(asked))]);
            let chances = as_player(&mut harness, user, lang, odds).await;
            match named {
                true => assert!(
                    chances.starts_with(starts),
                    "case {number}: {asked}: {chances}"
                ),
                false => assert!(
                    !chances.contains(" as **") && !chances.contains(" als **"),
                    "case {number}: {asked}: {chances}"
                ),
            }
        }
        // `/character show` without a name shows the same character.
        let shown = as_player(
            &mut harness,
            user,
            lang,
            command("character", &["show"], &[]),
        )
        .await;
        let expected = starts.split("**").nth(1).filter(|_| named);
        if let Some(name) = expected {
            assert!(
                shown.starts_with(&format!("**{name}**")),
                "case {number}: {shown}"
            );
        }
    }
}
