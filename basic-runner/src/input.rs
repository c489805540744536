//! Reads a line typed at `INPUT` the way GW-BASIC does: comma-separated entries,
//! quotes around strings, blanks ignored inside numbers, and "?Redo from start"
//! when the count or a type is wrong.

use crate::cp437::{self, Ch};
use crate::number;

/// What one `INPUT` variable takes: GW-BASIC reads a number for a double
/// variable with `FINDBL` (all in double precision), for the others with
/// `FIN` (the digits decide the type).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Target {
    Str,
    Num,
    Dbl,
}

/// Why GW-BASIC asks for the line again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Redo {
    /// A wrong count or type of entries: `?Redo from start`.
    Retype,
    /// A number past the range of the type its reader made it: GW-BASIC's
    /// reader says `Overflow` (or, under `ON ERROR`, raises error 6), and
    /// `INPUT` asks again.
    Overflow,
    /// An `&H`/`&O` number past 16 bits: the `&` reader (`OCTCNS`, GWEVAL.ASM)
    /// prints `Overflow` itself when `INPUT` calls it (`CKOVER` with `FLGSCN`
    /// set), with or without `ON ERROR`, and `INPUT` asks again.
    RadixOverflow,
}

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

/// Splits `line` into one entry per target.
///
/// GW-BASIC's `INPUT` checks the line in a first pass (GWMAIN.ASM, from
/// `NOTQTI`): for each variable in turn it wants a comma before the entry
/// (`OKVLST`; a missing or bad entry shows there) and reads a number with the
/// math pack's reader, after setting `OVCSTR` to 1. The reader (`FIN`/`FINDBL`,
/// MATH1.ASM) runs in once-only overflow mode (`$FLGOV` 1, which its one
/// `Overflow` turns into 2) and leaves that flag in `OVCSTR` (`FINOVC`), so an
/// entry past its type's range is found as soon as the entries before it were
/// in order, and the line is asked for again.
pub(crate) fn parse(line: &[Ch], targets: &[Target]) -> Result<Vec<Entry>, Redo> {
    let mut pos = 0;
    let mut entries = Vec::with_capacity(targets.len());
    let mut separators = Vec::with_capacity(targets.len());
    let mut conversion_failed = false;
    for &target in targets {
        let is_str = target == Target::Str;
        // the first pass reaches this entry only past well-formed ones
        let reached = !conversion_failed && separators.iter().all(|s| *s == Some(COMMA));
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
            let bytes = cp437::to_bytes(&word);
            // the reader stops at a bad character, after reading what is before it
            if reached && number::reader_overflows(&bytes, target == Target::Dbl) {
                return Err(Redo::Overflow);
            }
            if reached
                && number::read_item(&bytes, target == Target::Dbl)
                    == Err(number::RadixFault::Overflow)
            {
                return Err(Redo::RadixOverflow);
            }
            let value = if target == Target::Dbl {
                number::parse_strict_double(&bytes)
            } else {
                number::parse_strict(&bytes)
            };
            match value {
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
        return Err(Redo::Retype);
    }
    Ok(entries)
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
            parse(&cp437::encode("1, 2"), &[Target::Num, Target::Num]),
            Ok(vec![Entry::Num(1.0), Entry::Num(2.0)])
        );
        assert_eq!(
            parse(&cp437::encode("  Udo  "), &[Target::Str]),
            Ok(strs(&["Udo"]))
        );
        assert_eq!(
            parse(&cp437::encode("\"Smith, John\""), &[Target::Str]),
            Ok(strs(&["Smith, John"]))
        );
        assert_eq!(
            parse(&cp437::encode("a b , c"), &[Target::Str, Target::Str]),
            Ok(strs(&["a b", "c"]))
        );
        assert_eq!(
            parse(&cp437::encode("1 2"), &[Target::Num]),
            Ok(vec![Entry::Num(12.0)])
        );
        assert_eq!(
            parse(&cp437::encode(""), &[Target::Num]),
            Ok(vec![Entry::Num(0.0)])
        );
        assert_eq!(parse(&cp437::encode(""), &[Target::Str]), Ok(strs(&[""])));
    }

    #[test]
    fn wrong_count_or_type_asks_again() {
        use Target::{Num, Str};
        let lines: [(&str, &[Target]); 5] = [
            ("Y", &[Num]),
            ("1", &[Num, Num]),
            ("1,2", &[Num]),
            ("Smith, John", &[Str]),
            ("\"a\"b", &[Str]),
        ];
        for (line, targets) in lines {
            assert_eq!(
                parse(&cp437::encode(line), targets),
                Err(Redo::Retype),
                "{line}"
            );
        }
    }

    #[test]
    fn a_number_past_its_range_is_found_once_reached() {
        use Target::{Dbl, Num, Str};
        let lines: [(&str, &[Target], Redo); 9] = [
            ("1E39", &[Num], Redo::Overflow),
            // the `&` reader's own message: a fifth hex digit, octal past 16 bits
            ("&H0FFFF", &[Num], Redo::RadixOverflow),
            ("5, &O200000", &[Num, Dbl], Redo::RadixOverflow),
            // an 8 among octal digits is only asked again
            ("&O78", &[Num], Redo::Retype),
            // the reader stops at the X, after the overflow
            ("1E39X", &[Num], Redo::Overflow),
            ("1D309", &[Dbl], Redo::Overflow),
            ("5, 1E39", &[Num, Num], Redo::Overflow),
            // a bad entry before it, or a missing comma, is found first
            ("X, 1E39", &[Num, Num], Redo::Retype),
            ("\"a\"b, 1E39", &[Str, Num], Redo::Retype),
        ];
        for (line, targets, redo) in lines {
            assert_eq!(parse(&cp437::encode(line), targets), Err(redo), "{line}");
        }
        // a string variable takes the text as it is
        assert_eq!(
            parse(&cp437::encode("1E39"), &[Target::Str]),
            Ok(strs(&["1E39"]))
        );
    }
}
