//! Rolls each argument and prints both renderings, or the error with its
//! caret line: `cargo run -p dice-core --example roll -- '4d6kh3' '2d6!!'`.
//! `SEED=n` fixes the generator (default 42).

use rand::SeedableRng;

fn main() {
    let limits = dice_core::Limits::default();
    let seed: u64 = std::env::var("SEED")
        .ok()
        .and_then(|seed| seed.parse().ok())
        .unwrap_or(42);
    for input in std::env::args().skip(1) {
        let expr = match dice_core::parse(&input) {
            Ok(expr) => expr,
            Err(error) => {
                println!("{}", error.caret(&input));
                continue;
            }
        };
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        match expr.roll(&mut rng, &limits) {
            Ok(roll) => {
                println!("{}", roll.to_plain(limits.render_budget));
                println!("{}", roll.to_markdown(limits.render_budget));
            }
            Err(error) => println!("{}", error.caret(&input)),
        }
    }
}
