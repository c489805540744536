//! What an encounter looks like in chat: the tracker message (round, turn order with
//! the current combatant marked, HP, AC, effects with turns left), the private list
//! for the GM, and a command's events as lines.
//!
//! The tracker is message content, so it keeps to Discord's 2,000 characters by
//! construction: effects are cut first (`… and N more` per combatant), then the
//! combatants farthest from the current one (`… and N more` above and below).

use std::collections::HashSet;

use npc_core::effects::{CombatantView, EffectEvent, Encounter, Subject};

use super::seats::Seat;
use crate::core::text::{MESSAGE_LIMIT, code_block, escape_markdown, one_line};
use crate::i18n::{self, Lang};

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

/// `… and N more`: what a cut list says of the rest.
pub fn and_more(lang: Lang, count: usize) -> String {
    i18n::tr_args(lang, "encounter-and-more", &[("count", count.into())])
}

/// Who looks: players see hidden combatants' words, the GM their numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Viewer {
    Players,
    Gm,
}

/// One combatant's line: what always shows, then its effects.
struct Line {
    base: String,
    effects: Vec<String>,
}

fn effect_label(lang: Lang, tag: &str, turns_left: Option<i64>) -> String {
    match turns_left {
        Some(turns) => i18n::tr_args(
            lang,
            "encounter-turns-left",
            &[("tag", tag.into()), ("turns", turns.to_string().into())],
        ),
        None => i18n::tr_args(lang, "encounter-until-removed", &[("tag", tag.into())]),
    }
}

fn lines(
    lang: Lang,
    engine: &Encounter,
    seats: &[Seat],
    viewer: Viewer,
) -> (Vec<Line>, Option<usize>) {
    let combatants = engine.combatants();
    let current = engine.current();
    let width_init = combatants
        .iter()
        .map(|c| c.initiative.to_string().len())
        .max()
        .unwrap_or(1);
    let width_name = combatants
        .iter()
        .map(|c| c.name.chars().count())
        .max()
        .unwrap_or(1)
        .min(16);
    let mut marked = None;
    let lines = combatants
        .iter()
        .enumerate()
        .map(|(index, combatant)| {
            let is_current = current == Some(combatant.name.as_str());
            if is_current {
                marked = Some(index);
            }
            let hidden = seats
                .iter()
                .any(|seat| seat.name == combatant.name && seat.hidden);
            Line {
                base: base_line(
                    lang, combatant, is_current, hidden, viewer, width_init, width_name,
                ),
                effects: combatant
                    .effects
                    .iter()
                    .map(|effect| effect_label(lang, &effect.tag, effect.turns_left))
                    .collect(),
            }
        })
        .collect();
    (lines, marked)
}

fn base_line(
    lang: Lang,
    combatant: &CombatantView,
    is_current: bool,
    hidden: bool,
    viewer: Viewer,
    width_init: usize,
    width_name: usize,
) -> String {
    let marker = if is_current { "▶" } else { " " };
    let shown_to_players = !hidden || viewer == Viewer::Gm;
    let hp = if shown_to_players {
        format!("{}/{}", combatant.hp, combatant.max_hp)
    } else {
        hp_word(lang, combatant.hp, combatant.max_hp)
    };
    let mut line = format!(
        "{marker} {:>width_init$} {:<width_name$} {hp}",
        combatant.initiative, combatant.name
    );
    if shown_to_players && let Some(ac) = combatant.int(Subject::ArmorClass) {
        line.push(' ');
        line.push_str(&i18n::tr_args(
            lang,
            "encounter-ac",
            &[("ac", ac.to_string().into())],
        ));
    }
    if hidden && viewer == Viewer::Gm {
        line.push(' ');
        line.push_str(&i18n::tr(lang, "encounter-hidden"));
    }
    line
}

