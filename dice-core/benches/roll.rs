//! `cargo bench -p dice-core`: parse, and parse plus roll, of the issue's
//! expressions, side by side with the Rust peers `tyche` and `ndm` where they
//! support the expression (in their own spelling), plus cached rolling.
//!
//! Each peer rolls with its own default generator (tyche: fastrand's wyrand;
//! ndm: rand's thread generator, which it does not let callers replace);
//! dice-core rolls with `rand::rngs::SmallRng` (xoshiro256++), the closest in
//! kind to wyrand. The `StdRng` (ChaCha12) rows show what the bot's seeded
//! generator costs.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use dice_core::{ExprCache, Limits};
use rand::SeedableRng;
use rand::rngs::{SmallRng, StdRng};

/// The expressions, with the spelling each peer needs (None: the
/// peer cannot express it).
struct Case {
    ours: &'static str,
    tyche: Option<&'static str>,
    ndm: Option<&'static str>,
}

const CASES: &[Case] = &[
    Case {
        ours: "1d20+5",
        tyche: Some("1d20+5"),
        ndm: Some("1d20+5"),
    },
    Case {
        ours: "4d6kh3",
        tyche: Some("4d6kh3"),
        ndm: Some("4d6:h3"),
    },
    Case {
        ours: "8d6",
        tyche: Some("8d6"),
        ndm: Some("8d6"),
    },
    Case {
        ours: "100d6",
        tyche: Some("100d6"),
        ndm: Some("100d6"),
    },
    Case {
        ours: "10d10!",
        tyche: Some("10d10x"),
        ndm: Some("10d10!"),
    },
    Case {
        ours: "(1d20+3)*2-1d4",
        tyche: Some("(1d20+3)*2-1d4"),
        ndm: None,
    },
    Case {
        ours: "{d6,d8,d10}kh2cs>=5",
        tyche: None,
        ndm: None,
    },
];

fn parse_only(c: &mut Criterion) {
    let mut group = c.benchmark_group("parse");
    group.throughput(Throughput::Elements(1));
    for case in CASES {
        group.bench_with_input(
            BenchmarkId::new("dice-core", case.ours),
            case.ours,
            |b, input| {
                b.iter(|| dice_core::parse(black_box(input)).map(|expr| expr.source().len()))
            },
        );
        if let Some(input) = case.tyche {
            group.bench_with_input(BenchmarkId::new("tyche", case.ours), input, |b, input| {
                b.iter(|| black_box(input).parse::<tyche::Expr>().is_ok())
            });
        }
    }
    group.finish();
}

fn parse_and_roll(c: &mut Criterion) {
    let mut group = c.benchmark_group("parse+roll");
    group.throughput(Throughput::Elements(1));
    let limits = Limits::default();
    for case in CASES {
        let mut rng = SmallRng::seed_from_u64(1);
        group.bench_with_input(
            BenchmarkId::new("dice-core", case.ours),
            case.ours,
            |b, input| {
                b.iter(|| {
                    let expr = dice_core::parse(black_box(input)).ok()?;
                    expr.roll(&mut rng, &limits).ok().map(|roll| roll.total())
                })
            },
        );
        if let Some(input) = case.tyche {
            let mut roller = tyche::dice::roller::FastRand::with_seed(1);
            group.bench_with_input(BenchmarkId::new("tyche", case.ours), input, |b, input| {
                b.iter(|| {
                    let expr: tyche::Expr = black_box(input).parse().ok()?;
                    expr.eval(&mut roller).ok()?.calc().ok()
                })
            });
        }
        if let Some(input) = case.ndm {
            // ndm rolls while it parses.
            group.bench_with_input(BenchmarkId::new("ndm", case.ours), input, |b, input| {
                b.iter(|| {
                    black_box(input)
                        .parse::<ndm::RollSet>()
                        .ok()
                        .map(|set| set.words.len())
                })
            });
        }
    }
    group.finish();
}

fn rolling(c: &mut Criterion) {
    let mut group = c.benchmark_group("roll");
    group.throughput(Throughput::Elements(1));
    let limits = Limits::default();
    let mut cache = ExprCache::new(256);
    let mut rng = SmallRng::seed_from_u64(2);
    group.bench_function("dice-core cached 4d6kh3", |b| {
        b.iter(|| {
            let expr = cache.get_or_parse(black_box("4d6kh3")).ok()?;
            expr.roll(&mut rng, &limits).ok().map(|roll| roll.total())
        })
    });
    let mut std_rng = StdRng::seed_from_u64(2);
    group.bench_function("dice-core cached 4d6kh3 (StdRng)", |b| {
        b.iter(|| {
            let expr = cache.get_or_parse(black_box("4d6kh3")).ok()?;
            expr.roll(&mut std_rng, &limits)
                .ok()
                .map(|roll| roll.total())
        })
    });
    let Ok(parsed) = dice_core::parse("4d6kh3") else {
        return;
    };
    let mut totals_rng = SmallRng::seed_from_u64(3);
    let mut totals = parsed.totals(&mut totals_rng, &limits);
    group.bench_function("dice-core totals 4d6kh3 (--samples)", |b| {
        b.iter(|| totals.next())
    });
    group.finish();
}

criterion_group!(benches, parse_only, parse_and_roll, rolling);
criterion_main!(benches);
