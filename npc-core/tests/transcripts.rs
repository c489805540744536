//! Runs every `tests/play/*.play` file through `npc_core::play`.
//!
//! A file holds one script and one or more cases:
//!
//! ```text
//! # free comment lines before the first section
//! === script
//! ...GhulScript...
//! === input
//! ...stdin of `tavern npc play`...
//! === output
//! ...the exact transcript...
//! ```
//!
//! Several `=== input` / `=== output` pairs may follow one script; each case
//! runs against a fresh state.

use std::path::{Path, PathBuf};

pub struct PlayFile {
    pub path: PathBuf,
    pub script: String,
    pub cases: Vec<(String, String)>,
}

pub fn read_play_file(path: &Path) -> PlayFile {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
    let mut script = String::new();
    let mut cases: Vec<(String, String)> = Vec::new();
    let mut section: Option<String> = None;
    let mut body = String::new();
    let mut flush = |section: &Option<String>, body: &mut String| {
        let taken = std::mem::take(body);
        match section.as_deref() {
            None => {}
            Some("script") => script = taken,
            Some("input") => cases.push((taken, String::new())),
            Some("output") => match cases.last_mut() {
                Some(case) => case.1 = taken,
                None => panic!("{}: output before input", path.display()),
            },
            Some(other) => panic!("{}: unknown section {other}", path.display()),
        }
    };
    for line in text.split_inclusive('\n') {
        if let Some(name) = line.strip_prefix("=== ") {
            flush(&section, &mut body);
            section = Some(name.trim().to_string());
            continue;
        }
        if section.is_some() {
            body.push_str(line);
        }
    }
    flush(&section, &mut body);
    PlayFile {
        path: path.to_path_buf(),
        script,
        cases,
    }
}

pub fn play_files(folder: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("cannot list {}: {error}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "play"))
        .collect();
    files.sort();
    files
}

/// Runs every case of every file through `npc_core::play`; reports all mismatches at once.
pub fn run_play_files(folder: &str) -> usize {
    run_play_files_with(folder, npc_core::play)
}

/// Runs every case of every file through `play`; reports all mismatches at once.
pub fn run_play_files_with(folder: &str, play: fn(&str, &str) -> String) -> usize {
    let mut failures = Vec::new();
    let mut count = 0;
    for path in play_files(folder) {
        let file = read_play_file(&path);
        assert!(!file.cases.is_empty(), "{}: no cases", path.display());
        for (index, (input, expected)) in file.cases.iter().enumerate() {
            count += 1;
            let actual = play(&file.script, input);
            if &actual != expected {
                failures.push(format!(
                    "{} case {}:\n--- expected\n{expected}--- actual\n{actual}",
                    file.path.display(),
                    index + 1
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    count
}

#[test]
fn every_transcript_matches() {
    let count = run_play_files("tests/play");
    assert!(count >= 30, "expected many cases, ran {count}");
}
