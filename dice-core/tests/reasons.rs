//! Structured reasons: every error carries an id and named arguments, its
//! English message is rendered from them, and every id an input can reach is
//! reached by the table here (the bot's German table follows the same inputs).

use std::collections::BTreeSet;

use dice_core::{Choice, Limits, Phrase, Reason, ReasonArg, ReasonId};

use crate::common::rng;
use crate::resolve::Sheet;

/// Reasons the grammar makes unreachable from text: the parser and the
/// evaluators keep them for tree shapes pest never builds.
const UNREACHABLE: &[ReasonId] = &[
    // only the host reaches it, by raising the cancel flag (tests/odds.rs)
    ReasonId::Cancelled,
    ReasonId::ExpectedExpression,
    ReasonId::ExpectedValue,
    ReasonId::ExpectedDiceCount,
    ReasonId::ExpectedNumber,
    ReasonId::ExpectedComparison,
    ReasonId::ExpectedTarget,
    ReasonId::ExpectedFilter,
    ReasonId::ExpectedFaces,
    ReasonId::MissingArgument,
    ReasonId::MinMaxNumber,
    ReasonId::UnknownModifierBare,
    ReasonId::LabelSpace,
];

/// Phrases no input of the table names: a budget check that a cheaper one
/// runs out before, and a list the value phrase covers whenever pest tries
/// a number or a group.
const PHRASES_NOT_REACHED: &[Phrase] = &[Phrase::CausePool, Phrase::ExpectedNumberOrParen];

fn sheet() -> Sheet {
    let mut sheet = Sheet::default();
    let macros = [
        ("a", "$b".to_owned()),
        ("b", "$a".to_owned()),
        ("bad", "1d20+".to_owned()),
        ("glued", "1d20hit".to_owned()),
        ("deep", format!("{}1{}", "(".repeat(30), ")".repeat(30))),
        ("big", "1+".repeat(999) + "1"),
        ("w1", "$w2+$w2+$w2+$w2".to_owned()),
        ("w2", "$w3+$w3+$w3+$w3".to_owned()),
        ("w3", "$w4+$w4+$w4+$w4".to_owned()),
        ("w4", "1".to_owned()),
    ];
    for (name, text) in macros {
        sheet.macros.insert(name, text);
    }
    sheet.fields.insert("STR", 3);
    sheet.fields.insert("LOWEST", i64::MIN);
    sheet
}

#[derive(Clone, Copy, Debug)]
enum How {
    Parse,
    Roll,
    /// Rolled with at most 5 elements in a series and 12 in a roll.
    TightRoll,
    /// Exact odds under the default limits.
    Odds,
    /// Exact odds under a small work and memory budget.
    SmallOdds,
    /// Resolved against [`sheet`].
    Resolve,
    /// Resolved against a sheet without fields.
    ResolveBare,
}

fn error_of(how: How, input: &str) -> dice_core::Error {
    let limits = Limits::default();
    let parsed = dice_core::parse_with(input, &limits);
    let outcome = match how {
        How::Parse => parsed.map(drop),
        How::Roll => parsed
            .map(|expr| expr.roll(&mut rng(1), &limits).map(drop))
            .unwrap_or_else(|error| panic!("{input}: {error}")),
        How::TightRoll => {
            let tight = Limits {
                max_series_len: 5,
                max_elements: 12,
                ..Limits::default()
            };
            parsed
                .map(|expr| expr.roll(&mut rng(1), &tight).map(drop))
                .unwrap_or_else(|error| panic!("{input}: {error}"))
        }
        How::Odds | How::SmallOdds => {
            let budget = match how {
                How::SmallOdds => Limits {
                    max_odds_work: 2000,
                    max_odds_memory: 1 << 16,
                    ..Limits::default()
                },
                _ => Limits::default(),
            };
            parsed
                .map(|expr| expr.odds(&budget).map(drop))
                .unwrap_or_else(|error| panic!("{input}: {error}"))
        }
        How::Resolve | How::ResolveBare => {
            let sheet = match how {
                How::Resolve => sheet(),
                _ => Sheet::default(),
            };
            parsed
                .map(|expr| expr.resolve(&sheet, &limits).map(drop))
                .unwrap_or_else(|error| panic!("{input}: {error}"))
        }
    };
    match outcome {
        Ok(()) => panic!("{how:?} {input:?} should fail"),
        Err(error) => error,
    }
}

