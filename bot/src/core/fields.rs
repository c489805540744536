//! A stored character's fields as numbers for rolls (`1d20 + @STR_MOD`): field
//! names as `@` references take them, numeric values, and the classic ability
//! modifiers derived from the six scores.
//!
//! The modifier table is the B/X one (Moldvay/Cook 1981), the same bands the
//! shipped `chargen.bas` prints: 3 → -3, 4–5 → -2, 6–8 → -1, 9–12 → 0, 13–15 → +1,
//! 16–17 → +2, 18 → +3. Scores outside 3–18 (a program may make them) keep the end
//! values: below 3 is -3, above 18 is +3.

use std::collections::BTreeMap;

/// The six abilities: the short name a roll uses, and the long name a program may
/// record instead.
pub const ABILITIES: [(&str, &str); 6] = [
    ("STR", "STRENGTH"),
    ("INT", "INTELLIGENCE"),
    ("WIS", "WISDOM"),
    ("DEX", "DEXTERITY"),
    ("CON", "CONSTITUTION"),
    ("CHA", "CHARISMA"),
];

/// The B/X modifier of an ability score.
pub fn ability_modifier(score: i64) -> i64 {
    match score {
        ..=3 => -3,
        4..=5 => -2,
        6..=8 => -1,
        9..=12 => 0,
        13..=15 => 1,
        16..=17 => 2,
        _ => 3,
    }
}

/// `+2`, `0`, `-1`: a modifier as sheets write it.
pub fn signed(value: i64) -> String {
    if value > 0 {
        return format!("+{value}");
    }
    value.to_string()
}

/// The name a field has after `@`: upper-case letters, digits and `_` (`N$` is `N`,
/// `HIT POINTS` is `HIT_POINTS`); `None` when nothing usable is left.
pub fn field_key(name: &str) -> Option<String> {
    let trimmed = name.trim().trim_end_matches(['$', '%', '!', '#']);
    let mut key: String = trimmed
        .chars()
        .map(|ch| {
            if ch.is_ascii_alphanumeric() {
                ch.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    while key.contains("__") {
        key = key.replace("__", "_");
    }
    let key = key.trim_matches('_').to_owned();
    let first = key.chars().next()?;
    if first.is_ascii_digit() {
        return Some(format!("_{key}"));
    }
    Some(key)
}

/// The whole number a field's value starts with (`17`, `-1`, `120 GP`); values such
/// as `FIGHTER` or `3.5` have none.
pub fn numeric_value(value: &str) -> Option<i64> {
    let value = value.trim();
    let (number, rest) = match value.find(|ch: char| ch.is_whitespace()) {
        Some(space) => value.split_at(space),
        None => (value, ""),
    };
    // A unit may follow ("120 GP"); a second number may not ("3 4").
    if rest
        .trim_start()
        .starts_with(|ch: char| ch.is_ascii_digit())
    {
        return None;
    }
    let digits = number.strip_prefix('+').unwrap_or(number);
    digits.parse::<i64>().ok()
}

/// The fields a roll can use, by `@` name: every numeric field, each ability also
/// under its short name, and `<ABILITY>_MOD` for each ability (unless the program
/// recorded one itself).
pub fn roll_fields(fields: &[(String, String)]) -> BTreeMap<String, i64> {
    let mut numbers = BTreeMap::new();
    for (name, value) in fields {
        let (Some(key), Some(number)) = (field_key(name), numeric_value(value)) else {
            continue;
        };
        numbers.entry(key).or_insert(number);
    }
    let mut derived = Vec::new();
    for (short, long) in ABILITIES {
        let Some(score) = numbers.get(short).or_else(|| numbers.get(long)).copied() else {
            continue;
        };
        derived.push((short.to_owned(), score));
        derived.push((format!("{short}_MOD"), ability_modifier(score)));
    }
    for (key, value) in derived {
        numbers.entry(key).or_insert(value);
    }
    numbers
}

/// The ability a field name is, as its short name.
pub fn ability_of(name: &str) -> Option<&'static str> {
    let key = field_key(name)?;
    ABILITIES
        .iter()
        .find(|(short, long)| key == *short || key == *long)
        .map(|(short, _)| *short)
}

/// Field names a generator may give a character's gold under.
pub const GOLD_KEYS: &[&str] = &["GOLD", "GP"];
/// Field names of a character's food.
pub const FOOD_KEYS: &[&str] = &["FOOD"];

/// Whether a field is the character's gold or food, which live in one place (the
/// purse that NPC trades change), not among the fields.
pub fn is_purse_field(name: &str) -> bool {
    field_key(name)
        .is_some_and(|key| GOLD_KEYS.contains(&key.as_str()) || FOOD_KEYS.contains(&key.as_str()))
}

/// Where the purse starts: the first whole number of the first field named one of
/// `keys` (`120 GP` is 120); 0 when none.
pub fn purse_value(fields: &[(String, String)], keys: &[&str]) -> i64 {
    fields
        .iter()
        .find(|(name, _)| field_key(name).is_some_and(|key| keys.contains(&key.as_str())))
        .and_then(|(_, value)| {
            let digits: String = value
                .trim()
                .chars()
                .take_while(|ch| ch.is_ascii_digit() || *ch == '-')
                .collect();
            digits.parse::<i64>().ok()
        })
        .unwrap_or(0)
}

/// The fields a roll can use with the one gold and food of the character:
/// `@GOLD` (and `@GP`) and `@FOOD` read the purse NPC trades change.
pub fn roll_fields_with_purse(
    fields: &[(String, String)],
    gold: i64,
    food: i64,
) -> BTreeMap<String, i64> {
    let kept: Vec<(String, String)> = fields
        .iter()
        .filter(|(name, _)| !is_purse_field(name))
        .cloned()
        .collect();
    let mut numbers = roll_fields(&kept);
    numbers.insert("GOLD".to_owned(), gold);
    numbers.insert("FOOD".to_owned(), food);
    if fields
        .iter()
        .any(|(name, _)| field_key(name).as_deref() == Some("GP"))
    {
        numbers.insert("GP".to_owned(), gold);
    }
    numbers
}
