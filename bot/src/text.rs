//! Text shaping for Discord's limits: monospace blocks split below 2,000 characters,
//! labels shortened to fit, user text kept from breaking our markup.

/// Discord's limit on message content, in characters.
pub const MESSAGE_LIMIT: usize = 2000;

/// Wraps text in a monospace block. Triple backticks inside are broken up with a
/// zero-width space so the text cannot close the block.
pub fn code_block(text: &str) -> String {
    let escaped = break_fences(text);
    let body = escaped.trim_end_matches('\n');
    format!("```\n{body}\n```")
}

/// `text` with every run of three backticks broken by a zero-width space, so that
/// it can open or close no code block wherever it is shown (a dice error quoting
/// an unexpected backtick writes one between two of its own). A run of `n` gets
/// `n / 2` spaces ("```" gives "`\u{200b}``"), so the text grows by at most half:
/// [`fence_broken_len`] bounds it, and callers that split text for code blocks
/// split the broken text, not the raw one.
pub fn break_fences(text: &str) -> String {
    let mut broken = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch != '`' {
            broken.push(ch);
            continue;
        }
        let mut run = 1;
        while chars.next_if_eq(&'`').is_some() {
            run += 1;
        }
        push_broken_run(&mut broken, run);
    }
    broken
}

/// A run of `run` backticks as [`break_fences`] writes it: shorter than three as it
/// is, else one backtick, then pairs, each after a zero-width space (in one pass,
/// so a long run costs no more than its length).
fn push_broken_run(out: &mut String, run: usize) {
    if run < 3 {
        out.extend(std::iter::repeat_n('`', run));
        return;
    }
    out.push('`');
    let mut left = run - 1;
    while left > 0 {
        let pair = left.min(2);
        out.push('\u{200b}');
        out.extend(std::iter::repeat_n('`', pair));
        left -= pair;
    }
}

/// The most characters [`break_fences`] can make of `chars` characters of text.
pub fn fence_broken_len(chars: usize) -> usize {
    chars + chars / 2
}

/// Splits program output into chunks of at most `budget` characters, at line ends
/// where possible (a single longer line is cut), so each chunk fits one code block.
pub fn split_chunks(text: &str, budget: usize) -> Vec<String> {
    let budget = budget.max(1);
    let mut chunks = Vec::new();
    let mut current = String::new();
    let mut current_len = 0;
    for line in text.split_inclusive('\n') {
        let line_len = line.chars().count();
        if current_len + line_len <= budget {
            current.push_str(line);
            current_len += line_len;
            continue;
        }
        if !current.is_empty() {
            chunks.push(std::mem::take(&mut current));
        }
        if line_len <= budget {
            current.push_str(line);
            current_len = line_len;
            continue;
        }
        let mut piece = String::new();
        let mut piece_len = 0;
        for ch in line.chars() {
            if piece_len == budget {
                chunks.push(std::mem::take(&mut piece));
                piece_len = 0;
            }
            piece.push(ch);
            piece_len += 1;
        }
        current = piece;
        current_len = piece_len;
    }
    if !current.is_empty() {
        chunks.push(current);
    }
    chunks
}

/// Shortens `text` to at most `max` characters, at a word boundary when one is near,
/// ending with "…".
pub fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    if max == 0 {
        return String::new();
    }
    let keep: String = text.chars().take(max - 1).collect();
    let cut = match keep.rfind(' ') {
        Some(space) if space >= keep.len() / 2 => keep[..space].trim_end().to_owned(),
        _ => keep,
    };
    format!("{cut}…")
}

/// One line of user text for use inside our own markup: no line breaks, at most `max`
/// characters.
pub fn one_line(text: &str, max: usize) -> String {
    let flat: String = text
        .chars()
        .map(|ch| if ch.is_control() { ' ' } else { ch })
        .collect();
    truncate(flat.trim(), max)
}

