//! dice-core's error reasons in the user's language (issue 18). dice-core stays
//! English and knows no catalogue: its `Error` has a kind, a span and an English
//! message whose parameters (limits, names, what was found) are part of the text.
//! Here each form of that message is read back into its parameters and said again
//! from the catalogue (`dice.ftl`); English keeps dice-core's own words, byte for
//! byte. A form this table does not know (a newer dice-core) gets its kind's
//! sentence, never English inside German.

use dice_core::ErrorKind;

use crate::i18n::{self, Arg, Lang};

/// The reason of a dice error in `lang`.
pub fn reason(lang: Lang, kind: ErrorKind, message: &str) -> String {
    if lang == Lang::En {
        return message.to_owned();
    }
    translate(lang, message, 0).unwrap_or_else(|| kind_reason(lang, kind))
}

/// A dice error's English `message` in `lang`, when its form is known (English: the
/// message itself): what a library that quotes dice-core's reason (npc-core's effect
/// files) shows.
pub fn known_reason(lang: Lang, message: &str) -> Option<String> {
    if lang == Lang::En {
        return Some(message.to_owned());
    }
    translate(lang, message, 0)
}

/// English forms of dice-core's messages and their keys. `{name}` captures up to
/// the next literal text (the last one up to the end); a capture named `expected`,
/// `inner` or `cause` is itself translated.
pub const FORMS: &[(&str, &str)] = &[
    (
        "unexpected `{found}`; expected {expected}",
        "dice-unexpected",
    ),
    ("expected {expected} at the end", "dice-expected-at-end"),
    ("expected an expression", "dice-expected-expression"),
    ("expected a value", "dice-expected-value"),
    ("expected a number of dice", "dice-expected-dice-count"),
    ("expected a number", "dice-expected-number"),
    ("expected a comparison", "dice-expected-comparison"),
    ("expected a target", "dice-expected-target"),
    ("expected a filter", "dice-expected-filter"),
    ("expected a series of faces", "dice-expected-faces"),
    ("missing argument", "dice-missing-argument"),
    ("min/max need a number", "dice-min-max-number"),
    ("unknown modifier", "dice-unknown-modifier-bare"),
    (
        "unknown modifier `{word}`; the nearest known is `{near}`",
        "dice-unknown-modifier-near",
    ),
    (
        "unknown modifier `{word}` (a label needs a space before it: `{fixed}`)",
        "dice-unknown-modifier-label",
    ),
    (
        "unknown modifier `{word}`: roll with {what} as `{keep}`, or write `{word2}` after a space at the end of `{example}`",
        "dice-unknown-modifier-adv",
    ),
    (
        "unknown function `{word}`; did you mean `{near}`?",
        "dice-unknown-function-near",
    ),
    (
        "unknown function `{word}`; the functions are {names}",
        "dice-unknown-function",
    ),
    ("a label needs a space before it", "dice-label-space"),
    (
        "modifiers go right after the dice, without a space (`{fixed}`)",
        "dice-modifier-space",
    ),
    (
        "to roll several times use the command's `repeat:{times}` (`{word}` after a space is Roll20's repeat; `3d6x6` glued explodes on 6)",
        "dice-repeat-word",
    ),
    (
        "numbers are whole here: `{number}` has a decimal point (`/` divides and truncates; `round(7/2)` rounds, `floor` and `ceil` too)",
        "dice-decimal-point",
    ),
    (
        "`{written}` needs a number to compare with, like `{example}`",
        "dice-compare-number",
    ),
    (
        "`ra` needs a condition: which dice add another, like `ra1`, `ra<3` or `ra(1|2)`",
        "dice-ra-condition",
    ),
    (
        "`dF.{fraction}` is not a Fate die here: `dF` (also `dF.2`) has faces -1, 0, +1, two of each; `dF.1` has one -1, four 0 and one +1",
        "dice-fate-fraction",
    ),
    (
        "a set like `(1, 2)` cannot be a number of dice; write one expression",
        "dice-set-as-count",
    ),
    (
        "a set like `(1, 2)` cannot stand here; write one expression",
        "dice-set-here",
    ),
    (
        "`{written}` would reroll forever (there is always a lowest and a highest die); reroll once with `ro`, like `{fixed}`",
        "dice-reroll-forever",
    ),
    (
        "`{written}`: a compounding explosion goes by value, like `!!>=5`; `!h1` and `eh1` explode the highest die",
        "dice-compound-by-value",
    ),
    (
        "a dice term can explode (or reroll) only one way; combine conditions like `!(>=5|1)`",
        "dice-one-way",
    ),
    ("{func}() takes exactly one argument", "dice-takes-one"),
    ("{func}() takes exactly two arguments", "dice-takes-two"),
    (
        "{func}() needs at least one argument",
        "dice-needs-argument",
    ),
    (
        "{func}() of {value}: no square root of a negative number",
        "dice-sqrt-negative",
    ),
    (
        "{func}() of {value}: the logarithm needs a number of at least 1",
        "dice-log-small",
    ),
    ("a negative number of dice ({count})", "dice-negative-count"),
    (
        "the expression is too long ({length} bytes, at most {max})",
        "dice-too-long",
    ),
    (
        "with its macros expanded, the expression is too long (at most {max} bytes)",
        "dice-expanded-too-long",
    ),
    (
        "with its macros expanded, the expression nests too deeply (at most {max} levels)",
        "dice-expanded-too-deep",
    ),
    ("with its macros expanded: {inner}", "dice-expanded"),
    (
        "parentheses and braces nest too deeply (at most {max} levels)",
        "dice-too-deep",
    ),
    (
        "too many minus signs in a row (at most {max})",
        "dice-too-many-minus",
    ),
    (
        "too many powers in a row (at most {max})",
        "dice-too-many-powers",
    ),
    ("the number {number} is too large", "dice-number-too-large"),
    (
        "the result does not fit into a 64-bit integer",
        "dice-overflow",
    ),
    ("division by zero", "dice-division-by-zero"),
    (
        "too many dice (at most {max} per roll)",
        "dice-too-many-dice",
    ),
    (
        "a die needs at least one face; this series is empty",
        "dice-empty-series",
    ),
    (
        "a die needs at least one face, not {sides}",
        "dice-no-faces",
    ),
    (
        "too many faces (at most {max} per die)",
        "dice-too-many-faces",
    ),
    (
        "this roll has too many dice and elements (at most {max})",
        "dice-too-many-elements",
    ),
    (
        "this series is too long (at most {max} elements)",
        "dice-series-too-long",
    ),
    (
        "the {what}{name} must be resolved before rolling",
        "dice-unresolved",
    ),
    ("unknown macro ${name}", "dice-unknown-macro"),
    (
        "unknown field @{name}; there are no fields",
        "dice-unknown-field-none",
    ),
    (
        "unknown field @{name}; there are: {known}",
        "dice-unknown-field",
    ),
    ("macro cycle: {chain}", "dice-macro-cycle"),
    (
        "macros expand more than {max} times (at ${name})",
        "dice-too-many-expansions",
    ),
    ("macro ${name} is invalid: {inner}", "dice-bad-macro"),
    (
        "too complex to compute exactly: {cause} needs more than {max} steps",
        "dice-too-complex-steps",
    ),
    (
        "too complex to compute exactly: {cause} needs more than {max} MiB of memory",
        "dice-too-complex-memory",
    ),
    (
        "exact odds are not computed for rerolls that depend on the other dice (`u`, `rol1`, `ral1`); roll it many times instead",
        "dice-unsupported",
    ),
];

