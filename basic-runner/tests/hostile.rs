//! Hostile programs: lines too long, expressions too deep, too many dimensions,
//! huge and repeated sources. Each either loads or fails with a clear error
//! naming the line; none panics, overflows the stack or escapes its limits.

use std::sync::Arc;

use basic_runner::{
    Limits, LoadErrorKind, MAX_LINE_CHARS, Program, RndMode, RunErrorKind, Session, StepState,
};
use proptest::prelude::*;

/// `10 PRINT ` followed by `count` copies of `term` joined by `op`.
fn chain(prefix: &str, term: &str, op: &str, count: usize) -> String {
    let terms = vec![term; count];
    format!("{prefix}{}", terms.join(op))
}

/// The longest chain of `term op term …` after `prefix` that fits one line.
fn longest_chain(prefix: &str, term: &str, op: &str) -> String {
    let count = (MAX_LINE_CHARS - prefix.len() + op.len()) / (term.len() + op.len());
    let line = chain(prefix, term, op, count);
    assert!(line.len() <= MAX_LINE_CHARS, "{line}");
    line
}

/// `open` repeated as often as fits with `inner` and the `close`s.
fn deepest_nest(prefix: &str, open: &str, inner: &str, close: &str) -> String {
    let count = (MAX_LINE_CHARS - prefix.len() - inner.len()) / (open.len() + close.len());
    format!(
        "{prefix}{}{inner}{}",
        open.repeat(count),
        close.repeat(count)
    )
}

/// The programs whose lines are as deep as one line can make them.
fn deepest_lines() -> Vec<String> {
    let mut lines = Vec::new();
    for op in [
        "+", "-", "*", "/", "^", "\\", " MOD ", " AND ", " OR ", "=", "<", "<>",
    ] {
        lines.push(longest_chain("10 PRINT ", "1", op));
    }
    lines.push(longest_chain("10 A$=", "\"A\"", "+"));
    lines.push(longest_chain("10 X=", "1*1", "+"));
    lines.push(longest_chain("10 X=2", "^-2", ""));
    lines.push(deepest_nest("10 PRINT ", "(", "1", ")"));
    lines.push(deepest_nest("10 PRINT ", "(1+", "1", ")"));
    lines.push(deepest_nest("10 PRINT ", "-(", "1", ")"));
    lines.push(deepest_nest("10 PRINT ", "ABS(", "1", ")"));
    lines.push(deepest_nest("10 PRINT ", "A(", "1", ")"));
    lines.push(deepest_nest("10 PRINT ", "FNA(", "1", ")"));
    lines.push(deepest_nest("10 PRINT ", "MID$(", "\"A\"", ",1)"));
    lines.push(deepest_nest("10 PRINT ", "NOT ", "1", ""));
    lines.push(deepest_nest("10 PRINT ", "-", "1", ""));
    lines.push(deepest_nest("10 PRINT ", "+", "1", ""));
    lines.push(deepest_nest("10 ", "IF 1 THEN ", "PRINT", ""));
    lines.push(deepest_nest("10 ", "IF 1 THEN PRINT 1 ELSE ", "PRINT", ""));
    lines.push(deepest_nest("10 PRINT ", "1+(", "1", ")"));
    lines.push(deepest_nest("10 X=", "(((1+1)*2)-", "1", ")"));
    lines
}

/// Loads (and runs a little of) every line deep as one line allows, on a thread
/// with a 256 KiB stack: a bot's worker thread must survive any program.
#[test]
fn the_deepest_lines_load_on_a_small_stack() {
    let worker = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let limits = Limits {
                max_steps_per_resume: 100_000,
                ..Limits::default()
            };
            let mut outcomes = Vec::new();
            for line in deepest_lines() {
                let source = format!("5 DEF FNA(X)=X\n{line}\n");
                let loaded = Program::load(&source, &limits);
                let Ok(program) = loaded else {
                    outcomes.push(format!("{line}: {}", loaded.unwrap_err()));
                    continue;
                };
                let errors = program.diagnostics().len();
                let mut session =
                    Session::new(Arc::new(program), RndMode::Seeded(1), limits.clone());
                let run = session.resume(None).map(|step| step.state);
                let _ = session.snapshot();
                outcomes.push(format!("{errors} diagnostics, {:?}", run.is_ok()));
            }
            outcomes
        })
        .expect("thread starts");
    let outcomes = worker.join().expect("no stack overflow and no panic");
    assert_eq!(outcomes.len(), deepest_lines().len());
    for outcome in &outcomes {
        assert!(!outcome.contains("internal"), "{outcome}");
    }
}

