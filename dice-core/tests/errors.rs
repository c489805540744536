//! Invalid input is an error value with a kind, a byte span, a friendly
//! message and a caret line; limits are errors too.

use dice_core::{ErrorKind, Limits};

fn parse_error(input: &str) -> dice_core::Error {
    match dice_core::parse(input) {
        Ok(expr) => panic!("{input:?} should not parse, got {expr:?}"),
        Err(error) => error,
    }
}

fn roll_error(input: &str, limits: &Limits) -> dice_core::Error {
    let expr = crate::common::parse(input);
    match expr.roll(&mut crate::common::rng(1), limits) {
        Ok(roll) => panic!("{input:?} should not roll, got {}", roll.to_plain(200)),
        Err(error) => error,
    }
}

#[test]
fn syntax_errors_say_what_was_expected_and_where() {
    let cases: &[(&str, ErrorKind, std::ops::Range<usize>, &str)] = &[
        ("", ErrorKind::Syntax, 0..0, "expected a value"),
        ("1d20 +", ErrorKind::Syntax, 6..6, "expected a value"),
        ("1d20 + (3", ErrorKind::Syntax, 9..9, "expected `)`"),
        ("3 + * 4", ErrorKind::Syntax, 4..5, "unexpected `*`"),
        ("1d20 )", ErrorKind::Syntax, 5..6, "unexpected `)`"),
        ("2d", ErrorKind::Syntax, 2..2, "the sides of the dice"),
        ("max(1,)", ErrorKind::Syntax, 6..7, "expected a value"),
        ("4d6cs(", ErrorKind::Syntax, 6..6, "a filter"),
        ("4d6cs(>3", ErrorKind::Syntax, 8..8, "`)`"),
        ("{1,2", ErrorKind::Syntax, 4..4, "`}`"),
        // A series is never a dice count: `d` after it drops (`{1,2}d1`).
        ("{1,2}d{6}", ErrorKind::Syntax, 6..7, "unexpected `{`"),
        (
            "1.5d6",
            ErrorKind::Syntax,
            0..3,
            "numbers are whole here: `1.5`",
        ),
        ("2d6*0.5", ErrorKind::Syntax, 4..7, "numbers are whole here"),
        (
            "4dF.3",
            ErrorKind::Syntax,
            1..5,
            "`dF.1` has one -1, four 0 and one +1",
        ),
        (
            "sqr(4)",
            ErrorKind::Syntax,
            0..3,
            "unknown function `sqr`; did you mean `sqrt`?",
        ),
        (
            "1 + lg(4)",
            ErrorKind::Syntax,
            4..6,
            "unknown function `lg`; did you mean `log`?",
        ),
        ("4d6z", ErrorKind::Syntax, 3..4, "unknown modifier `z`"),
        ("4d6qq", ErrorKind::Syntax, 3..5, "unknown modifier `qq`"),
        ("4d6rz", ErrorKind::Syntax, 4..5, "unknown modifier `z`"),
        (
            "2d6fire",
            ErrorKind::Syntax,
            3..7,
            "unknown modifier `fire` (a label needs a space before it: `2d6 fire`)",
        ),
        (
            "1d20adv",
            ErrorKind::Syntax,
            4..7,
            "roll with advantage as `2d20kh1`",
        ),
        ("3d6 x6", ErrorKind::Syntax, 4..6, "`repeat:6`"),
        ("1d20+5 x2 to hit", ErrorKind::Syntax, 7..9, "`repeat:2`"),
        ("1d6rrl1", ErrorKind::Invalid, 3..7, "would reroll forever"),
        (
            "4d6!!h1",
            ErrorKind::Invalid,
            3..7,
            "a compounding explosion goes by value",
        ),
        ("1d20 * x", ErrorKind::Syntax, 7..8, "unexpected `x`"),
        (
            "1d20+5to hit",
            ErrorKind::Syntax,
            6..7,
            "a label needs a space",
        ),
        ("4d6 kh3", ErrorKind::Syntax, 4..7, "without a space"),
        ("2d6 d1 poison", ErrorKind::Syntax, 4..6, "without a space"),
        ("2d6[fire", ErrorKind::Syntax, 8..8, "`]`"),
        ("1d20 @STR", ErrorKind::Syntax, 5..6, "unexpected `@`"),
        (
            "99999999999999999999",
            ErrorKind::NumberTooLarge,
            0..20,
            "too large",
        ),
        (
            "abs(1, 2)",
            ErrorKind::Invalid,
            0..9,
            "exactly one argument",
        ),
        ("floor()", ErrorKind::Invalid, 0..7, "exactly one argument"),
        ("1d6!!!", ErrorKind::Invalid, 5..6, "only one way"),
        ("1d6rr1ro2", ErrorKind::Invalid, 6..9, "only one way"),
        ("1d6!ra1", ErrorKind::Invalid, 4..7, "only one way"),
        ("4d6ra", ErrorKind::Syntax, 3..5, "`ra` needs a condition"),
        ("4d6ra+1", ErrorKind::Syntax, 3..5, "`ra` needs a condition"),
        ("4d6k>", ErrorKind::Syntax, 3..5, "`k>` needs a number"),
        ("4d6k>= ", ErrorKind::Syntax, 3..6, "`k>=` needs a number"),
        ("(2d20p<)", ErrorKind::Syntax, 5..7, "`p<` needs a number"),
        ("{1,2}k<", ErrorKind::Syntax, 5..7, "`k<` needs a number"),
        ("4d6 k>3", ErrorKind::Syntax, 4..7, "without a space"),
        (
            "(1, 2)d6",
            ErrorKind::Invalid,
            0..6,
            "cannot be a number of dice",
        ),
        ("1d(1, 2)", ErrorKind::Invalid, 2..8, "cannot stand here"),
        (
            "4d6kh(1, 2)",
            ErrorKind::Invalid,
            5..11,
            "cannot stand here",
        ),
        ("(1,", ErrorKind::Syntax, 3..3, "expected a value"),
        ("(1, 2", ErrorKind::Syntax, 5..5, "`)`"),
    ];
    for (input, kind, span, needle) in cases {
        let error = parse_error(input);
        assert_eq!(error.kind(), *kind, "{input}: {error}");
        assert_eq!(error.span(), *span, "{input}: {error}");
        assert!(error.message().contains(needle), "{input}: {error}");
        assert_eq!(error.start(), span.start);
        assert_eq!(error.end(), span.end);
        assert_eq!(error.to_string(), error.message());
    }
}

