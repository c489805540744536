//! Exact distributions: small expressions against brute-force enumeration
//! of every die written here, sampled rolls against the distribution, and
//! the errors (too complex, possible division by zero, unresolved names).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use dice_core::{BigRational, ErrorKind, Limits, Odds};
use num_bigint::BigInt;
use num_traits::{ToPrimitive, Zero};

use crate::common::{parse, rng};

/// Limits with explosions capped at two per die, so that the roller's
/// process is finite and brute force can follow every path of it.
fn capped() -> Limits {
    Limits {
        max_explosions_per_die: 2,
        ..Limits::default()
    }
}

fn odds_with(input: &str, limits: &Limits) -> Odds {
    match parse(input).odds(limits) {
        Ok(odds) => odds,
        Err(error) => panic!("{input:?} should have odds:\n{}", error.caret(input)),
    }
}

fn ratio(num: i64, den: i64) -> BigRational {
    BigRational::new(BigInt::from(num), BigInt::from(den))
}

/// Every combination of the given dice (each uniform over its faces),
/// mapped by `total`: the brute-force distribution.
fn brute(dice: &[Vec<i64>], total: impl Fn(&[i64]) -> i64) -> BTreeMap<i64, BigRational> {
    let combinations: i64 = dice.iter().map(|faces| faces.len() as i64).product();
    let mut counts: BTreeMap<i64, i64> = BTreeMap::new();
    let mut index = vec![0usize; dice.len()];
    let mut values = vec![0i64; dice.len()];
    for _ in 0..combinations {
        for (slot, faces) in dice.iter().enumerate() {
            values[slot] = faces[index[slot]];
        }
        *counts.entry(total(&values)).or_insert(0) += 1;
        for (slot, faces) in dice.iter().enumerate() {
            index[slot] += 1;
            if index[slot] < faces.len() {
                break;
            }
            index[slot] = 0;
        }
    }
    counts
        .into_iter()
        .map(|(value, count)| (value, ratio(count, combinations)))
        .collect()
}

fn d(sides: i64) -> Vec<i64> {
    (1..=sides).collect()
}

fn dn(n: usize, sides: i64) -> Vec<Vec<i64>> {
    vec![d(sides); n]
}

fn sorted_desc(values: &[i64]) -> Vec<i64> {
    let mut sorted = values.to_vec();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    sorted
}

fn keep_highest(values: &[i64], n: usize) -> i64 {
    sorted_desc(values).iter().take(n).sum()
}

fn keep_lowest(values: &[i64], n: usize) -> i64 {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    sorted.iter().take(n).sum()
}

fn count(values: &[i64], test: impl Fn(i64) -> bool) -> i64 {
    values.iter().filter(|v| test(**v)).count() as i64
}

/// The value of one exploding die from its draws: each draw that matches
/// `explodes` adds the next one (penetrating ones count one less); at most
/// `draws.len() - 1` explosions, as with [`capped`].
fn chain(draws: &[i64], explodes: impl Fn(i64) -> bool, penetrate: bool) -> Vec<i64> {
    let mut elements = vec![draws[0]];
    for window in 1..draws.len() {
        if !explodes(draws[window - 1]) {
            break;
        }
        elements.push(draws[window] - i64::from(penetrate));
    }
    elements
}

fn assert_matches(input: &str, limits: &Limits, expected: &BTreeMap<i64, BigRational>) {
    let odds = odds_with(input, limits);
    let actual: BTreeMap<i64, BigRational> = odds.outcomes().iter().cloned().collect();
    assert_eq!(&actual, expected, "{input}");
    assert!(odds.tail().is_zero(), "{input}: no tail expected");
}