/// `effects` within `room` characters: as many as fit, then `… and N more`.
fn cut_effects(lang: Lang, effects: &[String], room: usize) -> String {
    let full = effects.join(", ");
    if full.chars().count() <= room {
        return full;
    }
    let mut shown: Vec<&str> = Vec::new();
    let mut used = 0;
    for (index, effect) in effects.iter().enumerate() {
        let rest = effects.len() - index - 1;
        let tail = and_more(lang, rest);
        let cost = effect.chars().count() + 2;
        if used + cost + tail.chars().count() > room {
            break;
        }
        used += cost;
        shown.push(effect);
    }
    let more = effects.len() - shown.len();
    let tail = and_more(lang, more);
    if shown.is_empty() {
        return tail;
    }
    format!("{}, {tail}", shown.join(", "))
}

fn joined(base: &str, effects: &str) -> String {
    if effects.is_empty() {
        return base.to_owned();
    }
    format!("{base}  {effects}")
}

/// The lines within `budget` characters (newlines counted).
fn fit_lines(lang: Lang, lines: &[Line], marked: Option<usize>, budget: usize) -> Vec<String> {
    let full: Vec<String> = lines
        .iter()
        .map(|line| joined(&line.base, &line.effects.join(", ")))
        .collect();
    if total(&full) <= budget {
        return full;
    }
    // Effects first: each line gets an equal share of what the bases leave.
    let bases: usize = lines.iter().map(|line| line.base.chars().count() + 3).sum();
    let share = budget.saturating_sub(bases) / lines.len().max(1);
    let cut: Vec<String> = lines
        .iter()
        .map(|line| match line.effects.is_empty() {
            true => line.base.clone(),
            false => joined(&line.base, &cut_effects(lang, &line.effects, share.max(14))),
        })
        .collect();
    if total(&cut) <= budget {
        return cut;
    }
    // Then the combatants farthest from the current one.
    let center = marked.unwrap_or(0).min(cut.len().saturating_sub(1));
    let reserve = 2 * (and_more(lang, lines.len()).chars().count() + 1);
    let mut used = 0;
    let (mut low, mut high) = (center, center);
    let take = |line: &String, used: &mut usize| {
        let cost = line.chars().count() + 1;
        if *used + cost + reserve > budget {
            return false;
        }
        *used += cost;
        true
    };
    if !cut.is_empty() && !take(&cut[center], &mut used) {
        return vec![and_more(lang, cut.len())];
    }
    loop {
        let mut grew = false;
        if high + 1 < cut.len() && take(&cut[high + 1], &mut used) {
            high += 1;
            grew = true;
        }
        if low > 0 && take(&cut[low - 1], &mut used) {
            low -= 1;
            grew = true;
        }
        if !grew {
            break;
        }
    }
    let mut out = Vec::new();
    if low > 0 {
        out.push(and_more(lang, low));
    }
    out.extend(cut[low..=high].iter().cloned());
    if high + 1 < cut.len() {
        out.push(and_more(lang, cut.len() - high - 1));
    }
    out
}

fn total(lines: &[String]) -> usize {
    lines.iter().map(|line| line.chars().count() + 1).sum()
}

