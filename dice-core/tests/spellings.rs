//! Every spelling issue 15 added, with its range and mean: exact odds where
//! `Expr::odds` computes them, else 4,000 seeded rolls. The means of the
//! peers' spellings were checked against the peers themselves (Avrae's d20
//! and rpg-dice-roller, 2,000 rolls each, 20,000 for the sampled d20 rows;
//! see the README's table).

use dice_core::{ErrorKind, Limits};

use crate::common::{parse, rng};

/// How a row's mean is checked.
#[derive(Clone, Copy)]
enum Mean {
    /// From `Expr::odds`, to 1e-9 (the exact mean of the outcomes listed).
    Exact(f64),
    /// From rolls, within the tolerance; `Expr::odds` must refuse cleanly.
    Sampled(f64, f64),
}

const OPEN: i64 = i64::MAX;

#[rustfmt::skip]
const SPELLINGS: &[(&str, i64, i64, Mean)] = &[
    // rpg-dice-roller
    ("1d6!!p", 1, OPEN, Mean::Exact(4.0)),
    ("2d6!!p", 2, OPEN, Mean::Exact(8.0)),
    ("2d6!!p>4", 2, OPEN, Mean::Exact(9.5)),
    ("4d6u", 10, 18, Mean::Sampled(14.0, 0.1)),
    ("4d6uo", 4, 24, Mean::Sampled(14.0, 0.2)),
    ("4d6u=1", 4, 24, Mean::Sampled(14.42, 0.2)),
    ("4d6uo<3", 4, 24, Mean::Sampled(14.67, 0.2)),
    ("4dF.1", -4, 4, Mean::Exact(0.0)),
    ("4dF.2", -4, 4, Mean::Exact(0.0)),
    ("3d6 // fire", 3, 18, Mean::Exact(10.5)),
    ("3d6 /* fire */ + 1", 4, 19, Mean::Exact(11.5)),
    ("2^3", 8, 8, Mean::Exact(8.0)),
    ("2**3", 8, 8, Mean::Exact(8.0)),
    ("2^3^2", 512, 512, Mean::Exact(512.0)),
    ("-2^2", -4, -4, Mean::Exact(-4.0)),
    ("2^-1", 0, 0, Mean::Exact(0.0)),
    ("round(2^-1)", 1, 1, Mean::Exact(1.0)),
    ("1d6^2", 1, 36, Mean::Exact(91.0 / 6.0)),
    ("abs(-3)", 3, 3, Mean::Exact(3.0)),
    ("ceil(7/2)", 4, 4, Mean::Exact(4.0)),
    ("floor(-7/2)", -4, -4, Mean::Exact(-4.0)),
    ("round(7/2)", 4, 4, Mean::Exact(4.0)),
    ("round(-7/2)", -4, -4, Mean::Exact(-4.0)),
    ("sign(-4)", -1, -1, Mean::Exact(-1.0)),
    ("sign(1d6-1)", 0, 1, Mean::Exact(5.0 / 6.0)),
    ("sqrt(10)", 3, 3, Mean::Exact(3.0)),
    ("sqrt(12)", 3, 3, Mean::Exact(3.0)),
    ("sqrt(13)", 4, 4, Mean::Exact(4.0)),
    ("sqrt(2d6)", 1, 3, Mean::Exact(92.0 / 36.0)),
    ("exp(2)", 7, 7, Mean::Exact(7.0)),
    ("log(10)", 2, 2, Mean::Exact(2.0)),
    ("log(1)", 0, 0, Mean::Exact(0.0)),
    ("pow(2, 3)", 8, 8, Mean::Exact(8.0)),
    ("max(1, 5)", 5, 5, Mean::Exact(5.0)),
    ("min(1d6, 3)", 1, 3, Mean::Exact(2.5)),
    ("4d20min-12", 4, 80, Mean::Exact(42.0)),
    ("4d20max-12", -48, -48, Mean::Exact(-48.0)),
    // Success comparisons after a series count its elements (0 or 1 here).
    ("{4d6}>10", 0, 1, Mean::Exact(545.0 / 648.0)),
    ("{4d6}<10", 0, 1, Mean::Exact(7.0 / 72.0)),
    ("{4d6}>20f<15", -1, 1, Mean::Exact(-343.0 / 648.0)),
    ("{4d6}>20f<10", -1, 1, Mean::Exact(-91.0 / 1296.0)),
    // `d`, `dl`, `dh` after a series drop elements; of a one-element
    // series that is the one element (rpg-dice-roller drops its dice).
    ("{4d10*2, 5d6+10}d1", 15, 80, Mean::Exact(3_457_330_933.0 / 77_760_000.0)),
    ("{4d10/4, 2dF.1}dl1", 1, 10, Mean::Exact(1_844_999.0 / 360_000.0)),
    ("{6d6, 2d10}dl", 6, 36, Mean::Exact(121_489.0 / 5_760.0)),
    ("{3+4d6, 5d2*6d3}dh2", 0, 0, Mean::Exact(0.0)),
    ("{19d23}d1", 0, 0, Mean::Exact(0.0)),
    ("{1, 5, 3}dh", 4, 4, Mean::Exact(4.0)),
    // Avrae's d20
    ("1d6rol1", 1, 6, Mean::Sampled(3.5, 0.1)),
    ("1d6ral1", 2, 12, Mean::Sampled(7.0, 0.2)),
    ("4d6rol1", 4, 24, Mean::Sampled(15.75, 0.2)),
    ("4d6roh2", 4, 24, Mean::Sampled(11.63, 0.2)),
    ("4d6eh1", 5, OPEN, Mean::Sampled(17.94, 0.25)),
    ("4d6el1", 5, OPEN, Mean::Sampled(17.91, 0.25)),
    ("15 // 2", 7, 7, Mean::Exact(7.0)),
    ("-7 // 2", -4, -4, Mean::Exact(-4.0)),
    ("+1", 1, 1, Mean::Exact(1.0)),
    ("-+-1", 1, 1, Mean::Exact(1.0)),
    ("()", 0, 0, Mean::Exact(0.0)),
    ("1d6 + ()", 1, 6, Mean::Exact(3.5)),
    ("1d20 **bold**", 1, 20, Mean::Exact(10.5)),
    ("1d20 ||spoiler||", 1, 20, Mean::Exact(10.5)),
    ("1d20rr<20", 20, 20, Mean::Exact(20.0)),
    // Upper-case modifiers
    ("4d6KH3", 3, 18, Mean::Exact(15869.0 / 1296.0)),
    ("1D20RO1", 1, 20, Mean::Exact(10.975)),
    ("10D10CS>=8SF1", -10, 10, Mean::Exact(2.0)),
    // German tables write W (Würfel) for d
    ("3W6", 3, 18, Mean::Exact(10.5)),
    ("1w20+2", 3, 22, Mean::Exact(12.5)),
    ("4W6kh3", 3, 18, Mean::Exact(15869.0 / 1296.0)),
    ("w%", 1, 100, Mean::Exact(50.5)),
];

