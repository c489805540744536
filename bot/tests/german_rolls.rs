//! `/roll`, the dice errors, `/odds` and its chart,
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
                "Zu „'x'“ habe ich keine Seite; die Themen sind würfeln, makros, generator, nsc, chancen, initiative.",
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

/// How a dice error of the table below is reached: through the bot's dice engine,
/// as `/roll` and `/odds` reach it.
#[derive(Debug, Clone, Copy)]
enum DiceStep {
    Parse,
    /// Rolled with [`dice_context`]'s macros and fields.
    Roll,
    /// Rolled with at most 5 elements in a series and 12 in a roll.
    TightRoll,
    /// Rolled by dice-core without resolving (the engine always resolves first).
    Unresolved,
    Odds,
    /// Exact odds with a budget of 2000 steps and 64 KiB.
    SmallOdds,
    /// Rolled without macros or fields.
    Bare,
}

/// Macros and fields for the rolling cases.
fn dice_context() -> tavern::engine::RollContext {
    let macros = [
        ("a", "$b".to_owned()),
        ("b", "$a".to_owned()),
        ("bad", "1d20+".to_owned()),
        ("glued", "1d20hit".to_owned()),
        ("deep", format!("{}1{}", "(".repeat(30), ")".repeat(30))),
        ("big", "1+".repeat(999) + "1"),
        ("w1", "$w2+$w2+$w2+$w2".to_owned()),
        ("w2", "$w3+$w3+$w3+$w3".to_owned()),
        ("w3", "$w4+$w4+$w4+$w4".to_owned()),
        ("w4", "1".to_owned()),
    ];
    tavern::engine::RollContext {
        macros: macros
            .into_iter()
            .map(|(name, text)| (name.to_owned(), text))
            .collect(),
        fields: [("STR".to_owned(), 3), ("LOWEST".to_owned(), i64::MIN)].into(),
    }
}

/// Stands for 2001 bytes of `1`: one more than the default limit.
const LONG_DICE: &str = "1 × 2001";

fn dice_failure(step: DiceStep, input: &str) -> tavern::engine::DiceFailure {
    use tavern::engine::{Dice, dice::DiceEngine};
    let limits = dice_core::Limits::default();
    let long = "1".repeat(2001);
    let input = if input == LONG_DICE {
        long.as_str()
    } else {
        input
    };
    let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(1);
    let context = dice_context();
    let engine = DiceEngine::new(limits.clone());
    let tight = DiceEngine::new(dice_core::Limits {
        max_series_len: 5,
        max_elements: 12,
        ..limits.clone()
    });
    let small = DiceEngine::new(dice_core::Limits {
        max_odds_work: 2000,
        max_odds_memory: 1 << 16,
        ..limits.clone()
    });
    let outcome = match step {
        DiceStep::Parse => engine.references(input).map(drop),
        DiceStep::Roll => engine.roll(input, &context, &mut rng, 1800).map(drop),
        DiceStep::TightRoll => tight.roll(input, &context, &mut rng, 1800).map(drop),
        DiceStep::Unresolved => dice_core::parse_with(input, &limits)
            .and_then(|expr| expr.roll(&mut rng, &limits))
            .map(drop)
            .map_err(|error| tavern::engine::dice::failure(&error, input)),
        DiceStep::Odds => engine.odds(input, &context).map(drop),
        DiceStep::SmallOdds => small.odds(input, &context).map(drop),
        DiceStep::Bare => engine
            .roll(input, &Default::default(), &mut rng, 1800)
            .map(drop),
    };
    outcome.expect_err(input)
}