#[test]
fn caret_lines_point_at_the_span() {
    let input = "1d20 + (3";
    assert_eq!(
        parse_error(input).caret(input),
        "1d20 + (3\n         ^ expected `)` or an operator at the end"
    );
    let input = "3 + * 4";
    let caret = parse_error(input).caret(input);
    assert_eq!(
        caret.lines().nth(1),
        Some("    ^ unexpected `*`; expected a value (a number, dice, `(`, `{` or a function)")
    );
    // Wide spans get one caret per character, multi-byte text counts as characters.
    let input = "{1} [ä] + 99999999999999999999";
    let caret = parse_error(input).caret(input);
    let expected = format!(
        "          {} the number 99999999999999999999 is too large",
        "^".repeat(20)
    );
    assert_eq!(caret.lines().nth(1), Some(expected.as_str()));
}

#[test]
fn evaluation_errors_have_spans() {
    let limits = Limits::default();
    let cases: &[(&str, ErrorKind, std::ops::Range<usize>)] = &[
        ("1/0", ErrorKind::DivisionByZero, 2..3),
        ("5 % (1-1)", ErrorKind::DivisionByZero, 4..9),
        ("floor(1/(2-2))", ErrorKind::DivisionByZero, 8..13),
        ("9223372036854775807+1", ErrorKind::Overflow, 20..21),
        ("-9223372036854775807-2", ErrorKind::Overflow, 21..22),
        ("9223372036854775807*2", ErrorKind::Overflow, 20..21),
        ("abs(-9223372036854775807-1)", ErrorKind::Overflow, 0..27),
        ("(-9223372036854775807-1)/-1", ErrorKind::Overflow, 25..27),
        ("d0", ErrorKind::BadFaces, 1..2),
        ("2d(1-2)", ErrorKind::BadFaces, 2..7),
        ("d{}", ErrorKind::BadFaces, 1..3),
        ("d{5..1}", ErrorKind::BadFaces, 1..7),
        ("d10000000", ErrorKind::BadFaces, 1..9),
        ("100000d6", ErrorKind::TooManyDice, 0..8),
        ("6000d6+6000d6", ErrorKind::TooManyDice, 7..13),
        ("{1..100000}", ErrorKind::TooManyElements, 0..11),
        ("$attack", ErrorKind::Unresolved, 0..7),
        ("1d20+@STR", ErrorKind::Unresolved, 5..9),
        ("(0-1)d6", ErrorKind::Invalid, 0..5),
        ("(1d2-3)d6", ErrorKind::Invalid, 0..7),
        ("0^-1", ErrorKind::DivisionByZero, 2..4),
        ("2^64", ErrorKind::Overflow, 2..4),
        ("sqrt(-4)", ErrorKind::Invalid, 0..8),
        ("log(0)", ErrorKind::Invalid, 0..6),
        ("exp(50)", ErrorKind::Overflow, 0..7),
        ("5 // 0", ErrorKind::DivisionByZero, 5..6),
    ];
    for (input, kind, span) in cases {
        let error = roll_error(input, &limits);
        assert_eq!(error.kind(), *kind, "{input}: {error}");
        assert_eq!(error.span(), *span, "{input}: {error}");
    }
}

