//! Names: which field names a character (and what that name is), and which text may
//! name a macro (`$name`).

use super::text::one_line;

/// The longest macro name (`macros::MAX_NAME_LEN` re-exports it).
pub const MACRO_NAME_LEN: usize = 32;

/// Whether a field names the character (`NAME`, `CHARACTER`, with or without `$`).
pub(crate) fn is_name_field(key: &str) -> bool {
    let key = key.trim().trim_end_matches('$');
    key.eq_ignore_ascii_case("NAME") || key.eq_ignore_ascii_case("CHARACTER")
}

/// The name a character's fields give it; empty when none does.
pub(crate) fn character_name(fields: &[(String, String)]) -> String {
    fields
        .iter()
        .find(|(key, value)| is_name_field(key) && !value.trim().is_empty())
        .map(|(_, value)| one_line(value, 64))
        .unwrap_or_default()
}

/// A name as `$name` takes it: ASCII letters, digits and `_`, not starting with a
/// digit (which `dice-core` requires), at most `MAX_NAME_LEN` characters.
pub(crate) fn is_name_shaped(text: &str) -> bool {
    let mut chars = text.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    (first.is_ascii_alphabetic() || first == '_')
        && chars.all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
        && text.len() <= MACRO_NAME_LEN
}
