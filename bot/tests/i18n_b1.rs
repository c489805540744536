//! Issue 18, group B1 in German: `/roll`, the dice errors, `/odds` and its chart,
//! `/macro`, `/config`, `/help` and the core's shared texts, through the core as a
//! German user (`locale: de`) or in a German server; and every message of these
//! modules, in both languages, within Discord's limits for the longest inputs.

use proptest::prelude::*;
use tavern::core::fit::{ATTACHMENT_DESCRIPTION_CHARS, BUTTON_LABEL_CHARS, CONTENT_CHARS};
use tavern::core::macros::{MAX_DESCRIPTION_LEN, MAX_EXPR_LEN, MAX_NAME_LEN};
use tavern::core::roll::{RollsProblem, advantage, split_rolls};
use tavern::core::{Component, Message, OptionValue, Permissions, Reply, Request, RequestKind};
use tavern::engine::dice_reason;
use tavern::i18n::{self, Lang};

use crate::harness::{ALICE, GUILD, Harness, command, text};

/// Where a request comes from: the user's Discord language and the server's.
#[derive(Debug, Clone, Copy)]
enum Who {
    /// A German user in an English server (private answers German, public English).
    GermanUser,
    /// An English user in a German server (public answers German).
    GermanServer,
    /// A German user in a German server.
    German,
}

fn request(harness: &Harness, who: Who, manager: bool, kind: RequestKind) -> Request {
    let mut request = harness.request(ALICE, Some(GUILD), kind);
    let (user, server) = match who {
        Who::GermanUser => ("de", "en-US"),
        Who::GermanServer => ("en-US", "de"),
        Who::German => ("de", "de"),
    };
    request.locale = Some(user.to_owned());
    request.guild_locale = Some(server.to_owned());
    if manager {
        request.member = Some(tavern::core::Member {
            permissions: Permissions(Permissions::MANAGE_GUILD),
            roles: Vec::new(),
        });
    }
    request
}

fn roll(expr: &str, more: &[(&str, OptionValue)]) -> RequestKind {
    let mut options = vec![("expr", text(expr))];
    options.extend(more.iter().cloned());
    command("roll", &[], &options)
}

fn macro_cmd(sub: &str, options: &[(&str, OptionValue)]) -> RequestKind {
    command("macro", &[sub], options)
}

