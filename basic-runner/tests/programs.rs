//! Runs every `tests/programs/*.bas` and compares the transcript with `*.out`.
//!
//! A program's inputs are in `NAME.in` (one line per `INPUT`, echoed after the
//! prompt as a terminal shows it). A first line `REM RND=GWBASIC` selects GW-BASIC's
//! random numbers; otherwise the session is seeded with 1. Load errors and
//! diagnostics are written into the transcript as `LOAD ERROR: ...` and
//! `DIAGNOSTIC: ...` lines, so refusals and syntax errors are tested the same way.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use basic_runner::{Limits, Outcome, Program, RndMode, Session, run_transcript};

fn programs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs")
}

/// The transcript of a program run, as the `.out` files hold it.
pub fn transcript_of(source: &str, inputs: &str, limits: Limits) -> String {
    let program = match Program::load(source, &limits) {
        Ok(program) => Arc::new(program),
        Err(error) => return format!("LOAD ERROR: {error}\n"),
    };
    let mut text = String::new();
    for diagnostic in program.diagnostics() {
        text.push_str(&format!("DIAGNOSTIC: {diagnostic}\n"));
    }
    let rnd = if source.starts_with("REM RND=GWBASIC") || source.contains("REM RND=GWBASIC") {
        RndMode::GwBasic
    } else {
        RndMode::Seeded(1)
    };
    let mut session = Session::new(program, rnd, limits);
    let transcript = run_transcript(&mut session, inputs.lines(), true);
    text.push_str(&transcript.text);
    match transcript.outcome {
        Outcome::Finished { records, .. } => {
            for record in records {
                let fields: Vec<String> = record
                    .fields
                    .iter()
                    .map(|(name, value)| format!("{name}={value}"))
                    .collect();
                text.push_str(&format!("RECORD: {}\n", fields.join(", ")));
            }
        }
        Outcome::InputExhausted => text.push_str("\nWAITING FOR INPUT\n"),
        Outcome::Error(_) => {}
    }
    text
}

#[test]
fn every_program_prints_its_expected_transcript() {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(programs_dir())
        .expect("tests/programs exists")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "bas"))
        .collect();
    paths.sort();
    assert!(
        paths.len() >= 10,
        "expected the program suite, found {}",
        paths.len()
    );
    let mut failures = Vec::new();
    for path in &paths {
        let source = std::fs::read_to_string(path).expect("readable program");
        let inputs = std::fs::read_to_string(path.with_extension("in")).unwrap_or_default();
        let expected_path = path.with_extension("out");
        let actual = transcript_of(&source, &inputs, Limits::default());
        if std::env::var_os("BLESS").is_some() {
            std::fs::write(&expected_path, &actual).expect("writable");
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if actual != expected {
            failures.push(format!(
                "{}:\n--- expected\n{expected}\n--- actual\n{actual}",
                path.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
