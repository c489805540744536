//! `tavern roll [--seed N] [--json] [--samples N] [--lang de|en] EXPR`.
//!
//! Exit status: 0 after a roll, 2 when the expression cannot be parsed or rolled
//! (with the caret message on stderr, in the language of `--lang` or the
//! environment, or `{"error": …}` on stdout with `--json`, always English: it is
//! read by programs).

use std::io::Write as _;
use std::process::ExitCode;

use dice_core::Limits;
use rand::SeedableRng;
use rand::rngs::StdRng;

/// Roll a dice expression.
#[derive(Debug, Clone, clap::Args)]
pub struct RollArgs {
    /// Seed the dice, for reproducible results.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Print one JSON object: total, breakdown and dice, or an error with its span.
    #[arg(long)]
    pub json: bool,
    /// Print N totals, one per line (for statistics).
    #[arg(long, value_name = "N")]
    pub samples: Option<u64>,
    /// The language of error messages: de or en (default: the environment's LANG,
    /// else English).
    #[arg(long, value_name = "de|en", value_parser = super::parse_lang)]
    pub lang: Option<crate::i18n::Lang>,
    /// The expression, e.g. 4d6kh3 or "1d20+5 to hit".
    #[arg(required = true, num_args = 1.., allow_hyphen_values = true)]
    pub expr: Vec<String>,
}

const INVALID: u8 = 2;

pub fn run(args: &RollArgs) -> ExitCode {
    let merged = super::with_trailing_options(args, &args.expr, |trailing| RollArgs {
        seed: trailing.seed.or(args.seed),
        json: trailing.json || args.json,
        samples: trailing.samples.or(args.samples),
        lang: trailing.lang.or(args.lang),
        expr: trailing.expr,
    });
    let args = match merged {
        Ok(args) => args,
        Err(code) => return code,
    };
    let args = &args;
    let input = args.expr.join(" ");
    let limits = Limits::default();
    let mut rng = match args.seed {
        Some(seed) => StdRng::seed_from_u64(seed),
        None => StdRng::from_os_rng(),
    };
    let expr = match dice_core::parse_with(&input, &limits) {
        Ok(expr) => expr,
        Err(error) => return invalid(args, &input, &error),
    };
    if let Some(samples) = args.samples {
        return print_samples(args, &input, &expr, &mut rng, &limits, samples);
    }
    let roll = match expr.roll(&mut rng, &limits) {
        Ok(roll) => roll,
        Err(error) => return invalid(args, &input, &error),
    };
    let text = if args.json {
        match serde_json::to_string(&roll) {
            Ok(json) => json,
            Err(error) => {
                eprintln!("tavern roll: {error}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        roll.to_plain(usize::MAX)
    };
    if writeln!(std::io::stdout(), "{text}").is_err() {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

fn print_samples(
    args: &RollArgs,
    input: &str,
    expr: &dice_core::Expr,
    rng: &mut StdRng,
    limits: &Limits,
    samples: u64,
) -> ExitCode {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut line = String::with_capacity(24);
    for total in expr
        .totals(rng, limits)
        .take(usize::try_from(samples).unwrap_or(usize::MAX))
    {
        let total = match total {
            Ok(total) => total,
            Err(error) => {
                // What was printed stays valid; the error ends the list.
                let _ = out.flush();
                return invalid(args, input, &error);
            }
        };
        line.clear();
        use std::fmt::Write as _;
        let _ = writeln!(line, "{total}");
        // A closed pipe (`| head`) ends the run quietly.
        if out.write_all(line.as_bytes()).is_err() {
            return ExitCode::SUCCESS;
        }
    }
    if out.flush().is_err() {
        return ExitCode::SUCCESS;
    }
    ExitCode::SUCCESS
}

fn invalid(args: &RollArgs, input: &str, error: &dice_core::Error) -> ExitCode {
    if args.json {
        let object = serde_json::json!({ "error": error });
        println!("{object}");
    } else {
        let lang = args.lang.unwrap_or_else(super::lang_from_environment);
        eprintln!("{}", super::dice_caret(lang, input, error));
    }
    ExitCode::from(INVALID)
}
