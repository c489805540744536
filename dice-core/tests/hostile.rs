//! Hostile input: the reproducers of issue 11 (exact odds that exhausted
//! memory or ran for seconds) refused as too complex, and generated
//! expressions (nested, huge, repeated, random from the grammar's pieces)
//! that parse, roll and get odds without a panic: odds either answer with
//! a distribution or refuse with an error.

use dice_core::{BigRational, ErrorKind, Limits};
use num_traits::{One, Zero};
use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::common::parse;

/// Expected verdict of `odds` under `Limits::default()`.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Verdict {
    TooComplex,
    Answers,
}

use Verdict::{Answers, TooComplex};

/// Each reproducer of the issue with what it cost before the memory budget
/// (release, peak memory and CPU), and neighbours that must keep answering.
const REPRODUCERS: &[(&str, Verdict)] = &[
    // Explosion chains of lists of values: 2.0 GB, 10 s.
    ("2d20!(o)kh1", TooComplex),
    ("1d10!(o)kh1", TooComplex),
    ("10d10!(o)kh5", TooComplex),
    ("3d12pl12t!=2eo", TooComplex),
    ("5d10!<>007kph", TooComplex),
    // Face lists of a custom die: 1.1 GB before refusing.
    ("d{1d2,1d3,1d4,1d5,1d6,1d7,1d8,1d9,1d10,1d11}", TooComplex),
    // Every way a set can fall: 750 MB, 1.7 s, then an answer.
    ("(3d20,4d5,6d17,3d8)kh2", TooComplex),
    // Products of large dice: 16 s and 460 MB; 3 s.
    ("1d4470*1d4470", TooComplex),
    ("1d2468*1d2558*1d2041", TooComplex),
    // Found on the way: mixtures over the sides (330 MB, 1.3 s), a custom
    // die of dice (290 MB, 1 s), four-fold products (1.3 s).
    ("1d(1d3000)", TooComplex),
    ("d{1d1000,1d1000}", TooComplex),
    ("1d100*1d100*1d100*1d100", TooComplex),
    // Neighbours well within a second keep their answers.
    ("1d(1d1000)", Answers),
    ("max(1d1000,1d1000,1d1000)", Answers),
    ("1d1000*1d100", Answers),
    ("1d6!!(o)", Answers),
    ("10d10!kh5", Answers),
    ("6d10!kh3", Answers),
    ("20d6ra1kh10", Answers),
    ("4d6kh(1d1000)", Answers),
    // A dense row ending at i64::MAX (an overflow panic in debug builds).
    ("{9223372036854775807}", Answers),
    // No dice, no table of faces (79 MB before refusing).
    ("0d1000000+0d1000000+0d1000000", Answers),
];

#[test]
fn reproducers_are_refused_and_neighbours_answer() {
    let limits = Limits::default();
    for (input, verdict) in REPRODUCERS {
        match (parse(input).odds(&limits), verdict) {
            (Ok(odds), Answers) => assert_is_distribution(input, &odds),
            (Err(error), TooComplex) => {
                assert_eq!(error.kind(), ErrorKind::TooComplex, "{input}: {error}");
                assert!(
                    error
                        .message()
                        .starts_with("too complex to compute exactly"),
                    "{input}: {error}"
                );
            }
            (Ok(_), TooComplex) => panic!("{input} should be too complex"),
            (Err(error), Answers) => panic!("{input} should answer:\n{}", error.caret(input)),
        }
    }
}

#[test]
fn the_memory_budget_refuses_what_the_work_budget_allows() {
    // 1d1000*1d100 is cheap in work; its table of 50,000 products is not
    // under a memory bound of one mebibyte.
    let tight = Limits {
        max_odds_memory: 1 << 20,
        ..Limits::default()
    };
    for input in ["1d1000*1d100", "d{1..100}*d{1..1000}", "1d(1d300)"] {
        let error = parse(input).odds(&tight).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::TooComplex, "{input}: {error}");
        assert!(
            error.message().ends_with("needs more than 1 MiB of memory"),
            "{input}: {error}"
        );
        assert!(parse(input).odds(&Limits::default()).is_ok(), "{input}");
    }
}

fn assert_is_distribution(input: &str, odds: &dice_core::Odds) {
    let listed: BigRational = odds.outcomes().iter().map(|(_, p)| p).sum();
    assert_eq!(listed + odds.tail(), BigRational::one(), "{input}");
    assert!(odds.outcomes().iter().all(|(_, p)| !p.is_zero()), "{input}");
    assert!(
        odds.outcomes().windows(2).all(|pair| pair[0].0 < pair[1].0),
        "{input}"
    );
}

