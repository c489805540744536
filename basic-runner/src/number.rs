//! Numbers as GW-BASIC holds, prints and reads them.
//!
//! Every number lives in an `f64`; its static type says how it was rounded:
//! singles are rounded to `f32` after every operation, integers are whole numbers.
//! Printing follows GW-BASIC: up to 7 significant digits for singles (16 for
//! doubles), no leading zero (`.7`), and an exponent (`1E+07`) once the number
//! does not fit the digits.

use serde::{Deserialize, Serialize};

use crate::mbf;

/// The largest single (and, with another mantissa, double) in Microsoft Binary Format:
/// GW-BASIC's "machine infinity", what overflows and divisions by zero yield.
pub(crate) const SNG_MAX: f64 = 1.701_411_733_192_644_3e38;
/// The largest double in Microsoft Binary Format, as near as an `f64` gets.
pub(crate) const DBL_MAX: f64 = 1.701_411_834_604_692_3e38;
/// 2^-128, the smallest number Microsoft Binary Format holds (exponent byte 1),
/// single and double alike.
pub(crate) const MBF_SMALLEST: f64 = f64::from_bits((1023 - 128) << 52);

/// A number below MBF's smallest is 0: GW-BASIC's math pack and number reader
/// make an exponent that runs out at the bottom zero (`$ZERO`), with no message.
pub(crate) fn underflow_to_zero(value: f64) -> f64 {
    if value.abs() < MBF_SMALLEST {
        0.0
    } else {
        value
    }
}

/// `value` rounded to single precision (nearest, ties to even) where MBF's
/// lowest singles lie below `f32`'s normal range, which holds them with fewer
/// bits: scaled up, rounded, scaled back, then 0 below MBF's smallest.
pub(crate) fn round_tiny_single(value: f64) -> f64 {
    const SCALE: f64 = 18_446_744_073_709_551_616.0; // 2^64
    underflow_to_zero(f64::from((value * SCALE) as f32) / SCALE)
}

/// A numeric type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum NumTy {
    /// `%`: 16-bit integer.
    Int,
    /// `!`: single precision, the default.
    Sng,
    /// `#`: double precision.
    Dbl,
}

impl NumTy {
    /// The type arithmetic on two operands yields (the wider one).
    pub(crate) fn wider(self, other: NumTy) -> NumTy {
        match (self, other) {
            (NumTy::Dbl, _) | (_, NumTy::Dbl) => NumTy::Dbl,
            (NumTy::Sng, _) | (_, NumTy::Sng) => NumTy::Sng,
            _ => NumTy::Int,
        }
    }

    pub(crate) fn max(self) -> f64 {
        match self {
            NumTy::Dbl => DBL_MAX,
            _ => SNG_MAX,
        }
    }
}

/// Rounds to the nearest integer (halves away from zero) and checks the 16-bit range: `CINT`.
pub(crate) fn to_int(value: f64) -> Option<i16> {
    let rounded = value.round();
    if (-32768.0..=32767.0).contains(&rounded) {
        Some(rounded as i16)
    } else {
        None
    }
}

/// The digits of a number as `PRINT` and `STR$` show them, with `-` for negatives
/// and nothing for positives.
pub(crate) fn format_plain(value: f64, ty: NumTy) -> String {
    match ty {
        NumTy::Int if value.fract() == 0.0 && value.abs() < 1e15 => format!("{}", value as i64),
        NumTy::Int | NumTy::Sng => format_float(value, 7, 'E'),
        NumTy::Dbl => format_float(value, 16, 'D'),
    }
}

/// `STR$`: a sign position (space for positive numbers) and the digits.
pub(crate) fn format_str(value: f64, ty: NumTy) -> String {
    let plain = format_plain(value, ty);
    if plain.starts_with('-') {
        plain
    } else {
        format!(" {plain}")
    }
}

/// `PRINT`: the sign position, the digits, and one space after.
pub(crate) fn format_print(value: f64, ty: NumTy) -> String {
    let mut text = format_str(value, ty);
    text.push(' ');
    text
}

fn format_float(value: f64, significant: usize, exponent_letter: char) -> String {
    if value == 0.0 || !value.is_finite() {
        return "0".to_string();
    }
    let sign = if value < 0.0 { "-" } else { "" };
    if exponent_letter == 'E' {
        // singles take GW-BASIC's own decimal conversion, which rounds differently
        let (mantissa, exp10) = mbf::to_decimal(value, significant as i32);
        let padded = format!("{mantissa:0significant$}");
        let digits = padded.trim_end_matches('0');
        return layout(
            sign,
            digits,
            exp10 + significant as i32 - 1,
            significant,
            'E',
        );
    }
    let (digits, exponent) = double_digits(value, significant);
    let digits = String::from_utf8_lossy(&digits);
    layout(
        sign,
        digits.trim_end_matches('0'),
        exponent,
        significant,
        exponent_letter,
    )
}

