//! `tavern odds [--json] [--chart FILE.png] [--lang de|en] EXPR`: the exact
//! distribution, its summary and chart in the language of `--lang` or the
//! environment.
//!
//! Exit status: 0 with the distribution, 2 when the expression cannot be
//! parsed or is too complex (the caret message on stderr, or
//! `{"error": {"message", "kind", "start", "end"}}` on stdout with `--json`,
//! as `tavern roll --json` writes it).

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use dice_core::{Limits, Odds};

use crate::chart::{self, View};
use crate::i18n::Lang;

/// Print the exact probability distribution of a dice expression.
#[derive(Debug, Clone, clap::Args)]
pub struct OddsArgs {
    /// Print one JSON object: {"dist": {"<value>": "<p/q>", ...}, "mean", "sd", "tail"}.
    #[arg(long)]
    pub json: bool,
    /// Also write a PNG bar chart of the distribution to FILE.
    #[arg(long, value_name = "FILE.png")]
    pub chart: Option<PathBuf>,
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
    let limits = Limits::default();
    let odds = match dice_core::parse_with(&input, &limits).and_then(|expr| expr.odds(&limits)) {
        Ok(odds) => odds,
        Err(error) => {
            if args.json {
                // The same object as `tavern roll --json`: message, span and kind.
                println!("{}", serde_json::json!({ "error": error }));
            } else {
                eprintln!("{}", super::dice_caret(lang, &input, &error));
            }
            return ExitCode::from(INVALID);
        }
    };
    if let Some(path) = &args.chart {
        let written = chart::png(lang, &input, &odds, View::Exactly, None)
            .and_then(|bytes| std::fs::write(path, bytes).map_err(|e| e.to_string()));
        if let Err(error) = written {
            eprintln!("tavern odds: cannot write {}: {error}", path.display());
            return ExitCode::FAILURE;
        }
    }
    let text = if args.json {
        format!("{}\n", json(&odds))
    } else {
        format!(
            "{}{}",
            chart::summary(lang, &input, &odds, None),
            chart::text_histogram(lang, &odds, View::Exactly, 40)
        )
    };
    // A reader that stops early (`| head`) is not an error worth a panic.
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    ExitCode::SUCCESS
}

/// `{"dist": {"3": "1/216", ...}, "mean": 10.5, "sd": 2.958, "tail": "1/..."}`, the
/// outcomes in increasing order (a JSON object's keys would otherwise come sorted
/// as strings, "10" before "2").
pub fn json(odds: &Odds) -> String {
    let quoted = |text: String| serde_json::Value::from(text).to_string();
    let dist = odds
        .outcomes()
        .iter()
        .map(|(value, p)| format!("{}:{}", quoted(value.to_string()), quoted(p.to_string())))
        .collect::<Vec<_>>()
        .join(",");
    let mut object = format!(
        "{{\"dist\":{{{dist}}},\"mean\":{},\"sd\":{}",
        serde_json::Value::from(odds.mean_f64()),
        serde_json::Value::from(odds.sd())
    );
    if !num_traits::Zero::is_zero(odds.tail()) {
        object.push_str(&format!(",\"tail\":{}", quoted(odds.tail().to_string())));
    }
    object.push('}');
    object
}
