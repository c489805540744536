//! `tavern basic`, run as a user runs it: basic-runner's whole program suite through
//! the binary (the same transcripts), stdin running out, errors, limits, GW-BASIC's
//! random numbers, and the shipped chargen.bas.

use std::path::{Path, PathBuf};

use crate::cli::{stderr, stdout, tavern};
use crate::support::TempDir;

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../basic-runner/tests/programs")
}

/// basic-runner's `.out` files hold what a terminal shows plus lines of their own
/// harness: diagnostics first, the records and a note on missing input at the end.
fn terminal_part(expected: &str) -> String {
    let mut text: String = expected
        .split_inclusive('\n')
        .filter(|line| !line.starts_with("DIAGNOSTIC: ") && !line.starts_with("RECORD: "))
        .collect();
    if let Some(stripped) = text.strip_suffix("\nWAITING FOR INPUT\n") {
        text = stripped.to_owned();
    }
    text
}

#[test]
fn the_program_suite_prints_the_same_transcripts_through_the_binary() {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(suite_dir())
        .expect("basic-runner/tests/programs")
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "bas"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 20, "the suite has {} programs", paths.len());
    let mut failures = Vec::new();
    for path in &paths {
        let source = std::fs::read_to_string(path).unwrap();
        let input = std::fs::read_to_string(path.with_extension("in")).unwrap_or_default();
        let expected = std::fs::read_to_string(path.with_extension("out")).unwrap();
        let file = path.to_str().unwrap();
        let mut args = vec!["basic", file, "--echo-input"];
        if source.contains("REM RND=GWBASIC") {
            args.extend(["--rnd", "gwbasic"]);
        } else {
            args.extend(["--seed", "1"]);
        }
        let output = tavern(&args, &input);
        let code = output.status.code();
        if let Some(load_error) = expected.strip_prefix("LOAD ERROR: ") {
            let wanted = format!("tavern basic: {load_error}");
            if code != Some(1) || stderr(&output) != wanted || !stdout(&output).is_empty() {
                failures.push(format!("{file}: load error {code:?} {}", stderr(&output)));
            }
            continue;
        }
        let wanted = terminal_part(&expected);
        if stdout(&output) != wanted {
            failures.push(format!(
                "{file}:\n--- expected\n{wanted}\n--- actual\n{}",
                stdout(&output)
            ));
        }
        let wanted_code = library_exit_code(&source, &input, &args);
        if code != Some(wanted_code) {
            failures.push(format!("{file}: exit {code:?}, wanted {wanted_code}"));
        }
        for diagnostic in expected
            .lines()
            .filter_map(|line| line.strip_prefix("DIAGNOSTIC: "))
        {
            if !stderr(&output).contains(diagnostic) {
                failures.push(format!("{file}: stderr lacks {diagnostic}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The exit code the documented rules give for how the library's own run ends.
fn library_exit_code(source: &str, input: &str, args: &[&str]) -> i32 {
    use basic_runner::{Limits, Outcome, Program, RndMode, RunErrorKind, Session};
    let Ok(program) = Program::load(source, &Limits::default()) else {
        return 1;
    };
    let rnd = if args.contains(&"gwbasic") {
        RndMode::GwBasic
    } else {
        RndMode::Seeded(1)
    };
    let mut session = Session::new(std::sync::Arc::new(program), rnd, Limits::default());
    match basic_runner::run_transcript(&mut session, input.lines(), true).outcome {
        Outcome::Error(error) => match error.kind() {
            RunErrorKind::Limit(_) | RunErrorKind::InputTooLong => 3,
            _ => 1,
        },
        _ => 0,
    }
}

fn program(dir: &TempDir, source: &str) -> String {
    let path = dir.path("program.bas");
    std::fs::write(&path, source).unwrap();
    path.to_str().unwrap().to_owned()
}

const LONG_ANSWER: &str = concat!(
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"
);

#[test]
fn input_echo_exhaustion_errors_and_limits() {
    let dir = TempDir::new("cli-basic");
    let ask = program(
        &dir,
        "10 INPUT \"NAME\"; N$\n20 PRINT \"HELLO \"; N$\n30 INPUT \"AGE\"; A\n40 PRINT A * 2\n",
    );
    // (arguments after the file, stdin, stdout, exit code)
    let cases: Vec<(Vec<&str>, &str, &str, i32)> = vec![
        (
            vec!["--echo-input"],
            "Udo\n21\n",
            "NAME? Udo\nHELLO Udo\nAGE? 21\n 42 \n",
            0,
        ),
        (vec![], "Udo\n21\n", "NAME? HELLO Udo\nAGE?  42 \n", 0),
        // Out of input at an INPUT: the run ends cleanly after the prompt.
        (
            vec!["--echo-input"],
            "Udo\n",
            "NAME? Udo\nHELLO Udo\nAGE? ",
            0,
        ),
        (vec![], "", "NAME? ", 0),
        // CRLF line ends are one line end; a wrong type is asked again.
        (
            vec!["--echo-input"],
            "Udo\r\nold\r\n7\r\n",
            "NAME? Udo\nHELLO Udo\nAGE? old\n?Redo from start\nAGE? 7\n 14 \n",
            0,
        ),
        // An answer longer than GW-BASIC's 255 characters is asked again, as there.
        (vec![], LONG_ANSWER, "NAME? ?Redo from start\nNAME? ", 0),
    ];
    for (extra, stdin, expected, code) in cases {
        let mut args = vec!["basic", ask.as_str()];
        args.extend(extra.iter().copied());
        let output = tavern(&args, stdin);
        assert_eq!(stdout(&output), expected, "{extra:?} {stdin:?}");
        assert_eq!(output.status.code(), Some(code), "{extra:?} {stdin:?}");
    }

    let crash = program(&dir, "10 PRINT \"ROLLING\";\n20 DIM A(5)\n30 A(10) = 1\n");
    let output = tavern(&["basic", &crash], "");
    assert_eq!(stdout(&output), "ROLLING\nSubscript out of range in 30\n");
    assert_eq!(output.status.code(), Some(1));

    let syntax = program(&dir, "10 PRINT \"A\"\n20 PRINT \"B\" +\n30 PRINT \"C\"\n");
    let output = tavern(&["basic", &syntax], "");
    // GW-BASIC names an operand missing at the end of a statement so
    assert_eq!(stdout(&output), "A\nMissing operand in 20\n");
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        "tavern basic: warning: Syntax error in 20 (column 15): expected an expression\n"
    );

    let endless = program(&dir, "10 PRINT \"SPIN\"\n20 GOTO 20\n");
    let output = tavern(&["basic", &endless, "--max-steps", "5000"], "");
    assert_eq!(
        stdout(&output),
        "SPIN\nStep limit reached (5000 steps per input) in 20\n"
    );
    assert_eq!(output.status.code(), Some(3));

    let refused = program(&dir, "10 PRINT 1\n20 OPEN \"X\" FOR OUTPUT AS #1\n");
    let output = tavern(&["basic", &refused], "");
    assert_eq!(stdout(&output), "");
    assert_eq!(
        stderr(&output),
        "tavern basic: OPEN is not allowed here (file and device I/O) in 20\n"
    );
    assert_eq!(output.status.code(), Some(1));

    // Every refused statement is named, not only the first.
    let refused = program(
        &dir,
        "10 PRINT 1\n20 OPEN \"X\" FOR OUTPUT AS #1\n30 POKE 0, 1\n",
    );
    let output = tavern(&["basic", &refused], "");
    assert_eq!(
        stderr(&output),
        "tavern basic: OPEN is not allowed here (file and device I/O) in 20; POKE is not \
         allowed here (direct memory access) in 30\n"
    );
    assert_eq!(output.status.code(), Some(1));

    let missing = tavern(&["basic", "/nonexistent/nothing.bas"], "");
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).starts_with("tavern basic: /nonexistent/nothing.bas: "));
}

#[test]
fn random_numbers_follow_the_seed_or_gw_basic() {
    let dir = TempDir::new("cli-basic-rnd");
    let dice = program(
        &dir,
        "10 FOR I = 1 TO 5: PRINT INT(RND(1) * 6) + 1;: NEXT I\n",
    );
    let seeded = |seed: &str| stdout(&tavern(&["basic", &dice, "--seed", seed], ""));
    assert_eq!(seeded("7"), seeded("7"));
    assert_ne!(seeded("7"), seeded("8"));
    // GW-BASIC's own sequence (without RANDOMIZE the same on every run), as the
    // library makes it.
    let gw = tavern(&["basic", &dice, "--rnd", "gwbasic"], "");
    let source = std::fs::read_to_string(&dice).unwrap();
    let program = basic_runner::Program::load(&source, &basic_runner::Limits::default()).unwrap();
    let mut session = basic_runner::Session::new(
        std::sync::Arc::new(program),
        basic_runner::RndMode::GwBasic,
        basic_runner::Limits::default(),
    );
    let library = basic_runner::run_transcript(&mut session, [], true).text;
    assert_eq!(stdout(&gw), library);
    assert_ne!(stdout(&gw), seeded("7"));
    let bad = tavern(&["basic", &dice, "--rnd", "gwbasic", "--seed", "40000"], "");
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn the_shipped_chargen_runs_to_its_record() {
    let chargen =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../basic-runner/programs/chargen.bas");
    let input = "1\n1\n1\nY\nUdo\nM\n1\n1\nN\n";
    let output = tavern(
        &[
            "basic",
            chargen.to_str().unwrap(),
            "--seed",
            "11",
            "--echo-input",
        ],
        input,
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("WHAT IS YOUR ADVENTURER'S NAME? Udo\nIS Udo MALE OR FEMALE (M/F)? M\n"),
        "{text}"
    );
    assert!(
        text.ends_with(
            "ANOTHER ADVENTURER (Y/N)? N\n\nTHE GUILD CLERK BLOTS THE LEDGER. FAREWELL!\n"
        ),
        "{text}"
    );
    // Page breaks (CHR$(12)) reach the terminal as form feeds.
    assert!(text.starts_with('\x0c'));
}
