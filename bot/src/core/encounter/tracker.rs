//! What an encounter looks like in chat: the tracker message (round, turn order with
//! the current combatant marked, HP, AC, effects with turns left), the private list
//! for the GM, and a command's events as lines.
//!
//! The tracker is message content, so it keeps to Discord's 2,000 characters by
//! construction: effects are cut first (`… and N more` per combatant), then the
//! combatants farthest from the current one (`… and N more` above and below).

use npc_core::effects::{CombatantView, Encounter, Subject};

use super::seats::Seat;
use super::words::hp_word;
use crate::core::text::{MESSAGE_LIMIT, code_block, escape_markdown, one_line};
use crate::i18n::{self, Lang};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::combatants::words::event_lines;
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
                attack: None,
                saves: Vec::new(),
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
            attack: None,
            saves: Vec::new(),
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
                "* Poison on Ana: 12 → 10 hit points",
                "* Poison on Orc: healthy"
            ]
        );
        assert_eq!(
            render(Lang::De, &engine, &seats, "Gina", Viewer::Gm),
            "**Initiative (Sicht der Spielleitung)** · Runde 1 · SL Gina\n```\n▶ 15 Ana 10/12 RK 13  Poison 3\n  12 Orc 8/10 RK 13 (verdeckt)  Poison 3\n```"
        );
        assert_eq!(
            event_lines(Lang::De, &events, &engine, &seats),
            [
                "* Poison auf Ana: 12 → 10 Trefferpunkte",
                "* Poison auf Orc: munter"
            ]
        );
    }
}
