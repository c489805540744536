//! Reads a line typed at `INPUT` the way GW-BASIC does: comma-separated entries,
//! quotes around strings, blanks ignored inside numbers, and "?Redo from start"
//! when the count or a type is wrong.

use crate::number;

/// One value typed at `INPUT`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Entry {
    Num(f64),
    Str(Vec<u8>),
}

const MAX_ENTRY: usize = 255;

fn is_blank(byte: u8) -> bool {
    matches!(byte, b' ' | b'\0' | b'\n')
}

/// Splits `line` into one entry per target (`true` for a string target).
/// `None` means GW-BASIC would answer "?Redo from start".
pub(crate) fn parse(line: &[u8], targets_are_str: &[bool]) -> Option<Vec<Entry>> {
    let mut pos = 0;
    let mut entries = Vec::with_capacity(targets_are_str.len());
    let mut separators = Vec::with_capacity(targets_are_str.len());
    let mut conversion_failed = false;
    for &is_str in targets_are_str {
        while line.get(pos).copied().is_some_and(is_blank) {
            pos += 1;
        }
        let quoted = is_str && line.get(pos) == Some(&b'"');
        if quoted {
            pos += 1;
        }
        let mut word = Vec::new();
        let mut blanks = Vec::new();
        let mut separator = None;
        let mut closed_quote = false;
        while let Some(&byte) = line.get(pos) {
            pos += 1;
            if quoted && byte == b'"' {
                closed_quote = true;
                break;
            }
            if !quoted && byte == b',' {
                separator = Some(b',');
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
            while line.get(pos) == Some(&b' ') {
                pos += 1;
            }
            separator = match line.get(pos) {
                Some(b',') => {
                    pos += 1;
                    Some(b',')
                }
                None => None,
                Some(_) => Some(b'"'),
            };
        }
        separators.push(separator);
        if is_str {
            entries.push(Entry::Str(word));
        } else {
            match number::parse_strict(&word) {
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
            .map(|v| Entry::Str(v.as_bytes().to_vec()))
            .collect()
    }

    #[test]
    fn entries_split_at_commas() {
        assert_eq!(
            parse(b"1, 2", &[false, false]),
            Some(vec![Entry::Num(1.0), Entry::Num(2.0)])
        );
        assert_eq!(parse(b"  Udo  ", &[true]), Some(strs(&["Udo"])));
        assert_eq!(
            parse(b"\"Smith, John\"", &[true]),
            Some(strs(&["Smith, John"]))
        );
        assert_eq!(parse(b"a b , c", &[true, true]), Some(strs(&["a b", "c"])));
        assert_eq!(parse(b"1 2", &[false]), Some(vec![Entry::Num(12.0)]));
        assert_eq!(parse(b"", &[false]), Some(vec![Entry::Num(0.0)]));
        assert_eq!(parse(b"", &[true]), Some(strs(&[""])));
    }

    #[test]
    fn wrong_count_or_type_asks_again() {
        assert_eq!(parse(b"Y", &[false]), None);
        assert_eq!(parse(b"1", &[false, false]), None);
        assert_eq!(parse(b"1,2", &[false]), None);
        assert_eq!(parse(b"Smith, John", &[true]), None);
        assert_eq!(parse(b"\"a\"b", &[true]), None);
    }
}
