//! What the effect engine reports, in the reader's words: a command's events as
//! lines for the channel, and why a command did nothing.

use std::collections::HashSet;

use npc_core::MessageArg;
use npc_core::effects::{EffectError, EffectEvent, EffectRoll, Encounter, Protectors, Subject};

use super::seats::Seat;
use crate::core::text::break_fences;
use crate::i18n::{self, Lang};

/// A command's events as lines for the channel (shown in a monospace block, so
/// nothing in them is markup), in `lang`, worded for people: what an effect
/// changes in words, elements in words. A hidden combatant's numbers are left out
/// (its hit points read as a word). Effect tags and names stay as written.
pub fn event_lines(
    lang: Lang,
    events: &[EffectEvent],
    engine: &Encounter,
    seats: &[Seat],
) -> Vec<String> {
    lines(lang, events, engine, seats, &[])
}

/// [`event_lines`] of damage an attack or a save dealt by `means` (the engine names
/// them joined by `|` where an effect's tag would be): immunities and protections
/// name the elements in words.
pub fn damage_lines(
    lang: Lang,
    events: &[EffectEvent],
    engine: &Encounter,
    seats: &[Seat],
    means: &[String],
) -> Vec<String> {
    lines(lang, events, engine, seats, means)
}

fn lines(
    lang: Lang,
    events: &[EffectEvent],
    engine: &Encounter,
    seats: &[Seat],
    means: &[String],
) -> Vec<String> {
    let hidden: HashSet<&str> = seats
        .iter()
        .filter(|seat| seat.hidden)
        .map(|seat| seat.name.as_str())
        .collect();
    let label = means.join("|");
    let wording = Wording {
        lang,
        engine,
        hidden,
        means: (!means.is_empty()).then(|| (label.as_str(), element_words(lang, means))),
    };
    events
        .iter()
        .enumerate()
        .filter(|(_, event)| !changes_nothing(event))
        .filter(|(at, event)| !said_down_already(&wording.hidden, events, *at, event))
        .map(|(_, event)| wording.line(event))
        .collect()
}

/// A hidden combatant's hit points dropping to 0 read "down" already (its numbers
/// are words), so the engine's `is down` that follows would say it twice.
fn said_down_already(
    hidden: &HashSet<&str>,
    events: &[EffectEvent],
    at: usize,
    event: &EffectEvent,
) -> bool {
    let EffectEvent::Down { name } = event else {
        return false;
    };
    if !hidden.contains(name.as_str()) {
        return false;
    }
    let Some(before) = at.checked_sub(1).and_then(|index| events.get(index)) else {
        return false;
    };
    matches!(
        before,
        EffectEvent::IntChange { name: changed, subject: Subject::HitPoints, after: 0, .. }
            if changed == name
    )
}

/// Elements in the reader's words, comma-separated: `edged weapon, burn` (German
/// capitalises them, as nouns are).
pub fn element_words(lang: Lang, elements: &[String]) -> String {
    elements
        .iter()
        .map(|element| element_word(lang, element))
        .collect::<Vec<_>>()
        .join(", ")
}

fn element_word(lang: Lang, element: &str) -> String {
    let word = npc_core::element_word(element);
    match lang {
        Lang::En => word,
        Lang::De => word
            .split(' ')
            .map(|part| {
                let mut chars = part.chars();
                chars.next().map_or_else(String::new, |first| {
                    first.to_uppercase().chain(chars).collect()
                })
            })
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// Names as a list in words: `A`, `A and B`, `A, B and C`.
fn and_list(lang: Lang, names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => i18n::tr_args(
            lang,
            "encounter-and-list",
            &[("rest", rest.join(", ").into()), ("last", last.into())],
        ),
    }
}

/// A change that leaves the value as it was (poison ticking on a downed monster,
/// healing at full health) tells the table nothing, every turn.
fn changes_nothing(event: &EffectEvent) -> bool {
    matches!(event, EffectEvent::IntChange { before, after, .. } if before == after)
}

/// Dice listed in an event line; the rest are `…`.
const SHOWN_DICE: usize = 10;

/// What wording one command's events needs beside the events.
struct Wording<'a> {
    lang: Lang,
    engine: &'a Encounter,
    hidden: HashSet<&'a str>,
    /// Damage of an attack or a save: the engine's label for its means, and the
    /// means in words.
    means: Option<(&'a str, String)>,
}

/// An INT change, borrowed from its event.
struct IntChange<'a> {
    effect: Option<&'a str>,
    name: &'a str,
    subject: Subject,
    before: i64,
    after: i64,
    roll: Option<&'a EffectRoll>,
}

