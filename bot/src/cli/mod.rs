//! The command-line tools: `tavern roll`, `tavern odds`, `tavern basic`, `tavern npc` and `tavern effects`.

pub mod basic;
pub mod effects;
pub mod npc;
pub mod odds;
pub mod roll;

use crate::i18n::{self, Lang};

/// The arguments of a tool, parsed again on their own.
#[derive(clap::Parser)]
#[command(no_binary_name = true)]
struct Again<A: clap::Args> {
    #[command(flatten)]
    args: A,
}

/// Options written after the expression (`tavern odds 4d6kh3 --chart x.png`): the
/// expression takes words that start with `-` (`-3+1d1`), so clap hands those options
/// to it. From the first word that is a long option (`--name`) on, the words are parsed
/// again as the tool's options, the words before them as its expression. `None`: no such
/// word; `Some(Err)`: clap's error, which says what was wrong.
fn options_after_expression<A: clap::Args + clap::FromArgMatches>(
    expr: &[String],
) -> Option<Result<A, clap::Error>> {
    let at = expr.iter().position(|word| {
        word.strip_prefix("--")
            .is_some_and(|name| name.starts_with(|c: char| c.is_ascii_alphabetic()))
    })?;
    let words = expr[at..]
        .iter()
        .chain(std::iter::once(&"--".to_owned()))
        .chain(&expr[..at])
        .cloned()
        .collect::<Vec<String>>();
    Some(<Again<A> as clap::Parser>::try_parse_from(words).map(|again| again.args))
}

/// The tool's arguments with options written after the expression moved to their
/// place (`merge` combines the trailing options with those before), or the exit code
/// after clap's error message.
fn with_trailing_options<A>(
    args: &A,
    expr: &[String],
    merge: impl FnOnce(A) -> A,
) -> Result<A, std::process::ExitCode>
where
    A: clap::Args + clap::FromArgMatches + Clone,
{
    match options_after_expression::<A>(expr) {
        None => Ok(args.clone()),
        Some(Ok(trailing)) => Ok(merge(trailing)),
        Some(Err(error)) => {
            let _ = error.print();
            Err(std::process::ExitCode::from(2))
        }
    }
}

/// `--lang`'s parser: `de` or `en`.
pub fn parse_lang(code: &str) -> Result<Lang, String> {
    Lang::from_code(code)
        .ok_or_else(|| format!("`{code}` is not a language Tavern speaks: de or en"))
}

/// The language without `--lang`: POSIX's order, `LC_ALL`, then `LC_MESSAGES`, then
/// `LANG`; English when none names a language Tavern speaks.
pub fn lang_from_environment() -> Lang {
    ["LC_ALL", "LC_MESSAGES", "LANG"]
        .into_iter()
        .filter_map(|name| std::env::var(name).ok())
        .find(|value| !value.is_empty())
        .and_then(|value| Lang::from_posix_locale(&value))
        .unwrap_or(Lang::En)
}

/// A dice error for a terminal: dice-core's own caret in English (as it always
/// printed), the bot's wording of its reason in another language.
fn dice_caret(lang: Lang, input: &str, error: &dice_core::Error) -> String {
    if lang == Lang::En {
        return error.caret(input);
    }
    crate::engine::dice::failure(error, input).caret_in(lang)
}

/// The most times Dice Maiden's count (`6 4d6`) rolls a line, as `/roll` allows
/// by default (`[dice] max_repeat`).
const MAX_REPEAT: u32 = 20;

/// The rolls of a command line, read as `/roll` reads them (`adv`/`dis`, `;`, Dice
/// Maiden's count in front: `6 4d6`), with how many times to roll them, or the exit
/// code 2 after saying why not: in `lang` on stderr, or with `json` as
/// `{"error": {"kind", "message"}}` on stdout, in English as the other JSON errors.
fn read_rolls(
    lang: Lang,
    json: bool,
    input: &str,
) -> Result<(u32, Vec<crate::core::roll::LinePart>), std::process::ExitCode> {
    use crate::core::roll::RollsProblem;
    let (count, line) = match crate::core::roll::repeat_prefix(input) {
        Some((count, rest)) => (count, rest),
        None => (1, input),
    };
    let Some(count) = u32::try_from(count)
        .ok()
        .filter(|count| (1..=MAX_REPEAT).contains(count))
    else {
        let args = [("count", count.into()), ("max", MAX_REPEAT.into())];
        report(
            json,
            "repeat_range",
            &i18n::tr_args(Lang::En, "roll-prefix-range", &args),
            &i18n::tr_args(lang, "roll-prefix-range", &args),
        );
        return Err(std::process::ExitCode::from(2));
    };
    let problem = match crate::core::roll::read_line(line) {
        Ok(parts) => return Ok((count, parts)),
        Err(problem) => problem,
    };
    let kind = match problem {
        RollsProblem::Empty => "empty",
        RollsProblem::TooMany { .. } => "too_many_rolls",
        RollsProblem::Advantage { .. } => "advantage_needs_one_d20",
        RollsProblem::AdvantageAndDisadvantage { .. } => "advantage_and_disadvantage",
        RollsProblem::DiceInLabel { .. } => "dice_in_label",
    };
    report(json, kind, &problem.text(Lang::En), &problem.text(lang));
    Err(std::process::ExitCode::from(2))
}

/// Says why a line is refused: with `json` as `{"error": {"kind", "message"}}` on
/// stdout in English (as the other JSON errors), else in the user's language on
/// stderr.
fn report(json: bool, kind: &str, english: &str, in_lang: &str) {
    if json {
        println!(
            "{}",
            serde_json::json!({ "error": { "kind": kind, "message": english } })
        );
    } else {
        eprintln!("{in_lang}");
    }
}