/// The significant digits of a double's magnitude as `PRINT` shows them, at
/// most `significant` of them, and the power of ten of the first: GW-BASIC's
/// digits (`shortest_digits`), rounded half up, as `$FOTCV` adds .5 to the 16
/// whole digits `$FOTNV` made (`1D15 + .5` prints `1000000000000001`, where
/// Rust would round the tie to even).
fn double_digits(value: f64, significant: usize) -> (Vec<u8>, i32) {
    let (digits, mut exponent) = shortest_digits(value);
    let digits = round_half_up(&digits, significant, &mut exponent);
    (digits, exponent)
}

/// The digits of a double's magnitude as GW-BASIC holds it, and the power of
/// ten of the first. A double's 16th and 17th digits are beyond an f64
/// (GW-BASIC's have 56 bits, near 17 digits): the shortest form that reads
/// back as the same f64 (17 digits at most) is the number GW-BASIC holds
/// (`9.04829864`, not `9.048298640000001`; `9.995`, not `9.99499999999999922`).
pub(crate) fn shortest_digits(value: f64) -> (Vec<u8>, i32) {
    split_scientific(&format!("{:e}", value.abs()))
}

/// The digits and the exponent of Rust's `{:e}` form.
fn split_scientific(text: &str) -> (Vec<u8>, i32) {
    let (mantissa, exponent) = text.split_once('e').unwrap_or((text, "0"));
    let digits = mantissa.bytes().filter(u8::is_ascii_digit).collect();
    (digits, exponent.parse().unwrap_or(0))
}

/// The first `keep` of `digits` (a leading digit at `10^exponent`), rounded
/// half up by the digit after them; `exponent` goes one up when 9.99 becomes
/// 10.0. Fewer digits than `keep` are kept as they are.
pub(crate) fn round_half_up(digits: &[u8], keep: usize, exponent: &mut i32) -> Vec<u8> {
    let Some(&next) = digits.get(keep) else {
        return digits.to_vec();
    };
    let mut kept = digits[..keep].to_vec();
    if next >= b'5' {
        let mut at = kept.len();
        loop {
            if at == 0 {
                // every digit was a 9: 999 rounds to 1000, kept as 100
                kept.insert(0, b'1');
                kept.truncate(keep);
                *exponent += 1;
                break;
            }
            at -= 1;
            if kept[at] == b'9' {
                kept[at] = b'0';
            } else {
                kept[at] += 1;
                break;
            }
        }
    }
    kept
}

/// Places the significant `digits` (the first one at 10^`exponent`) in plain or
/// scientific notation, as `PRINT` does.
fn layout(
    sign: &str,
    digits: &str,
    exponent: i32,
    significant: usize,
    exponent_letter: char,
) -> String {
    let digits = if digits.is_empty() { "0" } else { digits };
    let n_digits = digits.len() as i32;
    let limit = significant as i32;
    if exponent > limit - 1 || n_digits - exponent > limit + 1 {
        let (first, rest) = digits.split_at(1);
        let dot = if rest.is_empty() { "" } else { "." };
        let exp_sign = if exponent < 0 { '-' } else { '+' };
        return format!(
            "{sign}{first}{dot}{rest}{exponent_letter}{exp_sign}{:02}",
            exponent.abs()
        );
    }
    if exponent < 0 {
        let zeros = "0".repeat((-exponent - 1) as usize);
        return format!("{sign}.{zeros}{digits}");
    }
    let int_len = (exponent + 1) as usize;
    if int_len >= digits.len() {
        let zeros = "0".repeat(int_len - digits.len());
        return format!("{sign}{digits}{zeros}");
    }
    let (int_part, frac_part) = digits.split_at(int_len);
    format!("{sign}{int_part}.{frac_part}")
}

/// A numeric literal of the program text: its value and type.
pub(crate) fn parse_literal(text: &str) -> (f64, NumTy) {
    let (value, ty, _) = parse_literal_checked(text);
    (value, ty)
}