fn first_message(replies: &[Reply]) -> &Message {
    replies
        .iter()
        .find_map(|reply| match reply {
            Reply::Interaction(message) | Reply::Update(message) => Some(message),
            Reply::Edit { message, .. } | Reply::Channel { message, .. } => Some(message),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no message in {replies:#?}"))
}

fn button_labels(message: &Message) -> Vec<String> {
    message
        .components
        .iter()
        .flat_map(|row| row.0.iter())
        .filter_map(|component| match component {
            Component::Button(button) => Some(button.label.clone()),
            _ => None,
        })
        .collect()
}

/// What a German answer must hold: its text's start or a piece of it, the buttons.
struct Case {
    who: Who,
    manager: bool,
    kind: RequestKind,
    contains: &'static [&'static str],
    buttons: &'static [&'static str],
}

#[tokio::test]
async fn german_answers_of_roll_odds_macro_config_and_help() {
    let cases = vec![
        // /roll
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: roll(" ", &[]),
            contains: &["Sag mir, was ich würfeln soll, zum Beispiel `/würfeln 1d20+5`"],
            buttons: &[],
        },
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: roll("1d20+", &[]),
            contains: &[
                "Das kann ich nicht würfeln:\n```",
                "1d20+\n     ^ Am Ende fehlt etwas: ich erwarte einen Wert",
            ],
            buttons: &[],
        },
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: roll("1d20 + (3", &[]),
            contains: &["ich erwarte `)` oder einen Rechenoperator"],
            buttons: &[],
        },
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: roll("1;2;3;4;5", &[]),
            contains: &["Höchstens 4 Würfe auf einmal, getrennt durch `;` (hier sind es 5)."],
            buttons: &[],
        },
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: roll("3d6 adv", &[]),
            contains: &["genau einem d20", "in `3d6` ist keiner."],
            buttons: &[],
        },
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: roll("1d20", &[("repeat", OptionValue::Integer(0))]),
            contains: &["`anzahl` muss zwischen 1 und"],
            buttons: &[],
        },
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: roll("1d1000000000000", &[]),
            contains: &["zu viele Seiten (höchstens"],
            buttons: &[],
        },
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: roll("1/0", &[]),
            contains: &["^ Division durch null"],
            buttons: &[],
        },
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: roll("1.5+2", &[]),
            contains: &["hier gibt es nur ganze Zahlen: `1.5` hat einen Dezimalpunkt"],
            buttons: &[],
        },
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: roll("$nix + 1", &[]),
            contains: &["unbekanntes Makro $nix"],
            buttons: &[],
        },
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: roll("feuerball +", &[]),
            contains: &["Hier gibt es kein Makro namens `feuerball`; `/makro liste` zeigt alle."],
            buttons: &[],
        },
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: roll("1d20+@STR_MOD", &[]),
            contains: &["Dieser Wurf nutzt Werte eines Charakters (`@…`)"],
            buttons: &[],
        },
        // A public roll: the server's language; a private one: the user's.
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: roll("1d20+5", &[]),
            contains: &["1d20 ("],
            buttons: &["Roll again"],
        },
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: roll("1d20+5", &[("private", OptionValue::Boolean(true))]),
            contains: &["1d20 ("],
            buttons: &["Nochmal würfeln"],
        },
        Case {
            who: Who::GermanServer,
            manager: false,
            kind: roll(
                "1d20+5",
                &[
                    ("label", text("Angriff")),
                    ("repeat", OptionValue::Integer(2)),
                ],
            ),
            contains: &["**Angriff** ×2\n1. "],
            buttons: &["Nochmal würfeln"],
        },
        // /odds
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: command("odds", &[], &[("expr", text(""))]),
            contains: &["Für welchen Wurf? Zum Beispiel `/chancen 4d6kh3`"],
            buttons: &[],
        },
        Case {
            who: Who::GermanServer,
            manager: false,
            kind: command(
                "odds",
                &[],
                &[
                    ("expr", text("1d20+5")),
                    ("target", OptionValue::Integer(15)),
                ],
            ),
            contains: &[
                "1d20+5: Mittelwert 15,50 (exakt 31/2), Standardabweichung 5,77, Bereich 6 bis 25\n",
                "1d20+5 ≥ 15: 55,00 %",
            ],
            buttons: &["genau", "mindestens", "höchstens"],
        },
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: command("odds", &[], &[("expr", text("4d6u"))]),
            contains: &[
                "Die Chancen dafür kann ich nicht berechnen:",
                "exakte Chancen gibt es nicht für Neuwürfe",
            ],
            buttons: &[],
        },
        // /macro
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: macro_cmd("set", &[("name", text("d20")), ("expr", text("1"))]),
            contains: &["`d20` liest sich als Würfelausdruck"],
            buttons: &[],
        },
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: macro_cmd("set", &[("name", text("")), ("expr", text("1"))]),
            contains: &["Ein Makro braucht einen Namen, z. B. `feuerball`."],
            buttons: &[],
        },
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: macro_cmd("set", &[("name", text("x")), ("expr", text("1d"))]),
            contains: &["Dieser Ausdruck ist ungültig, deshalb wurde `x` nicht gespeichert:\n```"],
            buttons: &[],
        },
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: macro_cmd(
                "set",
                &[("name", text("schleife")), ("expr", text("$schleife + 1"))],
            ),
            contains: &["`schleife` wurde nicht gespeichert: die Makros verweisen im Kreis"],
            buttons: &[],
        },
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: macro_cmd(
                "set",
                &[
                    ("name", text("feuerball")),
                    ("expr", text("8d6 + $bonus Feuer")),
                ],
            ),
            contains: &[
                "Dein Makro `$feuerball` gespeichert: `8d6 + $bonus Feuer`.",
                "Hinweis: `$bonus` gibt es noch nicht; bis es angelegt ist, schlägt das Würfeln fehl.",
            ],
            buttons: &[],
        },
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: macro_cmd("show", &[("name", text("feuerball"))]),
            contains: &[
                "`$feuerball` (dein Makro):\n```",
                "Angelegt von **Alice** am 2026-01-01 00:00 UTC.",
            ],
            buttons: &[],
        },
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: macro_cmd("list", &[]),
            contains: &["Deine Makros hier (1):\n- `$feuerball` = `8d6 + $bonus Feuer`"],
            buttons: &[],
        },
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: macro_cmd(
                "set",
                &[
                    ("name", text("heilung")),
                    ("expr", text("2d4+2")),
                    ("scope", text("server")),
                ],
            ),
            contains: &[
                "Nur Mitglieder mit der Berechtigung „Server verwalten“ (oder mit der Rolle, die ein Server-Admin per `/einstellungen makro-rolle` festlegt) können Server-Makros anlegen oder ändern.",
            ],
            buttons: &[],
        },
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: macro_cmd("delete", &[("name", text("feuerball"))]),
            contains: &["Dein Makro `$feuerball` gelöscht."],
            buttons: &[],
        },
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: macro_cmd(
                "delete",
                &[("name", text("feuerball")), ("scope", text("me"))],
            ),
            contains: &["Hier hast du kein Makro namens „feuerball“."],
            buttons: &[],
        },
        // /config
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: command("config", &["show"], &[]),
            contains: &[
                "Die Tavern-Einstellungen dieses Servers:\n- Makro-Rolle: keine (nur „Server verwalten“)\n- Standard-Generatorprogramm: `",
                "(mitgeliefert)\n- Sprache: Englisch",
            ],
            buttons: &[],
        },
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: command("config", &["macro-role"], &[]),
            contains: &[
                "Nur Mitglieder mit der Berechtigung „Server verwalten“ können die Makro-Rolle festlegen.",
            ],
            buttons: &[],
        },
        Case {
            who: Who::GermanUser,
            manager: true,
            kind: command(
                "config",
                &["macro-role"],
                &[("role", OptionValue::Role(77))],
            ),
            contains: &["Mitglieder mit der Rolle <@&77> können jetzt Server-Makros"],
            buttons: &[],
        },
        // /help and the unknown command
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: command("help", &[], &[]),
            contains: &["**Würfeln** · `/würfeln 1d20+5 zum Treffen`", "`d{1,1,2}`"],
            buttons: &["Würfel", "Makros & @Werte", "Charaktere", "NSCs", "Chancen"],
        },
        Case {
            who: Who::German,
            manager: false,
            kind: command("help", &[], &[("topic", text("odds"))]),
            contains: &["**Chancen** sind die exakten Wahrscheinlichkeiten eines Wurfs"],
            buttons: &["Würfel"],
        },
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: command("help", &[], &[("topic", text("`x`"))]),
            contains: &[
                "Zu „'x'“ habe ich keine Seite; die Themen sind roll, macros, chargen, npc, odds, init.",
            ],
            buttons: &[],
        },
        Case {
            who: Who::GermanUser,
            manager: false,
            kind: command("nope", &[], &[]),
            contains: &["Den Befehl `/nope` kenne ich nicht."],
            buttons: &[],
        },
    ];
    let settings = tavern::core::CoreSettings {
        rate_burst: 1000,
        rate_per_minute: 1000,
        ..tavern::core::CoreSettings::default()
    };
    let mut harness = Harness::with_settings(settings).await;
    for (index, case) in cases.iter().enumerate() {
        let request = request(&harness, case.who, case.manager, case.kind.clone());
        let sent = harness.send(&request).await;
        let message = first_message(&sent.replies);
        for piece in case.contains {
            assert!(
                message.content.contains(piece),
                "case {index} ({:?}): {piece:?} not in\n{}",
                case.kind,
                message.content
            );
        }
        let labels = button_labels(message);
        for label in case.buttons {
            assert!(
                labels.iter().any(|l| l == label),
                "case {index}: {labels:?}"
            );
        }
    }
}

