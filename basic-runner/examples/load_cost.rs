//! What loading (and so checking) a listing costs, optimized: the engine's part of
//! the web editor's check (issue 25). Median and 99th percentile of 200 loads of
//! each file given, e.g. the listings `cargo bench -p tavern --bench editor_check`
//! writes when `TAVERN_BENCH_LISTINGS` names a folder:
//! `cargo run --release -p basic-runner --example load_cost -- DIR/*.bas`.

use std::time::{Duration, Instant};

use basic_runner::{Limits, Program};

const RUNS: usize = 200;

fn main() {
    let limits = Limits::default();
    for path in std::env::args().skip(1) {
        let source = std::fs::read_to_string(&path).expect("the listing reads");
        let mut times: Vec<Duration> = Vec::with_capacity(RUNS);
        let mut diagnostics = 0;
        for _ in 0..RUNS + 10 {
            let started = Instant::now();
            let program = Program::load(&source, &limits).expect("the listing loads");
            diagnostics = program.diagnostics().len();
            times.push(started.elapsed());
        }
        let mut times = times.split_off(10);
        times.sort();
        let median = times[times.len() / 2];
        let p99 = times[(times.len() * 99).div_ceil(100) - 1];
        println!(
            "{path}: {} lines, {diagnostics} syntax errors: median {:.2} ms, p99 {:.2} ms",
            source.lines().count(),
            median.as_secs_f64() * 1e3,
            p99.as_secs_f64() * 1e3
        );
    }
}