/// Every reason id an input reaches (dice-core's own table lists the ones none
/// can), with its German reason in full: parser, roller, exact odds, macros and
/// fields.
const GERMAN_DICE_REASONS: &[(DiceStep, &str, &str)] = &[
    (
        DiceStep::Parse,
        "1d20 )",
        "`)` passt hier nicht; ich erwarte einen Rechenoperator oder das Ende des Ausdrucks",
    ),
    (
        DiceStep::Parse,
        "1d20+",
        "Am Ende fehlt etwas: ich erwarte einen Wert (eine Zahl, Würfel, `(`, `{` oder eine Funktion)",
    ),
    (
        DiceStep::Parse,
        "1d",
        "Am Ende fehlt etwas: ich erwarte die Seitenzahl der Würfel (eine Zahl, `%`, `F`, `(` oder `{`)",
    ),
    (
        DiceStep::Parse,
        "{1,2",
        "Am Ende fehlt etwas: ich erwarte `}`, `,` oder einen Rechenoperator",
    ),
    (
        DiceStep::Parse,
        "4d6cs(>3",
        "Am Ende fehlt etwas: ich erwarte `)`, `&` oder `|`",
    ),
    (
        DiceStep::Parse,
        "4d6 !",
        "Am Ende fehlt etwas: ich erwarte etwas anderes",
    ),
    (
        DiceStep::Parse,
        "1d6t",
        "Am Ende fehlt etwas: ich erwarte einen Wert (eine Zahl, Würfel, `(`, `{` oder eine Funktion) oder einen Filter (`h`, `l`, `o`, `e`, eine Zahl oder einen Vergleich wie `>=5`)",
    ),
    (
        DiceStep::Parse,
        "flor(2)",
        "unbekannte Funktion `flor`; meintest du `floor`?",
    ),
    (
        DiceStep::Parse,
        "xyzzyq(2)",
        "unbekannte Funktion `xyzzyq`; es gibt abs, floor, ceil, round, min, max, sqrt, exp, log, pow, sign",
    ),
    (
        DiceStep::Parse,
        "cos(4d6/3)",
        "`cos` gibt es hier nicht: gewürfelt wird mit ganzen Zahlen, Winkelfunktionen haben da keinen Platz; es gibt abs, floor, ceil, round, min, max, sqrt, exp, log, pow, sign",
    ),
    (
        DiceStep::Parse,
        "1.5",
        "hier gibt es nur ganze Zahlen: `1.5` hat einen Dezimalpunkt (`/` teilt und schneidet ab; `round(7/2)` rundet, ebenso `floor` und `ceil`)",
    ),
    (
        DiceStep::Parse,
        "dF.3",
        "`dF.3` ist hier kein Fate-Würfel: `dF` (auch `dF.2`) hat die Seiten -1, 0, +1, je zweimal; `dF.1` hat einmal -1, viermal 0 und einmal +1",
    ),
    (
        DiceStep::Parse,
        "99999999999999999999",
        "die Zahl 99999999999999999999 ist zu groß",
    ),
    (
        DiceStep::Parse,
        "1d20adv",
        "unbekannter Modifikator `adv`: Würfle mit Vorteil als `2d20kh1` oder schreib `adv` mit Leerzeichen ans Ende, wie in `/würfeln 1d20 adv`",
    ),
    (
        DiceStep::Parse,
        "{1d20,1d20}dis",
        "unbekannter Modifikator `dis`: Würfle mit Nachteil als `2d20kl1` oder schreib `dis` mit Leerzeichen ans Ende, wie in `/würfeln 1d20 dis`",
    ),
    (
        DiceStep::Parse,
        "4d6z",
        "unbekannter Modifikator `z`; am nächsten kommt `k`",
    ),
    (
        DiceStep::Parse,
        "2d6fire",
        "unbekannter Modifikator `fire` (vor einem Zweck steht ein Leerzeichen: `2d6 fire`)",
    ),
    (
        DiceStep::Parse,
        "1+2hit",
        "`h` passt hier nicht; ich erwarte einen Rechenoperator oder das Ende des Ausdrucks (vor einem Zweck steht ein Leerzeichen)",
    ),
    (
        DiceStep::Parse,
        "4d6 kh3",
        "Modifikatoren stehen direkt hinter den Würfeln, ohne Leerzeichen (`4d6kh3`)",
    ),
    (
        DiceStep::Parse,
        "1d20 x6",
        "Um mehrmals zu würfeln, nimm die Option `anzahl:6` des Befehls (`x6` nach einem Leerzeichen ist die Wiederholung von Roll20; `3d6x6` ohne Leerzeichen explodiert bei 6)",
    ),
    (
        DiceStep::Parse,
        "4d6k>",
        "`k>` braucht eine Zahl zum Vergleichen, etwa `4d6k>3`",
    ),
    (
        DiceStep::Parse,
        "1d20ra",
        "`ra` braucht eine Bedingung, welche Würfel einen weiteren dazulegen, etwa `ra1`, `ra<3` oder `ra(1|2)`",
    ),
    (
        DiceStep::Parse,
        "(1,2)d6",
        "eine Menge wie `(1, 2)` kann keine Würfelanzahl sein; schreib einen einzigen Ausdruck",
    ),
    (
        DiceStep::Parse,
        "4d6k(1,2)",
        "eine Menge wie `(1, 2)` kann hier nicht stehen; schreib einen einzigen Ausdruck",
    ),
    (
        DiceStep::Parse,
        "4d6rrl1",
        "`rrl1` würde endlos neu würfeln (es gibt immer einen niedrigsten und einen höchsten Würfel); würfle einmal neu mit `ro`, etwa `rol1`",
    ),
    (
        DiceStep::Parse,
        "4d6!!h1",
        "`!!h1`: eine aufaddierende Explosion richtet sich nach dem Wert, etwa `!!>=5`; `!h1` und `eh1` lassen den höchsten Würfel explodieren",
    ),
    (
        DiceStep::Parse,
        "4d6!5!!6",
        "ein Würfelterm kann nur auf eine Art explodieren (oder neu gewürfelt werden); verbinde die Bedingungen, etwa `!(>=5|1)`",
    ),
    (
        DiceStep::Parse,
        "abs(1,2)",
        "abs() nimmt genau ein Argument",
    ),
    (
        DiceStep::Parse,
        "pow(1)",
        "pow() nimmt genau zwei Argumente",
    ),
    (
        DiceStep::Parse,
        "min()",
        "min() braucht mindestens ein Argument",
    ),
    (
        DiceStep::Parse,
        "----------------------------------1",
        "zu viele Minuszeichen hintereinander (höchstens 32)",
    ),
    (
        DiceStep::Parse,
        "2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2",
        "zu viele Potenzen hintereinander (höchstens 32)",
    ),
    (
        DiceStep::Parse,
        "((((((((((((((((((((((((((((((((((1",
        "Klammern sind zu tief verschachtelt (höchstens 32 Ebenen)",
    ),
    (
        DiceStep::Parse,
        LONG_DICE,
        "der Ausdruck ist zu lang (2001 Bytes, höchstens 2000)",
    ),
    (
        DiceStep::Roll,
        "sqrt(-4)",
        "sqrt() von -4: Aus einer negativen Zahl gibt es keine Quadratwurzel",
    ),
    (
        DiceStep::Odds,
        "log(0)",
        "log() von 0: Der Logarithmus braucht eine Zahl von mindestens 1",
    ),
    (DiceStep::Roll, "(-2)d6", "eine negative Anzahl Würfel (-2)"),
    (
        DiceStep::Roll,
        "9223372036854775807+1",
        "das Ergebnis passt nicht in eine 64-Bit-Ganzzahl",
    ),
    (DiceStep::Odds, "1/0", "Division durch null"),
    (
        DiceStep::Roll,
        "20000d6",
        "zu viele Würfel (höchstens 10.000 pro Wurf)",
    ),
    (
        DiceStep::Roll,
        "d{}",
        "ein Würfel braucht mindestens eine Seite; diese Reihe ist leer",
    ),
    (
        DiceStep::Roll,
        "1d(0-5)",
        "ein Würfel braucht mindestens eine Seite, nicht -5",
    ),
    (
        DiceStep::Odds,
        "1d2000000",
        "zu viele Seiten (höchstens 1.000.000 pro Würfel)",
    ),
    (
        DiceStep::TightRoll,
        "{1..6}",
        "diese Reihe ist zu lang (höchstens 5 Elemente)",
    ),
    (
        DiceStep::TightRoll,
        "{1..5}+{1..5}+{1..3}",
        "dieser Wurf hat zu viele Würfel und Elemente (höchstens 12)",
    ),
    (
        DiceStep::Unresolved,
        "$x",
        "das Makro $x muss vor dem Würfeln aufgelöst werden",
    ),
    (
        DiceStep::Unresolved,
        "@X",
        "der Wert @X muss vor dem Würfeln aufgelöst werden",
    ),
    (
        DiceStep::Odds,
        "4d6u",
        "exakte Chancen gibt es nicht für Neuwürfe, die von den anderen Würfeln abhängen (`u`, `rol1`, `ral1`); würfle stattdessen oft",
    ),
    (
        DiceStep::Odds,
        "1000d1000kh500",
        "zu aufwendig für eine exakte Berechnung: das Behalten und Streichen unter so vielen Würfeln braucht mehr als 20.000.000 Schritte",
    ),
    (
        DiceStep::Odds,
        "1d1000000*1d1000000",
        "zu aufwendig für eine exakte Berechnung: ein Würfel mit so vielen Seiten braucht mehr als 128 MiB Speicher",
    ),
    (
        DiceStep::Odds,
        "2d1000000",
        "zu aufwendig für eine exakte Berechnung: das Zusammenzählen so vieler Würfel braucht mehr als 20.000.000 Schritte",
    ),
    (
        DiceStep::SmallOdds,
        "d{1d6,1d6,1d6}",
        "zu aufwendig für eine exakte Berechnung: das Verknüpfen der Ergebnisse braucht mehr als 2000 Schritte",
    ),
    (
        DiceStep::SmallOdds,
        "{1..1d100}",
        "zu aufwendig für eine exakte Berechnung: das Aufzählen aller Ausgänge dieser Reihe braucht mehr als 2000 Schritte",
    ),
    (
        DiceStep::SmallOdds,
        "6d6!",
        "zu aufwendig für eine exakte Berechnung: das Zusammenzählen der Ergebnisse braucht mehr als 2000 Schritte",
    ),
    (
        DiceStep::SmallOdds,
        "1d20!",
        "zu aufwendig für eine exakte Berechnung: das Verfolgen der Explosionen braucht mehr als 2000 Schritte",
    ),
    (
        DiceStep::SmallOdds,
        "1d(1d20)",
        "zu aufwendig für eine exakte Berechnung: das Mischen der Ergebnisse braucht mehr als 2000 Schritte",
    ),
    (
        DiceStep::SmallOdds,
        "1d5000",
        "zu aufwendig für eine exakte Berechnung: ein Würfel mit so vielen Seiten braucht mehr als 2000 Schritte",
    ),
    (
        DiceStep::Roll,
        "$a",
        "die Makros verweisen im Kreis: $a → $b → $a",
    ),
    (
        DiceStep::Roll,
        "$bad",
        "das Makro $bad ist ungültig: Am Ende fehlt etwas: ich erwarte einen Wert (eine Zahl, Würfel, `(`, `{` oder eine Funktion)",
    ),
    (
        DiceStep::Roll,
        "$glued",
        "das Makro $glued ist ungültig: unbekannter Modifikator `hit` (vor einem Zweck steht ein Leerzeichen: `1d20 hit`)",
    ),
    (
        DiceStep::Roll,
        "$w1+$w1",
        "die Makros werden mehr als 64-mal aufgelöst (bei $w2)",
    ),
    (DiceStep::Roll, "$nope", "unbekanntes Makro $nope"),
    (
        DiceStep::Roll,
        "@NOPE",
        "unbekannter Wert @NOPE; es gibt: @LOWEST, @STR",
    ),
    (
        DiceStep::Bare,
        "@X",
        "unbekannter Wert @X; es gibt keine Werte",
    ),
    (
        DiceStep::Roll,
        "@LOWEST",
        "mit aufgelösten Makros: die Zahl 9223372036854775808 ist zu groß",
    ),
    (
        DiceStep::Roll,
        "(((($deep))))",
        "mit aufgelösten Makros ist der Ausdruck zu tief verschachtelt (höchstens 32 Ebenen)",
    ),
    (
        DiceStep::Roll,
        "$big+$big+$big+$big+$big+$big+$big+$big+$big",
        "mit aufgelösten Makros ist der Ausdruck zu lang (höchstens 16.000 Bytes)",
    ),
];

