//! Arbitrary program text never panics, and every run ends within its limits.

use std::sync::Arc;

use basic_runner::{Limits, Program, RndMode, Session, StepState};
use proptest::prelude::*;

const FRAGMENTS: &[&str] = &[
    "PRINT",
    "INPUT",
    "LINE INPUT",
    "IF",
    "THEN",
    "ELSE",
    "GOTO",
    "GOSUB",
    "RETURN",
    "FOR",
    "TO",
    "STEP",
    "NEXT",
    "WHILE",
    "WEND",
    "DIM",
    "READ",
    "DATA",
    "RESTORE",
    "DEF FN",
    "FNA",
    "END",
    "STOP",
    "CLEAR",
    "RANDOMIZE",
    "SWAP",
    "CLS",
    "ON",
    "LET",
    "REM",
    "ERASE",
    "RECORD",
    "A",
    "B",
    "I",
    "A$",
    "B$",
    "A(",
    "B$(",
    "X%",
    "Y#",
    "1",
    "0",
    "-1",
    "10",
    "255",
    "32767",
    "3.5",
    "1E30",
    "\"HI\"",
    "\"\"",
    "+",
    "-",
    "*",
    "/",
    "\\",
    "^",
    "MOD",
    "AND",
    "OR",
    "NOT",
    "=",
    "<",
    ">",
    "<>",
    "(",
    ")",
    ",",
    ";",
    ":",
    "RND",
    "INT(",
    "LEFT$(",
    "MID$(",
    "CHR$(",
    "STR$(",
    "VAL(",
    "LEN(",
    "STRING$(",
    "SPACE$(",
    "TAB(",
    "SPC(",
    "ASC(",
    "INSTR(",
    "SQR(",
    "LOG(",
    "EXP(",
    "ON ERROR GOTO",
    "RESUME",
    "RESUME NEXT",
    "ERROR",
    "ERR",
    "ERL",
    "PRINT USING",
    "\"##.##\"",
    "\"&\"",
    "10",
    "20",
    "30",
    "40",
    "50",
];

fn program_text() -> impl Strategy<Value = String> {
    let line = (
        prop::sample::select(vec![10u32, 20, 30, 40, 50]),
        prop::collection::vec(prop::sample::select(FRAGMENTS), 0..12),
    )
        .prop_map(|(number, words)| format!("{number} {}", words.join(" ")));
    prop::collection::vec(line, 1..8).prop_map(|lines| lines.join("\n"))
}

fn limits() -> Limits {
    Limits {
        max_steps_per_resume: 20_000,
        max_steps_per_session: 60_000,
        max_memory_bytes: 1 << 20,
        max_output_bytes_per_resume: 16 * 1024,
        max_stack_depth: 200,
        ..Limits::default()
    }
}

/// Runs a program for a bounded number of inputs, snapshotting and restoring
/// halfway to check that both paths agree.
fn exercise(source: &str) {
    let limits = limits();
    let Ok(program) = Program::load(source, &limits) else {
        return;
    };
    let program = Arc::new(program);
    let inputs = ["1", "A", "", "2,3", "\"Q\"", "-7.5"];
    let mut session = Session::new(Arc::clone(&program), RndMode::Seeded(3), limits.clone());
    let mut twin: Option<Session> = None;
    let mut input = None;
    for (round, next_input) in inputs.iter().enumerate() {
        if round == 2 {
            let restored = Session::restore(Arc::clone(&program), &session.snapshot())
                .expect("own snapshot restores");
            twin = Some(restored);
        }
        let result = session.resume(input);
        if let Some(twin) = twin.as_mut() {
            assert_eq!(twin.resume(input), result, "restored session diverged");
        }
        assert!(session.steps() <= limits.max_steps_per_session);
        match result {
            Ok(step) => {
                assert!(step.output.len() <= limits.max_output_bytes_per_resume + 300);
                if let StepState::Finished { .. } = step.state {
                    return;
                }
            }
            Err(_) => return,
        }
        input = Some(*next_input);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn token_soup_never_panics(source in program_text()) {
        exercise(&source);
    }

    #[test]
    fn arbitrary_text_never_panics(source in "[0-9]{1,3} [ -~]{0,40}(\n[0-9]{1,3} [ -~]{0,40}){0,4}") {
        exercise(&source);
    }
}
