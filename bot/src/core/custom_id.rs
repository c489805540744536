//! The wire format of component and modal custom ids: `tv1:<kind>:<rest>`, at most
//! 100 characters. Each command module owns the kinds it posts (see
//! [`super::table::ComponentFamily`]) and encodes and decodes its own ids with the
//! helpers here; the ids name what to do and which stored state to use, while the
//! state itself stays in the database.

/// Discord's limit on a custom id.
pub const MAX_LEN: usize = 100;

/// The version of every id; ids of another version are stale buttons.
const PREFIX: &str = "tv1:";

/// `tv1:<kind>:<rest>`.
pub fn compose(kind: &str, rest: &str) -> String {
    format!("{PREFIX}{kind}:{rest}")
}

/// The kind and the rest of an id of ours; `None` for another version or a
/// malformed id (old or forged buttons).
pub fn split(text: &str) -> Option<(&str, &str)> {
    text.strip_prefix(PREFIX)?.split_once(':')
}

/// The rest of `text` when it is an id of kind `kind`.
pub fn rest_of<'a>(text: &'a str, kind: &str) -> Option<&'a str> {
    split(text)
        .filter(|(found, _)| *found == kind)
        .map(|(_, rest)| rest)
}

/// `tv1:<kind>:<id in base 36>`, the shape of every id that names one stored row.
pub fn with_state(kind: &str, state_id: i64) -> String {
    compose(kind, &to_base36(state_id))
}

/// The stored row named by an id of kind `kind` built by [`with_state`].
pub fn state_of(text: &str, kind: &str) -> Option<i64> {
    from_base36(rest_of(text, kind)?)
}

/// Base 36 of a non-negative id (negative ids, which we never generate, get a `-`).
pub fn to_base36(value: i64) -> String {
    let mut n = value.unsigned_abs();
    let mut digits = Vec::new();
    loop {
        let digit = (n % 36) as u32;
        digits.push(char::from_digit(digit, 36).unwrap_or('0'));
        n /= 36;
        if n == 0 {
            break;
        }
    }
    if value < 0 {
        digits.push('-');
    }
    digits.iter().rev().collect()
}

pub fn from_base36(text: &str) -> Option<i64> {
    if text.is_empty() || text.len() > 14 {
        return None;
    }
    i64::from_str_radix(text, 36).ok()
}
