//! Prints the exact distribution's summary of each argument, or the error
//! with its caret line: `cargo run -p dice-core --example odds -- '4d6kh3'`.
//! Prints the time each took. Used to measure the peak memory and time of hostile expressions
//! (`/usr/bin/time -v target/release/examples/odds '2d20!(o)kh1'`).

fn main() {
    let limits = dice_core::Limits::default();
    for input in std::env::args().skip(1) {
        let started = std::time::Instant::now();
        let odds = dice_core::parse_with(&input, &limits).and_then(|expr| expr.odds(&limits));
        let elapsed = started.elapsed().as_secs_f64() * 1000.0;
        match odds {
            Ok(odds) => println!(
                "{input}: {} outcomes, {}..{}, mean {:.4} ({elapsed:.1} ms)",
                odds.outcomes().len(),
                odds.min(),
                odds.max(),
                odds.mean_f64()
            ),
            Err(error) => println!("{}\n({elapsed:.1} ms)", error.caret(&input)),
        }
    }
}