/// The tracker's content (public: hidden combatants as words), or the GM's list.
pub fn render(
    lang: Lang,
    engine: &Encounter,
    seats: &[Seat],
    gm_name: &str,
    viewer: Viewer,
) -> String {
    let round = match engine.round() {
        0 => i18n::tr(lang, "encounter-not-started"),
        round => i18n::tr_args(
            lang,
            "encounter-round",
            &[("round", round.to_string().into())],
        ),
    };
    let title = match viewer {
        Viewer::Players => i18n::tr(lang, "encounter-title"),
        Viewer::Gm => i18n::tr(lang, "encounter-title-gm"),
    };
    let header = i18n::tr_args(
        lang,
        "encounter-header",
        &[
            ("title", title.into()),
            ("round", round.into()),
            ("gm", escape_markdown(&one_line(gm_name, 32)).into()),
        ],
    );
    if engine.is_empty() {
        return format!("{header}\n{}", i18n::tr(lang, "encounter-nobody"));
    }
    let (lines, marked) = lines(lang, engine, seats, viewer);
    // The header, the fences and their newlines, and room for an ending's mark.
    let budget = MESSAGE_LIMIT.saturating_sub(header.chars().count() + 12 + 20);
    let body = fit_lines(lang, &lines, marked, budget).join("\n");
    format!("{header}\n{}", code_block(&body))
}

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
        .map(|event| event_line(lang, event, engine, &hidden))
        .collect()
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
            after,
            ..
        } if hidden.contains(name.as_str()) => {
            let now = match (subject, engine.combatant(name)) {
                (Subject::HitPoints, Some(view)) => hp_word(lang, *after, view.max_hp),
                (Subject::HitPoints, None) => hp_word(lang, *after, *after),
                _ => i18n::tr(lang, "encounter-event-changed"),
            };
            let mut args = vec![
                ("name", name.into()),
                ("subject", subject_name(lang, *subject).into()),
                ("now", now.into()),
            ];
            match effect {
                Some(effect) => {
                    args.push(("effect", effect.into()));
                    i18n::tr_args(lang, "encounter-event-change-hidden", &args)
                }
                None => i18n::tr_args(lang, "encounter-event-direct-change-hidden", &args),
            }
        }
        EffectEvent::IntChange {
            effect,
            name,
            subject,
            before,
            after,
        } => {
            let mut args = vec![
                ("name", name.into()),
                ("subject", subject_name(lang, *subject).into()),
                ("before", before.to_string().into()),
                ("after", after.to_string().into()),
            ];
            match effect {
                Some(effect) => {
                    args.push(("effect", effect.into()));
                    i18n::tr_args(lang, "encounter-event-change", &args)
                }
                None => i18n::tr_args(lang, "encounter-event-direct-change", &args),
            }
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
        } => i18n::tr_args(
            lang,
            "encounter-event-assigned",
            &[
                ("effect", effect.into()),
                ("name", name.into()),
                ("subject", subject_name(lang, *subject).into()),
                ("value", value.into()),
            ],
        ),
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

#[cfg(test)]
mod tests {
    use super::*;
    use npc_core::effects::{CombatantSpec, load_effects};
    use rand::SeedableRng;

    #[test]
    fn words_for_hidden_hit_points() {
        for (hp, max, word) in [
            (10, 10, "healthy"),
            (6, 10, "healthy"),
            (5, 10, "bloodied"),
            (1, 10, "bloodied"),
            (0, 10, "down"),
        ] {
            assert_eq!(hp_word(Lang::En, hp, max), word, "{hp}/{max}");
        }
    }