/// (how, input, the reason's id, its English message byte for byte)
const CASES: &[(How, &str, &str, &str)] = &[
    (
        How::Parse,
        "1d20 )",
        "unexpected",
        "unexpected `)`; expected an operator or the end of the expression",
    ),
    (
        How::Parse,
        "1d20+",
        "expected-at-end",
        "expected a value (a number, dice, `(`, `{` or a function) at the end",
    ),
    (
        How::Parse,
        "1d",
        "expected-at-end",
        "expected the sides of the dice (a number, `%`, `F`, `(` or `{`) at the end",
    ),
    (
        How::Parse,
        "{1,2",
        "expected-at-end",
        "expected `}`, `,` or an operator at the end",
    ),
    (
        How::Parse,
        "4d6cs(>3",
        "expected-at-end",
        "expected `)`, `&` or `|` at the end",
    ),
    (
        How::Parse,
        "1d6[a",
        "expected-at-end",
        "expected `]` at the end",
    ),
    (
        How::Parse,
        "4d6 !",
        "expected-at-end",
        "expected something else at the end",
    ),
    (
        How::Parse,
        "1d6t",
        "expected-at-end",
        "expected a value (a number, dice, `(`, `{` or a function) or a filter (`h`, `l`, `o`, `e`, a number, or a comparison like `>=5`) at the end",
    ),
    (
        How::Parse,
        "flor(2)",
        "unknown-function-near",
        "unknown function `flor`; did you mean `floor`?",
    ),
    (
        How::Parse,
        "xyzzyq(2)",
        "unknown-function",
        "unknown function `xyzzyq`; the functions are abs, floor, ceil, round, min, max, sqrt, exp, log, pow, sign",
    ),
    (
        How::Parse,
        "cos(4d6/3)",
        "trigonometry",
        "there is no `cos`: results are whole numbers, so there is no trigonometry; the functions are abs, floor, ceil, round, min, max, sqrt, exp, log, pow, sign",
    ),
    (
        How::Parse,
        "2 + TANH(1)",
        "trigonometry",
        "there is no `TANH`: results are whole numbers, so there is no trigonometry; the functions are abs, floor, ceil, round, min, max, sqrt, exp, log, pow, sign",
    ),
    (
        How::Parse,
        "1.5",
        "decimal-point",
        "numbers are whole here: `1.5` has a decimal point (`/` divides and truncates; `round(7/2)` rounds, `floor` and `ceil` too)",
    ),
    (
        How::Parse,
        "dF.3",
        "fate-fraction",
        "`dF.3` is not a Fate die here: `dF` (also `dF.2`) has faces -1, 0, +1, two of each; `dF.1` has one -1, four 0 and one +1",
    ),
    (
        How::Parse,
        "99999999999999999999",
        "number-too-large",
        "the number 99999999999999999999 is too large",
    ),
    (
        How::Parse,
        "1d20adv",
        "unknown-modifier-advantage",
        "unknown modifier `adv`: roll with advantage as `2d20kh1`, or write `adv` after a space at the end of `/roll 1d20 adv`",
    ),
    (
        How::Parse,
        "{1d20,1d20}dis",
        "unknown-modifier-disadvantage",
        "unknown modifier `dis`: roll with disadvantage as `2d20kl1`, or write `dis` after a space at the end of `/roll 1d20 dis`",
    ),
    (
        How::Parse,
        "4d6z",
        "unknown-modifier-near",
        "unknown modifier `z`; the nearest known is `k`",
    ),
    (
        How::Parse,
        "2d6fire",
        "unknown-modifier-label",
        "unknown modifier `fire` (a label needs a space before it: `2d6 fire`)",
    ),
    (
        How::Parse,
        "1+2hit",
        "label-space-after",
        "unexpected `h`; expected an operator or the end of the expression (a label needs a space before it)",
    ),
    (
        How::Parse,
        "4d6 kh3",
        "modifier-space",
        "modifiers go right after the dice, without a space (`4d6kh3`)",
    ),
    (
        How::Parse,
        "1d20 x6",
        "repeat-word",
        "to roll several times use the command's `repeat:6` (`x6` after a space is Roll20's repeat; `3d6x6` glued explodes on 6)",
    ),
    (
        How::Parse,
        "4d6k>",
        "compare-number",
        "`k>` needs a number to compare with, like `4d6k>3`",
    ),
    (
        How::Parse,
        "1d20ra",
        "ra-condition",
        "`ra` needs a condition: which dice add another, like `ra1`, `ra<3` or `ra(1|2)`",
    ),
    (
        How::Parse,
        "(1,2)d6",
        "set-as-count",
        "a set like `(1, 2)` cannot be a number of dice; write one expression",
    ),
    (
        How::Parse,
        "4d6k(1,2)",
        "set-here",
        "a set like `(1, 2)` cannot stand here; write one expression",
    ),
    (
        How::Parse,
        "4d6rrl1",
        "reroll-forever",
        "`rrl1` would reroll forever (there is always a lowest and a highest die); reroll once with `ro`, like `rol1`",
    ),
    (
        How::Parse,
        "4d6!!h1",
        "compound-by-value",
        "`!!h1`: a compounding explosion goes by value, like `!!>=5`; `!h1` and `eh1` explode the highest die",
    ),
    (
        How::Parse,
        "4d6!5!!6",
        "one-way",
        "a dice term can explode (or reroll) only one way; combine conditions like `!(>=5|1)`",
    ),
    (
        How::Parse,
        "abs(1,2)",
        "takes-one",
        "abs() takes exactly one argument",
    ),
    (
        How::Parse,
        "pow(1)",
        "takes-two",
        "pow() takes exactly two arguments",
    ),
    (
        How::Parse,
        "min()",
        "needs-argument",
        "min() needs at least one argument",
    ),
    (
        How::Parse,
        "----------------------------------1",
        "too-many-minus",
        "too many minus signs in a row (at most 32)",
    ),
    (
        How::Parse,
        "2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2^2",
        "too-many-powers",
        "too many powers in a row (at most 32)",
    ),
    (
        How::Parse,
        "((((((((((((((((((((((((((((((((((1",
        "too-deep",
        "parentheses and braces nest too deeply (at most 32 levels)",
    ),
    (
        How::Roll,
        "sqrt(-4)",
        "sqrt-negative",
        "sqrt() of -4: no square root of a negative number",
    ),
    (
        How::Odds,
        "log(0)",
        "log-small",
        "log() of 0: the logarithm needs a number of at least 1",
    ),
    (
        How::Roll,
        "(-2)d6",
        "negative-count",
        "a negative number of dice (-2)",
    ),
    (
        How::Roll,
        "9223372036854775807+1",
        "overflow",
        "the result does not fit into a 64-bit integer",
    ),
    (How::Odds, "1/0", "division-by-zero", "division by zero"),
    (
        How::Roll,
        "20000d6",
        "too-many-dice",
        "too many dice (at most 10000 per roll)",
    ),
    (
        How::Roll,
        "d{}",
        "empty-series",
        "a die needs at least one face; this series is empty",
    ),
    (
        How::Odds,
        "1d{1..0}",
        "empty-series",
        "a die needs at least one face; this series is empty",
    ),
    (
        How::Roll,
        "1d(0-5)",
        "no-faces",
        "a die needs at least one face, not -5",
    ),
    (
        How::Odds,
        "1d2000000",
        "too-many-faces",
        "too many faces (at most 1000000 per die)",
    ),
    (
        How::TightRoll,
        "{1..6}",
        "series-too-long",
        "this series is too long (at most 5 elements)",
    ),
    (
        How::TightRoll,
        "{1..5}+{1..5}+{1..3}",
        "too-many-elements",
        "this roll has too many dice and elements (at most 12)",
    ),
    (
        How::Roll,
        "$x",
        "unresolved-macro",
        "the macro $x must be resolved before rolling",
    ),
    (
        How::Odds,
        "@X",
        "unresolved-field",
        "the field @X must be resolved before rolling",
    ),
    (
        How::Odds,
        "4d6u",
        "unsupported",
        "exact odds are not computed for rerolls that depend on the other dice (`u`, `rol1`, `ral1`); roll it many times instead",
    ),
    (
        How::Odds,
        "1000d1000kh500",
        "too-complex-steps",
        "too complex to compute exactly: keeping and dropping among this many dice needs more than 20000000 steps",
    ),
    (
        How::Odds,
        "1d1000000*1d1000000",
        "too-complex-memory",
        "too complex to compute exactly: a die with this many faces needs more than 128 MiB of memory",
    ),
    (
        How::Odds,
        "2d1000000",
        "too-complex-steps",
        "too complex to compute exactly: adding this many dice needs more than 20000000 steps",
    ),
    (
        How::SmallOdds,
        "d{1d6,1d6,1d6}",
        "too-complex-steps",
        "too complex to compute exactly: combining the outcomes needs more than 2000 steps",
    ),
    (
        How::SmallOdds,
        "{1..1d100}",
        "too-complex-steps",
        "too complex to compute exactly: listing every way this series can fall needs more than 2000 steps",
    ),
    (
        How::SmallOdds,
        "6d6!",
        "too-complex-steps",
        "too complex to compute exactly: adding the outcomes needs more than 2000 steps",
    ),
    (
        How::SmallOdds,
        "1d20!",
        "too-complex-steps",
        "too complex to compute exactly: following the explosions needs more than 2000 steps",
    ),
    (
        How::SmallOdds,
        "1d(1d20)",
        "too-complex-steps",
        "too complex to compute exactly: mixing the outcomes needs more than 2000 steps",
    ),
    (
        How::SmallOdds,
        "1d5000",
        "too-complex-steps",
        "too complex to compute exactly: a die with this many faces needs more than 2000 steps",
    ),
    (
        How::Parse,
        LONG,
        "too-long",
        "the expression is too long (2001 bytes, at most 2000)",
    ),
    (
        How::Resolve,
        "$a",
        "macro-cycle",
        "macro cycle: $a → $b → $a",
    ),
    (
        How::Resolve,
        "$bad",
        "bad-macro",
        "macro $bad is invalid: expected a value (a number, dice, `(`, `{` or a function) at the end",
    ),
    (
        How::Resolve,
        "$glued",
        "bad-macro",
        "macro $glued is invalid: unknown modifier `hit` (a label needs a space before it: `1d20 hit`)",
    ),
    (
        How::Resolve,
        "$w1+$w1",
        "too-many-expansions",
        "macros expand more than 64 times (at $w2)",
    ),
    (
        How::Resolve,
        "$nope",
        "unknown-macro",
        "unknown macro $nope",
    ),
    (
        How::Resolve,
        "@NOPE",
        "unknown-field",
        "unknown field @NOPE; there are: @LOWEST, @STR",
    ),
    (
        How::ResolveBare,
        "@X",
        "unknown-field-none",
        "unknown field @X; there are no fields",
    ),
    (
        How::Resolve,
        "@LOWEST",
        "expanded",
        "with its macros expanded: the number 9223372036854775808 is too large",
    ),
    (
        How::Resolve,
        "(((($deep))))",
        "expanded-too-deep",
        "with its macros expanded, the expression nests too deeply (at most 32 levels)",
    ),
    (
        How::Resolve,
        "$big+$big+$big+$big+$big+$big+$big+$big+$big",
        "expanded-too-long",
        "with its macros expanded, the expression is too long (at most 16000 bytes)",
    ),
];

