//! `cargo bench -p dice-core --bench odds`: exact distributions of the issue's
//! expressions (parse plus [`Expr::odds`](dice_core::Expr::odds)), side by
//! side with `eurydice_engine` (AnyDice's language, exact rationals) running
//! the same distribution in its own spelling, source to distribution.
//! `benches/odds_icepool.py` times icepool on the same expressions.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use dice_core::Limits;

/// Our spelling and eurydice's. `10d10cs>=8sf1` is a sum of per-die scores
/// there (+1 for 8 to 10, -1 for a 1); exploding d10s follow 12 explosions
/// there, about as deep as our 1e-12 cut (13 levels).
pub const CASES: &[(&str, &str)] = &[
    ("3d6", "output 3d6"),
    ("4d6kh3", "output [highest 3 of 4d6]"),
    ("8d6", "output 8d6"),
    ("100d6", "output 100d6"),
    ("50d20", "output 50d20"),
    ("10d10cs>=8sf1", "output 10d{-1,0,0,0,0,0,0,1,1,1}"),
    (
        "6d10!",
        "set \"explode depth\" to 12\noutput 6d[explode d10]",
    ),
    ("2d20kh1+5", "output [highest 1 of 2d20] + 5"),
    ("20d6kh10", "output [highest 10 of 20d6]"),
    ("10d10kh5", "output [highest 5 of 10d10]"),
    ("4dF", "output 4d{-1,0,1}"),
    ("d{1,1,2,3}*3", "output d{1,1,2,3}*3"),
];

fn odds(c: &mut Criterion) {
    let limits = Limits::default();
    for (ours, theirs) in CASES {
        let mut group = c.benchmark_group(format!("odds/{ours}"));
        group.bench_function(BenchmarkId::from_parameter("tavern"), |b| {
            b.iter(|| {
                let expr = dice_core::parse(black_box(ours)).expect("parses");
                black_box(expr.odds(&limits).expect("computes"))
            });
        });
        group.bench_function(BenchmarkId::from_parameter("eurydice"), |b| {
            b.iter(|| {
                let mut engine = eurydice_engine::Engine::new();
                let report = engine.run_source(black_box(theirs));
                assert!(report.diagnostics.first_error().is_none(), "{theirs}");
                black_box(report)
            });
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2));
    targets = odds
}
criterion_main!(benches);
