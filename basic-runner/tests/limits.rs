//! Every sandbox limit stops a run with an error that names the limit and the line.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use basic_runner::{
    LimitKind, Limits, LoadErrorDetail, LoadErrorKind, Program, RefusalCategory, RndMode,
    RunErrorKind, Session,
};

fn run_with(source: &str, limits: Limits) -> basic_runner::RunError {
    let program = Program::load(source, &limits).expect("program loads");
    let mut session = Session::new(Arc::new(program), RndMode::Seeded(1), limits);
    let mut input = None;
    for _ in 0..100 {
        match session.resume(input) {
            Ok(_) => input = Some("1"),
            Err(error) => return error,
        }
    }
    panic!("no limit was reached");
}

#[test]
fn each_limit_is_reported_with_its_line() {
    // the per-resume step limit, reached two ways below
    let steps_per_resume = (
        Limits {
            max_steps_per_resume: 1000,
            ..Limits::default()
        },
        LimitKind::StepsPerResume,
        "Step limit reached (1000 steps per input) in ",
        1000,
    );
    let step_case = |source| {
        let (limits, kind, message, value) = steps_per_resume.clone();
        (source, limits, kind, message, value)
    };
    let cases: Vec<(&str, Limits, LimitKind, &str, u64)> = vec![
        step_case("10 X = X + 1\n20 GOTO 10\n"),
        (
            "10 INPUT A\n20 FOR I = 1 TO 100: NEXT\n30 GOTO 10\n",
            Limits {
                max_steps_per_session: 2000,
                ..Limits::default()
            },
            LimitKind::StepsPerSession,
            "Step limit reached (2000 steps per session) in ",
            2000,
        ),
        (
            "10 PRINT \"SPAM\"\n20 GOTO 10\n",
            Limits {
                max_output_bytes_per_resume: 1000,
                ..Limits::default()
            },
            LimitKind::OutputPerResume,
            "Output limit reached (1000 bytes per input) in 10",
            1000,
        ),
        (
            "10 RECORD \"N\", \"X\"\n20 GOTO 10\n",
            Limits {
                max_records: 3,
                ..Limits::default()
            },
            LimitKind::Records,
            "Record limit reached (3 characters) in 10",
            3,
        ),
        // LINE INPUT's Out of memory comes before it waits, so a trap that
        // goes back to it never waits: the resume's steps still run out
        step_case(
            "10 DIM A#(7522): ON ERROR GOTO 30: N = 0: S$ = \"\": PRINT FRE(0)\n\
             20 LINE INPUT T$\n30 N = N + 1: PRINT ERR;: RESUME 20\n",
        ),
    ];
    for (source, limits, kind, message, value) in cases {
        let error = run_with(source, limits);
        assert_eq!(error.kind(), RunErrorKind::Limit(kind), "{source}");
        assert_eq!(error.limit(), Some(value), "{source}");
        assert!(
            error.message().starts_with(message),
            "{source}: {}",
            error.message()
        );
        assert!(error.line().is_some(), "{source}");
    }
}

#[test]
fn output_up_to_the_limit_is_kept() {
    let error = run_with(
        "10 PRINT \"SPAM\"\n20 GOTO 10\n",
        Limits {
            max_output_bytes_per_resume: 100,
            ..Limits::default()
        },
    );
    assert_eq!(error.output().len(), 100);
}

#[test]
fn program_size_and_line_count_fail_the_load() {
    let big = "10 PRINT \"XXXXXXXXXXXXXXXXXXXX\"\n".repeat(10);
    let too_large = Program::load(
        &big,
        &Limits {
            max_program_bytes: 100,
            ..Limits::default()
        },
    )
    .expect_err("too large");
    assert_eq!(too_large.kind(), LoadErrorKind::TooLarge);
    let many: String = (1..=50).map(|n| format!("{n} REM\n")).collect();
    let too_many = Program::load(
        &many,
        &Limits {
            max_program_lines: 20,
            ..Limits::default()
        },
    )
    .expect_err("too many lines");
    assert_eq!(too_many.kind(), LoadErrorKind::TooManyLines);
}