/// Digits grouped the way Fluent writes English numbers (`20,000,000`), ungrouped as
/// dice-core writes them.
fn ungrouped(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    chars
        .iter()
        .enumerate()
        .filter(|(at, ch)| {
            **ch != ','
                || !(at
                    .checked_sub(1)
                    .is_some_and(|before| chars[before].is_ascii_digit())
                    && chars.get(at + 1).is_some_and(char::is_ascii_digit))
        })
        .map(|(_, ch)| *ch)
        .collect()
}

/// Each reachable reason in German, in full: from its own key, never from the kind's
/// fallback; the English catalogue repeats dice-core's message; the caret and the
/// input stay as they are, only the reason after the carets is translated.
#[test]
fn every_reachable_dice_reason_has_its_german_text() {
    let mut reached = std::collections::BTreeSet::new();
    let mut wrong = Vec::new();
    for (step, input, german) in GERMAN_DICE_REASONS {
        let failure = dice_failure(*step, input);
        let reason = &failure.reason;
        reached.insert(reason.id());
        let said = failure.reason_in(Lang::De);
        if said != *german {
            wrong.push(format!("({step:?}, {input:?}, {said:?}),"));
        }
        assert_eq!(failure.reason_in(Lang::En), failure.message, "{input}");
        let english = dice_reason::from_catalogue(Lang::En, reason)
            .unwrap_or_else(|| panic!("{input}: no English key"));
        assert_eq!(
            ungrouped(&english),
            failure.message,
            "{input}: English catalogue"
        );
        // The input and the carets stay; only the reason after them is German.
        assert_eq!(
            failure.caret_in(Lang::De),
            format!("{} {said}", failure.excerpt),
            "{input}"
        );
        assert_eq!(
            failure.caret,
            format!("{} {}", failure.excerpt, failure.message),
            "{input}"
        );
        assert_eq!(failure.caret_in(Lang::En), failure.caret, "{input}");
    }
    assert!(
        wrong.is_empty(),
        "German reasons differ:\n{}",
        wrong.join("\n")
    );
    // Every id is reached or one that dice-core's tests show no input reaches.
    let unreached: Vec<&str> = dice_core::ReasonId::ALL
        .iter()
        .map(|form| form.id())
        .filter(|id| !reached.contains(id))
        .collect();
    assert_eq!(
        unreached,
        [
            "expected-expression",
            "expected-value",
            "expected-dice-count",
            "expected-number",
            "expected-comparison",
            "expected-target",
            "expected-filter",
            "expected-faces",
            "missing-argument",
            "min-max-number",
            "unknown-modifier-bare",
            "label-space",
            // only a raised cancel flag reaches it (dice-core/tests/odds.rs)
            "cancelled",
        ]
    );
}