    /// Issue 14's benchmark encounter: 50 combatants each holding 20 recurring
    /// effects, with long names, fits one message with the current one shown.
    #[test]
    fn fifty_combatants_with_twenty_effects_each_fit() {
        let mut source = String::new();
        for index in 0..20 {
            source.push_str(&format!(
                "EFFECT LongEffectName{index:02} {{ target_type Character; subject HitPoints; \
                 value +0; duration -1 }}\n"
            ));
        }
        let library = load_effects(&source).unwrap();
        let mut engine = Encounter::new();
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let names: Vec<String> = (0..50)
            .map(|i| format!("{}{i:02}", "Hobgoblin_Captain"))
            .collect();
        for (index, name) in names.iter().enumerate() {
            let spec = CombatantSpec {
                name: name.clone(),
                initiative: 100 - index as i64,
                hp: 100,
                stats: vec![(Subject::ArmorClass, 15)],
                ..CombatantSpec::default()
            };
            engine.add(&library, &spec).unwrap();
        }
        let targets: Vec<&str> = names.iter().map(String::as_str).collect();
        for tag in library.effect_tags() {
            engine.apply(&library, tag, &targets, &mut rng).unwrap();
        }
        for _ in 0..30 {
            engine.next(&library, &mut rng).unwrap();
        }
        let seats: Vec<Seat> = names
            .iter()
            .enumerate()
            .map(|(index, name)| Seat {
                name: name.clone(),
                owner: 0,
                character: None,
                hidden: index % 2 == 0,
                fields: Vec::new(),
            })
            .collect();
        for lang in Lang::ALL {
            let more = and_more(lang, 7);
            let more = more.split('7').next().unwrap_or_default();
            for viewer in [Viewer::Players, Viewer::Gm] {
                let text = render(lang, &engine, &seats, &"G".repeat(200), viewer);
                // With the ending's mark added when the encounter ends.
                let ended = format!("{text}\n{}", i18n::tr(lang, "encounter-ended-mark"));
                assert!(
                    ended.chars().count() <= MESSAGE_LIMIT,
                    "{lang:?} {}",
                    ended.len()
                );
                assert!(text.contains("▶  71 Hobgoblin_Captain29"), "{text}");
                assert!(text.contains(more), "{text}");
                assert!(text.starts_with("**Initiative"), "{text}");
            }
        }
    }

    #[test]
    fn small_encounters_show_everything() {
        let library = load_effects(
            "EFFECT Poison { target_type Character; subject HitPoints; value -2; duration 3 }\n",
        )
        .unwrap();
        let mut engine = Encounter::new();
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        for (name, init, hp) in [("Ana", 15, 12), ("Orc", 12, 10)] {
            let spec = CombatantSpec {
                name: name.to_owned(),
                initiative: init,
                hp,
                stats: vec![(Subject::ArmorClass, 13)],
                ..CombatantSpec::default()
            };
            engine.add(&library, &spec).unwrap();
        }
        let seats = vec![Seat {
            name: "Orc".to_owned(),
            owner: 0,
            character: None,
            hidden: true,
            fields: Vec::new(),
        }];
        engine.next(&library, &mut rng).unwrap();
        let events = engine
            .apply(&library, "Poison", &["Ana", "Orc"], &mut rng)
            .unwrap();
        assert_eq!(
            render(Lang::En, &engine, &seats, "Gina", Viewer::Players),
            "**Initiative** · round 1 · GM Gina\n```\n▶ 15 Ana 10/12 AC 13  Poison 3\n  12 Orc healthy  Poison 3\n```"
        );
        assert_eq!(
            render(Lang::En, &engine, &seats, "Gina", Viewer::Gm),
            "**Initiative (GM view)** · round 1 · GM Gina\n```\n▶ 15 Ana 10/12 AC 13  Poison 3\n  12 Orc 8/10 AC 13 (hidden)  Poison 3\n```"
        );
        assert_eq!(
            event_lines(Lang::En, &events, &engine, &seats),
            [
                "* Poison on Ana: HitPoints 12 -> 10",
                "* Poison on Orc: HitPoints healthy"
            ]
        );
        assert_eq!(
            render(Lang::De, &engine, &seats, "Gina", Viewer::Gm),
            "**Initiative (Sicht der Spielleitung)** · Runde 1 · SL Gina\n```\n▶ 15 Ana 10/12 RK 13  Poison 3\n  12 Orc 8/10 RK 13 (verdeckt)  Poison 3\n```"
        );
        assert_eq!(
            event_lines(Lang::De, &events, &engine, &seats),
            [
                "* Poison auf Ana: Trefferpunkte 12 -> 10",
                "* Poison auf Orc: Trefferpunkte munter"
            ]
        );
    }

    /// English event lines are npc-core's own transcript lines, word for word; the
    /// German ones keep tags, names and the effect language's subjects.
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
            },
            EffectEvent::IntChange {
                effect: None,
                name: name.clone(),
                subject: Subject::HitPoints,
                before: 12_000,
                after: -3,
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
}
