//! Numbers as each language writes them: `1.5` and `12,500` in English, `1,5` and
//! `12.500` in German. fluent-bundle itself prints every number the Rust way, so each
//! bundle gets one of these as its formatter.
//!
//! Grouping starts at five digits (`9999`, `10,000`), as German typesetting does and
//! English texts read well with; `NUMBER($n, useGrouping: "false")` turns it off,
//! `minimumFractionDigits` and `maximumFractionDigits` are honoured.

use fluent_bundle::FluentValue;
use fluent_bundle::types::FluentNumber;

pub(super) fn english<M>(value: &FluentValue<'_>, _memoizer: &M) -> Option<String> {
    number(
        value,
        Separators {
            decimal: '.',
            group: ',',
        },
    )
}

pub(super) fn german<M>(value: &FluentValue<'_>, _memoizer: &M) -> Option<String> {
    number(
        value,
        Separators {
            decimal: ',',
            group: '.',
        },
    )
}

#[derive(Clone, Copy)]
struct Separators {
    decimal: char,
    group: char,
}

/// `None` for text (formatted as is) and for numbers that are not finite.
fn number(value: &FluentValue<'_>, separators: Separators) -> Option<String> {
    let FluentValue::Number(number) = value else {
        return None;
    };
    if !number.value.is_finite() {
        return None;
    }
    Some(write_number(number, separators))
}

fn write_number(number: &FluentNumber, separators: Separators) -> String {
    let options = &number.options;
    // Digits after the point: rounded to the maximum if one is set, else Rust's
    // shortest exact form; then padded to the minimum.
    let plain = match options.maximum_fraction_digits {
        Some(max) => {
            let rounded = format!("{:.*}", max.min(20), number.value);
            match rounded.split_once('.') {
                Some((int, fraction)) => {
                    let keep = options.minimum_fraction_digits.unwrap_or(0);
                    let trimmed = fraction.trim_end_matches('0');
                    let fraction = if trimmed.len() >= keep {
                        trimmed
                    } else {
                        &fraction[..keep.min(fraction.len())]
                    };
                    join(int, fraction)
                }
                None => rounded,
            }
        }
        None => number.value.to_string(),
    };
    let (int, fraction) = plain.split_once('.').unwrap_or((plain.as_str(), ""));
    let mut fraction = fraction.to_owned();
    let min = options.minimum_fraction_digits.unwrap_or(0).min(20);
    while fraction.len() < min {
        fraction.push('0');
    }
    let (sign, digits) = match int.strip_prefix('-') {
        Some(digits) => ("-", digits),
        None => ("", int),
    };
    let mut out = String::with_capacity(plain.len() + digits.len() / 3 + 2);
    out.push_str(sign);
    if options.use_grouping && digits.len() >= 5 {
        for (index, digit) in digits.chars().enumerate() {
            if index > 0 && (digits.len() - index) % 3 == 0 {
                out.push(separators.group);
            }
            out.push(digit);
        }
    } else {
        out.push_str(digits);
    }
    if !fraction.is_empty() {
        out.push(separators.decimal);
        out.push_str(&fraction);
    }
    out
}

fn join(int: &str, fraction: &str) -> String {
    if fraction.is_empty() {
        return int.to_owned();
    }
    format!("{int}.{fraction}")
}

#[cfg(test)]
mod tests {
    use fluent_bundle::types::FluentNumberOptions;

    use super::*;

    #[test]
    fn numbers_by_language() {
        let english = Separators {
            decimal: '.',
            group: ',',
        };
        let german = Separators {
            decimal: ',',
            group: '.',
        };
        let plain = FluentNumberOptions::default();
        let two = FluentNumberOptions {
            minimum_fraction_digits: Some(2),
            maximum_fraction_digits: Some(2),
            ..FluentNumberOptions::default()
        };
        let at_most_one = FluentNumberOptions {
            maximum_fraction_digits: Some(1),
            ..FluentNumberOptions::default()
        };
        let ungrouped = FluentNumberOptions {
            use_grouping: false,
            ..FluentNumberOptions::default()
        };
        let cases = [
            (12.0, &plain, "12", "12"),
            (-3.0, &plain, "-3", "-3"),
            (9999.0, &plain, "9999", "9999"),
            (12500.0, &plain, "12,500", "12.500"),
            (-1234567.0, &plain, "-1,234,567", "-1.234.567"),
            (1.5, &plain, "1.5", "1,5"),
            (1.5, &two, "1.50", "1,50"),
            (1.006, &two, "1.01", "1,01"),
            (2.0, &at_most_one, "2", "2"),
            (0.25, &at_most_one, "0.2", "0,2"),
            (12500.0, &ungrouped, "12500", "12500"),
        ];
        for (value, options, en, de) in cases {
            let number = FluentNumber::new(value, options.clone());
            assert_eq!(write_number(&number, english), en, "{value} {options:?}");
            assert_eq!(write_number(&number, german), de, "{value} {options:?}");
        }
    }
}
