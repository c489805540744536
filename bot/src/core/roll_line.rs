//! A roll line as `/roll` and `/odds` read it before the dice language (several rolls,
//! `adv`/`dis`, labels, Dice Maiden's repeat count), what a roll asked for
//! ([`RollAgain`]), and the wording of a roll the dice language refused.

use super::text::{code_block, one_line};
use crate::i18n::{self, Lang};

/// Rolls one `/roll` may hold, separated by `;`.
pub const MAX_ROLLS: usize = 4;

/// The parameters of a roll to repeat.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RollAgain {
    pub expr: String,
    pub label: Option<String>,
    pub private: bool,
    pub repeat: u32,
    /// `to:gm`: the result goes to the GM channel (never on a Roll again button).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub to_gm: bool,
}

/// `I can't roll that:` and the caret, its reason in `lang`.
pub(crate) fn cannot_roll(lang: Lang, failure: &crate::engine::DiceFailure) -> String {
    i18n::tr_args(
        lang,
        "roll-cannot-roll",
        &[("caret", code_block(&failure.caret_in(lang)).into())],
    )
}

/// Why the rolls of a `/roll` cannot be read, before the dice language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RollsProblem {
    /// Nothing but `;` and spaces.
    Empty,
    /// More than [`MAX_ROLLS`] rolls.
    TooMany { count: usize },
    /// `adv` / `dis` on a roll without exactly one d20 (`several`: more than one).
    Advantage { expr: String, several: bool },
    /// Both `adv` and `dis` on one roll.
    AdvantageAndDisadvantage { expr: String },
    /// A word of the label reads as dice (`1d20+5 to hit 2d6`): the roll, where the
    /// word starts and ends in it (bytes).
    DiceInLabel { part: String, word: (usize, usize) },
}

impl RollsProblem {
    /// The answer to the user.
    pub fn text(&self, lang: Lang) -> String {
        match self {
            RollsProblem::Empty => i18n::tr(lang, "roll-nothing-short"),
            RollsProblem::TooMany { count } => i18n::tr_args(
                lang,
                "roll-too-many",
                &[("max", MAX_ROLLS.into()), ("count", (*count).into())],
            ),
            RollsProblem::Advantage { expr, several } => i18n::tr_args(
                lang,
                "roll-advantage-one-d20",
                &[
                    ("expr", expr.into()),
                    ("found", if *several { "several" } else { "none" }.into()),
                ],
            ),
            RollsProblem::AdvantageAndDisadvantage { expr } => {
                i18n::tr_args(lang, "roll-advantage-both", &[("expr", expr.into())])
            }
            RollsProblem::DiceInLabel {
                part,
                word: (start, end),
            } => {
                let caret = crate::engine::dice::caret_lines(part, *start, *end);
                let before = part[..*start].trim_end();
                let after = &part[*start..];
                // The fixes are quoted whole only while short: the message must fit.
                let quoted = |text: String| one_line(&text, 200).replace('`', "'");
                i18n::tr_args(
                    lang,
                    "roll-dice-in-label",
                    &[
                        ("caret", code_block(&caret).into()),
                        (
                            "word",
                            one_line(&part[*start..*end], 40).replace('`', "'").into(),
                        ),
                        ("split", quoted(format!("{before}; {after}")).into()),
                        ("commented", quoted(commented(part)).into()),
                    ],
                )
            }
        }
    }
}

/// One roll of a line: as typed and as rolled (`1d20+5 adv` is rolled as `2d20kh1+5`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinePart {
    pub typed: String,
    pub rolled: String,
}

impl LinePart {
    /// With advantage, the expression as typed and the word (`1d20+5 adv`): where a
    /// roll is named without its label, the rolled `2d20kh1+5` would hide what was
    /// asked. `None` without advantage.
    pub fn with_advantage(&self) -> Option<String> {
        if self.typed == self.rolled {
            return None;
        }
        let parsed = dice_core::parse(&self.typed).ok()?;
        let label = parsed.label()?;
        // The word that asked for it, with its `with` / `mit`: the rest of the label
        // (`to hit`, `zum Treffen`) says nothing about the odds.
        let words: Vec<&str> = label.split_whitespace().collect();
        let at = words
            .iter()
            .position(|word| advantage_kind(word).is_some())?;
        let asked = match at.checked_sub(1).map(|before| words[before]) {
            Some(before) if is_with(before) => format!("{before} {}", words[at]),
            _ => words[at].to_owned(),
        };
        let asked = asked.trim_end_matches([',', ';', ':']);
        Some(format!("{} {asked}", before_label(&self.typed, label)))
    }