#[tokio::test]
async fn the_german_chart_says_what_it_shows_and_the_buttons_redraw_it() {
    let mut harness = Harness::new().await;
    let kind = command("odds", &[], &[("expr", text("2d6"))]);
    let sent = harness
        .send(&request(&harness, Who::GermanServer, false, kind))
        .await;
    let message = sent.interaction();
    let chart = &message.attachments[0];
    assert_eq!(chart.filename, "chancen.png");
    let alt = chart.description.as_deref().unwrap_or("");
    assert_eq!(
        alt,
        "Balkendiagramm der Chance, mit 2d6 genau das jeweilige Ergebnis zu würfeln, von 2 bis 12; \
         am wahrscheinlichsten ist 7 mit 16,67 %."
    );
    let at_least = sent
        .button("mindestens")
        .expect("the view buttons are German");
    let pressed = RequestKind::Button {
        custom_id: at_least,
        message_id: 1,
    };
    let redrawn = harness
        .send(&request(&harness, Who::GermanServer, false, pressed))
        .await;
    let edited = first_message(&redrawn.replies);
    let alt = edited.attachments[0].description.as_deref().unwrap_or("");
    assert!(alt.contains("mindestens das jeweilige Ergebnis"), "{alt}");
}

/// Inputs that reach each form of dice-core's messages; each German reason comes
/// from its own message, not from the kind's fallback sentence.
#[test]
fn every_dice_error_form_has_its_german_reason() {
    let limits = dice_core::Limits::default();
    let inputs = [
        ("1d20+", "Am Ende fehlt etwas: ich erwarte einen Wert"),
        ("1d20 ) 2", "`)` passt hier nicht; ich erwarte"),
        ("1d", "die Seitenzahl der Würfel"),
        (
            "flor(2)",
            "unbekannte Funktion `flor`; meintest du `floor`?",
        ),
        ("1.5", "hier gibt es nur ganze Zahlen"),
        ("dF.3", "ist hier kein Fate-Würfel"),
        (
            "99999999999999999999",
            "die Zahl 99999999999999999999 ist zu groß",
        ),
        (
            "1d20adv",
            "unbekannter Modifikator `adv`: Würfle mit Vorteil als `2d20kh1`",
        ),
        ("4d6 kh3", "Modifikatoren stehen direkt hinter den Würfeln"),
        ("min()", "min() braucht mindestens ein Argument"),
        ("1d20ra", "`ra` braucht eine Bedingung"),
        ("4d6rrl1", "würde endlos neu würfeln"),
        (
            "4d6!!h1",
            "eine aufaddierende Explosion richtet sich nach dem Wert",
        ),
    ];
    for (input, expected) in inputs {
        let error = dice_core::parse_with(input, &limits).expect_err(input);
        let german = dice_reason::reason(Lang::De, error.kind(), error.message());
        assert!(
            german.contains(expected),
            "{input}: {german} ({})",
            error.message()
        );
        assert_eq!(
            dice_reason::reason(Lang::En, error.kind(), error.message()),
            error.message()
        );
    }
    let rolled = [
        ("1/0", "Division durch null"),
        (
            "sqrt(-4)",
            "Aus einer negativen Zahl gibt es keine Quadratwurzel",
        ),
        ("(-2)d6", "eine negative Anzahl Würfel (-2)"),
    ];
    let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(1);
    for (input, expected) in rolled {
        let expr = dice_core::parse_with(input, &limits).expect(input);
        let error = expr.roll(&mut rng, &limits).expect_err(input);
        let german = dice_reason::reason(Lang::De, error.kind(), error.message());
        assert!(
            german.contains(expected),
            "{input}: {german} ({})",
            error.message()
        );
    }
    // Every key of the table is in both catalogues.
    for (_, key) in dice_reason::FORMS
        .iter()
        .chain(dice_reason::EXPECTED)
        .chain(dice_reason::CAUSES)
    {
        for lang in Lang::ALL {
            assert!(i18n::has_message(lang, key), "{lang:?} {key}");
        }
    }
}

