//! Record maps: how an installed program's variables become a character, for
//! listings that never heard of `RECORD`.
//!
//! A map is one line, `at 4180 NAME=NA$ RACE=RA$ STR=ST HP=PT GOLD=GC`: an optional
//! `at LINE` (take a character every time that line is about to run), then
//! `FIELD=VARIABLE` pairs; an array element such as `A(1)` is a variable. The raw
//! capture (every variable) is stored with each character and the map is applied
//! when the character is read, so fixing a map fixes the characters already made.

use std::fmt;

use crate::i18n::{self, Lang};

/// The longest map text.
pub const MAX_MAP_LEN: usize = 1000;
/// The most `FIELD=VARIABLE` pairs in one map.
pub const MAX_PAIRS: usize = 40;
/// The longest field name.
pub const MAX_FIELD_LEN: usize = 20;
/// The longest value a mapped field keeps (longer values are cut).
pub const MAX_VALUE_LEN: usize = 200;

/// A parsed map.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecordMap {
    /// Take a character each time this line is about to run.
    pub at: Option<u32>,
    /// Field (upper case) and variable (upper case, as written), in the map's order.
    pub pairs: Vec<(String, Variable)>,
}

/// A variable of the program: a scalar (`NA$`, `ST`) or an array element (`A(1)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variable {
    /// The name with its type sign (`NA$`, `L%`, `ST`).
    pub name: String,
    /// Subscripts of an array element; empty for a scalar.
    pub subscripts: Vec<u32>,
}

impl fmt::Display for Variable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.subscripts.is_empty() {
            return write!(f, "{}", self.name);
        }
        let list: Vec<String> = self.subscripts.iter().map(u32::to_string).collect();
        write!(f, "{}({})", self.name, list.join(","))
    }
}

impl fmt::Display for RecordMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(line) = self.at {
            parts.push(format!("at {line}"));
        }
        parts.extend(
            self.pairs
                .iter()
                .map(|(field, variable)| format!("{field}={variable}")),
        );
        write!(f, "{}", parts.join(" "))
    }
}

/// What a map is checked against: facts about the program it belongs to.
pub struct ProgramFacts<'a> {
    /// Whether the program has this line.
    pub has_line: &'a dyn Fn(u32) -> bool,
    /// Variables the program assigns (`N$`, `ST`, arrays as `A()`).
    pub assigned: &'a [String],
}

/// Why a map does not parse, or does not fit its program: the part that is wrong
/// (clipped to 40 characters, on one line), said in a language by [`MapError::text`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MapError {
    TooLong,
    /// `at` without a line number.
    AtWithoutLine,
    /// `at` with something that is not a line number.
    BadLine(String),
    /// A word that is not `FIELD=VARIABLE`.
    NotAPair(String),
    BadField(String),
    FieldTwice(String),
    BadVariable(String),
    TooManyFields,
    Empty,
    /// The program has no such line.
    NoSuchLine(u32),
    /// The program never gives the variable a value.
    NeverAssigned {
        field: String,
        variable: String,
    },
}

impl MapError {
    /// The reason as a clause (no capital, no full stop): it goes after "The map
    /// was not saved:".
    pub fn text(&self, lang: Lang) -> String {
        match self {
            MapError::TooLong => i18n::tr_args(
                lang,
                "programs-map-error-too-long",
                &[("max", MAX_MAP_LEN.into())],
            ),
            MapError::AtWithoutLine => i18n::tr(lang, "programs-map-error-at-without-line"),
            MapError::BadLine(line) => i18n::tr_args(
                lang,
                "programs-map-error-bad-line",
                &[("line", line.into())],
            ),
            MapError::NotAPair(word) => i18n::tr_args(
                lang,
                "programs-map-error-not-a-pair",
                &[("word", word.into())],
            ),
            MapError::BadField(field) => i18n::tr_args(
                lang,
                "programs-map-error-bad-field",
                &[("field", field.into()), ("max", MAX_FIELD_LEN.into())],
            ),
            MapError::FieldTwice(field) => i18n::tr_args(
                lang,
                "programs-map-error-field-twice",
                &[("field", field.into())],
            ),
            MapError::BadVariable(variable) => i18n::tr_args(
                lang,
                "programs-map-error-bad-variable",
                &[("variable", variable.into())],
            ),
            MapError::TooManyFields => i18n::tr_args(
                lang,
                "programs-map-error-too-many-fields",
                &[("max", MAX_PAIRS.into())],
            ),
            MapError::Empty => i18n::tr(lang, "programs-map-error-empty"),
            MapError::NoSuchLine(line) => i18n::tr_args(
                lang,
                "programs-map-error-no-such-line",
                &[("line", line.to_string().into())],
            ),
            MapError::NeverAssigned { field, variable } => i18n::tr_args(
                lang,
                "programs-map-error-never-assigned",
                &[("field", field.into()), ("variable", variable.into())],
            ),
        }
    }
}

/// A map as a program's row stores it: `None` when empty or unreadable (a stored map
/// was checked when it was set; a map that no longer parses names nothing).
pub fn parse_stored(text: &str) -> Option<RecordMap> {
    if text.trim().is_empty() {
        return None;
    }
    parse(text).ok()
}

