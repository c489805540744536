//! `tavern odds [--json] [--chart FILE.png] EXPR`: the exact distribution.
//!
//! Exit status: 0 with the distribution, 2 when the expression cannot be
//! parsed or is too complex (the caret message on stderr, or
//! `{"error": "<message>"}` on stdout with `--json`).

use std::path::PathBuf;
use std::process::ExitCode;

use dice_core::{Limits, Odds};

use crate::chart::{self, View};

/// Print the exact probability distribution of a dice expression.
#[derive(Debug, clap::Args)]
pub struct OddsArgs {
    /// Print one JSON object: {"dist": {"<value>": "<p/q>", ...}, "mean", "sd", "tail"}.
    #[arg(long)]
    pub json: bool,
    /// Also write a PNG bar chart of the distribution to FILE.
    #[arg(long, value_name = "FILE.png")]
    pub chart: Option<PathBuf>,
    /// The expression, e.g. 4d6kh3 or "10d10cs>=8sf1".
    #[arg(required = true, num_args = 1.., allow_hyphen_values = true)]
    pub expr: Vec<String>,
}

const INVALID: u8 = 2;

pub fn run(args: &OddsArgs) -> ExitCode {
    let input = args.expr.join(" ");
    let limits = Limits::default();
    let odds = match dice_core::parse_with(&input, &limits).and_then(|expr| expr.odds(&limits)) {
        Ok(odds) => odds,
        Err(error) => {
            if args.json {
                println!("{}", serde_json::json!({ "error": error.message() }));
            } else {
                eprintln!("{}", error.caret(&input));
            }
            return ExitCode::from(INVALID);
        }
    };
    if let Some(path) = &args.chart {
        let written = chart::png(&input, &odds, View::Exactly)
            .and_then(|bytes| std::fs::write(path, bytes).map_err(|e| e.to_string()));
        if let Err(error) = written {
            eprintln!("tavern odds: cannot write {}: {error}", path.display());
            return ExitCode::FAILURE;
        }
    }
    if args.json {
        println!("{}", json(&odds));
    } else {
        print!("{}", chart::summary(&input, &odds, None));
        print!("{}", chart::text_histogram(&odds, View::Exactly, 40));
    }
    ExitCode::SUCCESS
}

/// `{"dist": {"3": "1/216", ...}, "mean": 10.5, "sd": 2.958, "tail": "1/..."}`.
pub fn json(odds: &Odds) -> serde_json::Value {
    let dist: serde_json::Map<String, serde_json::Value> = odds
        .outcomes()
        .iter()
        .map(|(value, p)| (value.to_string(), serde_json::Value::from(p.to_string())))
        .collect();
    let mut object = serde_json::json!({
        "dist": dist,
        "mean": odds.mean_f64(),
        "sd": odds.sd(),
    });
    if !num_traits::Zero::is_zero(odds.tail()) {
        object["tail"] = serde_json::Value::from(odds.tail().to_string());
    }
    object
}
