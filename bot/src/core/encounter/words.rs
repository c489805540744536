//! What the effect engine reports, in the reader's words: a command's events as
//! lines for the channel, and why a command did nothing.

use std::collections::HashSet;

use npc_core::MessageArg;
use npc_core::effects::{EffectError, EffectEvent, EffectRoll, Encounter, Subject};

use super::seats::Seat;
use super::tracker::hp_word;
use crate::core::text::break_fences;
use crate::i18n::{self, Lang};

/// A command's events as lines for the channel (shown in a monospace block, so
/// nothing in them is markup), in `lang`. A hidden combatant's numbers are left out
/// (its hit points read as a word). Effect tags, names and the effect language's
/// subjects stay as written.
pub fn event_lines(
    lang: Lang,
    events: &[EffectEvent],
    engine: &Encounter,
    seats: &[Seat],
) -> Vec<String> {
    let hidden: HashSet<&str> = seats
        .iter()
        .filter(|seat| seat.hidden)
        .map(|seat| seat.name.as_str())
        .collect();
    events
        .iter()
        .filter(|event| !changes_nothing(event))
        .map(|event| event_line(lang, event, engine, &hidden))
        .collect()
}

/// A change that leaves the value as it was (poison ticking on a downed monster,
/// healing at full health) tells the table nothing, every turn.
fn changes_nothing(event: &EffectEvent) -> bool {
    matches!(event, EffectEvent::IntChange { before, after, .. } if before == after)
}

/// Dice listed in an event line; the rest are `…`.
const SHOWN_DICE: usize = 10;

/// An INT change, borrowed from its event.
struct IntChange<'a> {
    effect: Option<&'a str>,
    name: &'a str,
    subject: Subject,
    before: i64,
    after: i64,
    roll: Option<&'a EffectRoll>,
}

/// `* Fireball 3d6 (6,5,4) = 15 on Orc: HitPoints 30 -> 15`; a hidden combatant's
/// value as a word (its hit points) or `changed`.
fn int_change_line(lang: Lang, change: &IntChange, engine: &Encounter, hidden: bool) -> String {
    let mut args = vec![
        ("name", change.name.into()),
        ("subject", subject_name(lang, change.subject).into()),
    ];
    if hidden {
        let now = match (change.subject, engine.combatant(change.name)) {
            (Subject::HitPoints, Some(view)) => hp_word(lang, change.after, view.max_hp),
            (Subject::HitPoints, None) => hp_word(lang, change.after, change.after),
            _ => i18n::tr(lang, "encounter-event-changed"),
        };
        args.push(("now", now.into()));
    } else {
        args.push(("before", change.before.to_string().into()));
        args.push(("after", change.after.to_string().into()));
    }
    let Some(effect) = change.effect else {
        return match hidden {
            true => i18n::tr_args(lang, "encounter-event-direct-change-hidden", &args),
            false => i18n::tr_args(lang, "encounter-event-direct-change", &args),
        };
    };
    args.push(("effect", effect.into()));
    let Some(roll) = change.roll else {
        return match hidden {
            true => i18n::tr_args(lang, "encounter-event-change-hidden", &args),
            false => i18n::tr_args(lang, "encounter-event-change", &args),
        };
    };
    args.push(("roll", roll_text(lang, roll).into()));
    match hidden {
        true => i18n::tr_args(lang, "encounter-event-change-rolled-hidden", &args),
        false => i18n::tr_args(lang, "encounter-event-change-rolled", &args),
    }
}

/// An effect's roll as dice notation: `8d6 (6,5,…) = 27`.
fn roll_text(lang: Lang, roll: &EffectRoll) -> String {
    let total = roll.total.to_string();
    if roll.dice.is_empty() {
        return i18n::tr_args(
            lang,
            "encounter-roll-without-dice",
            &[("expr", roll.expr.as_str().into()), ("total", total.into())],
        );
    }
    let mut dice: Vec<String> = roll
        .dice
        .iter()
        .take(SHOWN_DICE)
        .map(ToString::to_string)
        .collect();
    if roll.dice.len() > SHOWN_DICE {
        dice.push("…".to_owned());
    }
    i18n::tr_args(
        lang,
        "encounter-roll",
        &[
            ("expr", roll.expr.as_str().into()),
            ("dice", dice.join(",").into()),
            ("total", total.into()),
        ],
    )
}