/// Limits scaled down for generated cases: the same refusals, reached
/// sooner, so that a few hundred cases run in seconds in a debug build.
fn small() -> Limits {
    Limits {
        max_dice: 2_000,
        max_explosions_per_die: 20,
        max_rerolls_per_die: 20,
        max_odds_work: 300_000,
        max_odds_memory: 4 << 20,
        ..Limits::default()
    }
}

/// Parses, rolls and gets the odds of `input`: none may panic, and odds
/// either answer with a distribution or refuse.
fn exercise(input: &str) {
    let limits = small();
    let Ok(expr) = dice_core::parse_with(input, &limits) else {
        return;
    };
    if let Ok(roll) = expr.roll(&mut StdRng::seed_from_u64(11), &limits) {
        let _ = roll.to_markdown(limits.render_budget);
    }
    match expr.odds(&limits) {
        Ok(odds) => assert_is_distribution(input, &odds),
        Err(error) => assert!(!error.message().is_empty(), "{input}"),
    }
}

fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (0i64..30).prop_map(|n| n.to_string()),
        1 => prop::sample::select(vec!["1000000", "999999999999", "9223372036854775807", "0"])
            .prop_map(String::from),
    ]
}

fn dice() -> impl Strategy<Value = String> {
    let faces = prop::sample::select(vec![
        "0", "1", "2", "3", "6", "10", "12", "20", "100", "1000", "1000000", "F", "%",
    ]);
    (0u32..25, faces).prop_map(|(n, m)| format!("{n}d{m}"))
}

/// Modifiers of every family, written after dice, sets or parentheses.
fn modifier() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "kh", "kh3", "kl2", "k1", "dh", "dl2", "d1", "p", "ph", "ke", "ko", "k>3", "p<2", "k=5",
        "!", "!!", "!p", "!(o)", "!>=2", "!<>7", "x", "xo", "e(o)", "ra1", "ra<3", "ro1", "rr<3",
        "r1", "mi2", "ma4", "cs>=5", "cf1", "t8", "f1", ">=4", "sa", "sd", "kh(1d3)", "!=2",
        "cs(o|h)",
    ])
}

fn expression() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![number(), dice()];
    leaf.prop_recursive(5, 48, 6, |inner| {
        prop_oneof![
            (inner.clone(), prop::collection::vec(modifier(), 1..4))
                .prop_map(|(base, mods)| format!("({base}){}", mods.concat())),
            (dice(), prop::collection::vec(modifier(), 1..4))
                .prop_map(|(base, mods)| format!("{base}{}", mods.concat())),
            (
                inner.clone(),
                prop::sample::select(vec!["+", "-", "*", "/", "%", " >= ", "=="]),
                inner.clone()
            )
                .prop_map(|(a, op, b)| format!("{a}{op}{b}")),
            (
                prop::sample::select(vec!["max", "min", "floor", "ceil", "abs", "round"]),
                prop::collection::vec(inner.clone(), 1..4)
            )
                .prop_map(|(f, args)| format!("{f}({})", args.join(","))),
            prop::collection::vec(inner.clone(), 1..5)
                .prop_map(|items| format!("({},)kh2", items.join(","))),
            prop::collection::vec(inner.clone(), 0..5)
                .prop_map(|items| format!("{{{}}}", items.join(","))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{{{a}..{b}}}")),
            (0u32..6, prop::collection::vec(inner.clone(), 1..5))
                .prop_map(|(n, faces)| format!("{n}d{{{}}}", faces.join(","))),
            (inner.clone(), inner.clone()).prop_map(|(n, m)| format!("({n})d({m})")),
            // Repeated: the same piece many times over.
            (inner, 2usize..60, prop::sample::select(vec!["+", "*", ","]))
                .prop_map(|(piece, times, op)| vec![piece; times].join(op)),
        ]
    })
}

/// Nested, huge and repeated shapes around a generated piece.
fn hostile() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => expression(),
        1 => (expression(), 0usize..45)
            .prop_map(|(e, depth)| format!("{}{e}{}", "(".repeat(depth), ")".repeat(depth))),
        1 => (expression(), 0usize..45)
            .prop_map(|(e, depth)| format!("{}{e}{}", "-".repeat(depth), "")),
        1 => (dice(), 1usize..400).prop_map(|(d, times)| vec![d; times].join("+")),
        1 => (1u32..1000, 1u32..1000).prop_map(|(a, b)| format!("1d{a}*1d{b}*1d{a}")),
        1 => (1u32..60, prop::collection::vec(modifier(), 1..6))
            .prop_map(|(n, mods)| format!("{n}d10{}", mods.concat())),
        1 => (0u64..2_000_000).prop_map(|n| format!("{{1..{n}}}kh1")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn generated_expressions_parse_roll_and_get_odds_without_panicking(input in hostile()) {
        exercise(&input);
    }
}
