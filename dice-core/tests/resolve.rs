//! `$macro` and `@FIELD` references.

use std::collections::HashMap;

use dice_core::{ErrorKind, Limits, Resolver};

use crate::common::{parse, rng};

/// Macros and fields by name, for the tests that resolve (here and in `reasons`).
#[derive(Default)]
pub(crate) struct Sheet {
    pub macros: HashMap<&'static str, String>,
    pub fields: HashMap<&'static str, i64>,
}

impl Resolver for Sheet {
    fn macro_source(&self, name: &str) -> Option<String> {
        self.macros.get(name).cloned()
    }

    fn field(&self, name: &str) -> Option<i64> {
        self.fields.get(name).copied()
    }

    fn field_names(&self) -> Vec<String> {
        self.fields.keys().map(|name| name.to_string()).collect()
    }
}

fn sheet() -> Sheet {
    let mut sheet = Sheet::default();
    sheet.macros.insert("attack", "1d1+@STR to hit".to_owned());
    sheet.macros.insert("damage", "2d1+$bonus".to_owned());
    sheet.macros.insert("bonus", "@STR*2".to_owned());
    sheet.macros.insert("loop_a", "1+$loop_b".to_owned());
    sheet.macros.insert("loop_b", "1+$loop_c".to_owned());
    sheet.macros.insert("loop_c", "$loop_a".to_owned());
    sheet.macros.insert("self", "$self".to_owned());
    sheet.macros.insert("broken", "1d20+".to_owned());
    sheet
        .macros
        .insert("wide", "$damage+$damage+$damage+$damage".to_owned());
    sheet
        .macros
        .insert("wider", "$wide+$wide+$wide+$wide".to_owned());
    sheet
        .macros
        .insert("widest", "$wider+$wider+$wider+$wider".to_owned());
    sheet.fields.insert("STR", 3);
    sheet.fields.insert("DEX", -1);
    sheet
}

fn resolved_total(input: &str) -> i64 {
    let limits = Limits::default();
    let expr = parse(input)
        .resolve(&sheet(), &limits)
        .unwrap_or_else(|e| panic!("{input}: {e}"));
    expr.roll(&mut rng(1), &limits)
        .map(|r| r.total())
        .unwrap_or_else(|e| panic!("{input}: {e}"))
}

#[test]
fn names_are_listed_in_order_without_repeats() {
    let expr = parse("$attack + @STR + $damage*$attack - @DEX_2 + @STR");
    assert_eq!(expr.macro_names(), vec!["attack", "damage"]);
    assert_eq!(expr.field_names(), vec!["STR", "DEX_2"]);
    assert!(parse("1d20").macro_names().is_empty());
}

#[test]
fn references_are_replaced_recursively() {
    let cases: &[(&str, i64)] = &[
        ("@STR", 3),
        ("@DEX", -1),
        ("1d1-@DEX", 2),
        ("$attack", 4),
        ("$damage", 8),
        ("$damage*2", 16),
        ("{$attack, @STR}kh", 4),
        ("(@STR)d1", 3),
        ("4d{6}cs>=(@STR)", 4),
    ];
    for (input, expected) in cases {
        assert_eq!(resolved_total(input), *expected, "{input}");
    }
}

#[test]
fn the_resolved_expression_shows_what_was_rolled() {
    let limits = Limits::default();
    let expr = parse("$damage + 1 fire")
        .resolve(&sheet(), &limits)
        .unwrap();
    assert_eq!(expr.source(), "(2d1+(3*2)) + 1 # fire");
    assert_eq!(expr.label(), Some("fire"));
    let roll = expr.roll(&mut rng(1), &limits).unwrap();
    assert_eq!(roll.to_plain(200), "fire: (2d1 (1, 1) + (3 * 2)) + 1 = 9");
    // A lone macro lends its label.
    let expr = parse("$attack").resolve(&sheet(), &limits).unwrap();
    assert_eq!(expr.label(), Some("to hit"));
    // Nothing to resolve: the same expression.
    let plain = parse("1d20");
    assert_eq!(plain.resolve(&sheet(), &limits).unwrap(), plain);
}

#[test]
fn cycles_unknown_names_and_bad_macros_are_errors_at_the_reference() {
    let limits = Limits::default();
    let cases: &[(&str, ErrorKind, std::ops::Range<usize>, &str)] = &[
        (
            "1+$loop_a",
            ErrorKind::MacroCycle,
            2..9,
            "$loop_a → $loop_b → $loop_c → $loop_a",
        ),
        ("$self", ErrorKind::MacroCycle, 0..5, "$self → $self"),
        (
            "1d20+$nope",
            ErrorKind::UnknownMacro,
            5..10,
            "unknown macro $nope",
        ),
        (
            "1d20+@CHA",
            ErrorKind::UnknownField,
            5..9,
            "there are: @DEX, @STR",
        ),
        (
            "$broken",
            ErrorKind::BadMacro,
            0..7,
            "macro $broken is invalid",
        ),
        (
            "$widest",
            ErrorKind::TooManyExpansions,
            0..7,
            "more than 64",
        ),
    ];
    for (input, kind, span, needle) in cases {
        let error = parse(input).resolve(&sheet(), &limits).unwrap_err();
        assert_eq!(error.kind(), *kind, "{input}: {error}");
        assert_eq!(error.span(), *span, "{input}: {error}");
        assert!(error.message().contains(needle), "{input}: {error}");
    }
}

#[test]
fn expansion_limits_are_configurable() {
    let tight = Limits {
        max_macro_expansions: 2,
        ..Limits::default()
    };
    let error = parse("$damage+$damage")
        .resolve(&sheet(), &tight)
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::TooManyExpansions);
    let short = Limits {
        max_resolved_len: 10,
        ..Limits::default()
    };
    let error = parse("$damage").resolve(&sheet(), &short).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::TooLong);
    let shallow = Limits {
        max_depth: 2,
        ..Limits::default()
    };
    let error = parse("(($damage))")
        .resolve(&sheet(), &shallow)
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::TooDeep);
}

#[test]
fn unresolved_references_cannot_be_rolled() {
    let error = parse("1d20+$attack")
        .roll(&mut rng(1), &Limits::default())
        .unwrap_err();
    assert_eq!((error.kind(), error.span()), (ErrorKind::Unresolved, 5..12));
}
