//! Property tests: totals stay inside the bounds an expression allows,
//! sample means match exact means, no input panics, deep nesting is an error
//! rather than a stack overflow.

use dice_core::Limits;
use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::StdRng;

/// An expression with the smallest and largest total it can have.
#[derive(Debug, Clone)]
struct Bounded {
    text: String,
    low: i64,
    high: i64,
}

fn term() -> impl Strategy<Value = Bounded> {
    prop_oneof![
        (0i64..50).prop_map(|n| Bounded {
            text: n.to_string(),
            low: n,
            high: n
        }),
        (0i64..6, 1i64..21).prop_map(|(n, m)| Bounded {
            text: format!("{n}d{m}"),
            low: n,
            high: n * m,
        }),
        (
            1i64..7,
            1i64..13,
            0i64..8,
            prop::sample::select(vec!["k", "kh", "kl"])
        )
            .prop_map(|(n, m, k, keep)| {
                let kept = k.min(n);
                Bounded {
                    text: format!("{n}d{m}{keep}{k}"),
                    low: kept,
                    high: kept * m,
                }
            }),
        (1i64..7, 1i64..13, 0i64..8).prop_map(|(n, m, k)| {
            let kept = (n - k).max(0);
            Bounded {
                text: format!("{n}d{m}d{k}"),
                low: kept,
                high: kept * m,
            }
        }),
        (1i64..8, 2i64..11, 1i64..11).prop_map(|(n, m, t)| Bounded {
            text: format!("{n}d{m}cs>={t}"),
            low: 0,
            high: n,
        }),
        (1i64..8, 2i64..11).prop_map(|(n, m)| Bounded {
            text: format!("{n}d{m}cs>=({m}-1)sf1"),
            low: -n,
            high: n,
        }),
        (1i64..5, 2i64..11).prop_map(|(n, m)| Bounded {
            // Explosions stop after 100 extra dice per die.
            text: format!("{n}d{m}!"),
            low: n,
            high: n * m * 101,
        }),
        (1i64..5, 2i64..11).prop_map(|(n, m)| Bounded {
            text: format!("{n}d{m}!!"),
            low: n,
            high: n * m * 101,
        }),
        (1i64..6, 2i64..11).prop_map(|(n, m)| Bounded {
            text: format!("{n}d{m}ro1"),
            low: n,
            high: n * m,
        }),
        (1i64..6, 2i64..11, 1i64..11).prop_map(|(n, m, c)| Bounded {
            text: format!("{n}d{m}min{c}"),
            low: n * c.min(m).max(1),
            high: n * m.max(c),
        }),
        (0i64..6).prop_map(|n| Bounded {
            text: format!("{n}dF"),
            low: -n,
            high: n
        }),
        Just(Bounded {
            text: "d%".into(),
            low: 1,
            high: 100
        }),
        (0i64..5, 0i64..5).prop_map(|(a, b)| Bounded {
            text: format!("{{d4, {a}..{b}}}kh"),
            low: 1.min(if b >= a { b } else { 1 }),
            high: 4.max(if b >= a { b } else { 0 }),
        }),
    ]
}