/// A numeric literal of the program text: its value, its type, and whether it lies
/// beyond its type's range (GW-BASIC prints `Overflow` when it reads such a
/// literal and goes on with the largest number; doubles end at the same
/// 1.701411834604692D+38 as singles).
pub(crate) fn parse_literal_checked(text: &str) -> (f64, NumTy, bool) {
    let upper = text.to_ascii_uppercase();
    if let Some(value) = parse_radix(&upper) {
        return (value, NumTy::Int, false);
    }
    let (body, suffix) = match upper.chars().last() {
        Some(c @ ('%' | '!' | '#')) => (&upper[..upper.len() - 1], Some(c)),
        _ => (upper.as_str(), None),
    };
    let has_d = body.contains('D');
    let normalized = body.replace('D', "E");
    let value = parse_decimal(&normalized);
    let mantissa = normalized.split('E').next().unwrap_or("");
    let significant = mantissa
        .chars()
        .filter(char::is_ascii_digit)
        .skip_while(|&c| c == '0')
        .count();
    let is_plain_integer = !mantissa.contains('.') && !normalized.contains('E');
    let ty = match suffix {
        Some('%') => NumTy::Int,
        Some('!') => NumTy::Sng,
        Some('#') => NumTy::Dbl,
        _ if has_d || significant > 7 => NumTy::Dbl,
        _ if is_plain_integer && value <= 32767.0 => NumTy::Int,
        _ => NumTy::Sng,
    };
    let (value, overflow) = match ty {
        NumTy::Int => (value.round(), false),
        NumTy::Sng => match single_from_text(&normalized) {
            Some(single) => (single, false),
            None => (value.min(SNG_MAX), true),
        },
        NumTy::Dbl => (
            value.min(DBL_MAX),
            value >= DBL_MAX && exceeds_double(&normalized),
        ),
    };
    (value, ty, overflow)
}

/// Whether a decimal text is beyond GW-BASIC's largest double (its own value, or
/// beyond any `f64`).
fn exceeds_double(text: &str) -> bool {
    text.parse::<f64>().map_or(true, |value| value > DBL_MAX)
}

/// `&H`, `&O` and `&` constants: 16-bit values, `&HFFFF` is -1.
fn parse_radix(upper: &str) -> Option<f64> {
    let rest = upper.strip_prefix('&')?;
    let (digits, radix) = if let Some(hex) = rest.strip_prefix('H') {
        (hex, 16)
    } else if let Some(oct) = rest.strip_prefix('O') {
        (oct, 8)
    } else {
        (rest, 8)
    };
    let digits: String = digits.chars().take_while(|c| c.is_digit(radix)).collect();
    if digits.is_empty() {
        return Some(0.0);
    }
    let value = u32::from_str_radix(&digits, radix).ok()?;
    let value = u16::try_from(value).unwrap_or(u16::MAX);
    Some(f64::from(value as i16))
}

fn parse_decimal(text: &str) -> f64 {
    let value = decimal(text);
    if value.is_finite() {
        underflow_to_zero(value)
    } else {
        DBL_MAX.copysign(value)
    }
}

/// The decimal number `text` spells, infinite past `f64`'s range.
fn decimal(text: &str) -> f64 {
    text.parse().unwrap_or_else(|_| {
        // "1.", ".", "1E" and the like: take what parses
        let trimmed = text.trim_end_matches(['E', '+', '-']);
        let trimmed = if trimmed.ends_with('.') {
            format!("{trimmed}0")
        } else {
            trimmed.to_string()
        };
        let trimmed = if trimmed.starts_with('.') || trimmed.starts_with("-.") {
            trimmed.replacen('.', "0.", 1)
        } else {
            trimmed
        };
        trimmed.parse().unwrap_or(0.0)
    })
}

/// A number read from text: its value (rounded as a single unless the text reads
/// as a double), how many bytes it took, and its value as a double when the text
/// makes one (`None` for a single).
struct Scanned {
    value: f64,
    used: usize,
    double: Option<f64>,
    /// Where GW-BASIC's `&` reader (`OCTCNS`) stops with an error of its own.
    radix_fault: Option<RadixFault>,
    /// A decimal number past even `f64`'s range (its value is held as a
    /// double's largest, which is in range).
    beyond_f64: bool,
}

/// Which of GW-BASIC's two entries to its number reader a scan follows.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reader {
    /// `$FIN`, as `READ`, `INPUT` and the program text read numbers: the digits
    /// decide the type (an eighth digit, `D` or `#` make a double).
    Typed,
    /// `FINDBL`, the entry `VAL` calls ("get all the precision we can"): a
    /// decimal number is a double from its first digit, unless a `!` after the
    /// digits forces it to single; `&H`/`&O` numbers are integers either way.
    Double,
}