    /// The roll as a summary names it: [`LinePart::with_advantage`], else the
    /// expression as typed without its label or comment (`1d20 ! sneak` is `1d20`).
    pub fn named(&self) -> String {
        if let Some(named) = self.with_advantage() {
            return named;
        }
        let parsed = dice_core::parse(&self.typed).ok();
        match parsed.as_ref().and_then(|parsed| parsed.label()) {
            Some(label) => before_label(&self.typed, label).to_owned(),
            None => self.typed.clone(),
        }
    }
}

/// A line as `/roll` reads it before the dice language: its rolls ([`split_rolls`]),
/// each with advantage turned into dice ([`advantage`]). The command-line tools
/// read a line through here, so they take what `/roll` takes (`/odds` reads each
/// part through `Context::prepare_roll`, as `/roll` does, macros included).
pub fn read_line(line: &str) -> Result<Vec<LinePart>, RollsProblem> {
    split_rolls(line)?
        .into_iter()
        .map(|typed| {
            let rolled = advantage(&typed)?;
            Ok(LinePart { typed, rolled })
        })
        .collect()
}

/// `part` with its label after `#`, which keeps anything in it as text.
fn commented(part: &str) -> String {
    let label = label_of(part).unwrap_or_default();
    let expr = part[..part.len() - label.len()].trim_end();
    format!("{expr} # {label}")
}

/// The label `dice-core` reads at the end of `part`, as a slice of it.
fn label_of(part: &str) -> Option<&str> {
    // A label stands behind `#` or `//`, or after white space or a `/* */` comment
    // (a word glued to the expression is an error, not a label). Most rolls have
    // none of these and are parsed once, later, not here as well.
    if !part.contains(|c: char| c.is_whitespace() || c == '#' || c == '/') {
        return None;
    }
    let parsed = dice_core::parse(part).ok()?;
    let label = parsed.label()?;
    // The label is the trimmed end of the (trimmed) part.
    let start = part.trim_end().len().checked_sub(label.len())?;
    part.get(start..).filter(|tail| tail.trim_end() == label)
}

/// Whether `word` starts with dice: `2d6`, `d20`, `1D20+5`, `d%`, `4dF`, `(2d6)`.
/// German `W` (`3W6`) counts too: a German table types it for dice.
fn looks_like_dice(word: &str) -> bool {
    let word = word.trim_start_matches(['(', '[', '{', '+', '-']);
    let rest = word.trim_start_matches(|c: char| c.is_ascii_digit());
    let Some(sides) = rest.strip_prefix(['d', 'D', 'w', 'W']) else {
        return false;
    };
    let mut chars = sides.chars();
    match chars.next() {
        Some(c) if c.is_ascii_digit() || c == '%' => true,
        Some('F' | 'f') => !chars.next().is_some_and(char::is_alphabetic),
        _ => false,
    }
}

/// Dice Maiden's comment, `1d20 ! sneak`: a `!` between spaces (or at the end)
/// becomes `#`, this language's comment; a glued `!` stays an explosion.
fn bang_comment(part: &str) -> String {
    let bytes = part.as_bytes();
    let found = part.char_indices().find(|&(at, ch)| {
        ch == '!'
            && at > 0
            && bytes[at - 1].is_ascii_whitespace()
            && bytes.get(at + 1).is_none_or(u8::is_ascii_whitespace)
    });
    match found {
        Some((at, _)) => format!("{}#{}", &part[..at], &part[at + 1..]),
        None => part.to_owned(),
    }
}

/// `1d20+5 to hit, 2d6 dmg`: where a comma outside parentheses and braces, before
/// any `#` comment, is followed by dice, a second roll starts.
fn split_at_commas(part: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (at, ch) in part.char_indices() {
        match ch {
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => depth = depth.saturating_sub(1),
            '#' if depth == 0 => break,
            ',' if depth == 0 => {
                let next = part[at + 1..].split_whitespace().next().unwrap_or("");
                if looks_like_dice(next) {
                    pieces.push(part[start..at].trim());
                    start = at + 1;
                }
            }
            _ => {}
        }
    }
    pieces.push(part[start..].trim());
    pieces.retain(|piece| !piece.is_empty());
    pieces
}