/// A BOOL an effect set, as what it means for the holder: `* Stun: Orc is stunned
/// and loses the turn.` (`value` is the shown value, `true` or `false`).
fn flag_line(
    lang: Lang,
    effect: &str,
    name: &str,
    subject: Subject,
    value: &str,
) -> Option<String> {
    let key = match (subject, value) {
        (Subject::LoseTurn, "true") => "encounter-event-stunned",
        (Subject::LoseTurn, "false") => "encounter-event-acts-again",
        (Subject::Dead, "true") => "encounter-event-dies",
        (Subject::Dead, "false") => "encounter-event-lives-again",
        _ => return None,
    };
    Some(i18n::tr_args(
        lang,
        key,
        &[("effect", effect.into()), ("name", name.into())],
    ))
}

fn event_line(
    lang: Lang,
    event: &EffectEvent,
    engine: &Encounter,
    hidden: &HashSet<&str>,
) -> String {
    match event {
        EffectEvent::TurnStart { round, name } => i18n::tr_args(
            lang,
            "encounter-event-turn",
            &[("round", round.to_string().into()), ("name", name.into())],
        ),
        EffectEvent::IntChange {
            effect,
            name,
            subject,
            before,
            after,
            roll,
        } => {
            let change = IntChange {
                effect: effect.as_deref(),
                name,
                subject: *subject,
                before: *before,
                after: *after,
                roll: roll.as_ref(),
            };
            int_change_line(lang, &change, engine, hidden.contains(name.as_str()))
        }
        EffectEvent::ProtectionChange {
            effect,
            name,
            element,
            ..
        } if hidden.contains(name.as_str()) => i18n::tr_args(
            lang,
            "encounter-event-protection-hidden",
            &[
                ("effect", effect.into()),
                ("name", name.into()),
                ("element", element.into()),
            ],
        ),
        EffectEvent::ProtectionChange {
            effect,
            name,
            element,
            operation,
        } => i18n::tr_args(
            lang,
            "encounter-event-protection",
            &[
                ("effect", effect.into()),
                ("name", name.into()),
                ("element", element.into()),
                ("operation", operation.into()),
            ],
        ),
        EffectEvent::SetChange {
            effect,
            name,
            subject: Subject::Immunity,
            added,
            elements,
        } => {
            let key = match added {
                true => "encounter-event-now-immune",
                false => "encounter-event-no-longer-immune",
            };
            i18n::tr_args(
                lang,
                key,
                &[
                    ("effect", effect.into()),
                    ("name", name.into()),
                    ("elements", elements.join(", ").into()),
                ],
            )
        }
        EffectEvent::SetChange {
            effect,
            name,
            subject,
            added,
            elements,
        } => {
            let sign = if *added { '+' } else { '-' };
            i18n::tr_args(
                lang,
                "encounter-event-set",
                &[
                    ("effect", effect.into()),
                    ("name", name.into()),
                    ("subject", subject_name(lang, *subject).into()),
                    ("change", format!("{sign}{{{}}}", elements.join(",")).into()),
                ],
            )
        }
        EffectEvent::Assigned {
            effect,
            name,
            subject,
            value,
        } => flag_line(lang, effect, name, *subject, value).unwrap_or_else(|| {
            i18n::tr_args(
                lang,
                "encounter-event-assigned",
                &[
                    ("effect", effect.into()),
                    ("name", name.into()),
                    ("subject", subject_name(lang, *subject).into()),
                    ("value", value.into()),
                ],
            )
        }),
        EffectEvent::Immune { name, effect } => i18n::tr_args(
            lang,
            "encounter-event-immune",
            &[("effect", effect.into()), ("name", name.into())],
        ),
        EffectEvent::AlreadyHas { name, effect } => i18n::tr_args(
            lang,
            "encounter-event-already-has",
            &[("effect", effect.into()), ("name", name.into())],
        ),
        EffectEvent::NoEffect { effect, name } => i18n::tr_args(
            lang,
            "encounter-event-no-effect",
            &[("effect", effect.into()), ("name", name.into())],
        ),
        EffectEvent::Reduced { effect, name, .. } if hidden.contains(name.as_str()) => {
            i18n::tr_args(
                lang,
                "encounter-event-reduced-hidden",
                &[("effect", effect.into()), ("name", name.into())],
            )
        }
        EffectEvent::Reduced {
            effect,
            name,
            amount,
        } => i18n::tr_args(
            lang,
            "encounter-event-reduced",
            &[
                ("effect", effect.into()),
                ("name", name.into()),
                ("amount", amount.to_string().into()),
            ],
        ),
        EffectEvent::HookAttached { effect, name } => i18n::tr_args(
            lang,
            "encounter-event-hook",
            &[("effect", effect.into()), ("name", name.into())],
        ),
        EffectEvent::WearsOff { effect, name } => i18n::tr_args(
            lang,
            "encounter-event-wears-off",
            &[("effect", effect.into()), ("name", name.into())],
        ),
        EffectEvent::Removed { effect, name } => i18n::tr_args(
            lang,
            "encounter-event-removed",
            &[("effect", effect.into()), ("name", name.into())],
        ),
        EffectEvent::RemovesNothing { effect, name } => i18n::tr_args(
            lang,
            "encounter-event-removes-nothing",
            &[("effect", effect.into()), ("name", name.into())],
        ),
        EffectEvent::Down { name } => {
            i18n::tr_args(lang, "encounter-event-down", &[("name", name.into())])
        }
        EffectEvent::LosesTurn { name } => {
            i18n::tr_args(lang, "encounter-event-loses-turn", &[("name", name.into())])
        }
        EffectEvent::IsDead { name } => {
            i18n::tr_args(lang, "encounter-event-dead", &[("name", name.into())])
        }
        EffectEvent::DownSkips { name } => {
            i18n::tr_args(lang, "encounter-event-down-skips", &[("name", name.into())])
        }
        EffectEvent::Appears { name } => {
            i18n::tr_args(lang, "encounter-event-appears", &[("name", name.into())])
        }
        EffectEvent::CannotSplit { name } => i18n::tr_args(
            lang,
            "encounter-event-cannot-split",
            &[("name", name.into())],
        ),
        EffectEvent::Leaves { name } => {
            i18n::tr_args(lang, "encounter-event-leaves", &[("name", name.into())])
        }
        EffectEvent::EveryoneOut => i18n::tr(lang, "encounter-event-everyone-out"),
    }
}

