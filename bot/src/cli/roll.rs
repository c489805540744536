//! `tavern roll [--seed N] [--json] [--samples N] [--lang de|en] EXPR`.
//!
//! The expression is read as `/roll` reads it: `1d20+5 adv` rolls `2d20kh1+5`, and
//! up to four rolls separated by `;` are rolled in turn, one line (one JSON object in
//! an array, one tab-separated column of samples) each.
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
    /// Print one JSON object: total, breakdown and dice, or an error with its span (an
    /// array of objects for several rolls).
    #[arg(long)]
    pub json: bool,
    /// Print N totals, one per line (for statistics; several rolls: a column each).
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
    let lang = args.lang.unwrap_or_else(super::lang_from_environment);
    let (count, parts) = match super::read_rolls(lang, args.json, &input) {
        Ok(read) => read,
        Err(code) => return code,
    };
    // Dice Maiden's `6 4d6`: the line's rolls, six times over, one line each.
    let parts: Vec<_> = std::iter::repeat_n(parts, count as usize)
        .flatten()
        .collect();
    let limits = Limits::default();
    let mut rng = match args.seed {
        Some(seed) => StdRng::seed_from_u64(seed),
        None => StdRng::from_os_rng(),
    };
    let mut exprs = Vec::with_capacity(parts.len());
    for part in &parts {
        match dice_core::parse_with(&part.rolled, &limits) {
            Ok(expr) => exprs.push(expr),
            Err(error) => return invalid(args, &part.rolled, &error),
        }
    }
    if let Some(samples) = args.samples {
        return print_samples(args, &exprs, &mut rng, &limits, samples);
    }
    let mut lines = Vec::with_capacity(exprs.len());
    for expr in &exprs {
        let roll = match expr.roll(&mut rng, &limits) {
            Ok(roll) => roll,
            Err(error) => return invalid(args, expr.source(), &error),
        };
        let line = if args.json {
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
        lines.push(line);
    }
    let text = match (args.json, lines.as_slice()) {
        (true, [one]) => one.clone(),
        (true, several) => format!("[{}]", several.join(",")),
        (false, _) => lines.join("\n"),
    };
    if writeln!(std::io::stdout(), "{text}").is_err() {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

fn print_samples(
    args: &RollArgs,
    exprs: &[dice_core::Expr],
    rng: &mut StdRng,
    limits: &Limits,
    samples: u64,
) -> ExitCode {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let [expr] = exprs else {
        return print_sample_columns(args, exprs, rng, limits, samples, &mut out);
    };
    let input = expr.source();
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

/// Samples of several rolls: a line per sample, the totals of the rolls in tab-separated
/// columns.
fn print_sample_columns(
    args: &RollArgs,
    exprs: &[dice_core::Expr],
    rng: &mut StdRng,
    limits: &Limits,
    samples: u64,
    out: &mut impl std::io::Write,
) -> ExitCode {
    use std::fmt::Write as _;
    let mut line = String::with_capacity(24 * exprs.len());
    for _ in 0..samples {
        line.clear();
        for (index, expr) in exprs.iter().enumerate() {
            let total = match expr.roll(rng, limits) {
                Ok(roll) => roll.total(),
                Err(error) => {
                    // What was printed stays valid; the error ends the list.
                    let _ = out.flush();
                    return invalid(args, expr.source(), &error);
                }
            };
            let separator = if index == 0 { "" } else { "\t" };
            let _ = write!(line, "{separator}{total}");
        }
        line.push('\n');
        // A closed pipe (`| head`) ends the run quietly.
        if out.write_all(line.as_bytes()).is_err() {
            return ExitCode::SUCCESS;
        }
    }
    let _ = out.flush();
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