/// Scans the longest number at the start of `bytes` (blanks are skipped anywhere, as
/// GW-BASIC's number reader does).
fn scan_number(bytes: &[u8], reader: Reader) -> Scanned {
    let mut text = String::new();
    let mut index = 0;
    let mut used = 0;
    let skip_blanks = |index: &mut usize| {
        while matches!(bytes.get(*index), Some(b' ' | b'\t' | b'\n')) {
            *index += 1;
        }
    };
    skip_blanks(&mut index);
    if bytes.get(index) == Some(&b'&') {
        let (value, used, radix_fault) = scan_radix(bytes, index + 1);
        return Scanned {
            value,
            used,
            double: None,
            radix_fault,
            beyond_f64: false,
        };
    }
    if let Some(&sign @ (b'+' | b'-')) = bytes.get(index) {
        text.push(char::from(sign));
        index += 1;
        used = index;
    }
    let mut seen_dot = false;
    let mut seen_digit = false;
    loop {
        skip_blanks(&mut index);
        match bytes.get(index) {
            Some(&d) if d.is_ascii_digit() => {
                text.push(char::from(d));
                seen_digit = true;
                index += 1;
                used = index;
            }
            Some(b'.') if !seen_dot => {
                text.push('.');
                seen_dot = true;
                index += 1;
                used = index;
            }
            _ => break,
        }
    }
    if !seen_digit {
        // `FINDBL` starts the number as a double zero, so text without one is a
        // double 0 to `VAL` (an empty string never reaches the reader)
        let double = (reader == Reader::Double && !bytes.is_empty()).then_some(0.0);
        return Scanned {
            value: 0.0,
            used,
            double,
            radix_fault: None,
            beyond_f64: false,
        };
    }
    // GW-BASIC's reader ($FIN) types the number as it goes: an eighth digit makes
    // it a double, so do `D` and a `#` right after the digits; `!` makes it single
    // (`FN500`, `FN600`, MATH1.ASM); `%` is taken and changes nothing (`FN400`).
    // The reader stops after the sign; none may follow an exponent (`$FINEX`,
    // MATH2.ASM, stops at it), so `1E5#` leaves the `#` unread.
    let forced = match bytes.get(index) {
        Some(b'#') => Some(true),
        Some(b'!') => Some(false),
        _ => None,
    };
    if let Some(b'#' | b'!' | b'%') = bytes.get(index) {
        used = index + 1;
    }
    let double_exponent = matches!(bytes.get(index), Some(b'D' | b'd'));
    if let Some(b'E' | b'e' | b'D' | b'd') = bytes.get(index) {
        let mut exp_text = String::from("E");
        let mut exp_index = index + 1;
        skip_blanks(&mut exp_index);
        if let Some(&sign @ (b'+' | b'-')) = bytes.get(exp_index) {
            exp_text.push(char::from(sign));
            exp_index += 1;
        }
        let mut exp_digits = false;
        loop {
            skip_blanks(&mut exp_index);
            match bytes.get(exp_index) {
                Some(&d) if d.is_ascii_digit() => {
                    exp_text.push(char::from(d));
                    exp_digits = true;
                    exp_index += 1;
                }
                _ => break,
            }
        }
        if exp_digits {
            text.push_str(&exp_text);
        }
        used = exp_index;
    }
    let significant = text
        .split('E')
        .next()
        .unwrap_or("")
        .chars()
        .filter(char::is_ascii_digit)
        .skip_while(|&c| c == '0')
        .count();
    let single = (significant <= 7 && !double_exponent)
        .then(|| single_from_text(&text))
        .flatten();
    let value = single.unwrap_or_else(|| parse_decimal(&text));
    let typed_double = significant > 7 || double_exponent;
    let double = match reader {
        Reader::Typed => forced.unwrap_or(typed_double),
        Reader::Double => forced != Some(false),
    }
    .then(|| parse_decimal(&text));
    // a `!` after more than 7 digits rounds the double the reader built to single
    let value = if forced == Some(false) && typed_double {
        let double = parse_decimal(&text);
        if double.abs() < f64::from(f32::MIN_POSITIVE) {
            round_tiny_single(double)
        } else {
            f64::from(double as f32)
        }
    } else {
        value
    };
    // only a number held as a double's largest can be one past f64's range
    let beyond_f64 = value.abs() >= DBL_MAX && decimal(&text).is_infinite();
    Scanned {
        value,
        used,
        double,
        radix_fault: None,
        beyond_f64,
    }
}

/// Why GW-BASIC's `&` reader (`OCTCNS`, GWEVAL.ASM) stops with an error of its
/// own: `READ` and `VAL` raise it at their own line, `INPUT` asks again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RadixFault {
    /// `Overflow`: a fifth hex digit, or octal past 16 bits.
    Overflow,
    /// `Syntax error`: an `8` or `9` among octal digits.
    Digit,
}

