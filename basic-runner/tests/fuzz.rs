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

/// Small limits that keep a generated program's run short.
pub(crate) fn limits() -> Limits {
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

fn expression() -> impl Strategy<Value = String> {
    let leaf = prop::sample::select(vec![
        "X", "Y", "I", "A(I)", "LEN(A$)", "1", "0", "-3", "2.5", "1E20", "RND(1)", "32767",
    ])
    .prop_map(str::to_string);
    leaf.prop_recursive(3, 12, 2, |inner| {
        (
            inner.clone(),
            prop::sample::select(vec![
                "+", "-", "*", "/", "^", "\\", " MOD ", " AND ", "<", "=",
            ]),
            inner,
        )
            .prop_map(|(a, op, b)| format!("({a}{op}{b})"))
    })
}

/// Statements that mostly parse, so runs go deep into the VM.
fn statement() -> impl Strategy<Value = String> {
    let line = prop::sample::select(vec![10u32, 20, 30, 40, 50, 60]);
    (
        expression(),
        expression(),
        line,
        prop::sample::select((0..22).collect::<Vec<u32>>()),
    )
        .prop_map(|(a, b, line, kind)| match kind {
            0 => format!("X = {a}"),
            1 => format!("PRINT {a}; {b},"),
            2 => format!("FOR I = 1 TO {a}: Y = Y + {b}: NEXT I"),
            3 => format!("IF {a} THEN {line} ELSE PRINT {b}"),
            4 => format!("GOSUB {line}"),
            5 => "RETURN".to_string(),
            6 => format!("GOTO {line}"),
            7 => format!("DIM A({a})"),
            8 => format!("A({a}) = {b}"),
            9 => "INPUT X, A$".to_string(),
            10 => "A$ = A$ + STR$(X)".to_string(),
            11 => "READ Y: DATA 1, 2, X".to_string(),
            12 => format!("ON {a} GOTO {line}, 10"),
            13 => format!("WHILE {a}: X = X + 1: WEND"),
            14 => format!("DEF FNA(X) = {a}: PRINT FNA({b})"),
            15 => format!("PRINT USING \"##.##\"; {a}"),
            16 => format!("ON ERROR GOTO {line}"),
            17 => "RESUME NEXT".to_string(),
            18 => format!("ERROR {a}"),
            19 => format!("PRINT TAB({a}); SPC({b}); MID$(A$, {a}, {b})"),
            20 => "RECORD \"X\", X".to_string(),
            _ => format!("SWAP X, Y: Y = {a} \\ {b}"),
        })
}

fn structured_program() -> impl Strategy<Value = String> {
    prop::collection::vec(statement(), 1..6).prop_map(|stmts| {
        stmts
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{} {s}", (i + 1) * 10))
            .collect::<Vec<_>>()
            .join("\n")
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn token_soup_never_panics(source in program_text()) {
        exercise(&source);
    }

    #[test]
    fn structured_programs_never_panic(source in structured_program()) {
        exercise(&source);
    }

    #[test]
    fn arbitrary_text_never_panics(source in "[0-9]{1,3} [ -~]{0,40}(\n[0-9]{1,3} [ -~]{0,40}){0,4}") {
        exercise(&source);
    }
}
