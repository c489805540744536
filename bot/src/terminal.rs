//! Discord markdown shown in a terminal: bold, italics, underline, strikethrough and
//! code as ANSI styles, escapes (`\*`) as the character they protect.
//!
//! The console uses it only when stdout is a terminal; piped output keeps the markdown
//! as the bot wrote it, so scripts see exactly what Discord would get.

const BOLD: (&str, &str) = ("\x1b[1m", "\x1b[22m");
const ITALIC: (&str, &str) = ("\x1b[3m", "\x1b[23m");
const UNDERLINE: (&str, &str) = ("\x1b[4m", "\x1b[24m");
const STRIKE: (&str, &str) = ("\x1b[9m", "\x1b[29m");
const CODE: (&str, &str) = ("\x1b[7m", "\x1b[27m");
const RESET: &str = "\x1b[0m";

/// The markers, longest first so that `**` is not read as two `*`.
const MARKERS: [(&str, (&str, &str)); 5] = [
    ("**", BOLD),
    ("__", UNDERLINE),
    ("~~", STRIKE),
    ("*", ITALIC),
    ("_", ITALIC),
];

/// `markdown` with its styles as ANSI escape sequences. A style is closed at the end
/// of its line at the latest, so an unpaired marker cannot colour the rest of the text.
pub fn styled(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len() + 16);
    for (index, line) in markdown.split('\n').enumerate() {
        if index > 0 {
            out.push('\n');
        }
        styled_line(line, &mut out);
    }
    out
}

fn styled_line(line: &str, out: &mut String) {
    let mut open: Vec<&str> = Vec::new();
    let mut rest = line;
    while let Some(ch) = rest.chars().next() {
        if ch == '\\'
            && let Some(escaped) = rest[1..].chars().next()
            && escaped.is_ascii_punctuation()
        {
            out.push(escaped);
            rest = &rest[1 + escaped.len_utf8()..];
            continue;
        }
        if ch == '`'
            && let Some(end) = rest[1..].find('`')
        {
            // Code is shown as written, markers and all.
            out.push_str(CODE.0);
            out.push_str(&rest[1..=end]);
            out.push_str(CODE.1);
            rest = &rest[end + 2..];
            continue;
        }
        let marker = MARKERS
            .iter()
            .find(|(marker, _)| rest.starts_with(marker) && word_marker_fits(marker, line, rest));
        if let Some((marker, (on, off))) = marker {
            if let Some(position) = open.iter().position(|opened| opened == marker) {
                open.remove(position);
                out.push_str(off);
            } else if rest[marker.len()..].contains(marker) {
                open.push(marker);
                out.push_str(on);
            } else {
                // Nothing closes it on this line: a plain character.
                out.push_str(marker);
            }
            rest = &rest[marker.len()..];
            continue;
        }
        out.push(ch);
        rest = &rest[ch.len_utf8()..];
    }
    if !open.is_empty() {
        out.push_str(RESET);
    }
}

/// Discord reads `_` as italics only at the edge of a word (`snake_case` stays as it
/// is); the other markers work anywhere.
fn word_marker_fits(marker: &str, line: &str, rest: &str) -> bool {
    if marker != "_" {
        return true;
    }
    let at = line.len() - rest.len();
    let before = line[..at].chars().next_back();
    let after = rest[1..].chars().next();
    let is_word = |ch: Option<char>| ch.is_some_and(char::is_alphanumeric);
    !(is_word(before) && is_word(after))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_becomes_terminal_styles() {
        let table = [
            ("plain", "plain".to_owned()),
            ("**17**", format!("{}17{}", BOLD.0, BOLD.1)),
            ("*you* see", format!("{}you{} see", ITALIC.0, ITALIC.1)),
            ("__u__", format!("{}u{}", UNDERLINE.0, UNDERLINE.1)),
            (
                "~~__1__~~",
                format!("{}{}1{}{}", STRIKE.0, UNDERLINE.0, UNDERLINE.1, STRIKE.1),
            ),
            ("`4d6 *x*`", format!("{}4d6 *x*{}", CODE.0, CODE.1)),
            (r"2 \* 3 \_ok\_", "2 * 3 _ok_".to_owned()),
            ("snake_case_name", "snake_case_name".to_owned()),
            ("a * b", "a * b".to_owned()),
            ("**open\nnext", "**open\nnext".to_owned()),
        ];
        for (markdown, expected) in table {
            assert_eq!(styled(markdown), expected, "{markdown:?}");
        }
    }
}