fn sum() -> impl Strategy<Value = Bounded> {
    (term(), prop::collection::vec((any::<bool>(), term()), 0..4)).prop_map(|(first, rest)| {
        let mut acc = first;
        for (plus, next) in rest {
            acc = if plus {
                Bounded {
                    text: format!("{} + {}", acc.text, next.text),
                    low: acc.low + next.low,
                    high: acc.high + next.high,
                }
            } else {
                Bounded {
                    text: format!("{} - ({})", acc.text, next.text),
                    low: acc.low - next.high,
                    high: acc.high - next.low,
                }
            };
        }
        acc
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn totals_stay_inside_the_bounds_the_expression_allows(expr in sum(), seed in any::<u64>()) {
        let parsed = dice_core::parse(&expr.text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let roll = parsed
            .roll(&mut StdRng::seed_from_u64(seed), &Limits::default())
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(
            (expr.low..=expr.high).contains(&roll.total()),
            "{} = {} not in {}..={}: {}", expr.text, roll.total(), expr.low, expr.high, roll.to_plain(400)
        );
    }

    #[test]
    fn arbitrary_strings_never_panic(input in any::<String>()) {
        exercise(&input);
    }

    #[test]
    fn dice_like_strings_never_panic(input in "[0-9dDkKhHlcsfFxeEopraRu!%{}(),.+*/^<>=&|#\\[\\]$@ -]{0,40}") {
        exercise(&input);
    }
}

/// Parses, rolls, renders and serializes, under tight limits so that every
/// case stays small.
fn exercise(input: &str) {
    let limits = Limits {
        max_dice: 2_000,
        max_explosions_per_die: 20,
        max_rerolls_per_die: 20,
        ..Limits::default()
    };
    let Ok(expr) = dice_core::parse_with(input, &limits) else {
        return;
    };
    let _ = expr.macro_names();
    let _ = expr.field_names();
    let Ok(roll) = expr.roll(&mut StdRng::seed_from_u64(7), &limits) else {
        return;
    };
    let _ = roll.to_markdown(300);
    let _ = roll.to_plain(50);
    let _ = serde_json::to_string(&roll);
    // Exact odds answer or refuse, within a small budget.
    let small = Limits {
        max_odds_work: 200_000,
        ..limits
    };
    let _ = expr.odds(&small);
}

/// Exact means, worked out by hand (fractions in the comments).
const MEANS: &[(&str, f64)] = &[
    ("1d6", 3.5),
    ("2d6+3", 10.0),
    ("d%", 50.5),
    ("4dF", 0.0),
    // 15869/1296
    ("4d6kh3", 15869.0 / 1296.0),
    ("4d6d1", 15869.0 / 1296.0),
    // 2d20 keep highest: 5530/400; keep lowest: 21 - that.
    ("2d20kh1", 13.825),
    ("2d20kl1", 7.175),
    ("d{1,1,1,2,2,3}", 10.0 / 6.0),
    // An exploding or compounding d6: 3.5 / (5/6).
    ("1d6!", 4.2),
    ("1d6!!", 4.2),
    // Penetrating: E = 3.5 + (E - 1)/6.
    ("1d6!p", 4.0),
    // Explode once: 3.5 + 3.5/6.
    ("1d6xo", 3.5 + 3.5 / 6.0),
    // Reroll a 1 once: 3.5/6 + 4 * 5/6; until it is no 1: 4.
    ("1d6ro1", 3.5 / 6.0 + 4.0 * 5.0 / 6.0),
    ("1d6r1", 4.0),
    ("1d6mi3", 4.0),
    ("1d6ma4", 3.0),
    ("6d10>=8", 1.8),
    ("10d10cs>=8sf1", 2.0),
    ("{d6,d8,d10}kh1", 0.0),
    ("floor(1d6/2)", 1.5),
    // Avrae: reroll a 1 and add (once): 3.5 + 3.5/6; keep above 3: 4 * 15/6;
    // drop below 3: 4 * 18/6; the better of two d6 as a set: 161/36.
    ("1d6ra1", 3.5 + 3.5 / 6.0),
    ("4d6k>3", 10.0),
    ("4d6p<3", 12.0),
    ("(1d6, 1d6)kh1", 161.0 / 36.0),
    ("ceil(1d6/2)", 2.0),
];

/// `{d6,d8,d10}kh1` by enumeration.
fn max_of_three() -> f64 {
    let mut total = 0i64;
    for a in 1..=6i64 {
        for b in 1..=8 {
            for c in 1..=10 {
                total += a.max(b).max(c);
            }
        }
    }
    total as f64 / 480.0
}

#[test]
fn sample_means_match_exact_means() {
    let limits = Limits::default();
    let samples = 40_000;
    for &(input, mean) in MEANS {
        let mean = if input == "{d6,d8,d10}kh1" {
            max_of_three()
        } else {
            mean
        };
        let expr = crate::common::parse(input);
        let mut rng = StdRng::seed_from_u64(2024);
        let totals: Vec<f64> = expr
            .totals(&mut rng, &limits)
            .take(samples)
            .map(|t| t.unwrap_or(i64::MIN) as f64)
            .collect();
        let n = totals.len() as f64;
        let sample_mean = totals.iter().sum::<f64>() / n;
        let variance = totals
            .iter()
            .map(|t| (t - sample_mean).powi(2))
            .sum::<f64>()
            / (n - 1.0);
        let standard_error = (variance / n).sqrt().max(1e-9);
        let z = (sample_mean - mean) / standard_error;
        assert!(
            z.abs() < 5.0,
            "{input}: sample mean {sample_mean}, exact {mean}, z = {z}"
        );
    }
}

#[test]
fn nesting_up_to_the_limit_works_and_beyond_is_an_error() {
    let limits = Limits::default();
    let depth = limits.max_depth;
    let shapes: &[(&str, &str, &str)] = &[
        ("", "(", ")"),
        ("", "{", "}"),
        ("", "max(", ", 1)"),
        ("", "-(", ")"),
        ("", "d(", ")"),
        ("1d6cs", "(", ")"),
        ("", "2d6k(", ")"),
        ("", "floor(", "/2)"),
        ("", "{1..", "}"),
    ];
    // A small stack, as on a busy async runtime's worker thread.
    let worker = std::thread::Builder::new().stack_size(2 << 20);
    let handle = worker.spawn(move || {
        for (prefix, open, close) in shapes {
            let inside = format!("{prefix}{}1{}", open.repeat(depth), close.repeat(depth));
            let expr = dice_core::parse(&inside).unwrap_or_else(|e| panic!("{open}: {e}"));
            let mut rng = StdRng::seed_from_u64(1);
            if let Ok(roll) = expr.roll(&mut rng, &Limits::default()) {
                let _ = roll.to_markdown(1_800);
                let _ = roll.dice();
            }
            let beyond = format!(
                "{prefix}{}1{}",
                open.repeat(depth + 1),
                close.repeat(depth + 1)
            );
            let error = dice_core::parse(&beyond).unwrap_err();
            assert_eq!(error.kind(), dice_core::ErrorKind::TooDeep, "{open}");
        }
    });
    assert!(handle.map(|h| h.join().is_ok()).unwrap_or(false));
}
