//! The character a player plays, as the answers say it. Which one it is has one rule,
//! in `storage::playing`: the one chosen with `/character use`, else the newest made
//! in the server. Because a rule chooses, a roll that used `@FIELD`s names whose they
//! were, and a finished `/chargen` says how to roll with them.

use super::prepare::Prepared;
use super::roll_line::inline_code;
use super::text::{escape_markdown, one_line};
use crate::i18n::{self, Lang};

/// What was asked, as a code span of at most `width` characters, and whose
/// `@FIELD`s it used (`as **Grimli**`).
pub(super) fn asked_as(lang: Lang, prepared: &Prepared, width: usize) -> String {
    as_character(lang, &prepared.asked, prepared.character.as_deref(), width)
}

/// `asked` as a code span of at most `width` characters, followed by whose
/// `@FIELD`s it used when `character` names one (`/odds` shows the line as typed,
/// with its `adv`, rather than the dice it became).
pub(super) fn as_character(
    lang: Lang,
    asked: &str,
    character: Option<&str>,
    width: usize,
) -> String {
    let asked = inline_code(&one_line(asked, width));
    let Some(name) = character else {
        return asked;
    };
    i18n::tr_args(
        lang,
        "roll-as-character",
        &[
            ("asked", asked.into()),
            ("name", escape_markdown(name).into()),
        ],
    )
}

/// The end of a `/chargen` run: how to roll with a character's fields, with an
/// example from `fields` (those of the last character the run stored), and which
/// character a roll uses.
pub(super) fn fields_hint(lang: Lang, fields: &[(String, String)]) -> String {
    let numbers = super::fields::roll_fields(fields);
    let example = if numbers.contains_key("STR_MOD") {
        Some("STR_MOD")
    } else {
        numbers.keys().next().map(String::as_str)
    };
    match example {
        Some(field) => i18n::tr_args(
            lang,
            "chargen-fields-hint",
            &[("example", format!("1d20 + @{field}").into())],
        ),
        None => i18n::tr(lang, "chargen-fields-hint-plain"),
    }
}