/// The words dice-core lists after "expected" (joined with `, ` and ` or `).
pub const EXPECTED: &[(&str, &str)] = &[
    (
        "the sides of the dice (a number, `%`, `F`, `(` or `{`)",
        "dice-expected-sides",
    ),
    (
        "a value (a number, dice, `(`, `{` or a function)",
        "dice-expected-a-value",
    ),
    ("a number or `(`", "dice-expected-number-or-paren"),
    (
        "a filter (`h`, `l`, `o`, `e`, a number, or a comparison like `>=5`)",
        "dice-expected-a-filter",
    ),
    ("an operator", "dice-expected-operator"),
    ("the end of the expression", "dice-expected-end"),
    ("something else", "dice-expected-something-else"),
];

/// What made exact odds too complex.
pub const CAUSES: &[(&str, &str)] = &[
    ("mixing the outcomes", "dice-cause-mixing"),
    ("combining the outcomes", "dice-cause-combining"),
    (
        "listing every way this series can fall",
        "dice-cause-series",
    ),
    ("following the explosions", "dice-cause-explosions"),
];

/// Nested reasons (`macro $x is invalid: …`) are followed this deep.
const MAX_NESTING: usize = 4;

fn translate(lang: Lang, message: &str, depth: usize) -> Option<String> {
    if depth > MAX_NESTING {
        return None;
    }
    FORMS.iter().find_map(|(form, key)| {
        let captures = captures(form, message)?;
        let mut args: Vec<(&str, Arg<'_>)> = Vec::with_capacity(captures.len());
        for (name, value) in captures {
            let arg = match name {
                "expected" => Arg::from(expected_list(lang, value)?),
                "inner" => Arg::from(translate(lang, value, depth + 1)?),
                "cause" => Arg::from(phrase(lang, CAUSES, value)?),
                "what" => Arg::from(value.trim()),
                _ => number_or_text(value),
            };
            args.push((name, arg));
        }
        Some(i18n::tr_args(lang, key, &args))
    })
}

/// `form`'s captures in `message`, or `None` when the message has another form.
fn captures<'f, 'm>(form: &'f str, message: &'m str) -> Option<Vec<(&'f str, &'m str)>> {
    let mut captures = Vec::new();
    let mut rest = message;
    let mut pattern = form;
    loop {
        let Some(open) = pattern.find('{') else {
            return (rest == pattern).then_some(captures);
        };
        rest = rest.strip_prefix(&pattern[..open])?;
        let close = open + pattern[open..].find('}')?;
        let name = &pattern[open + 1..close];
        pattern = &pattern[close + 1..];
        let literal = &pattern[..pattern.find('{').unwrap_or(pattern.len())];
        let end = if literal.len() == pattern.len() {
            // The last literal ends the message.
            rest.len().checked_sub(literal.len())?
        } else if literal.is_empty() {
            // Two captures in a row (`{what}{name}`): the first is one word and a space.
            rest.find(' ')? + 1
        } else {
            rest.find(literal)?
        };
        let value = rest.get(..end)?;
        if value.is_empty() && name != "what" {
            return None;
        }
        captures.push((name, value));
        rest = &rest[end..];
    }
}

/// `a value (…) or `)`` phrase by phrase, joined the language's way.
fn expected_list(lang: Lang, list: &str) -> Option<String> {
    let mut phrases = Vec::new();
    let mut rest = list;
    while !rest.is_empty() {
        let known = EXPECTED
            .iter()
            .map(|(english, _)| *english)
            .chain(["`)`", "`}`", "`]`", "`,`", "`&`", "`|`"])
            .find(|english| {
                rest.strip_prefix(english).is_some_and(|after| {
                    after.is_empty() || after.starts_with(", ") || after.starts_with(" or ")
                })
            })?;
        phrases.push(phrase(lang, EXPECTED, known).unwrap_or_else(|| known.to_owned()));
        rest = &rest[known.len()..];
        rest = rest
            .strip_prefix(", ")
            .or_else(|| rest.strip_prefix(" or "))
            .unwrap_or(rest);
    }
    let (last, init) = phrases.split_last()?;
    if init.is_empty() {
        return Some(last.clone());
    }
    Some(i18n::tr_args(
        lang,
        "dice-expected-either",
        &[("init", init.join(", ").into()), ("last", last.into())],
    ))
}

fn phrase(lang: Lang, table: &[(&str, &str)], english: &str) -> Option<String> {
    table
        .iter()
        .find(|(known, _)| *known == english)
        .map(|(_, key)| i18n::tr(lang, key))
}

/// A captured number as a number (for plurals and the language's digits), when it
/// is one that an `f64` holds exactly; anything else as text.
fn number_or_text(value: &str) -> Arg<'_> {
    match value.parse::<i64>() {
        Ok(number) if number.unsigned_abs() < 1 << 53 => Arg::from(number),
        _ => Arg::from(value),
    }
}