/// Stands for 2001 bytes of `1`: one more than the default limit.
const LONG: &str = "1 × 2001";

/// Phrases a reason names, nested reasons included.
fn phrases_of(reason: &Reason, found: &mut BTreeSet<&'static str>) {
    for (_, value) in reason.args() {
        match value {
            ReasonArg::Phrase(phrase) => {
                found.insert(phrase.id());
            }
            ReasonArg::Choices(choices) => {
                for choice in choices {
                    if let Choice::Phrase(phrase) = choice {
                        found.insert(phrase.id());
                    }
                }
            }
            ReasonArg::Reason(inner) => phrases_of(inner, found),
            _ => {}
        }
    }
}

/// Each argument of a reason (and of its nested ones) is one its template names.
fn check_args(reason: &Reason, input: &str) {
    let given: Vec<&str> = reason.args().iter().map(|(name, _)| *name).collect();
    let mut wanted = reason.form().params();
    let mut sorted = given.clone();
    sorted.sort_unstable();
    wanted.sort_unstable();
    assert_eq!(sorted, wanted, "{input}: {} arguments", reason.id());
    for (_, value) in reason.args() {
        if let ReasonArg::Reason(inner) = value {
            check_args(inner, input);
        }
    }
}

#[test]
fn every_reachable_reason_has_its_id_arguments_and_english_message() {
    let mut reached = BTreeSet::new();
    let mut phrases = BTreeSet::new();
    for (how, input, id, message) in CASES {
        let long = "1".repeat(2001);
        let input = if *input == LONG { long.as_str() } else { input };
        let error = error_of(*how, input);
        let reason = error.reason();
        assert_eq!(
            (reason.id(), error.message()),
            (*id, *message),
            "{how:?} {input:?}"
        );
        assert_eq!(reason.to_english(), error.message(), "{input}");
        assert_eq!(error.to_string(), error.message(), "{input}");
        check_args(reason, input);
        reached.insert(reason.id());
        phrases_of(reason, &mut phrases);
    }
    let unreachable: BTreeSet<&str> = UNREACHABLE.iter().map(|form| form.id()).collect();
    let all: BTreeSet<&str> = ReasonId::ALL.iter().map(|form| form.id()).collect();
    let missed: Vec<&&str> = all
        .difference(&reached)
        .filter(|id| !unreachable.contains(**id))
        .collect();
    assert!(missed.is_empty(), "no input reaches {missed:?}");
    let both: Vec<&&str> = reached.intersection(&unreachable).collect();
    assert!(
        both.is_empty(),
        "reached, yet listed as unreachable: {both:?}"
    );
    let phrases_all: BTreeSet<&str> = Phrase::ALL.iter().map(|phrase| phrase.id()).collect();
    let not_reached: BTreeSet<&str> = PHRASES_NOT_REACHED
        .iter()
        .map(|phrase| phrase.id())
        .collect();
    let missed: Vec<&&str> = phrases_all
        .difference(&phrases)
        .filter(|id| !not_reached.contains(**id))
        .collect();
    assert!(missed.is_empty(), "no input names the phrases {missed:?}");
}

#[test]
fn ids_are_unique_words_and_templates_name_plain_arguments() {
    let mut ids = BTreeSet::new();
    let words = |id: &str| {
        !id.is_empty()
            && id
                .split('-')
                .all(|word| !word.is_empty() && word.bytes().all(|b| b.is_ascii_lowercase()))
    };
    for form in ReasonId::ALL {
        assert!(words(form.id()), "{}", form.id());
        assert!(ids.insert(form.id()), "{} twice", form.id());
        // Every `{` opens a placeholder of lower-case letters that a `}` closes.
        let template = form.english();
        assert_eq!(
            template.matches('{').count(),
            template.matches('}').count(),
            "{template}"
        );
        for param in form.params() {
            assert!(
                !param.is_empty() && param.bytes().all(|b| b.is_ascii_lowercase()),
                "{}: {param:?}",
                form.id()
            );
        }
    }
    // Phrases share the bot's key space (`dice-<id>`) with the reasons.
    for phrase in Phrase::ALL {
        assert!(words(phrase.id()), "{}", phrase.id());
        assert!(ids.insert(phrase.id()), "{} twice", phrase.id());
    }
}