#[test]
fn limits_bound_everything() {
    let tight = Limits {
        max_input_len: 20,
        max_depth: 3,
        max_dice: 10,
        max_faces: 8,
        max_series_len: 5,
        max_elements: 12,
        max_explosions_per_die: 2,
        max_rerolls_per_die: 2,
        ..Limits::default()
    };
    let too_long = dice_core::parse_with(&"1+".repeat(20), &tight).unwrap_err();
    assert_eq!(too_long.kind(), ErrorKind::TooLong);
    let too_deep = dice_core::parse_with("((((1))))", &tight).unwrap_err();
    assert_eq!(
        (too_deep.kind(), too_deep.span()),
        (ErrorKind::TooDeep, 3..4)
    );
    assert!(dice_core::parse_with("(((1)))", &tight).is_ok());
    let cases: &[(&str, ErrorKind)] = &[
        ("11d6", ErrorKind::TooManyDice),
        ("6d6+5d6", ErrorKind::TooManyDice),
        ("d9", ErrorKind::BadFaces),
        ("d{1..9}", ErrorKind::TooManyElements),
        ("{1..6}", ErrorKind::TooManyElements),
        ("{1..5}+{1..5}+{1..3}", ErrorKind::TooManyElements),
    ];
    for (input, kind) in cases {
        let expr = dice_core::parse_with(input, &tight).unwrap_or_else(|e| panic!("{input}: {e}"));
        let error = expr.roll(&mut crate::common::rng(1), &tight).unwrap_err();
        assert_eq!(error.kind(), *kind, "{input}: {error}");
    }
    // Explosions and rerolls stop and mark the die; rolls count toward max_dice.
    let roll = crate::common::parse("3d1!")
        .roll(&mut crate::common::rng(1), &tight)
        .unwrap();
    assert_eq!(roll.total(), 9);
    assert!(roll.dice().iter().filter(|d| d.capped).count() == 3);
    let error = crate::common::parse("4d1!")
        .roll(&mut crate::common::rng(1), &tight)
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::TooManyDice);
}

#[test]
fn ten_thousand_open_parentheses_are_an_error_not_a_crash() {
    let roomy = Limits {
        max_input_len: 1_000_000,
        ..Limits::default()
    };
    for opener in ["(", "{", "max(", "-(", "1d6cs(", "d(", "4d6k("] {
        let input = format!("{}1", opener.repeat(10_000));
        let error = dice_core::parse_with(&input, &roomy).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::TooDeep, "{opener}");
        // The depth is checked before the length.
        assert_eq!(parse_error(&input).kind(), ErrorKind::TooDeep, "{opener}");
    }
    // Labels may hold parentheses; a first word that looks like modifiers
    // is checked without recursing into them.
    let label = format!("1d20 e{}", "(".repeat(10_000));
    assert_eq!(
        dice_core::parse_with(&label, &roomy).map(|e| e.label().map(str::len)),
        Ok(Some(10_001))
    );
    let minus = format!("{}1", "-".repeat(900));
    assert_eq!(parse_error(&minus).kind(), ErrorKind::TooDeep);
    assert_eq!(crate::common::total(&format!("{}1", "-".repeat(30))), 1);
}

#[test]
fn errors_serialize_for_json_output() {
    let error = parse_error("1d20 +");
    let json = serde_json::to_value(&error).unwrap_or_default();
    assert_eq!(json["start"], 6);
    assert_eq!(json["end"], 6);
    assert_eq!(json["kind"], "syntax");
    assert!(
        json["message"]
            .as_str()
            .is_some_and(|m| m.contains("expected"))
    );
}

#[test]
fn nested_failures_fail_fast() {
    // Each `op (` could be a modifier's argument or an operand; before the
    // grammar refused to try a failed one again, these took exponential time.
    for opener in [
        "2d6>(",
        "1d6cs>(",
        "1d6!>(",
        "1d6r<(",
        "{1}>(",
        "2d6!=(",
        "3cs=(",
        "4d6k>(",
        "2d20p<(",
        "{1}k>=(",
        "{1}p=(",
        "5k<(",
        "1d6ra>(",
        "(1, 2)k>(",
    ] {
        let input = format!("{}1+", opener.repeat(30));
        let error = parse_error(&input);
        assert_eq!(error.kind(), ErrorKind::Syntax, "{opener}");
    }
    // The same shapes, closed, are valid.
    assert_eq!(crate::common::total("2d{3}>(2d{3}>(1))"), 2);
    assert_eq!(crate::common::total("3d{4}cs>=(1d1+2)"), 3);
    assert_eq!(crate::common::total("3d{4}!<(2)"), 12);
}