/// Dice Maiden's repeat, `6 4d6`: a count, a space, then dice; or the count and
/// `#` of the bots that write `6#4d6` for six stat lines. `None` for anything
/// else (`6 to hit` and `6 # to hit` are 6 with a label). A `#` before dice is
/// never meant as a label: `3#1d20+4` would otherwise roll a 3 named "1d20+4".
pub fn repeat_prefix(expr: &str) -> Option<(i64, &str)> {
    let expr = expr.trim();
    let (count, rest) = expr.split_once(|c: char| c.is_whitespace() || c == '#')?;
    let rest = rest.trim_start();
    let hashed = expr.as_bytes()[count.len()] == b'#';
    let rest = match rest.strip_prefix('#') {
        Some(after) if !hashed => after.trim_start(),
        _ => rest,
    };
    let first = rest.split_whitespace().next()?;
    if !count.bytes().all(|b| b.is_ascii_digit()) || !looks_like_dice(first) {
        return None;
    }
    Some((count.parse().unwrap_or(i64::MAX), rest))
}

/// `1d20+5; 2d6+3` into its rolls (empty ones ignored), at most [`MAX_ROLLS`]. A
/// comma followed by dice separates rolls too (`1d20+5 to hit, 2d6 dmg`), and Dice
/// Maiden's ` ! ` comment is read as `#`.
pub fn split_rolls(expr: &str) -> Result<Vec<String>, RollsProblem> {
    let parts: Vec<String> = expr
        .split(';')
        .map(bang_comment)
        .flat_map(|part| {
            split_at_commas(&part)
                .into_iter()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect();
    if parts.is_empty() {
        return Err(RollsProblem::Empty);
    }
    if parts.len() > MAX_ROLLS {
        return Err(RollsProblem::TooMany { count: parts.len() });
    }
    Ok(parts)
}

/// `1d20+5 adv` → `2d20kh1+5` (`dis`: `kl1`), as Avrae's `!r`: the word anywhere in
/// the label, on a roll with exactly one single d20. The words spelled out count too,
/// in English and German (`advantage`, `vorteil`; `disadvantage`, `nachteil`; with
/// `with` / `mit` before them): a table types what it says at the table. Both on one
/// roll are refused, and so is a label word that reads as dice (`1d20 to hit 2d6`),
/// unless the label is a `#` comment. Other rolls pass as they are.
pub fn advantage(part: &str) -> Result<String, RollsProblem> {
    let Some(label) = label_of(part) else {
        return Ok(part.to_owned());
    };
    let label_start = label.as_ptr() as usize - part.as_ptr() as usize;
    let before = part[..label_start].trim_end();
    let hashed = before.ends_with('#') || before.ends_with("//");
    let expr = before.trim_end_matches(['#', '/']).trim_end();
    let mut keep: Option<&str> = None;
    let mut rest: Vec<&str> = Vec::new();
    for word in label.split_whitespace() {
        let Some(kind) = advantage_kind(word) else {
            if !hashed && looks_like_dice(word) {
                let start = word.as_ptr() as usize - part.as_ptr() as usize;
                return Err(RollsProblem::DiceInLabel {
                    part: part.to_owned(),
                    word: (start, start + word.len()),
                });
            }
            rest.push(word);
            continue;
        };
        if rest.last().is_some_and(|last| is_with(last)) {
            rest.pop();
        }
        if keep.is_some_and(|kept| kept != kind) {
            return Err(RollsProblem::AdvantageAndDisadvantage {
                expr: one_line(part, 100).replace('`', "'"),
            });
        }
        keep = Some(kind);
    }
    let Some(keep) = keep else {
        return Ok(part.to_owned());
    };
    let terms = single_d20_terms(expr);
    let [(start, mods, end)] = terms.as_slice() else {
        return Err(RollsProblem::Advantage {
            expr: one_line(expr, 100).replace('`', "'"),
            several: !terms.is_empty(),
        });
    };
    let mut rolled = format!(
        "{}2d20{}{keep}{}",
        &expr[..*start],
        &expr[*mods..*end],
        &expr[*end..]
    );
    let rest = rest.join(" ");
    let rest = rest.trim_end_matches([',', ';', ':']);
    if !rest.is_empty() {
        rolled.push_str(if hashed { " # " } else { " " });
        rolled.push_str(rest);
    }
    Ok(rolled)
}

/// The dice a label word asks for: `kh1` for advantage (`adv`, `advantage`,
/// `vorteil`), `kl1` for disadvantage, in any case and with punctuation around it.
fn advantage_kind(word: &str) -> Option<&'static str> {
    let bare = word
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    match bare.as_str() {
        "adv" | "advantage" | "vorteil" => Some("kh1"),
        "dis" | "disadvantage" | "nachteil" => Some("kl1"),
        _ => None,
    }
}

/// `with` / `mit`, which may stand before the word for advantage.
fn is_with(word: &str) -> bool {
    ["with", "mit"].contains(&word.to_lowercase().as_str())
}

/// The expression of `part` without its `label` and the `#` before it.
fn before_label<'a>(part: &'a str, label: &str) -> &'a str {
    part[..part.len() - label.len()]
        .trim_end()
        .trim_end_matches('#')
        .trim_end()
}

