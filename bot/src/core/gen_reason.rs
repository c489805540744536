//! Why a generator failed, in the reader's language (issue 18). The engine hands
//! the reason over as data ([`GenReason`]); the words come from `chargen.ftl` (the
//! sandbox's limits, a session that cannot be resumed, the interpreter's own bugs)
//! and `programs.ftl` (listings that cannot load, the explanation of a syntax
//! error). GW-BASIC's own run-time errors are the program's screen and stay as
//! GW-BASIC prints them.

use basic_runner::{Expected, LoadErrorDetail, RefusalCategory, SyntaxProblem};

use crate::engine::{GenFailure, GenReason, SandboxLimit};
use crate::i18n::{self, Lang};

use super::text::one_line;

/// The longest part of a listing quoted in a reason (a line number as written).
const QUOTED_CHARS: usize = 20;

/// Why `failure` happened, as one line in `lang`.
pub fn reason(lang: Lang, failure: &GenFailure) -> String {
    match &failure.reason {
        GenReason::Basic => one_line(&failure.message, 300),
        GenReason::Limit { limit, value, line } => limit_reason(lang, *limit, *value, *line),
        GenReason::Load {
            problem,
            line,
            refusals,
        } => match refusals.as_slice() {
            // Every refused statement is named, so that the author fixes all at once.
            [_, _, ..] => refusals
                .iter()
                .map(|refusal| {
                    let problem = LoadErrorDetail::Refused {
                        keyword: refusal.keyword,
                        category: refusal.category,
                    };
                    load_reason(lang, &problem, Some(refusal.line))
                })
                .collect::<Vec<_>>()
                .join("; "),
            _ => load_reason(lang, problem, *line),
        },
        GenReason::Restore => i18n::tr(lang, "chargen-restore-failed"),
        GenReason::Internal => i18n::tr(lang, "chargen-internal-error"),
    }
}

/// Logs the engine's own English of a failure that is Tavern's, not the
/// program's: players read only a sentence about it, operators need the detail.
pub fn log_if_ours(failure: &GenFailure) {
    match &failure.reason {
        GenReason::Restore => {
            tracing::warn!(message = %failure.message, "a generator session could not be restored");
        }
        GenReason::Internal
        | GenReason::Load {
            problem: LoadErrorDetail::Internal,
            ..
        } => tracing::error!(message = %failure.message, "the BASIC interpreter failed"),
        _ => {}
    }
}

/// The line that ends a failed run's transcript in the channel: GW-BASIC's own
/// message as it printed it, or the reason in the table's language.
pub fn transcript_line(table: Lang, failure: &GenFailure) -> String {
    match failure.reason {
        GenReason::Basic => failure.message.clone(),
        _ => reason(table, failure),
    }
}

fn limit_reason(lang: Lang, limit: SandboxLimit, value: u64, line: Option<u32>) -> String {
    let args = [("limit", value.into())];
    let reached = match limit {
        SandboxLimit::StepsPerInput => i18n::tr_args(lang, "chargen-limit-steps-per-input", &args),
        SandboxLimit::StepsPerSession => {
            i18n::tr_args(lang, "chargen-limit-steps-per-session", &args)
        }
        SandboxLimit::Memory => i18n::tr_args(lang, "chargen-limit-memory", &args),
        SandboxLimit::Nesting => i18n::tr_args(lang, "chargen-limit-nesting", &args),
        SandboxLimit::OutputPerInput => i18n::tr_args(lang, "chargen-limit-output", &args),
        SandboxLimit::Records => i18n::tr_args(lang, "chargen-limit-records", &args),
        // An answer is refused before it reaches a line, so no line is named.
        SandboxLimit::InputLength => return i18n::tr_args(lang, "chargen-limit-input", &args),
    };
    let Some(line) = line else {
        return reached;
    };
    i18n::tr_args(
        lang,
        "chargen-limit-in-line",
        &[
            ("reached", reached.into()),
            ("line", line.to_string().into()),
        ],
    )
}