#[test]
fn each_spelling_has_its_range_and_mean() {
    let limits = Limits::default();
    for &(input, min, max, mean) in SPELLINGS {
        let expr = parse(input);
        let mut sum = 0i64;
        let rolls = 4_000;
        for seed in 0..rolls {
            let total = expr
                .roll(&mut rng(seed), &limits)
                .unwrap_or_else(|error| panic!("{input}: {error}"))
                .total();
            assert!((min..=max).contains(&total), "{input}: {total}");
            sum += total;
        }
        let odds = expr.odds(&limits);
        match mean {
            Mean::Exact(expected) => {
                let odds = odds.unwrap_or_else(|error| panic!("{input}: {error}"));
                assert_eq!(odds.min(), min, "{input}");
                if max != OPEN {
                    assert_eq!(odds.max(), max, "{input}");
                }
                let exact = odds.mean_f64();
                assert!((exact - expected).abs() < 1e-9, "{input}: mean {exact}");
            }
            Mean::Sampled(expected, tolerance) => {
                let error = odds.expect_err(input);
                assert_eq!(error.kind(), ErrorKind::Unsupported, "{input}");
                let sampled = sum as f64 / rolls as f64;
                assert!(
                    (sampled - expected).abs() < tolerance,
                    "{input}: sampled mean {sampled}, expected {expected}"
                );
            }
        }
    }
}

#[test]
fn labels_and_comments_are_read_as_the_peers_do() {
    let cases: &[(&str, Option<&str>)] = &[
        ("3d6 // fire", Some("fire")),
        ("15 // 2", None),
        ("15 // 2 halved", Some("halved")),
        ("1d20 **bold**", Some("**bold**")),
        ("1d20 /* inline */ + 2", None),
        ("1d20 # to hit", Some("to hit")),
    ];
    for (input, label) in cases {
        assert_eq!(parse(input).label(), *label, "{input}");
    }
}
