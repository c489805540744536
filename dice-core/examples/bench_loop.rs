//! Parses and rolls one expression `n` times with dice-core, tyche or ndm
//! (or rolls it from dice-core's cache: `cached`),
//! for instruction counts that do not depend on how busy the machine is:
//!
//! ```sh
//! cargo build --release -p dice-core --example bench_loop
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/examples/bench_loop dice-core '4d6kh3' 20000
//! ```
//!
//! (callgrind prints the total as "Collected"; divide by `n`.)

use std::hint::black_box;

use rand::SeedableRng;

fn main() {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_else(|| "dice-core".to_string());
    let input = args.next().unwrap_or_else(|| "4d6kh3".to_string());
    let n: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(20_000);
    let limits = dice_core::Limits::default();
    let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
    let mut roller = tyche::dice::roller::FastRand::with_seed(1);
    let mut cache = dice_core::ExprCache::new(64);
    let mut checksum = 0i64;
    for _ in 0..n {
        checksum += match which.as_str() {
            "tyche" => black_box(&input)
                .parse::<tyche::Expr>()
                .ok()
                .and_then(|expr| expr.eval(&mut roller).ok()?.calc().ok())
                .map_or(0, i64::from),
            "ndm" => black_box(&input)
                .parse::<ndm::RollSet>()
                .map_or(0, |set| set.words.len() as i64),
            "cached" => cache
                .get_or_parse(black_box(&input))
                .ok()
                .and_then(|expr| expr.roll(&mut rng, &limits).ok())
                .map_or(0, |roll| roll.total()),
            _ => dice_core::parse(black_box(&input))
                .ok()
                .and_then(|expr| expr.roll(&mut rng, &limits).ok())
                .map_or(0, |roll| roll.total()),
        };
    }
    println!("{checksum}");
}
