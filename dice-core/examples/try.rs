use rand::SeedableRng;
fn main() {
    let limits = dice_core::Limits::default();
    let seed: u64 = std::env::var("SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(42);
    for input in std::env::args().skip(1) {
        match dice_core::parse(&input) {
            Ok(expr) => {
                let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
                match expr.roll(&mut rng, &limits) {
                    Ok(roll) => println!(
                        "{input:30} => {} | {}",
                        roll.to_plain(2000),
                        roll.to_markdown(2000)
                    ),
                    Err(e) => println!(
                        "{input:30} => ROLL ERROR {:?}\n{}",
                        e.kind(),
                        e.caret(&input)
                    ),
                }
            }
            Err(e) => println!(
                "{input:30} => PARSE ERROR {:?}\n{}",
                e.kind(),
                e.caret(&input)
            ),
        }
    }
}
