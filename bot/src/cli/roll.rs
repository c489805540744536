//! `tavern roll [--seed N] [--json] [--samples N] EXPR`.

use std::process::ExitCode;

/// Roll a dice expression.
#[derive(Debug, clap::Args)]
pub struct RollArgs {
    /// Seed the dice, for reproducible results.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Print one JSON object: total, breakdown and dice, or an error with its span.
    #[arg(long)]
    pub json: bool,
    /// Print N totals, one per line.
    #[arg(long, value_name = "N")]
    pub samples: Option<u64>,
    /// The expression, e.g. 4d6kh3 or "1d20+5 to hit".
    #[arg(required = true, num_args = 1.., allow_hyphen_values = true)]
    pub expr: Vec<String>,
}

pub fn run(_args: &RollArgs) -> ExitCode {
    eprintln!("tavern roll: waiting for dice-core");
    ExitCode::from(70)
}