/// GW-BASIC's `&H`/`&O`/`&` reader from just after the `&`: the value, where
/// it stops, and its error if any. Hex digits are read as they stand (no
/// blanks) and there may be four: the fifth is `Overflow` whatever its value
/// (`LOPHEX` counts them down from 5 and falls into `CKOVER`), so `&H0FFFF`
/// overflows. Octal digits are read with blanks skipped (`CHRGTR`) and
/// overflow when a shift carries out of 16 bits.
fn scan_radix(bytes: &[u8], start: usize) -> (f64, usize, Option<RadixFault>) {
    let word = |value: u32| f64::from(value as u16 as i16);
    let mut index = start;
    let mut value: u32 = 0;
    if matches!(bytes.get(index), Some(b'H' | b'h')) {
        index += 1;
        let mut digits = 0;
        while let Some(digit) = bytes.get(index).and_then(|&b| char::from(b).to_digit(16)) {
            value = (value << 4 | digit) & 0xFFFF;
            index += 1;
            digits += 1;
            if digits == 5 {
                return (word(value), index, Some(RadixFault::Overflow));
            }
        }
        return (word(value), index, None);
    }
    if matches!(bytes.get(index), Some(b'O' | b'o')) {
        index += 1;
    }
    let mut used = index;
    loop {
        while matches!(bytes.get(index), Some(b' ' | b'\t' | b'\n')) {
            index += 1;
        }
        match bytes.get(index) {
            Some(b'8' | b'9') => return (word(value), used, Some(RadixFault::Digit)),
            Some(&b) if b.is_ascii_digit() => {
                value = value * 8 + u32::from(b - b'0');
                if value > 0xFFFF {
                    return (word(value), used, Some(RadixFault::Overflow));
                }
                index += 1;
                used = index;
            }
            _ => return (word(value), used, None),
        }
    }
}

/// A decimal number read as GW-BASIC reads a single: its digits as an integer,
/// then a rounding division or multiplication by ten per power. `None` for an
/// overflow (the caller's clamp to the largest value stands).
fn single_from_text(text: &str) -> Option<f64> {
    let (mantissa_text, exponent_text) = text.split_once('E').unwrap_or((text, ""));
    let negative = mantissa_text.starts_with('-');
    let mut mantissa: u128 = 0;
    let mut exp10: i32 = 0;
    let mut after_point = false;
    for c in mantissa_text.chars() {
        match c {
            '.' => after_point = true,
            '0'..='9' => {
                if mantissa < 10u128.pow(30) {
                    mantissa = mantissa * 10 + u128::from(c as u8 - b'0');
                    exp10 -= i32::from(after_point);
                } else {
                    // digits past any precision only scale the number
                    exp10 += i32::from(!after_point);
                }
            }
            _ => {}
        }
    }
    let exponent: i32 = exponent_text
        .trim_start_matches('+')
        .parse::<i64>()
        .map(|e| e.clamp(-1000, 1000) as i32)
        .unwrap_or(0);
    mbf::from_decimal(mantissa, exp10 + exponent, negative).ok()
}

/// `VAL` typed as GW-BASIC types it at run time: the number at the start of
/// the string (0 if there is none) and whether it is a double. GW-BASIC's `VAL`
/// reads through `FINDBL` (BISTRS.ASM), so every decimal number is a double
/// (`VAL("1.2E23")` prints `1.2D+23`), `1.5!` a single, `&H`/`&O` numbers and
/// the empty string integers (single here: the run-time type flag has no
/// integer, and an integer's value prints and adds as the single's does).
pub(crate) fn parse_val_typed(bytes: &[u8]) -> (f64, bool) {
    let scanned = scan_number(bytes, Reader::Double);
    let (value, double) = match scanned.double {
        Some(double) => (double, true),
        None => (scanned.value, false),
    };
    // An exponent past f64's range (`1E400`) leaves the largest double, which
    // is in range; GW-BASIC's `$FINE` (MATH1.ASM) overflows once the exponent,
    // less the digits after the point, passes 38, so the caller's range check
    // is given an infinity to turn into `Overflow`.
    if scanned.beyond_f64 {
        return (f64::INFINITY.copysign(value), double);
    }
    (value, double)
}

/// Whether GW-BASIC's reader overflows on the number at the start of `bytes`
/// (it stops at the first character that is not part of it): `FINDBL` for a
/// double variable's `INPUT` (`double_target`), else `$FIN`, where the digits
/// decide between a single's and a double's range.
pub(crate) fn reader_overflows(bytes: &[u8], double_target: bool) -> bool {
    let reader = if double_target {
        Reader::Double
    } else {
        Reader::Typed
    };
    let scanned = scan_number(bytes, reader);
    let (value, max) = match scanned.double {
        Some(double) => (double, DBL_MAX),
        None => (scanned.value, SNG_MAX),
    };
    scanned.beyond_f64 || value.abs() > max
}

/// The error GW-BASIC's `VAL` stops with at an `&H`/`&O`/`&` number: `VAL`
/// calls `FINDBL` (BISTRS.ASM), which reads such a number with `OCTCNS`
/// (GWEVAL.ASM) as `READ` does, `FLGSCN` being 0 outside `INPUT`: a fifth hex
/// digit or octal past 16 bits is `OVERR` (`Overflow`), an `8` or `9` among
/// octal digits `CONERR` → `SNERR` (`Syntax error`).
pub(crate) fn val_radix_fault(bytes: &[u8]) -> Option<RadixFault> {
    scan_number(bytes, Reader::Double).radix_fault
}