/// Parses a map; the error names the part that is wrong.
pub fn parse(text: &str) -> Result<RecordMap, MapError> {
    let text = text.trim();
    if text.chars().count() > MAX_MAP_LEN {
        return Err(MapError::TooLong);
    }
    let mut map = RecordMap::default();
    let mut words = text.split_whitespace().peekable();
    if words
        .peek()
        .is_some_and(|word| word.eq_ignore_ascii_case("at"))
    {
        words.next();
        let Some(line) = words.next() else {
            return Err(MapError::AtWithoutLine);
        };
        map.at = Some(
            line.parse::<u32>()
                .map_err(|_| MapError::BadLine(clip(line)))?,
        );
    }
    for word in words {
        let Some((field, variable)) = word.split_once('=') else {
            return Err(MapError::NotAPair(clip(word)));
        };
        let field = field_name(field)?;
        if map.pairs.iter().any(|(known, _)| *known == field) {
            return Err(MapError::FieldTwice(field));
        }
        let variable = parse_variable(variable)?;
        map.pairs.push((field, variable));
        if map.pairs.len() > MAX_PAIRS {
            return Err(MapError::TooManyFields);
        }
    }
    if map.pairs.is_empty() && map.at.is_none() {
        return Err(MapError::Empty);
    }
    Ok(map)
}

/// Checks a parsed map against its program: the line exists, each variable is one
/// the program gives a value somewhere.
pub fn check(map: &RecordMap, facts: &ProgramFacts<'_>) -> Result<(), MapError> {
    if let Some(line) = map.at
        && !(facts.has_line)(line)
    {
        return Err(MapError::NoSuchLine(line));
    }
    for (field, variable) in &map.pairs {
        let wanted = if variable.subscripts.is_empty() {
            variable.name.clone()
        } else {
            format!("{}()", variable.name)
        };
        if find(facts.assigned.iter().map(String::as_str), &wanted).is_none() {
            return Err(MapError::NeverAssigned {
                field: field.clone(),
                variable: variable.to_string(),
            });
        }
    }
    Ok(())
}

/// The character's fields from a raw capture: each mapped field with its
/// variable's value (cut to [`MAX_VALUE_LEN`]; a variable the capture lacks is
/// left out).
pub fn apply(map: &RecordMap, capture: &[(String, String)]) -> Vec<(String, String)> {
    map.pairs
        .iter()
        .filter_map(|(field, variable)| {
            let wanted = variable.to_string();
            let at = find(capture.iter().map(|(name, _)| name.as_str()), &wanted)?;
            let (_, value) = capture.get(at)?;
            Some((field.clone(), cut(value.trim())))
        })
        .collect()
}

/// Cuts a value to [`MAX_VALUE_LEN`] characters, on one line.
pub fn cut(value: &str) -> String {
    value
        .chars()
        .map(|ch| if ch.is_control() { ' ' } else { ch })
        .take(MAX_VALUE_LEN)
        .collect()
}

/// Where `wanted` is among `names`: the same variable (case-insensitive, a
/// single's `!` optional: `ST` is `ST!`), else a number variable whose type a
/// `DEFINT`/`DEFDBL` gave it (`ST` is `ST%` when the listing has no plain `ST`).
fn find<'a>(names: impl Iterator<Item = &'a str> + Clone, wanted: &str) -> Option<usize> {
    let wanted = normal(wanted);
    if let Some(at) = names.clone().position(|name| normal(name) == wanted) {
        return Some(at);
    }
    if wanted.contains('$') {
        return None;
    }
    let (base, rest) = split_subscripts(&wanted);
    names.into_iter().position(|name| {
        let name = normal(name);
        let (name_base, name_rest) = split_subscripts(&name);
        name_rest == rest && name_base.trim_end_matches(['%', '#']) == base
    })
}

/// Upper case, without a single's `!`, without spaces.
fn normal(name: &str) -> String {
    name.to_ascii_uppercase()
        .replace(' ', "")
        .replace("!(", "(")
        .trim_end_matches('!')
        .to_owned()
}

/// `A%(1,2)` → (`A%`, `(1,2)`).
fn split_subscripts(name: &str) -> (&str, &str) {
    name.split_at(name.find('(').unwrap_or(name.len()))
}

fn field_name(field: &str) -> Result<String, MapError> {
    let shaped = !field.is_empty()
        && field.chars().count() <= MAX_FIELD_LEN
        && field.starts_with(|ch: char| ch.is_ascii_alphabetic())
        && field
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || ch == '_');
    if !shaped {
        return Err(MapError::BadField(clip(field)));
    }
    Ok(field.to_ascii_uppercase())
}

fn parse_variable(text: &str) -> Result<Variable, MapError> {
    let bad = || MapError::BadVariable(clip(text));
    let (name, subscripts) = match text.split_once('(') {
        Some((name, rest)) => {
            let inner = rest.strip_suffix(')').ok_or_else(bad)?;
            let subscripts = inner
                .split(',')
                .map(|index| index.trim().parse::<u32>().ok().filter(|i| *i <= 32_767))
                .collect::<Option<Vec<u32>>>()
                .ok_or_else(bad)?;
            (name, subscripts)
        }
        None => (text, Vec::new()),
    };
    let body = name.trim_end_matches(['$', '%', '!', '#']);
    let signs = name.len() - body.len();
    let shaped = signs <= 1
        && !body.is_empty()
        && body.len() <= 40
        && body.starts_with(|ch: char| ch.is_ascii_alphabetic())
        && body
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || ch == '.');
    if !shaped || subscripts.len() > 8 {
        return Err(bad());
    }
    Ok(Variable {
        name: name.to_ascii_uppercase(),
        subscripts,
    })
}

fn clip(text: &str) -> String {
    super::text::one_line(text, 40).replace('`', "'")
}
