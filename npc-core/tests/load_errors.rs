//! Load errors: every error of a script, with its line (B1..B7, M4, M5, K3, G3, G4, ...).
//!
//! Each case is a script and the exact `tavern npc check` lines. Line numbers
//! follow the rulings: the line of the offending token; an unterminated string
//! at the line where it opens.

use npc_core::{LoadErrorKind, check, play};

/// `check` output as `line N: message` lines.
fn check_lines(source: &str) -> Vec<String> {
    check(source).iter().map(ToString::to_string).collect()
}

struct Case {
    name: &'static str,
    script: String,
    expected: Vec<String>,
}

fn case(name: &'static str, script: &str, expected: &[&str]) -> Case {
    Case {
        name,
        script: script.to_string(),
        expected: expected.iter().map(ToString::to_string).collect(),
    }
}

fn cases() -> Vec<Case> {
    vec![
        // B1: syntax, with what was expected and what was found.
        case(
            "b1 say without string",
            "RESP r { SAY }",
            &["line 1: expected a string after SAY, found `}`"],
        ),
        case(
            "b1 unterminated string names its opening line",
            "RESP r {\n  SAY \"oops\n}\n",
            &["line 2: unterminated string: expected a closing `\"` on the same line"],
        ),
        case(
            "b1 lower-case statement word with hint",
            "RESP r {\n  say \"hi\"\n}",
            &[
                "line 2: expected a response statement or `}`, found `say` (words are case-sensitive: write `SAY`)",
            ],
        ),
        case(
            "b1 lower-case conv with hint",
            "conv c { }",
            &[
                "line 1: expected CONV or RESP, found `conv` (words are case-sensitive: write `CONV`)",
            ],
        ),
        case(
            "b1 unclosed block at end of file",
            "RESP r {\n  SAY \"a\"\n",
            &["line 3: expected `}` to close the block opened on line 1, found end of file"],
        ),
        case(
            "b1 integer beyond 32 bits",
            "RESP r { SET_PARM 1 2147483648 CHANGE_PARM 1 -2147483648 }",
            &["line 1: integer 2147483648 does not fit 32 bits (-2147483648 to 2147483647)"],
        ),
        case(
            "b1 unknown escape",
            "RESP r { SAY \"a\\nb\" }",
            &["line 1: unknown escape `\\n`: only `\\\"` and `\\\\` are allowed"],
        ),
        case(
            "b1 unexpected character",
            "RESP r {\n  SAY \"a\" #\n}",
            &["line 2: unexpected character `#`"],
        ),
        case(
            "b1 unterminated comment",
            "RESP r { }\n/* never\nclosed",
            &["line 2: unterminated comment: expected `*/`, found end of file"],
        ),
        case(
            "b1 keyword of two words",
            "CONV c { NATIVE { \"two words\" r } }\nRESP r { }",
            &[
                "line 1: expected a keyword (one word of letters, digits or `_`), found \"two words\"",
            ],
        ),
        case(
            "b1 statement at top level",
            "\n\nSAY \"x\"",
            &["line 3: expected CONV or RESP, found `SAY`"],
        ),
        case(
            "b1 TAKE without GOLD",
            "RESP r { TAKE ITEM }",
            &["line 1: expected GOLD (or its parameter id -2) after TAKE, found `ITEM`"],
        ),
        case(
            "every error of one definition in one run",
            "RESP r {\n  SAY 5\n  GET_YES_NO { SAY \"y\" }\n  SAY \"fine\"\n  TAKE ITEM\n  SET_FLAG 999\n}\nRESP s { SAY }",
            &[
                "line 2: expected a string after SAY, found integer 5",
                "line 4: expected `{` after the first block of GET_YES_NO, found `SAY`",
                "line 5: expected GOLD (or its parameter id -2) after TAKE, found `ITEM`",
                "line 6: flag id 999 is out of range 0..255",
                "line 8: expected a string after SAY, found `}`",
            ],
        ),
        case(
            "b1 TAKE with another parameter id",
            "RESP r { TAKE -3 }",
            &["line 1: TAKE takes gold only: GOLD or its parameter id -2 (got -3)"],
        ),
        case(
            "b1 GET_YES_NO needs two blocks",
            "RESP r {\n  GET_YES_NO { SAY \"y\" }\n}",
            &["line 3: expected `{` after the first block of GET_YES_NO, found `}`"],
        ),
        case(
            "b1 CHECK_PARM needs an operator",
            "RESP r { CHECK_PARM 1 5 { } { } }",
            &[
                "line 1: expected a comparison operator (=, !=, <, <=, >, >=) in CHECK_PARM, found integer 5",
            ],
        ),
        case(
            "b1 parameter names are upper case",
            "RESP r { CHECK_PARM gold > 1 { } { } }",
            &[
                "line 1: expected a parameter (an integer, AMOUNT, GOLD, FOOD or ACTIVITY) after CHECK_PARM, found `gold` (words are case-sensitive: write `GOLD`)",
            ],
        ),
        case(
            "b1 one error per broken definition, all definitions checked",
            "RESP a { SAY }\nRESP b { JUMP }\nRESP c { SAY \"fine\" }\nCONV d { NATIVE { HI } }\nCONV e { NATIVE { HI a } }",
            &[
                "line 1: expected a string after SAY, found `}`",
                "line 2: expected a response statement or `}`, found `JUMP`",
                "line 4: expected a response tag after keyword `HI`, found `}`",
            ],
        ),
        case(
            "b1 a missing brace does not swallow the next definition",
            "RESP a { SAY \"x\"\nRESP b { SAY }",
            &[
                "line 2: expected a response statement or `}`, found `RESP`",
                "line 2: expected a string after SAY, found `}`",
            ],
        ),
        // B2 / L5: IMPORT cycles, self-import included.
        case(
            "b2 import cycles",
            "CONV a { IMPORT { b } }\nCONV b { IMPORT { c } }\nCONV c { IMPORT { a } }\nCONV d { IMPORT { d } }",
            &[
                "line 3: IMPORT cycle: a -> b -> c -> a",
                "line 4: IMPORT cycle: d -> d",
            ],
        ),
        // B3: unknown tags.
        case(
            "b3 unknown import, response and call",
            "CONV c { IMPORT { c_gone } NATIVE { JOB r_gone } }\nRESP r { $r_none }",
            &[
                "line 1: unknown conversation `c_gone` in IMPORT",
                "line 1: unknown response `r_gone` in NATIVE",
                "line 2: unknown response `$r_none` in call",
            ],
        ),
        // B4: flag ids.
        case(
            "b4 flag ids outside 0..255",
            "RESP r {\n  SET_FLAG 256\n  CHECK_FLAG -1 { } { }\n  CLEAR_FLAG 300\n  SET_FLAG 255 SET_FLAG 0\n}",
            &[
                "line 2: flag id 256 is out of range 0..255",
                "line 3: flag id -1 is out of range 0..255",
                "line 4: flag id 300 is out of range 0..255",
            ],
        ),
        // B5: menus that can never be left.
        case(
            "b5 break only in a nested menu does not leave the outer one",
            "RESP r {\n  MENU {\n    \"a\" { SAY \"x\" }\n    \"b\" { MENU { \"c\" { BREAK } } }\n  }\n}",
            &[
                "line 2: MENU can never be left: no choice reaches a BREAK, EXIT, TURN_AWAY or ATTACK",
            ],
        ),
        case(
            "b5 join alone does not leave a menu",
            "RESP r {\n  MENU { \"join\" { JOIN } }\n}",
            &[
                "line 2: MENU can never be left: no choice reaches a BREAK, EXIT, TURN_AWAY or ATTACK",
            ],
        ),
        case(
            "b5 endings reached through calls and branches count",
            "RESP r {\n  MENU { \"a\" { $r_end } }\n  MENU { \"b\" { CHECK_FLAG 1 { } { ATTACK } } }\n  MENU { \"c\" { MENU { \"d\" { TURN_AWAY } } } }\n}\nRESP r_end { $r_deeper }\nRESP r_deeper { GET_YES_NO { EXIT } { } }",
            &[],
        ),
        // B6: call cycles.
        case(
            "b6 call cycles",
            "RESP a { $b }\nRESP b { SAY \"x\" $a }\nRESP c { $c }",
            &[
                "line 2: call cycle: $a -> $b -> $a",
                "line 3: call cycle: $c -> $c",
            ],
        ),
        // B7: nesting.
        case_owned("b7 64 nested blocks are fine", nested(63), &[]),
        case_owned(
            "b7 65 nested blocks are refused at the 65th",
            nested(64),
            &["line 65: blocks nested deeper than 64 levels"],
        ),
        // M4: BREAK outside a MENU, lexically.
        case(
            "m4 break outside a menu, also through a call",
            "RESP r { MENU { \"a\" { $r_b } \"b\" { BREAK } } }\nRESP r_b { BREAK }\nRESP r_c { BREAK }",
            &[
                "line 2: BREAK outside a MENU",
                "line 3: BREAK outside a MENU",
            ],
        ),
        // M5: menu shapes.
        case(
            "m5 menu without choices",
            "RESP r {\n  MENU { }\n}",
            &["line 2: MENU has no choices"],
        ),
        case_owned(
            "m5 26 choices",
            menu_with(26),
            &["line 1: MENU has 26 choices; at most 25 are allowed"],
        ),
        case_owned("m5 25 choices", menu_with(25), &[]),
        case_owned(
            "m5 label of 101 characters",
            format!(
                "RESP r {{ MENU {{\n\"{}\" {{ BREAK }}\n\"{}\" {{ }} }} }}",
                "x".repeat(100),
                "y".repeat(101)
            ),
            &["line 3: MENU label is 101 characters long; at most 100 are allowed"],
        ),
        case(
            "m5 duplicate labels, case-insensitive, trimmed",
            "RESP r { MENU {\n  \"Heal\" { BREAK }\n  \"heal \" { BREAK }\n  \"\" { BREAK }\n} }",
            &[
                "line 3: MENU label \"heal \" appears twice",
                "line 4: MENU label is empty",
            ],
        ),
        // K3: keywords hidden by an earlier one with the same first four letters.
        case(
            "k3 unreachable keywords",
            "CONV c { NATIVE {\n  WEATHER r\n  WEAT r\n  JOB r\n  JOBS r\n  job r\n  HAIL r\n  HAILSTONE r\n} }\nCONV d { NATIVE { HAILS r HAIL r DEFAULT r DEFAULT r } }\nRESP r { }",
            &[
                "line 3: keyword `WEAT` can never be reached: `WEATHER` on line 2 has the same first four letters",
                "line 6: keyword `job` can never be reached: `JOB` on line 4 has the same first four letters",
                "line 8: keyword `HAILSTONE` can never be reached: `HAIL` on line 7 has the same first four letters",
                "line 10: keyword `DEFAULT` can never be reached: `DEFAULT` on line 10 has the same first four letters",
            ],
        ),
        // G3 / N4 / G1 values.
        case(
            "g3 parameters and values",
            "RESP r {\n  CHANGE_PARM ACTIVITY 1\n  SET_PARM -4 2\n  CHECK_PARM -5 = 0 { } { }\n  SET_PARM 1 -1\n  GIVE_ITEM t_x 0\n  TAKE_ITEM t_x -2\n  TAKE_GOLD -1\n  CHECK_PARM ACTIVITY = 1 { } { }\n}",
            &[
                "line 2: ACTIVITY is read-only: CHANGE_PARM cannot change it",
                "line 3: ACTIVITY is read-only: SET_PARM cannot change it",
                "line 4: parameter id -5 is reserved: ids below -4 do not exist",
                "line 5: SET_PARM needs a value of 0 or more",
                "line 6: GIVE_ITEM needs a count of 1 or more, found 0",
                "line 7: TAKE_ITEM needs a count of 1 or more, found -2",
                "line 8: TAKE_GOLD needs a count of 0 or more, found -1",
            ],
        ),
        case(
            "g1 trade prices and repeated items",
            "RESP r { TRADE {\n  t_a 5\n  t_b -1\n  t_a 7\n} }",
            &[
                "line 3: the price of `t_b` must be 0 or more",
                "line 4: item `t_a` is listed twice in this TRADE",
            ],
        ),
        case(
            "g1 menu cost must not be negative",
            "RESP r { MENU { \"a\" -5 { BREAK } } }",
            &["line 1: the cost of \"a\" must be 0 or more"],
        ),
        // G4: tags unique per kind; a CONV and a RESP may share one.
        case(
            "g4 duplicate tags",
            "CONV c { }\nRESP c { }\nRESP c { }\nCONV c { }",
            &[
                "line 3: RESP `c` is defined twice",
                "line 4: CONV `c` is defined twice",
            ],
        ),
        // Everything at once: every error is reported, sorted by line.
        case(
            "every error of a file",
            "CONV c { IMPORT { c } NATIVE { JOB r_missing } }\nRESP a { $a SET_FLAG 999 }\nRESP b { BREAK MENU { } }\nRESP d { SAY 5 }",
            &[
                "line 1: IMPORT cycle: c -> c",
                "line 1: unknown response `r_missing` in NATIVE",
                "line 2: call cycle: $a -> $a",
                "line 2: flag id 999 is out of range 0..255",
                "line 3: BREAK outside a MENU",
                "line 3: MENU has no choices",
                "line 4: expected a string after SAY, found integer 5",
            ],
        ),
        // Accepted: forward references, empty blocks, optional IMPORT/NATIVE.
        case(
            "accepted forms",
            "CONV c { NATIVE { HI r_later } IMPORT { c_later } }\nCONV c_later { }\nRESP r_later { GET_YES_NO { } { } TAKE GOLD TAKE GOLD 3 TAKE_GOLD 0 TAKE -2 TAKE -2 4 }",
            &[],
        ),
    ]
}

