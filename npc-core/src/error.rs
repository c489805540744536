//! Load errors: what the install-time checker reports.

use serde::{Deserialize, Serialize};

/// What kind of problem a [`LoadError`] reports; the rulings' letters are in the docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum LoadErrorKind {
    /// B1 (and X1): a token or construct the grammar does not allow here.
    Syntax,
    /// B2 / L5: an IMPORT cycle, self-import included.
    ImportCycle,
    /// B3: a NATIVE target, IMPORT or `$call` naming no defined tag.
    UnknownTag,
    /// G4: a CONV or RESP tag defined twice.
    DuplicateTag,
    /// B4: a flag id outside 0..=255.
    FlagRange,
    /// G3 / N4 / G1: a parameter id below -4, a write to ACTIVITY, a count or price out of range.
    BadValue,
    /// B5: a MENU none of whose choices can leave it.
    EndlessMenu,
    /// M4: BREAK outside a MENU.
    BreakOutsideMenu,
    /// M5: a MENU with no choices, too many, a label too long, empty or repeated.
    BadMenu,
    /// B6: a `$call` cycle.
    CallCycle,
    /// B7: blocks nested deeper than the limit.
    TooDeep,
    /// K3: a keyword that another keyword of the same NATIVE block hides.
    UnreachableKeyword,
    /// The script is larger than the limit allows.
    TooLarge,
    /// More errors than the limit allows; the rest were not reported.
    TooManyErrors,
    /// Effects: a required field (target_type, subject, value) is missing.
    MissingField,
    /// Effects: a field given twice in one EFFECT.
    DuplicateField,
    /// Effects: a target type Tavern does not support (the seed's map types).
    Unsupported,
}

/// One problem found when a script is installed.
///
/// `Display` gives the line `line N: message` that `tavern npc check` prints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct LoadError {
    /// 1-based line of the offending token (an unterminated string: where it opens).
    pub line: u32,
    /// 1-based column, counted in characters.
    pub column: u32,
    /// What kind of problem this is.
    pub kind: LoadErrorKind,
    /// Lower-case message saying what was expected and what was found.
    pub message: String,
}

impl LoadError {
    pub(crate) fn new(
        kind: LoadErrorKind,
        line: u32,
        column: u32,
        message: impl Into<String>,
    ) -> LoadError {
        LoadError {
            line,
            column,
            kind,
            message: message.into(),
        }
    }

    /// The offending source line, a caret under the column, and the message:
    /// what the bot shows an admin whose install was refused.
    pub fn caret(&self, source: &str) -> String {
        let line_index = usize::try_from(self.line.saturating_sub(1)).unwrap_or(usize::MAX);
        let text = source.lines().nth(line_index).unwrap_or("");
        let text = text.trim_end();
        let indent: String = text
            .chars()
            .take(usize::try_from(self.column.saturating_sub(1)).unwrap_or(0))
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        format!("{text}\n{indent}^\n{self}")
    }
}
