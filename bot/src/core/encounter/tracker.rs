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

/// How a hidden combatant's hit points read to players.
pub fn hp_word(hp: i64, max_hp: i64) -> &'static str {
    if hp <= 0 {
        "down"
    } else if hp.saturating_mul(2) <= max_hp {
        "bloodied"
    } else {
        "healthy"
    }
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

fn effect_label(tag: &str, turns_left: Option<i64>) -> String {
    match turns_left {
        Some(turns) => format!("{tag} {turns}"),
        None => format!("{tag} *"),
    }
}

fn lines(engine: &Encounter, seats: &[Seat], viewer: Viewer) -> (Vec<Line>, Option<usize>) {
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
                    combatant, is_current, hidden, viewer, width_init, width_name,
                ),
                effects: combatant
                    .effects
                    .iter()
                    .map(|effect| effect_label(&effect.tag, effect.turns_left))
                    .collect(),
            }
        })
        .collect();
    (lines, marked)
}

fn base_line(
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
        hp_word(combatant.hp, combatant.max_hp).to_owned()
    };
    let mut line = format!(
        "{marker} {:>width_init$} {:<width_name$} {hp}",
        combatant.initiative, combatant.name
    );
    if shown_to_players && let Some(ac) = combatant.int(Subject::ArmorClass) {
        line.push_str(&format!(" AC {ac}"));
    }
    if hidden && viewer == Viewer::Gm {
        line.push_str(" (hidden)");
    }
    line
}

/// `effects` within `room` characters: as many as fit, then `… and N more`.
fn cut_effects(effects: &[String], room: usize) -> String {
    let full = effects.join(", ");
    if full.chars().count() <= room {
        return full;
    }
    let mut shown: Vec<&str> = Vec::new();
    let mut used = 0;
    for (index, effect) in effects.iter().enumerate() {
        let rest = effects.len() - index - 1;
        let tail = format!("… and {} more", rest);
        let cost = effect.chars().count() + 2;
        if used + cost + tail.chars().count() > room {
            break;
        }
        used += cost;
        shown.push(effect);
    }
    let more = effects.len() - shown.len();
    let tail = format!("… and {more} more");
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
fn fit_lines(lines: &[Line], marked: Option<usize>, budget: usize) -> Vec<String> {
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
            false => joined(&line.base, &cut_effects(&line.effects, share.max(14))),
        })
        .collect();
    if total(&cut) <= budget {
        return cut;
    }
    // Then the combatants farthest from the current one.
    let center = marked.unwrap_or(0).min(cut.len().saturating_sub(1));
    let reserve = 2 * "… and 50 more\n".chars().count();
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
        return vec![format!("… and {} more", cut.len())];
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
        out.push(format!("… and {low} more"));
    }
    out.extend(cut[low..=high].iter().cloned());
    if high + 1 < cut.len() {
        out.push(format!("… and {} more", cut.len() - high - 1));
    }
    out
}

fn total(lines: &[String]) -> usize {
    lines.iter().map(|line| line.chars().count() + 1).sum()
}

/// The tracker's content (public: hidden combatants as words), or the GM's list.
pub fn render(engine: &Encounter, seats: &[Seat], gm_name: &str, viewer: Viewer) -> String {
    let round = match engine.round() {
        0 => "not started: **Next** begins round 1".to_owned(),
        round => format!("round {round}"),
    };
    let title = match viewer {
        Viewer::Players => "Initiative",
        Viewer::Gm => "Initiative (GM view)",
    };
    let header = format!(
        "**{title}** · {round} · GM {}",
        escape_markdown(&one_line(gm_name, 32))
    );
    if engine.is_empty() {
        return format!("{header}\nNobody yet: players `/init join`, the GM `/init add` monsters.");
    }
    let (lines, marked) = lines(engine, seats, viewer);
    // The header, the fences and their newlines, and room for an ending's mark.
    let budget = MESSAGE_LIMIT.saturating_sub(header.chars().count() + 12 + 20);
    let body = fit_lines(&lines, marked, budget).join("\n");
    format!("{header}\n{}", code_block(&body))
}

/// A command's events as lines for the channel (shown in a monospace block, so
/// nothing in them is markup). A hidden combatant's numbers are left out (its hit
/// points read as a word).
pub fn event_lines(events: &[EffectEvent], engine: &Encounter, seats: &[Seat]) -> Vec<String> {
    let hidden: HashSet<&str> = seats
        .iter()
        .filter(|seat| seat.hidden)
        .map(|seat| seat.name.as_str())
        .collect();
    events
        .iter()
        .map(|event| event_line(event, engine, &hidden))
        .collect()
}

fn event_line(event: &EffectEvent, engine: &Encounter, hidden: &HashSet<&str>) -> String {
    match event {
        EffectEvent::IntChange {
            effect,
            name,
            subject,
            after,
            ..
        } if hidden.contains(name.as_str()) => {
            let now = match (subject, engine.combatant(name)) {
                (Subject::HitPoints, Some(view)) => hp_word(*after, view.max_hp).to_owned(),
                (Subject::HitPoints, None) => hp_word(*after, *after).to_owned(),
                _ => "changed".to_owned(),
            };
            match effect {
                Some(effect) => format!("* {effect} on {name}: {} {now}", subject.name()),
                None => format!("* {name}: {} {now}", subject.name()),
            }
        }
        EffectEvent::Reduced { effect, name, .. } if hidden.contains(name.as_str()) => {
            format!("* {effect} is reduced on {name}.")
        }
        EffectEvent::ProtectionChange {
            effect,
            name,
            element,
            ..
        } if hidden.contains(name.as_str()) => {
            format!("* {effect} on {name}: Protections {element} changed")
        }
        other => other.to_line(),
    }
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
            assert_eq!(hp_word(hp, max), word, "{hp}/{max}");
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
        for viewer in [Viewer::Players, Viewer::Gm] {
            let text = render(&engine, &seats, &"G".repeat(200), viewer);
            assert!(text.chars().count() <= MESSAGE_LIMIT, "{}", text.len());
            assert!(text.contains("▶  71 Hobgoblin_Captain29"), "{text}");
            assert!(text.contains("… and "), "{text}");
            assert!(text.starts_with("**Initiative"), "{text}");
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
            render(&engine, &seats, "Gina", Viewer::Players),
            "**Initiative** · round 1 · GM Gina\n```\n▶ 15 Ana 10/12 AC 13  Poison 3\n  12 Orc healthy  Poison 3\n```"
        );
        assert_eq!(
            render(&engine, &seats, "Gina", Viewer::Gm),
            "**Initiative (GM view)** · round 1 · GM Gina\n```\n▶ 15 Ana 10/12 AC 13  Poison 3\n  12 Orc 8/10 AC 13 (hidden)  Poison 3\n```"
        );
        assert_eq!(
            event_lines(&events, &engine, &seats),
            [
                "* Poison on Ana: HitPoints 12 -> 10",
                "* Poison on Orc: HitPoints healthy"
            ]
        );
    }
}
