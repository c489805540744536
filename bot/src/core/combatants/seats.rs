//! Who sits behind each combatant (stored as JSON beside the engine's state), how a
//! character's fields become a combatant, and what an encounter writes back to a
//! character when it leaves.

use std::collections::{BTreeMap, HashSet};

use npc_core::effects::{CarriedEffects, CombatantSpec, Encounter, Subject};
use serde::{Deserialize, Serialize};

use crate::core::fields;

/// One combatant's owner and what the engine does not know.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// The combatant's name in the engine.
    pub name: String,
    /// The player who acts for it; 0 for the GM's monsters.
    pub owner: i64,
    /// The stored character it is, written back when it leaves.
    #[serde(default)]
    pub character: Option<i64>,
    /// Players see only healthy / bloodied / down, and no AC.
    #[serde(default)]
    pub hidden: bool,
    /// The character's fields it joined with: subject, the field's name on the
    /// sheet, the value then.
    #[serde(default)]
    pub fields: Vec<(Subject, String, i64)>,
    /// A monster's attack (`/init add attack:`), used when `/init attack` gives none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack: Option<StoredAttack>,
    /// A monster's save bonuses by ability (`/init add save:DEX+1`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub saves: Vec<(String, i64)>,
}

/// The sheet's field names each INT subject is read from (and written back to).
const SUBJECT_FIELDS: &[(Subject, &[&str])] = &[
    (Subject::HitPoints, &["HP", "HIT_POINTS"]),
    (Subject::ArmorClass, &["AC", "ARMOR_CLASS"]),
    (Subject::Strength, &["STR", "STRENGTH"]),
    (Subject::Dexterity, &["DEX", "DEXTERITY"]),
    (Subject::Intelligence, &["INT", "INTELLIGENCE"]),
    (Subject::Wisdom, &["WIS", "WISDOM"]),
    (Subject::Constitution, &["CON", "CONSTITUTION"]),
    (Subject::Charisma, &["CHA", "CHARISMA"]),
    (Subject::ManaPoints, &["MP", "MANA", "MANA_POINTS"]),
    (Subject::Experience, &["XP", "EXP", "EXPERIENCE"]),
    (Subject::Level, &["LEVEL", "LVL"]),
    (Subject::Speed, &["SPEED"]),
];

/// The sheet's INT fields an encounter uses: subject, field name, value. The first
/// field of each subject counts.
pub fn subject_fields(sheet: &[(String, String)]) -> Vec<(Subject, String, i64)> {
    let mut found = Vec::new();
    for (subject, keys) in SUBJECT_FIELDS {
        let field = sheet.iter().find_map(|(name, value)| {
            let key = fields::field_key(name)?;
            if !keys.contains(&key.as_str()) {
                return None;
            }
            Some((name.clone(), fields::numeric_value(value)?))
        });
        if let Some((name, value)) = field {
            found.push((*subject, name, value));
        }
    }
    found
}

/// A combatant name from free text: words joined by `_`, only letters, digits, `_`,
/// `-` and `'` kept (no markup, no `#`, which clones use), at most 32 characters.
pub fn combatant_name(text: &str) -> String {
    let joined: String = text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join("_")
        .chars()
        .filter(|ch| ch.is_alphanumeric() || matches!(ch, '_' | '-' | '\''))
        .take(32)
        .collect();
    joined
}

/// A character as a combatant: its joined fields, HP `current` of `maximum`.
pub fn character_spec(
    name: &str,
    initiative: i64,
    maximum: i64,
    joined: &[(Subject, String, i64)],
) -> CombatantSpec {
    CombatantSpec {
        name: name.to_owned(),
        initiative,
        hp: maximum,
        stats: joined
            .iter()
            .filter(|(subject, _, _)| *subject != Subject::HitPoints)
            .map(|(subject, _, value)| (*subject, *value))
            .collect(),
        ..CombatantSpec::default()
    }
}

