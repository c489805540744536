use dice_core::{Expr, Limits, Roll};
use rand::SeedableRng;
use rand::rngs::StdRng;

pub fn rng(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed)
}

pub fn parse(input: &str) -> Expr {
    match dice_core::parse(input) {
        Ok(expr) => expr,
        Err(error) => panic!("{input:?} should parse:\n{}", error.caret(input)),
    }
}

pub fn roll_seeded(input: &str, seed: u64) -> Roll {
    let expr = parse(input);
    match expr.roll(&mut rng(seed), &Limits::default()) {
        Ok(roll) => roll,
        Err(error) => panic!("{input:?} should roll:\n{}", error.caret(input)),
    }
}

/// The total of an expression whose value does not depend on the dice.
pub fn total(input: &str) -> i64 {
    let first = roll_seeded(input, 1).total();
    let second = roll_seeded(input, 2).total();
    assert_eq!(first, second, "{input:?} should not depend on the dice");
    first
}

/// Runs `check` on the rolls of `input` for seeds 0..n.
pub fn for_seeds(input: &str, n: u64, mut check: impl FnMut(&Roll)) {
    for seed in 0..n {
        check(&roll_seeded(input, seed));
    }
}