/// Each `d20` / `1d20` (`1W20`) term (a d20 with a bigger count does not count): where it
/// starts, where its modifiers start and where they end.
fn single_d20_terms(expr: &str) -> Vec<(usize, usize, usize)> {
    let bytes = expr.as_bytes();
    let mut terms = Vec::new();
    let mut index = 0;
    // German `1W20` is a d20 too.
    let lower = expr.to_ascii_lowercase().replace('w', "d");
    while let Some(found) = lower[index..].find("d20") {
        let at = index + found;
        index = at + 3;
        let after = bytes.get(at + 3).copied();
        if after.is_some_and(|b| b.is_ascii_digit()) {
            continue;
        }
        let count_start = expr[..at]
            .trim_end_matches(|c: char| c.is_ascii_digit())
            .len();
        let count = &expr[count_start..at];
        let glued = expr[..count_start]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == ')' || c == '}');
        if glued || !(count.is_empty() || count == "1") {
            continue;
        }
        let end = at
            + 3
            + expr[at + 3..]
                .find(|c: char| c.is_whitespace() || "+-*/%(),#[;".contains(c))
                .unwrap_or(expr.len() - at - 3);
        terms.push((count_start, at + 3, end));
    }
    terms
}

/// Text in backticks; backticks inside become quotes so they cannot end it.
pub(crate) fn inline_code(text: &str) -> String {
    format!("`{}`", text.replace('`', "'"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_part_without_space_hash_or_slash_has_no_label_to_parse_for() {
        // The shortcut in `label_of` against the parse it skips.
        for part in [
            "4d6+2",
            "1d20fire",
            "2d6[fire]+3",
            "4d6kh3",
            "d%",
            "1d20+5**bold**",
            "3W6",
            "{1d6,2d8}kh1",
            "1d20\u{a0}fire",
            "1d20/*c*/fire",
            "1d20#fire",
            "1d20//fire",
            "1d20 fire",
            "1d20\tfire",
            "10/2",
        ] {
            let parsed = dice_core::parse(part).ok();
            let by_parse = parsed.as_ref().and_then(|parsed| parsed.label()).is_some();
            assert_eq!(label_of(part).is_some(), by_parse, "{part:?}");
        }
    }

    #[test]
    fn advantage_and_several_rolls_are_read_before_the_dice_language() {
        let cases: &[(&str, Result<&str, &str>)] = &[
            ("1d20+5 adv", Ok("2d20kh1+5")),
            ("d20 dis", Ok("2d20kl1")),
            ("1D20+5 ADV to hit", Ok("2d20kh1+5 to hit")),
            ("1d20ro1+2 adv", Ok("2d20ro1kh1+2")),
            ("1d20+5 # adv", Ok("2d20kh1+5")),
            ("4+1d20 adv", Ok("4+2d20kh1")),
            ("1d20+5 advantage", Ok("2d20kh1+5")),
            ("1d20-1 Disadvantage", Ok("2d20kl1-1")),
            ("1d20+5 Vorteil Angriff", Ok("2d20kh1+5 Angriff")),
            ("1d20-1 nachteil", Ok("2d20kl1-1")),
            ("1d20+5 Vorteile", Ok("1d20+5 Vorteile")),
            ("1d20+5 to hit", Ok("1d20+5 to hit")),
            ("2d20 adv", Err("one d20")),
            ("1d20+1d20 adv", Err("several")),
            ("3d6 adv", Err("none")),
            ("1d20+5 to hit adv", Ok("2d20kh1+5 to hit")),
            ("1d20+5 mit Vorteil", Ok("2d20kh1+5")),
            ("1W20+2 vorteil", Ok("2d20kh1+2")),
            ("1d20+5 # to hit, adv", Ok("2d20kh1+5 # to hit")),
            ("1d20+5 adv dis", Err("both")),
            ("1d20+5 to hit 2d6", Err("`2d6` reads as dice")),
        ];
        for (typed, expected) in cases {
            match (advantage(typed), expected) {
                (Ok(rolled), Ok(wanted)) => assert_eq!(rolled, *wanted, "{typed}"),
                (Err(problem), Err(needle)) => {
                    let message = problem.text(Lang::En);
                    assert!(message.contains(needle), "{message}");
                }
                (got, _) => panic!("{typed}: {got:?}"),
            }
        }
    }

    #[test]
    fn a_roll_with_advantage_is_named_by_its_word_not_its_labels_first() {
        let cases: &[(&str, Option<&str>)] = &[
            ("1d20+5 adv", Some("1d20+5 adv")),
            ("1d20+5 to hit adv", Some("1d20+5 adv")),
            ("1W20+2 mit Vorteil", Some("1W20+2 mit Vorteil")),
            ("1d20+5 zum Treffen mit Vorteil", Some("1d20+5 mit Vorteil")),
            ("1d20+5 Vorteil Angriff", Some("1d20+5 Vorteil")),
            (
                "d20 with disadvantage, sneaking",
                Some("d20 with disadvantage"),
            ),
            ("1d20+5 # to hit, adv", Some("1d20+5 adv")),
            ("1d20+5 to hit", None),
        ];
        for (typed, named) in cases {
            let part = LinePart {
                typed: (*typed).to_owned(),
                rolled: advantage(typed).unwrap(),
            };
            assert_eq!(part.with_advantage().as_deref(), *named, "{typed}");
        }
    }

    #[test]
    fn semicolons_split_up_to_four_rolls() {
        assert_eq!(
            split_rolls("1d20+5; 2d6+3 ;"),
            Ok(vec!["1d20+5".to_owned(), "2d6+3".to_owned()])
        );
        assert!(split_rolls("1;2;3;4;5").is_err_and(|e| e.text(Lang::En).contains("At most 4")));
        assert!(split_rolls(" ; ").is_err());
        assert_eq!(
            split_rolls("1d20+5 to hit, 2d6 dmg; {1, 2}, x, 1d4 ! a, 2d6"),
            Ok(vec![
                "1d20+5 to hit".to_owned(),
                "2d6 dmg".to_owned(),
                "{1, 2}, x".to_owned(),
                "1d4 # a, 2d6".to_owned(),
            ])
        );
    }

    #[test]
    fn a_count_before_dice_is_dice_maidens_repeat() {
        assert_eq!(repeat_prefix("6 4d6"), Some((6, "4d6")));
        assert_eq!(repeat_prefix("2  1W20+5 adv"), Some((2, "1W20+5 adv")));
        assert_eq!(repeat_prefix("6 to hit"), None);
        assert_eq!(repeat_prefix("6 + 4d6"), None);
        assert_eq!(repeat_prefix("4d6"), None);
        assert_eq!(repeat_prefix("6#4d6"), Some((6, "4d6")));
        assert_eq!(
            repeat_prefix("3 # 1d20+4 to hit"),
            Some((3, "1d20+4 to hit"))
        );
        assert_eq!(repeat_prefix("3# 1d20"), Some((3, "1d20")));
        assert_eq!(repeat_prefix("6 # to hit"), None);
        assert_eq!(repeat_prefix("6#"), None);
        assert_eq!(repeat_prefix("6##4d6"), None);
    }
}