pub(super) fn load_reason(lang: Lang, problem: &LoadErrorDetail, line: Option<u32>) -> String {
    // Line numbers are codes: text, so that no language groups their digits.
    let line = line.map(|line| line.to_string()).unwrap_or_default();
    match problem {
        LoadErrorDetail::TooLarge { bytes, limit } => i18n::tr_args(
            lang,
            "programs-load-too-large",
            &[("bytes", (*bytes).into()), ("limit", (*limit).into())],
        ),
        LoadErrorDetail::TooManyLines { limit } => i18n::tr_args(
            lang,
            "programs-load-too-many-lines",
            &[("limit", (*limit).into())],
        ),
        LoadErrorDetail::LineTooLong {
            chars,
            max,
            source_line,
        } => {
            let args = [
                ("chars", (*chars).into()),
                ("max", (*max).into()),
                ("source_line", (*source_line).into()),
                ("line", line.as_str().into()),
            ];
            if line.is_empty() {
                i18n::tr_args(lang, "programs-load-line-too-long-unnumbered", &args)
            } else {
                i18n::tr_args(lang, "programs-load-line-too-long", &args)
            }
        }
        LoadErrorDetail::MissingLineNumber { source_line } => i18n::tr_args(
            lang,
            "programs-load-missing-line-number",
            &[("source_line", (*source_line).into())],
        ),
        LoadErrorDetail::BadLineNumber {
            digits,
            source_line,
        } => i18n::tr_args(
            lang,
            "programs-load-bad-line-number",
            &[
                ("number", one_line(digits, QUOTED_CHARS).into()),
                ("source_line", (*source_line).into()),
            ],
        ),
        LoadErrorDetail::Refused { keyword, category } => i18n::tr_args(
            lang,
            "programs-load-refused",
            &[
                ("keyword", one_line(keyword, QUOTED_CHARS).into()),
                ("reach", reach_code(*category).into()),
                ("line", line.into()),
            ],
        ),
        // LoadErrorDetail is non-exhaustive: anything newer is the interpreter's own.
        _ => i18n::tr(lang, "programs-load-internal"),
    }
}

/// The selector of `programs-load-refused`'s `$reach`: what the keyword would reach.
fn reach_code(category: RefusalCategory) -> &'static str {
    match category {
        RefusalCategory::FileAndDeviceIo => "files",
        RefusalCategory::DirectMemoryAccess => "memory",
        RefusalCategory::OperatingSystem => "system",
        RefusalCategory::Clock => "clock",
        RefusalCategory::GraphicsAndCursor => "graphics",
        RefusalCategory::Sound => "sound",
        RefusalCategory::InputDevices => "input",
        RefusalCategory::DirectModeCommands => "direct",
        RefusalCategory::RetypedName => "retyped",
        _ => "unsupported",
    }
}

/// The explanation of a syntax error found when a listing is checked, in `lang`.
/// BASIC text in it (`THEN`, `=`, `MID$`) stays as BASIC spells it.
pub fn syntax_problem(lang: Lang, problem: &SyntaxProblem) -> String {
    let code = |text: &str| one_line(text, QUOTED_CHARS);
    match problem {
        SyntaxProblem::Expected(Expected::Either(first, second)) => i18n::tr_args(
            lang,
            "programs-syntax-expected-either",
            &[
                ("first", code(first).into()),
                ("second", code(second).into()),
            ],
        ),
        SyntaxProblem::Expected(expected) => {
            let (what, text) = match expected {
                Expected::Expression => ("expression", ""),
                Expected::Statement => ("statement", ""),
                Expected::EndOfStatement => ("end", ""),
                Expected::ValueToPrint => ("value", ""),
                Expected::LineNumber => ("line-number", ""),
                Expected::Letter => ("letter", ""),
                Expected::VariableName => ("variable", ""),
                Expected::SemicolonAfterUsingFormat => ("using-semicolon", ""),
                Expected::SeparatorAfterPrompt => ("prompt-separator", ""),
                Expected::SemicolonAfterPrompt => ("prompt-semicolon", ""),
                Expected::CommaAndFieldValue => ("field-value", ""),
                Expected::Code(text) => ("code", text.as_str()),
                // Expected is non-exhaustive: a newer case is said without its detail.
                _ => return i18n::tr(lang, "programs-syntax-unknown"),
            };
            i18n::tr_args(
                lang,
                "programs-syntax-expected",
                &[("what", what.into()), ("code", code(text).into())],
            )
        }
        SyntaxProblem::CannotStartStatement(keyword) => i18n::tr_args(
            lang,
            "programs-syntax-cannot-start",
            &[("keyword", code(keyword).into())],
        ),
        SyntaxProblem::NotInExpression(keyword) => i18n::tr_args(
            lang,
            "programs-syntax-not-in-expression",
            &[("keyword", code(keyword).into())],
        ),
        SyntaxProblem::TooManySubscripts(max) => i18n::tr_args(
            lang,
            "programs-syntax-too-many-subscripts",
            &[("max", (*max).into())],
        ),
        SyntaxProblem::NestedTooDeeply => i18n::tr(lang, "programs-syntax-nested-too-deeply"),
        SyntaxProblem::TooComplex => i18n::tr(lang, "programs-syntax-too-complex"),
        SyntaxProblem::ArgumentCount { keyword, min, max } => i18n::tr_args(
            lang,
            "programs-syntax-argument-count",
            &[
                ("keyword", code(keyword).into()),
                ("min", (*min).into()),
                ("max", (*max).into()),
            ],
        ),
        SyntaxProblem::OneArgument(keyword) => i18n::tr_args(
            lang,
            "programs-syntax-one-argument",
            &[("keyword", code(keyword).into())],
        ),
        // SyntaxProblem is non-exhaustive: a newer problem is said without its detail.
        _ => i18n::tr(lang, "programs-syntax-unknown"),
    }
}