/// Text of `chars` characters, wide ones included (Discord counts characters).
fn long_text(seed: &str, chars: usize) -> String {
    seed.chars().cycle().take(chars).collect()
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 32,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Every message of group B1, in English and German, built from the longest
    /// inputs Discord lets through (a 1,000-character expression, 32-character names,
    /// 100-character labels and descriptions), fits Discord's limits before any
    /// cutting.
    #[test]
    fn b1_messages_fit_discords_limits_for_the_longest_inputs(
        expr in "[-+*/()d0-9a-z${}@,;<>=!#\\[\\] ÄÖÜäöüß€😀]{900,1000}",
        name_seed in "[a-zA-Z0-9_😀ß]{1,8}",
        label_seed in "[a-zA-Z äöü😀`*_]{1,8}",
    ) {
        let limits = dice_core::Limits::default();
        let name = long_text(&name_seed, MAX_NAME_LEN);
        let label = long_text(&label_seed, 100);
        let macro_expr = long_text(&expr, MAX_EXPR_LEN);
        for lang in Lang::ALL {
            let mut contents: Vec<String> = Vec::new();
            let mut buttons: Vec<String> = vec![
                i18n::tr(lang, "roll-again-button"),
                i18n::tr(lang, "odds-exact-button"),
            ];
            // The dice error as /roll, /odds and /macro set show it.
            if let Err(error) = dice_core::parse_with(&expr, &limits) {
                let failure = tavern::engine::dice::failure(&error, &expr);
                let caret = format!("```\n{}\n```", failure.caret_in(lang));
                contents.push(i18n::tr_args(lang, "roll-cannot-roll", &[("caret", caret.as_str().into())]));
                contents.push(i18n::tr_args(lang, "odds-cannot-compute", &[("caret", caret.as_str().into())]));
                contents.push(i18n::tr_args(lang, "macros-invalid-expr", &[("name", name.as_str().into()), ("caret", caret.as_str().into())]));
                contents.push(i18n::tr_args(lang, "macros-not-saved", &[("name", name.as_str().into()), ("reason", failure.reason_in(lang).into())]));
            }
            // Problems read before the dice language.
            if let Err(problem) = split_rolls(&expr) {
                contents.push(problem.text(lang));
            }
            for part in expr.split(';') {
                if let Err(problem) = advantage(&format!("{part} adv")) {
                    contents.push(problem.text(lang));
                }
            }
            contents.push(RollsProblem::Advantage { expr: long_text(&expr, 100), several: true }.text(lang));
            // /macro with the longest names, expressions and descriptions.
            for whose in ["personal", "server"] {
                let args = [
                    ("name", name.as_str().into()),
                    ("expr", macro_expr.as_str().into()),
                    ("whose", whose.into()),
                    ("created", "no".into()),
                    ("count", 1000.into()),
                    ("max", MAX_EXPR_LEN.into()),
                    ("scope", long_text(&label, 20).into()),
                    ("sub", long_text(&label, 32).into()),
                    ("by", format!("**{}**", long_text(&label, 64)).into()),
                    ("when", "2026-01-01 00:00 UTC".into()),
                    ("changed_by", format!("**{}**", long_text(&label, 64)).into()),
                    ("changed_when", "2026-01-01 00:00 UTC".into()),
                    ("names", long_text(&format!("`${name}`, "), 1200).into()),
                    ("role", "18446744073709551615".into()),
                    ("what", i18n::tr(lang, "macros-may-set-server").into()),
                    ("reason", long_text(&label, 400).into()),
                    ("description", long_text(&label_seed, MAX_DESCRIPTION_LEN).into()),
                ];
                for key in [
                    "macros-saved", "macros-saved-shadowed", "macros-full", "macros-name-invalid",
                    "macros-name-is-dice", "macros-show-heading", "macros-show-created-changed",
                    "macros-deleted", "macros-none-called", "macros-scope-unknown",
                    "macros-unknown-subcommand", "macros-saved-undefined", "config-not-allowed",
                    "macros-not-saved", "macros-show-none",
                ] {
                    contents.push(i18n::tr_args(lang, key, &args));
                }
                let choice = i18n::tr_args(lang, "macros-choice-whose", &args);
                prop_assert!(choice.chars().count() <= 12, "{choice}");
            }
            // /odds: the summary and the alt text of the longest shown expression.
            let odds = dice_core::parse_with("4d6kh3", &limits).and_then(|e| e.odds(&limits)).unwrap();
            let shown = long_text(&expr, 1000);
            for view in tavern::chart::View::ALL {
                buttons.push(view.label(lang));
                let alt = tavern::chart::alt_text(lang, &shown, &odds, view);
                // `/odds` cuts the description at 1,000 characters; the words around
                // the expression are short, so a short expression is never cut.
                prop_assert!(alt.chars().count() <= shown.chars().count() + 300, "{alt}");
                let short = tavern::chart::alt_text(lang, &long_text(&expr, 100), &odds, view);
                prop_assert!(short.chars().count() <= ATTACHMENT_DESCRIPTION_CHARS, "{short}");
            }
            contents.push(tavern::chart::summary(lang, &long_text(&expr, 200), &odds, Some(i64::MAX)));
            contents.push(i18n::tr_args(lang, "common-overrun-busy", &[("what", i18n::tr_args(lang, "odds-computing", &[("expr", long_text(&expr, 100).into())]).into())]));
            contents.push(i18n::tr_args(lang, "common-overrun-timed-out", &[("what", i18n::tr_args(lang, "odds-computing", &[("expr", long_text(&expr, 100).into())]).into()), ("wait", i18n::duration(lang, i64::MAX).into())]));
            contents.push(i18n::tr_args(lang, "common-unknown-command", &[("command", long_text(&name, 32).into())]));
            contents.push(i18n::tr_args(lang, "help-unknown-topic", &[("topic", long_text(&label, 10).into()), ("topics", "roll, macros, chargen, npc, odds, init".into())]));
            for page in tavern::core::help::HelpPage::ALL {
                contents.push(page.text(lang));
            }
            for content in &contents {
                prop_assert!(content.chars().count() <= CONTENT_CHARS, "{lang:?}: {} characters: {content}", content.chars().count());
            }
            for label in &buttons {
                prop_assert!((1..=BUTTON_LABEL_CHARS).contains(&label.chars().count()), "{label}");
            }
        }
    }
}