#[test]
fn a_line_beyond_255_characters_stops_the_load_naming_it() {
    let long_chain = chain("20 PRINT ", "1", "+", 80_000);
    let cases: Vec<(String, Option<u32>, &str)> = vec![
        (
            format!("10 PRINT 1\n{long_chain}\n"),
            Some(20),
            "Line buffer overflow in 20: the line is 160008 characters, a line holds at most 255",
        ),
        (
            format!("10 REM{}\n", "X".repeat(250)),
            Some(10),
            "Line buffer overflow in 10: the line is 256 characters, a line holds at most 255",
        ),
        (
            format!("10 PRINT 1\n{}\n", "X".repeat(300)),
            None,
            "Line buffer overflow on line 2 of the source: the line is 300 characters, a line holds at most 255",
        ),
        (
            format!("30 DIM A({})\n", vec!["1"; 256].join(",")),
            Some(30),
            "Line buffer overflow in 30: the line is 521 characters, a line holds at most 255",
        ),
    ];
    for (source, line, message) in cases {
        let error = Program::load(&source, &Limits::default()).expect_err("refused");
        assert_eq!(error.kind(), LoadErrorKind::LineTooLong);
        assert_eq!(error.line(), line);
        assert_eq!(error.message(), message);
    }
    // the reproducers of issue 11: one line of 80,000 terms per operator
    for (term, op) in [
        ("1", "+"),
        ("1", "-"),
        ("1", "*"),
        ("1", "^"),
        ("1", "\\"),
        ("1", " MOD "),
        ("1", " AND "),
        ("1", "="),
        ("1", "<"),
        ("\"A\"", "+"),
    ] {
        let source = format!("{}\n", chain("10 PRINT ", term, op, 80_000));
        let error = Program::load(&source, &Limits::default()).expect_err("refused");
        assert_eq!(error.kind(), LoadErrorKind::LineTooLong, "{op}");
        assert!(
            error.message().starts_with("Line buffer overflow in 10: "),
            "{op}"
        );
    }
    // 255 characters exactly still load, with the CR of a DOS line ending not counted
    let full = format!("10 REM{}\r\n", "X".repeat(249));
    assert!(Program::load(&full, &Limits::default()).is_ok());
}

/// GW-BASIC allows 255 dimensions (the count is a byte); any more cannot be
/// written in one line, and the parser refuses them in any case.
#[test]
fn many_dimensions_load_or_fail_cleanly() {
    for count in [1usize, 2, 60, 120] {
        let ones = vec!["0"; count].join(",");
        let source = format!("10 DIM A({ones})\n20 A({ones})=7\n30 PRINT A({ones})\n");
        let program = Program::load(&source, &Limits::default()).expect("loads");
        assert!(program.diagnostics().is_empty(), "{count}");
        let mut session = Session::new(Arc::new(program), RndMode::Seeded(1), Limits::default());
        let step = session.resume(None).expect("runs");
        assert_eq!(step.output, " 7 \n", "{count}");
    }
}

/// Loads and runs a hostile program: the load fails with a known kind or the run
/// ends within every limit, and the snapshot restores.
fn survive(source: &str) {
    let limits = crate::fuzz::limits();
    let program = match Program::load(source, &limits) {
        Ok(program) => Arc::new(program),
        Err(error) => {
            assert_ne!(error.kind(), LoadErrorKind::Internal, "{error}");
            return;
        }
    };
    let mut session = Session::new(Arc::clone(&program), RndMode::Seeded(5), limits.clone());
    let mut input = None;
    for answer in ["1", "A", "", "2,3"] {
        let result = session.resume(input);
        assert!(session.steps() <= limits.max_steps_per_session);
        let snapshot = session.snapshot();
        assert!(
            snapshot.len() <= 64 * 1024 + limits.max_memory_bytes / 2,
            "{}",
            snapshot.len()
        );
        Session::restore(Arc::clone(&program), &snapshot).expect("restores");
        match result {
            Ok(step) => {
                assert!(step.output.len() <= limits.max_output_bytes_per_resume + 300);
                if let StepState::Finished { .. } = step.state {
                    return;
                }
            }
            Err(error) => {
                assert_ne!(error.kind(), RunErrorKind::Internal, "{error}");
                return;
            }
        }
        input = Some(answer);
    }
}