impl Wording<'_> {
    fn is_hidden(&self, name: &str) -> bool {
        self.hidden.contains(name)
    }

    /// The elements an attack's or a save's damage names as `label`, in words;
    /// `None` for an effect's tag.
    fn means_of(&self, label: &str) -> Option<&str> {
        self.means
            .as_ref()
            .filter(|(means, _)| *means == label)
            .map(|(_, words)| words.as_str())
    }

    /// `* Fireball 3d6 (6,5,4) = 15 on Orc: 30 → 15 hit points`; a hidden
    /// combatant's hit points as a word, another value as `changed`.
    fn int_change_line(&self, change: &IntChange) -> String {
        let lang = self.lang;
        let subject = change.subject.name();
        let words = subject_name(lang, change.subject);
        let worded = match self.is_hidden(change.name) {
            true => {
                let now = match (change.subject, self.engine.combatant(change.name)) {
                    (Subject::HitPoints, Some(view)) => hp_word(lang, change.after, view.max_hp),
                    (Subject::HitPoints, None) => hp_word(lang, change.after, change.after),
                    _ => i18n::tr(lang, "encounter-event-changed"),
                };
                i18n::tr_args(
                    lang,
                    "encounter-change-hidden",
                    &[
                        ("subject", subject.into()),
                        ("words", words.into()),
                        ("now", now.into()),
                    ],
                )
            }
            false => i18n::tr_args(
                lang,
                "encounter-change",
                &[
                    ("subject", subject.into()),
                    ("words", words.into()),
                    ("before", change.before.to_string().into()),
                    ("after", change.after.to_string().into()),
                ],
            ),
        };
        let mut args = vec![("name", change.name.into()), ("change", worded.into())];
        let Some(effect) = change.effect else {
            return i18n::tr_args(lang, "encounter-event-direct-change", &args);
        };
        args.push(("effect", effect.into()));
        let Some(roll) = change.roll else {
            return i18n::tr_args(lang, "encounter-event-change", &args);
        };
        args.push(("roll", roll_text(lang, roll).into()));
        i18n::tr_args(lang, "encounter-event-change-rolled", &args)
    }

    /// A set or tag an effect assigned: a set's members in words.
    fn assigned_value(&self, value: &str) -> String {
        let Some(members) = value
            .strip_prefix('{')
            .and_then(|inner| inner.strip_suffix('}'))
        else {
            return value.to_owned();
        };
        let members: Vec<String> = members
            .split(',')
            .map(str::trim)
            .filter(|member| !member.is_empty())
            .map(str::to_owned)
            .collect();
        match members.is_empty() {
            true => i18n::tr(self.lang, "encounter-event-nothing"),
            false => element_words(self.lang, &members),
        }
    }

    /// A protection took `amount` off: the effects that gave it by name (`* Orc's
    /// FireWard takes 5 off.`), else the combatant's own protection against the
    /// element; a hidden combatant's amount left out.
    fn reduced_line(
        &self,
        effect: &str,
        name: &str,
        amount: i64,
        element: &str,
        protectors: &Protectors,
    ) -> String {
        let lang = self.lang;
        let hidden = self.is_hidden(name);
        let means = self.means_of(effect);
        let mut args = vec![("name", name.into())];
        if !hidden {
            args.push(("amount", amount.to_string().into()));
        }
        if !protectors.effects.is_empty() {
            let mut givers = Vec::new();
            if protectors.own {
                givers.push(i18n::tr(lang, "encounter-own-protection"));
            }
            givers.extend(protectors.effects.iter().cloned());
            args.push(("protectors", and_list(lang, &givers).into()));
            args.push(("count", givers.len().into()));
            args.push(("effect", effect.into()));
            let key = match (means.is_some(), hidden) {
                (true, false) => "encounter-event-warded-means",
                (true, true) => "encounter-event-warded-means-hidden",
                (false, false) => "encounter-event-warded",
                (false, true) => "encounter-event-warded-hidden",
            };
            return i18n::tr_args(lang, key, &args);
        }
        let Some(means) = means else {
            args.push(("effect", effect.into()));
            let key = match hidden {
                true => "encounter-event-reduced-hidden",
                false => "encounter-event-reduced",
            };
            return i18n::tr_args(lang, key, &args);
        };
        // The element that protected, else (an event without one) every means.
        let against = match element.is_empty() {
            true => means.to_owned(),
            false => element_word(lang, element),
        };
        args.push(("means", against.into()));
        let key = match hidden {
            true => "encounter-event-reduced-means-hidden",
            false => "encounter-event-reduced-means",
        };
        i18n::tr_args(lang, key, &args)
    }

    fn line(&self, event: &EffectEvent) -> String {
        let lang = self.lang;
        match event {
            EffectEvent::IntChange {
                effect,
                name,
                subject,
                before,
                after,
                roll,
            } => self.int_change_line(&IntChange {
                effect: effect.as_deref(),
                name,
                subject: *subject,
                before: *before,
                after: *after,
                roll: roll.as_ref(),
            }),
            EffectEvent::ProtectionChange {
                effect,
                name,
                element,
                operation,
            } => {
                let mut args = vec![
                    ("effect", effect.into()),
                    ("name", name.into()),
                    ("element", element_word(lang, element).into()),
                ];
                if self.is_hidden(name) {
                    return i18n::tr_args(lang, "encounter-event-protection-hidden", &args);
                }
                args.push(("operation", operation.into()));
                i18n::tr_args(lang, "encounter-event-protection", &args)
            }
            EffectEvent::SetChange {
                effect,
                name,
                subject,
                added,
                elements,
            } => {
                let key = match (subject, added) {
                    (Subject::Immunity, true) => "encounter-event-now-immune",
                    (Subject::Immunity, false) => "encounter-event-no-longer-immune",
                    (_, true) => "encounter-event-set-added",
                    (_, false) => "encounter-event-set-removed",
                };
                i18n::tr_args(
                    lang,
                    key,
                    &[
                        ("effect", effect.into()),
                        ("name", name.into()),
                        ("subject", subject_name(lang, *subject).into()),
                        ("elements", element_words(lang, elements).into()),
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
                        ("value", self.assigned_value(value).into()),
                    ],
                )
            }),
            EffectEvent::Immune { name, effect } => {
                let what = self.means_of(effect).unwrap_or(effect);
                i18n::tr_args(
                    lang,
                    "encounter-event-immune",
                    &[("effect", what.into()), ("name", name.into())],
                )
            }
            EffectEvent::Reduced {
                effect,
                name,
                amount,
                element,
                protectors,
            } => self.reduced_line(effect, name, *amount, element, protectors),
            EffectEvent::TurnStart { round, name } => i18n::tr_args(
                lang,
                "encounter-event-turn",
                &[("round", round.to_string().into()), ("name", name.into())],
            ),
            EffectEvent::AlreadyHas { name, effect } => {
                effect_line(lang, "encounter-event-already-has", effect, name)
            }
            EffectEvent::NoEffect { effect, name } => {
                effect_line(lang, "encounter-event-no-effect", effect, name)
            }
            EffectEvent::HookAttached { effect, name } => {
                effect_line(lang, "encounter-event-hook", effect, name)
            }
            EffectEvent::WearsOff { effect, name } => {
                effect_line(lang, "encounter-event-wears-off", effect, name)
            }
            EffectEvent::Removed { effect, name } => {
                effect_line(lang, "encounter-event-removed", effect, name)
            }
            EffectEvent::RemovesNothing { effect, name } => {
                effect_line(lang, "encounter-event-removes-nothing", effect, name)
            }
            EffectEvent::Down { name } => name_line(lang, "encounter-event-down", name),
            EffectEvent::LosesTurn { name } => name_line(lang, "encounter-event-loses-turn", name),
            EffectEvent::IsDead { name } => name_line(lang, "encounter-event-dead", name),
            EffectEvent::DownSkips { name } => name_line(lang, "encounter-event-down-skips", name),
            EffectEvent::Appears { name } => name_line(lang, "encounter-event-appears", name),
            EffectEvent::CannotSplit { name } => {
                name_line(lang, "encounter-event-cannot-split", name)
            }
            EffectEvent::Leaves { name } => name_line(lang, "encounter-event-leaves", name),
            EffectEvent::EveryoneOut => i18n::tr(lang, "encounter-event-everyone-out"),
        }
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