/// A whole `INPUT` entry or `DATA` item as a number; `None` if anything but a number
/// (and an optional type sign) is there. An empty entry is 0.
pub(crate) fn parse_strict(bytes: &[u8]) -> Option<f64> {
    parse_strict_typed(bytes).map(|(value, _)| value)
}

/// As [`parse_strict`], with whether GW-BASIC's reader (`$FIN`) made the number
/// a double (an eighth digit, `D` or `#`); otherwise it is a single or an
/// integer. The value is not clamped to its type's range.
pub(crate) fn parse_strict_typed(bytes: &[u8]) -> Option<(f64, bool)> {
    parse_strict_with(bytes, Reader::Typed)
}

/// A whole `INPUT` entry for a double variable: GW-BASIC reads it with
/// `FINDBL` (GWMAIN.ASM, `NUMINS`), which builds every decimal number in
/// double precision (`1.1` is 1.1, not the single 1.100000023841858), unless
/// a `!` after it makes it single.
pub(crate) fn parse_strict_double(bytes: &[u8]) -> Option<f64> {
    parse_strict_with(bytes, Reader::Double).map(|(value, _)| value)
}

fn parse_strict_with(bytes: &[u8], reader: Reader) -> Option<(f64, bool)> {
    match read_with(bytes, reader) {
        Ok(item) if !item.rest => Some((item.value, item.double)),
        _ => None,
    }
}

/// A number as GW-BASIC's reader leaves it for `READ` to store: it stores what
/// the reader made and only then looks at what follows (`STRDN2`, GWMAIN.ASM).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ItemNumber {
    /// Not clamped to its type's range; infinite past `f64`'s.
    pub(crate) value: f64,
    pub(crate) double: bool,
    /// Something other than blanks follows the number: `Syntax error`, after
    /// the store.
    pub(crate) rest: bool,
}

/// A `DATA` item as `READ` reads it into a numeric variable: `FINDBL` for a
/// double variable (`double_target`: the number is built in double from its
/// first digit, `NUMINS`), else `FIN`.
pub(crate) fn read_item(bytes: &[u8], double_target: bool) -> Result<ItemNumber, RadixFault> {
    let reader = if double_target {
        Reader::Double
    } else {
        Reader::Typed
    };
    read_with(bytes, reader)
}

fn read_with(bytes: &[u8], reader: Reader) -> Result<ItemNumber, RadixFault> {
    let scanned = scan_number(bytes, reader);
    if let Some(fault) = scanned.radix_fault {
        return Err(fault);
    }
    let value = match reader {
        // `FIN` forces the number it built to double only after the digits
        Reader::Typed => scanned.value,
        Reader::Double => scanned.double.unwrap_or(scanned.value),
    };
    // past f64's range it is past every type's: an infinity says so
    let value = if scanned.beyond_f64 {
        f64::INFINITY.copysign(value)
    } else {
        value
    };
    let rest = bytes
        .get(scanned.used..)
        .unwrap_or_default()
        .iter()
        .any(|b| !matches!(b, b' ' | b'\t' | b'\n'));
    Ok(ItemNumber {
        value,
        double: scanned.double.is_some(),
        rest,
    })
}

/// A number in Microsoft Binary Format, as `RANDOMIZE` reads it.
/// The number whose Microsoft Binary Format bytes begin `bytes` (`CVI`, `CVS`,
/// `CVD`); `None` when there are fewer bytes than the type has.
pub(crate) fn from_mbf_bytes(bytes: &[u8], ty: NumTy) -> Option<f64> {
    match ty {
        NumTy::Int => {
            let pair = bytes.get(..2)?;
            Some(f64::from(i16::from_le_bytes([pair[0], pair[1]])))
        }
        NumTy::Sng | NumTy::Dbl => {
            let size = if ty == NumTy::Sng { 4 } else { 8 };
            let bytes = bytes.get(..size)?;
            let (&exponent, mantissa) = bytes.split_last()?;
            if exponent == 0 {
                return Some(0.0);
            }
            let (&top, low) = mantissa.split_last()?;
            let negative = top & 0x80 != 0;
            // 0.1mmm… x 2^(exponent - 128): the leading 1 is implied by the sign bit's place
            let mut fraction = f64::from(top | 0x80);
            for &byte in low.iter().rev() {
                fraction = fraction * 256.0 + f64::from(byte);
            }
            let bits = 8 * i32::try_from(mantissa.len()).unwrap_or(7);
            let value = fraction * 2f64.powi(i32::from(exponent) - 128 - bits);
            Some(if negative { -value } else { value })
        }
    }
}

