//! `adv` / `dis` on a macro: `/roll atk adv` or `/roll $atk dis` where `atk` holds
//! `1d20+5 to hit`. The line has no d20 of its own to roll twice, so advantage goes
//! into the macro's text (its one d20 becomes `2d20kh1` for this roll only); a macro
//! without exactly one d20 is refused, saying what its text is.

use super::naming::is_name_shaped;
use super::roll_line::{RollsProblem, advantage};
use super::text::one_line;

/// A roll line that is one macro with `adv` / `dis` in its label.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MacroAdvantage {
    /// The macro's name as typed (without `$`).
    pub name: String,
    /// `adv` or `dis`.
    pub word: &'static str,
    /// What to roll instead: `$name` and the rest of the label.
    pub line: String,
}

/// `atk adv`, `$atk dis to hit`: the macro, the word and the line without it; `None`
/// when the line is not one macro name with `adv` or `dis` after it.
pub fn read(line: &str) -> Option<MacroAdvantage> {
    let line = line.trim();
    let (first, rest) = line.split_once(char::is_whitespace)?;
    let name = first.strip_prefix('$').unwrap_or(first);
    if !is_name_shaped(name) {
        return None;
    }
    // The label is read as it is read after a d20, so `with adv`, `# to hit, dis`
    // and `Vorteil` mean what they mean there.
    let probe = advantage(&format!("1d20 {rest}")).ok()?;
    let (word, label) = if let Some(label) = probe.strip_prefix("2d20kh1") {
        ("adv", label)
    } else {
        ("dis", probe.strip_prefix("2d20kl1")?)
    };
    Some(MacroAdvantage {
        name: name.to_owned(),
        word,
        line: format!("${name}{label}"),
    })
}

/// The macro's `text` with advantage (`word`) on its one d20.
pub fn apply(name: &str, text: &str, word: &str) -> Result<String, RollsProblem> {
    advantage(&format!("{text} {word}")).map_err(|problem| match problem {
        RollsProblem::Advantage { several, .. } => RollsProblem::Advantage {
            expr: format!("${name} = {}", one_line(text, 100).replace('`', "'")),
            several,
        },
        other => other,
    })
}