/// User text for inside our own `code span`: one line of at most `max` characters,
/// its backticks turned into apostrophes so that it can neither close the span nor
/// open a code block.
pub fn code_span_text(text: &str, max: usize) -> String {
    one_line(text, max).replace('`', "'")
}

/// Escapes the inline Discord markdown (bold, italics, strike, code, spoilers) so user
/// text inside our own markup shows literally.
pub fn escape_markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        if matches!(ch, '*' | '_' | '~' | '`' | '|' | '\\') {
            out.push('\\');
        }
        out.push(ch);
    }
    out
}

/// "3 h 5 min", "12 min", "40 s": a rough duration for texts.
pub fn human_duration(ms: i64) -> String {
    crate::i18n::duration(crate::i18n::Lang::En, ms)
}

/// Which first word inside a code block is a language tag rather than text.
#[derive(Debug, Clone, Copy)]
pub enum FenceTag<'a> {
    /// A first line that is one word (a BASIC listing's first line starts with a
    /// line number, so a word there is a tag); the text is trimmed of blank lines.
    AnyWord,
    /// Only these tags (any case), followed by a space or a new line; the text
    /// keeps its first line break, so a script's line numbers stay as pasted.
    Known(&'a [&'a str]),
}

/// The text inside a code block as people paste it (```` ```basic … ``` ````): the
/// fences and a language tag (as `tag` recognises it) go; text without fences is
/// kept as it is (trimmed).
pub fn strip_code_fences(code: &str, tag: FenceTag) -> String {
    let trimmed = code.trim();
    let Some(inner) = trimmed
        .strip_prefix("```")
        .and_then(|rest| rest.strip_suffix("```"))
    else {
        return trimmed.to_owned();
    };
    match tag {
        FenceTag::AnyWord => {
            let (first_line, rest) = inner.split_once('\n').unwrap_or((inner, ""));
            let first_line = first_line.trim();
            let is_tag = first_line
                .chars()
                .next()
                .is_some_and(|ch| ch.is_ascii_alphabetic())
                && first_line.chars().all(|ch| ch.is_ascii_alphanumeric());
            let text = if is_tag { rest } else { inner };
            text.trim_matches('\n').to_owned()
        }
        FenceTag::Known(known) => {
            let language_len = inner
                .find(|ch: char| !ch.is_ascii_alphanumeric())
                .unwrap_or(inner.len());
            let (language, rest) = inner.split_at(language_len);
            let is_tag = !language.is_empty()
                && (rest.starts_with('\n') || rest.starts_with(' '))
                && known.contains(&language.to_lowercase().as_str());
            if is_tag { rest } else { inner }.to_owned()
        }
    }
}

/// A listing's text: UTF-8 (without a byte-order mark), or else Latin-1, which old
/// listings saved by DOS editors read as well as anything.
pub fn decode_listing(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => bytes.iter().map(|&byte| char::from(byte)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs of every length come out without a fence, in one pass, within the bound
    /// that callers budget by.
    #[test]
    fn broken_fences_open_no_block_and_grow_by_at_most_half() {
        let cases = [
            ("", ""),
            ("``", "``"),
            ("```", "`\u{200b}``"),
            ("````", "`\u{200b}``\u{200b}`"),
            ("`````", "`\u{200b}``\u{200b}``"),
            ("a```b``c", "a`\u{200b}``b``c"),
            ("`\u{200b}``", "`\u{200b}``"),
        ];
        for (text, broken) in cases {
            assert_eq!(break_fences(text), broken, "{text:?}");
        }
        for run in 0..300 {
            let text = format!("x{}y", "`".repeat(run));
            let broken = break_fences(&text);
            assert!(!broken.contains("```"), "{run}");
            assert_eq!(broken.replace('\u{200b}', ""), text, "{run}");
            assert!(broken.chars().count() <= fence_broken_len(text.chars().count()));
            // Broken text stays as it is when broken again.
            assert_eq!(break_fences(&broken), broken, "{run}");
        }
    }
}
