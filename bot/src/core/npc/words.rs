//! German words for the engine's own words (issue 18). npc-core understands `bye`,
//! `yes`/`no`, `buy`, `sell` and `done` and must keep Nazghul's semantics, so the bot
//! maps a German player's `tschüss`, `ja`, `kaufe …`, `verkaufen …` or `fertig` to
//! the engine's word before the line reaches it, and only where the conversation
//! waits for that kind of answer: a `ja` at the keyword prompt is a keyword like any
//! other, and a script's own keyword wins over `tschüss`.

use std::borrow::Cow;

use npc_core::Prompt;

/// What ends a conversation at the keyword prompt, spelled as [`fold`] spells it
/// (`tschüss`, `tschüß`, `tschuess`, `tschüs`, and the same without the umlaut).
const BYE: &[&str] = &["tschuess", "tschues", "tschuss", "tschus"];
const YES: &[&str] = &["ja", "j"];
const NO: &[&str] = &["nein"];
const BUY: &[&str] = &["kaufe", "kaufen"];
const SELL: &[&str] = &["verkaufe", "verkaufen"];
const DONE: &[&str] = &["fertig"];

/// The line the engine gets for a German player's `line` while it waits for
/// `prompt`: the engine's word in place of a German one, the line itself otherwise.
/// `script_keyword` says whether the script answers the line's first word itself
/// (asked only at the keyword prompt, only for a German farewell).
pub(super) fn engine_line<'l>(
    prompt: &Prompt,
    line: &'l str,
    script_keyword: impl FnOnce() -> bool,
) -> Cow<'l, str> {
    match prompt {
        Prompt::Keyword => {
            let farewell = npc_core::first_word(line).is_some_and(|word| is(BYE, word));
            if farewell && !script_keyword() {
                return Cow::Borrowed("bye");
            }
        }
        Prompt::YesNo => {
            let answer = line.trim();
            if is(YES, answer) {
                return Cow::Borrowed("yes");
            }
            if is(NO, answer) {
                return Cow::Borrowed("no");
            }
        }
        Prompt::Trade(_) => {
            let mut words = line.split_whitespace();
            let verb = words.next().and_then(|verb| {
                [(BUY, "buy"), (SELL, "sell"), (DONE, "done")]
                    .into_iter()
                    .find(|(german, _)| is(german, verb))
                    .map(|(_, english)| english)
            });
            if let Some(verb) = verb {
                // The engine splits the rest on whitespace too: one space is as good.
                let rest: Vec<&str> = words.collect();
                return Cow::Owned(
                    std::iter::once(verb)
                        .chain(rest)
                        .collect::<Vec<_>>()
                        .join(" "),
                );
            }
        }
        // A number, an author's menu label, nothing: no engine word to map.
        Prompt::Amount | Prompt::Menu(_) | Prompt::Ended(_) => {}
    }
    Cow::Borrowed(line)
}

/// True when `word` is one of `spellings`, in any case, with umlauts or without.
fn is(spellings: &[&str], word: &str) -> bool {
    let folded = fold(word);
    spellings.iter().any(|spelling| *spelling == folded)
}

/// Lower case, `ä ö ü` as `ae oe ue`, `ß` as `ss`: how German is typed on any keyboard.
fn fold(word: &str) -> String {
    let mut folded = String::with_capacity(word.len());
    for ch in word.chars().flat_map(char::to_lowercase) {
        match ch {
            'ä' => folded.push_str("ae"),
            'ö' => folded.push_str("oe"),
            'ü' => folded.push_str("ue"),
            'ß' => folded.push_str("ss"),
            other => folded.push(other),
        }
    }
    folded
}