const ATOMS: &[&str] = &[
    "1", "X", "A$", "\"S\"", "A(1)", "FNA(2)", "1E39", "-32768", ".5",
];
const OPERATORS: &[&str] = &[
    "+", "-", "*", "/", "^", "\\", " MOD ", " AND ", "=", "<", ",",
];
const OPENERS: &[&str] = &["(", "-", "NOT ", "ABS(", "A(", "FNA(", "LEFT$(", "+"];

/// An expression nested `depth` deep from random openers, closed where needed.
fn nested_expression() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(prop::sample::select(OPENERS), 0..70),
        prop::sample::select(ATOMS),
    )
        .prop_map(|(openers, atom)| {
            let closers: String = openers
                .iter()
                .rev()
                .map(|open| match *open {
                    "LEFT$(" => ",1)",
                    o if o.ends_with('(') => ")",
                    _ => "",
                })
                .collect();
            format!("{}{atom}{closers}", openers.concat())
        })
}

/// A chain of atoms and operators, from short to far beyond a line.
fn long_expression() -> impl Strategy<Value = String> {
    (
        prop::sample::select(ATOMS),
        prop::sample::select(OPERATORS),
        prop::sample::select(vec![1usize, 10, 60, 100, 127, 130, 500, 5_000]),
    )
        .prop_map(|(atom, op, count)| vec![atom; count].join(op))
}

fn hostile_line() -> impl Strategy<Value = String> {
    prop_oneof![
        nested_expression().prop_map(|e| format!("PRINT {e}")),
        long_expression().prop_map(|e| format!("X = {e}")),
        long_expression().prop_map(|e| format!("PRINT {e}")),
        (1usize..300).prop_map(|n| format!("DIM B({})", vec!["1"; n].join(","))),
        (1usize..300).prop_map(|n| format!("A({}) = 1", vec!["0"; n].join(","))),
        (1usize..60).prop_map(|n| format!("{}PRINT", "IF 1 THEN ".repeat(n))),
        "[ -~]{0,300}",
        "[A-Z0-9(),:+\\-*/^=<>\"$ ]{0,260}",
    ]
}

fn hostile_program() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(hostile_line(), 1..6),
        prop::sample::select(vec![1usize, 2, 50, 2_000]),
    )
        .prop_map(|(lines, repeat)| {
            let mut source = String::from("1 DEF FNA(X)=X\n2 DIM A(10)\n");
            let mut number = 10;
            for _ in 0..repeat {
                for line in &lines {
                    source.push_str(&format!("{number} {line}\n"));
                    number += 1;
                }
                if number > 60_000 {
                    break;
                }
            }
            source
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn hostile_programs_load_or_fail_cleanly_and_run_within_limits(source in hostile_program()) {
        survive(&source);
    }
}

/// Thousands of GOSUBs, each to its own RETURN, with a DEFINT between: the
/// pass that follows which DEF types reach each statement bounds its work
/// (past its edge budget it types every retyped letter as the program runs),
/// so the load stays quick, and the program still runs as GW-BASIC's.
#[test]
fn many_subroutines_with_a_def_statement_load_and_run() {
    let mut source = String::new();
    for index in 0..2000 {
        source.push_str(&format!(
            "{} GOSUB {}: A = A + 1.5: DEFINT A\n",
            10 + index,
            30000 + index
        ));
    }
    source.push_str("5000 PRINT A; A!: END\n");
    for index in 0..2000 {
        source.push_str(&format!("{} RETURN\n", 30000 + index));
    }
    let started = std::time::Instant::now();
    let program = Program::load(&source, &Limits::default()).expect("loads");
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    let mut session = Session::new(Arc::new(program), RndMode::Seeded(1), Limits::default());
    let step = session.resume(None).expect("runs");
    assert_eq!(step.output, " 3998  1.5 \n");
}