fn effect_line(lang: Lang, key: &str, effect: &str, name: &str) -> String {
    i18n::tr_args(
        lang,
        key,
        &[("effect", effect.into()), ("name", name.into())],
    )
}

fn name_line(lang: Lang, key: &str, name: &str) -> String {
    i18n::tr_args(lang, key, &[("name", name.into())])
}

/// What an effect changed, in `lang`'s words (`hit points`, `Trefferpunkte`).
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
pub fn engine_reason(lang: Lang, error: &EffectError) -> String {
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

/// How a hidden combatant's hit points read to players.
pub fn hp_word(lang: Lang, hp: i64, max_hp: i64) -> String {
    if hp <= 0 {
        i18n::tr(lang, "encounter-down")
    } else if hp.saturating_mul(2) <= max_hp {
        i18n::tr(lang, "encounter-bloodied")
    } else {
        i18n::tr(lang, "encounter-healthy")
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

    /// Every event line is worded for people, in both languages: what an effect
    /// changes in words, points after the numbers, elements in words; effect tags
    /// and names as written (issue 26: English used to be the engine's own lines).
    #[test]
    fn event_lines_are_worded_for_people_in_both_languages() {
        let (effect, name) = ("Poison".to_owned(), "Orc_2".to_owned());
        // (event, English, German)
        let cases = [
            (
                EffectEvent::TurnStart {
                    round: 12,
                    name: name.clone(),
                },
                "[round 12] Orc_2",
                "[Runde 12] Orc_2",
            ),
            (
                EffectEvent::IntChange {
                    effect: Some(effect.clone()),
                    name: name.clone(),
                    subject: Subject::HitPoints,
                    before: 12,
                    after: 10,
                    roll: None,
                },
                "* Poison on Orc_2: 12 → 10 hit points",
                "* Poison auf Orc_2: 12 → 10 Trefferpunkte",
            ),
            (
                EffectEvent::IntChange {
                    effect: None,
                    name: name.clone(),
                    subject: Subject::HitPoints,
                    before: 12_000,
                    after: -3,
                    roll: None,
                },
                "* Orc_2: 12000 → -3 hit points",
                "* Orc_2: 12000 → -3 Trefferpunkte",
            ),
            (
                EffectEvent::IntChange {
                    effect: Some("Bless".to_owned()),
                    name: name.clone(),
                    subject: Subject::ArmorClass,
                    before: 12,
                    after: 14,
                    roll: None,
                },
                "* Bless on Orc_2: armour class 12 → 14",
                "* Bless auf Orc_2: Rüstungsklasse 12 → 14",
            ),
            (
                EffectEvent::ProtectionChange {
                    effect: effect.clone(),
                    name: name.clone(),
                    element: "FIRE".to_owned(),
                    operation: "+2".to_owned(),
                },
                "* Poison on Orc_2: protection against fire +2",
                "* Poison auf Orc_2: Schutz gegen Fire +2",
            ),
            (
                EffectEvent::SetChange {
                    effect: effect.clone(),
                    name: name.clone(),
                    subject: Subject::Flags,
                    added: false,
                    elements: vec!["FIRE".to_owned(), "COLD_IRON".to_owned()],
                },
                "* Poison on Orc_2: fire, cold iron taken from flags",
                "* Poison auf Orc_2: Fire, Cold Iron aus Flags entfernt",
            ),
            (
                EffectEvent::SetChange {
                    effect: effect.clone(),
                    name: name.clone(),
                    subject: Subject::Alignment,
                    added: true,
                    elements: vec!["EVIL".to_owned()],
                },
                "* Poison on Orc_2: evil added to alignment",
                "* Poison auf Orc_2: Evil zu Gesinnung hinzugefügt",
            ),
            (
                EffectEvent::Assigned {
                    effect: effect.clone(),
                    name: name.clone(),
                    subject: Subject::Alignment,
                    value: "{EVIL,CHAOS}".to_owned(),
                },
                "* Poison on Orc_2: alignment now evil, chaos",
                "* Poison auf Orc_2: Gesinnung jetzt Evil, Chaos",
            ),
            (
                EffectEvent::Assigned {
                    effect: effect.clone(),
                    name: name.clone(),
                    subject: Subject::Flags,
                    value: "{}".to_owned(),
                },
                "* Poison on Orc_2: flags now nothing",
                "* Poison auf Orc_2: Flags jetzt nichts",
            ),
            (
                EffectEvent::Assigned {
                    effect: effect.clone(),
                    name: name.clone(),
                    subject: Subject::Species,
                    value: "Troll".to_owned(),
                },
                "* Poison on Orc_2: species now Troll",
                "* Poison auf Orc_2: Volk jetzt Troll",
            ),
            (
                EffectEvent::Immune {
                    name: name.clone(),
                    effect: effect.clone(),
                },
                "* Orc_2 is immune to Poison.",
                "* Orc_2 ist immun gegen Poison.",
            ),
            (
                EffectEvent::AlreadyHas {
                    name: name.clone(),
                    effect: effect.clone(),
                },
                "* Orc_2 already has Poison.",
                "* Orc_2 hat Poison schon.",
            ),
            (
                EffectEvent::NoEffect {
                    effect: effect.clone(),
                    name: name.clone(),
                },
                "* Poison has no effect on Orc_2.",
                "* Poison wirkt nicht auf Orc_2.",
            ),
            (
                EffectEvent::Reduced {
                    effect: effect.clone(),
                    name: name.clone(),
                    amount: 3,
                    element: "POISON".to_owned(),
                    protectors: Protectors::default(),
                },
                "* Orc_2's protection takes 3 off Poison.",
                "* Der Schutz von Orc_2 hält 3 von Poison ab.",
            ),
            (
                EffectEvent::Reduced {
                    effect: effect.clone(),
                    name: name.clone(),
                    amount: 3,
                    element: "POISON".to_owned(),
                    protectors: protectors(false, &["Antidote"]),
                },
                "* Orc_2's Antidote takes 3 off Poison.",
                "* Bei Orc_2 hält Antidote 3 von Poison ab.",
            ),
            (
                EffectEvent::HookAttached {
                    effect: effect.clone(),
                    name: name.clone(),
                },
                "* Orc_2 now holds Poison.",
                "* Orc_2 trägt jetzt Poison.",
            ),
            (
                EffectEvent::WearsOff {
                    effect: effect.clone(),
                    name: name.clone(),
                },
                "* Poison wears off Orc_2.",
                "* Poison endet bei Orc_2.",
            ),
            (
                EffectEvent::Removed {
                    effect: effect.clone(),
                    name: name.clone(),
                },
                "* Poison removed from Orc_2.",
                "* Poison von Orc_2 entfernt.",
            ),
            (
                EffectEvent::RemovesNothing {
                    effect: effect.clone(),
                    name: name.clone(),
                },
                "* Poison removes nothing from Orc_2.",
                "* Poison entfernt nichts von Orc_2.",
            ),
            (
                EffectEvent::Down { name: name.clone() },
                "* Orc_2 is down.",
                "* Orc_2 geht zu Boden.",
            ),
            (
                EffectEvent::LosesTurn { name: name.clone() },
                "* Orc_2 loses the turn.",
                "* Orc_2 verliert den Zug.",
            ),
            (
                EffectEvent::IsDead { name: name.clone() },
                "* Orc_2 is dead.",
                "* Orc_2 ist tot.",
            ),
            (
                EffectEvent::DownSkips { name: name.clone() },
                "* Orc_2 is down and skips the turn.",
                "* Orc_2 liegt am Boden und setzt den Zug aus.",
            ),
            (
                EffectEvent::Appears { name: name.clone() },
                "* Orc_2 appears.",
                "* Orc_2 erscheint.",
            ),
            (
                EffectEvent::CannotSplit { name: name.clone() },
                "* Orc_2 cannot split: the encounter is full.",
                "* Orc_2 kann sich nicht teilen: die Begegnung ist voll.",
            ),
            (
                EffectEvent::Leaves { name: name.clone() },
                "* Orc_2 leaves the encounter.",
                "* Orc_2 verlässt die Begegnung.",
            ),
            (
                EffectEvent::EveryoneOut,
                "* Everyone is out of action.",
                "* Alle sind kampfunfähig.",
            ),
        ];
        let engine = Encounter::new();
        for (event, english, german) in cases {
            let events = std::slice::from_ref(&event);
            assert_eq!(event_lines(Lang::En, events, &engine, &[]), [english]);
            assert_eq!(event_lines(Lang::De, events, &engine, &[]), [german]);
        }
    }

    /// An attack's or a save's damage names its means in words where the engine
    /// puts them in an effect's place; a hidden target's protection keeps its amount.
    #[test]
    fn damage_names_its_means_in_words() {
        let means = ["FIRE".to_owned(), "EDGED_WEAPON".to_owned()];
        let label = means.join("|");
        let events = [
            EffectEvent::Immune {
                name: "Orc".to_owned(),
                effect: label.clone(),
            },
            EffectEvent::Reduced {
                effect: label.clone(),
                name: "Orc".to_owned(),
                amount: 5,
                element: "FIRE".to_owned(),
                protectors: Protectors::default(),
            },
        ];
        let engine = Encounter::new();
        let cases = [
            (
                Lang::En,
                false,
                [
                    "* Orc is immune to fire, edged weapon.",
                    "* Orc's protection against fire takes 5 off.",
                ],
            ),
            (
                Lang::De,
                false,
                [
                    "* Orc ist immun gegen Fire, Edged Weapon.",
                    "* Der Schutz von Orc gegen Fire hält 5 ab.",
                ],
            ),
            (
                Lang::En,
                true,
                [
                    "* Orc is immune to fire, edged weapon.",
                    "* Orc's protection against fire takes some off.",
                ],
            ),
        ];
        for (lang, hidden, expected) in cases {
            assert_eq!(
                damage_lines(lang, &events, &engine, &[orc_seat(hidden)], &means),
                expected
            );
        }
        // The same label from an effect (no means given) is the effect's tag.
        assert_eq!(
            event_lines(Lang::En, &events[..1], &engine, &[]),
            ["* Orc is immune to FIRE|EDGED_WEAPON."]
        );
    }

    fn orc_seat(hidden: bool) -> Seat {
        Seat {
            name: "Orc".to_owned(),
            owner: 0,
            character: None,
            hidden,
            fields: Vec::new(),
            attack: None,
            saves: Vec::new(),
        }
    }

    fn protectors(own: bool, effects: &[&str]) -> Protectors {
        Protectors {
            own,
            effects: effects.iter().map(|tag| (*tag).to_owned()).collect(),
        }
    }

    /// A protection that effects gave names them ("FireWard takes 5 off"), the
    /// combatant's own first when it counts too; a hidden target's amount stays
    /// the GM's. (own, effects, hidden, English, German)
    #[test]
    fn a_protection_names_the_effects_that_gave_it() {
        let means = ["FIRE".to_owned(), "EDGED_WEAPON".to_owned()];
        let cases: [(bool, &[&str], bool, &str, &str); 5] = [
            (
                false,
                &["FireWard"],
                false,
                "* Orc's FireWard takes 5 off.",
                "* Bei Orc hält FireWard 5 ab.",
            ),
            (
                false,
                &["FireWard"],
                true,
                "* Orc's FireWard takes some off.",
                "* Bei Orc hält FireWard etwas ab.",
            ),
            (
                false,
                &["FireWard", "Bless"],
                false,
                "* Orc's FireWard and Bless take 5 off.",
                "* Bei Orc halten FireWard und Bless 5 ab.",
            ),
            (
                true,
                &["FireWard", "Bless"],
                false,
                "* Orc's own protection, FireWard and Bless take 5 off.",
                "* Bei Orc halten der eigene Schutz, FireWard und Bless 5 ab.",
            ),
            (
                true,
                &[],
                false,
                "* Orc's protection against fire takes 5 off.",
                "* Der Schutz von Orc gegen Fire hält 5 ab.",
            ),
        ];
        let engine = Encounter::new();
        for (own, effects, hidden, english, german) in cases {
            let events = [EffectEvent::Reduced {
                effect: means.join("|"),
                name: "Orc".to_owned(),
                amount: 5,
                element: "FIRE".to_owned(),
                protectors: protectors(own, effects),
            }];
            let seats = [orc_seat(hidden)];
            for (lang, expected) in [(Lang::En, english), (Lang::De, german)] {
                assert_eq!(
                    damage_lines(lang, &events, &engine, &seats, &means),
                    [expected]
                );
            }
        }
        // From an effect, hidden: the effect it weakened, no amount.
        let events = [EffectEvent::Reduced {
            effect: "Fireball".to_owned(),
            name: "Orc".to_owned(),
            amount: 5,
            element: "FIRE".to_owned(),
            protectors: protectors(false, &["FireWard"]),
        }];
        let seats = [orc_seat(true)];
        assert_eq!(
            event_lines(Lang::En, &events, &engine, &seats),
            ["* Orc's FireWard weakens Fireball."]
        );
        assert_eq!(
            event_lines(Lang::De, &events, &engine, &seats),
            ["* Bei Orc schwächt FireWard Fireball."]
        );
    }

    /// A hidden combatant dropping to 0 reads "down" once: its hit points are the
    /// word already, so the engine's `is down` after it is not said again; a
    /// visible one's numbers are followed by it, as before.
    #[test]
    fn a_hidden_combatant_is_down_once() {
        let events = [
            EffectEvent::IntChange {
                effect: None,
                name: "Orc".to_owned(),
                subject: Subject::HitPoints,
                before: 9,
                after: 0,
                roll: None,
            },
            EffectEvent::Down {
                name: "Orc".to_owned(),
            },
        ];
        let engine = Encounter::new();
        let cases = [
            (Lang::En, true, vec!["* Orc: down"]),
            (Lang::De, true, vec!["* Orc: am Boden"]),
            (
                Lang::En,
                false,
                vec!["* Orc: 9 → 0 hit points", "* Orc is down."],
            ),
        ];
        for (lang, hidden, expected) in cases {
            assert_eq!(
                event_lines(lang, &events, &engine, &[orc_seat(hidden)]),
                expected
            );
        }
        // A downed hidden combatant skipping its turn is still said.
        let skips = [EffectEvent::DownSkips {
            name: "Orc".to_owned(),
        }];
        assert_eq!(
            event_lines(Lang::En, &skips, &engine, &[orc_seat(true)]),
            ["* Orc is down and skips the turn."]
        );
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
                Some("* Fireball 8d6 (6,5,4,3,3,2,2,2) = 27 on Orc: 30 → 3 hit points"),
                Some("* Fireball 8d6 (6,5,4,3,3,2,2,2) = 27 auf Orc: 30 → 3 Trefferpunkte"),
            ),
            (
                change("Storm", 60, 18, rolled("12d6", &many, 42)),
                Some("* Storm 12d6 (2,3,4,5,6,1,2,3,4,5,…) = 42 on Orc: 60 → 18 hit points"),
                Some("* Storm 12d6 (2,3,4,5,6,1,2,3,4,5,…) = 42 auf Orc: 60 → 18 Trefferpunkte"),
            ),
            (
                change("Heal", 1, 6, rolled("2d4+2", &[1, 2], 5)),
                Some("* Heal 2d4+2 (1,2) = 5 on Orc: 1 → 6 hit points"),
                Some("* Heal 2d4+2 (1,2) = 5 auf Orc: 1 → 6 Trefferpunkte"),
            ),
            (
                change("Tide", 1, 6, rolled("2+3", &[], 5)),
                Some("* Tide 2+3 = 5 on Orc: 1 → 6 hit points"),
                Some("* Tide 2+3 = 5 auf Orc: 1 → 6 Trefferpunkte"),
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
                Some("* Ward: Orc is now immune to poison, burn."),
                Some("* Ward: Orc ist jetzt immun gegen Poison, Burn."),
            ),
            (
                EffectEvent::SetChange {
                    effect: "Curse".to_owned(),
                    name: "Orc".to_owned(),
                    subject: Subject::Immunity,
                    added: false,
                    elements: vec!["HOLY".to_owned()],
                },
                Some("* Curse: Orc is no longer immune to holy."),
                Some("* Curse: Orc ist nicht mehr immun gegen Holy."),
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
            ["* Fireball 8d6 (6,5) = 27 on Orc: healthy"]
        );
    }
}
