//! `PRINT USING`: numbers and strings laid out by a format string, as GW-BASIC
//! does it — `#` digits, `.` point, `,` thousands, `+`/`-` signs, `$$` and `**`
//! fills, `^^^^` exponents, `!`, `&` and `\  \` string fields, `_` escapes, `%`
//! before a number too wide for its field, and the format reused cyclically.

use crate::cp437::{self, Ch};
use crate::error::ErrorCode;
use crate::number::NumTy;
use serde::{Deserialize, Serialize};

/// A value to format.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum UsingArg {
    Num(f64, NumTy),
    Str(Vec<Ch>),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Field {
    /// `!` (1), `\  \` (its width) or `&` (`None`: the whole string).
    Str(Option<usize>),
    Num(NumberField),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct NumberField {
    width: usize,
    digits_before: usize,
    decimals: usize,
    leading_plus: bool,
    trailing: Option<u8>,
    dollar: bool,
    star: bool,
    comma: bool,
    dot: bool,
    exponent: bool,
}

fn string_field(format: &[u8], at: usize) -> Option<(Field, usize)> {
    match format.get(at)? {
        b'!' => Some((Field::Str(Some(1)), 1)),
        b'&' => Some((Field::Str(None), 1)),
        b'\\' => {
            let mut len = 1;
            loop {
                match format.get(at + len)? {
                    b' ' => len += 1,
                    b'\\' => return Some((Field::Str(Some(len + 1)), len + 1)),
                    _ => return None,
                }
            }
        }
        _ => None,
    }
}

fn number_field(format: &[u8], at: usize) -> Option<(Field, usize)> {
    let peek = |offset: usize| format.get(at + offset).copied();
    let mut len = 0;
    let mut digits_before = 0;
    let mut decimals = 0;
    let leading_plus = peek(0) == Some(b'+');
    if leading_plus {
        len += 1;
    }
    let (mut dollar, mut star) = (false, false);
    if let Some(c @ (b'$' | b'*')) = peek(len) {
        if peek(len + 1) != Some(c) {
            return None;
        }
        len += 2;
        if c == b'*' {
            star = true;
            digits_before += 2;
            if peek(len) == Some(b'$') {
                dollar = true;
                len += 1;
            }
        } else {
            dollar = true;
            digits_before += 1;
        }
    }
    let mut dot = false;
    let mut comma = false;
    if matches!(peek(len), Some(b'.' | b'#')) {
        while let Some(c) = peek(len) {
            match c {
                b'.' if !dot => dot = true,
                b'#' if dot => decimals += 1,
                b'#' => digits_before += 1,
                b',' if !dot => {
                    digits_before += 1;
                    comma = true;
                }
                _ => break,
            }
            len += 1;
        }
    }
    if digits_before + decimals == 0 {
        return None;
    }
    let exponent = format.get(at + len..at + len + 4) == Some(b"^^^^".as_slice());
    if exponent {
        len += 4;
    }
    let mut trailing = None;
    if !leading_plus && let Some(c @ (b'+' | b'-')) = peek(len) {
        trailing = Some(c);
        len += 1;
    }
    Some((
        Field::Num(NumberField {
            width: len,
            digits_before,
            decimals,
            leading_plus,
            trailing,
            dollar,
            star,
            comma,
            dot,
            exponent,
        }),
        len,
    ))
}

/// The digits of `value` rounded to `digits` significant digits: an integer
/// mantissa and the power of ten it is scaled by. Singles (and integers) round
/// as GW-BASIC's own conversion does (`PRINT USING "##.##"; .015` shows `0.02`).
fn to_decimal(value: f64, ty: NumTy, digits: i32) -> (u128, i32) {
    if value == 0.0 {
        return (0, 0);
    }
    if ty != NumTy::Dbl {
        let (mantissa, exp10) = crate::mbf::to_decimal(value, digits);
        return (u128::from(mantissa), exp10);
    }
    if digits < 0 {
        return (0, 0);
    }
    // GW-BASIC's doubles have 56 bits, and `$PUF` works on the value brought
    // to 16 whole digits (`$FOTNV`), divided down by `$DIV10` (a multiply by
    // .1 rounded up, `$DPM01`) and rounded once by `$FOTCV`'s added .5 (half
    // up, where Rust rounds a tie to even): an error below half a unit of the
    // 56-bit result vanishes at each step, so a typed `1.005#` reaches the
    // rounding as 100.5 exactly and prints 1.01. An f64 holds 1.005 as
    // 1.00499999999999989...: the rounding is made on the digits GW-BASIC
    // holds (`number::shortest_digits`), not on the f64's expansion.
    let (all, mut exponent) = crate::number::shortest_digits(value);
    if digits == 0 {
        // the rounding place is just above the leading digit: GW-BASIC's $PUF
        // shifts every digit off and $FOTCV's added .5 makes 1 of a 5 or more
        // there (`PRINT USING "##"; .6#` is ` 1`, as for a single)
        return match all.first() {
            Some(&leading) if leading >= b'5' => (1, exponent + 1),
            _ => (0, 0),
        };
    }
    let keep = (digits as usize).min(DBL_DIGITS);
    let mut kept = crate::number::round_half_up(&all, keep, &mut exponent);
    // the shortest form may have fewer digits than asked for: the rest are zeros
    kept.resize(keep, b'0');
    let mantissa = kept
        .iter()
        .fold(0u128, |n, d| n * 10 + u128::from(d - b'0'));
    (mantissa, exponent - (keep as i32 - 1))
}

/// The significant digits a double's `PRINT USING` rounds from (`$FOTNV`
/// brings a double to 16 whole digits).
const DBL_DIGITS: usize = 16;

fn group(digits: &str) -> String {
    let first = digits.len() % 3;
    let mut out = String::new();
    for (index, c) in digits.chars().enumerate() {
        if index > 0 && index >= first && (index - first).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn fixed(value: f64, ty: NumTy, decimals: usize, force_dot: bool, comma: bool) -> String {
    if value == 0.0 {
        return if force_dot {
            format!(".{}", "0".repeat(decimals))
        } else if decimals > 0 {
            "0".repeat(decimals)
        } else {
            "0".to_string()
        };
    }
    let significant = if ty == NumTy::Dbl { 16 } else { 7 };
    let (mut mantissa, mut exp10) = to_decimal(value, ty, significant);
    let mut after = -exp10;
    if after > decimals as i32 {
        let work = significant - (after - decimals as i32);
        (mantissa, exp10) = to_decimal(value, ty, work);
        after = -exp10;
    }
    let mut digits = mantissa.to_string();
    let before = digits.len() as i32 - after;
    let wanted = (decimals as i32 + before).max(0) as usize;
    while digits.len() < wanted {
        digits.push('0');
    }
    let point = before;
    if point >= digits.len() as i32 {
        let mut text = digits.clone();
        text.push_str(&"0".repeat((point - digits.len() as i32) as usize));
        if comma {
            text = group(&text);
        }
        if force_dot {
            text.push('.');
        }
        text
    } else if point > 0 {
        let (int_part, frac) = digits.split_at(point as usize);
        let int_part = if comma {
            group(int_part)
        } else {
            int_part.to_string()
        };
        format!("{int_part}.{frac}")
    } else {
        format!(".{}{digits}", "0".repeat((-point) as usize))
    }
}

fn scientific(value: f64, ty: NumTy, before: usize, decimals: usize, force_dot: bool) -> String {
    let letter = if ty == NumTy::Dbl { 'D' } else { 'E' };
    if value == 0.0 {
        if force_dot {
            return format!(".{}{letter}+00", "0".repeat(decimals));
        }
        return if ty == NumTy::Dbl {
            "0D+00".to_string()
        } else {
            "E+00".to_string()
        };
    }
    let significant = if ty == NumTy::Dbl { 16 } else { 7 };
    let work = (before + decimals).min(significant) as i32;
    let (mantissa, mut exp10) = to_decimal(value, ty, work.max(1));
    let mut digits = format!("{mantissa:0width$}", width = work.max(0) as usize);
    digits.truncate(work.max(0) as usize);
    let trimmed = digits.trim_end_matches('0').to_string();
    let mut digits = trimmed;
    while digits.len() < before + decimals {
        digits.push('0');
    }
    // exp10 now belongs to the last of the `work` digits kept; the zeros that pad
    // a field wider than the type's precision carry no power of ten
    exp10 += (work - 1).max(0);
    let int_len = before.min(digits.len());
    // no commas in an exponent form: GW-BASIC's $PUFE clears the comma count
    // (a comma in the format still counts as a digit position)
    let mut text = digits.get(..int_len).unwrap_or_default().to_string();
    if digits.len() > before {
        text.push('.');
        text.push_str(digits.get(before..).unwrap_or_default());
    } else if digits.len() == before && force_dot {
        text.push('.');
    }
    let exponent = exp10 - before as i32 + 1;
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("{text}{letter}{sign}{:02}", exponent.abs())
}

fn format_number(field: &NumberField, value: f64, ty: NumTy) -> Result<String, ErrorCode> {
    let ty = if ty == NumTy::Int { NumTy::Sng } else { ty };
    let mut digits_before = field.digits_before;
    if digits_before + field.decimals > 24 {
        return Err(ErrorCode::IllegalFunctionCall);
    }
    let negative = value < 0.0;
    let mut text = String::new();
    let mut post = "";
    if field.leading_plus {
        text.push(if negative { '-' } else { '+' });
    } else if field.trailing == Some(b'+') {
        post = if negative { "-" } else { "+" };
    } else if field.trailing == Some(b'-') {
        post = if negative { "-" } else { " " };
    } else {
        if negative {
            text.push('-');
        }
        if !field.dollar {
            digits_before = digits_before.saturating_sub(1);
        }
    }
    if field.dollar {
        text.push('$');
    }
    let magnitude = value.abs();
    if field.exponent {
        text.push_str(&scientific(
            magnitude,
            ty,
            digits_before,
            field.decimals,
            field.dot,
        ));
    } else {
        text.push_str(&fixed(
            magnitude,
            ty,
            field.decimals,
            field.dot,
            field.comma,
        ));
    }
    text.push_str(post);
    if text.len() < field.width {
        for (prefix, with_zero) in [(".", "0."), ("+.", "+0."), ("-.", "-0.")] {
            if let Some(rest) = text.strip_prefix(prefix) {
                text = format!("{with_zero}{rest}");
                break;
            }
        }
    }
    if text.len() > field.width {
        return Ok(format!("%{text}"));
    }
    let fill = if field.star { "*" } else { " " };
    Ok(format!("{}{text}", fill.repeat(field.width - text.len())))
}

fn format_string(width: Option<usize>, text: &[Ch]) -> Vec<Ch> {
    match width {
        None => text.to_vec(),
        Some(width) => {
            let mut out: Vec<Ch> = text.iter().copied().take(width).collect();
            out.resize(width, Ch::from(b' '));
            out
        }
    }
}

/// Where a `PRINT USING` is in its format between its values (GW-BASIC's
/// PRINUS keeps the count of characters left and `USFLG`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct UsingPlace {
    /// The next character of the format to scan.
    at: usize,
    /// The field found for the next value, and where the format goes on
    /// after it.
    field: Option<(Field, usize)>,
    /// Whether this pass through the format has printed a value.
    printed: bool,
}

/// Scans `text`, a format, from `place` to the next field, adding each
/// character that is no part of a field to `out` as GW-BASIC prints it while
/// it scans. At the format's end a pass that printed a value starts it over
/// when another value is due (`more`) and Illegal function call is what a pass
/// without one ends in (`REUSST`); with no value due the scan just stops.
pub(crate) fn scan(
    text: &[Ch],
    place: &mut UsingPlace,
    more: bool,
    out: &mut Vec<Vec<Ch>>,
) -> Result<(), ErrorCode> {
    // fields are made of ASCII characters; the text's own characters are kept
    let format = &cp437::to_bytes(text)[..];
    if format.is_empty() {
        return Err(ErrorCode::IllegalFunctionCall);
    }
    place.field = None;
    loop {
        if place.at >= format.len() {
            if !more {
                return Ok(());
            }
            if !place.printed {
                return Err(ErrorCode::IllegalFunctionCall);
            }
            place.at = 0;
            place.printed = false;
        }
        let at = place.at;
        let c = text.get(at).copied().unwrap_or(Ch::from(b' '));
        if c == Ch::from(b'_') {
            out.push(vec![text.get(at + 1).copied().unwrap_or(c)]);
            place.at += 2;
            continue;
        }
        if let Some((field, len)) = string_field(format, at).or_else(|| number_field(format, at)) {
            place.field = Some((field, at + len));
            return Ok(());
        }
        out.push(vec![c]);
        place.at += 1;
    }
}

/// Lays `arg` out in the field `scan` found, the place moving past it: Type
/// mismatch for a number in a string field or the other way round.
pub(crate) fn value(place: &mut UsingPlace, arg: &UsingArg) -> Result<Vec<Ch>, ErrorCode> {
    let Some((field, after)) = place.field.take() else {
        return Err(ErrorCode::IllegalFunctionCall);
    };
    place.at = after;
    place.printed = true;
    match (field, arg) {
        (Field::Str(width), UsingArg::Str(text)) => Ok(format_string(width, text)),
        (Field::Num(number), UsingArg::Num(value, ty)) => {
            let text = format_number(&number, *value, *ty)?;
            Ok(cp437::from_bytes(text.as_bytes()))
        }
        _ => Err(ErrorCode::TypeMismatch),
    }
}

/// Lays out `args` by `format` as a `PRINT USING` of them does: the pieces
/// printed in order and the error that stopped it, if any. With `cut`, it
/// stops right after the last value, as for text after the value list.
#[cfg(test)]
fn format(text: &[Ch], args: &[UsingArg], cut: bool) -> (Vec<Vec<Ch>>, Result<(), ErrorCode>) {
    let mut pieces = Vec::new();
    let mut place = UsingPlace::default();
    if text.is_empty() {
        return (pieces, Err(ErrorCode::IllegalFunctionCall));
    }
    for arg in args {
        if let Err(error) = scan(text, &mut place, true, &mut pieces) {
            return (pieces, Err(error));
        }
        match value(&mut place, arg) {
            Ok(piece) => pieces.push(piece),
            Err(error) => return (pieces, Err(error)),
        }
    }
    let result = if cut {
        Ok(())
    } else {
        scan(text, &mut place, false, &mut pieces)
    };
    (pieces, result)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn using(format_text: &str, args: &[UsingArg]) -> String {
        let (pieces, result) = format(&cp437::encode(format_text), args, false);
        result.expect("formats");
        cp437::decode(&pieces.concat())
    }

    fn nums(values: &[f64]) -> Vec<UsingArg> {
        values
            .iter()
            .map(|&v| UsingArg::Num(f64::from(v as f32), NumTy::Sng))
            .collect()
    }

    fn strs(values: &[&str]) -> Vec<UsingArg> {
        values
            .iter()
            .map(|v| UsingArg::Str(cp437::encode(v)))
            .collect()
    }

    /// The examples of the GW-BASIC manual's PRINT USING page (fields are as
    /// wide as their format characters).
    #[test]
    fn the_manual_examples_print_as_documented() {
        assert_eq!(using("!", &strs(&["LOOK", "OUT"])), "LO");
        assert_eq!(using("\\  \\", &strs(&["LOOK", "OUT"])), "LOOKOUT ");
        assert_eq!(
            using("\\   \\", &strs(&["LOOK", "OUT", "!!"])),
            "LOOK OUT  !!   "
        );
        assert_eq!(using("##.##", &nums(&[0.78])), " 0.78");
        assert_eq!(using("###.##", &nums(&[987.654])), "987.65");
        assert_eq!(
            using("##.##  ", &nums(&[10.2, 5.3, 66.789, 0.234])),
            "10.20   5.30  66.79   0.23  "
        );
        assert_eq!(
            using("+##.##  ", &nums(&[-68.95, 2.4, 55.6, -0.9])),
            "-68.95   +2.40  +55.60   -0.90  "
        );
        assert_eq!(
            using("##.##-  ", &nums(&[-68.95, 22.449, -7.01])),
            "68.95-  22.45    7.01-  "
        );
        assert_eq!(
            using("**#.#  ", &nums(&[12.39, -0.9, 765.1])),
            "*12.4  *-0.9  765.1  "
        );
        assert_eq!(using("$$###.##", &nums(&[456.78])), " $456.78");
        assert_eq!(using("**$##.##", &nums(&[2.34])), "***$2.34");
        assert_eq!(using("####,.##", &nums(&[1234.5])), "1,234.50");
        assert_eq!(using("##.##^^^^", &nums(&[234.56])), " 2.35E+02");
        assert_eq!(using(".####^^^^-", &nums(&[-888888.0])), ".8889E+06-");
        assert_eq!(using("+.##^^^^", &nums(&[123.0])), "+.12E+03");
        assert_eq!(using("_!##.##_!", &nums(&[12.34])), "!12.34!");
        assert_eq!(using("##.##", &nums(&[111.22])), "%111.22");
        assert_eq!(using(".##", &nums(&[0.999])), "%1.00");
    }

    #[test]
    fn literals_and_cycles() {
        assert_eq!(
            using("TOTAL: ###", &nums(&[5.0, 6.0])),
            "TOTAL:   5TOTAL:   6"
        );
        assert_eq!(using("### DOLLARS", &nums(&[5.0])), "  5 DOLLARS");
        assert_eq!(using("&!", &strs(&["AB", "CD"])), "ABC");
        let (pieces, result) = format(&cp437::encode("ABC"), &nums(&[1.0]), false);
        assert_eq!(
            (pieces.concat(), result),
            (cp437::encode("ABC"), Err(ErrorCode::IllegalFunctionCall))
        );
        assert_eq!(
            format(&cp437::encode("###"), &strs(&["X"]), false),
            (Vec::new(), Err(ErrorCode::TypeMismatch))
        );
        assert_eq!(
            format(
                &cp437::encode("## ##"),
                &[
                    UsingArg::Num(1.0, NumTy::Sng),
                    UsingArg::Str(cp437::encode("A"))
                ],
                false
            ),
            (
                vec![cp437::encode(" 1"), cp437::encode(" ")],
                Err(ErrorCode::TypeMismatch)
            )
        );
        // text after the values: nothing of the format after the last one
        assert_eq!(
            format(&cp437::encode("## END ##"), &nums(&[1.0]), true),
            (vec![cp437::encode(" 1")], Ok(()))
        );
    }
}
