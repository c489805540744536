//! dice-core's error reasons in the user's language (issue 18). dice-core stays
//! English and knows no catalogue, but its `Error` carries a structured `Reason`: a
//! stable id and named arguments. Each id is the catalogue key `dice-<id>`
//! (`dice.ftl`), each argument a Fluent variable: integers as numbers (for plurals
//! and the language's digits), phrases (`dice-<phrase id>`) and nested reasons
//! translated in turn, what the user wrote as text. English keeps dice-core's own
//! words, byte for byte. An id the catalogue lacks (a newer dice-core) gets its
//! kind's sentence, never English inside German.

use dice_core::{Choice, ErrorKind, Phrase, Reason, ReasonArg};

use crate::i18n::{self, Arg, Lang};

/// The reason of a dice error in `lang`.
pub fn reason(lang: Lang, kind: ErrorKind, reason: &Reason) -> String {
    if lang == Lang::En {
        return reason.to_english();
    }
    from_catalogue(lang, reason).unwrap_or_else(|| kind_reason(lang, kind))
}

/// The reason said from `lang`'s catalogue (English too, where [`reason`] keeps
/// dice-core's words), or `None` when the catalogue lacks one of its keys.
pub fn from_catalogue(lang: Lang, reason: &Reason) -> Option<String> {
    translate(lang, reason, 0)
}

/// The catalogue key of a reason or phrase id.
pub fn key(id: &str) -> String {
    format!("dice-{id}")
}

/// Nested reasons (`macro $x is invalid: …`) are followed this deep; dice-core
/// nests three at most.
const MAX_NESTING: usize = 4;

fn translate(lang: Lang, reason: &Reason, depth: usize) -> Option<String> {
    if depth > MAX_NESTING {
        return None;
    }
    let key = key(reason.id());
    if !i18n::has_message(lang, &key) {
        return None;
    }
    let mut args: Vec<(&str, Arg<'_>)> = Vec::with_capacity(reason.args().len());
    for (name, value) in reason.args() {
        let arg = match value {
            ReasonArg::Text(text) => Arg::from(text),
            ReasonArg::Integer(number) => integer(*number),
            ReasonArg::Phrase(phrase) => Arg::from(translate_phrase(lang, *phrase)),
            ReasonArg::Choices(choices) => Arg::from(either(lang, choices)),
            ReasonArg::Reason(inner) => Arg::from(translate(lang, inner, depth + 1)?),
            // A kind of argument this bot does not know: the kind's sentence.
            _ => return None,
        };
        args.push((name, arg));
    }
    Some(i18n::tr_args(lang, &key, &args))
}

fn translate_phrase(lang: Lang, phrase: Phrase) -> String {
    i18n::tr(lang, &key(phrase.id()))
}

/// Alternatives one by one, joined the language's way (`a, b or c`); tokens of
/// the notation stay as they are.
fn either(lang: Lang, choices: &[Choice]) -> String {
    let said: Vec<String> = choices
        .iter()
        .map(|choice| match choice {
            Choice::Phrase(phrase) => translate_phrase(lang, *phrase),
            Choice::Token(token) => (*token).to_owned(),
        })
        .collect();
    let Some((last, init)) = said.split_last() else {
        return String::new();
    };
    if init.is_empty() {
        return last.clone();
    }
    i18n::tr_args(
        lang,
        "dice-expected-either",
        &[("init", init.join(", ").into()), ("last", last.into())],
    )
}

/// An integer as a number (for plurals and the language's digits) when an `f64`
/// holds it exactly; a larger one as its digits.
fn integer(number: i128) -> Arg<'static> {
    match i64::try_from(number) {
        Ok(small) if small.unsigned_abs() < 1 << 53 => Arg::from(small),
        _ => Arg::from(number.to_string()),
    }
}

/// The sentence of an error's kind, for a reason the catalogue lacks.
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
        ErrorKind::Cancelled => i18n::tr(lang, "dice-cancelled"),
        _ => i18n::tr(lang, "dice-kind-syntax"),
    }
}
