//! The README's examples, run: every console transcript in it (a `text` block whose
//! first line is typed, `> …`) goes through `tavern console` on a fresh database with
//! `--seed 1` as the user `ann`, and the output must read as the README says, `…`
//! standing for any text. A typed answer (a line not starting with `/`) is also
//! expected where it was read, as the piped console echoes it. A block right after the line `<!-- console: --lang de -->`
//! runs in German (`--lang de`).

/// The line before a transcript that runs it in German.
const GERMAN_MARKER: &str = "<!-- console: --lang de -->";

/// A console transcript of the README.
struct Transcript {
    typed: Vec<String>,
    expected: String,
    /// `--lang` for the console, if the block asks for one.
    lang: Option<&'static str>,
}

use crate::cli::{stderr, stdout, tavern_in};
use crate::support::TempDir;

/// The console transcripts of a markdown text.
fn transcripts(markdown: &str) -> Vec<Transcript> {
    let mut found = Vec::new();
    let mut lines = markdown.lines();
    let mut previous = "";
    while let Some(line) = lines.next() {
        let before = std::mem::replace(&mut previous, line);
        if line.trim() != "```text" {
            continue;
        }
        let lang = (before.trim() == GERMAN_MARKER).then_some("de");
        let block: Vec<&str> = lines
            .by_ref()
            .take_while(|line| line.trim() != "```")
            .collect();
        if !block.first().is_some_and(|first| first.starts_with("> ")) {
            continue;
        }
        let typed = block
            .iter()
            .filter_map(|line| line.strip_prefix("> "))
            .map(str::to_owned)
            .collect();
        let expected: String = block
            .iter()
            .filter(|line| !line.starts_with("> ") || !line[2..].starts_with('/'))
            .map(|line| format!("{line}\n"))
            .collect();
        found.push(Transcript {
            typed,
            expected,
            lang,
        });
    }
    found
}

/// Whether `text` reads as `pattern`, where each `…` stands for any text.
fn matches(pattern: &str, text: &str) -> bool {
    let pieces: Vec<&str> = pattern.split('…').collect();
    let [first, middle @ .., last] = pieces.as_slice() else {
        return pattern == text;
    };
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    for piece in middle {
        let Some(at) = rest.find(piece) else {
            return false;
        };
        rest = &rest[at + piece.len()..];
    }
    rest.ends_with(last) && rest.len() >= last.len()
}

#[test]
fn a_marker_runs_the_next_transcript_in_german() {
    let markdown =
        "```text\n> /roll 1\n1\n```\n<!-- console: --lang de -->\n```text\n> /roll 2\n2\n```\n";
    let found = transcripts(markdown);
    let langs: Vec<_> = found.iter().map(|example| example.lang).collect();
    assert_eq!(langs, [None, Some("de")]);
    assert_eq!(found[1].typed, ["/roll 2"]);
    assert_eq!(found[1].expected, "2\n");
}

#[test]
fn a_typed_answer_is_expected_as_its_echo() {
    let found = transcripts("```text\n> /chargen start\nNAME?\n> Udo\nHELLO Udo\n```\n");
    assert_eq!(found[0].typed, ["/chargen start", "Udo"]);
    assert_eq!(found[0].expected, "NAME?\n> Udo\nHELLO Udo\n");
}

#[test]
fn the_wildcard_matches_any_text() {
    let table = [
        ("a…c", "abbbc", true),
        ("a…c", "ab\nbc", true),
        ("a…c", "abd", false),
        ("exact\n", "exact\n", true),
        ("…x…", "yxy", true),
        ("a…b…c", "acb", false),
    ];
    for (pattern, text, expected) in table {
        assert_eq!(matches(pattern, text), expected, "{pattern:?} {text:?}");
    }
}

#[test]
fn the_readme_console_examples_are_what_the_console_prints() {
    let readme = include_str!("../../README.md");
    let examples = transcripts(readme);
    assert!(examples.len() >= 3, "the README's console transcripts");
    assert!(
        examples
            .iter()
            .filter(|example| example.lang.is_some())
            .count()
            >= 2,
        "the README's German transcripts"
    );
    for (index, example) in examples.iter().enumerate() {
        let Transcript {
            typed,
            expected,
            lang,
        } = example;
        let dir = TempDir::new(&format!("readme-{index}"));
        let db = dir.path("readme.db");
        let input: String = typed.iter().map(|line| format!("{line}\n")).collect();
        // The README's paths are the repository's, as a reader at its root types them.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut args = vec!["console", "--db", db.to_str().unwrap(), "--seed", "1"];
        if let Some(lang) = lang {
            args.extend(["--lang", lang]);
        }
        let output = tavern_in(Some(&root), &args, &input, &[("USER", "ann")]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let printed = stdout(&output);
        assert!(
            matches(expected, &printed),
            "README example {index} ({typed:?}, {lang:?}) expects\n{expected}\nbut the console printed\n{printed}"
        );
    }
}
