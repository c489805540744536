//! Reads a line typed at `INPUT` the way GW-BASIC does: comma-separated entries,
//! quotes around strings, blanks ignored inside numbers, and "?Redo from start"
//! when the count or a type is wrong.

use crate::cp437::{self, Ch};
use crate::number;

/// One value typed at `INPUT`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Entry {
    Num(f64),
    Str(Vec<Ch>),
}

const MAX_ENTRY: usize = 255;

const QUOTE: Ch = b'"' as Ch;
const COMMA: Ch = b',' as Ch;
const SPACE: Ch = b' ' as Ch;

fn is_blank(code: Ch) -> bool {
    matches!(code, SPACE | 0 | 0x0A)
}

/// Splits `line` into one entry per target (`true` for a string target).
/// `None` means GW-BASIC would answer "?Redo from start".
pub(crate) fn parse(line: &[Ch], targets_are_str: &[bool]) -> Option<Vec<Entry>> {
    let mut pos = 0;
    let mut entries = Vec::with_capacity(targets_are_str.len());
    let mut separators = Vec::with_capacity(targets_are_str.len());
    let mut conversion_failed = false;
    for &is_str in targets_are_str {
        while line.get(pos).copied().is_some_and(is_blank) {
            pos += 1;
        }
        let quoted = is_str && line.get(pos) == Some(&QUOTE);
        if quoted {
            pos += 1;
        }
        let mut word = Vec::new();
        let mut blanks = Vec::new();
        let mut separator = None;
        let mut closed_quote = false;
        while let Some(&byte) = line.get(pos) {
            pos += 1;
            if quoted && byte == QUOTE {
                closed_quote = true;
                break;
            }
            if !quoted && byte == COMMA {
                separator = Some(COMMA);
                break;
            }
            if !quoted && is_blank(byte) {
                if is_str {
                    blanks.push(byte);
                }
            } else {
                word.append(&mut blanks);
                word.push(byte);
            }
            if word.len() + blanks.len() >= MAX_ENTRY {
                break;
            }
        }
        if closed_quote {
            while line.get(pos) == Some(&SPACE) {
                pos += 1;
            }
            separator = match line.get(pos) {
                Some(&COMMA) => {
                    pos += 1;
                    Some(COMMA)
                }
                None => None,
                Some(_) => Some(QUOTE),
            };
        }
        separators.push(separator);
        if is_str {
            entries.push(Entry::Str(word));
        } else {
            match number::parse_strict(&cp437::to_bytes(&word)) {
                Some(value) => entries.push(Entry::Num(value)),
                None => {
                    conversion_failed = true;
                    entries.push(Entry::Num(0.0));
                }
            }
        }
    }
    let too_many = separators.last().copied().flatten().is_some();
    let too_few = separators
        .iter()
        .take(separators.len().saturating_sub(1))
        .any(Option::is_none);
    if too_many || too_few || conversion_failed {
        return None;
    }
    Some(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strs(values: &[&str]) -> Vec<Entry> {
        values
            .iter()
            .map(|v| Entry::Str(cp437::encode(v)))
            .collect()
    }

    #[test]
    fn entries_split_at_commas() {
        assert_eq!(
            parse(&cp437::encode("1, 2"), &[false, false]),
            Some(vec![Entry::Num(1.0), Entry::Num(2.0)])
        );
        assert_eq!(
            parse(&cp437::encode("  Udo  "), &[true]),
            Some(strs(&["Udo"]))
        );
        assert_eq!(
            parse(&cp437::encode("\"Smith, John\""), &[true]),
            Some(strs(&["Smith, John"]))
        );
        assert_eq!(
            parse(&cp437::encode("a b , c"), &[true, true]),
            Some(strs(&["a b", "c"]))
        );
        assert_eq!(
            parse(&cp437::encode("1 2"), &[false]),
            Some(vec![Entry::Num(12.0)])
        );
        assert_eq!(
            parse(&cp437::encode(""), &[false]),
            Some(vec![Entry::Num(0.0)])
        );
        assert_eq!(parse(&cp437::encode(""), &[true]), Some(strs(&[""])));
    }

    #[test]
    fn wrong_count_or_type_asks_again() {
        assert_eq!(parse(&cp437::encode("Y"), &[false]), None);
        assert_eq!(parse(&cp437::encode("1"), &[false, false]), None);
        assert_eq!(parse(&cp437::encode("1,2"), &[false]), None);
        assert_eq!(parse(&cp437::encode("Smith, John"), &[true]), None);
        assert_eq!(parse(&cp437::encode("\"a\"b"), &[true]), None);
    }
}
