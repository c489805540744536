//! The one error type of the crate: what went wrong, where, and a caret line.

use std::ops::Range;

use serde::Serialize;

use crate::reason::Reason;

/// What kind of problem an [`Error`] reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input does not follow the grammar.
    Syntax,
    /// The input (or the text after macro expansion) is longer than allowed.
    TooLong,
    /// Parentheses, braces or calls nest deeper than allowed.
    TooDeep,
    /// A number does not fit into 64 bits.
    NumberTooLarge,
    /// A modifier, function or argument that is not allowed where it stands.
    Invalid,
    /// Arithmetic left the 64-bit range.
    Overflow,
    /// Division or remainder by zero.
    DivisionByZero,
    /// More dice than the limit would be rolled.
    TooManyDice,
    /// A die with no faces, or more faces than allowed.
    BadFaces,
    /// A series, or all pools of a roll together, would be too long.
    TooManyElements,
    /// A `$macro` or `@FIELD` was rolled without being resolved first.
    Unresolved,
    /// The resolver knows no macro of that name.
    UnknownMacro,
    /// The resolver knows no field of that name.
    UnknownField,
    /// A macro refers back to itself.
    MacroCycle,
    /// Macro expansion went past its limits.
    TooManyExpansions,
    /// The text of a referenced macro is invalid.
    BadMacro,
    /// The exact distribution would take more work than
    /// [`Limits::max_odds_work`](crate::Limits::max_odds_work) allows.
    TooComplex,
    /// The exact odds of this form are not computed (rerolls that depend
    /// on the other dice); rolling works.
    Unsupported,
    /// The host raised the cancel flag of
    /// [`Expr::odds_cancellable`](crate::Expr::odds_cancellable).
    Cancelled,
}

/// An invalid expression or a roll that cannot be completed.
///
/// It carries a [kind](Error::kind), a byte [span](Error::span) into the input,
/// a structured [reason](Error::reason) (an id and named arguments, for
/// saying it in another language) and the reason's friendly one-line English
/// message (its `Display`). [`Error::caret`] draws the input with a caret
/// line under the span.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.detail.message)]
pub struct Error {
    kind: ErrorKind,
    start: usize,
    end: usize,
    /// Boxed: results on the rolling path stay small.
    detail: Box<Detail>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Detail {
    reason: Reason,
    /// The reason in English, rendered once.
    message: String,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind, span: Range<usize>, reason: Reason) -> Error {
        debug_assert!(
            reason
                .form()
                .params()
                .iter()
                .all(|param| reason.arg(param).is_some()),
            "{} lacks an argument",
            reason.id()
        );
        Error {
            kind,
            start: span.start,
            end: span.end.max(span.start),
            detail: Box::new(Detail {
                message: reason.to_english(),
                reason,
            }),
        }
    }

    /// What kind of problem this is.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The byte range of the input the error is about (may be empty at the end).
    pub fn span(&self) -> Range<usize> {
        self.start..self.end
    }

    /// First byte of [`span`](Error::span).
    pub fn start(&self) -> usize {
        self.start
    }

    /// One past the last byte of [`span`](Error::span).
    pub fn end(&self) -> usize {
        self.end
    }

    /// The friendly message in English, without position: [`Error::reason`]
    /// rendered.
    pub fn message(&self) -> &str {
        &self.detail.message
    }

    /// Why, as data: an id and named arguments ([`Reason`]), for callers that
    /// say it in another language.
    pub fn reason(&self) -> &Reason {
        &self.detail.reason
    }

    /// The line of `input` that holds the error, a caret line under the span,
    /// and the message:
    ///
    /// ```
    /// let input = "1d20 + (3";
    /// let error = dice_core::parse(input).unwrap_err();
    /// assert_eq!(
    ///     error.caret(input),
    ///     "1d20 + (3\n         ^ expected `)` or an operator at the end"
    /// );
    /// ```
    pub fn caret(&self, input: &str) -> String {
        let start = floor_char_boundary(input, self.start.min(input.len()));
        let end = floor_char_boundary(input, self.end.min(input.len())).max(start);
        let line_start = input[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = input[start..].find('\n').map_or(input.len(), |i| start + i);
        let line = &input[line_start..line_end];
        let indent = input[line_start..start].chars().count();
        let width = input[start..end.min(line_end)].chars().count().max(1);
        format!(
            "{line}\n{}{} {}",
            " ".repeat(indent),
            "^".repeat(width),
            self.detail.message
        )
    }
}

/// `{"message": ..., "start": ..., "end": ..., "kind": ...}`, as `tavern roll --json`
/// prints it under `"error"`.
impl Serialize for Error {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut state = serializer.serialize_struct("Error", 4)?;
        state.serialize_field("message", &self.detail.message)?;
        state.serialize_field("start", &self.start)?;
        state.serialize_field("end", &self.end)?;
        state.serialize_field("kind", &self.kind)?;
        state.end()
    }
}

fn floor_char_boundary(text: &str, mut index: usize) -> usize {
    while index > 0 && !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}