#[test]
fn an_overlong_input_line_is_refused_and_the_session_still_waits() {
    let limits = Limits {
        max_input_len: 10,
        ..Limits::default()
    };
    let program = Program::load("10 INPUT A$\n20 PRINT A$\n", &limits).expect("loads");
    let mut session = Session::new(Arc::new(program), RndMode::Seeded(1), limits);
    session.resume(None).expect("waits");
    let error = session
        .resume(Some("this line is far too long"))
        .expect_err("refused");
    assert_eq!(error.kind(), RunErrorKind::InputTooLong);
    assert_eq!(error.limit(), Some(10));
    let step = session.resume(Some("short")).expect("accepted");
    assert_eq!(step.output, "short\n");
}

/// Every load error hands its parameters over as data, for hosts that say it in
/// their own words, beside the English message.
#[test]
fn load_errors_carry_their_parameters() {
    let small = Limits {
        max_program_bytes: 400,
        max_program_lines: 2,
        ..Limits::default()
    };
    let long_line = format!("10 REM{}\n", "X".repeat(300));
    let cases: Vec<(String, LoadErrorDetail, Option<u32>, &str)> = vec![
        (
            "10 REM\n".repeat(60),
            LoadErrorDetail::TooLarge {
                bytes: 420,
                limit: 400,
            },
            None,
            "program is 420 bytes; the limit is 400",
        ),
        (
            "10 REM\n20 REM\n30 REM\n".to_owned(),
            LoadErrorDetail::TooManyLines { limit: 2 },
            Some(30),
            "program has more than 2 lines",
        ),
        (
            long_line,
            LoadErrorDetail::LineTooLong {
                chars: 306,
                max: 255,
                source_line: 1,
            },
            Some(10),
            "Line buffer overflow in 10: the line is 306 characters, a line holds at most 255",
        ),
        (
            "10 REM\nPRINT 1\n".to_owned(),
            LoadErrorDetail::MissingLineNumber { source_line: 2 },
            None,
            "line 2 of the source has no line number",
        ),
        (
            "70000 REM\n".to_owned(),
            LoadErrorDetail::BadLineNumber {
                digits: "70000".to_owned(),
                source_line: 1,
            },
            None,
            "line number 70000 on line 1 of the source is above 65529",
        ),
        (
            "10 PRINT 1\n20 POKE 1, 2\n".to_owned(),
            LoadErrorDetail::Refused {
                keyword: "POKE",
                category: RefusalCategory::DirectMemoryAccess,
            },
            Some(20),
            "POKE is not allowed here (direct memory access) in 20",
        ),
    ];
    for (source, detail, line, message) in cases {
        let error = Program::load(&source, &small).expect_err("refused");
        assert_eq!(error.kind(), detail.kind(), "{source}");
        assert_eq!(error.detail(), &detail, "{source}");
        assert_eq!(error.line(), line, "{source}");
        assert_eq!(error.message(), message, "{source}");
    }
}

fn session_of(source: &str) -> Session {
    let program = Program::load(source, &Limits::default()).expect("program loads");
    Session::new(Arc::new(program), RndMode::Seeded(1), Limits::default())
}

#[test]
fn a_raised_cancel_flag_stops_the_run_at_its_next_check() {
    let flag = Arc::new(AtomicBool::new(false));
    let mut session = session_of("10 INPUT A\n20 GOTO 20\n");
    session.set_cancel(flag.clone());
    // a flag that stays down changes nothing
    assert!(session.resume(None).is_ok());
    let before = session.steps();

    flag.store(true, Ordering::Relaxed);
    let error = session
        .resume(Some("1"))
        .expect_err("the endless loop is cancelled");

    assert_eq!(error.kind(), RunErrorKind::Cancelled);
    assert_eq!(error.line(), Some(20));
    assert_eq!(error.message(), "Cancelled by the host");
    // the flag is read at the first step of a resume
    assert_eq!(session.steps(), before);
}

#[test]
fn a_flag_raised_before_the_start_runs_nothing() {
    let flag = Arc::new(AtomicBool::new(true));
    let mut session = session_of("10 PRINT \"NEVER\"\n20 GOTO 10\n");
    session.set_cancel(flag);

    let error = session.resume(None).expect_err("cancelled");

    assert_eq!(error.kind(), RunErrorKind::Cancelled);
    assert_eq!(error.output(), "");
    assert_eq!(session.steps(), 0);
}