/// The sentence of an error's kind, for a message form [`FORMS`] lacks.
pub fn kind_reason(lang: Lang, kind: ErrorKind) -> String {
    match kind {
        ErrorKind::Syntax => i18n::tr(lang, "dice-kind-syntax"),
        ErrorKind::TooLong => i18n::tr(lang, "dice-kind-too-long"),
        ErrorKind::TooDeep => i18n::tr(lang, "dice-kind-too-deep"),
        ErrorKind::NumberTooLarge => i18n::tr(lang, "dice-kind-number-too-large"),
        ErrorKind::Invalid => i18n::tr(lang, "dice-kind-invalid"),
        ErrorKind::Overflow => i18n::tr(lang, "dice-overflow"),
        ErrorKind::DivisionByZero => i18n::tr(lang, "dice-division-by-zero"),
        ErrorKind::TooManyDice => i18n::tr(lang, "dice-kind-too-many-dice"),
        ErrorKind::BadFaces => i18n::tr(lang, "dice-kind-bad-faces"),
        ErrorKind::TooManyElements => i18n::tr(lang, "dice-kind-too-many-elements"),
        ErrorKind::Unresolved => i18n::tr(lang, "dice-kind-unresolved"),
        ErrorKind::UnknownMacro => i18n::tr(lang, "dice-kind-unknown-macro"),
        ErrorKind::UnknownField => i18n::tr(lang, "dice-kind-unknown-field"),
        ErrorKind::MacroCycle => i18n::tr(lang, "dice-kind-macro-cycle"),
        ErrorKind::TooManyExpansions => i18n::tr(lang, "dice-kind-too-many-expansions"),
        ErrorKind::BadMacro => i18n::tr(lang, "dice-kind-bad-macro"),
        ErrorKind::TooComplex => i18n::tr(lang, "dice-kind-too-complex"),
        ErrorKind::Unsupported => i18n::tr(lang, "dice-unsupported"),
        _ => i18n::tr(lang, "dice-kind-syntax"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_read_a_form_back_into_its_parameters() {
        /// (form, message, the captures or `None` for another form)
        type Case<'a> = (&'a str, &'a str, Option<&'a [(&'a str, &'a str)]>);
        let cases: &[Case] = &[
            ("division by zero", "division by zero", Some(&[])),
            ("division by zero", "division by zero!", None),
            (
                "too many dice (at most {max} per roll)",
                "too many dice (at most 1000 per roll)",
                Some(&[("max", "1000")]),
            ),
            (
                "unexpected `{found}`; expected {expected}",
                "unexpected `x`; expected an operator or the end of the expression",
                Some(&[
                    ("found", "x"),
                    ("expected", "an operator or the end of the expression"),
                ]),
            ),
            (
                "the {what}{name} must be resolved before rolling",
                "the macro $x must be resolved before rolling",
                Some(&[("what", "macro "), ("name", "$x")]),
            ),
        ];
        for (form, message, expected) in cases {
            assert_eq!(captures(form, message).as_deref(), *expected, "{message}");
        }
    }
}