/// What an effect changed, in `lang`: the effect language's own name in English.
fn subject_name(lang: Lang, subject: Subject) -> String {
    i18n::tr_args(
        lang,
        "encounter-subject",
        &[("subject", subject.name().into())],
    )
}

/// Why the effect engine did nothing, as the end of a sentence in `lang`: the
/// error's message id (`encounter-error-<id>`) with its arguments. English says
/// what the engine's own message says.
pub(super) fn engine_reason(lang: Lang, error: &EffectError) -> String {
    let args: Vec<(&str, i18n::Arg<'_>)> = error
        .args
        .iter()
        .map(|(name, value)| (name.as_str(), engine_arg(lang, value)))
        .collect();
    let key = format!("encounter-error-{}", error.id.name());
    // The names quote what players typed: no fence of theirs may open a code block
    // in our answer.
    break_fences(&i18n::tr_args(lang, &key, &args))
}

/// One argument of an engine refusal; dice-core's reason worded as its errors are
/// everywhere else.
fn engine_arg(lang: Lang, value: &MessageArg) -> i18n::Arg<'_> {
    match value {
        MessageArg::Text(text) => i18n::Arg::from(text),
        MessageArg::Integer(number) => i18n::Arg::from(*number),
        MessageArg::Phrase(phrase) => i18n::Arg::from(phrase.english()),
        MessageArg::DiceReason { english, reason } => i18n::Arg::from(
            match (lang, reason) {
                (Lang::En, _) => Some(english.clone()),
                (_, Some(reason)) => crate::engine::dice_reason::from_catalogue(lang, reason),
                (_, None) => None,
            }
            .unwrap_or_else(|| i18n::tr(lang, "npc-load-dice-reason-unknown")),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every refusal of the effect engine is worded from the error alone, in English
    /// as the engine says it and in German, each argument filled in.
    #[test]
    fn every_engine_refusal_is_worded_in_both_languages() {
        use npc_core::effects::{EffectErrorKind, EffectMessageId};
        for id in EffectMessageId::ALL {
            let template = id.english_template();
            let args: Vec<(String, MessageArg)> = template
                .split('{')
                .skip(1)
                .filter_map(|rest| rest.split_once('}').map(|(name, _)| name))
                .map(|name| {
                    let value = match name {
                        "max" => MessageArg::from(7_usize),
                        "reason" => MessageArg::DiceReason {
                            english: "overflow".to_owned(),
                            reason: None,
                        },
                        _ => MessageArg::from(format!("Arg_{name}")),
                    };
                    (name.to_owned(), value)
                })
                .collect();
            let mut english = template.to_owned();
            for (name, value) in &args {
                english = english.replace(&format!("{{{name}}}"), &value.to_string());
            }
            let error = EffectError {
                kind: EffectErrorKind::Empty,
                message: english.clone(),
                id: *id,
                args: args.clone(),
            };
            assert_eq!(engine_reason(Lang::En, &error), english, "{}", id.name());
            let german = engine_reason(Lang::De, &error);
            assert_ne!(german, english, "{}", id.name());
            assert!(!german.contains('{'), "{}: {german}", id.name());
            for (name, value) in &args {
                let shown = match value {
                    // No structured reason: German says Tavern cannot roll it.
                    MessageArg::DiceReason { .. } => {
                        i18n::tr(Lang::De, "npc-load-dice-reason-unknown")
                    }
                    _ => value.to_string(),
                };
                assert!(german.contains(&shown), "{}: {name} in {german}", id.name());
            }
        }
    }

    /// English event lines are npc-core's own transcript lines, word for word (but
    /// for those said for people, below); the German ones keep tags, names and the
    /// effect language's subjects.
    #[test]
    fn english_event_lines_are_the_engines_and_german_ones_keep_the_names() {
        let (effect, name) = ("Poison".to_owned(), "Orc_2".to_owned());
        let events = [
            EffectEvent::TurnStart {
                round: 12,
                name: name.clone(),
            },
            EffectEvent::IntChange {
                effect: Some(effect.clone()),
                name: name.clone(),
                subject: Subject::HitPoints,
                before: 12,
                after: 10,
                roll: None,
            },
            EffectEvent::IntChange {
                effect: None,
                name: name.clone(),
                subject: Subject::HitPoints,
                before: 12_000,
                after: -3,
                roll: None,
            },
            EffectEvent::ProtectionChange {
                effect: effect.clone(),
                name: name.clone(),
                element: "Fire".to_owned(),
                operation: "+2".to_owned(),
            },
            EffectEvent::SetChange {
                effect: effect.clone(),
                name: name.clone(),
                subject: Subject::HitPoints,
                added: false,
                elements: vec!["Fire".to_owned(), "Ice".to_owned()],
            },
            EffectEvent::Assigned {
                effect: effect.clone(),
                name: name.clone(),
                subject: Subject::HitPoints,
                value: "{Fire}".to_owned(),
            },
            EffectEvent::Immune {
                name: name.clone(),
                effect: effect.clone(),
            },
            EffectEvent::AlreadyHas {
                name: name.clone(),
                effect: effect.clone(),
            },
            EffectEvent::NoEffect {
                effect: effect.clone(),
                name: name.clone(),
            },
            EffectEvent::Reduced {
                effect: effect.clone(),
                name: name.clone(),
                amount: 3,
            },
            EffectEvent::HookAttached {
                effect: effect.clone(),
                name: name.clone(),
            },
            EffectEvent::WearsOff {
                effect: effect.clone(),
                name: name.clone(),
            },
            EffectEvent::Removed {
                effect: effect.clone(),
                name: name.clone(),
            },
            EffectEvent::RemovesNothing {
                effect: effect.clone(),
                name: name.clone(),
            },
            EffectEvent::Down { name: name.clone() },
            EffectEvent::LosesTurn { name: name.clone() },
            EffectEvent::IsDead { name: name.clone() },
            EffectEvent::DownSkips { name: name.clone() },
            EffectEvent::Appears { name: name.clone() },
            EffectEvent::CannotSplit { name: name.clone() },
            EffectEvent::Leaves { name: name.clone() },
            EffectEvent::EveryoneOut,
        ];
        let engine = Encounter::new();
        let english = event_lines(Lang::En, &events, &engine, &[]);
        let canonical: Vec<String> = events.iter().map(EffectEvent::to_line).collect();
        assert_eq!(english, canonical);
        let german = event_lines(Lang::De, &events, &engine, &[]);
        let expected = [
            "[Runde 12] Orc_2",
            "* Poison auf Orc_2: Trefferpunkte 12 -> 10",
            "* Orc_2: Trefferpunkte 12000 -> -3",
            "* Poison auf Orc_2: Schutz gegen Fire +2",
            "* Poison auf Orc_2: Trefferpunkte -{Fire,Ice}",
            "* Poison auf Orc_2: Trefferpunkte = {Fire}",
            "* Orc_2 ist immun gegen Poison.",
            "* Orc_2 hat Poison schon.",
            "* Poison wirkt nicht auf Orc_2.",
            "* Poison auf Orc_2 um 3 verringert.",
            "* Orc_2 trägt jetzt Poison.",
            "* Poison endet bei Orc_2.",
            "* Poison von Orc_2 entfernt.",
            "* Poison entfernt nichts von Orc_2.",
            "* Orc_2 geht zu Boden.",
            "* Orc_2 verliert den Zug.",
            "* Orc_2 ist tot.",
            "* Orc_2 liegt am Boden und setzt den Zug aus.",
            "* Orc_2 erscheint.",
            "* Orc_2 kann sich nicht teilen: die Begegnung ist voll.",
            "* Orc_2 verlässt die Begegnung.",
            "* Alle sind kampfunfähig.",
        ];
        assert_eq!(german, expected);
    }

    fn change(effect: &str, before: i64, after: i64, roll: Option<EffectRoll>) -> EffectEvent {
        EffectEvent::IntChange {
            effect: Some(effect.to_owned()),
            name: "Orc".to_owned(),
            subject: Subject::HitPoints,
            before,
            after,
            roll,
        }
    }

    fn flag(effect: &str, subject: Subject, value: &str) -> EffectEvent {
        EffectEvent::Assigned {
            effect: effect.to_owned(),
            name: "Orc".to_owned(),
            subject,
            value: value.to_owned(),
        }
    }

    fn rolled(expr: &str, dice: &[i64], total: i64) -> Option<EffectRoll> {
        Some(EffectRoll {
            expr: expr.to_owned(),
            dice: dice.to_vec(),
            total,
        })
    }

    /// Players read what happened: the dice an effect rolled, a stun as a stun,
    /// and no line for a change that changes nothing; in both languages.
    #[test]
    fn events_say_what_happened_for_people() {
        let many: Vec<i64> = (1..=12).map(|die| die % 6 + 1).collect();
        // (event, English, German; `None`: no line)
        let cases = [
            (
                change(
                    "Fireball",
                    30,
                    3,
                    rolled("8d6", &[6, 5, 4, 3, 3, 2, 2, 2], 27),
                ),
                Some("* Fireball 8d6 (6,5,4,3,3,2,2,2) = 27 on Orc: HitPoints 30 -> 3"),
                Some("* Fireball 8d6 (6,5,4,3,3,2,2,2) = 27 auf Orc: Trefferpunkte 30 -> 3"),
            ),
            (
                change("Storm", 60, 18, rolled("12d6", &many, 42)),
                Some("* Storm 12d6 (2,3,4,5,6,1,2,3,4,5,…) = 42 on Orc: HitPoints 60 -> 18"),
                Some("* Storm 12d6 (2,3,4,5,6,1,2,3,4,5,…) = 42 auf Orc: Trefferpunkte 60 -> 18"),
            ),
            (
                change("Heal", 1, 6, rolled("2d4+2", &[1, 2], 5)),
                Some("* Heal 2d4+2 (1,2) = 5 on Orc: HitPoints 1 -> 6"),
                Some("* Heal 2d4+2 (1,2) = 5 auf Orc: Trefferpunkte 1 -> 6"),
            ),
            (
                change("Tide", 1, 6, rolled("2+3", &[], 5)),
                Some("* Tide 2+3 = 5 on Orc: HitPoints 1 -> 6"),
                Some("* Tide 2+3 = 5 auf Orc: Trefferpunkte 1 -> 6"),
            ),
            (change("Poison", 0, 0, None), None, None),
            (change("Heal", 6, 6, rolled("1d4", &[3], 3)), None, None),
            (
                flag("Stun", Subject::LoseTurn, "true"),
                Some("* Stun: Orc is stunned and loses the turn."),
                Some("* Stun: Orc ist betäubt und setzt den Zug aus."),
            ),
            (
                flag("Wake", Subject::LoseTurn, "false"),
                Some("* Wake: Orc can act again."),
                Some("* Wake: Orc kann wieder handeln."),
            ),
            (
                flag("Slay", Subject::Dead, "true"),
                Some("* Slay: Orc dies."),
                Some("* Slay: Orc stirbt."),
            ),
            (
                flag("Raise", Subject::Dead, "false"),
                Some("* Raise: Orc lives again."),
                Some("* Raise: Orc lebt wieder."),
            ),
            (
                EffectEvent::SetChange {
                    effect: "Ward".to_owned(),
                    name: "Orc".to_owned(),
                    subject: Subject::Immunity,
                    added: true,
                    elements: vec!["POISON".to_owned(), "BURN".to_owned()],
                },
                Some("* Ward: Orc is now immune to POISON, BURN."),
                Some("* Ward: Orc ist jetzt immun gegen POISON, BURN."),
            ),
            (
                EffectEvent::SetChange {
                    effect: "Curse".to_owned(),
                    name: "Orc".to_owned(),
                    subject: Subject::Immunity,
                    added: false,
                    elements: vec!["HOLY".to_owned()],
                },
                Some("* Curse: Orc is no longer immune to HOLY."),
                Some("* Curse: Orc ist nicht mehr immun gegen HOLY."),
            ),
        ];
        let engine = Encounter::new();
        for (event, english, german) in cases {
            let events = std::slice::from_ref(&event);
            for (lang, expected) in [(Lang::En, english), (Lang::De, german)] {
                let lines = event_lines(lang, events, &engine, &[]);
                assert_eq!(lines, Vec::from_iter(expected), "{lang:?} {event:?}");
            }
        }
        // A hidden combatant's roll shows; its numbers do not.
        let hidden = [Seat {
            name: "Orc".to_owned(),
            owner: 0,
            character: None,
            hidden: true,
            fields: Vec::new(),
            attack: None,
            saves: Vec::new(),
        }];
        let events = [change("Fireball", 30, 3, rolled("8d6", &[6, 5], 27))];
        assert_eq!(
            event_lines(Lang::En, &events, &engine, &hidden),
            ["* Fireball 8d6 (6,5) = 27 on Orc: HitPoints healthy"]
        );
    }
}
