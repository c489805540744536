//! `tavern odds [--json] [--chart FILE.png] [--target N|<=N] [--lang de|en] EXPR`:
//! the exact distribution, its summary and chart in the language of `--lang` or the
//! environment. The expression is read as `/roll` reads it: `adv`/`dis`, and up to
//! four rolls separated by `;`, each with its own distribution.
//!
//! Exit status: 0 with the distribution, 2 when the expression cannot be
//! parsed or is too complex (the caret message on stderr, or
//! `{"error": {"message", "kind", "start", "end"}}` on stdout with `--json`,
//! as `tavern roll --json` writes it).

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use dice_core::{Limits, Odds};

use crate::chart::{self, Target, View};
use crate::i18n::Lang;

/// Print the exact probability distribution of a dice expression.
#[derive(Debug, Clone, clap::Args)]
pub struct OddsArgs {
    /// Print one JSON object (an array of them for several rolls): {"dist":
    /// {"<value>": "<p/q>", ...}, "mean", "mean_exact", "sd", "variance",
    /// "variance_exact", "target", "tail", "expr"}.
    #[arg(long)]
    pub json: bool,
    /// Also write a PNG bar chart of the distribution to FILE (FILE-2.png … for the
    /// further rolls).
    #[arg(long, value_name = "FILE.png")]
    pub chart: Option<PathBuf>,
    /// The chance to roll at least N (`15`, `>=15`) or at most N (`<=5`).
    #[arg(long, value_name = "N|<=N", value_parser = parse_target, allow_hyphen_values = true)]
    pub target: Option<Target>,
    /// The language of the summary, the chart and errors: de or en (default: the
    /// environment's LANG, else English).
    #[arg(long, value_name = "de|en", value_parser = super::parse_lang)]
    pub lang: Option<Lang>,
    /// The expression, e.g. 4d6kh3 or "10d10cs>=8sf1".
    #[arg(required = true, num_args = 1.., allow_hyphen_values = true)]
    pub expr: Vec<String>,
}

const INVALID: u8 = 2;

pub fn run(args: &OddsArgs) -> ExitCode {
    let merged = super::with_trailing_options(args, &args.expr, |trailing| OddsArgs {
        json: trailing.json || args.json,
        chart: trailing.chart.or_else(|| args.chart.clone()),
        target: trailing.target.or(args.target),
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
    // Dice Maiden's `6 4d6` is six rolls of 4d6: the odds are those of each.
    let parts = match super::read_rolls(lang, args.json, &input) {
        Ok((_, parts)) => parts,
        Err(code) => return code,
    };
    let limits = Limits::default();
    let mut rolls = Vec::with_capacity(parts.len());
    for part in &parts {
        let computed =
            dice_core::parse_with(&part.rolled, &limits).and_then(|expr| expr.odds(&limits));
        match computed {
            // `1d20+5 adv` is named so, not as the `2d20kh1+5` computed; a label is
            // not part of the odds.
            Ok(odds) => rolls.push((part.named(), odds)),
            Err(error) => {
                if args.json {
                    // The same object as `tavern roll --json`: message, span and kind.
                    println!("{}", serde_json::json!({ "error": error }));
                } else {
                    eprintln!("{}", super::dice_caret(lang, &part.rolled, &error));
                }
                return ExitCode::from(INVALID);
            }
        }
    }
    if let Some(path) = &args.chart {
        for (index, (shown, odds)) in rolls.iter().enumerate() {
            let path = numbered(path, index);
            let written = chart::png(lang, shown, odds, View::Exactly, args.target)
                .and_then(|bytes| std::fs::write(&path, bytes).map_err(|e| e.to_string()));
            if let Err(error) = written {
                eprintln!("tavern odds: cannot write {}: {error}", path.display());
                return ExitCode::FAILURE;
            }
        }
    }
    let text = if args.json {
        let objects: Vec<String> = rolls
            .iter()
            .map(|(shown, odds)| json(shown, odds, args.target))
            .collect();
        match objects.as_slice() {
            [one] => format!("{one}\n"),
            several => format!("[{}]\n", several.join(",")),
        }
    } else {
        rolls
            .iter()
            .map(|(shown, odds)| {
                format!(
                    "{}{}",
                    chart::summary(lang, None, shown, odds, args.target),
                    chart::text_histogram(lang, odds, View::Exactly, 40)
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    // A reader that stops early (`| head`) is not an error worth a panic.
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    ExitCode::SUCCESS
}

/// `--target`'s parser: `15`, `>=15` or `<=5`.
fn parse_target(text: &str) -> Result<Target, String> {
    Target::parse(text).ok_or_else(|| {
        format!("`{text}` is not a target: a total to reach (15) or to stay at or under (<=5)")
    })
}

/// The chart file of the roll at `index`: `FILE.png` for the first, `FILE-2.png` …
/// for the others.
fn numbered(path: &std::path::Path, index: usize) -> PathBuf {
    if index == 0 {
        return path.to_path_buf();
    }
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let name = match path.extension() {
        Some(extension) => format!("{stem}-{}.{}", index + 1, extension.to_string_lossy()),
        None => format!("{stem}-{}", index + 1),
    };
    path.with_file_name(name)
}

/// `{"dist": {"3": "1/216", ...}, "mean": 10.5, "mean_exact": "21/2", "sd": 2.958,
/// "variance": 8.75, "variance_exact": "35/4", "target": {"at_least": 15, "chance":
/// 0.0926, "chance_exact": "5/54"}, "tail": "1/...", "expr": "3d6"}`: the outcomes in
/// increasing order (a JSON object's keys would otherwise come sorted as strings,
/// "10" before "2"), each float beside the exact fraction it rounds.
pub fn json(expr: &str, odds: &Odds, target: Option<Target>) -> String {
    let quoted = |text: String| serde_json::Value::from(text).to_string();
    let float = |value: &dice_core::BigRational| serde_json::Value::from(dice_core::to_f64(value));
    let dist = odds
        .outcomes()
        .iter()
        .map(|(value, p)| format!("{}:{}", quoted(value.to_string()), quoted(p.to_string())))
        .collect::<Vec<_>>()
        .join(",");
    let variance = odds.variance();
    let mut object = format!(
        "{{\"dist\":{{{dist}}},\"mean\":{},\"mean_exact\":{},\"sd\":{},\"variance\":{},\"variance_exact\":{}",
        serde_json::Value::from(odds.mean_f64()),
        quoted(odds.mean().to_string()),
        serde_json::Value::from(odds.sd()),
        float(&variance),
        quoted(variance.to_string()),
    );
    if let Some(target) = target {
        let side = match target {
            Target::AtLeast(_) => "at_least",
            Target::AtMost(_) => "at_most",
        };
        let chance = target.chance(odds);
        object.push_str(&format!(
            ",\"target\":{{\"{side}\":{},\"chance\":{},\"chance_exact\":{}}}",
            target.value(),
            float(&chance),
            quoted(chance.to_string()),
        ));
    }
    if !num_traits::Zero::is_zero(odds.tail()) {
        object.push_str(&format!(",\"tail\":{}", quoted(odds.tail().to_string())));
    }
    object.push_str(&format!(",\"expr\":{}}}", quoted(expr.to_owned())));
    object
}