/// A program check (`/chargen install`) is cancellable too: a raised flag stops
/// the load with `Cancelled` and no program; a lowered one loads as `load` does.
#[test]
fn a_raised_cancel_flag_stops_a_load() {
    let source: String = (1..=500)
        .map(|line| format!("{line} A$ = A$ + \"X\"\n"))
        .collect();
    let limits = Limits::default();
    let loaded = Program::load_cancellable(&source, &limits, &AtomicBool::new(false))
        .expect("a lowered flag loads");
    assert_eq!(loaded.line_count(), 500);
    assert_eq!(
        loaded.hash(),
        Program::load(&source, &limits).unwrap().hash()
    );

    let error = Program::load_cancellable(&source, &limits, &AtomicBool::new(true))
        .expect_err("a raised flag loads nothing");
    assert_eq!(error.kind(), LoadErrorKind::Cancelled);
    assert_eq!(error.detail(), &LoadErrorDetail::Cancelled);
    assert_eq!(error.message(), "the load was cancelled");
}

/// Statements whose work grows with their operands cost steps in proportion, so
/// that the step budget bounds time (BENCHMARKS.md): each program's one pass
/// costs at least the steps given, a cheap one a handful.
#[test]
fn costly_statements_charge_for_their_work() {
    let cases: &[(&str, u64, u64)] = &[
        ("10 X = 1\n", 1, 10),
        ("10 DIM A(3999)\n", 1_000, 1_100),
        ("10 DIM A$(3999)\n20 ERASE A$\n", 2_000, 2_100),
        ("10 B(1, 1) = 1\n", 30, 100),
        // CLEAR writes out 256 elements (a capture's bound) and wipes 4,000
        (
            "10 DIM A(3999): A(1) = 1\n20 CLEAR\n",
            1_000 + 1_000 + 256 * 16,
            7_000,
        ),
        (
            "10 DIM A(3999)\n20 RUN 30\n30 END\n",
            1_000 + 1_000 + 256 * 16,
            7_000,
        ),
        (
            "10 A$ = STRING$(255, \"A\"): X = INSTR(A$, STRING$(100, \"B\"))\n",
            (256 - 100) * 100 / 4,
            (256 - 100) * 100 / 4 + 100,
        ),
    ];
    for &(source, least, most) in cases {
        let mut session = session_of(source);
        session.resume(None).expect("the program ends");
        let steps = session.steps();
        assert!(
            (least..=most).contains(&steps),
            "{source}: {steps} steps, not in {least}..={most}"
        );
    }
}

#[test]
fn the_step_limit_stops_a_loop_of_costly_statements_early() {
    let limits = Limits {
        max_steps_per_resume: 100_000,
        ..Limits::default()
    };
    let error = run_with("10 DIM A$(9999)\n20 ERASE A$\n30 GOTO 10\n", limits);

    assert_eq!(error.kind(), RunErrorKind::Limit(LimitKind::StepsPerResume));
}

/// A listing with several refused statements names them all, in line order, so
/// that an author fixes them in one go.
#[test]
fn every_refused_statement_is_reported() {
    use basic_runner::Refusal;
    let source = "10 PRINT 1\n20 POKE 1, 2\n30 OPEN \"X\" FOR OUTPUT AS #1: SOUND 440, 10\n";
    let error = Program::load(source, &Limits::default()).expect_err("refused");
    assert_eq!(
        error.refusals(),
        [
            Refusal {
                line: 20,
                keyword: "POKE",
                category: RefusalCategory::DirectMemoryAccess,
            },
            Refusal {
                line: 30,
                keyword: "OPEN",
                category: RefusalCategory::FileAndDeviceIo,
            },
            Refusal {
                line: 30,
                keyword: "SOUND",
                category: RefusalCategory::Sound,
            },
        ]
    );
    assert_eq!(error.line(), Some(20));
    assert_eq!(
        error.message(),
        "POKE is not allowed here (direct memory access) in 20; OPEN is not allowed here \
         (file and device I/O) in 30; SOUND is not allowed here (sound) in 30"
    );
    let fine = Program::load("10 PRINT 1\n", &Limits::default());
    assert!(fine.is_ok());
}