type Case = (&'static str, Vec<Vec<i64>>, fn(&[i64]) -> i64);

#[test]
fn small_expressions_match_brute_force() {
    let cases: Vec<Case> = vec![
        ("3d6", dn(3, 6), |v| v.iter().sum()),
        ("4d6kh3", dn(4, 6), |v| keep_highest(v, 3)),
        ("(4d6)kh3", dn(4, 6), |v| keep_highest(v, 3)),
        ("4d6k3", dn(4, 6), |v| keep_highest(v, 3)),
        ("5d4kl2", dn(5, 4), |v| keep_lowest(v, 2)),
        ("4d6d1", dn(4, 6), |v| keep_highest(v, 3)),
        ("5d6dh2", dn(5, 6), |v| keep_lowest(v, 3)),
        ("6d4dh1dl1", dn(6, 4), |v| sorted_desc(v)[1..5].iter().sum()),
        ("5d4kh3kl2", dn(5, 4), |v| sorted_desc(v)[1..3].iter().sum()),
        ("4d6kh0", dn(4, 6), |_| 0),
        ("2d20kh1+5", dn(2, 20), |v| v[0].max(v[1]) + 5),
        ("4d6ke", dn(4, 6), |v| {
            v.iter().filter(|x| *x % 2 == 0).sum()
        }),
        ("5d6ko2", dn(5, 6), |v| {
            let odd: Vec<i64> = v.iter().copied().filter(|x| x % 2 != 0).collect();
            keep_highest(&odd, 2)
        }),
        ("5d10cs>=8", dn(5, 10), |v| count(v, |x| x >= 8)),
        ("4d10cs>=8sf1", dn(4, 10), |v| {
            count(v, |x| x >= 8) - count(v, |x| x == 1)
        }),
        ("4d6>=5", dn(4, 6), |v| count(v, |x| x >= 5)),
        ("4d6t5f1", dn(4, 6), |v| {
            count(v, |x| x >= 5) - count(v, |x| x <= 1)
        }),
        ("4d6cs", dn(4, 6), |v| count(v, |x| x == 6)),
        ("4d6cf<3", dn(4, 6), |v| count(v, |x| x < 3)),
        ("4d6ss(1|6)", dn(4, 6), |v| -count(v, |x| x == 1 || x == 6)),
        ("4d6cs>=5cs6", dn(4, 6), |v| {
            count(v, |x| x >= 5) + count(v, |x| x == 6)
        }),
        ("5d6kh2cs>=4", dn(5, 6), |v| {
            count(&sorted_desc(v)[..2], |x| x >= 4)
        }),
        ("4d6cs>=4kh2", dn(4, 6), |v| count(v, |x| x >= 4)),
        ("5d6kl3cs>=4dh1", dn(5, 6), |v| {
            count(&sorted_desc(v)[2..], |x| x >= 4)
        }),
        ("4d6cse", dn(4, 6), |v| count(v, |x| x % 2 == 0)),
        ("3d6min3", dn(3, 6), |v| v.iter().map(|x| *x.max(&3)).sum()),
        ("3d6max4", dn(3, 6), |v| v.iter().map(|x| *x.min(&4)).sum()),
        ("3d6min2max5kh2", dn(3, 6), |v| {
            let clamped: Vec<i64> = v.iter().map(|x| (*x).clamp(2, 5)).collect();
            keep_highest(&clamped, 2)
        }),
        ("1d6ro1", dn(2, 6), |v| if v[0] == 1 { v[1] } else { v[0] }),
        ("2d6ro<3", dn(4, 6), |v| {
            let first = if v[0] < 3 { v[1] } else { v[0] };
            let second = if v[2] < 3 { v[3] } else { v[2] };
            first + second
        }),
        ("2d4rr1", vec![vec![2, 3, 4]; 2], |v| v.iter().sum()),
        ("1d%", vec![d(100)], |v| v[0]),
        ("4dF", vec![vec![-1, 0, 1]; 4], |v| v.iter().sum()),
        ("d{1,1,2,3}*3", vec![vec![1, 1, 2, 3]], |v| v[0] * 3),
        ("2d{1,1,2,3}kh1", vec![vec![1, 1, 2, 3]; 2], |v| {
            v[0].max(v[1])
        }),
        ("3d{2,4,9}cs", vec![vec![2, 4, 9]; 3], |v| {
            count(v, |x| x == 9)
        }),
        ("3d{2,4,9}csl", vec![vec![2, 4, 9]; 3], |v| {
            count(v, |x| x == 2)
        }),
        ("(1d2)d4", vec![d(2), d(4), d(4)], |v| {
            if v[0] == 1 { v[1] } else { v[1] + v[2] }
        }),
        ("4d6kh(1d3)", vec![d(3), d(6), d(6), d(6), d(6)], |v| {
            keep_highest(&v[1..], v[0] as usize)
        }),
        ("3d6cs>=(1d3+3)", vec![d(3), d(6), d(6), d(6)], |v| {
            count(&v[1..], |x| x >= v[0] + 3)
        }),
        ("{1d6, 1d4}kh1", vec![d(6), d(4)], |v| v[0].max(v[1])),
        ("{1d4, 2, 1d4}kl2", vec![d(4), d(4)], |v| {
            keep_lowest(&[v[0], 2, v[1]], 2)
        }),
        ("{2d4, 1d4}cs>=3", dn(3, 4), |v| count(v, |x| x >= 3)),
        ("{2d4, 3}kh1cs>=3", dn(2, 4), |v| {
            // The larger element is kept; ties keep the leftmost (the dice).
            if v[0] + v[1] >= 3 {
                count(v, |x| x >= 3)
            } else {
                1
            }
        }),
        ("{1d4, 1d4}kh1cs>=3", dn(2, 4), |v| {
            i64::from(v[0].max(v[1]) >= 3)
        }),
        // A success comparison after a series counts its elements; `cs`
        // above counts the dice inside them.
        ("{3d4}>10", dn(3, 4), |v| {
            i64::from(v.iter().sum::<i64>() > 10)
        }),
        ("{3d4}<5", dn(3, 4), |v| {
            i64::from(v.iter().sum::<i64>() < 5)
        }),
        ("{3d4}>10f<5", dn(3, 4), |v| {
            let sum: i64 = v.iter().sum();
            i64::from(sum > 10) - i64::from(sum < 5)
        }),
        ("{2d4, 1d4}>=5", dn(3, 4), |v| {
            i64::from(v[0] + v[1] >= 5) + i64::from(v[2] >= 5)
        }),
        // The element 3 never reaches 4.
        ("{2d4, 1d4, 3}t4", dn(3, 4), |v| {
            i64::from(v[0] + v[1] >= 4) + i64::from(v[2] >= 4)
        }),
        ("{2d4, 1d4}kh1f<3", dn(3, 4), |v| {
            -i64::from((v[0] + v[1]).max(v[2]) < 3)
        }),
        // rpg-dice-roller's drops after a series drop elements.
        ("{1d6, 1d4}d1", vec![d(6), d(4)], |v| v[0].max(v[1])),
        ("{1d6, 1d4}dh", vec![d(6), d(4)], |v| v[0].min(v[1])),
        ("{1d4, 2, 1d4}DL2", vec![d(4), d(4)], |v| {
            keep_highest(&[v[0], 2, v[1]], 1)
        }),
        ("{2d4}d1", dn(2, 4), |_| 0),
        ("{1d4, 1d6}", vec![d(4), d(6)], |v| v[0] + v[1]),
        ("{1..3, 1d2}kh2", vec![d(2)], |v| 3 + 2.max(v[0])),
        ("1d6*2 - 1d4", vec![d(6), d(4)], |v| v[0] * 2 - v[1]),
        ("1d6/2 + 1d6 % 4", dn(2, 6), |v| v[0] / 2 + v[1] % 4),
        ("floor(1d6/4) + ceil(1d5/2)", vec![d(6), d(5)], |v| {
            v[0] / 4 + (v[1] + 1) / 2
        }),
        ("round(1d5/2) + round(-1d3/2)", vec![d(5), d(3)], |v| {
            (v[0] + 1) / 2 - (v[1] + 1) / 2
        }),
        (
            "abs(1d6-4) + min(1d6, 1d4) + max(1d2, 2)",
            vec![d(6), d(6), d(4), d(2)],
            |v| (v[0] - 4).abs() + v[1].min(v[2]) + 2,
        ),
        ("1d6 >= 4", vec![d(6)], |v| i64::from(v[0] >= 4)),
        ("-1d4 + 3[fire]", vec![d(4)], |v| 3 - v[0]),
        ("5 kh1", vec![], |_| 5),
        ("(1d4+1)kh1cs>=3", vec![d(4)], |v| i64::from(v[0] + 1 >= 3)),
    ];
    for (input, dice, total) in cases {
        assert_matches(input, &Limits::default(), &brute(&dice, total));
    }
}

#[test]
fn explosions_match_brute_force_under_a_cap() {
    let cases: Vec<Case> = vec![
        ("1d4!", dn(3, 4), |v| {
            chain(v, |x| x == 4, false).iter().sum()
        }),
        ("2d4!", dn(6, 4), |v| {
            let first: i64 = chain(&v[..3], |x| x == 4, false).iter().sum();
            first + chain(&v[3..], |x| x == 4, false).iter().sum::<i64>()
        }),
        ("1d4!>=3", dn(3, 4), |v| {
            chain(v, |x| x >= 3, false).iter().sum()
        }),
        ("1d4!!", dn(3, 4), |v| {
            chain(v, |x| x == 4, false).iter().sum()
        }),
        ("1d4!p", dn(3, 4), |v| {
            chain(v, |x| x == 4, true).iter().sum()
        }),
        ("2d4xo", dn(4, 4), |v| {
            let once = |a: i64, b: i64| a + if a == 4 { b } else { 0 };
            once(v[0], v[1]) + once(v[2], v[3])
        }),
        ("2d4!kh1", dn(6, 4), |v| {
            let mut all = chain(&v[..3], |x| x == 4, false);
            all.extend(chain(&v[3..], |x| x == 4, false));
            keep_highest(&all, 1)
        }),
        ("2d4!!kh1", dn(6, 4), |v| {
            let first: i64 = chain(&v[..3], |x| x == 4, false).iter().sum();
            first.max(chain(&v[3..], |x| x == 4, false).iter().sum())
        }),
        ("2d4!cs>=3", dn(6, 4), |v| {
            let mut all = chain(&v[..3], |x| x == 4, false);
            all.extend(chain(&v[3..], |x| x == 4, false));
            count(&all, |x| x >= 3)
        }),
        ("1d4!pcs3", dn(3, 4), |v| {
            count(&chain(v, |x| x == 4, true), |x| x == 3)
        }),
        ("1d4!!cs>=5", dn(3, 4), |v| {
            i64::from(chain(v, |x| x == 4, false).iter().sum::<i64>() >= 5)
        }),
        ("1d4!max3", dn(3, 4), |v| {
            chain(v, |x| x == 4, false).iter().map(|x| *x.min(&3)).sum()
        }),
        ("1d1!", vec![d(1)], |_| 3),
    ];
    for (input, dice, total) in cases {
        assert_matches(input, &capped(), &brute(&dice, total));
    }
}

/// One die under `ra`: the first draw, plus the second when the first
/// matches (once; the added die is not checked).
fn reroll_add(first: i64, second: i64, matches: impl Fn(i64) -> bool) -> Vec<i64> {
    if matches(first) {
        vec![first, second]
    } else {
        vec![first]
    }
}

fn keep_if(values: &[i64], test: impl Fn(i64) -> bool) -> i64 {
    values.iter().filter(|v| test(**v)).sum()
}

#[test]
fn avrae_notation_matches_brute_force() {
    let cases: Vec<Case> = vec![
        ("1d6ra1", dn(2, 6), |v| {
            reroll_add(v[0], v[1], |x| x == 1).iter().sum()
        }),
        ("2d4ra<3", dn(4, 4), |v| {
            let first: i64 = reroll_add(v[0], v[1], |x| x < 3).iter().sum();
            first + reroll_add(v[2], v[3], |x| x < 3).iter().sum::<i64>()
        }),
        ("1d4ra(1|4)", dn(2, 4), |v| {
            reroll_add(v[0], v[1], |x| x == 1 || x == 4).iter().sum()
        }),
        ("1d4rah", dn(2, 4), |v| {
            reroll_add(v[0], v[1], |x| x == 4).iter().sum()
        }),
        ("2d4ra4kh1", dn(4, 4), |v| {
            let mut all = reroll_add(v[0], v[1], |x| x == 4);
            all.extend(reroll_add(v[2], v[3], |x| x == 4));
            keep_highest(&all, 1)
        }),
        ("2d4ra>=3cs4", dn(4, 4), |v| {
            let mut all = reroll_add(v[0], v[1], |x| x >= 3);
            all.extend(reroll_add(v[2], v[3], |x| x >= 3));
            count(&all, |x| x == 4)
        }),
        // As with explosions, the added die is rerolled by `ro` too.
        ("1d4ro1ra1", dn(4, 4), |v| {
            let first = if v[0] == 1 { v[1] } else { v[0] };
            let added = if v[2] == 1 { v[3] } else { v[2] };
            first + if first == 1 { added } else { 0 }
        }),
        ("4d6k>3", dn(4, 6), |v| keep_if(v, |x| x > 3)),
        ("4d6k<3", dn(4, 6), |v| keep_if(v, |x| x < 3)),
        ("4d6k>=5", dn(4, 6), |v| keep_if(v, |x| x >= 5)),
        ("4d6k<=2", dn(4, 6), |v| keep_if(v, |x| x <= 2)),
        ("4d6k=6", dn(4, 6), |v| keep_if(v, |x| x == 6)),
        ("4d6p<3", dn(4, 6), |v| keep_if(v, |x| x >= 3)),
        ("4d6p>4", dn(4, 6), |v| keep_if(v, |x| x <= 4)),
        ("4d6p=1", dn(4, 6), |v| keep_if(v, |x| x != 1)),
        ("4d6p>=5cs>=4", dn(4, 6), |v| count(v, |x| x == 4)),
        ("4d6cs>=4k>5", dn(4, 6), |v| count(v, |x| x >= 4)),
        ("4d6k<5kh1", dn(4, 6), |v| {
            v.iter().copied().filter(|x| *x < 5).max().unwrap_or(0)
        }),
        ("4d6kh3k>2", dn(4, 6), |v| {
            keep_if(&sorted_desc(v)[..3], |x| x > 2)
        }),
        ("3d6min2k>2", dn(3, 6), |v| {
            let clamped: Vec<i64> = v.iter().map(|x| *x.max(&2)).collect();
            keep_if(&clamped, |x| x > 2)
        }),
        ("4d6k>(1d3+2)", vec![d(3), d(6), d(6), d(6), d(6)], |v| {
            keep_if(&v[1..], |x| x > v[0] + 2)
        }),
        ("(1d6, 1d6)kh1", dn(2, 6), |v| v[0].max(v[1])),
        ("(1d4+1, 3, 2d4kl1)kh1", dn(3, 4), |v| {
            (v[0] + 1).max(3).max(v[1].min(v[2]))
        }),
        ("(1d6,)", dn(1, 6), |v| v[0]),
        ("(1d6, 1d4)k>3", vec![d(6), d(4)], |v| keep_if(v, |x| x > 3)),
        ("(2d4, 1d6)p1", vec![d(4), d(4), d(6)], |v| {
            (v[0] + v[1]).max(v[2])
        }),
        ("(2d4, 1d6)cs>=3", vec![d(4), d(4), d(6)], |v| {
            count(v, |x| x >= 3)
        }),
        ("{1d6, 1d4}p<3", vec![d(6), d(4)], |v| {
            keep_if(v, |x| x >= 3)
        }),
        ("(1d4)p<3", vec![d(4)], |v| keep_if(v, |x| x >= 3)),
    ];
    for (input, dice, total) in cases {
        assert_matches(input, &Limits::default(), &brute(&dice, total));
    }
    // Under the cap, explosions followed by a selection by value.
    let cases: Vec<Case> = vec![
        ("2d4!k>3", dn(6, 4), |v| {
            let mut all = chain(&v[..3], |x| x == 4, false);
            all.extend(chain(&v[3..], |x| x == 4, false));
            keep_if(&all, |x| x > 3)
        }),
        ("2d4!!k>5", dn(6, 4), |v| {
            let first: i64 = chain(&v[..3], |x| x == 4, false).iter().sum();
            let second: i64 = chain(&v[3..], |x| x == 4, false).iter().sum();
            keep_if(&[first, second], |x| x > 5)
        }),
        ("1d4!pp<3", dn(3, 4), |v| {
            keep_if(&chain(v, |x| x == 4, true), |x| x >= 3)
        }),
    ];
    for (input, dice, total) in cases {
        assert_matches(input, &capped(), &brute(&dice, total));
    }
    // Selections by value look at each die alone, so large pools stay
    // cheap: one die's outcomes, then a sum.
    for (input, mean) in [
        ("100d6k>3", ratio(250, 1)),
        ("100d6p<3", ratio(300, 1)),
        ("10d20ra20", ratio(441, 4)),
    ] {
        let odds = odds_with(input, &Limits::default());
        assert_eq!(odds.mean(), mean, "{input}");
    }
}

#[test]
fn reroll_until_is_the_exact_conditional() {
    let odds = odds_with("1d6rr<3", &Limits::default());
    let expected: Vec<(i64, BigRational)> = (3..=6).map(|v| (v, ratio(1, 4))).collect();
    assert_eq!(odds.outcomes(), expected.as_slice());
    // Every face matches: the roller stops at its cap, keeping a face.
    let odds = odds_with("1d6rr<7", &Limits::default());
    assert_eq!(odds.outcomes().len(), 6);
}

#[test]
fn deep_explosions_are_cut_with_a_tiny_reported_tail() {
    for (input, mean) in [("1d6!", 4.2), ("3d10!", 3.0 * 5.5 * 10.0 / 9.0)] {
        let odds = odds_with(input, &Limits::default());
        let tail = odds.tail().to_f64().unwrap_or(1.0);
        assert!(tail > 0.0 && tail < 1e-12, "{input}: tail {tail}");
        assert!((odds.mean_f64() - mean).abs() < 1e-9, "{input}");
        // The figures are those of the outcomes listed, the tail aside.
        let listed_mean: BigRational = odds
            .outcomes()
            .iter()
            .map(|(v, p)| p * BigInt::from(*v))
            .sum();
        assert_eq!(odds.mean(), listed_mean, "{input}");
        let listed_variance: BigRational = odds
            .outcomes()
            .iter()
            .map(|(v, p)| {
                let deviation = BigRational::from_integer(BigInt::from(*v)) - &listed_mean;
                p * &deviation * &deviation
            })
            .sum();
        assert_eq!(odds.variance(), listed_variance, "{input}");
        assert_eq!(odds.at_least(odds.min()), ratio(1, 1), "{input}");
        assert_eq!(
            odds.at_most(odds.max()),
            ratio(1, 1) - odds.tail(),
            "{input}"
        );
    }
    // Always exploding: the roller's cap ends the chain, nothing is cut.
    let odds = odds_with("1d1!", &Limits::default());
    assert_eq!(odds.outcomes(), &[(101, ratio(1, 1))]);
}

#[test]
fn derived_figures() {
    let odds = odds_with("1d20+5", &Limits::default());
    assert_eq!(odds.at_least(15), ratio(11, 20));
    assert_eq!(odds.chance(15), ratio(11, 20));
    assert_eq!(odds.at_most(15), ratio(1, 2));
    assert_eq!(odds.probability(6), ratio(1, 20));
    assert_eq!(odds.probability(5), ratio(0, 1));
    assert_eq!(odds.mean(), ratio(31, 2));
    assert_eq!((odds.min(), odds.max()), (6, 25));
    assert_eq!(odds.percentile(0.0), 6);
    assert_eq!(odds.percentile(50.0), 15);
    assert_eq!(odds.percentile(100.0), 25);
    let odds = odds_with("3d6", &Limits::default());
    assert_eq!(odds.variance(), ratio(35, 4));
    assert!((odds.sd() - 8.75f64.sqrt()).abs() < 1e-12);
    let sum: BigRational = odds.outcomes().iter().map(|(_, p)| p).sum();
    assert_eq!(sum, ratio(1, 1));
}

#[test]
fn large_pools_are_exact() {
    // 100d6: every probability over 6^100; the middle one by its count.
    let odds = odds_with("100d6", &Limits::default());
    assert_eq!(odds.outcomes().len(), 501);
    assert_eq!(odds.mean(), ratio(350, 1));
    assert_eq!(
        odds.probability(100).denom().to_string(),
        BigInt::from(6).pow(100).to_string()
    );
    // Keep highest among many: the top die of 20d6 is 6 unless none is.
    let odds = odds_with("20d6kh1", &Limits::default());
    let none_six = BigRational::new(BigInt::from(5).pow(20), BigInt::from(6).pow(20));
    assert_eq!(odds.probability(6), ratio(1, 1) - none_six);
    for input in ["20d6kh10", "10d10kh5", "10d10kl5", "50d6dl1"] {
        let sum: BigRational = odds_with(input, &Limits::default())
            .outcomes()
            .iter()
            .map(|(_, p)| p)
            .sum();
        assert_eq!(sum, ratio(1, 1), "{input}");
    }
}

/// Keep and drop among more dice: the order-statistics sweep in machine
/// words (totals up to 2^64, then 2^128), in big integers beyond, and in
/// maps when the sums spread too wide for dense rows.
#[test]
fn keep_and_drop_among_many_dice_match_brute_force() {
    let cases: Vec<Case> = vec![
        ("7d6kh3", dn(7, 6), |v| keep_highest(v, 3)),
        ("7d6kl4", dn(7, 6), |v| keep_lowest(v, 4)),
        ("7d5dh2dl1", dn(7, 5), |v| sorted_desc(v)[2..6].iter().sum()),
        ("6d8dl2", dn(6, 8), |v| keep_highest(v, 4)),
        ("8d3kh5kl2", dn(8, 3), |v| sorted_desc(v)[3..5].iter().sum()),
        ("6dFkh2", vec![vec![-1, 0, 1]; 6], |v| keep_highest(v, 2)),
        ("6d{1,1,2,5}kh3", vec![vec![1, 1, 2, 5]; 6], |v| {
            keep_highest(v, 3)
        }),
        ("7d6kh4cs>=5", dn(7, 6), |v| {
            count(&sorted_desc(v)[..4], |x| x >= 5)
        }),
        ("6d6min2kl3", dn(6, 6), |v| {
            let clamped: Vec<i64> = v.iter().map(|x| *x.max(&2)).collect();
            keep_lowest(&clamped, 3)
        }),
        ("3d6ro1kh2", dn(6, 6), |v| {
            let dice: Vec<i64> = v
                .chunks(2)
                .map(|d| if d[0] == 1 { d[1] } else { d[0] })
                .collect();
            keep_highest(&dice, 2)
        }),
        // Sums too spread for dense rows: the sweep over maps.
        ("5d{1,300000}kh2", vec![vec![1, 300_000]; 5], |v| {
            keep_highest(v, 2)
        }),
    ];
    for (input, dice, total) in &cases {
        assert_matches(input, &Limits::default(), &brute(dice, total));
    }
    // Compounding dice are one element each, kept by their totals.
    let compound: fn(&[i64]) -> i64 = |v| {
        let dice: Vec<i64> = v
            .chunks(3)
            .map(|d| chain(d, |x| x == 3, false).iter().sum())
            .collect();
        keep_highest(&dice, 2)
    };
    assert_matches("3d3!!kh2", &capped(), &brute(&dn(9, 3), compound));
}

/// The highest and lowest of `n` dice by their formulas, with totals in
/// one word, two words and beyond: `P(max <= v) = (v/f)^n`.
#[test]
fn highest_and_lowest_of_many_dice_are_exact() {
    for (n, faces) in [(20u32, 6i64), (40, 6), (60, 6), (30, 20)] {
        let all = BigInt::from(faces).pow(n);
        let highest = odds_with(&format!("{n}d{faces}kh1"), &Limits::default());
        let lowest = odds_with(&format!("{n}d{faces}kl1"), &Limits::default());
        for v in 1..=faces {
            let at_most = |v: i64| BigInt::from(v).pow(n);
            let expected = BigRational::new(at_most(v) - at_most(v - 1), all.clone());
            assert_eq!(highest.probability(v), expected, "{n}d{faces}kh1 = {v}");
            assert_eq!(
                lowest.probability(faces + 1 - v),
                expected,
                "{n}d{faces}kl1"
            );
        }
    }
    // Keeping every die is the plain sum, whatever the path.
    for input in ["12d6", "40d6", "60d6", "30d20"] {
        let kept = odds_with(&format!("{input}kh1000"), &Limits::default());
        assert_eq!(kept, odds_with(input, &Limits::default()), "{input}");
    }
}

#[test]
fn sums_of_identical_dice_match_brute_force() {
    let cases: Vec<Case> = vec![
        ("2d2", dn(2, 2), |v| v.iter().sum()),
        ("2d6", dn(2, 6), |v| v.iter().sum()),
        ("5d3", dn(5, 3), |v| v.iter().sum()),
        ("6d4", dn(6, 4), |v| v.iter().sum()),
        ("4d10", dn(4, 10), |v| v.iter().sum()),
        ("3d20", dn(3, 20), |v| v.iter().sum()),
        ("5dF", vec![vec![-1, 0, 1]; 5], |v| v.iter().sum()),
        ("7d2", dn(7, 2), |v| v.iter().sum()),
        ("3d1", dn(3, 1), |v| v.iter().sum()),
        ("4d{1,1,2,2,3,3}", vec![vec![1, 1, 2, 2, 3, 3]; 4], |v| {
            v.iter().sum()
        }),
        ("4d{0,1,1,2}", vec![vec![0, 1, 1, 2]; 4], |v| v.iter().sum()),
        ("3d{-2..2}", vec![vec![-2, -1, 0, 1, 2]; 3], |v| {
            v.iter().sum()
        }),
    ];
    for (input, dice, total) in &cases {
        assert_matches(input, &Limits::default(), &brute(dice, total));
    }
}

/// The ways `n` dice of `faces` faces sum to `n + k`, by inclusion and
/// exclusion: `Σ_j (-1)^j C(n, j) C(k - j·faces + n - 1, n - 1)`.
fn ways_by_formula(n: u64, faces: u64, k: u64) -> BigInt {
    let binomial = |top: u64, bottom: u64| -> BigInt {
        (0..bottom).fold(BigInt::from(1), |acc, i| acc * (top - i) / (i + 1))
    };
    let mut ways = BigInt::from(0);
    for j in 0..=n.min(k / faces) {
        let term = binomial(n, j) * binomial(k - j * faces + n - 1, n - 1);
        ways += if j % 2 == 0 { term } else { -term };
    }
    ways
}

#[test]
fn many_identical_dice_are_exact() {
    // 1031 is a prime beyond the small factors tried when reducing.
    for (n, faces) in [(100u64, 6u64), (200, 10), (50, 20), (60, 2), (2, 1031)] {
        let input = format!("{n}d{faces}");
        let odds = odds_with(&input, &Limits::default());
        let width = n * (faces - 1) + 1;
        assert_eq!(odds.outcomes().len() as u64, width, "{input}");
        let all = BigInt::from(faces).pow(n as u32);
        for k in [0, 1, 2, faces, width / 3, width / 2, width - 2, width - 1] {
            let expected = BigRational::new(ways_by_formula(n, faces, k), all.clone());
            assert_eq!(
                odds.probability((n + k) as i64),
                expected,
                "{input} = {}",
                n + k
            );
        }
        let sum: BigRational = odds.outcomes().iter().map(|(_, p)| p).sum();
        assert_eq!(sum, ratio(1, 1), "{input}");
        let mean = BigRational::new(BigInt::from(n * (faces + 1)), BigInt::from(2));
        assert_eq!(odds.mean(), mean, "{input}");
        let variance = BigRational::new(BigInt::from(n * (faces * faces - 1)), BigInt::from(12));
        assert_eq!(odds.variance(), variance, "{input}");
    }
    // The most likely total of 100d6, 350, comes up 2.332 % of the time.
    let middle = odds_with("100d6", &Limits::default()).probability(350);
    assert!((middle.to_f64().unwrap_or(0.0) - 0.023_322_606).abs() < 1e-9);
}

#[test]
fn errors_are_the_rollers_or_too_complex() {
    let cases: &[(&str, ErrorKind)] = &[
        ("1d6/(1d2-1)", ErrorKind::DivisionByZero),
        ("1d(1d3-1)", ErrorKind::BadFaces),
        ("20000d6", ErrorKind::TooManyDice),
        ("$attack", ErrorKind::Unresolved),
        ("1000d1000kh500", ErrorKind::TooComplex),
        ("1d1000000*1d1000000", ErrorKind::TooComplex),
        ("2d1000000", ErrorKind::TooComplex),
        ("3000d20", ErrorKind::TooComplex),
        ("30d30ke", ErrorKind::TooComplex),
    ];
    for (input, kind) in cases {
        let error = parse(input).odds(&Limits::default()).unwrap_err();
        assert_eq!(error.kind(), *kind, "{input}: {error}");
        if *kind == ErrorKind::TooComplex {
            assert!(
                error
                    .message()
                    .starts_with("too complex to compute exactly")
            );
        }
    }
}

/// Chi-square of `samples` rolls against the exact distribution, with
/// outcomes merged until each bin expects at least 5.
fn chi_square(input: &str, samples: usize, seed: u64) -> (f64, usize) {
    let limits = Limits::default();
    let expr = parse(input);
    let odds = odds_with(input, &limits);
    let mut observed: BTreeMap<i64, usize> = BTreeMap::new();
    let mut generator = rng(seed);
    for total in expr.totals(&mut generator, &limits).take(samples) {
        *observed.entry(total.expect("rolls")).or_insert(0) += 1;
    }
    let mut statistic = 0.0;
    let mut bins = 0;
    let (mut expected, mut seen) = (0.0, 0usize);
    for (value, probability) in odds.outcomes() {
        expected += probability.to_f64().unwrap_or(0.0) * samples as f64;
        seen += observed.remove(value).unwrap_or(0);
        if expected >= 5.0 {
            statistic += (seen as f64 - expected).powi(2) / expected;
            bins += 1;
            (expected, seen) = (0.0, 0);
        }
    }
    assert!(
        observed.is_empty(),
        "{input}: rolled totals outside the distribution: {observed:?}"
    );
    if expected > 0.0 {
        statistic += (seen as f64 - expected).powi(2) / expected;
        bins += 1;
    }
    (statistic, bins)
}

#[test]
fn sampled_rolls_agree_with_the_distribution() {
    let inputs = [
        "3d6",
        "4d6kh3",
        "20d6kh10",
        "10d10kl5",
        "6d6dh2dl1",
        "10d10cs>=8sf1",
        "6d10!",
        "4d6!!",
        "5d6!p",
        "4d8xo",
        "3d6!kh2",
        "4d6ke",
        "2d6ro1 + 1d6rr<3",
        "4d6min2max5",
        "4dF + d%",
        "d{1,1,2,3}*3",
        "{2d6, 1d8, 1d10}kh2cs>=5",
        "{4d6}>10f<8 + {2d6, 1d8}t7",
        "{2d6, 1d8, 1d10}dh1",
        "(1d4)d(1d6+2)",
        "floor(3d6/4) * 1d4",
        "6d6ra1",
        "4d6k>3 + 2d20p<5",
        "(1d20, 1d20)kh1",
        "10d10k>=8cs10",
    ];
    for (seed, input) in inputs.into_iter().enumerate() {
        let (statistic, bins) = chi_square(input, 20_000, seed as u64);
        let freedom = bins.saturating_sub(1).max(1) as f64;
        // Far beyond the 1e-6 quantile: a wrong distribution scores in the
        // hundreds or thousands with 20,000 samples.
        let bound = freedom + 8.0 * (2.0 * freedom).sqrt() + 25.0;
        assert!(
            statistic < bound,
            "{input}: chi-square {statistic:.1} over {bins} bins"
        );
    }
}

/// All the dice of `count` exploding chains of `per_chain` draws each.
fn exploded_pool(v: &[i64], per_chain: usize, explodes: fn(i64) -> bool) -> Vec<i64> {
    v.chunks(per_chain)
        .flat_map(|draws| chain(draws, explodes, false))
        .collect()
}

/// All the dice of chains of two draws under `xo` or `ra`.
fn once_pool(v: &[i64], matches: fn(i64) -> bool) -> Vec<i64> {
    v.chunks(2)
        .flat_map(|d| reroll_add(d[0], d[1], matches))
        .collect()
}

#[test]
fn keep_and_drop_after_explosions_match_brute_force() {
    let cases: Vec<Case> = vec![
        ("3d4!kh2", dn(9, 4), |v| {
            keep_highest(&exploded_pool(v, 3, |x| x == 4), 2)
        }),
        ("3d4!>=3kh2", dn(9, 4), |v| {
            keep_highest(&exploded_pool(v, 3, |x| x >= 3), 2)
        }),
        ("3d4!kl2", dn(9, 4), |v| {
            keep_lowest(&exploded_pool(v, 3, |x| x == 4), 2)
        }),
        ("2d6!kh3", dn(6, 6), |v| {
            keep_highest(&exploded_pool(v, 3, |x| x == 6), 3)
        }),
        ("3d4!dl1", dn(9, 4), |v| {
            let pool = exploded_pool(v, 3, |x| x == 4);
            keep_highest(&pool, pool.len() - 1)
        }),
        ("3d4!dh1", dn(9, 4), |v| {
            let pool = exploded_pool(v, 3, |x| x == 4);
            keep_lowest(&pool, pool.len() - 1)
        }),
        // Low faces explode: the mirror image.
        ("3d4!<=1kl2", dn(9, 4), |v| {
            keep_lowest(&exploded_pool(v, 3, |x| x <= 1), 2)
        }),
        ("3d4!<=1kh2", dn(9, 4), |v| {
            keep_highest(&exploded_pool(v, 3, |x| x <= 1), 2)
        }),
        ("3d4!>=3dl2", dn(9, 4), |v| {
            let pool = exploded_pool(v, 3, |x| x >= 3);
            keep_highest(&pool, pool.len() - 2)
        }),
        // Every face explodes: the cap ends every chain.
        ("2d3!>=1kh2", dn(6, 3), |v| {
            keep_highest(&exploded_pool(v, 3, |x| x >= 1), 2)
        }),
        ("3d4xokh2", dn(6, 4), |v| {
            keep_highest(&once_pool(v, |x| x == 4), 2)
        }),
        ("3d6ra1kl2", dn(6, 6), |v| {
            keep_lowest(&once_pool(v, |x| x == 1), 2)
        }),
        ("3d6ra1kh2", dn(6, 6), |v| {
            keep_highest(&once_pool(v, |x| x == 1), 2)
        }),
        ("3d3!!kh2", dn(9, 3), |v| {
            let dice: Vec<i64> = v
                .chunks(3)
                .map(|d| chain(d, |x| x == 3, false).iter().sum())
                .collect();
            keep_highest(&dice, 2)
        }),
    ];
    for (input, dice, total) in &cases {
        assert_matches(input, &capped(), &brute(dice, total));
    }
}

/// With explosions cut (not capped), the split by exploding faces gives
/// what listing every pool gives, tail included: `k>0` keeps every die
/// but sends the pool down the listing.
#[test]
fn keep_after_cut_explosions_equals_listing_every_pool() {
    for input in [
        "3d6!kh2",
        "4d6!kh3",
        "2d4!>=3kh1",
        "4d6!kl2",
        "3d6!!kh2",
        "3d6!dl1",
        "3d6!dh1kh2",
    ] {
        let fast = odds_with(input, &Limits::default());
        let generous = Limits {
            max_odds_work: 1 << 40,
            ..Limits::default()
        };
        let listed = odds_with(&format!("{input}k>0"), &generous);
        assert!(!fast.tail().is_zero(), "{input}: a tail expected");
        assert_eq!(fast, listed, "{input}");
    }
}

/// Exploding pools keep dice by their own faces: more dice than without the
/// explosions, so a higher mean, but never above `k` times the faces.
#[test]
fn common_exploding_pools_with_keep_are_exact() {
    for (input, unexploded, most) in [
        ("6d10!kh3", "6d10kh3", 30.0),
        ("10d6!kh5", "10d6kh5", 30.0),
        ("4d6!>=5kh3", "4d6kh3", 18.0),
        ("20d6!kh10", "20d6kh10", 60.0),
        ("20d6ra1kh10", "20d6kh10", 60.0),
    ] {
        let odds = odds_with(input, &Limits::default());
        let listed: BigRational = odds.outcomes().iter().map(|(_, p)| p).sum();
        assert_eq!(listed + odds.tail(), ratio(1, 1), "{input}");
        let least = odds_with(unexploded, &Limits::default()).mean_f64();
        let mean = odds.mean_f64();
        assert!(mean > least && mean < most, "{input}: mean {mean}");
    }
}

/// A raised cancel flag stops exact odds at the budget's next read of it (the
/// first spending), with an error of its own kind; a flag that stays down
/// changes nothing.
#[test]
fn a_raised_cancel_flag_stops_exact_odds() {
    let limits = Limits::default();
    for input in ["100d6", "10d20kh3", "4d6!+1d8", "{1d4,2d6}kh1"] {
        let expr = dice_core::parse_with(input, &limits).unwrap();
        let lowered = Arc::new(AtomicBool::new(false));
        assert_eq!(
            expr.odds_cancellable(&limits, Some(lowered)).ok(),
            expr.odds(&limits).ok(),
            "{input}"
        );

        let raised = Arc::new(AtomicBool::new(true));
        let error = expr
            .odds_cancellable(&limits, Some(raised))
            .expect_err(input);

        assert_eq!(error.kind(), ErrorKind::Cancelled, "{input}");
        assert_eq!(error.reason().id(), "cancelled");
        assert_eq!(error.message(), "the computation was cancelled");
    }
}