/// The seats after an engine command: those whose combatant left go (returned
/// apart, for the write-back), and a clone (`NAME#2`) sits with its original's
/// owner and hidden flag, as nobody's character.
pub fn follow(seats: &[Seat], engine: &Encounter) -> (Vec<Seat>, Vec<Seat>) {
    let names: HashSet<String> = engine.combatants().into_iter().map(|c| c.name).collect();
    let (mut kept, gone): (Vec<Seat>, Vec<Seat>) = seats
        .iter()
        .cloned()
        .partition(|seat| names.contains(&seat.name));
    for name in engine.combatants().into_iter().map(|c| c.name) {
        if kept.iter().any(|seat| seat.name == name) {
            continue;
        }
        let original = name.split('#').next().unwrap_or("");
        let like = seats.iter().find(|seat| seat.name == original);
        kept.push(Seat {
            name,
            owner: like.map_or(0, |seat| seat.owner),
            character: None,
            hidden: like.is_some_and(|seat| seat.hidden),
            fields: Vec::new(),
            // A clone fights as the one it split from.
            attack: like.and_then(|seat| seat.attack.clone()),
            saves: like.map(|seat| seat.saves.clone()).unwrap_or_default(),
        });
    }
    (kept, gone)
}

/// What a character's combatant leaves on it: `previous` overrides with the
/// changed fields (HP always) from the combatant's base values (while-active
/// layers undone), and the effects still attached. `None` when the combatant is
/// not in `engine`.
pub fn write_back(
    seat: &Seat,
    engine: &Encounter,
    previous: &[(String, String)],
) -> Option<(Vec<(String, String)>, CarriedEffects)> {
    let base = engine.base(&seat.name)?;
    let mut overrides: BTreeMap<String, String> = previous.iter().cloned().collect();
    for (subject, field, joined) in &seat.fields {
        let Some(value) = base.int(*subject) else {
            continue;
        };
        if *subject == Subject::HitPoints || value != *joined {
            overrides.insert(field.clone(), value.to_string());
        }
    }
    let carried = engine.carried(&seat.name).unwrap_or_default();
    Some((overrides.into_iter().collect(), carried))
}

/// A monster's attack as `/init add attack:` gives it: `+5 1d12+3 SLASH`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StoredAttack {
    pub hit: String,
    pub damage: String,
    pub means: Vec<String>,
}

impl StoredAttack {
    /// `+5 1d12+3 SLASH|MAGIC`: the to-hit bonus, the damage, the means (if any).
    pub fn parse(text: &str) -> Option<StoredAttack> {
        let mut words = text.split_whitespace();
        let hit = words.next()?.to_owned();
        let damage = words.next()?.to_owned();
        let means = means_of(&words.collect::<Vec<_>>().join(" "));
        Some(StoredAttack { hit, damage, means })
    }
}

/// The elements of `means:` (`FIRE`, `FIRE|MAGIC`, `fire, magic`), upper case as
/// effect files declare them.
pub fn means_of(text: &str) -> Vec<String> {
    text.split(['|', ',', ' '])
        .map(str::trim)
        .filter(|element| !element.is_empty())
        .map(str::to_uppercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sheet(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect()
    }

    #[test]
    fn names_are_one_safe_word() {
        for (typed, name) in [
            ("Udo", "Udo"),
            ("Goblin King", "Goblin_King"),
            ("  *Evil*  `Bob`#2 ", "Evil_Bob2"),
            ("O'Brien-Smith", "O'Brien-Smith"),
            ("Élise", "Élise"),
            ("***", ""),
        ] {
            assert_eq!(combatant_name(typed), name, "{typed}");
        }
        assert_eq!(combatant_name(&"x".repeat(100)).len(), 32);
    }

    #[test]
    fn a_sheet_gives_the_subjects_it_has() {
        let fields = subject_fields(&sheet(&[
            ("NAME", "Udo"),
            ("Hit Points", "12"),
            ("STRENGTH", "17"),
            ("DEX", "9"),
            ("AC", "5 (chain)"),
            ("CLASS", "FIGHTER"),
            ("LEVEL", "one"),
        ]));
        assert_eq!(
            fields,
            vec![
                (Subject::HitPoints, "Hit Points".to_owned(), 12),
                (Subject::ArmorClass, "AC".to_owned(), 5),
                (Subject::Strength, "STRENGTH".to_owned(), 17),
                (Subject::Dexterity, "DEX".to_owned(), 9),
            ]
        );
    }
}