pub(crate) fn mbf_bytes(value: f64, ty: NumTy) -> Vec<u8> {
    match ty {
        NumTy::Int => {
            let int = value.clamp(-32768.0, 32767.0) as i16;
            int.to_le_bytes().to_vec()
        }
        NumTy::Sng => {
            // from the f64's bits, so that singles below f32's normal range
            // (MBF reaches 2^-129) keep their mantissa
            if value == 0.0 || !value.is_finite() {
                return vec![0; 4];
            }
            let bits = value.to_bits();
            let sign = ((bits >> 63) & 1) as u8;
            let mut exponent = ((bits >> 52) & 0x7FF) as i64 - 1022 + 128;
            // 24 significant bits, rounded half up as the value is already a single
            let mut mantissa = ((bits & 0xF_FFFF_FFFF_FFFF) | (1 << 52)) + (1 << 28);
            mantissa >>= 29;
            if mantissa >> 24 != 0 {
                mantissa >>= 1;
                exponent += 1;
            }
            if exponent <= 0 {
                return vec![0; 4];
            }
            vec![
                (mantissa & 0xFF) as u8,
                ((mantissa >> 8) & 0xFF) as u8,
                (((mantissa >> 16) & 0x7F) as u8) | (sign << 7),
                exponent.min(255) as u8,
            ]
        }
        NumTy::Dbl => {
            if value == 0.0 {
                return vec![0; 8];
            }
            let bits = value.to_bits();
            let sign = ((bits >> 63) & 1) as u8;
            let exponent = ((bits >> 52) & 0x7FF) as i64 - 1022 + 128;
            if exponent > 255 {
                // `DBL_MAX` (2^127, an overflow's result) stands for MBF's
                // largest double, every mantissa bit set: `RANDOMIZE` mixes
                // those bytes
                let mut bytes = vec![0xFF; 8];
                if let Some(top) = bytes.get_mut(6) {
                    *top = 0x7F | (sign << 7);
                }
                return bytes;
            }
            let fraction = (bits & 0xF_FFFF_FFFF_FFFF) << 3;
            let mut bytes: Vec<u8> = (0..7)
                .map(|i| ((fraction >> (8 * i)) & 0xFF) as u8)
                .collect();
            if let Some(top) = bytes.get_mut(6) {
                *top = (*top & 0x7F) | (sign << 7);
            }
            bytes.push(exponent.clamp(0, 255) as u8);
            bytes
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sng(value: f64) -> String {
        format_print(f64::from(value as f32), NumTy::Sng)
    }

    #[test]
    fn singles_print_like_gw_basic() {
        let cases: &[(f64, &str)] = &[
            (0.0, " 0 "),
            (1.0, " 1 "),
            (-1.0, "-1 "),
            (0.7, " .7 "),
            (-0.7, "-.7 "),
            (1.0 / 3.0, " .3333334 "),
            (2.0 / 3.0, " .6666667 "),
            (1e7, " 1E+07 "),
            (9999999.0, " 9999999 "),
            (12345678.0, " 1.234568E+07 "),
            (123.456, " 123.456 "),
            (0.001, " .001 "),
            (1e-7, " .0000001 "),
            (1e-8, " 1E-08 "),
            (1.0 / 300.0, " 3.333334E-03 "),
            (0.1234567, " .1234567 "),
            (0.01234567, " 1.234567E-02 "),
            (1.5e-10, " 1.5E-10 "),
            (-2.5e20, "-2.5E+20 "),
            (SNG_MAX, " 1.701412E+38 "),
            (100.0, " 100 "),
            (std::f64::consts::PI, " 3.141593 "),
        ];
        for &(value, expected) in cases {
            assert_eq!(sng(value), expected, "{value}");
        }
    }

    #[test]
    fn doubles_and_integers_print_like_gw_basic() {
        assert_eq!(format_print(1.0 / 3.0, NumTy::Dbl), " .3333333333333333 ");
        assert_eq!(
            format_print(f64::from(0.1f32), NumTy::Dbl),
            " .1000000014901161 "
        );
        assert_eq!(format_print(1e20, NumTy::Dbl), " 1D+20 ");
        assert_eq!(format_print(1234567890.0, NumTy::Dbl), " 1234567890 ");
        assert_eq!(format_print(-32768.0, NumTy::Int), "-32768 ");
        assert_eq!(format_str(5.0, NumTy::Int), " 5");
        assert_eq!(format_plain(DBL_MAX, NumTy::Dbl), "1.701411834604692D+38");
    }

    #[test]
    fn literals_take_gw_basic_types() {
        assert_eq!(parse_literal("10"), (10.0, NumTy::Int));
        assert_eq!(parse_literal("32768"), (32768.0, NumTy::Sng));
        assert_eq!(parse_literal("1.5"), (1.5, NumTy::Sng));
        assert_eq!(parse_literal("1234567890").1, NumTy::Dbl);
        assert_eq!(parse_literal("1D3"), (1000.0, NumTy::Dbl));
        assert_eq!(parse_literal("2#"), (2.0, NumTy::Dbl));
        assert_eq!(parse_literal("&HFF"), (255.0, NumTy::Int));
        assert_eq!(parse_literal("&HFFFF"), (-1.0, NumTy::Int));
        assert_eq!(parse_literal("&O17"), (15.0, NumTy::Int));
        assert_eq!(parse_literal(".1"), (f64::from(0.1f32), NumTy::Sng));
        assert_eq!(parse_literal("1E3"), (1000.0, NumTy::Sng));
    }

    #[test]
    fn val_and_input_read_numbers() {
        assert_eq!(parse_val_typed(b"12abc").0, 12.0);
        assert_eq!(parse_val_typed(b"  -3.5").0, -3.5);
        assert_eq!(parse_val_typed(b"1 2 3").0, 123.0);
        assert_eq!(parse_val_typed(b"abc").0, 0.0);
        assert_eq!(parse_val_typed(b"&H10").0, 16.0);
        // `VAL`'s `&` reader is `READ`'s (`OCTCNS`): the fifth hex digit
        // overflows whatever its value, an `8` among octal digits is an error
        for (text, fault) in [
            (&b"&HFFFF"[..], None),
            (b"&H0FFFF", Some(RadixFault::Overflow)),
            (b"&O177777", None),
            (b"&O200000", Some(RadixFault::Overflow)),
            (b"&O78", Some(RadixFault::Digit)),
            (b"&8", Some(RadixFault::Digit)),
            (b"&H1G", None),
            (b"12", None),
        ] {
            assert_eq!(val_radix_fault(text), fault, "{text:?}");
        }
        assert_eq!(parse_val_typed(b"1E2X").0, 100.0);
        assert_eq!(parse_strict(b"12abc"), None);
        assert_eq!(parse_strict(b""), Some(0.0));
        assert_eq!(parse_strict(b" 42 "), Some(42.0));
        assert_eq!(parse_strict(b"-1.5E+2"), Some(-150.0));
        assert_eq!(parse_strict(b"Y"), None);
        assert_eq!(parse_strict(b"+"), Some(0.0));
        assert_eq!(parse_strict(b"5#"), Some(5.0));
        // `FIN` takes `%` after the digits too (`FN400`), but no sign after
        // an exponent
        assert_eq!(parse_strict(b"5%"), Some(5.0));
        assert_eq!(parse_strict(b"1.5 %"), Some(1.5));
        assert_eq!(parse_strict(b"1E5#"), None);
        assert_eq!(parse_strict(b"5#1"), None);
    }

    #[test]
    fn read_items_store_before_the_syntax_error() {
        let item = |text: &[u8], double| read_item(text, double);
        let number = |value, double, rest| {
            Ok(ItemNumber {
                value,
                double,
                rest,
            })
        };
        assert_eq!(item(b"1.5.5", false), number(1.5, false, true));
        assert_eq!(item(b"X", false), number(0.0, false, true));
        assert_eq!(item(b"1#E5", false), number(1.0, true, true));
        assert_eq!(item(b"&H10#", false), number(16.0, false, true));
        assert_eq!(item(b"1.1%", true), number(1.1, true, false));
        assert_eq!(item(b"&H0FFFF", false), Err(RadixFault::Overflow));
        assert_eq!(item(b"&HFFFF", false), number(-1.0, false, false));
        assert_eq!(item(b"&O177777", false), number(-1.0, false, false));
        assert_eq!(item(b"&O200000", false), Err(RadixFault::Overflow));
        assert_eq!(item(b"&O78", false), Err(RadixFault::Digit));
        assert_eq!(item(b"&1 7", false), number(15.0, false, false));
        assert_eq!(item(b"&H1 7", false), number(1.0, false, true));
    }

    #[test]
    fn cint_rounds_halves_away_from_zero() {
        assert_eq!(to_int(2.5), Some(3));
        assert_eq!(to_int(-2.5), Some(-3));
        assert_eq!(to_int(32767.4), Some(32767));
        assert_eq!(to_int(32767.5), None);
    }

    #[test]
    fn mbf_encoding_matches_the_format() {
        assert_eq!(mbf_bytes(1.0, NumTy::Sng), vec![0, 0, 0, 0x81]);
        assert_eq!(mbf_bytes(10.0, NumTy::Sng), vec![0, 0, 0x20, 0x84]);
        assert_eq!(mbf_bytes(-1.0, NumTy::Sng), vec![0, 0, 0x80, 0x81]);
        assert_eq!(mbf_bytes(1.0, NumTy::Dbl), vec![0, 0, 0, 0, 0, 0, 0, 0x81]);
        assert_eq!(mbf_bytes(5.0, NumTy::Int), vec![5, 0]);
    }
}