/// Every reason id and phrase id of dice-core is a key of `dice.ftl` in both
/// languages, and each key uses exactly the arguments its reason carries (a phrase
/// none).
#[test]
fn every_dice_reason_and_phrase_has_its_key_with_its_arguments() {
    let Some((file, english, german)) = i18n::FILES.iter().find(|(file, _, _)| *file == "dice.ftl")
    else {
        panic!("no dice.ftl");
    };
    for source in [english, german] {
        let shape = crate::i18n::shape(file, source);
        let keys = dice_core::ReasonId::ALL
            .iter()
            .map(|form| (form.id(), form.params()))
            .chain(
                dice_core::Phrase::ALL
                    .iter()
                    .map(|phrase| (phrase.id(), Vec::new())),
            );
        for (id, params) in keys {
            let key = dice_reason::key(id);
            let Some(parts) = shape.get(&key) else {
                panic!("{file}: no `{key}`");
            };
            let used: Vec<&str> = parts
                .get("")
                .map(|variables| variables.iter().map(String::as_str).collect())
                .unwrap_or_default();
            let mut params = params;
            params.sort_unstable();
            assert_eq!(used, params, "{file}: `{key}`'s variables");
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

    /// Every message of this file's commands, in English and German, built from the longest
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
                    "macros-saved-undefined", "config-not-allowed",
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
            contents.push(tavern::chart::summary(lang, None, &long_text(&expr, 200), &odds, Some(tavern::chart::Target::AtLeast(i64::MAX))));
            contents.push(tavern::chart::summary(lang, None, &long_text(&expr, 200), &odds, Some(tavern::chart::Target::AtMost(i64::MIN))));
            contents.push(i18n::tr_args(lang, "odds-target-invalid", &[("target", long_text(&expr, 30).into())]));
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