fn case_owned(name: &'static str, script: String, expected: &[&str]) -> Case {
    Case {
        name,
        script,
        expected: expected.iter().map(ToString::to_string).collect(),
    }
}

/// A RESP whose body holds `levels` nested CHECK_FLAG blocks, one per line;
/// the body counts as level 1.
fn nested(levels: usize) -> String {
    let mut script = String::from("RESP r {\n");
    for _ in 0..levels {
        script.push_str("CHECK_FLAG 1 {\n");
    }
    for _ in 0..levels {
        script.push_str("} { }\n");
    }
    script.push('}');
    script
}

fn menu_with(choices: usize) -> String {
    let labels: Vec<String> = (0..choices)
        .map(|i| format!("\"choice {i}\" {{ BREAK }}"))
        .collect();
    format!("RESP r {{ MENU {{ {} }} }}", labels.join(" "))
}

#[test]
fn every_load_error_case() {
    let mut failures = Vec::new();
    for case in cases() {
        let actual = check_lines(&case.script);
        if actual != case.expected {
            failures.push(format!(
                "{}:\n  expected {:#?}\n  actual   {:#?}",
                case.name, case.expected, actual
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn play_prints_only_load_errors() {
    let transcript = play(
        "RESP a { $b }\nRESP b { $a }\nCONV c { NATIVE { HI a } }",
        "@talk n c Nia\nhi\n@state\n",
    );
    assert_eq!(
        transcript,
        "[load error] line 2: call cycle: $a -> $b -> $a\n"
    );
}

#[test]
fn errors_carry_kind_line_and_column() {
    let errors = check("RESP r {\n  SET_FLAG 256 BREAK\n}");
    let found: Vec<(LoadErrorKind, u32, u32)> =
        errors.iter().map(|e| (e.kind, e.line, e.column)).collect();
    assert_eq!(
        found,
        vec![
            (LoadErrorKind::FlagRange, 2, 12),
            (LoadErrorKind::BreakOutsideMenu, 2, 16),
        ]
    );
}

#[test]
fn caret_points_at_the_column() {
    let source = "RESP r {\n  SAY 5\n}";
    let errors = check(source);
    let first = errors.first().map(|e| e.caret(source));
    assert_eq!(
        first.as_deref(),
        Some("  SAY 5\n      ^\nline 2: expected a string after SAY, found integer 5")
    );
}

#[test]
fn oversized_scripts_and_error_floods_are_bounded() {
    let limits = npc_core::Limits::default();
    let huge = "/".repeat(limits.max_source_bytes + 1);
    let errors = check(&huge);
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].kind, LoadErrorKind::TooLarge);

    let flood = "#\n".repeat(10_000);
    let errors = check(&flood);
    assert_eq!(errors.len(), limits.max_errors + 1);
    assert_eq!(
        errors.last().map(|e| e.kind),
        Some(LoadErrorKind::TooManyErrors)
    );
}

/// Which limits a structured-message case loads under.
#[derive(Clone, Copy)]
enum Under {
    Default,
    Small,
    /// Against an empty effect library (APPLY_EFFECT is checked).
    NoEffects,
    /// As an effect file, under small limits.
    EffectFile,
}

/// A source, how it is loaded, and the message id it says with its parameters.
type Said = (
    &'static str,
    Under,
    &'static str,
    Vec<(&'static str, npc_core::MessageArg)>,
);

/// Every message id, by a source that says it, with its parameters. The safety net
/// `not-loaded` (nothing reported, yet no script) has no source that reaches it.
#[test]
fn every_message_id_is_said_with_its_parameters() {
    use npc_core::MessageArg::{Integer as N, Text as T};
    let t = |text: &str| T(text.to_string());
    let cases: Vec<Said> = vec![
        ("/* open", Under::Default, "unterminated-comment", vec![]),
        (
            "RESP r { SET_FLAG 99999999999 }",
            Under::Default,
            "integer-too-large",
            vec![("integer", t("99999999999"))],
        ),
        ("RESP r { $ }", Under::Default, "call-without-tag", vec![]),
        (
            "RESP r { # }",
            Under::Default,
            "unexpected-character",
            vec![("character", t("#"))],
        ),
        (
            "RESP r { SAY \"x\n}",
            Under::Default,
            "unterminated-string",
            vec![],
        ),
        (
            "RESP r { SAY \"x\\\n}",
            Under::Default,
            "escape-at-end-of-line",
            vec![],
        ),
        (
            "RESP r { SAY \"\\n\" }",
            Under::Default,
            "unknown-escape",
            vec![("character", t("n"))],
        ),
        (
            "RESP r { CHECK_FLAG 1 { CHECK_FLAG 2 { } { } } { } }",
            Under::Small,
            "too-deep",
            vec![("max", N(2))],
        ),
        (
            "CONV c { } CONV c { }",
            Under::Default,
            "conv-twice",
            vec![("tag", t("c"))],
        ),
        (
            "RESP r { } RESP r { }",
            Under::Default,
            "resp-twice",
            vec![("tag", t("r"))],
        ),
        (
            "CONV c { NATIVE { \"two words\" r } } RESP r { }",
            Under::Default,
            "bad-keyword-string",
            vec![("text", t("two words"))],
        ),
        (
            "RESP r { BREAK }",
            Under::Default,
            "break-outside-menu",
            vec![],
        ),
        (
            "RESP r { TAKE -3 }",
            Under::Default,
            "take-gold-only",
            vec![("id", N(-3))],
        ),
        (
            "RESP r { SET_PARM 1 -1 }",
            Under::Default,
            "set-parm-negative",
            vec![],
        ),
        (
            "RESP r { TAKE_GOLD -1 }",
            Under::Default,
            "count-too-small",
            vec![
                ("statement", t("TAKE_GOLD")),
                ("minimum", N(0)),
                ("value", N(-1)),
            ],
        ),
        (
            "RESP r { SET_FLAG 256 }",
            Under::Default,
            "flag-range",
            vec![("flag", N(256))],
        ),
        (
            "RESP r { SET_PARM -5 1 }",
            Under::Default,
            "reserved-parameter",
            vec![("id", N(-5))],
        ),
        (
            "RESP r { SET_PARM ACTIVITY 1 }",
            Under::Default,
            "activity-read-only",
            vec![("statement", t("SET_PARM"))],
        ),
        (
            "RESP r { TRADE { t_a -1 } }",
            Under::Default,
            "negative-price",
            vec![("item", t("t_a"))],
        ),
        (
            "RESP r { TRADE { t_a 1 t_a 2 } }",
            Under::Default,
            "ware-twice",
            vec![("item", t("t_a"))],
        ),
        (
            "RESP r { MENU { \"A\" -1 { BREAK } } }",
            Under::Default,
            "negative-cost",
            vec![("label", t("A"))],
        ),
        ("RESP r { MENU { } }", Under::Default, "menu-empty", vec![]),
        (
            "RESP r { MENU { \"A\" { BREAK } \"B\" { BREAK } } }",
            Under::Small,
            "menu-too-many-choices",
            vec![("count", N(2)), ("max", N(1))],
        ),
        (
            "RESP r { MENU { \"\" { BREAK } } }",
            Under::Default,
            "menu-label-empty",
            vec![],
        ),
        (
            "RESP r { MENU { \"AB\" { BREAK } } }",
            Under::Small,
            "menu-label-too-long",
            vec![("length", N(2)), ("max", N(1))],
        ),
        (
            "RESP r { MENU { \"A\" { BREAK } \"a\" { BREAK } } }",
            Under::Default,
            "menu-label-twice",
            vec![("label", t("a"))],
        ),
        (
            "CONV a { IMPORT { b } } CONV b { IMPORT { a } }",
            Under::Default,
            "import-cycle",
            vec![("path", t("a -> b -> a"))],
        ),
        (
            "RESP a { $b } RESP b { $a }",
            Under::Default,
            "call-cycle",
            vec![("path", t("$a -> $b -> $a"))],
        ),
        (
            "CONV a { IMPORT { z } }",
            Under::Default,
            "unknown-conversation",
            vec![("tag", t("z"))],
        ),
        (
            "CONV c { NATIVE { HAIL r } }",
            Under::Default,
            "unknown-native-response",
            vec![("tag", t("r"))],
        ),
        (
            "RESP a { $z }",
            Under::Default,
            "unknown-called-response",
            vec![("tag", t("z"))],
        ),
        (
            "CONV c { NATIVE { JOBS r JOBSEEKER r } } RESP r { }",
            Under::Default,
            "unreachable-keyword",
            vec![
                ("keyword", t("JOBSEEKER")),
                ("earlier", t("JOBS")),
                ("line", N(1)),
            ],
        ),
        (
            "RESP r { MENU { \"A\" { SAY \"x\" } } }",
            Under::Default,
            "endless-menu",
            vec![],
        ),
        (
            "RESP r { APPLY_EFFECT Smite }",
            Under::NoEffects,
            "unknown-effect",
            vec![("effect", t("Smite"))],
        ),
        (
            "RESP r { }",
            Under::Small,
            "script-too-large",
            vec![("bytes", N(10)), ("max", N(8))],
        ),
        (
            "ELEMENTS { FIRE }",
            Under::EffectFile,
            "effect-file-too-large",
            vec![("bytes", N(17)), ("max", N(8))],
        ),
        (
            "RESP r { SET_FLAG 256 SET_FLAG 257 }",
            Under::Small,
            "too-many-errors",
            vec![("max", N(1))],
        ),
    ];
    let mut said = std::collections::BTreeSet::new();
    for (source, under, id, args) in cases {
        // One limit lowered, the one the case is about.
        let default = npc_core::Limits::default();
        let small = match id {
            "too-deep" => npc_core::Limits {
                max_depth: 2,
                ..default
            },
            "menu-too-many-choices" => npc_core::Limits {
                max_menu_choices: 1,
                ..default
            },
            "menu-label-too-long" => npc_core::Limits {
                max_label_chars: 1,
                ..default
            },
            "script-too-large" => npc_core::Limits {
                max_source_bytes: 8,
                ..default
            },
            _ => npc_core::Limits {
                max_errors: 1,
                ..default
            },
        };
        let errors = match under {
            Under::Default => check(source),
            Under::Small => npc_core::load_with(source, &small)
                .err()
                .unwrap_or_default(),
            Under::NoEffects => npc_core::load_against(
                source,
                &npc_core::Limits::default(),
                &npc_core::effects::EffectLibrary::empty(),
            )
            .err()
            .unwrap_or_default(),
            Under::EffectFile => {
                let limits = npc_core::effects::EffectLimits {
                    max_source_bytes: 8,
                    ..npc_core::effects::EffectLimits::default()
                };
                npc_core::effects::load_effects_with(source, &limits)
                    .err()
                    .unwrap_or_default()
            }
        };
        let found = errors
            .iter()
            .map(|error| (error, &error.detail))
            .find(|(_, detail)| detail.id.name() == id);
        let Some((error, detail)) = found else {
            panic!("{source:?}: no {id} in {errors:#?}");
        };
        let expected: Vec<(String, npc_core::MessageArg)> = args
            .into_iter()
            .map(|(name, value)| (name.to_string(), value))
            .collect();
        assert_eq!(detail.args, expected, "{source:?}");
        assert_eq!(error.message, detail.english(), "{source:?}");
        said.insert(id);
    }
    let unsaid: Vec<&str> = npc_core::MessageId::ALL
        .iter()
        .map(|id| id.name())
        .filter(|name| {
            !said.contains(name)
                && *name != "not-loaded"
                && *name != "load-cancelled"
                && !is_syntax_phrase(name)
                && !EFFECT_FILE_IDS.contains(name)
        })
        .collect();
    assert!(unsaid.is_empty(), "ids no case says: {unsaid:?}");
}

/// Every error's English is its message id's, in every case above too.
#[test]
fn structured_messages_render_the_english_of_the_message() {
    for case in cases() {
        for error in check(&case.script) {
            assert_eq!(error.message, error.detail.english(), "{}", case.name);
        }
    }
    let names: std::collections::BTreeSet<&str> = npc_core::MessageId::ALL
        .iter()
        .map(|id| id.name())
        .collect();
    assert_eq!(
        names.len(),
        npc_core::MessageId::ALL.len(),
        "ids are unique"
    );
}

/// What a syntax error expected and found, as phrases: a source per phrase, with
/// the exact `tavern npc check` lines.
#[test]
fn every_syntax_phrase_is_said() {
    let cases: &[(&str, &[&str])] = &[
        (
            "conv c { }",
            &[
                "line 1: expected CONV or RESP, found `conv` (words are case-sensitive: write `CONV`)",
            ],
        ),
        (
            "CONV { }",
            &["line 1: expected a conversation tag after CONV, found `{`"],
        ),
        (
            "RESP { }",
            &["line 1: expected a response tag after RESP, found `{`"],
        ),
        (
            "CONV c { NATIVE { HAIL 5 } }",
            &["line 1: expected a response tag after keyword `HAIL`, found integer 5"],
        ),
        (
            "RESP r { TAKE_ITEM 5 }",
            &["line 1: expected an item tag after TAKE_ITEM, found integer 5"],
        ),
        (
            "RESP r { APPLY_EFFECT 5 }",
            &["line 1: expected an effect tag after APPLY_EFFECT, found integer 5"],
        ),
        (
            "RESP r { CHECK_MEMBER 5 { } { } }",
            &["line 1: expected an NPC tag after CHECK_MEMBER, found integer 5"],
        ),
        (
            "CONV c NATIVE",
            &["line 1: expected `{` after the conversation tag, found `NATIVE`"],
        ),
        (
            "RESP r SAY",
            &["line 1: expected `{` after the response tag, found `SAY`"],
        ),
        (
            "RESP r {\n SAY \"a\"\n",
            &["line 3: expected `}` to close the block opened on line 1, found end of file"],
        ),
        (
            "CONV c { 5 }",
            &["line 1: expected IMPORT, NATIVE or `}`, found integer 5"],
        ),
        (
            "CONV c { IMPORT { 5 } }",
            &["line 1: expected a conversation tag or `}` in IMPORT, found integer 5"],
        ),
        (
            "CONV c { NATIVE { $x } }",
            &["line 1: expected a keyword or `}` in NATIVE, found `$x`"],
        ),
        (
            "RESP r { \"x\" }",
            &["line 1: expected a response statement or `}`, found a string"],
        ),
        (
            "RESP r { SAY 5 }",
            &["line 1: expected a string after SAY, found integer 5"],
        ),
        (
            "RESP r { TAKE x }",
            &["line 1: expected GOLD (or its parameter id -2) after TAKE, found `x`"],
        ),
        (
            "RESP r { CHANGE_PARM 1 x }",
            &["line 1: expected a delta after the parameter of CHANGE_PARM, found `x`"],
        ),
        (
            "RESP r { SET_PARM 1 x }",
            &["line 1: expected a value after the parameter of SET_PARM, found `x`"],
        ),
        (
            "RESP r { CHECK_PARM 1 = x { } { } }",
            &["line 1: expected an integer after the operator of CHECK_PARM, found `x`"],
        ),
        (
            "RESP r { SET_FLAG x }",
            &["line 1: expected a flag id after SET_FLAG, found `x`"],
        ),
        (
            "RESP r { CHECK_PARM 1 5 }",
            &[
                "line 1: expected a comparison operator (=, !=, <, <=, >, >=) in CHECK_PARM, found integer 5",
            ],
        ),
        (
            "RESP r { SET_PARM x 1 }",
            &[
                "line 1: expected a parameter (an integer, AMOUNT, GOLD, FOOD or ACTIVITY) after SET_PARM, found `x`",
            ],
        ),
        (
            "RESP r { TRADE { 5 } }",
            &[
                "line 1: expected an item tag or `}` in TRADE, found integer 5",
                "line 1: expected CONV or RESP, found `}`",
            ],
        ),
        (
            "RESP r { TRADE { t_a x } }",
            &[
                "line 1: expected a price after item `t_a`, found `x`",
                "line 1: expected CONV or RESP, found `}`",
            ],
        ),
        (
            "RESP r { MENU { 5 } }",
            &[
                "line 1: expected a choice label (a string) or `}` in MENU, found integer 5",
                "line 1: expected CONV or RESP, found `}`",
            ],
        ),
        (
            "RESP r { CHECK_FLAG 1 { } x }",
            &["line 1: expected `{` after the first block of CHECK_FLAG, found `x`"],
        ),
        (
            "RESP r { MENU { \"A\" x } }",
            &[
                "line 1: expected `{` after choice \"A\", found `x`",
                "line 1: expected CONV or RESP, found `}`",
            ],
        ),
        (
            "RESP r { SAY 99999999999 }",
            &[
                "line 1: integer 99999999999 does not fit 32 bits (-2147483648 to 2147483647)",
                "line 1: expected a string after SAY, found an integer",
            ],
        ),
        (
            "RESP r { SAY = }",
            &["line 1: expected a string after SAY, found `=`"],
        ),
        (
            "RESP r { SAY }",
            &["line 1: expected a string after SAY, found `}`"],
        ),
    ];
    fn ids_of(
        message: &npc_core::LoadMessage,
        into: &mut std::collections::BTreeSet<&'static str>,
    ) {
        into.insert(message.id.name());
        for (_, arg) in &message.args {
            if let npc_core::MessageArg::Phrase(phrase) = arg {
                ids_of(phrase, into);
            }
        }
    }
    let mut said = std::collections::BTreeSet::new();
    for (source, expected) in cases {
        assert_eq!(check_lines(source), *expected, "{source:?}");
        for error in check(source) {
            let detail = &error.detail;
            assert_eq!(error.message, detail.english(), "{source:?}");
            ids_of(detail, &mut said);
        }
    }
    let unsaid: Vec<&str> = npc_core::MessageId::ALL
        .iter()
        .map(|id| id.name())
        .filter(|name| is_syntax_phrase(name) && !said.contains(name))
        .collect();
    assert!(unsaid.is_empty(), "phrases no case says: {unsaid:?}");
}

/// The ids only effect files say (`effects_load_errors` says each).
const EFFECT_FILE_IDS: &[&str] = &[
    "effect-expected-declaration",
    "effect-expected-declaration-upper-case",
    "elements-twice",
    "too-many-effects",
    "effect-twice",
    "effect-is-element",
    "elements-without-brace",
    "elements-unclosed",
    "elements-bad-entry",
    "element-name-too-long",
    "element-twice",
    "too-many-elements",
    "effect-without-tag",
    "effect-tag-too-long",
    "effect-without-brace",
    "effect-bad-entry",
    "effect-unclosed-before",
    "effect-unclosed",
    "unknown-field",
    "field-twice",
    "field-without-value",
    "missing-field",
    "map-target-type",
    "unknown-target-type",
    "unknown-subject",
    "effect-target-subject",
    "yes-or-no",
    "bad-probability",
    "unknown-hook",
    "unknown-target-method",
    "bad-source",
    "existence-while-active",
    "bad-mode",
    "bad-save",
    "protections-without-method",
    "value-misfit",
    "forms-integer",
    "forms-set",
    "forms-bool",
    "forms-tag",
    "forms-existence",
    "division-by-zero",
    "existence-of-effect",
    "number-with-field",
    "dice-labelled",
    "dice-refused",
    "set-unexpected",
    "set-too-deep",
    "set-unclosed",
    "unknown-element",
    "set-bad-start",
    "set-ends-early",
    "duration",
];

/// The ids of "expected X, found Y" and its phrases.
fn is_syntax_phrase(name: &str) -> bool {
    name.starts_with("expected")
        || name.starts_with("want-")
        || name.starts_with("after-")
        || name.starts_with("token-")
}
